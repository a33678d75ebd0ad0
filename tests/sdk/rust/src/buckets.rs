//! The table bucket operations: creation with settings, Get and List, and each bucket-level
//! configuration (encryption, storage class, maintenance, metrics, policy, replication) and tags,
//! each read back after it is written, with AWS's defaults and NotFound answers.

use std::collections::HashMap;

use aws_sdk_s3tables::types::{
    EncryptionConfiguration, IcebergUnreferencedFileRemovalSettings, MaintenanceStatus, ReplicationDestination,
    SseAlgorithm, StorageClass, StorageClassConfiguration, TableBucketMaintenanceConfigurationValue,
    TableBucketMaintenanceSettings, TableBucketMaintenanceType, TableBucketReplicationConfiguration,
    TableBucketReplicationRule, TableBucketType,
};

use crate::{bucket_arn, Run, ACCOUNT, TOKEN, UUID};

pub const LAKE: &str = "rs-lake";
pub const REPLICA: &str = "rs-replica";
const ARCHIVE: &str = "rs-archive";

pub fn kms_key() -> String {
    format!("arn:aws:kms:us-east-1:{ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab")
}

pub fn role() -> String {
    format!("arn:aws:iam::{ACCOUNT}:role/s3tables-replication")
}

pub fn encryption(algorithm: SseAlgorithm, key: Option<String>) -> EncryptionConfiguration {
    EncryptionConfiguration::builder()
        .sse_algorithm(algorithm)
        .set_kms_key_arn(key)
        .build()
        .expect("a complete input")
}

pub fn storage_class(class: StorageClass) -> StorageClassConfiguration {
    StorageClassConfiguration::builder()
        .storage_class(class)
        .build()
        .expect("a complete input")
}

pub fn destination(bucket: &str) -> ReplicationDestination {
    ReplicationDestination::builder()
        .destination_table_bucket_arn(bucket)
        .build()
        .expect("a complete input")
}

pub fn policy_document(resource: &str, action: &str) -> String {
    format!(
        r#"{{"Version":"2012-10-17","Statement":[{{"Sid":"ReadAccess","Effect":"Allow","Principal":{{"AWS":"arn:aws:iam::{ACCOUNT}:root"}},"Action":["{action}"],"Resource":"{resource}"}}]}}"#
    )
}

pub async fn run(r: &mut Run) {
    create(r).await;
    get_and_list(r).await;
    bucket_encryption(r).await;
    bucket_storage_class(r).await;
    maintenance(r).await;
    metrics(r).await;
    policy(r).await;
    replication(r).await;
    tags(r, &bucket_arn(LAKE), &[("team", "analytics"), ("env", "test")]).await;
    delete_bucket(r, ARCHIVE).await;
}

async fn create(r: &mut Run) {
    let out = r
        .tables
        .create_table_bucket()
        .name(LAKE)
        .encryption_configuration(encryption(SseAlgorithm::AwsKms, Some(kms_key())))
        .storage_class_configuration(storage_class(StorageClass::IntelligentTiering))
        .tags("team", "analytics")
        .tags("env", "test")
        .send()
        .await;
    let out = r.c.must("CreateTableBucket", out);
    r.c.eq("CreateTableBucket", "arn", out.arn(), bucket_arn(LAKE).as_str());
    for name in [ARCHIVE, REPLICA] {
        let out = r.tables.create_table_bucket().name(name).send().await;
        let out = r.c.must("CreateTableBucket", out);
        r.c.eq("CreateTableBucket", "arn", out.arn(), bucket_arn(name).as_str());
    }
    let again = r.tables.create_table_bucket().name(LAKE).send().await;
    r.c.error_code("CreateTableBucket", again, "ConflictException", 409);
}

