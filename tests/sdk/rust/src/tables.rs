//! Namespaces and tables: creation with Iceberg metadata (schema, partition spec, sort order,
//! properties, and the document-typed schemaV2), Get and List, each table-level configuration
//! (encryption, storage class, policy, maintenance and its job status, record expiration and its
//! job status, replication and its status), tags, and rename.

use std::collections::HashMap;
use std::time::{Duration, Instant, SystemTime};

use aws_sdk_s3tables::types::{
    IcebergCompactionSettings, IcebergCompactionStrategy, IcebergMetadata, IcebergNullOrder, IcebergPartitionField,
    IcebergPartitionSpec, IcebergSchema, IcebergSchemaV2, IcebergSnapshotManagementSettings, IcebergSortDirection,
    IcebergSortField, IcebergSortOrder, JobStatus, MaintenanceStatus, OpenTableFormat, ReplicationStatus, SchemaField,
    SchemaV2Field, SchemaV2FieldType, SseAlgorithm, StorageClass, TableMaintenanceConfigurationValue,
    TableMaintenanceJobStatusValue, TableMaintenanceJobType, TableMaintenanceSettings, TableMaintenanceType,
    TableMetadata, TableRecordExpirationConfigurationValue, TableRecordExpirationJobStatus,
    TableRecordExpirationSettings, TableRecordExpirationStatus, TableReplicationConfiguration, TableReplicationRule,
    TableType,
};
use aws_smithy_types::{Document, Number};

use crate::buckets::{destination, encryption, kms_key, policy_document, role, storage_class, tags, LAKE, REPLICA};
use crate::{bucket_arn, Run, ACCOUNT, TOKEN, UUID};

/// How long a replica may take to catch up on an idle server (docs/replication.md: milliseconds).
const REPLICATION_DEADLINE: Duration = Duration::from_secs(20);

pub fn table_arn_pattern(bucket: &str) -> String {
    format!("^{}/table/{UUID}$", regex_lite::escape(&bucket_arn(bucket)))
}

pub const WAREHOUSE: &str = "^s3://[a-z0-9-]+--table-s3$";

pub async fn run(r: &mut Run) {
    namespaces(r).await;
    create_tables(r).await;
    get_and_list_tables(r).await;
    table_encryption_and_storage_class(r).await;
    table_policy(r).await;
    table_maintenance(r).await;
    record_expiration(r).await;
    table_replication(r).await;
    let orders = r.facts.orders_arn.clone();
    tags(r, &orders, &[("dataset", "orders")]).await;
    rename_table(r).await;
}

