//! S3 in a table's warehouse, as an Iceberg writer uses it: read the metadata file CreateTable
//! wrote, put the next metadata file and move the table's pointer to it (UpdateTableMetadataLocation),
//! and upload a data file in parts; then delete the tables, namespaces and bucket with their
//! version tokens. The warehouse comes from GetTable's warehouseLocation.

use aws_sdk_s3::primitives::ByteStream;
use aws_sdk_s3::types::{ChecksumAlgorithm, ChecksumMode, ChecksumType, CompletedMultipartUpload, CompletedPart};
use md5::{Digest, Md5};

use crate::buckets::{delete_bucket, LAKE};
use crate::{bucket_arn, Run, ACCOUNT, TOKEN};

/// S3's smallest part but the last.
const MIN_PART_SIZE: usize = 5 * 1024 * 1024;

/// CRC-32 (IEEE, reflected), as S3's CRC32 checksum computes it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A checksum as S3 writes it: base64 of the big-endian value.
fn crc32_base64(bytes: &[u8]) -> String {
    aws_smithy_types::base64::encode(crc32(bytes).to_be_bytes())
}

fn quoted_md5(bytes: &[u8]) -> String {
    let digest = Md5::digest(bytes);
    format!("\"{}\"", digest.iter().map(|b| format!("{b:02x}")).collect::<String>())
}

pub async fn run(r: &mut Run) {
    let bucket = r.facts.warehouse.trim_start_matches("s3://").to_string();
    let metadata = read_metadata(r, &bucket).await;
    commit_metadata(r, &bucket, metadata).await;
    multipart_upload(r, &bucket).await;
    let listed = r.s3.list_objects_v2().bucket(&bucket).send().await;
    r.c.error_code("ListObjectsV2 on a warehouse", listed, "MethodNotAllowed", 405);
    clean_up(r).await;
    // The table is gone, and its warehouse bucket with it.
    let key = key_of(&bucket, &r.facts.metadata_location);
    let gone = r.s3.get_object().bucket(&bucket).key(key).send().await;
    r.c.error_code("GetObject in a deleted table's warehouse", gone, "NoSuchBucket", 404);
}

fn key_of(bucket: &str, location: &str) -> String {
    location.trim_start_matches(&format!("s3://{bucket}/")).to_string()
}

async fn get_bytes(
    r: &mut Run,
    op: &str,
    bucket: &str,
    key: &str,
) -> (aws_sdk_s3::operation::get_object::GetObjectOutput, Vec<u8>) {
    let out = r.s3.get_object().bucket(bucket).key(key).send().await;
    let mut out = r.c.must(op, out);
    let body = std::mem::replace(&mut out.body, ByteStream::from_static(b""));
    let bytes = r.c.must(op, body.collect().await).into_bytes().to_vec();
    (out, bytes)
}

/// Gets the metadata.json CreateTable wrote and checks it describes the table created.
async fn read_metadata(r: &mut Run, bucket: &str) -> Vec<u8> {
    let op = "GetObject";
    let key = key_of(bucket, &r.facts.metadata_location);
    let (out, body) = get_bytes(r, "GetObject of the table's metadata.json", bucket, &key).await;
    r.c.eq(op, "ContentLength", &out.content_length(), &Some(body.len() as i64));
    r.c.form(op, "ETag", out.e_tag(), "^\"[0-9a-f]{32}\"$");
    let md: serde_json::Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => {
            r.c.fail(op, "Body", format!("the metadata file is not JSON: {e}"));
            return body;
        }
    };
    r.c.eq(op, "Body format-version", &md["format-version"], &serde_json::json!(2));
    r.c.eq(
        op,
        "Body location",
        &md["location"],
        &serde_json::json!(r.facts.warehouse),
    );
    let fields: Vec<&str> = md["schemas"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| s["fields"].as_array().into_iter().flatten())
        .filter_map(|f| f["name"].as_str())
        .collect();
    r.c.eq(
        op,
        "Body schemas[].fields[].name",
        &fields,
        &vec!["order_id", "customer", "amount", "ordered_at"],
    );
    let spec = &md["partition-specs"][0]["fields"][0];
    r.c.eq(
        op,
        "Body partition-specs[0].fields[0]",
        &(spec["name"].as_str(), spec["transform"].as_str()),
        &(Some("ordered_day"), Some("day")),
    );
    r.c.eq(
        op,
        "Body properties.comment",
        &md["properties"]["comment"],
        &serde_json::json!("orders from the shop"),
    );
    body
}

