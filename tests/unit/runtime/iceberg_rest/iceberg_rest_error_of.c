/* Tests of floe_iceberg_rest_error_of (runtime/iceberg_rest/iceberg_rest_error.c): the REST
 * catalog's one mapper from a failure recorded on the shared call (a house code and its subject)
 * to the spec's error type, so Java's and PyIceberg's clients raise the right exception. */
#include "harness.h"
#include "iceberg_rest/iceberg_rest_error.h"

static floe_iceberg_err_t error_of(int code, floe_subject_t subject, bool names_table, bool is_commit)
{
    floe_failure_t f = {code, subject, NULL, "m"};
    return floe_iceberg_rest_error_of(&f, names_table, is_commit);
}

TEST(iceberg_rest_error_of_a_miss_names_what_is_missing)
{
    CHECK(error_of(FLOE_ENOTFOUND, FLOE_SUBJECT_BUCKET, true, false) == FLOE_ICEBERG_ERR_NoSuchWarehouseException,
          "a missing table bucket is the warehouse");
    CHECK(error_of(FLOE_ENOTFOUND, FLOE_SUBJECT_NAMESPACE, false, false) ==
              FLOE_ICEBERG_ERR_NoSuchNamespaceException,
          "a missing namespace on a namespace route");
    CHECK(error_of(FLOE_ENOTFOUND, FLOE_SUBJECT_NAMESPACE, true, false) == FLOE_ICEBERG_ERR_NoSuchTableException,
          "a missing namespace on a route that names a table is that table's miss");
    CHECK(error_of(FLOE_ENOTFOUND, FLOE_SUBJECT_TABLE, false, false) == FLOE_ICEBERG_ERR_NoSuchTableException,
          "a missing table");
}

TEST(iceberg_rest_error_of_conflicts_and_the_rest)
{
    CHECK(error_of(FLOE_EEXISTS, FLOE_SUBJECT_NAMESPACE, false, false) == FLOE_ICEBERG_ERR_AlreadyExistsException,
          "a taken name");
    CHECK(error_of(FLOE_EEXISTS, FLOE_SUBJECT_TABLE, false, true) == FLOE_ICEBERG_ERR_CommitFailedException,
          "a taken name on a commit route fails the commit");
    CHECK(error_of(FLOE_EINUSE, FLOE_SUBJECT_NAMESPACE, false, false) == FLOE_ICEBERG_ERR_NamespaceNotEmptyException,
          "a namespace that holds tables");
    CHECK(error_of(FLOE_ECHANGED, FLOE_SUBJECT_TABLE, true, true) == FLOE_ICEBERG_ERR_CommitFailedException,
          "a lost compare-and-swap");
    CHECK(error_of(FLOE_EINVAL, FLOE_SUBJECT_TABLE, true, false) == FLOE_ICEBERG_ERR_BadRequestException,
          "a value the rules refuse");
    CHECK(error_of(FLOE_EREADONLY, FLOE_SUBJECT_TABLE, true, true) == FLOE_ICEBERG_ERR_NotAuthorizedException,
          "a write to a replica");
    CHECK(error_of(FLOE_EFAIL, FLOE_SUBJECT_REQUEST, true, false) == FLOE_ICEBERG_ERR_InternalServerError,
          "a failure inside");
}