async fn namespaces(r: &mut Run) {
    let lake = bucket_arn(LAKE);
    for ns in ["sales", "marketing", "staging"] {
        let out = r
            .tables
            .create_namespace()
            .table_bucket_arn(&lake)
            .namespace(ns)
            .send()
            .await;
        let out = r.c.must("CreateNamespace", out);
        r.c.eq(
            "CreateNamespace",
            "tableBucketARN",
            out.table_bucket_arn(),
            lake.as_str(),
        );
        r.c.eq("CreateNamespace", "namespace", out.namespace(), &[ns.to_string()]);
    }
    let again = r
        .tables
        .create_namespace()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .send()
        .await;
    r.c.error_code("CreateNamespace", again, "ConflictException", 409);

    let op = "GetNamespace";
    let got = r
        .tables
        .get_namespace()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .send()
        .await;
    let got = r.c.must(op, got);
    r.c.eq(op, "namespace", got.namespace(), &["sales".to_string()]);
    let created_at = r.c.recent(op, "createdAt", Some(got.created_at()), r.started);
    r.c.eq(op, "createdBy", got.created_by(), ACCOUNT);
    r.c.eq(op, "ownerAccountId", got.owner_account_id(), ACCOUNT);
    r.facts.namespace_id = r.c.form(op, "namespaceId", got.namespace_id(), &format!("^{UUID}$"));
    let bucket_id = r.facts.bucket_id.clone();
    r.c.eq(op, "tableBucketId", &got.table_bucket_id(), &Some(bucket_id.as_str()));

    let list = "ListNamespaces";
    let mut pages = r
        .tables
        .list_namespaces()
        .table_bucket_arn(&lake)
        .max_namespaces(2)
        .into_paginator()
        .send();
    let mut names = Vec::new();
    let mut first = true;
    while let Some(page) = pages.next().await {
        let page = r.c.must(list, page);
        if first {
            r.c.form(list, "continuationToken", page.continuation_token(), TOKEN);
            first = false;
        }
        for ns in page.namespaces() {
            names.extend(ns.namespace().iter().cloned());
            if ns.namespace() != ["sales"] {
                continue;
            }
            r.c.eq(
                list,
                "namespaces[sales].createdAt",
                &SystemTime::try_from(*ns.created_at()).ok(),
                &Some(created_at),
            );
            r.c.eq(list, "namespaces[sales].createdBy", ns.created_by(), ACCOUNT);
            r.c.eq(list, "namespaces[sales].ownerAccountId", ns.owner_account_id(), ACCOUNT);
            let namespace_id = r.facts.namespace_id.clone();
            r.c.eq(
                list,
                "namespaces[sales].namespaceId",
                &ns.namespace_id(),
                &Some(namespace_id.as_str()),
            );
            r.c.eq(
                list,
                "namespaces[sales].tableBucketId",
                &ns.table_bucket_id(),
                &Some(bucket_id.as_str()),
            );
        }
    }
    r.c.eq(
        list,
        "namespaces[].namespace",
        &names,
        &vec!["marketing".to_string(), "sales".into(), "staging".into()],
    );
    let out = r
        .tables
        .list_namespaces()
        .table_bucket_arn(&lake)
        .prefix("st")
        .send()
        .await;
    let out = r.c.must(list, out);
    r.c.eq(list, "len(namespaces) for prefix st", &out.namespaces().len(), &1);
    r.c.absent(list, "continuationToken", out.continuation_token());

    let deleted = r
        .tables
        .delete_namespace()
        .table_bucket_arn(&lake)
        .namespace("staging")
        .send()
        .await;
    r.c.must("DeleteNamespace", deleted);
    let after = r
        .tables
        .get_namespace()
        .table_bucket_arn(&lake)
        .namespace("staging")
        .send()
        .await;
    r.c.error_code("GetNamespace after DeleteNamespace", after, "NotFoundException", 404);
}

fn field(name: &str, kind: &str, required: bool) -> SchemaField {
    SchemaField::builder()
        .name(name)
        .r#type(kind)
        .required(required)
        .build()
        .expect("a complete input")
}

fn orders_metadata() -> TableMetadata {
    TableMetadata::Iceberg(
        IcebergMetadata::builder()
            .schema(
                IcebergSchema::builder()
                    .fields(field("order_id", "long", true))
                    .fields(field("customer", "string", false))
                    .fields(field("amount", "decimal(10,2)", false))
                    .fields(field("ordered_at", "timestamp", false))
                    .build()
                    .expect("a complete input"),
            )
            .partition_spec(
                IcebergPartitionSpec::builder()
                    .fields(
                        IcebergPartitionField::builder()
                            .source_id(4)
                            .transform("day")
                            .name("ordered_day")
                            .build()
                            .expect("a complete input"),
                    )
                    .build()
                    .expect("a complete input"),
            )
            .write_order(
                IcebergSortOrder::builder()
                    .order_id(1)
                    .fields(
                        IcebergSortField::builder()
                            .source_id(1)
                            .transform("identity")
                            .direction(IcebergSortDirection::Asc)
                            .null_order(IcebergNullOrder::NullsLast)
                            .build()
                            .expect("a complete input"),
                    )
                    .build()
                    .expect("a complete input"),
            )
            .properties("comment", "orders from the shop")
            .build(),
    )
}