/// Writes the next metadata file with PutObject and swaps the table's pointer to it.
async fn commit_metadata(r: &mut Run, bucket: &str, metadata: Vec<u8>) {
    let next = format!(
        "{}/metadata/00001-5b1f3c1e-8a0d-4f5e-9d7a-2c4b6e8f0a13.metadata.json",
        r.facts.warehouse
    );
    let key = key_of(bucket, &next);
    let put =
        r.s3.put_object()
            .bucket(bucket)
            .key(&key)
            .content_type("application/json")
            .body(ByteStream::from(metadata.clone()))
            .send()
            .await;
    let put = r.c.must("PutObject of the next metadata.json", put);
    r.c.eq("PutObject", "ETag", &put.e_tag(), &Some(quoted_md5(&metadata).as_str()));
    // The SDK sends a CRC32 of every body by default; S3 verifies it, keeps it and echoes it.
    r.c.eq(
        "PutObject",
        "ChecksumCRC32",
        &put.checksum_crc32(),
        &Some(crc32_base64(&metadata).as_str()),
    );
    r.c.eq(
        "PutObject",
        "ChecksumType",
        &put.checksum_type(),
        &Some(&ChecksumType::FullObject),
    );
    let (got, body) = get_bytes(r, "GetObject of the object just put", bucket, &key).await;
    r.c.eq("GetObject", "Body (same bytes as put)", &(body == metadata), &true);
    r.c.eq(
        "GetObject",
        "ContentType",
        &got.content_type(),
        &Some("application/json"),
    );
    r.c.eq(
        "GetObject",
        "ChecksumCRC32",
        &got.checksum_crc32(),
        &Some(crc32_base64(&metadata).as_str()),
    );
    r.c.eq(
        "GetObject",
        "ChecksumType",
        &got.checksum_type(),
        &Some(&ChecksumType::FullObject),
    );
    let head =
        r.s3.head_object()
            .bucket(bucket)
            .key(&key)
            .checksum_mode(ChecksumMode::Enabled)
            .send()
            .await;
    let head = r.c.must("HeadObject", head);
    r.c.eq(
        "HeadObject",
        "ContentLength",
        &head.content_length(),
        &Some(metadata.len() as i64),
    );
    r.c.eq("HeadObject", "ETag", &head.e_tag(), &put.e_tag());
    r.c.eq(
        "HeadObject",
        "ContentType",
        &head.content_type(),
        &Some("application/json"),
    );
    r.c.eq(
        "HeadObject",
        "ChecksumCRC32",
        &head.checksum_crc32(),
        &Some(crc32_base64(&metadata).as_str()),
    );
    r.c.eq(
        "HeadObject",
        "ChecksumType",
        &head.checksum_type(),
        &Some(&ChecksumType::FullObject),
    );

    let op = "UpdateTableMetadataLocation";
    let lake = bucket_arn(LAKE);
    let (orders, token) = (r.facts.orders_arn.clone(), r.facts.orders_token.clone());
    let wrong = r
        .tables
        .update_table_metadata_location()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("orders")
        .version_token("0000000000000000000000000000000000000000")
        .metadata_location(&next)
        .send()
        .await;
    r.c.error_code(
        "UpdateTableMetadataLocation with a wrong versionToken",
        wrong,
        "ConflictException",
        409,
    );
    let out = r
        .tables
        .update_table_metadata_location()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("orders")
        .version_token(&token)
        .metadata_location(&next)
        .send()
        .await;
    let out = r.c.must(op, out);
    r.c.eq(op, "name", out.name(), "orders");
    r.c.eq(op, "tableARN", out.table_arn(), orders.as_str());
    r.c.eq(op, "namespace", out.namespace(), &["sales".to_string()]);
    let new_token = r.c.form(op, "versionToken", Some(out.version_token()), TOKEN);
    if new_token == token {
        r.c.fail(op, "versionToken", format!("unchanged ({new_token:?}) by the update"));
    }
    r.c.eq(op, "metadataLocation", out.metadata_location(), next.as_str());

    let what = "GetTable after UpdateTableMetadataLocation";
    let table = r.tables.get_table().table_arn(&orders).send().await;
    let table = r.c.must(what, table);
    r.c.eq(
        what,
        "metadataLocation",
        &table.metadata_location(),
        &Some(next.as_str()),
    );
    r.c.eq(what, "versionToken", table.version_token(), new_token.as_str());
    r.c.eq(what, "modifiedBy", table.modified_by(), ACCOUNT);
    let since = r.facts.orders_created_at.unwrap_or(r.started);
    r.c.recent(what, "modifiedAt", Some(table.modified_at()), since);
    // clean_up deletes with the token from before the update first: that must conflict.
}

