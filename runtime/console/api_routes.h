/*
 * The console's read-only JSON routes, one function per route (/_floe/ui/api/<name>), each in the
 * file of the view it serves: session.c (who is looking, and which accounts and regions hold
 * state), buckets.c (table buckets, one bucket's configuration), tables.c (namespaces, tables and
 * the search over table names), table.c (one table, and its objects for the browser to read),
 * stacks.c (CloudFormation). route.c finds them by name. Each answers the request itself (through
 * request.h) and returns FLOE_OK, or FLOE_EFAIL after answering with an error.
 */
#ifndef FLOE_CONSOLE_API_ROUTES_H
#define FLOE_CONSOLE_API_ROUTES_H

#include "catalog/table.h"
#include "console/request.h"

/** GET session: strict signatures or not, the signer's account, the server's default scope. */
int floe_console_session(floe_console_req_t *r);
/** GET scopes: the accounts and regions that hold table buckets or stacks (only the signer's, strict). */
int floe_console_scopes(floe_console_req_t *r);

/** GET buckets?account&region&prefix&limit&token: a page of table buckets, by name. */
int floe_console_buckets(floe_console_req_t *r);
/** GET bucket?arn: a table bucket's configuration (encryption, storage class, maintenance,
 * replication with each destination's status over its tables, policy, metrics) and tags. */
int floe_console_bucket(floe_console_req_t *r);

/** GET namespaces?arn&prefix&limit&token: a page of a bucket's namespaces, by name. */
int floe_console_namespaces(floe_console_req_t *r);
/** GET tables?arn&namespace&prefix&limit&token: a page of a bucket's tables (of one namespace, or
 * all), by (namespace, name); `prefix` is the search over table names. */
int floe_console_tables(floe_console_req_t *r);
/** Writes the members a table has both in the table list and on its own page (name, namespace,
 * arn, format, type, createdAt, modifiedAt) into the JSON object json is inside. */
void floe_console_write_table_summary(floe_json_t *json, const floe_table_row_t *t);

/** GET table?arn: one table: its row, its current metadata.json, maintenance, replication (and,
 * for a replica, its source), encryption, storage class, policy and tags. */
int floe_console_table(floe_console_req_t *r);
/** GET object?arn&location: the bytes of an object inside the table's warehouse (its manifests
 * and data files, which the browser reads itself). */
int floe_console_object(floe_console_req_t *r);

/** GET stacks?account&region: CloudFormation stacks, newest first, deleted ones too. */
int floe_console_stacks(floe_console_req_t *r);
/** GET stack?account&region&id: one stack with its resources, events and outputs. */
int floe_console_stack(floe_console_req_t *r);

#endif
