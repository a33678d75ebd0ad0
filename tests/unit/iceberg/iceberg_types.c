/* Tests of runtime/iceberg_types.c: every primitive type string and transform, good and bad. */
#include <string.h>

#include "harness.h"
#include "iceberg/iceberg_types.h"

typedef struct ice_type_case {
    const char *text;
    const char *canonical; /* NULL: must be refused */
} ice_type_case_t;

static const ice_type_case_t ice_type_cases[] = {
    {"boolean", "boolean"},
    {"int", "int"},
    {"long", "long"},
    {"float", "float"},
    {"double", "double"},
    {"decimal(9,2)", "decimal(9, 2)"},
    {"decimal(10, 2)", "decimal(10, 2)"},
    {"decimal(38,0)", "decimal(38, 0)"},
    {"decimal(1,1)", "decimal(1, 1)"},
    {"date", "date"},
    {"time", "time"},
    {"timestamp", "timestamp"},
    {"timestamptz", "timestamptz"},
    {"timestamp_ns", "timestamp_ns"},
    {"timestamptz_ns", "timestamptz_ns"},
    {"string", "string"},
    {"uuid", "uuid"},
    {"fixed[16]", "fixed[16]"},
    {"fixed[ 3 ]", "fixed[3]"},
    {"binary", "binary"},
    {"variant", "variant"},
    {"unknown", "unknown"},
    {"geometry", "geometry"},
    {"geometry(srid:4326)", "geometry(srid:4326)"},
    {"geometry( OGC:CRS84 )", "geometry(OGC:CRS84)"},
    {"geography", "geography"},
    {"geography(srid:4326)", "geography(srid:4326)"},
    {"geography(srid:4326, karney)", "geography(srid:4326, karney)"},
    {"geography(srid:4326,VINCENTY)", "geography(srid:4326, vincenty)"},
    {"geometry()", NULL},
    {"geometry(srid:4326", NULL},
    {"geography(srid:4326, flat)", NULL},
    {"geography(a, karney) x", NULL},
    {"LONG", "long"},
    {"Decimal(5,3)", "decimal(5, 3)"},
    {"", NULL},
    {"integer", NULL},
    {"lng", NULL},
    {"varchar", NULL},
    {"timestamp_ms", NULL},
    {" int", NULL},
    {"int ", NULL},
    {"decimal", NULL},
    {"decimal(0,0)", NULL},
    {"decimal(39,2)", NULL},
    {"decimal(10,11)", NULL},
    {"decimal(10)", NULL},
    {"decimal(10,2", NULL},
    {"decimal(10,2))", NULL},
    {"decimal( 10,2)", NULL},
    {"decimal(a,b)", NULL},
    {"decimal(10,-1)", NULL},
    {"fixed", NULL},
    {"fixed[]", NULL},
    {"fixed[0]", NULL},
    {"fixed[16", NULL},
    {"fixed[9999999999]", NULL},
    {"struct", NULL},
    {"list", NULL},
    {"map", NULL},
    {"list<int>", NULL},
    {"map<string,int>", NULL},
};

TEST(iceberg_types_every_primitive_type_string_is_checked)
{
    for (size_t i = 0; i < sizeof(ice_type_cases) / sizeof(ice_type_cases[0]); i++) {
        const ice_type_case_t *c = &ice_type_cases[i];
        floe_iceberg_primitive_t p;
        char buf[FLOE_ICEBERG_TYPE_TEXT_MAX] = "";
        int rc = floe_iceberg_primitive_parse(c->text, &p);

        if (rc == 0)
            floe_iceberg_primitive_format(&p, buf, sizeof(buf));
        if (c->canonical != NULL && (rc != 0 || strcmp(buf, c->canonical) != 0))
            fprintf(stderr, "type case '%s': rc %d, canonical '%s'\n", c->text, rc, buf);
        if (c->canonical == NULL && rc == 0)
            fprintf(stderr, "type case '%s' was accepted\n", c->text);
        CHECK(c->canonical != NULL ? rc == 0 && strcmp(buf, c->canonical) == 0 : rc != 0,
              "a valid type string is accepted and written canonically; an invalid one is refused");
    }
    CHECK(floe_iceberg_primitive_parse(NULL, &(floe_iceberg_primitive_t){0}) != 0, "a missing type is refused");
}

