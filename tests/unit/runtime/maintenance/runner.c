/* Tests of runtime/maintenance/runner.c's RFC 3339 reader (the route's "now") and job.c's
 * locations and type names. */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "maintenance/maintenance.h"

TEST(maintenance_time_reads_rfc3339)
{
    int64_t ms;

    CHECK(floe_maintenance_parse_time("1970-01-01T00:00:00Z", &ms) == 0 && ms == 0, "the epoch is 0");
    CHECK(floe_maintenance_parse_time("2026-12-03T10:00:00Z", &ms) == 0 && ms == 1796292000000LL,
          "a UTC time is its milliseconds since the epoch");
    CHECK(floe_maintenance_parse_time("2026-12-03T10:00:00.250Z", &ms) == 0 && ms == 1796292000250LL,
          "fractions of a second count");
    CHECK(floe_maintenance_parse_time("2026-12-03T12:00:00+02:00", &ms) == 0 && ms == 1796292000000LL,
          "an offset is taken away");
    CHECK(floe_maintenance_parse_time("2024-02-29T00:00:00Z", &ms) == 0, "a leap day parses");
}

TEST(maintenance_time_refuses_what_is_not_rfc3339)
{
    int64_t ms;
    const char *bad[] = {"", "tomorrow", "2026-12-03", "2026-12-03T10:00:00", "2026-13-01T00:00:00Z",
                         "2026-02-30T00:00:00Z", "2026-12-03T24:00:00Z", "2026-12-03T10:00:00Zjunk",
                         "2026-12-03T10:00:00.Z", "2026-12-03T10:00:00+2:00"};

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        CHECK(floe_maintenance_parse_time(bad[i], &ms) != 0, "a time that is not RFC 3339 is refused");
    CHECK(floe_maintenance_parse_time(NULL, &ms) != 0, "no time is refused");
}

TEST(maintenance_job_keys_stay_inside_the_warehouse)
{
    floe_job_t job = {.warehouse = "abc--table-s3"};
    char *loc;

    CHECK(floe_job_key_of(&job, "s3://abc--table-s3/data/x.parquet") != NULL &&
              strcmp(floe_job_key_of(&job, "s3://abc--table-s3/data/x.parquet"), "data/x.parquet") == 0,
          "a location inside the warehouse gives its key");
    CHECK(floe_job_key_of(&job, "s3://abc--table-s3x/data/x.parquet") == NULL, "a longer bucket name is outside");
    CHECK(floe_job_key_of(&job, "s3://other/data/x.parquet") == NULL, "another bucket is outside");
    CHECK(floe_job_key_of(&job, "s3://abc--table-s3/") == NULL, "the warehouse itself is no object");
    CHECK(floe_job_key_of(&job, "file:///etc/passwd") == NULL, "another scheme is outside");
    loc = floe_job_location_of(&job, "metadata/m.avro");
    CHECK(strcmp(loc, "s3://abc--table-s3/metadata/m.avro") == 0, "a key's location is s3://warehouse/key");
    free(loc);
    CHECK(floe_job_type_from_name("icebergSnapshotManagement") == FLOE_JOB_SNAPSHOT_MANAGEMENT,
          "wire names map to types");
    CHECK(floe_job_type_from_name("IcebergSnapshotManagement") == 0, "names are case-sensitive");
    CHECK(strcmp(floe_job_type_name(FLOE_JOB_RECORD_EXPIRATION), "recordExpiration") == 0, "and back");
}
