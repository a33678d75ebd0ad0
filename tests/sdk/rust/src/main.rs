//! floe-rust-sdk-test drives a running Floe server with the AWS SDK for Rust, configured as its
//! developer guide shows for a custom endpoint: `aws_config::defaults` reads the endpoint from
//! AWS_ENDPOINT_URL, with static credentials. It calls every operation of the S3 Tables model with
//! realistic input and checks every member of each typed output, then puts, gets and uploads in
//! parts into a table's warehouse over S3.
//!
//! It does not start a server: tests/e2e/sdk/85-rust-sdk.py builds it, starts Floe (once as is, once
//! with --strict-signatures) and runs it. It prints one line per difference from AWS, naming the
//! operation and the field, and exits 1 if there was any.

mod buckets;
mod check;
mod tables;
mod warehouse;

use std::time::SystemTime;

use aws_config::BehaviorVersion;
use aws_sdk_s3tables::config::retry::RetryConfig;
use aws_sdk_s3tables::config::{Credentials, Region};

use check::Checker;

pub const REGION: &str = "us-east-1";
/// The account of every request: the access keys the driver uses are not 12-digit account
/// numbers, so Floe acts in its default account, as AWS acts in the key's own account.
pub const ACCOUNT: &str = "000000000000";
pub const UUID: &str = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
pub const TOKEN: &str = r"^\S+$";

pub fn bucket_arn(name: &str) -> String {
    format!("arn:aws:s3tables:{REGION}:{ACCOUNT}:bucket/{name}")
}

/// What earlier steps learn and later ones use.
#[derive(Default)]
pub struct Facts {
    pub bucket_id: String,
    pub namespace_id: String,
    pub orders_arn: String,
    pub orders_token: String,
    pub warehouse: String,
    pub metadata_location: String,
    pub orders_created_at: Option<SystemTime>,
}

pub struct Run {
    pub c: Checker,
    pub tables: aws_sdk_s3tables::Client,
    pub s3: aws_sdk_s3::Client,
    pub started: SystemTime,
    pub facts: Facts,
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let (Ok(_), Ok(key), Ok(secret)) = (
        std::env::var("AWS_ENDPOINT_URL"),
        std::env::var("AWS_ACCESS_KEY_ID"),
        std::env::var("AWS_SECRET_ACCESS_KEY"),
    ) else {
        eprintln!("usage: AWS_ENDPOINT_URL=http://127.0.0.1:PORT AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=... floe-rust-sdk-test");
        std::process::exit(2);
    };
    let config = aws_config::defaults(BehaviorVersion::latest())
        .region(Region::new(REGION))
        .credentials_provider(Credentials::new(key, secret, None, None, "floe-sdk-test"))
        // A retried call would hide a first answer that was wrong.
        .retry_config(RetryConfig::standard().with_max_attempts(1))
        .load()
        .await;
    // Path-style addressing, as the S3 guide shows for an endpoint that is not AWS's.
    let s3_config = aws_sdk_s3::config::Builder::from(&config)
        .force_path_style(true)
        .build();
    let mut run = Run {
        c: Checker::default(),
        tables: aws_sdk_s3tables::Client::new(&config),
        s3: aws_sdk_s3::Client::from_conf(s3_config),
        started: SystemTime::now(),
        facts: Facts::default(),
    };
    println!("--- table buckets");
    buckets::run(&mut run).await;
    println!("--- namespaces and tables");
    tables::run(&mut run).await;
    println!("--- S3 in a table's warehouse");
    warehouse::run(&mut run).await;
    println!(
        "{} checks passed, {} failed ({})",
        run.c.checks,
        run.c.failures,
        std::env::var("FLOE_SDK_RUN").unwrap_or_default()
    );
    if run.c.failures > 0 {
        std::process::exit(1);
    }
}
