# Runs the generator for the regen target: the model given by -DMODEL, else the path the fetch
# script printed into MODEL_PATH_FILE.
if(MODEL STREQUAL "")
  file(READ "${MODEL_PATH_FILE}" MODEL)
  string(STRIP "${MODEL}" MODEL)
endif()
execute_process(
  COMMAND ${PYTHON} ${SOURCE_DIR}/codegen/generate.py --model ${MODEL}
          --overlay ${SOURCE_DIR}/models/overlay.json --out ${SOURCE_DIR}/generated
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "codegen failed")
endif()