/// schemaV2 carries each field's type as a document: a nested list type here.
fn events_metadata() -> TableMetadata {
    let list_type = Document::Object(HashMap::from([
        ("type".to_string(), Document::String("list".into())),
        ("element-id".to_string(), Document::Number(Number::PosInt(3))),
        ("element".to_string(), Document::String("string".into())),
        ("element-required".to_string(), Document::Bool(false)),
    ]));
    TableMetadata::Iceberg(
        IcebergMetadata::builder()
            .schema_v2(
                IcebergSchemaV2::builder()
                    .r#type(SchemaV2FieldType::Struct)
                    .fields(
                        SchemaV2Field::builder()
                            .id(1)
                            .name("event_id")
                            .r#type(Document::String("long".into()))
                            .required(true)
                            .build()
                            .expect("a complete input"),
                    )
                    .fields(
                        SchemaV2Field::builder()
                            .id(2)
                            .name("labels")
                            .r#type(list_type)
                            .required(false)
                            .doc("free-form labels")
                            .build()
                            .expect("a complete input"),
                    )
                    .identifier_field_ids(1)
                    .build()
                    .expect("a complete input"),
            )
            .build(),
    )
}

async fn create_tables(r: &mut Run) {
    let op = "CreateTable";
    let lake = bucket_arn(LAKE);
    let out = r
        .tables
        .create_table()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("orders")
        .format(OpenTableFormat::Iceberg)
        .metadata(orders_metadata())
        .encryption_configuration(encryption(SseAlgorithm::AwsKms, Some(kms_key())))
        .storage_class_configuration(storage_class(StorageClass::IntelligentTiering))
        .tags("dataset", "orders")
        .send()
        .await;
    let out = r.c.must(op, out);
    r.facts.orders_arn =
        r.c.form(op, "tableARN", Some(out.table_arn()), &table_arn_pattern(LAKE));
    r.facts.orders_token = r.c.form(op, "versionToken", Some(out.version_token()), TOKEN);

    let events = r
        .tables
        .create_table()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("events")
        .format(OpenTableFormat::Iceberg)
        .metadata(events_metadata())
        .send()
        .await;
    let events = r.c.must("CreateTable with schemaV2", events);
    r.c.form(op, "tableARN", Some(events.table_arn()), &table_arn_pattern(LAKE));

    let again = r
        .tables
        .create_table()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("orders")
        .format(OpenTableFormat::Iceberg)
        .send()
        .await;
    r.c.error_code(op, again, "ConflictException", 409);
    let nowhere = r
        .tables
        .create_table()
        .table_bucket_arn(&lake)
        .namespace("nowhere")
        .name("orders")
        .format(OpenTableFormat::Iceberg)
        .send()
        .await;
    r.c.error_code("CreateTable in a missing namespace", nowhere, "NotFoundException", 404);
}

