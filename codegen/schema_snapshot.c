/*
 * Build-time tool: replays every migration of runtime/db/schema.c on an empty in-memory
 * database and writes the schema it ends with as a C file defining floe_schema_snapshot, the
 * SQL that creates the current schema in one script. schema.c runs it on a fresh database
 * instead of the migrations one by one (each rebuilt table, each ALTER, makes SQLite re-read
 * the whole schema), so the migrations stay the one place the schema is written.
 *
 * Usage: schema_snapshot OUT.c  (CMakeLists.txt runs it; the output is in the build tree only)
 */
#include <sqlite3.h>
#include <stdio.h>

#include "db/schema_snapshot.h"

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

int main(int argc, char **argv)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *stmt = NULL;
    FILE *out = NULL;
    int rc = 1;

    if (argc != 2) {
        fprintf(stderr, "usage: schema_snapshot OUT.c\n");
        return 2;
    }
    if (sqlite3_open(":memory:", &db) != SQLITE_OK || floe_schema_replay(db) != 0)
        goto Exit;
    /* Creation order (rowid) is an order in which each object's dependencies exist; SQLite's
     * own objects (sqlite_sequence, automatic indexes) are made by the statements themselves. */
    if (sqlite3_prepare_v2(db,
                           "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' "
                           "ESCAPE '\\' ORDER BY rowid",
                           -1, &stmt, NULL) != SQLITE_OK)
        goto Exit;
    if ((out = fopen(argv[1], "w")) == NULL)
        goto Exit;
    fputs("/* Written by codegen/schema_snapshot.c from the migrations in runtime/db/schema.c. */\n"
          "#include \"db/schema_snapshot.h\"\n\nconst char floe_schema_snapshot[] =\n",
          out);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
        write_literal(out, (const char *)sqlite3_column_text(stmt, 0));
    fputs("    \"\";\n", out);
    rc = rc == SQLITE_DONE && fclose(out) == 0 ? 0 : 1;
    out = NULL;
Exit:
    if (rc != 0)
        fprintf(stderr, "schema_snapshot: %s\n", db ? sqlite3_errmsg(db) : "cannot open a database");
    if (out)
        fclose(out);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return rc;
}
