/*
 * The database schema as an ordered list of forward migrations. Migration N moves the schema from
 * version N-1 to N; the version lives in the one-row table schema_version. Migrations only ever
 * get appended: a released migration is never edited, so every data directory, however old,
 * reaches the current schema by replaying what it lacks.
 *
 * Invariants the schema enforces:
 *  1. Names are unique where AWS says so: table bucket names per account (here: per data dir),
 *     namespace names per bucket.
 *  2. A namespace cannot outlive its bucket, nor a table its namespace (foreign keys without
 *     cascade: the delete fails the constraint and handlers answer ConflictException).
 *  3. A resource's configuration and tags go with it: each configuration table references its
 *     owner ON DELETE CASCADE, so deleting a table bucket removes its encryption, storage class,
 *     policy, metrics, maintenance, replication and tags in the same statement, and deleting a
 *     table its own. Absence of a row means "AWS's default" where AWS has one (AES256, STANDARD,
 *     maintenance enabled with AWS's settings, record expiration disabled) and "not configured"
 *     where it has none (policy, metrics, replication). A table's encryption and storage class
 *     are the exception: CreateTable always writes them, fixed at creation, with whether the table
 *     took them from its bucket (is_inherited).
 *  4. Configuration tables are named <owner>_<configuration> (table_bucket_policy, ...) so a
 *     table's configuration follows the same pattern (table_policy, table_tag, ...).
 *  5. An S3 object, upload or part cannot outlive its bucket or upload (foreign keys without
 *     cascade: the store deletes children first; see the design notes in store.c).
 *  6. A table's warehouse bucket is either referenced by its s3table row or queued in
 *     warehouse_deletion (janitor.c), never silently dropped.
 *
 * A fresh database does not replay the migrations: it runs the snapshot of the schema they end
 * with (schema_snapshot.h, made from this list at build time), in the same transaction, since
 * replaying them costs a fresh start tens of milliseconds (each table rebuild and ALTER makes
 * SQLite re-read the whole schema). A fresh data directory does not even run the snapshot: its
 * database file starts as the image of a database this code made at build time (schema_image.c),
 * so migrate finds it current.
 */
#include <stdio.h>

#include "base/failure.h"
#include "db/schema_snapshot.h"
#include "db/state.h"