typedef struct ice_transform_case {
    const char *text;
    const char *canonical; /* NULL: must be refused */
} ice_transform_case_t;

static const ice_transform_case_t ice_transform_cases[] = {
    {"identity", "identity"},
    {"bucket[16]", "bucket[16]"},
    {"truncate[10]", "truncate[10]"},
    {"year", "year"},
    {"month", "month"},
    {"day", "day"},
    {"hour", "hour"},
    {"void", "void"},
    {"BUCKET[4]", "bucket[4]"},
    {"Identity", "identity"},
    {"", NULL},
    {"bucket", NULL},
    {"bucket[0]", NULL},
    {"bucket[-1]", NULL},
    {"bucket[x]", NULL},
    {"bucket[16", NULL},
    {"bucket[ 16]", NULL},
    {"truncate[]", NULL},
    {"truncate", NULL},
    {"years", NULL},
    {"hours", NULL},
    {"identity[1]", NULL},
    {"bucket[16]x", NULL},
    {"zorder", NULL},
};

TEST(iceberg_types_every_transform_is_checked)
{
    for (size_t i = 0; i < sizeof(ice_transform_cases) / sizeof(ice_transform_cases[0]); i++) {
        const ice_transform_case_t *c = &ice_transform_cases[i];
        floe_iceberg_transform_t t;
        char buf[FLOE_ICEBERG_TYPE_TEXT_MAX] = "";
        int rc = floe_iceberg_transform_parse(c->text, &t);

        if (rc == 0)
            floe_iceberg_transform_format(&t, buf, sizeof(buf));
        if ((c->canonical != NULL) != (rc == 0))
            fprintf(stderr, "transform case '%s': rc %d\n", c->text, rc);
        CHECK(c->canonical != NULL ? rc == 0 && strcmp(buf, c->canonical) == 0 : rc != 0,
              "a valid transform is accepted and written canonically; an invalid one is refused");
    }
}

typedef struct ice_accepts_case {
    const char *transform;
    const char *type;
    bool accepted;
} ice_accepts_case_t;

static const ice_accepts_case_t ice_accepts_cases[] = {
    {"identity", "double", true},
    {"identity", "boolean", true},
    {"void", "binary", true},
    {"bucket[8]", "long", true},
    {"bucket[8]", "string", true},
    {"bucket[8]", "uuid", true},
    {"bucket[8]", "decimal(9,2)", true},
    {"bucket[8]", "fixed[4]", true},
    {"bucket[8]", "timestamptz_ns", true},
    {"bucket[8]", "boolean", false},
    {"bucket[8]", "float", false},
    {"bucket[8]", "double", false},
    {"truncate[4]", "string", true},
    {"truncate[4]", "int", true},
    {"truncate[4]", "binary", true},
    {"truncate[4]", "decimal(9,2)", true},
    {"truncate[4]", "date", false},
    {"truncate[4]", "uuid", false},
    {"year", "date", true},
    {"month", "timestamp", true},
    {"day", "timestamptz", true},
    {"day", "timestamp_ns", true},
    {"year", "string", false},
    {"day", "long", false},
    {"hour", "timestamp", true},
    {"hour", "timestamptz_ns", true},
    {"hour", "date", false},
    {"hour", "time", false},
};

TEST(iceberg_types_transforms_apply_only_to_their_source_types)
{
    for (size_t i = 0; i < sizeof(ice_accepts_cases) / sizeof(ice_accepts_cases[0]); i++) {
        const ice_accepts_case_t *c = &ice_accepts_cases[i];
        floe_iceberg_transform_t t;
        floe_iceberg_primitive_t p;
        bool ok = floe_iceberg_transform_parse(c->transform, &t) == 0 && floe_iceberg_primitive_parse(c->type, &p) == 0;
        if (ok && floe_iceberg_transform_accepts(&t, &p) != c->accepted)
            fprintf(stderr, "transform %s on %s: expected %d\n", c->transform, c->type, c->accepted);
        CHECK(ok && floe_iceberg_transform_accepts(&t, &p) == c->accepted,
              "a transform applies exactly to the source types Iceberg allows");
    }
}