async fn get_and_list_tables(r: &mut Run) {
    let op = "GetTable";
    let lake = bucket_arn(LAKE);
    let (orders, token) = (r.facts.orders_arn.clone(), r.facts.orders_token.clone());
    let (bucket_id, namespace_id) = (r.facts.bucket_id.clone(), r.facts.namespace_id.clone());
    let got = r
        .tables
        .get_table()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("orders")
        .send()
        .await;
    let got = r.c.must(op, got);
    r.c.eq(op, "name", got.name(), "orders");
    r.c.eq(op, "type", got.r#type(), &TableType::Customer);
    r.c.eq(op, "tableARN", got.table_arn(), orders.as_str());
    r.c.eq(op, "namespace", got.namespace(), &["sales".to_string()]);
    r.c.eq(op, "namespaceId", &got.namespace_id(), &Some(namespace_id.as_str()));
    r.c.eq(op, "versionToken", got.version_token(), token.as_str());
    let warehouse =
        r.c.form(op, "warehouseLocation", Some(got.warehouse_location()), WAREHOUSE);
    let metadata_pattern = format!(
        r"^{}/metadata/[0-9]{{5}}-{UUID}\.metadata\.json$",
        regex_lite::escape(&warehouse)
    );
    r.facts.metadata_location =
        r.c.form(op, "metadataLocation", got.metadata_location(), &metadata_pattern);
    r.facts.warehouse = warehouse.clone();
    let created_at = r.c.recent(op, "createdAt", Some(got.created_at()), r.started);
    r.facts.orders_created_at = Some(created_at);
    r.c.eq(op, "createdBy", got.created_by(), ACCOUNT);
    r.c.absent(op, "managedByService", got.managed_by_service());
    r.c.recent(op, "modifiedAt", Some(got.modified_at()), created_at);
    // AWS leaves modifiedBy out until the table is modified; the SDK then reads "".
    r.c.eq(op, "modifiedBy (a table never modified)", got.modified_by(), "");
    r.c.eq(op, "ownerAccountId", got.owner_account_id(), ACCOUNT);
    r.c.eq(op, "format", got.format(), &OpenTableFormat::Iceberg);
    r.c.eq(op, "tableBucketId", &got.table_bucket_id(), &Some(bucket_id.as_str()));
    r.c.absent(
        op,
        "managedTableInformation (not a replica)",
        got.managed_table_information(),
    );

    let by_arn = r.tables.get_table().table_arn(&orders).send().await;
    let by_arn = r.c.must("GetTable by tableArn", by_arn);
    r.c.eq("GetTable by tableArn", "name", by_arn.name(), "orders");
    r.c.eq(
        "GetTable by tableArn",
        "namespace",
        by_arn.namespace(),
        &["sales".to_string()],
    );
    r.c.eq(
        "GetTable by tableArn",
        "warehouseLocation",
        by_arn.warehouse_location(),
        warehouse.as_str(),
    );
    let missing = r
        .tables
        .get_table()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("returns")
        .send()
        .await;
    r.c.error_code("GetTable of a missing table", missing, "NotFoundException", 404);

    let loc = "GetTableMetadataLocation";
    let ml = r
        .tables
        .get_table_metadata_location()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("orders")
        .send()
        .await;
    let ml = r.c.must(loc, ml);
    r.c.eq(loc, "versionToken", ml.version_token(), token.as_str());
    let metadata_location = r.facts.metadata_location.clone();
    r.c.eq(
        loc,
        "metadataLocation",
        &ml.metadata_location(),
        &Some(metadata_location.as_str()),
    );
    r.c.eq(loc, "warehouseLocation", ml.warehouse_location(), warehouse.as_str());

    let list = "ListTables";
    let mut pages = r
        .tables
        .list_tables()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .max_tables(1)
        .into_paginator()
        .send();
    let mut names = Vec::new();
    let mut first = true;
    while let Some(page) = pages.next().await {
        let page = r.c.must(list, page);
        if first {
            r.c.form(list, "continuationToken", page.continuation_token(), TOKEN);
            first = false;
        }
        for t in page.tables() {
            names.push(t.name().to_string());
            if t.name() != "orders" {
                continue;
            }
            r.c.eq(list, "tables[orders].namespace", t.namespace(), &["sales".to_string()]);
            r.c.eq(list, "tables[orders].type", t.r#type(), &TableType::Customer);
            r.c.eq(list, "tables[orders].tableARN", t.table_arn(), orders.as_str());
            r.c.eq(list, "tables[orders].createdAt", t.created_at(), got.created_at());
            r.c.eq(list, "tables[orders].modifiedAt", t.modified_at(), got.modified_at());
            r.c.absent(list, "tables[orders].managedByService", t.managed_by_service());
            r.c.eq(
                list,
                "tables[orders].namespaceId",
                &t.namespace_id(),
                &Some(namespace_id.as_str()),
            );
            r.c.eq(
                list,
                "tables[orders].tableBucketId",
                &t.table_bucket_id(),
                &Some(bucket_id.as_str()),
            );
        }
    }
    r.c.eq(
        list,
        "tables[].name",
        &names,
        &vec!["events".to_string(), "orders".to_string()],
    );
    let out = r
        .tables
        .list_tables()
        .table_bucket_arn(&lake)
        .prefix("ord")
        .send()
        .await;
    let out = r.c.must(list, out);
    r.c.eq(list, "len(tables) for prefix ord", &out.tables().len(), &1);
    r.c.absent(list, "continuationToken", out.continuation_token());
}

async fn table_encryption_and_storage_class(r: &mut Run) {
    let lake = bucket_arn(LAKE);
    // orders was given its own settings; events takes the bucket's at creation (AES256 after
    // DeleteTableBucketEncryption, STANDARD after PutTableBucketStorageClass).
    for (name, want_encryption, want_class) in [
        (
            "orders",
            encryption(SseAlgorithm::AwsKms, Some(kms_key())),
            StorageClass::IntelligentTiering,
        ),
        ("events", encryption(SseAlgorithm::Aes256, None), StorageClass::Standard),
    ] {
        let enc = r
            .tables
            .get_table_encryption()
            .table_bucket_arn(&lake)
            .namespace("sales")
            .name(name)
            .send()
            .await;
        let enc = r.c.must("GetTableEncryption", enc);
        r.c.eq(
            "GetTableEncryption",
            &format!("encryptionConfiguration of {name}"),
            &enc.encryption_configuration(),
            &Some(&want_encryption),
        );
        let sc = r
            .tables
            .get_table_storage_class()
            .table_bucket_arn(&lake)
            .namespace("sales")
            .name(name)
            .send()
            .await;
        let sc = r.c.must("GetTableStorageClass", sc);
        r.c.eq(
            "GetTableStorageClass",
            &format!("storageClassConfiguration of {name}"),
            &sc.storage_class_configuration(),
            &Some(&storage_class(want_class)),
        );
    }
}

async fn table_policy(r: &mut Run) {
    let op = "GetTablePolicy";
    let lake = bucket_arn(LAKE);
    let before = r
        .tables
        .get_table_policy()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("orders")
        .send()
        .await;
    r.c.error_code(&format!("{op} before Put"), before, "NotFoundException", 404);
    let document = policy_document(&r.facts.orders_arn, "s3tables:GetTableData");
    let put = r
        .tables
        .put_table_policy()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("orders")
        .resource_policy(&document)
        .send()
        .await;
    r.c.must("PutTablePolicy", put);
    let out = r
        .tables
        .get_table_policy()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("orders")
        .send()
        .await;
    let out = r.c.must(op, out);
    r.c.eq(op, "resourcePolicy", out.resource_policy(), document.as_str());
    let deleted = r
        .tables
        .delete_table_policy()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("orders")
        .send()
        .await;
    r.c.must("DeleteTablePolicy", deleted);
    let after = r
        .tables
        .get_table_policy()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("orders")
        .send()
        .await;
    r.c.error_code(&format!("{op} after Delete"), after, "NotFoundException", 404);
}

fn compaction(
    status: MaintenanceStatus,
    size_mb: i32,
    strategy: IcebergCompactionStrategy,
) -> TableMaintenanceConfigurationValue {
    TableMaintenanceConfigurationValue::builder()
        .status(status)
        .settings(TableMaintenanceSettings::IcebergCompaction(
            IcebergCompactionSettings::builder()
                .target_file_size_mb(size_mb)
                .strategy(strategy)
                .build(),
        ))
        .build()
}

fn snapshots(status: MaintenanceStatus, keep: i32, hours: i32) -> TableMaintenanceConfigurationValue {
    TableMaintenanceConfigurationValue::builder()
        .status(status)
        .settings(TableMaintenanceSettings::IcebergSnapshotManagement(
            IcebergSnapshotManagementSettings::builder()
                .min_snapshots_to_keep(keep)
                .max_snapshot_age_hours(hours)
                .build(),
        ))
        .build()
}

fn job(status: JobStatus) -> TableMaintenanceJobStatusValue {
    TableMaintenanceJobStatusValue::builder()
        .status(status)
        .build()
        .expect("a complete input")
}

async fn table_maintenance(r: &mut Run) {
    let op = "GetTableMaintenanceConfiguration";
    let lake = bucket_arn(LAKE);
    let orders = r.facts.orders_arn.clone();
    // AWS's documented defaults: compaction to 512 MB with the auto strategy; keep at least one
    // snapshot and expire snapshots older than 120 hours.
    let out = r
        .tables
        .get_table_maintenance_configuration()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("orders")
        .send()
        .await;
    let out = r.c.must(op, out);
    r.c.eq(op, "tableARN", out.table_arn(), orders.as_str());
    r.c.eq(
        op,
        "configuration of a new table",
        out.configuration(),
        &HashMap::from([
            (
                TableMaintenanceType::IcebergCompaction,
                compaction(MaintenanceStatus::Enabled, 512, IcebergCompactionStrategy::Auto),
            ),
            (
                TableMaintenanceType::IcebergSnapshotManagement,
                snapshots(MaintenanceStatus::Enabled, 1, 120),
            ),
        ]),
    );
    let wanted = HashMap::from([
        (
            TableMaintenanceType::IcebergCompaction,
            compaction(MaintenanceStatus::Enabled, 128, IcebergCompactionStrategy::Sort),
        ),
        (
            TableMaintenanceType::IcebergSnapshotManagement,
            snapshots(MaintenanceStatus::Disabled, 3, 48),
        ),
    ]);
    for (kind, value) in &wanted {
        let put = r
            .tables
            .put_table_maintenance_configuration()
            .table_bucket_arn(&lake)
            .namespace("sales")
            .name("orders")
            .r#type(kind.clone())
            .value(value.clone())
            .send()
            .await;
        r.c.must("PutTableMaintenanceConfiguration", put);
    }
    let out = r
        .tables
        .get_table_maintenance_configuration()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("orders")
        .send()
        .await;
    let out = r.c.must(op, out);
    r.c.eq(
        op,
        "configuration after PutTableMaintenanceConfiguration",
        out.configuration(),
        &wanted,
    );
    let refused = r
        .tables
        .put_table_maintenance_configuration()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("orders")
        .r#type(TableMaintenanceType::IcebergCompaction)
        .value(compaction(
            MaintenanceStatus::Enabled,
            1024,
            IcebergCompactionStrategy::Auto,
        ))
        .send()
        .await;
    r.c.error_code(
        "PutTableMaintenanceConfiguration with targetFileSizeMB 1024",
        refused,
        "BadRequestException",
        400,
    );

    let jobs = "GetTableMaintenanceJobStatus";
    let out = r
        .tables
        .get_table_maintenance_job_status()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("orders")
        .send()
        .await;
    let out = r.c.must(jobs, out);
    r.c.eq(jobs, "tableARN", out.table_arn(), orders.as_str());
    r.c.eq(
        jobs,
        "status",
        out.status(),
        &HashMap::from([
            (TableMaintenanceJobType::IcebergCompaction, job(JobStatus::NotYetRun)),
            (
                TableMaintenanceJobType::IcebergSnapshotManagement,
                job(JobStatus::Disabled),
            ),
            (
                TableMaintenanceJobType::IcebergUnreferencedFileRemoval,
                job(JobStatus::NotYetRun),
            ),
        ]),
    );
}

async fn record_expiration(r: &mut Run) {
    let orders = r.facts.orders_arn.clone();
    async fn get(
        r: &mut Run,
        orders: &str,
        want: TableRecordExpirationConfigurationValue,
        job: TableRecordExpirationJobStatus,
        when: &str,
    ) {
        let op = "GetTableRecordExpirationConfiguration";
        let jobs = "GetTableRecordExpirationJobStatus";
        let out = r
            .tables
            .get_table_record_expiration_configuration()
            .table_arn(orders)
            .send()
            .await;
        let out = r.c.must(op, out);
        r.c.eq(op, &format!("configuration {when}"), &out.configuration(), &Some(&want));
        let st = r
            .tables
            .get_table_record_expiration_job_status()
            .table_arn(orders)
            .send()
            .await;
        let st = r.c.must(jobs, st);
        r.c.eq(jobs, &format!("status {when}"), st.status(), &job);
        r.c.absent(jobs, "lastRunTimestamp (never run)", st.last_run_timestamp());
        r.c.absent(jobs, "failureMessage (never run)", st.failure_message());
        r.c.absent(jobs, "metrics (never run)", st.metrics());
    }
    get(
        r,
        &orders,
        TableRecordExpirationConfigurationValue::builder()
            .status(TableRecordExpirationStatus::Disabled)
            .build(),
        TableRecordExpirationJobStatus::Disabled,
        "of a new table",
    )
    .await;
    let enabled = TableRecordExpirationConfigurationValue::builder()
        .status(TableRecordExpirationStatus::Enabled)
        .settings(TableRecordExpirationSettings::builder().days(30).build())
        .build();
    let put = r
        .tables
        .put_table_record_expiration_configuration()
        .table_arn(&orders)
        .value(enabled.clone())
        .send()
        .await;
    r.c.must("PutTableRecordExpirationConfiguration", put);
    get(
        r,
        &orders,
        enabled,
        TableRecordExpirationJobStatus::NotYetRun,
        "after PutTableRecordExpirationConfiguration",
    )
    .await;
}

async fn table_replication(r: &mut Run) {
    let op = "GetTableReplication";
    let orders = r.facts.orders_arn.clone();
    let before = r.tables.get_table_replication().table_arn(&orders).send().await;
    r.c.error_code(&format!("{op} before Put"), before, "NotFoundException", 404);
    let configuration = TableReplicationConfiguration::builder()
        .role(role())
        .rules(
            TableReplicationRule::builder()
                .destinations(destination(&bucket_arn(REPLICA)))
                .build()
                .expect("a complete input"),
        )
        .build()
        .expect("a complete input");
    let put = r
        .tables
        .put_table_replication()
        .table_arn(&orders)
        .configuration(configuration.clone())
        .send()
        .await;
    let put = r.c.must("PutTableReplication", put);
    let first =
        r.c.form("PutTableReplication", "versionToken", Some(put.version_token()), TOKEN);
    r.c.eq("PutTableReplication", "status", put.status(), "pending");
    let got = r.tables.get_table_replication().table_arn(&orders).send().await;
    let got = r.c.must(op, got);
    r.c.eq(op, "versionToken", got.version_token(), first.as_str());
    r.c.eq(op, "configuration", &got.configuration(), &Some(&configuration));

    replication_status(r).await;

    let again = r
        .tables
        .put_table_replication()
        .table_arn(&orders)
        .configuration(configuration)
        .version_token(&first)
        .send()
        .await;
    let again = r.c.must("PutTableReplication with the current versionToken", again);
    let second = r.c.form(
        "PutTableReplication",
        "versionToken",
        Some(again.version_token()),
        TOKEN,
    );
    if second == first {
        r.c.fail(
            "PutTableReplication",
            "versionToken",
            format!("unchanged ({second:?}) by a second Put"),
        );
    }
    let stale = r
        .tables
        .delete_table_replication()
        .table_arn(&orders)
        .version_token(&first)
        .send()
        .await;
    r.c.error_code(
        "DeleteTableReplication with a stale versionToken",
        stale,
        "ConflictException",
        409,
    );
    let deleted = r
        .tables
        .delete_table_replication()
        .table_arn(&orders)
        .version_token(&second)
        .send()
        .await;
    r.c.must("DeleteTableReplication", deleted);
    let after = r.tables.get_table_replication().table_arn(&orders).send().await;
    r.c.error_code(&format!("{op} after Delete"), after, "NotFoundException", 404);
}

/// Waits for the replica to hold the source's metadata, then checks the status of the one
/// destination and the replica table itself.
async fn replication_status(r: &mut Run) {
    let op = "GetTableReplicationStatus";
    let orders = r.facts.orders_arn.clone();
    let deadline = Instant::now() + REPLICATION_DEADLINE;
    let out = loop {
        let out = r.tables.get_table_replication_status().table_arn(&orders).send().await;
        let out = r.c.must(op, out);
        let pending =
            out.destinations().len() == 1 && out.destinations()[0].replication_status() == &ReplicationStatus::Pending;
        if !pending || Instant::now() > deadline {
            break out;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    r.c.eq(op, "sourceTableArn", out.source_table_arn(), orders.as_str());
    let [d] = out.destinations() else {
        r.c.fail(op, "destinations", format!("got {}, want 1", out.destinations().len()));
        return;
    };
    r.c.eq(
        op,
        "destinations[0].replicationStatus",
        d.replication_status(),
        &ReplicationStatus::Completed,
    );
    r.c.eq(
        op,
        "destinations[0].destinationTableBucketArn",
        d.destination_table_bucket_arn(),
        bucket_arn(REPLICA).as_str(),
    );
    let replica = r.c.form(
        op,
        "destinations[0].destinationTableArn",
        d.destination_table_arn(),
        &table_arn_pattern(REPLICA),
    );
    r.c.absent(op, "destinations[0].failureMessage", d.failure_message());
    match d.last_successful_replicated_update() {
        None => {
            r.c.fail(op, "destinations[0].lastSuccessfulReplicatedUpdate", "missing".into())
        }
        Some(update) => {
            let metadata_location = r.facts.metadata_location.clone();
            r.c.eq(
                op,
                "destinations[0].lastSuccessfulReplicatedUpdate.metadataLocation",
                update.metadata_location(),
                metadata_location.as_str(),
            );
            let since = r.facts.orders_created_at.unwrap_or(r.started);
            r.c.recent(
                op,
                "destinations[0].lastSuccessfulReplicatedUpdate.timestamp",
                Some(update.timestamp()),
                since,
            );
        }
    }

    let what = "GetTable of the replica";
    let got = r.tables.get_table().table_arn(&replica).send().await;
    let got = r.c.must(what, got);
    r.c.eq(what, "name", got.name(), "orders");
    r.c.eq(what, "namespace", got.namespace(), &["sales".to_string()]);
    let source = got
        .managed_table_information()
        .and_then(|m| m.replication_information())
        .map(|i| i.source_table_arn());
    r.c.eq(
        what,
        "managedTableInformation.replicationInformation.sourceTableARN",
        &source,
        &Some(orders.as_str()),
    );
}

/// Moves events to another namespace and name; its ARN stays.
async fn rename_table(r: &mut Run) {
    let lake = bucket_arn(LAKE);
    let before = r
        .tables
        .get_table()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("events")
        .send()
        .await;
    let before = r.c.must("GetTable", before);
    let renamed = r
        .tables
        .rename_table()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("events")
        .new_namespace_name("marketing")
        .new_name("clicks")
        .version_token(before.version_token())
        .send()
        .await;
    r.c.must("RenameTable", renamed);
    let what = "GetTable after RenameTable";
    let after = r.tables.get_table().table_arn(before.table_arn()).send().await;
    let after = r.c.must(what, after);
    r.c.eq(what, "name", after.name(), "clicks");
    r.c.eq(what, "namespace", after.namespace(), &["marketing".to_string()]);
    r.c.eq(what, "tableARN", after.table_arn(), before.table_arn());
    let old = r
        .tables
        .get_table()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("events")
        .send()
        .await;
    r.c.error_code(
        "GetTable of the old name after RenameTable",
        old,
        "NotFoundException",
        404,
    );
}
