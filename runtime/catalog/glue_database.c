/* The glue_database rows of glue_database.h; a database's Parameters are one JSON object. */
#include <ctype.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "call/call_sql.h"
#include "catalog/glue_database.h"

FLOE_SQL(sql_glue_database_insert,
    "INSERT INTO glue_database (account, region, name, description, location_uri, parameters, created_at)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (account, region, name) DO NOTHING");

FLOE_SQL(sql_glue_database_read,
    "SELECT name, description, location_uri, parameters, created_at FROM glue_database"
    " WHERE account = ?1 AND region = ?2 AND name = ?3");

FLOE_SQL(sql_glue_database_list,
    "SELECT name, description, location_uri, parameters, created_at FROM glue_database"
    " WHERE account = ?1 AND region = ?2 AND name > ?3 ORDER BY name LIMIT ?4");

FLOE_SQL(sql_glue_database_remove, "DELETE FROM glue_database WHERE account = ?1 AND region = ?2 AND name = ?3");

/* The Parameters as a JSON object in the pool, NULL when there are none. */
static char *parameters_json(floe_call_t *call, const floe_glue_database_row_t *row)
{
    cJSON *o;
    char *text, *out;

    if (row->n_parameters == 0)
        return NULL;
    o = cJSON_CreateObject();
    for (size_t i = 0; i < row->n_parameters; i++)
        cJSON_AddStringToObject(o, row->keys[i], row->values[i]);
    text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    out = floe_call_strdup(call, text != NULL ? text : "{}");
    free(text);
    return out;
}

static void parameters_read(floe_call_t *call, const char *json, floe_glue_database_row_t *out)
{
    cJSON *o = json != NULL ? cJSON_Parse(json) : NULL;
    const cJSON *item;
    size_t n = 0;

    out->n_parameters = (size_t)cJSON_GetArraySize(o);
    out->keys = floe_call_alloc(call, sizeof(char *) * (out->n_parameters + 1));
    out->values = floe_call_alloc(call, sizeof(char *) * (out->n_parameters + 1));
    cJSON_ArrayForEach(item, o)
    {
        out->keys[n] = floe_call_strdup(call, item->string);
        out->values[n++] = floe_call_strdup(call, cJSON_IsString(item) ? item->valuestring : "");
    }
    cJSON_Delete(o);
}

char *floe_glue_database_name(floe_call_t *call, const char *name)
{
    char *out = floe_call_strdup(call, name);

    for (char *p = out; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return out;
}

int floe_glue_database_insert(floe_call_t *call, const floe_glue_database_row_t *row)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_glue_database_insert, "tttttti", floe_call_account(call),
                                         floe_call_region(call), row->name, row->description, row->location_uri,
                                         parameters_json(call, row), (int64_t)floe_call_now(call));
    int rc = floe_sql_write(call, stmt);

    if (rc == FLOE_ENOTFOUND)
        return FLOE_EEXISTS; /* the conflict did nothing: the name is taken */
    return rc;
}

static void read_columns(floe_call_t *call, floe_db_stmt_t *stmt, void *row)
{
    floe_glue_database_row_t *out = row;

    out->name = floe_sql_text(call, stmt, 0);
    out->description = floe_sql_text(call, stmt, 1);
    out->location_uri = floe_sql_text(call, stmt, 2);
    parameters_read(call, floe_sql_text(call, stmt, 3), out);
    out->created_at = floe_db_column_int64(stmt, 4);
}

int floe_glue_database_read(floe_call_t *call, const char *name, floe_glue_database_row_t *out)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_glue_database_read, "ttt", floe_call_account(call),
                                         floe_call_region(call), name);

    return floe_sql_read_one(call, stmt, read_columns, out);
}

int floe_glue_database_list(floe_call_t *call, const char *after, int limit, floe_glue_database_row_t **rows,
                            size_t *n)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_glue_database_list, "ttti", floe_call_account(call),
                                         floe_call_region(call), after, (int64_t)limit);
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

int floe_glue_database_remove(floe_call_t *call, const char *name)
{
    return floe_sql_write(call, floe_sql_bind(call, sql_glue_database_remove, "ttt", floe_call_account(call),
                                              floe_call_region(call), name));
}
