/*
 * The default catalog's tables of glue_table_default.h, and UpdateTable, BatchDeleteTable and
 * GetPartitions. What AWS's Glue API reference and Glue itself answer: a table's name is kept in
 * lower case; CreateTable's AlreadyExistsException says "Table already exists."; a missing table
 * or database is EntityNotFoundException "Table <name> not found." / "Database <name> not
 * found."; GetTable's VersionId is "0" after CreateTable and one more per UpdateTable, and an
 * UpdateTable with another VersionId is ConcurrentModificationException "Update table failed due
 * to concurrent modifications." (Glue's optimistic lock, which Iceberg's and Trino's Glue catalogs
 * commit through).
 */
#include <inttypes.h>

#include "catalog/glue_database.h"
#include "glue_columns.h"
#include "glue_names.h"
#include "glue_table_default.h"

static int table_not_found(floe_awsjson_call_t *call, const char *name)
{
    return floe_glue_fail(call, FLOE_GLUE_ERR_EntityNotFoundException, "Table %s not found.", name);
}

const char *glue_default_database(floe_awsjson_call_t *call, const char *database)
{
    const char *name = floe_glue_database_name(&call->super, database);
    floe_glue_database_row_t row;
    int rc = floe_glue_database_read(&call->super, name, &row);

    if (rc == FLOE_ENOTFOUND)
        floe_glue_fail(call, FLOE_GLUE_ERR_EntityNotFoundException, "Database %s not found.", database);
    return rc == FLOE_OK ? name : NULL;
}

int glue_default_table_fill(floe_awsjson_call_t *call, const floe_glue_table_row_t *row, floe_glue_Table *out)
{
    floe_glue_TableInput in;

    if (floe_glue_TableInput_from_json(call, row->document, &in))
        return FLOE_EFAIL;
    out->Name = row->name;
    out->DatabaseName = row->database;
    out->Description = in.Description;
    out->Owner = in.Owner;
    out->CreateTime = row->created_at;
    out->UpdateTime = row->updated_at;
    out->has_CreateTime = out->has_UpdateTime = true;
    out->LastAccessTime = in.LastAccessTime;
    out->has_LastAccessTime = in.has_LastAccessTime;
    out->LastAnalyzedTime = in.LastAnalyzedTime;
    out->has_LastAnalyzedTime = in.has_LastAnalyzedTime;
    out->Retention = in.Retention;
    out->StorageDescriptor = in.StorageDescriptor;
    out->PartitionKeys = in.PartitionKeys != NULL ? in.PartitionKeys : FLOE_GLUE_NEW(call, ColumnList);
    out->ViewOriginalText = in.ViewOriginalText;
    out->ViewExpandedText = in.ViewExpandedText;
    out->TableType = in.TableType;
    out->Parameters = in.Parameters;
    out->TargetTable = in.TargetTable;
    out->IsRegisteredWithLakeFormation = false;
    out->CatalogId = (char *)floe_call_account(&call->super);
    out->VersionId = floe_call_printf(&call->super, "%" PRId64, row->version);
    return FLOE_OK;
}

/* The TableInput to keep: as given, its Name in lower case as Glue keeps a table's name, and an
 * Iceberg table of Floe's Athena engine with Athena's columns (glue_columns.h). */
static const char *document_of(floe_awsjson_call_t *call, const floe_glue_TableInput *given, const char *name)
{
    floe_glue_TableInput kept = *given;
    floe_glue_StorageDescriptor storage;

    kept.Name = (char *)name;
    if (given->StorageDescriptor != NULL) { /* the caller's own stays untouched */
        storage = *given->StorageDescriptor;
        kept.StorageDescriptor = &storage;
    }
    glue_columns_as_athena_writes(call, &kept);
    if (call->super.by_engine) /* Trino's user then names a query of Floe's engine, nobody's own */
        kept.Owner = NULL;
    return floe_glue_TableInput_to_json(call, &kept);
}

int glue_default_create_table(floe_awsjson_call_t *call, const floe_glue_CreateTableRequest *in)
{
    const char *database, *name;
    int rc;

    if (in->OpenTableFormatInput != NULL)
        return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException,
                              "Floe keeps the default catalog's tables as their TableInput: OpenTableFormatInput is "
                              "served only in a table bucket's catalog (<account>:s3tablescatalog/<bucket>).");
    if (in->TableInput == NULL)
        return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException, "TableInput is required.");
    if ((database = glue_default_database(call, in->DatabaseName)) == NULL)
        return FLOE_EFAIL;
    name = floe_glue_database_name(&call->super, in->TableInput->Name);
    rc = floe_glue_table_insert(&call->super, database, name, document_of(call, in->TableInput, name));
    if (rc == FLOE_EEXISTS)
        return floe_glue_fail(call, FLOE_GLUE_ERR_AlreadyExistsException, "Table already exists.");
    if (rc == FLOE_ENOTFOUND) /* the database went since it was read */
        return floe_glue_fail(call, FLOE_GLUE_ERR_EntityNotFoundException, "Database %s not found.", in->DatabaseName);
    return rc;
}

