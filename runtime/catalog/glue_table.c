/* The glue_table rows of glue_table.h; a summary reads the document's TableInput members by their
 * wire names (AWS's Glue API reference, TableInput and StorageDescriptor). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "call/call_sql.h"
#include "call/transaction.h"
#include "catalog/glue_database.h"
#include "catalog/glue_table.h"

FLOE_SQL(sql_glue_table_insert,
    "INSERT INTO glue_table (account, region, database_name, name, document, version, created_at, updated_at)"
    " VALUES (?1, ?2, ?3, ?4, ?5, 0, ?6, ?6) ON CONFLICT (account, region, database_name, name) DO NOTHING");

FLOE_SQL(sql_glue_table_read,
    "SELECT database_name, name, document, version, created_at, updated_at FROM glue_table"
    " WHERE account = ?1 AND region = ?2 AND database_name = ?3 AND name = ?4");

FLOE_SQL(sql_glue_table_list,
    "SELECT database_name, name, document, version, created_at, updated_at FROM glue_table"
    " WHERE account = ?1 AND region = ?2 AND database_name = ?3 AND name > ?4 ORDER BY name LIMIT ?5");

FLOE_SQL(sql_glue_table_update,
    "UPDATE glue_table SET document = ?5, version = version + 1, updated_at = ?6"
    " WHERE account = ?1 AND region = ?2 AND database_name = ?3 AND name = ?4");

FLOE_SQL(sql_glue_table_remove,
    "DELETE FROM glue_table WHERE account = ?1 AND region = ?2 AND database_name = ?3 AND name = ?4");

FLOE_SQL(sql_glue_table_remove_all, "DELETE FROM glue_table WHERE account = ?1 AND region = ?2 AND database_name = ?3");

FLOE_SQL(sql_glue_statistics_put,
    "INSERT INTO glue_column_statistics (account, region, database_name, table_name, column_name, document)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (account, region, database_name, table_name, column_name)"
    " DO UPDATE SET document = excluded.document");

FLOE_SQL(sql_glue_statistics_read,
    "SELECT document FROM glue_column_statistics"
    " WHERE account = ?1 AND region = ?2 AND database_name = ?3 AND table_name = ?4 AND column_name = ?5");

FLOE_SQL(sql_glue_statistics_remove,
    "DELETE FROM glue_column_statistics"
    " WHERE account = ?1 AND region = ?2 AND database_name = ?3 AND table_name = ?4 AND column_name = ?5");

FLOE_SQL(sql_glue_statistics_remove_table,
    "DELETE FROM glue_column_statistics WHERE account = ?1 AND region = ?2 AND database_name = ?3 AND table_name = ?4");

FLOE_SQL(sql_glue_statistics_remove_all,
    "DELETE FROM glue_column_statistics WHERE account = ?1 AND region = ?2 AND database_name = ?3");

typedef struct table_write {
    const char *database;
    const char *name;
    const char *document;
    const char *expected; /* an update's expected version, or NULL; a statistics write's column */
    int64_t version;      /* OUT: an update's new version */
    int rc;               /* OUT: the house code the body ended with (a transaction answers FLOE_EFAIL) */
} table_write_t;

/* Runs body in one transaction: FLOE_OK, or the house code it refused with. */
static int write_in_transaction(floe_call_t *call, int (*body)(floe_call_t *call, void *arg), table_write_t *a)
{
    a->rc = FLOE_EFAIL;
    return floe_call_in_transaction(call, body, a) == FLOE_OK ? FLOE_OK : a->rc;
}

static int insert_body(floe_call_t *call, void *arg)
{
    table_write_t *a = arg;
    floe_glue_database_row_t db;

    if ((a->rc = floe_glue_database_read(call, a->database, &db)) != FLOE_OK)
        return a->rc;
    a->rc = floe_sql_write(call, floe_sql_bind(call, sql_glue_table_insert, "ttttti", floe_call_account(call),
                                               floe_call_region(call), a->database, a->name, a->document,
                                               (int64_t)floe_call_now(call)));
    if (a->rc == FLOE_ENOTFOUND)
        a->rc = FLOE_EEXISTS; /* the conflict did nothing: the name is taken */
    return a->rc;
}

int floe_glue_table_insert(floe_call_t *call, const char *database, const char *name, const char *document)
{
    table_write_t a = {database, name, document, NULL, 0, FLOE_EFAIL};

    return write_in_transaction(call, insert_body, &a);
}

