# Runs the generator for the regen target on the pinned inputs committed in models/ (the S3 Tables
# model, or the one given by -DMODEL, the Iceberg REST catalog spec, and the CloudFormation, STS and IAM
# models with their overlays, which generate.py reads from models/ itself) and on docs/engines.md
# (the engine snippets the console shows); nothing is fetched.
if(MODEL STREQUAL "")
  set(MODEL ${SOURCE_DIR}/models/s3tables/s3tables-2018-05-10.smithy.json)
endif()
execute_process(
  COMMAND ${PYTHON} ${SOURCE_DIR}/codegen/generate.py --model ${MODEL}
          --overlay ${SOURCE_DIR}/models/overlay.json --out ${SOURCE_DIR}/generated
          --iceberg-spec ${SOURCE_DIR}/models/iceberg/iceberg-rest-catalog-open-api-1.11.0.yaml
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "codegen failed")
endif()