/// Uploads a data file in two parts and reads it back whole and by range.
async fn multipart_upload(r: &mut Run, bucket: &str) {
    let key = "data/ordered_day=2026-01-15/00000-0-rust-sdk.parquet";
    let created =
        r.s3.create_multipart_upload()
            .bucket(bucket)
            .key(key)
            .checksum_algorithm(ChecksumAlgorithm::Crc32)
            .send()
            .await;
    let created = r.c.must("CreateMultipartUpload", created);
    r.c.eq(
        "CreateMultipartUpload",
        "ChecksumAlgorithm",
        &created.checksum_algorithm(),
        &Some(&ChecksumAlgorithm::Crc32),
    );
    r.c.eq("CreateMultipartUpload", "Bucket", &created.bucket(), &Some(bucket));
    r.c.eq("CreateMultipartUpload", "Key", &created.key(), &Some(key));
    let upload_id =
        r.c.form("CreateMultipartUpload", "UploadId", created.upload_id(), TOKEN);

    let parts: [Vec<u8>; 2] = [
        b"PAR1-rust-sdk-part-one-".repeat(MIN_PART_SIZE / 23 + 1),
        b"the last part is small".to_vec(),
    ];
    let mut completed = CompletedMultipartUpload::builder();
    for (i, part) in parts.iter().enumerate() {
        let n = i as i32 + 1;
        let out =
            r.s3.upload_part()
                .bucket(bucket)
                .key(key)
                .upload_id(&upload_id)
                .part_number(n)
                .body(ByteStream::from(part.clone()))
                .send()
                .await;
        let out = r.c.must(&format!("UploadPart {n}"), out);
        r.c.eq(
            "UploadPart",
            &format!("ETag of part {n}"),
            &out.e_tag(),
            &Some(quoted_md5(part).as_str()),
        );
        r.c.eq(
            "UploadPart",
            &format!("ChecksumCRC32 of part {n}"),
            &out.checksum_crc32(),
            &Some(crc32_base64(part).as_str()),
        );
        completed = completed.parts(
            CompletedPart::builder()
                .set_e_tag(out.e_tag().map(str::to_string))
                .part_number(n)
                .set_checksum_crc32(out.checksum_crc32().map(str::to_string))
                .build(),
        );
    }
    let done =
        r.s3.complete_multipart_upload()
            .bucket(bucket)
            .key(key)
            .upload_id(&upload_id)
            .multipart_upload(completed.build())
            .send()
            .await;
    let done = r.c.must("CompleteMultipartUpload", done);
    r.c.eq("CompleteMultipartUpload", "Bucket", &done.bucket(), &Some(bucket));
    r.c.eq("CompleteMultipartUpload", "Key", &done.key(), &Some(key));
    let etag =
        r.c.form("CompleteMultipartUpload", "ETag", done.e_tag(), "^\"[0-9a-f]{32}-2\"$");
    // A CRC32 upload's checksum is the CRC32 of its parts' CRC32s, then -<parts> (COMPOSITE).
    let composite = format!(
        "{}-2",
        crc32_base64(&[crc32(&parts[0]).to_be_bytes(), crc32(&parts[1]).to_be_bytes()].concat())
    );
    r.c.eq(
        "CompleteMultipartUpload",
        "ChecksumCRC32",
        &done.checksum_crc32(),
        &Some(composite.as_str()),
    );
    r.c.eq(
        "CompleteMultipartUpload",
        "ChecksumType",
        &done.checksum_type(),
        &Some(&ChecksumType::Composite),
    );

    let whole = parts.concat();
    let (got, body) = get_bytes(r, "GetObject of the uploaded file", bucket, key).await;
    r.c.eq("GetObject", "Body (the parts in order)", &(body == whole), &true);
    r.c.eq(
        "GetObject",
        "ContentLength",
        &got.content_length(),
        &Some(whole.len() as i64),
    );
    r.c.eq("GetObject", "ETag", &got.e_tag(), &Some(etag.as_str()));
    r.c.eq(
        "GetObject",
        "ChecksumCRC32",
        &got.checksum_crc32(),
        &Some(composite.as_str()),
    );
    r.c.eq(
        "GetObject",
        "ChecksumType",
        &got.checksum_type(),
        &Some(&ChecksumType::Composite),
    );

    let tail =
        r.s3.get_object()
            .bucket(bucket)
            .key(key)
            .range(format!("bytes={}-", parts[0].len()))
            .send()
            .await;
    let tail = r.c.must("GetObject with a Range", tail);
    let range = tail.content_range().map(str::to_string);
    let bytes =
        r.c.must("GetObject with a Range", tail.body.collect().await)
            .into_bytes();
    r.c.eq(
        "GetObject",
        "Body of the range (the last part)",
        &bytes[..],
        &parts[1][..],
    );
    r.c.eq(
        "GetObject",
        "ContentRange",
        &range,
        &Some(format!("bytes {}-{}/{}", parts[0].len(), whole.len() - 1, whole.len())),
    );
}