static void read_columns(floe_call_t *call, floe_db_stmt_t *stmt, void *row)
{
    floe_glue_table_row_t *out = row;

    out->database = floe_sql_text(call, stmt, 0);
    out->name = floe_sql_text(call, stmt, 1);
    out->document = floe_sql_text(call, stmt, 2);
    out->version = floe_db_column_int64(stmt, 3);
    out->created_at = floe_db_column_int64(stmt, 4);
    out->updated_at = floe_db_column_int64(stmt, 5);
}

int floe_glue_table_read(floe_call_t *call, const char *database, const char *name, floe_glue_table_row_t *out)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_glue_table_read, "tttt", floe_call_account(call),
                                         floe_call_region(call), database, name);

    return floe_sql_read_one(call, stmt, read_columns, out);
}

int floe_glue_table_list(floe_call_t *call, const char *database, const char *after, int limit,
                         floe_glue_table_row_t **rows, size_t *n)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_glue_table_list, "tttti", floe_call_account(call),
                                         floe_call_region(call), database, after, (int64_t)limit);
    int rc;

    *n = 0;
    *rows = floe_call_alloc(call, sizeof(**rows) * ((size_t)limit + 1));
    if (stmt == NULL)
        return FLOE_EFAIL;
    while ((rc = floe_sql_step(call, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW)
        read_columns(call, stmt, &(*rows)[(*n)++]);
    floe_db_reset(stmt);
    return rc == FLOE_DB_DONE ? FLOE_OK : FLOE_EFAIL;
}

/* The compare-and-swap of Glue's VersionId: read, check, write in one transaction. */
static int update_body(floe_call_t *call, void *arg)
{
    table_write_t *a = arg;
    floe_glue_table_row_t row;
    char current[24];

    if ((a->rc = floe_glue_table_read(call, a->database, a->name, &row)) != FLOE_OK)
        return a->rc;
    snprintf(current, sizeof(current), "%" PRId64, row.version);
    if (a->expected != NULL && strcmp(a->expected, current) != 0)
        return a->rc = FLOE_ECHANGED;
    a->version = row.version + 1;
    return a->rc = floe_sql_write(call, floe_sql_bind(call, sql_glue_table_update, "ttttti", floe_call_account(call),
                                              floe_call_region(call), a->database, a->name, a->document,
                                              (int64_t)floe_call_now(call)));
}

int floe_glue_table_update(floe_call_t *call, const char *database, const char *name, const char *expected,
                           const char *document, int64_t *version)
{
    table_write_t a = {database, name, document, expected, 0, FLOE_EFAIL};
    int rc = write_in_transaction(call, update_body, &a);

    *version = a.version;
    return rc;
}

/* A write that finds nothing to delete has done its work. */
static int deleted(int rc)
{
    return rc == FLOE_ENOTFOUND ? FLOE_OK : rc;
}

static int remove_body(floe_call_t *call, void *arg)
{
    table_write_t *a = arg;

    a->rc = floe_sql_write(call, floe_sql_bind(call, sql_glue_table_remove, "tttt", floe_call_account(call),
                                               floe_call_region(call), a->database, a->name));
    if (a->rc == FLOE_OK)
        a->rc = deleted(floe_sql_write(call, floe_sql_bind(call, sql_glue_statistics_remove_table, "tttt",
                                                           floe_call_account(call), floe_call_region(call),
                                                           a->database, a->name)));
    return a->rc;
}

int floe_glue_table_remove(floe_call_t *call, const char *database, const char *name)
{
    table_write_t a = {database, name, NULL, NULL, 0, FLOE_EFAIL};

    return write_in_transaction(call, remove_body, &a);
}

static int statistics_put_body(floe_call_t *call, void *arg)
{
    table_write_t *a = arg;
    floe_glue_table_row_t row;

    if ((a->rc = floe_glue_table_read(call, a->database, a->name, &row)) != FLOE_OK)
        return a->rc;
    return a->rc = floe_sql_write(call, floe_sql_bind(call, sql_glue_statistics_put, "tttttt", floe_call_account(call),
                                                      floe_call_region(call), a->database, a->name, a->expected,
                                                      a->document));
}

int floe_glue_table_statistics_put(floe_call_t *call, const char *database, const char *name, const char *column,
                                   const char *document)
{
    table_write_t a = {database, name, document, column, 0, FLOE_EFAIL};

    return write_in_transaction(call, statistics_put_body, &a);
}

/* A statistics row's document (a char ** in `out`). */
static void read_document(floe_call_t *call, floe_db_stmt_t *stmt, void *out)
{
    *(char **)out = floe_sql_text(call, stmt, 0);
}

int floe_glue_table_statistics_read(floe_call_t *call, const char *database, const char *name, const char *column,
                                    char **document)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_glue_statistics_read, "ttttt", floe_call_account(call),
                                         floe_call_region(call), database, name, column);

    return floe_sql_read_one(call, stmt, read_document, document);
}

