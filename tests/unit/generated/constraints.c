/*
 * Tests of the generated validators, table-driven from generated/tests/constraints.def: every
 * (shape, constraint trait) of the model has a value that must pass and one that must fail.
 */
#include <stdio.h>
#include <string.h>

#include "floe_codec.h"
#include "harness.h"

static int check_row(const char *id, int rc, int expect_ok, const floe_violation_t *v)
{
    if ((rc == 0) == (expect_ok != 0))
        return 0;
    fprintf(stderr, "constraint %s: expected the value to %s, got %s%s%s\n", id, expect_ok ? "pass" : "fail",
            rc == 0 ? "a pass" : "a violation", rc == 0 ? "" : ": ", rc == 0 ? "" : v->message);
    return 1;
}

TEST(constraints_every_model_constraint_passes_and_fails)
{
    int failures = 0, rows = 0;
    floe_violation_t v;
    const floe_path_t path = {NULL, "value", -1};
#define FLOE_STRING_CONSTRAINT(id, fn, value, ok) rows++, failures += check_row(id, fn(value, &path, &v), ok, &v);
#define FLOE_NUMBER_CONSTRAINT(id, fn, value, ok) rows++, failures += check_row(id, fn(value, &path, &v), ok, &v);
#define FLOE_COUNT_CONSTRAINT(id, fn, value, ok) rows++, failures += check_row(id, fn(value, &path, &v), ok, &v);
#include "tests/constraints.def"
    CHECK(rows > 0, "the model has constraint rows to test");
    CHECK(failures == 0, "every generated validator accepts its passing value and refuses its failing one");
}

TEST(validate_bucket_name_too_short)
{
    floe_violation_t v;
    const floe_path_t path = {NULL, "name", -1};
    CHECK(floe_validate_TableBucketName("ab", &path, &v) != 0, "a two-character bucket name is refused");
    CHECK(strstr(v.message, "'name'") != NULL && strstr(v.message, "length greater than or equal to 3") != NULL,
          "the message names the member and the length rule");
}

TEST(validate_pattern_dollar_does_not_accept_trailing_newline)
{
    floe_violation_t v;
    const floe_path_t path = {NULL, "name", -1};
    CHECK(floe_validate_TableBucketName("abc\n", &path, &v) != 0, "'$' matches only at the very end, not before \\n");
    CHECK(floe_validate_TableBucketName("abc", &path, &v) == 0, "a plain valid name passes");
}
