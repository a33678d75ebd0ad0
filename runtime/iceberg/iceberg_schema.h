/*
 * Iceberg schemas as JSON (the REST spec's Schema: a struct type with "fields", plus "schema-id"
 * and "identifier-field-ids"): an index of every field by id and by full name, the checks a new
 * schema must pass, the fresh id assignment of a new table, and schema equality.
 *
 * Field ids cover struct fields and the element, key and value of lists and maps: they share one
 * id space (Iceberg table spec, "Schemas"). Full names follow the Java reference: "a.b" for a
 * nested struct field, "l.element", "m.key" and "m.value" for collections.
 *
 * Not for reading metadata.json (iceberg_metadata.h) or partition specs (iceberg_spec.h).
 */
#ifndef FLOE_ICEBERG_SCHEMA_H
#define FLOE_ICEBERG_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "iceberg/iceberg_error.h"
#include "iceberg/iceberg_types.h"

/** One field of a schema, found by walking its type tree. */
typedef struct floe_iceberg_field {
    int32_t id;
    char *name;        /* full name, owned by the index */
    const cJSON *type;   /* borrowed from the schema: a string or an object */
    const cJSON *object; /* the struct field's JSON object; NULL for list elements, map keys and values */
    bool is_primitive;
    floe_iceberg_primitive_t primitive; /* when is_primitive */
    bool required;
    bool in_collection;  /* under a list element or a map key or value */
    bool under_optional; /* some enclosing field or element is optional */
} floe_iceberg_field_t;

/** Every field of one schema, in depth-first order. Borrows the schema: keep it alive. */
typedef struct floe_iceberg_schema_index {
    floe_iceberg_field_t *fields;
    size_t n_fields;
    size_t cap_fields;
    int32_t highest_id; /* 0 for a schema without fields */
} floe_iceberg_schema_index_t;

/**
 * Indexes `schema` and checks it is a well-formed Iceberg schema: every field has an integer id,
 * a name, a `required` flag and a valid type (a primitive string or a struct, list or map object
 * with their ids and flags); ids are unique across the schema; names are unique within each
 * struct; identifier-field-ids name required primitive fields that are not float or double, not
 * in a list or map and not under an optional field. Returns 0 with *idx filled (release with
 * floe_iceberg_schema_index_dispose), or FLOE_ICEBERG_EINVALID with err set and *idx empty.
 */
int floe_iceberg_schema_index(const cJSON *schema, floe_iceberg_schema_index_t *idx /* OUT */,
                              floe_iceberg_error_t *err /* OUT */);

/** Frees the names and the array; idx is left empty. */
void floe_iceberg_schema_index_dispose(floe_iceberg_schema_index_t *idx);

/** The field with this id, or NULL. Points into idx. */
const floe_iceberg_field_t *floe_iceberg_schema_find(const floe_iceberg_schema_index_t *idx, int32_t id);

/** The field with this full name (case-sensitive), or NULL. Points into idx. */
const floe_iceberg_field_t *floe_iceberg_schema_find_name(const floe_iceberg_schema_index_t *idx, const char *name);

/** True when a and b describe the same schema: the same fields, types, names, flags and docs, and
 * the same identifier-field-ids, whatever their schema-id (Java's Schema.sameSchema). */
bool floe_iceberg_schema_same(const cJSON *a, const cJSON *b);

/** Pairs of (id in the caller's input, id assigned by floe_iceberg_schema_fresh). */
typedef struct floe_iceberg_id_map {
    struct floe_iceberg_id_pair {
        int32_t from;
        int32_t to;
    } * pairs;
    size_t n;
    size_t cap;
} floe_iceberg_id_map_t;

/** The id `from` maps to: returns 0 and sets *to, or -1 when `from` is not in the map. */
int floe_iceberg_id_map_get(const floe_iceberg_id_map_t *map, int32_t from, int32_t *to /* OUT */);
void floe_iceberg_id_map_dispose(floe_iceberg_id_map_t *map);

/**
 * Builds a new table's schema from `schema_in` with fresh field ids 1..n, in the order of Java's
 * TypeUtil.assignFreshIds: a struct's own fields take the next ids first, then each field's type
 * is visited in order (a list takes an id for its element before the element's type is visited;
 * a map takes ids for its key and then its value before visiting either). So for
 * a: struct<x, y>, b: list<int>, the ids are a=1, b=2, x=3, y=4, b.element=5.
 *
 * The input's ids (field "id", "element-id", "key-id", "value-id") are optional and only feed
 * *map, so the caller can translate references made with input ids (partition and sort source
 * ids, identifier-field-ids, which this function translates itself). Types are checked and
 * written canonically; fields are written as {id, name, required, type, doc}.
 *
 * Returns 0 with *schema_out (a new struct schema with "schema-id": 0, the caller deletes it),
 * *map (the caller disposes it) and *last_column_id set, or FLOE_ICEBERG_EINVALID with err set
 * and nothing to free.
 */
int floe_iceberg_schema_fresh(const cJSON *schema_in, cJSON **schema_out /* OUT */,
                              floe_iceberg_id_map_t *map /* OUT */, int32_t *last_column_id /* OUT */,
                              floe_iceberg_error_t *err /* OUT */);

#endif