static const char *const migrations[] = {
    /* 1: table buckets and namespaces */
    "CREATE TABLE table_bucket ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL UNIQUE,"
    "  bucket_id TEXT NOT NULL UNIQUE," /* tableBucketId, a UUID */
    "  type TEXT NOT NULL DEFAULT 'customer',"
    "  created_at INTEGER NOT NULL"     /* ms since the epoch */
    ");"
    "CREATE TABLE namespace ("
    "  id INTEGER PRIMARY KEY,"
    "  table_bucket_id INTEGER NOT NULL REFERENCES table_bucket(id),"
    "  name TEXT NOT NULL,"
    "  namespace_id TEXT NOT NULL UNIQUE,"
    "  created_at INTEGER NOT NULL,"
    "  created_by TEXT NOT NULL,"
    "  UNIQUE (table_bucket_id, name)"
    ");",
    /* 2: table bucket configuration and tags */
    "CREATE TABLE table_bucket_encryption ("
    "  table_bucket_id INTEGER PRIMARY KEY REFERENCES table_bucket(id) ON DELETE CASCADE,"
    "  sse_algorithm TEXT NOT NULL," /* SSEAlgorithm wire value */
    "  kms_key_arn TEXT"             /* set exactly when sse_algorithm is aws:kms */
    ");"
    "CREATE TABLE table_bucket_storage_class ("
    "  table_bucket_id INTEGER PRIMARY KEY REFERENCES table_bucket(id) ON DELETE CASCADE,"
    "  storage_class TEXT NOT NULL"  /* StorageClass wire value */
    ");"
    "CREATE TABLE table_bucket_policy ("
    "  table_bucket_id INTEGER PRIMARY KEY REFERENCES table_bucket(id) ON DELETE CASCADE,"
    "  document TEXT NOT NULL"       /* the policy as the client sent it */
    ");"
    "CREATE TABLE table_bucket_metrics ("
    "  table_bucket_id INTEGER PRIMARY KEY REFERENCES table_bucket(id) ON DELETE CASCADE,"
    "  configuration_id TEXT NOT NULL" /* the id GetTableBucketMetricsConfiguration returns, a UUID */
    ");"
    "CREATE TABLE table_bucket_maintenance ("
    "  table_bucket_id INTEGER NOT NULL REFERENCES table_bucket(id) ON DELETE CASCADE,"
    "  type TEXT NOT NULL,"          /* TableBucketMaintenanceType wire value */
    "  status TEXT NOT NULL,"        /* MaintenanceStatus wire value */
    "  unreferenced_days INTEGER NOT NULL,"
    "  non_current_days INTEGER NOT NULL,"
    "  PRIMARY KEY (table_bucket_id, type)"
    ");"
    "CREATE TABLE table_bucket_replication ("
    "  table_bucket_id INTEGER PRIMARY KEY REFERENCES table_bucket(id) ON DELETE CASCADE,"
    "  version_token TEXT NOT NULL," /* changes on every write: the compare-and-swap key */
    "  role TEXT NOT NULL"
    ");"
    "CREATE TABLE table_bucket_replication_destination ("
    "  table_bucket_id INTEGER NOT NULL REFERENCES table_bucket_replication(table_bucket_id) ON DELETE CASCADE,"
    "  rule_index INTEGER NOT NULL,"  /* position of the rule in configuration.rules */
    "  position INTEGER NOT NULL,"    /* position of the destination in the rule */
    "  destination_arn TEXT NOT NULL,"
    "  PRIMARY KEY (table_bucket_id, rule_index, position)"
    ");"
    "CREATE TABLE table_bucket_tag ("
    "  table_bucket_id INTEGER NOT NULL REFERENCES table_bucket(id) ON DELETE CASCADE,"
    "  tag_key TEXT NOT NULL,"
    "  tag_value TEXT NOT NULL,"
    "  PRIMARY KEY (table_bucket_id, tag_key)"
    ");",
    /* 3: S3 buckets, objects and multipart uploads */
    "CREATE TABLE s3_bucket ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL UNIQUE,"
    "  is_warehouse INTEGER NOT NULL DEFAULT 0," /* backs an S3 Tables table: unlisted, undeletable over S3 */
    "  region TEXT NOT NULL DEFAULT '',"         /* LocationConstraint; '' is us-east-1 */
    "  created_at INTEGER NOT NULL"
    ");"
    "CREATE TABLE s3_object ("
    "  bucket_id INTEGER NOT NULL REFERENCES s3_bucket(id),"
    "  key TEXT NOT NULL,"                       /* BINARY collation: UTF-8 byte order, as S3 lists */
    "  file_id TEXT NOT NULL UNIQUE,"            /* objects/<2>/<id>, published before this row commits */
    "  size INTEGER NOT NULL,"
    "  etag TEXT NOT NULL,"
    "  content_type TEXT,"
    "  headers TEXT,"                            /* JSON: x-amz-meta-*, cache-control, ... */
    "  checksum_algorithm TEXT,"
    "  checksum TEXT,"
    "  last_modified INTEGER NOT NULL,"
    "  PRIMARY KEY (bucket_id, key)"
    ") WITHOUT ROWID;"
    "CREATE TABLE s3_upload ("
    "  id INTEGER PRIMARY KEY,"
    "  bucket_id INTEGER NOT NULL REFERENCES s3_bucket(id),"
    "  upload_id TEXT NOT NULL UNIQUE,"
    "  key TEXT NOT NULL,"
    "  content_type TEXT,"
    "  headers TEXT,"
    "  checksum_algorithm TEXT,"
    "  initiated INTEGER NOT NULL"
    ");"
    "CREATE INDEX s3_upload_by_key ON s3_upload (bucket_id, key, id);"
    "CREATE TABLE s3_part ("
    "  upload_id INTEGER NOT NULL REFERENCES s3_upload(id),"
    "  part_number INTEGER NOT NULL,"
    "  file_id TEXT NOT NULL UNIQUE,"
    "  size INTEGER NOT NULL,"
    "  etag TEXT NOT NULL,"
    "  checksum TEXT,"
    "  last_modified INTEGER NOT NULL,"
    "  PRIMARY KEY (upload_id, part_number)"
    ") WITHOUT ROWID;",
    /* 4: tables and the queue of warehouse buckets to remove */
    "CREATE TABLE s3table ("
    "  id INTEGER PRIMARY KEY,"
    "  table_bucket_id INTEGER NOT NULL REFERENCES table_bucket(id),"
    "  namespace_id INTEGER NOT NULL REFERENCES namespace(id)," /* no cascade: a namespace with tables stays */
    "  name TEXT NOT NULL,"
    "  table_id TEXT NOT NULL UNIQUE,"         /* the UUID in the table ARN; survives a rename */
    "  type TEXT NOT NULL DEFAULT 'customer',"
    "  format TEXT NOT NULL,"                  /* OpenTableFormat wire value */
    "  version_token TEXT NOT NULL,"           /* changes on every metadata commit */
    "  metadata_location TEXT,"                /* NULL until metadata is written */
    "  warehouse_bucket TEXT NOT NULL UNIQUE," /* the S3 bucket behind the table */
    "  created_at INTEGER NOT NULL,"
    "  created_by TEXT NOT NULL,"
    "  modified_at INTEGER NOT NULL,"
    "  modified_by TEXT NOT NULL,"
    "  UNIQUE (namespace_id, name)"
    ");"
    "CREATE INDEX s3table_by_bucket ON s3table (table_bucket_id);"
    "CREATE TABLE s3table_tag ("
    "  table_id INTEGER NOT NULL REFERENCES s3table(id) ON DELETE CASCADE,"
    "  tag_key TEXT NOT NULL,"
    "  tag_value TEXT NOT NULL,"
    "  PRIMARY KEY (table_id, tag_key)"
    ");"
    "CREATE TABLE warehouse_deletion ("       /* janitor.c removes a bucket's rows with its own */
    "  bucket TEXT PRIMARY KEY,"
    "  queued_at INTEGER NOT NULL"
    ");",
    /* 5: table configuration. table_id is s3table's row id (as in s3table_tag), not its UUID. */
    "CREATE TABLE table_encryption ("
    "  table_id INTEGER PRIMARY KEY REFERENCES s3table(id) ON DELETE CASCADE,"
    "  sse_algorithm TEXT NOT NULL,"  /* SSEAlgorithm wire value, fixed at creation */
    "  kms_key_arn TEXT"              /* set exactly when sse_algorithm is aws:kms */
    ");"
    "CREATE TABLE table_storage_class ("
    "  table_id INTEGER PRIMARY KEY REFERENCES s3table(id) ON DELETE CASCADE,"
    "  storage_class TEXT NOT NULL"   /* StorageClass wire value, fixed at creation */
    ");"
    /* Tables that predate this migration keep what they would have inherited: their bucket's
     * configuration now (later bucket changes then leave them alone, as for new tables). */
    "INSERT INTO table_encryption (table_id, sse_algorithm, kms_key_arn)"
    "  SELECT t.id, COALESCE(e.sse_algorithm, 'AES256'), e.kms_key_arn FROM s3table t"
    "  LEFT JOIN table_bucket_encryption e ON e.table_bucket_id = t.table_bucket_id;"
    "INSERT INTO table_storage_class (table_id, storage_class)"
    "  SELECT t.id, COALESCE(c.storage_class, 'STANDARD') FROM s3table t"
    "  LEFT JOIN table_bucket_storage_class c ON c.table_bucket_id = t.table_bucket_id;"
    "CREATE TABLE table_policy ("
    "  table_id INTEGER PRIMARY KEY REFERENCES s3table(id) ON DELETE CASCADE,"
    "  document TEXT NOT NULL"        /* the policy as the client sent it */
    ");"
    "CREATE TABLE table_maintenance ("
    "  table_id INTEGER NOT NULL REFERENCES s3table(id) ON DELETE CASCADE,"
    "  type TEXT NOT NULL,"           /* TableMaintenanceType wire value */
    "  status TEXT NOT NULL,"         /* MaintenanceStatus wire value */
    "  target_file_size_mb INTEGER,"  /* icebergCompaction only */
    "  strategy TEXT,"                /* icebergCompaction only: IcebergCompactionStrategy wire value */
    "  min_snapshots_to_keep INTEGER," /* icebergSnapshotManagement only */
    "  max_snapshot_age_hours INTEGER," /* icebergSnapshotManagement only */
    "  PRIMARY KEY (table_id, type)"
    ");"
    "CREATE TABLE table_record_expiration ("
    "  table_id INTEGER PRIMARY KEY REFERENCES s3table(id) ON DELETE CASCADE,"
    "  status TEXT NOT NULL,"         /* TableRecordExpirationStatus wire value */
    "  days INTEGER"                  /* NULL when the configuration gives none */
    ");"
    "CREATE TABLE table_replication ("
    "  table_id INTEGER PRIMARY KEY REFERENCES s3table(id) ON DELETE CASCADE,"
    "  version_token TEXT NOT NULL,"  /* changes on every write: the compare-and-swap key */
    "  role TEXT NOT NULL"
    ");"
    "CREATE TABLE table_replication_destination ("
    "  table_id INTEGER NOT NULL REFERENCES table_replication(table_id) ON DELETE CASCADE,"
    "  rule_index INTEGER NOT NULL,"  /* position of the rule in configuration.rules */
    "  position INTEGER NOT NULL,"    /* position of the destination in the rule */
    "  destination_arn TEXT NOT NULL,"
    "  PRIMARY KEY (table_id, rule_index, position)"
    ");",
    /* 6: Iceberg namespace properties */
    "CREATE TABLE namespace_property ("       /* catalog/namespace.c; the REST catalog's properties */
    "  namespace_id INTEGER NOT NULL REFERENCES namespace(id) ON DELETE CASCADE,"
    "  key TEXT NOT NULL,"
    "  value TEXT NOT NULL,"
    "  PRIMARY KEY (namespace_id, key)"
    ") WITHOUT ROWID;",
    /* 7: accounts and regions. A table bucket's name is unique within its account and region, as
     * on AWS, so the table is rebuilt without its UNIQUE (name) (SQLite cannot drop a constraint);
     * the id is kept, so every reference stays valid. Rows from before have account '' and region
     * '' until the server assigns them its default scope at start-up
     * (floe_table_bucket_adopt_unscoped). S3 buckets stay one global name space; owner is the
     * account that created one ('' likewise adopted). A table nothing has modified has
     * modified_by '' (GetTable leaves modifiedBy out, as AWS does); rows from before wrote the
     * creator there, so a row whose modified_at is still its created_at gets ''. */
    "CREATE TABLE table_bucket_scoped ("
    "  id INTEGER PRIMARY KEY,"
    "  account_id TEXT NOT NULL,"
    "  region TEXT NOT NULL,"
    "  name TEXT NOT NULL,"
    "  bucket_id TEXT NOT NULL UNIQUE,"
    "  type TEXT NOT NULL DEFAULT 'customer',"
    "  created_at INTEGER NOT NULL,"
    "  UNIQUE (account_id, region, name)"
    ");"
    "INSERT INTO table_bucket_scoped (id, account_id, region, name, bucket_id, type, created_at)"
    "  SELECT id, '', '', name, bucket_id, type, created_at FROM table_bucket;"
    "DROP TABLE table_bucket;"
    "ALTER TABLE table_bucket_scoped RENAME TO table_bucket;"
    "ALTER TABLE s3_bucket ADD COLUMN owner TEXT NOT NULL DEFAULT '';"
    "UPDATE s3table SET modified_by = '' WHERE modified_at = created_at;",
    /* 8: CloudFormation stacks, their resources, events, change sets, exports and the queue of
     * stack work (cloudformation/stack_store.c). Stacks live in an account and region; a deleted
     * stack keeps its row (DELETE_COMPLETE), as AWS keeps it visible by id. JSON columns hold
     * what the API returns as lists (parameters, outputs, tags, changes). */
    "CREATE TABLE cfn_stack ("
    "  id INTEGER PRIMARY KEY,"
    "  account_id TEXT NOT NULL,"
    "  region TEXT NOT NULL,"
    "  stack_id TEXT NOT NULL UNIQUE,"        /* arn:aws:cloudformation:<region>:<account>:stack/<name>/<uuid> */
    "  name TEXT NOT NULL,"
    "  status TEXT NOT NULL,"                 /* StackStatus wire value */
    "  status_reason TEXT,"
    "  description TEXT,"                     /* the template's Description */
    "  template_body TEXT NOT NULL,"          /* the template the stack follows (the new one during an update) */
    "  parameters TEXT NOT NULL,"             /* JSON [{key, value, no_echo}], every declared parameter */
    "  tags TEXT NOT NULL,"                   /* JSON [{key, value}] */
    "  outputs TEXT NOT NULL DEFAULT '[]',"   /* JSON [{key, value, description, export_name}] */
    "  previous_template_body TEXT,"          /* during an update: what an update rollback returns to */
    "  previous_parameters TEXT,"
    "  previous_tags TEXT,"
    "  previous_outputs TEXT,"
    "  previous_description TEXT,"
    "  disable_rollback INTEGER NOT NULL DEFAULT 0,"
    "  on_failure TEXT NOT NULL DEFAULT 'ROLLBACK',"  /* OnFailure wire value */
    "  is_delete_requested INTEGER NOT NULL DEFAULT 0," /* DeleteStack while an operation runs */
    "  retain_resources TEXT,"                /* JSON [logical id]: DeleteStack's RetainResources */
    "  change_set_id TEXT,"                   /* the change set the running or last operation executes */
    "  created_at INTEGER NOT NULL,"
    "  updated_at INTEGER,"                   /* LastUpdatedTime: set by the first update */
    "  deleted_at INTEGER"
    ");"
    /* Stack names are unique among an account's live stacks in a region. */
    "CREATE UNIQUE INDEX cfn_stack_live_name ON cfn_stack (account_id, region, name)"
    "  WHERE status <> 'DELETE_COMPLETE';"
    "CREATE TABLE cfn_stack_resource ("
    "  stack_id INTEGER NOT NULL REFERENCES cfn_stack(id) ON DELETE CASCADE,"
    "  logical_id TEXT NOT NULL,"
    "  position INTEGER NOT NULL,"            /* creation order; deletes go in reverse */
    "  type TEXT NOT NULL,"
    "  physical_id TEXT,"                     /* NULL until the resource exists */
    "  status TEXT NOT NULL,"                 /* ResourceStatus wire value */
    "  status_reason TEXT,"
    "  properties TEXT NOT NULL DEFAULT '{}'," /* JSON: the properties as resolved when last applied */
    "  attributes TEXT NOT NULL DEFAULT '{}'," /* JSON: what Fn::GetAtt reads */
    "  deletion_policy TEXT NOT NULL DEFAULT 'Delete',"
    "  update_replace_policy TEXT NOT NULL DEFAULT 'Delete',"
    "  updated_at INTEGER NOT NULL,"
    /* What the running update did to the resource, so that its cleanup or its rollback knows what
     * to undo or remove: 'add', 'modify', 'replace' or 'remove' (NULL: untouched). The old_*
     * columns keep what a modify or replace changed. */
    "  update_action TEXT,"
    "  old_type TEXT,"
    "  old_physical_id TEXT,"
    "  old_properties TEXT,"
    "  old_attributes TEXT,"
    "  PRIMARY KEY (stack_id, logical_id)"
    ");"
    "CREATE TABLE cfn_stack_event ("
    "  id INTEGER PRIMARY KEY,"               /* newest first is id DESC */
    "  stack_id INTEGER NOT NULL REFERENCES cfn_stack(id) ON DELETE CASCADE,"
    "  event_id TEXT NOT NULL,"
    "  logical_id TEXT NOT NULL,"
    "  physical_id TEXT,"
    "  resource_type TEXT NOT NULL,"
    "  status TEXT NOT NULL,"                 /* ResourceStatus (or StackStatus for the stack) wire value */
    "  status_reason TEXT,"
    "  properties TEXT,"                      /* ResourceProperties: JSON text */
    "  created_at INTEGER NOT NULL"
    ");"
    "CREATE INDEX cfn_stack_event_by_stack ON cfn_stack_event (stack_id, id);"
    "CREATE TABLE cfn_change_set ("
    "  id INTEGER PRIMARY KEY,"
    "  stack_id INTEGER NOT NULL REFERENCES cfn_stack(id) ON DELETE CASCADE,"
    "  change_set_id TEXT NOT NULL UNIQUE,"   /* arn:aws:cloudformation:<region>:<account>:changeSet/<name>/<uuid> */
    "  name TEXT NOT NULL,"
    "  type TEXT NOT NULL,"                   /* ChangeSetType wire value: CREATE or UPDATE */
    "  status TEXT NOT NULL,"                 /* ChangeSetStatus wire value */
    "  status_reason TEXT,"
    "  execution_status TEXT NOT NULL,"       /* ExecutionStatus wire value */
    "  description TEXT,"
    "  template_body TEXT NOT NULL,"
    "  parameters TEXT NOT NULL,"
    "  tags TEXT NOT NULL,"
    "  on_failure TEXT NOT NULL DEFAULT 'ROLLBACK',"  /* OnStackFailure */
    "  changes TEXT NOT NULL DEFAULT '[]',"   /* JSON: the ResourceChange list, computed by the engine */
    "  created_at INTEGER NOT NULL,"
    "  UNIQUE (stack_id, name)"
    ");"
    /* Export names are unique in an account and region (Outputs' Export.Name). */
    "CREATE TABLE cfn_export ("
    "  account_id TEXT NOT NULL,"
    "  region TEXT NOT NULL,"
    "  name TEXT NOT NULL,"
    "  stack_id INTEGER NOT NULL REFERENCES cfn_stack(id) ON DELETE CASCADE,"
    "  value TEXT NOT NULL,"
    "  PRIMARY KEY (account_id, region, name)"
    ");"
    "CREATE TABLE cfn_import ("                /* which stack's template reads which export (Fn::ImportValue) */
    "  stack_id INTEGER NOT NULL REFERENCES cfn_stack(id) ON DELETE CASCADE,"
    "  export_name TEXT NOT NULL,"
    "  PRIMARY KEY (stack_id, export_name)"
    ");"
    /* The durable queue of stack work: a row is taken by the engine in id order and removed when
     * the stack (or change set) is stable again; is_started tells a restart what was interrupted. */
    "CREATE TABLE cfn_work ("
    "  id INTEGER PRIMARY KEY,"
    "  stack_id INTEGER NOT NULL REFERENCES cfn_stack(id) ON DELETE CASCADE,"
    "  change_set_id INTEGER REFERENCES cfn_change_set(id) ON DELETE CASCADE," /* NULL: drive the stack */
    "  is_started INTEGER NOT NULL DEFAULT 0,"
    "  queued_at INTEGER NOT NULL"
    ");",
    /* 9: maintenance jobs (catalog/maintenance_job.c): the last run of each job type on
     * each table, with its outcome and figures, and the warehouse objects unreferenced file removal
     * has marked noncurrent (deleted non_current_days after the mark). Both go with their table. */
    "CREATE TABLE maintenance_job_run ("
    "  table_id INTEGER NOT NULL REFERENCES s3table(id) ON DELETE CASCADE,"
    "  type TEXT NOT NULL,"                    /* the job type's wire name (maintenance/job.h) */
    "  status TEXT NOT NULL,"                  /* 'Successful' or 'Failed' */
    "  last_run INTEGER NOT NULL,"             /* ms since the epoch: the job's clock ("now") */
    "  failure_message TEXT,"
    "  files_read INTEGER NOT NULL DEFAULT 0, bytes_read INTEGER NOT NULL DEFAULT 0,"
    "  files_written INTEGER NOT NULL DEFAULT 0, bytes_written INTEGER NOT NULL DEFAULT 0,"
    "  files_deleted INTEGER NOT NULL DEFAULT 0, bytes_deleted INTEGER NOT NULL DEFAULT 0,"
    "  snapshots_expired INTEGER NOT NULL DEFAULT 0, records_removed INTEGER NOT NULL DEFAULT 0,"
    "  files_marked INTEGER NOT NULL DEFAULT 0,"
    "  PRIMARY KEY (table_id, type)"
    ") WITHOUT ROWID;"
    "CREATE TABLE maintenance_noncurrent ("
    "  table_id INTEGER NOT NULL REFERENCES s3table(id) ON DELETE CASCADE,"
    "  object_key TEXT NOT NULL,"
    "  marked_at INTEGER NOT NULL,"            /* ms: when the job found it unreferenced past unreferenced_days */
    "  PRIMARY KEY (table_id, object_key)"
    ") WITHOUT ROWID;",
    /* 10: replication (runtime/replication/, catalog/replication_queue.c). A replicated data file is
     * a second s3_object row naming the same object file, so file_id loses its UNIQUE (the table is
     * rebuilt, as in 7) and gets an index: the store removes a file only when no row names it.
     * replication_queue is the durable queue of source commits, filled by triggers in the
     * transaction of the commit itself (every path that moves a covered table's metadata pointer:
     * the S3 Tables API, Iceberg REST, maintenance), so no commit is missed and none is queued that
     * did not commit. A queue row has no foreign key: deleting the source leaves its replicas, and
     * the worker drops work whose source is gone. replication_status is each (source, destination)
     * pair's last outcome; replica_table marks the tables replication made (read-only). */
    "CREATE TABLE s3_object_shared ("
    "  bucket_id INTEGER NOT NULL REFERENCES s3_bucket(id),"
    "  key TEXT NOT NULL,"
    "  file_id TEXT NOT NULL,"                   /* may be named by several rows (replicas) */
    "  size INTEGER NOT NULL,"
    "  etag TEXT NOT NULL,"
    "  content_type TEXT,"
    "  headers TEXT,"
    "  checksum_algorithm TEXT,"
    "  checksum TEXT,"
    "  last_modified INTEGER NOT NULL,"
    "  PRIMARY KEY (bucket_id, key)"
    ") WITHOUT ROWID;"
    "INSERT INTO s3_object_shared (bucket_id, key, file_id, size, etag, content_type, headers, checksum_algorithm,"
    "  checksum, last_modified) SELECT bucket_id, key, file_id, size, etag, content_type, headers,"
    "  checksum_algorithm, checksum, last_modified FROM s3_object;"
    "DROP TABLE s3_object;"
    "ALTER TABLE s3_object_shared RENAME TO s3_object;"
    "CREATE INDEX s3_object_by_file ON s3_object (file_id);"
    "CREATE TABLE replication_queue ("
    "  id INTEGER PRIMARY KEY,"                  /* taken in id order: commit order */
    "  table_id INTEGER NOT NULL,"               /* the source s3table row; no foreign key (see above) */
    "  metadata_location TEXT NOT NULL,"         /* the source state to replicate */
    "  queued_at INTEGER NOT NULL"
    ");"
    "CREATE TABLE replication_status ("
    "  table_id INTEGER NOT NULL REFERENCES s3table(id) ON DELETE CASCADE,"
    "  destination_arn TEXT NOT NULL,"
    "  is_failed INTEGER NOT NULL DEFAULT 0,"
    "  failure_message TEXT,"
    "  replica_table_arn TEXT,"
    "  last_metadata_location TEXT,"             /* the source state the replica holds */
    "  last_replicated_at INTEGER,"
    "  PRIMARY KEY (table_id, destination_arn)"
    ");"
    "CREATE TABLE replica_table ("
    "  table_id INTEGER PRIMARY KEY REFERENCES s3table(id) ON DELETE CASCADE,"
    "  source_table_arn TEXT NOT NULL"
    ");"
    "CREATE TRIGGER replication_on_commit AFTER UPDATE OF metadata_location ON s3table"
    "  WHEN NEW.metadata_location IS NOT NULL AND NEW.metadata_location IS NOT OLD.metadata_location"
    "  AND (EXISTS (SELECT 1 FROM table_replication WHERE table_id = NEW.id)"
    "       OR EXISTS (SELECT 1 FROM table_bucket_replication WHERE table_bucket_id = NEW.table_bucket_id))"
    "  AND NOT EXISTS (SELECT 1 FROM replica_table WHERE table_id = NEW.id)"
    "BEGIN"
    "  INSERT INTO replication_queue (table_id, metadata_location, queued_at)"
    "  VALUES (NEW.id, NEW.metadata_location, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));"
    "END;"
    "CREATE TRIGGER replication_on_create AFTER INSERT ON s3table"
    "  WHEN NEW.metadata_location IS NOT NULL"
    "  AND (EXISTS (SELECT 1 FROM table_replication WHERE table_id = NEW.id)"
    "       OR EXISTS (SELECT 1 FROM table_bucket_replication WHERE table_bucket_id = NEW.table_bucket_id))"
    "BEGIN"
    "  INSERT INTO replication_queue (table_id, metadata_location, queued_at)"
    "  VALUES (NEW.id, NEW.metadata_location, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));"
    "END;",
    /* the Glue Data Catalog's S3 Tables integration: the federated catalog s3tablescatalog of an
     * account and region (catalog/glue_integration.c); its child catalogs, databases and tables
     * are the table buckets, namespaces and tables themselves, so nothing else is stored */
    "CREATE TABLE glue_catalog ("
    "  account TEXT NOT NULL,"
    "  region TEXT NOT NULL,"
    "  name TEXT NOT NULL,"
    "  description TEXT,"
    "  identifier TEXT NOT NULL,"                /* FederatedCatalog.Identifier */
    "  connection_name TEXT NOT NULL,"           /* FederatedCatalog.ConnectionName */
    "  allow_full_table_external_data_access TEXT,"
    "  created_at INTEGER NOT NULL,"
    "  PRIMARY KEY (account, region, name)"
    ") WITHOUT ROWID;",
    /* whether a table's encryption and storage class are the ones it took from its bucket when it
     * was created (CreateTable named none): the console marks those as defaults. A table made
     * before cannot tell, and keeps 0 */
    /* parenthesized: one element of two statements, which clang's -Wstring-concatenation would
     * otherwise take for a missing comma (the fuzz build is clang's) */
    ("ALTER TABLE table_encryption ADD COLUMN is_inherited INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE table_storage_class ADD COLUMN is_inherited INTEGER NOT NULL DEFAULT 0;"),
    /* a multipart upload's checksum type (x-amz-checksum-type): FULL_OBJECT or COMPOSITE; NULL
     * for one started before, whose checksum was composite */
    "ALTER TABLE s3_upload ADD COLUMN checksum_type TEXT;",
    /* Athena's control plane, per account and region (runtime/athena/): workgroups (`primary` is
     * written the first time an account and region uses Athena), named queries, prepared
     * statements and query executions. Each query's seq orders the history newest first */
    ("CREATE TABLE athena_workgroup ("
     "  account TEXT NOT NULL,"
     "  region TEXT NOT NULL,"
     "  name TEXT NOT NULL,"
     "  description TEXT,"
     "  state TEXT NOT NULL,"                       /* ENABLED or DISABLED */
     "  output_location TEXT,"                      /* ResultConfiguration */
     "  expected_bucket_owner TEXT,"
     "  encryption_option TEXT,"
     "  kms_key TEXT,"
     "  enforce_configuration INTEGER NOT NULL,"
     "  publish_metrics INTEGER NOT NULL,"
     "  requester_pays INTEGER NOT NULL,"
     "  bytes_scanned_cutoff INTEGER,"
     "  engine_version TEXT NOT NULL,"              /* SelectedEngineVersion */
     "  created_at INTEGER NOT NULL,"
     "  PRIMARY KEY (account, region, name)"
     ") WITHOUT ROWID;"
     "CREATE TABLE athena_named_query ("
     "  seq INTEGER PRIMARY KEY,"
     "  id TEXT NOT NULL UNIQUE,"
     "  account TEXT NOT NULL,"
     "  region TEXT NOT NULL,"
     "  workgroup TEXT NOT NULL,"
     "  name TEXT NOT NULL,"
     "  description TEXT,"
     "  database_name TEXT NOT NULL,"
     "  query_string TEXT NOT NULL"
     ");"
     "CREATE INDEX athena_named_query_by_workgroup ON athena_named_query (account, region, workgroup, seq);"
     "CREATE TABLE athena_prepared_statement ("
     "  account TEXT NOT NULL,"
     "  region TEXT NOT NULL,"
     "  workgroup TEXT NOT NULL,"
     "  name TEXT NOT NULL,"
     "  query_statement TEXT NOT NULL,"
     "  description TEXT,"
     "  updated_at INTEGER NOT NULL,"
     "  PRIMARY KEY (account, region, workgroup, name)"
     ") WITHOUT ROWID;"
     "CREATE TABLE athena_query ("
     "  seq INTEGER PRIMARY KEY,"
     "  id TEXT NOT NULL UNIQUE,"
     "  account TEXT NOT NULL,"
     "  region TEXT NOT NULL,"
     "  workgroup TEXT NOT NULL,"
     "  query_string TEXT NOT NULL,"
     "  statement_type TEXT,"
     "  catalog TEXT,"
     "  database_name TEXT,"
     "  output_location TEXT,"
     "  expected_bucket_owner TEXT,"
     "  encryption_option TEXT,"
     "  kms_key TEXT,"
     "  engine_version TEXT NOT NULL,"
     "  state TEXT NOT NULL,"
     "  state_reason TEXT,"
     "  error_category INTEGER,"
     "  error_type INTEGER,"
     "  error_message TEXT,"
     "  submitted_at INTEGER NOT NULL,"
     "  completed_at INTEGER"
     ");"
     "CREATE INDEX athena_query_by_workgroup ON athena_query (account, region, workgroup, seq);"),
    /* IAM (iam/): users, roles and customer managed policies of an account (IAM is global: no
     * region), named case-insensitively as IAM names them; inline policies, attachments, access
     * keys, and the temporary credentials STS issues for a role. An entity cannot go while
     * anything hangs on it (foreign keys without cascade: DeleteConflict), except a role's
     * sessions, which end with it, and a policy's versions, which go with it. */
    "CREATE TABLE iam_user ("
    "  id INTEGER PRIMARY KEY,"
    "  account TEXT NOT NULL,"
    "  name TEXT NOT NULL COLLATE NOCASE,"
    "  path TEXT NOT NULL,"
    "  user_id TEXT NOT NULL,"                   /* AIDA... */
    "  created_at INTEGER NOT NULL,"
    "  UNIQUE (account, name)"
    ");"
    "CREATE TABLE iam_role ("
    "  id INTEGER PRIMARY KEY,"
    "  account TEXT NOT NULL,"
    "  name TEXT NOT NULL COLLATE NOCASE,"
    "  path TEXT NOT NULL,"
    "  role_id TEXT NOT NULL,"                   /* AROA... */
    "  trust_policy TEXT NOT NULL,"              /* AssumeRolePolicyDocument, as sent */
    "  description TEXT,"
    "  max_session_duration INTEGER NOT NULL,"   /* seconds */
    "  created_at INTEGER NOT NULL,"
    "  UNIQUE (account, name)"
    ");"
    "CREATE TABLE iam_policy ("                  /* customer managed policies */
    "  id INTEGER PRIMARY KEY,"
    "  account TEXT NOT NULL,"
    "  name TEXT NOT NULL COLLATE NOCASE,"
    "  path TEXT NOT NULL,"
    "  policy_id TEXT NOT NULL,"                 /* ANPA... */
    "  description TEXT,"
    "  default_version TEXT NOT NULL,"           /* v1, ... */
    "  created_at INTEGER NOT NULL,"
    "  updated_at INTEGER NOT NULL,"
    "  UNIQUE (account, name)"
    ");"
    "CREATE TABLE iam_policy_version ("
    "  policy_id INTEGER NOT NULL REFERENCES iam_policy(id) ON DELETE CASCADE,"
    "  version_id TEXT NOT NULL,"
    "  document TEXT NOT NULL,"
    "  created_at INTEGER NOT NULL,"
    "  PRIMARY KEY (policy_id, version_id)"
    ") WITHOUT ROWID;"
    "CREATE TABLE iam_user_policy ("             /* inline policies */
    "  user_id INTEGER NOT NULL REFERENCES iam_user(id),"
    "  name TEXT NOT NULL COLLATE NOCASE,"
    "  document TEXT NOT NULL,"
    "  PRIMARY KEY (user_id, name)"
    ") WITHOUT ROWID;"
    "CREATE TABLE iam_role_policy ("
    "  role_id INTEGER NOT NULL REFERENCES iam_role(id),"
    "  name TEXT NOT NULL COLLATE NOCASE,"
    "  document TEXT NOT NULL,"
    "  PRIMARY KEY (role_id, name)"
    ") WITHOUT ROWID;"
    "CREATE TABLE iam_user_attachment ("
    "  user_id INTEGER NOT NULL REFERENCES iam_user(id),"
    "  policy_id INTEGER NOT NULL REFERENCES iam_policy(id),"
    "  PRIMARY KEY (user_id, policy_id)"
    ") WITHOUT ROWID;"
    "CREATE INDEX iam_user_attachment_by_policy ON iam_user_attachment (policy_id);"
    "CREATE TABLE iam_role_attachment ("
    "  role_id INTEGER NOT NULL REFERENCES iam_role(id),"
    "  policy_id INTEGER NOT NULL REFERENCES iam_policy(id),"
    "  PRIMARY KEY (role_id, policy_id)"
    ") WITHOUT ROWID;"
    "CREATE INDEX iam_role_attachment_by_policy ON iam_role_attachment (policy_id);"
    "CREATE TABLE iam_access_key ("
    "  access_key_id TEXT PRIMARY KEY,"          /* AKIA... */
    "  user_id INTEGER NOT NULL REFERENCES iam_user(id),"
    "  secret TEXT NOT NULL,"
    "  status TEXT NOT NULL,"                    /* Active, Inactive */
    "  created_at INTEGER NOT NULL"
    ") WITHOUT ROWID;"
    "CREATE INDEX iam_access_key_by_user ON iam_access_key (user_id);"
    "CREATE TABLE sts_session ("
    "  access_key_id TEXT PRIMARY KEY,"          /* ASIA... */
    "  role_id INTEGER NOT NULL REFERENCES iam_role(id) ON DELETE CASCADE,"
    "  secret TEXT NOT NULL,"
    "  session_token TEXT NOT NULL,"
    "  session_name TEXT NOT NULL,"
    "  expires_at INTEGER NOT NULL"              /* ms since the epoch */
    ") WITHOUT ROWID;"
    "CREATE INDEX sts_session_by_role ON sts_session (role_id);",
    /* Athena's engine (athena_engine/): what a query's run leaves, Trino's statistics and the
     * columns of its result (a JSON array), and the index by which the engine finds queued work. */
    ("ALTER TABLE athena_query ADD COLUMN result_columns TEXT;"
     "ALTER TABLE athena_query ADD COLUMN data_scanned INTEGER;"
     "ALTER TABLE athena_query ADD COLUMN engine_ms INTEGER;"
     "ALTER TABLE athena_query ADD COLUMN queue_ms INTEGER;"
     "ALTER TABLE athena_query ADD COLUMN result_rows INTEGER;"
     /* who started it (the access key that signed StartQueryExecution), which --enforce-iam
      * authorizes each table access of, and the sentence of the access it was refused */
     "ALTER TABLE athena_query ADD COLUMN caller_key TEXT;"
     "ALTER TABLE athena_query ADD COLUMN denial TEXT;"
     "CREATE INDEX athena_query_by_state ON athena_query (state, seq);"),
    /* the principal a stack operation acts for (its ARN), whose permissions its steps need under
     * --enforce-iam (cloudformation/provision_authorize.c); NULL: the stack's account's root */
    "ALTER TABLE cfn_work ADD COLUMN caller_arn TEXT;",
    /* Athena's SubstatementType of a finished query, the rows its write changed (UpdateCount), and
     * the query's ExecutionParameters (a JSON array of SQL literals). */
    ("ALTER TABLE athena_query ADD COLUMN substatement_type TEXT;"
     "ALTER TABLE athena_query ADD COLUMN update_count INTEGER;"
     "ALTER TABLE athena_query ADD COLUMN execution_parameters TEXT;"),
    /* Glue databases of an account's default catalog (catalog/glue_database.c), which Glue's
     * CreateDatabase and Athena's CREATE SCHEMA in AwsDataCatalog make; parameters: a JSON object */
    "CREATE TABLE glue_database ("
    "  account TEXT NOT NULL,"
    "  region TEXT NOT NULL,"
    "  name TEXT NOT NULL,"
    "  description TEXT,"
    "  location_uri TEXT,"
    "  parameters TEXT,"
    "  created_at INTEGER NOT NULL,"
    "  PRIMARY KEY (account, region, name)"
    ") WITHOUT ROWID;",
    /* Glue tables of the default catalog's databases (catalog/glue_table.c), which Glue's CreateTable
     * makes (awswrangler, Trino's Hive and Iceberg Glue metastores); document: the TableInput as
     * JSON, opaque to SQL; version: Glue's VersionId, 0 when created */
    "CREATE TABLE glue_table ("
    "  account TEXT NOT NULL,"
    "  region TEXT NOT NULL,"
    "  database_name TEXT NOT NULL,"
    "  name TEXT NOT NULL,"
    "  document TEXT NOT NULL,"
    "  version INTEGER NOT NULL,"
    "  created_at INTEGER NOT NULL,"
    "  updated_at INTEGER NOT NULL,"
    "  PRIMARY KEY (account, region, database_name, name)"
    ") WITHOUT ROWID;",
    /* Column statistics of those tables (catalog/glue_table.c), which Glue's
     * UpdateColumnStatisticsForTable writes (Trino's Hive Glue metastore, after a write); document:
     * the ColumnStatistics as JSON. They go with their table. */
    "CREATE TABLE glue_column_statistics ("
    "  account TEXT NOT NULL,"
    "  region TEXT NOT NULL,"
    "  database_name TEXT NOT NULL,"
    "  table_name TEXT NOT NULL,"
    "  column_name TEXT NOT NULL,"
    "  document TEXT NOT NULL,"
    "  PRIMARY KEY (account, region, database_name, table_name, column_name)"
    ") WITHOUT ROWID;",
};