int glue_default_get_table(floe_awsjson_call_t *call, const char *database, const char *name,
                           floe_glue_GetTableResponse *out)
{
    const char *db = glue_default_database(call, database);
    floe_glue_table_row_t row;
    int rc;

    if (db == NULL)
        return FLOE_EFAIL;
    rc = floe_glue_table_read(&call->super, db, floe_glue_database_name(&call->super, name), &row);
    if (rc == FLOE_ENOTFOUND)
        return table_not_found(call, name);
    if (rc != FLOE_OK)
        return FLOE_EFAIL;
    out->Table = FLOE_GLUE_NEW(call, Table);
    return glue_default_table_fill(call, &row, out->Table);
}

int glue_default_delete_table(floe_awsjson_call_t *call, const char *database, const char *name)
{
    const char *db = glue_default_database(call, database);
    int rc;

    if (db == NULL)
        return FLOE_EFAIL;
    rc = floe_glue_table_remove(&call->super, db, floe_glue_database_name(&call->super, name));
    return rc == FLOE_ENOTFOUND ? table_not_found(call, name) : rc;
}

/* The operations Floe serves in the default catalog only. */
static bool is_default_catalog(floe_awsjson_call_t *call, const char *catalog_id)
{
    glue_catalog_ref_t ref;

    glue_catalog_ref_parse(call, catalog_id, &ref);
    return ref.kind == GLUE_CATALOG_DEFAULT;
}

int floe_glue_handle_UpdateTable(floe_awsjson_call_t *call, const floe_glue_UpdateTableRequest *in,
                                 floe_glue_UpdateTableResponse *out)
{
    const char *database, *name;
    int64_t version;
    int rc;
    (void)out;

    if (!is_default_catalog(call, in->CatalogId))
        return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException,
                              "Floe updates only the default catalog's tables: commit a table bucket's table through "
                              "its Iceberg REST catalog.");
    if (in->TableInput == NULL)
        return floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException, "TableInput is required.");
    if ((database = glue_default_database(call, in->DatabaseName)) == NULL)
        return FLOE_EFAIL;
    name = floe_glue_database_name(&call->super, in->TableInput->Name);
    rc = floe_glue_table_update(&call->super, database, name, in->VersionId, document_of(call, in->TableInput, name),
                                &version);
    if (rc == FLOE_ENOTFOUND)
        return table_not_found(call, in->TableInput->Name);
    if (rc == FLOE_ECHANGED)
        return floe_glue_fail(call, FLOE_GLUE_ERR_ConcurrentModificationException,
                              "Update table failed due to concurrent modifications.");
    return rc;
}

/* One table BatchDeleteTable could not delete, as Glue lists it in Errors. */
static void add_error(floe_awsjson_call_t *call, floe_glue_TableErrors *errors, const char *table, const char *code,
                      const char *message)
{
    floe_glue_TableError *e = &errors->items[errors->n++];

    e->TableName = (char *)table;
    e->ErrorDetail = FLOE_GLUE_NEW(call, ErrorDetail);
    e->ErrorDetail->ErrorCode = (char *)code;
    e->ErrorDetail->ErrorMessage = (char *)message;
}

int floe_glue_handle_BatchDeleteTable(floe_awsjson_call_t *call, const floe_glue_BatchDeleteTableRequest *in,
                                      floe_glue_BatchDeleteTableResponse *out)
{
    const floe_glue_BatchDeleteTableNameList *names = in->TablesToDelete;
    bool is_default = is_default_catalog(call, in->CatalogId);
    const char *database = is_default ? glue_default_database(call, in->DatabaseName) : NULL;

    out->Errors = FLOE_GLUE_NEW(call, TableErrors);
    out->Errors->items = floe_call_alloc(&call->super, sizeof(floe_glue_TableError) * (names->n + 1));
    if (is_default && database == NULL)
        return FLOE_EFAIL;
    for (size_t i = 0; i < names->n; i++) {
        const char *name = names->items[i];
        int rc = is_default ? floe_glue_table_remove(&call->super, database, floe_glue_database_name(&call->super, name))
                            : FLOE_EINVAL;

        if (rc == FLOE_ENOTFOUND)
            add_error(call, out->Errors, name, "EntityNotFoundException",
                      floe_call_printf(&call->super, "Table %s not found.", name));
        else if (rc == FLOE_EINVAL)
            add_error(call, out->Errors, name, "InvalidInputException",
                      "Floe's BatchDeleteTable serves the default catalog: delete a table bucket's table with "
                      "DeleteTable.");
        else if (rc != FLOE_OK)
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* Floe keeps no Glue partitions: a table's list is empty, once the table is known to exist. */
int floe_glue_handle_GetPartitions(floe_awsjson_call_t *call, const floe_glue_GetPartitionsRequest *in,
                                   floe_glue_GetPartitionsResponse *out)
{
    floe_glue_GetTableResponse table = {0};
    floe_glue_GetTableRequest get = {.CatalogId = in->CatalogId, .DatabaseName = in->DatabaseName,
                                     .Name = in->TableName};

    out->Partitions = FLOE_GLUE_NEW(call, PartitionList);
    return floe_glue_handle_GetTable(call, &get, &table);
}
