/*
 * Iceberg's primitive type strings and partition/sort transforms: parsing, the canonical
 * spelling, and which transform applies to which source type. Iceberg table spec, "Schemas and
 * Data Types" (primitive types) and "Partition Transforms".
 *
 * Spelling follows the Java reference (Types.fromPrimitiveString, Transforms.fromString): names
 * are matched case-insensitively, decimal is "decimal(P,S)" with optional spaces after the comma,
 * fixed is "fixed[L]" with optional spaces inside the brackets. The canonical form is what Java
 * writes: lower case, "decimal(P, S)", "fixed[L]", "bucket[N]", "truncate[W]".
 *
 * The v3 types are here too: variant and unknown are plain names; geometry takes an optional CRS,
 * "geometry(C)", and geography an optional CRS and edge algorithm, "geography(C, A)" (Java's
 * GEOMETRY_PARAMETERS and GEOGRAPHY_PARAMETERS patterns); a CRS given is kept as given.
 *
 * Not for nested types (struct, list, map are JSON objects: iceberg_schema.h).
 */
#ifndef FLOE_ICEBERG_TYPES_H
#define FLOE_ICEBERG_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Highest decimal precision Iceberg allows (spec: "Precision must be 38 or less"). */
#define FLOE_ICEBERG_DECIMAL_MAX_PRECISION 38
/** Room for a geometry or geography CRS, NUL included. */
#define FLOE_ICEBERG_CRS_MAX 80
/** Room for any canonical type or transform string, NUL included. */
#define FLOE_ICEBERG_TYPE_TEXT_MAX 112

typedef enum floe_iceberg_primitive_kind {
    FLOE_ICEBERG_BOOLEAN = 1,
    FLOE_ICEBERG_INT,
    FLOE_ICEBERG_LONG,
    FLOE_ICEBERG_FLOAT,
    FLOE_ICEBERG_DOUBLE,
    FLOE_ICEBERG_DECIMAL,
    FLOE_ICEBERG_DATE,
    FLOE_ICEBERG_TIME,
    FLOE_ICEBERG_TIMESTAMP,
    FLOE_ICEBERG_TIMESTAMPTZ,
    FLOE_ICEBERG_TIMESTAMP_NS,
    FLOE_ICEBERG_TIMESTAMPTZ_NS,
    FLOE_ICEBERG_STRING,
    FLOE_ICEBERG_UUID,
    FLOE_ICEBERG_FIXED,
    FLOE_ICEBERG_BINARY,
    /* format v3 (with timestamp_ns and timestamptz_ns above) */
    FLOE_ICEBERG_VARIANT, /* semi-structured; the spec lists it apart from primitives, JSON "variant" */
    FLOE_ICEBERG_UNKNOWN, /* always null; promotable to any type */
    FLOE_ICEBERG_GEOMETRY,
    FLOE_ICEBERG_GEOGRAPHY,
} floe_iceberg_primitive_kind_t;

typedef enum floe_iceberg_edge_algorithm {
    FLOE_ICEBERG_EDGES_DEFAULT = 0, /* not written: spherical */
    FLOE_ICEBERG_EDGES_SPHERICAL,
    FLOE_ICEBERG_EDGES_VINCENTY,
    FLOE_ICEBERG_EDGES_THOMAS,
    FLOE_ICEBERG_EDGES_ANDOYER,
    FLOE_ICEBERG_EDGES_KARNEY,
} floe_iceberg_edge_algorithm_t;

typedef struct floe_iceberg_primitive {
    floe_iceberg_primitive_kind_t kind;
    int32_t precision; /* decimal only: 1..38 */
    int32_t scale;     /* decimal only: 0..precision */
    int32_t length;    /* fixed only: >= 1 */
    char crs[FLOE_ICEBERG_CRS_MAX];           /* geometry, geography: "" for the default OGC:CRS84 */
    floe_iceberg_edge_algorithm_t algorithm; /* geography only */
} floe_iceberg_primitive_t;

typedef enum floe_iceberg_transform_kind {
    FLOE_ICEBERG_IDENTITY = 1,
    FLOE_ICEBERG_BUCKET,
    FLOE_ICEBERG_TRUNCATE,
    FLOE_ICEBERG_YEAR,
    FLOE_ICEBERG_MONTH,
    FLOE_ICEBERG_DAY,
    FLOE_ICEBERG_HOUR,
    FLOE_ICEBERG_VOID,
} floe_iceberg_transform_kind_t;

typedef struct floe_iceberg_transform {
    floe_iceberg_transform_kind_t kind;
    int32_t param; /* bucket count or truncate width (>= 1); 0 for the others */
} floe_iceberg_transform_t;

/** Parses a primitive type string. Returns 0 and fills *out, or -1 when `text` is not one of
 * Iceberg's primitive types or its parameters are out of range. */
int floe_iceberg_primitive_parse(const char *text, floe_iceberg_primitive_t *out /* OUT */);

/** The first table format version that allows p: 3 for timestamp_ns, timestamptz_ns, variant,
 * unknown, geometry and geography (spec, "Schemas and Data Types"), else 1. */
int floe_iceberg_primitive_min_version(const floe_iceberg_primitive_t *p);

/** Writes the canonical spelling of p into buf (FLOE_ICEBERG_TYPE_TEXT_MAX bytes suffice). */
void floe_iceberg_primitive_format(const floe_iceberg_primitive_t *p, char *buf, size_t size);

/** Parses a transform string (identity, bucket[N], truncate[W], year, month, day, hour, void).
 * Returns 0 and fills *out, or -1. */
int floe_iceberg_transform_parse(const char *text, floe_iceberg_transform_t *out /* OUT */);

/** Writes the canonical spelling of t into buf. */
void floe_iceberg_transform_format(const floe_iceberg_transform_t *t, char *buf, size_t size);

/** True when t can be applied to a column of type `source` (Java's Transform.canTransform):
 * bucket takes int, long, decimal, date, time, timestamps, string, uuid, fixed and binary;
 * truncate takes int, long, decimal, string and binary; year, month and day take dates and
 * timestamps; hour takes timestamps; identity takes any primitive but variant, geometry and
 * geography; void takes anything. */
bool floe_iceberg_transform_accepts(const floe_iceberg_transform_t *t, const floe_iceberg_primitive_t *source);

/** The list of primitive type names, for error messages. */
extern const char floe_iceberg_primitive_names[];

#endif
