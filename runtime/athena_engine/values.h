/*
 * Trino's result values and types as Athena reports them: the type names and precisions of
 * GetQueryResults' ColumnInfo, and each value's text in the result file (doubles as Java prints
 * them, arrays, maps, rows and varbinary as Athena's engine prints them).
 */
#ifndef FLOE_ATHENA_ENGINE_VALUES_H
#define FLOE_ATHENA_ENGINE_VALUES_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#define FLOE_ATHENA_TYPE_MAX 64
#define FLOE_VALUE_TEXT_MAX 64

/** Athena's name for Trino type `trino` ("varchar(3)" is varchar, "real" is float ...), with the
 * precision and scale Athena reports for it. */
void floe_athena_type_of(const char *trino, char out[FLOE_ATHENA_TYPE_MAX], int *precision, int *scale);

/**
 * The text of value v of Trino type `type` (as Trino's columns name it: "double",
 * "array(row(x double, label varchar))" ...) in the result file, as Athena prints it: NULL for a
 * JSON null; else a pointer to the string itself, to `buf` (numbers, booleans) or to *owned
 * (malloc'ed; the caller frees *owned, which is NULL otherwise): a varbinary's bytes in hex
 * ("68 65 6c"), an array as [a, b], a map as {key=value, ...}, a row as {field=value, ...}, with
 * each value inside printed the same way and a NULL there as null.
 */
const char *floe_value_text(const cJSON *v, const char *type, char buf[FLOE_VALUE_TEXT_MAX], char **owned);

/** Athena's SubstatementType of a statement that Trino ended with `update_type` ("" for a query),
 * with an update count or not (`has_count`: a CTAS, not a CREATE TABLE), whose first word is `word`
 * (upper case): SELECT, INSERT, UPDATE, DELETE, MERGE, CREATE_TABLE_AS_SELECT, CREATE_TABLE or
 * DROP_TABLE; NULL for the others, whose Athena name Floe does not know. */
const char *floe_athena_substatement_type(const char *update_type, bool has_count, const char *word);

#endif