#define N_MIGRATIONS ((int)(sizeof(migrations) / sizeof(migrations[0])))

int floe_schema_version(void)
{
    return N_MIGRATIONS;
}

static int read_version(sqlite3 *db, int *version)
{
    sqlite3_stmt *stmt = NULL;
    int rc;

    if (sqlite3_exec(db, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)", NULL, NULL, NULL) !=
        SQLITE_OK)
        return FLOE_EFAIL;
    if (sqlite3_prepare_v2(db, "SELECT version FROM schema_version", -1, &stmt, NULL) != SQLITE_OK)
        return FLOE_EFAIL;
    rc = sqlite3_step(stmt);
    *version = rc == SQLITE_ROW ? sqlite3_column_int(stmt, 0) : 0;
    sqlite3_finalize(stmt);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? FLOE_OK : FLOE_EFAIL;
}

/* Migrations run with foreign keys off (a table rebuild must not cascade its DROP), so the
 * result is checked before it commits: 0 when every reference holds. */
static int foreign_keys_hold(sqlite3 *db)
{
    sqlite3_stmt *stmt = NULL;
    int rc;

    if (sqlite3_prepare_v2(db, "PRAGMA foreign_key_check", -1, &stmt, NULL) != SQLITE_OK)
        return FLOE_EFAIL;
    rc = sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    if (rc == SQLITE_ROW)
        fprintf(stderr, "floe: a migration left a reference dangling\n");
    return rc == SQLITE_DONE ? FLOE_OK : FLOE_EFAIL;
}