async fn get_and_list(r: &mut Run) {
    let op = "GetTableBucket";
    let lake = bucket_arn(LAKE);
    let got = r.tables.get_table_bucket().table_bucket_arn(&lake).send().await;
    let got = r.c.must(op, got);
    r.c.eq(op, "arn", got.arn(), lake.as_str());
    r.c.eq(op, "name", got.name(), LAKE);
    r.c.eq(op, "ownerAccountId", got.owner_account_id(), ACCOUNT);
    let created_at = r.c.recent(op, "createdAt", Some(got.created_at()), r.started);
    r.facts.bucket_id =
        r.c.form(op, "tableBucketId", got.table_bucket_id(), &format!("^{UUID}$"));
    r.c.eq(op, "type", &got.r#type(), &Some(&TableBucketType::Customer));
    let missing = r
        .tables
        .get_table_bucket()
        .table_bucket_arn(bucket_arn("rs-none"))
        .send()
        .await;
    r.c.error_code(op, missing, "NotFoundException", 404);

    // One bucket per page, through the SDK's own paginator.
    let list = "ListTableBuckets";
    let mut pages = r
        .tables
        .list_table_buckets()
        .prefix("rs-")
        .max_buckets(1)
        .r#type(TableBucketType::Customer)
        .into_paginator()
        .send();
    let mut names = Vec::new();
    let mut first = true;
    while let Some(page) = pages.next().await {
        let page = r.c.must(list, page);
        if page.table_buckets().len() > 1 {
            r.c.fail(
                list,
                "tableBuckets",
                format!("{} buckets on a page of maxBuckets 1", page.table_buckets().len()),
            );
        }
        if first {
            r.c.form(list, "continuationToken", page.continuation_token(), TOKEN);
            first = false;
        }
        for b in page.table_buckets() {
            names.push(b.name().to_string());
            if b.name() != LAKE {
                continue;
            }
            r.c.eq(list, "tableBuckets[rs-lake].arn", b.arn(), lake.as_str());
            r.c.eq(
                list,
                "tableBuckets[rs-lake].ownerAccountId",
                b.owner_account_id(),
                ACCOUNT,
            );
            r.c.eq(
                list,
                "tableBuckets[rs-lake].createdAt",
                &std::time::SystemTime::try_from(*b.created_at()).ok(),
                &Some(created_at),
            );
            let id = r.facts.bucket_id.clone();
            r.c.eq(
                list,
                "tableBuckets[rs-lake].tableBucketId",
                &b.table_bucket_id(),
                &Some(id.as_str()),
            );
            r.c.eq(
                list,
                "tableBuckets[rs-lake].type",
                &b.r#type(),
                &Some(&TableBucketType::Customer),
            );
        }
    }
    r.c.eq(
        list,
        "tableBuckets[].name",
        &names,
        &vec![ARCHIVE.to_string(), LAKE.to_string(), REPLICA.to_string()],
    );
    let out = r.tables.list_table_buckets().prefix("rs-r").send().await;
    let out = r.c.must(list, out);
    r.c.eq(
        list,
        "len(tableBuckets) for prefix rs-r",
        &out.table_buckets().len(),
        &1,
    );
    r.c.absent(list, "continuationToken", out.continuation_token());
}

async fn bucket_encryption(r: &mut Run) {
    let lake = bucket_arn(LAKE);
    async fn get(r: &mut Run, lake: &str, want: EncryptionConfiguration, when: &str) {
        let op = "GetTableBucketEncryption";
        let out = r
            .tables
            .get_table_bucket_encryption()
            .table_bucket_arn(lake)
            .send()
            .await;
        let out = r.c.must(op, out);
        r.c.eq(
            op,
            &format!("encryptionConfiguration {when}"),
            &out.encryption_configuration(),
            &Some(&want),
        );
    }
    get(
        r,
        &lake,
        encryption(SseAlgorithm::AwsKms, Some(kms_key())),
        "after CreateTableBucket",
    )
    .await;
    let put = r
        .tables
        .put_table_bucket_encryption()
        .table_bucket_arn(&lake)
        .encryption_configuration(encryption(SseAlgorithm::Aes256, None))
        .send()
        .await;
    r.c.must("PutTableBucketEncryption", put);
    get(
        r,
        &lake,
        encryption(SseAlgorithm::Aes256, None),
        "after PutTableBucketEncryption",
    )
    .await;
    let refused = r
        .tables
        .put_table_bucket_encryption()
        .table_bucket_arn(&lake)
        .encryption_configuration(encryption(SseAlgorithm::AwsKms, None))
        .send()
        .await;
    r.c.error_code("PutTableBucketEncryption", refused, "BadRequestException", 400);
    let deleted = r
        .tables
        .delete_table_bucket_encryption()
        .table_bucket_arn(&lake)
        .send()
        .await;
    r.c.must("DeleteTableBucketEncryption", deleted);
    get(
        r,
        &lake,
        encryption(SseAlgorithm::Aes256, None),
        "after DeleteTableBucketEncryption",
    )
    .await;
}

async fn bucket_storage_class(r: &mut Run) {
    let op = "GetTableBucketStorageClass";
    let lake = bucket_arn(LAKE);
    let out = r
        .tables
        .get_table_bucket_storage_class()
        .table_bucket_arn(&lake)
        .send()
        .await;
    let out = r.c.must(op, out);
    r.c.eq(
        op,
        "storageClassConfiguration",
        &out.storage_class_configuration(),
        &Some(&storage_class(StorageClass::IntelligentTiering)),
    );
    let put = r
        .tables
        .put_table_bucket_storage_class()
        .table_bucket_arn(&lake)
        .storage_class_configuration(storage_class(StorageClass::Standard))
        .send()
        .await;
    r.c.must("PutTableBucketStorageClass", put);
    let out = r
        .tables
        .get_table_bucket_storage_class()
        .table_bucket_arn(&lake)
        .send()
        .await;
    let out = r.c.must(op, out);
    r.c.eq(
        op,
        "storageClassConfiguration after Put",
        &out.storage_class_configuration(),
        &Some(&storage_class(StorageClass::Standard)),
    );
}

fn removal(status: MaintenanceStatus, unreferenced: i32, non_current: i32) -> TableBucketMaintenanceConfigurationValue {
    TableBucketMaintenanceConfigurationValue::builder()
        .status(status)
        .settings(TableBucketMaintenanceSettings::IcebergUnreferencedFileRemoval(
            IcebergUnreferencedFileRemovalSettings::builder()
                .unreferenced_days(unreferenced)
                .non_current_days(non_current)
                .build(),
        ))
        .build()
}

async fn maintenance(r: &mut Run) {
    let op = "GetTableBucketMaintenanceConfiguration";
    let lake = bucket_arn(LAKE);
    let kind = TableBucketMaintenanceType::IcebergUnreferencedFileRemoval;
    // AWS's documented defaults: enabled, unreferenced after 3 days, deleted 10 days later.
    let out = r
        .tables
        .get_table_bucket_maintenance_configuration()
        .table_bucket_arn(&lake)
        .send()
        .await;
    let out = r.c.must(op, out);
    r.c.eq(op, "tableBucketARN", out.table_bucket_arn(), lake.as_str());
    r.c.eq(
        op,
        "configuration of a new bucket",
        out.configuration(),
        &HashMap::from([(kind.clone(), removal(MaintenanceStatus::Enabled, 3, 10))]),
    );
    let put = r
        .tables
        .put_table_bucket_maintenance_configuration()
        .table_bucket_arn(&lake)
        .r#type(kind.clone())
        .value(removal(MaintenanceStatus::Enabled, 5, 14))
        .send()
        .await;
    r.c.must("PutTableBucketMaintenanceConfiguration", put);
    let out = r
        .tables
        .get_table_bucket_maintenance_configuration()
        .table_bucket_arn(&lake)
        .send()
        .await;
    let out = r.c.must(op, out);
    r.c.eq(
        op,
        "configuration after Put",
        out.configuration(),
        &HashMap::from([(kind, removal(MaintenanceStatus::Enabled, 5, 14))]),
    );
}

async fn metrics(r: &mut Run) {
    let op = "GetTableBucketMetricsConfiguration";
    let lake = bucket_arn(LAKE);
    let before = r
        .tables
        .get_table_bucket_metrics_configuration()
        .table_bucket_arn(&lake)
        .send()
        .await;
    r.c.error_code(&format!("{op} before Put"), before, "NotFoundException", 404);
    for _ in 0..2 {
        let put = r
            .tables
            .put_table_bucket_metrics_configuration()
            .table_bucket_arn(&lake)
            .send()
            .await;
        r.c.must("PutTableBucketMetricsConfiguration", put);
    }
    let out = r
        .tables
        .get_table_bucket_metrics_configuration()
        .table_bucket_arn(&lake)
        .send()
        .await;
    let out = r.c.must(op, out);
    r.c.eq(op, "tableBucketARN", out.table_bucket_arn(), lake.as_str());
    r.c.form(op, "id", out.id(), TOKEN);
    let deleted = r
        .tables
        .delete_table_bucket_metrics_configuration()
        .table_bucket_arn(&lake)
        .send()
        .await;
    r.c.must("DeleteTableBucketMetricsConfiguration", deleted);
    let after = r
        .tables
        .get_table_bucket_metrics_configuration()
        .table_bucket_arn(&lake)
        .send()
        .await;
    r.c.error_code(&format!("{op} after Delete"), after, "NotFoundException", 404);
}

async fn policy(r: &mut Run) {
    let op = "GetTableBucketPolicy";
    let lake = bucket_arn(LAKE);
    let before = r.tables.get_table_bucket_policy().table_bucket_arn(&lake).send().await;
    r.c.error_code(&format!("{op} before Put"), before, "NotFoundException", 404);
    let document = policy_document(&format!("{lake}/table/*"), "s3tables:GetTable");
    let put = r
        .tables
        .put_table_bucket_policy()
        .table_bucket_arn(&lake)
        .resource_policy(&document)
        .send()
        .await;
    r.c.must("PutTableBucketPolicy", put);
    let out = r.tables.get_table_bucket_policy().table_bucket_arn(&lake).send().await;
    let out = r.c.must(op, out);
    r.c.eq(op, "resourcePolicy", out.resource_policy(), document.as_str());
    let deleted = r
        .tables
        .delete_table_bucket_policy()
        .table_bucket_arn(&lake)
        .send()
        .await;
    r.c.must("DeleteTableBucketPolicy", deleted);
    let after = r.tables.get_table_bucket_policy().table_bucket_arn(&lake).send().await;
    r.c.error_code(&format!("{op} after Delete"), after, "NotFoundException", 404);
}

async fn replication(r: &mut Run) {
    let op = "GetTableBucketReplication";
    let archive = bucket_arn(ARCHIVE);
    let before = r
        .tables
        .get_table_bucket_replication()
        .table_bucket_arn(&archive)
        .send()
        .await;
    r.c.error_code(&format!("{op} before Put"), before, "NotFoundException", 404);
    let configuration = TableBucketReplicationConfiguration::builder()
        .role(role())
        .rules(
            TableBucketReplicationRule::builder()
                .destinations(destination(&bucket_arn(REPLICA)))
                .build()
                .expect("a complete input"),
        )
        .build()
        .expect("a complete input");
    let put = r
        .tables
        .put_table_bucket_replication()
        .table_bucket_arn(&archive)
        .configuration(configuration.clone())
        .send()
        .await;
    let put = r.c.must("PutTableBucketReplication", put);
    let token = r.c.form(
        "PutTableBucketReplication",
        "versionToken",
        Some(put.version_token()),
        TOKEN,
    );
    r.c.eq("PutTableBucketReplication", "status", put.status(), "pending");
    let out = r
        .tables
        .get_table_bucket_replication()
        .table_bucket_arn(&archive)
        .send()
        .await;
    let out = r.c.must(op, out);
    r.c.eq(op, "versionToken", out.version_token(), token.as_str());
    r.c.eq(op, "configuration", &out.configuration(), &Some(&configuration));
    let deleted = r
        .tables
        .delete_table_bucket_replication()
        .table_bucket_arn(&archive)
        .version_token(&token)
        .send()
        .await;
    r.c.must("DeleteTableBucketReplication", deleted);
    let after = r
        .tables
        .get_table_bucket_replication()
        .table_bucket_arn(&archive)
        .send()
        .await;
    r.c.error_code(&format!("{op} after Delete"), after, "NotFoundException", 404);
}

/// ListTagsForResource, TagResource and UntagResource on a bucket or table ARN created with tags.
pub async fn tags(r: &mut Run, arn: &str, initial: &[(&str, &str)]) {
    let op = "ListTagsForResource";
    let mut want: HashMap<String, String> = initial.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let out = r.tables.list_tags_for_resource().resource_arn(arn).send().await;
    let out = r.c.must(op, out);
    r.c.eq(op, "tags given at creation", &out.tags(), &Some(&want));
    let tagged = r
        .tables
        .tag_resource()
        .resource_arn(arn)
        .tags("owner", "data-eng")
        .tags("env", "prod")
        .send()
        .await;
    r.c.must("TagResource", tagged);
    want.insert("owner".into(), "data-eng".into());
    want.insert("env".into(), "prod".into());
    let out = r.tables.list_tags_for_resource().resource_arn(arn).send().await;
    let out = r.c.must(op, out);
    r.c.eq(op, "tags after TagResource", &out.tags(), &Some(&want));
    let untagged = r
        .tables
        .untag_resource()
        .resource_arn(arn)
        .tag_keys("env")
        .tag_keys("absent-key")
        .send()
        .await;
    r.c.must("UntagResource", untagged);
    want.remove("env");
    let out = r.tables.list_tags_for_resource().resource_arn(arn).send().await;
    let out = r.c.must(op, out);
    r.c.eq(op, "tags after UntagResource", &out.tags(), &Some(&want));
}

pub async fn delete_bucket(r: &mut Run, name: &str) {
    let deleted = r
        .tables
        .delete_table_bucket()
        .table_bucket_arn(bucket_arn(name))
        .send()
        .await;
    r.c.must("DeleteTableBucket", deleted);
    let after = r
        .tables
        .get_table_bucket()
        .table_bucket_arn(bucket_arn(name))
        .send()
        .await;
    r.c.error_code(
        "GetTableBucket after DeleteTableBucket",
        after,
        "NotFoundException",
        404,
    );
}