int floe_glue_table_statistics_remove(floe_call_t *call, const char *database, const char *name, const char *column)
{
    return deleted(floe_sql_write(call, floe_sql_bind(call, sql_glue_statistics_remove, "ttttt", floe_call_account(call),
                                                      floe_call_region(call), database, name, column)));
}

static int drop_database_body(floe_call_t *call, void *arg)
{
    table_write_t *a = arg;

    if ((a->rc = floe_glue_database_remove(call, a->database)) != FLOE_OK)
        return a->rc;
    a->rc = deleted(floe_sql_write(call, floe_sql_bind(call, sql_glue_table_remove_all, "ttt", floe_call_account(call),
                                                       floe_call_region(call), a->database)));
    if (a->rc == FLOE_OK)
        a->rc = deleted(floe_sql_write(call, floe_sql_bind(call, sql_glue_statistics_remove_all, "ttt",
                                                           floe_call_account(call), floe_call_region(call),
                                                           a->database)));
    return a->rc;
}

int floe_glue_table_drop_database(floe_call_t *call, const char *database)
{
    table_write_t a = {database, NULL, NULL, NULL, 0, FLOE_EFAIL};

    return write_in_transaction(call, drop_database_body, &a);
}

/* ---- a summary of the document ---- */

static char *text_of(floe_call_t *call, const cJSON *o, const char *key)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsString(item) ? floe_call_strdup(call, item->valuestring) : NULL;
}

static floe_glue_table_column_t *columns_of(floe_call_t *call, const cJSON *list, size_t *n)
{
    floe_glue_table_column_t *out = floe_call_alloc(call, sizeof(*out) * ((size_t)cJSON_GetArraySize(list) + 1));
    const cJSON *c;

    *n = 0;
    cJSON_ArrayForEach(c, list)
    {
        out[*n].name = text_of(call, c, "Name");
        out[*n].type = text_of(call, c, "Type");
        out[(*n)++].comment = text_of(call, c, "Comment");
    }
    return out;
}

static void pairs_of(floe_call_t *call, const cJSON *map, floe_glue_table_pairs_t *out)
{
    size_t size = (size_t)cJSON_GetArraySize(map) + 1;
    const cJSON *item;

    out->n = 0;
    out->keys = floe_call_alloc(call, sizeof(char *) * size);
    out->values = floe_call_alloc(call, sizeof(char *) * size);
    cJSON_ArrayForEach(item, map)
    {
        out->keys[out->n] = floe_call_strdup(call, item->string);
        out->values[out->n++] = floe_call_strdup(call, cJSON_IsString(item) ? item->valuestring : "");
    }
}

int floe_glue_table_summarize(floe_call_t *call, const floe_glue_table_row_t *row, floe_glue_table_summary_t *out)
{
    cJSON *doc = cJSON_Parse(row->document);
    const cJSON *sd, *serde, *access;

    if (!cJSON_IsObject(doc)) {
        cJSON_Delete(doc);
        return floe_fail_internal(call, "a Glue table's document is not a JSON object");
    }
    sd = cJSON_GetObjectItemCaseSensitive(doc, "StorageDescriptor");
    serde = cJSON_GetObjectItemCaseSensitive(sd, "SerdeInfo");
    access = cJSON_GetObjectItemCaseSensitive(doc, "LastAccessTime");
    out->table_type = text_of(call, doc, "TableType");
    out->columns = columns_of(call, cJSON_GetObjectItemCaseSensitive(sd, "Columns"), &out->n_columns);
    out->partition_keys = columns_of(call, cJSON_GetObjectItemCaseSensitive(doc, "PartitionKeys"),
                                     &out->n_partition_keys);
    pairs_of(call, cJSON_GetObjectItemCaseSensitive(doc, "Parameters"), &out->parameters);
    out->location = text_of(call, sd, "Location");
    out->input_format = text_of(call, sd, "InputFormat");
    out->output_format = text_of(call, sd, "OutputFormat");
    out->serde_library = text_of(call, serde, "SerializationLibrary");
    pairs_of(call, cJSON_GetObjectItemCaseSensitive(serde, "Parameters"), &out->serde_parameters);
    out->has_last_access_time = cJSON_IsNumber(access);
    out->last_access_time = out->has_last_access_time ? (floe_timestamp_t)llround(access->valuedouble * 1000) : 0;
    cJSON_Delete(doc);
    return FLOE_OK;
}