static int replay(sqlite3 *db, int from)
{
    for (int v = from; v < N_MIGRATIONS; v++) {
        if (sqlite3_exec(db, migrations[v], NULL, NULL, NULL) != SQLITE_OK)
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

int floe_schema_replay(sqlite3 *db)
{
    return replay(db, 0);
}

/* Sets *empty to whether db holds nothing but the version table read_version just made. FLOE_OK,
 * or FLOE_EFAIL when SQLite fails. */
static int probe_empty(sqlite3 *db, int *empty)
{
    sqlite3_stmt *stmt = NULL;
    int rc;

    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE name <> 'schema_version' LIMIT 1", -1, &stmt,
                           NULL) != SQLITE_OK)
        return FLOE_EFAIL;
    rc = sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return FLOE_EFAIL;
    *empty = rc == SQLITE_DONE;
    return FLOE_OK;
}

static int apply(sqlite3 *db, int from, const char *snapshot)
{
    char sql[96];
    int empty = 0;

    if (from == 0 && probe_empty(db, &empty) != FLOE_OK)
        return FLOE_EFAIL;
    if (empty ? sqlite3_exec(db, snapshot, NULL, NULL, NULL) != SQLITE_OK : replay(db, from) != 0)
        return FLOE_EFAIL;
    snprintf(sql, sizeof(sql), "DELETE FROM schema_version; INSERT INTO schema_version VALUES (%d)", N_MIGRATIONS);
    return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? FLOE_OK : FLOE_EFAIL;
}

int floe_schema_migrate(sqlite3 *db)
{
    return floe_schema_migrate_with(db, floe_schema_snapshot);
}

int floe_schema_migrate_with(sqlite3 *db, const char *snapshot)
{
    int version = 0;

    /* The write lock makes concurrent openers (one per thread) migrate exactly once. */
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        goto Error;
    if (read_version(db, &version))
        goto Error;
    if (version > N_MIGRATIONS) {
        fprintf(stderr, "floe: the data directory has schema version %d; this build knows up to %d\n", version,
                N_MIGRATIONS);
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return FLOE_EFAIL;
    }
    if (version < N_MIGRATIONS && (apply(db, version, snapshot) || foreign_keys_hold(db) != 0))
        goto Error;
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        goto Error;
    return FLOE_OK;
Error:
    fprintf(stderr, "floe: schema migration failed: %s\n", sqlite3_errmsg(db));
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return FLOE_EFAIL;
}
