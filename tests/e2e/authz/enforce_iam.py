"""What the --enforce-iam tests of this folder share: a table bucket with a namespace and a table."""

SCHEMA = {"fields": [{"name": "id", "type": "long", "required": True}]}


def bucket_with_table(client, bucket, namespace, table):
    """Creates `bucket` with `namespace` and an Iceberg `table` in it; returns their ARNs (bucket, table)."""
    arn = client.create_table_bucket(name=bucket)["arn"]
    client.create_namespace(tableBucketARN=arn, namespace=[namespace])
    table_arn = client.create_table(tableBucketARN=arn, namespace=namespace, name=table, format="ICEBERG",
                                    metadata={"iceberg": {"schema": SCHEMA}})["tableARN"]
    return arn, table_arn
