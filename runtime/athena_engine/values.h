/*
 * Trino's result values and types as Athena reports them: the type names and precisions of
 * GetQueryResults' ColumnInfo, and each value's text in the result file (doubles as Java prints
 * them, as Athena's engine does).
 */
#ifndef FLOE_ATHENA_ENGINE_VALUES_H
#define FLOE_ATHENA_ENGINE_VALUES_H

#include <cjson/cJSON.h>

#define FLOE_ATHENA_TYPE_MAX 64
#define FLOE_VALUE_TEXT_MAX 64

/** Athena's name for Trino type `trino` ("varchar(3)" is varchar, "real" is float ...), with the
 * precision and scale Athena reports for it. */
void floe_athena_type_of(const char *trino, char out[FLOE_ATHENA_TYPE_MAX], int *precision, int *scale);

/**
 * The text of value v of Athena type `type` in the result file: NULL for a JSON null; else a
 * pointer to the string itself, to `buf` (numbers, booleans) or to *owned (arrays, maps and rows,
 * malloc'ed; the caller frees *owned, which is NULL otherwise).
 */
const char *floe_value_text(const cJSON *v, const char *type, char buf[FLOE_VALUE_TEXT_MAX], char **owned);

#endif
