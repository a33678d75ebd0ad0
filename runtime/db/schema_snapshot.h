/*
 * The current schema as one SQL script, made at build time by codegen/schema_snapshot.c from the
 * migrations in schema.c (never written by hand). schema.c runs it to create a fresh database.
 */
#ifndef FLOE_SCHEMA_SNAPSHOT_H
#define FLOE_SCHEMA_SNAPSHOT_H

#include <sqlite3.h>

/** CREATE statements for every table, index, view and trigger of the current schema. */
extern const char floe_schema_snapshot[];

/**
 * Applies every migration, one by one, to the empty database db, without a transaction or the
 * version row: what an upgrade from nothing would do. For the snapshot tool and tests. FLOE_OK or FLOE_EFAIL.
 */
int floe_schema_replay(sqlite3 *db);

#endif
