/*
 * What both API families (handlers/s3tables/table.c, handlers/iceberg_rest/iceberg_*.c) share so that they apply AWS's
 * rules for tables the same way: the table name rule and the messages a refused change answers
 * with. The table state itself (drafts, inserts, the metadata pointer's compare-and-swap, deletes,
 * renames, listings) is the catalog's: catalog/table.h.
 */
#ifndef FLOE_CATALOG_TABLE_RULES_H
#define FLOE_CATALOG_TABLE_RULES_H

#include "call/call.h"

/* AWS's messages (as mirrored by moto). */
#define FLOE_TABLE_MESSAGE_EXISTS "A table with an identical name already exists in the namespace."
#define FLOE_TABLE_MESSAGE_STALE_TOKEN "Provided version token does not match the table version token."
#define FLOE_TABLE_MESSAGE_NOT_FOUND "The specified table does not exist."

/**
 * AWS's table name rule beyond what the model checks (length, and the characters a-z, 0-9 and _):
 * a name begins and ends with a letter or a number. FLOE_OK, or FLOE_EINVAL with AWS's
 * "The specified table name is not valid."
 */
int floe_table_check_name(floe_call_t *call, const char *name);

#endif
