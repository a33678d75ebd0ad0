/*
 * The current schema as one SQL script, and as the image of a database created from it, both made
 * at build time by codegen/schema_snapshot.c from the migrations in schema.c (never written by
 * hand). schema.c runs the script to create a fresh database; schema_image.c writes the image as
 * the database file of a fresh data directory.
 */
#ifndef FLOE_DB_SCHEMA_SNAPSHOT_H
#define FLOE_DB_SCHEMA_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

/** CREATE statements for every table, index, view and trigger of the current schema. */
extern const char floe_schema_snapshot[];

/** One stretch of the image that is not all zero bytes: the image is stored without its long runs
 * of zeros (the unused space of nearly empty pages), which the writer fills in from one zero page. */
typedef struct floe_schema_image_run {
    uint32_t offset; /* in the database file */
    uint32_t length;
} floe_schema_image_run_t;

/** The database file floe_schema_migrate makes from the snapshot on an empty database, in WAL
 * mode: floe_schema_image_size bytes, zero but for the runs, whose bytes follow one another in
 * floe_schema_image_bytes. */
extern const size_t floe_schema_image_size;
extern const size_t floe_schema_image_n_runs;
extern const floe_schema_image_run_t floe_schema_image_runs[];
extern const unsigned char floe_schema_image_bytes[];

/**
 * Applies every migration, one by one, to the empty database db, without a transaction or the
 * version row: what an upgrade from nothing would do. For the snapshot tool and tests. FLOE_OK or FLOE_EFAIL.
 */
int floe_schema_replay(sqlite3 *db);

/**
 * floe_schema_migrate with `snapshot` as the script a fresh database runs: for the snapshot tool,
 * which makes the image from the script it has just written. FLOE_OK or FLOE_EFAIL.
 */
int floe_schema_migrate_with(sqlite3 *db, const char *snapshot);

/**
 * Makes path, which must not exist yet, the database file of the current schema by writing the
 * image (durably: it is on disk before path names it). FLOE_OK when path now holds the image;
 * FLOE_EFAIL when it was not written (path, or a WAL or journal of it, exists, or the file system
 * cannot do it): SQLite then creates the file and floe_schema_migrate runs the snapshot, to the
 * same result.
 */
int floe_schema_image_write(const char *path);

#endif