/// Deletes what the run created in the lake, through the version-token guarded deletes.
async fn clean_up(r: &mut Run) {
    let lake = bucket_arn(LAKE);
    let (orders, old_token) = (r.facts.orders_arn.clone(), r.facts.orders_token.clone());
    let got = r.tables.get_table().table_arn(&orders).send().await;
    let got = r.c.must("GetTable", got);
    let stale = r
        .tables
        .delete_table()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("orders")
        .version_token(&old_token)
        .send()
        .await;
    r.c.error_code("DeleteTable with a stale versionToken", stale, "ConflictException", 409);
    let busy = r
        .tables
        .delete_namespace()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .send()
        .await;
    r.c.error_code(
        "DeleteNamespace of a namespace with tables",
        busy,
        "ConflictException",
        409,
    );
    let deleted = r
        .tables
        .delete_table()
        .table_bucket_arn(&lake)
        .namespace("sales")
        .name("orders")
        .version_token(got.version_token())
        .send()
        .await;
    r.c.must("DeleteTable", deleted);
    let after = r.tables.get_table().table_arn(&orders).send().await;
    r.c.error_code("GetTable after DeleteTable", after, "NotFoundException", 404);
    let deleted = r
        .tables
        .delete_table()
        .table_bucket_arn(&lake)
        .namespace("marketing")
        .name("clicks")
        .send()
        .await;
    r.c.must("DeleteTable without a versionToken", deleted);
    for ns in ["sales", "marketing"] {
        let deleted = r
            .tables
            .delete_namespace()
            .table_bucket_arn(&lake)
            .namespace(ns)
            .send()
            .await;
        r.c.must("DeleteNamespace", deleted);
    }
    delete_bucket(r, LAKE).await;
}
