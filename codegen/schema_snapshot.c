/*
 * Build-time tool: replays every migration of runtime/db/schema.c on an empty in-memory
 * database and writes the schema it ends with as a C file defining floe_schema_snapshot, the
 * SQL that creates the current schema in one script. schema.c runs it on a fresh database
 * instead of the migrations one by one (each rebuilt table, each ALTER, makes SQLite re-read
 * the whole schema), so the migrations stay the one place the schema is written.
 *
 * The same file defines the image of the database schema.c's floe_schema_migrate makes from that
 * script on an empty database, in WAL mode (schema_snapshot.h): the bytes schema_image.c writes
 * as a fresh data directory's database file, which spares a fresh start running the script.
 *
 * Usage: schema_snapshot OUT.c  (CMakeLists.txt runs it; the output is in the build tree only)
 */
#include <stdio.h>
#include <stdlib.h>

#include <sqlite3.h>

#include "db/schema_snapshot.h"

#define MIN_ZERO_RUN 32 /* shorter runs of zeros stay in the image's bytes */

/* schema.c refers to the snapshot; this tool is what makes it, so it links an empty one. */
const char floe_schema_snapshot[] = "";

static void write_literal(FILE *out, const char *sql)
{
    fputs("    \"", out);
    for (const char *c = sql; *c; c++) {
        if (*c == '"' || *c == '\\')
            fprintf(out, "\\%c", *c);
        else if (*c == '\n')
            fputs("\\n\"\n    \"", out);
        else
            fputc(*c, out);
    }
    fputs(";\\n\"\n", out);
}

/* Writes the current schema as SQL, to out as a C literal and to script as plain text. 0 or -1. */
static int write_snapshot(sqlite3 *db, FILE *out, FILE *script)
{
    sqlite3_stmt *stmt = NULL;
    int rc;

    /* Creation order (rowid) is an order in which each object's dependencies exist; SQLite's
     * own objects (sqlite_sequence, automatic indexes) are made by the statements themselves. */
    if (sqlite3_prepare_v2(db,
                           "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' "
                           "ESCAPE '\\' ORDER BY rowid",
                           -1, &stmt, NULL) != SQLITE_OK)
        return -1;
    fputs("const char floe_schema_snapshot[] =\n", out);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        write_literal(out, (const char *)sqlite3_column_text(stmt, 0));
        fprintf(script, "%s;\n", (const char *)sqlite3_column_text(stmt, 0));
    }
    fputs("    \"\";\n\n", out);
    sqlite3_finalize(stmt);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* The end of the run of image that starts at `at` (a non-zero byte): where MIN_ZERO_RUN zeros or
 * the end of the image follow. */
static sqlite3_int64 run_end(const unsigned char *image, sqlite3_int64 size, sqlite3_int64 at)
{
    sqlite3_int64 end = at, zeros = 0;

    while (end < size && zeros < MIN_ZERO_RUN) {
        zeros = image[end] == 0 ? zeros + 1 : 0;
        end++;
    }
    return end - zeros;
}

/* Writes the image as its runs of non-zero bytes and their bytes (schema_snapshot.h). */
static void write_image(FILE *out, unsigned char *image, sqlite3_int64 size)
{
    size_t n_runs = 0, col = 0;

    /* Bytes 18 and 19 of the header are the file format's write and read versions: 2 is WAL, what
     * PRAGMA journal_mode=WAL would write on the first open. An in-memory database cannot be in WAL
     * mode, so its image says 1. */
    image[18] = image[19] = 2;
    fputs("const floe_schema_image_run_t floe_schema_image_runs[] = {\n", out);
    for (sqlite3_int64 at = 0, end; at < size; at = end) {
        if (image[at] == 0) {
            end = at + 1;
            continue;
        }
        end = run_end(image, size, at);
        fprintf(out, "    {%lld, %lld},\n", (long long)at, (long long)(end - at));
        n_runs++;
    }
    fprintf(out, "};\nconst size_t floe_schema_image_n_runs = %zu;\nconst size_t floe_schema_image_size = %lld;\n"
                 "const unsigned char floe_schema_image_bytes[] = {",
            n_runs, (long long)size);
    for (sqlite3_int64 at = 0, end; at < size; at = end) {
        if (image[at] == 0) {
            end = at + 1;
            continue;
        }
        end = run_end(image, size, at);
        for (sqlite3_int64 i = at; i < end; i++)
            fprintf(out, "%s%u,", col++ % 24 == 0 ? "\n    " : "", image[i]);
    }
    fputs("\n};\n", out);
}

int main(int argc, char **argv)
{
    sqlite3 *db = NULL, *fresh = NULL;
    FILE *out = NULL, *script = NULL;
    char *script_text = NULL;
    size_t script_len = 0;
    unsigned char *image = NULL;
    sqlite3_int64 image_size = 0;
    int rc = 1;

    if (argc != 2) {
        fprintf(stderr, "usage: schema_snapshot OUT.c\n");
        return 2;
    }
    if (sqlite3_open(":memory:", &db) != SQLITE_OK || floe_schema_replay(db) != 0)
        goto Exit;
    if ((out = fopen(argv[1], "w")) == NULL || (script = open_memstream(&script_text, &script_len)) == NULL)
        goto Exit;
    fputs("/* Written by codegen/schema_snapshot.c from the migrations in runtime/db/schema.c. */\n"
          "#include \"db/schema_snapshot.h\"\n\n",
          out);
    if (write_snapshot(db, out, script) != 0 || fclose(script) != 0)
        goto Exit;
    script = NULL;
    /* The image is of the database a fresh start makes from the script, made the same way. */
    if (sqlite3_open(":memory:", &fresh) != SQLITE_OK || floe_schema_migrate_with(fresh, script_text) != 0 ||
        (image = sqlite3_serialize(fresh, "main", &image_size, 0)) == NULL)
        goto Exit;
    write_image(out, image, image_size);
    rc = fclose(out) == 0 ? 0 : 1;
    out = NULL;
Exit:
    if (rc != 0)
        fprintf(stderr, "schema_snapshot: %s\n", fresh ? sqlite3_errmsg(fresh) : db ? sqlite3_errmsg(db) : "cannot open a database");
    if (out)
        fclose(out);
    if (script)
        fclose(script);
    free(script_text);
    sqlite3_free(image);
    sqlite3_close(fresh);
    sqlite3_close(db);
    return rc;
}
