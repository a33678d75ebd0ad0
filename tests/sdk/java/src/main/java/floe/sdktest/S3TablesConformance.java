package floe.sdktest;

import java.lang.reflect.Method;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3tables.S3TablesClient;
import software.amazon.awssdk.services.s3tables.model.*;

/**
 * Calls every operation of S3 Tables through the AWS SDK for Java v2's S3TablesClient, configured
 * as the SDK's documentation shows for a custom endpoint (endpointOverride, static credentials, a
 * region), with typed requests, and checks the typed responses field by field against what AWS's
 * API reference documents. Prints one FAIL line per difference (operation and field), then the
 * operations called, and exits non-zero on any failure or on an operation of the SDK it never
 * called. Run by tests/e2e/sdk/48-java-sdk.py against a fresh floe; it is not a test of the SDK.
 *
 * Usage: S3TablesConformance ENDPOINT REGION ACCESS_KEY SECRET_KEY
 */
public final class S3TablesConformance {
    private static final String POLICY_VERSION = "2012-10-17";

    private final S3TablesClient client;
    private final S3Client s3;
    private final Check check = new Check();
    private final String region;
    /** Names unique to this run, so the program can run twice against one server. */
    private final String suffix = Long.toString(System.currentTimeMillis() % 100_000_000L, 36);

    private String account;
    private String bucketArn;
    private String bucketId;
    private String destinationArn;

    private S3TablesConformance(S3TablesClient client, S3Client s3, String region) {
        this.client = client;
        this.s3 = s3;
        this.region = region;
    }

    public static void main(String[] args) {
        if (args.length != 4) {
            System.err.println("usage: S3TablesConformance ENDPOINT REGION ACCESS_KEY SECRET_KEY");
            System.exit(2);
        }
        // The configuration the SDK's developer guide shows for a custom endpoint.
        S3TablesClient client = S3TablesClient.builder()
            .endpointOverride(URI.create(args[0]))
            .region(Region.of(args[1]))
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(args[2], args[3])))
            .build();
        // S3 as the SDK's guide configures it for an S3-compatible endpoint (path-style addressing).
        S3Client s3 = S3Client.builder()
            .endpointOverride(URI.create(args[0]))
            .region(Region.of(args[1]))
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(args[2], args[3])))
            .forcePathStyle(true)
            .build();
        S3TablesConformance run = new S3TablesConformance(client, s3, args[1]);
        int rc = run.runAll();
        client.close();
        s3.close();
        System.exit(rc);
    }

    private int runAll() {
        try {
            tableBuckets();
            tableBucketConfiguration();
            namespaces();
            tables();
            tableMetadataFile();
            tableConfiguration();
            tags();
            replication();
            renameAndDelete();
        } catch (Check.CallFailed e) {
            check.fail(e.operation, "call", "success", e.getMessage());
        }
        for (String op : sdkOperations())
            if (!check.called().contains(op))
                check.fail(op, "coverage", "called", "never called");
        System.out.println("OPERATIONS_CALLED " + String.join(",", check.called()));
        System.out.println(check.called().size() + " operations, " + check.nChecks() + " checks, "
                           + check.nFailures() + " failures");
        return check.nFailures() == 0 ? 0 : 1;
    }

    /** Every operation of the client: its methods taking one typed request, named as the model names them. */
    static Set<String> sdkOperations() {
        Set<String> ops = new TreeSet<>();
        for (Method m : S3TablesClient.class.getMethods())
            if (m.getParameterCount() == 1 && S3TablesRequest.class.isAssignableFrom(m.getParameterTypes()[0]))
                ops.add(m.getParameterTypes()[0].getSimpleName().replaceFirst("Request$", ""));
        return ops;
    }

    // ---- Table buckets -------------------------------------------------------------------------

    private void tableBuckets() {
        String name = "java-sdk-" + suffix;
        CreateTableBucketResponse created = check.call("CreateTableBucket", () -> client.createTableBucket(b -> b
            .name(name)
            .encryptionConfiguration(e -> e.sseAlgorithm(SSEAlgorithm.AES256))
            .storageClassConfiguration(s -> s.storageClass(StorageClass.STANDARD))
            .tags(Map.of("team", "floe", "stage", "test"))));
        check.matches("CreateTableBucket", "arn", "arn:aws:s3tables:" + region + ":[0-9]{12}:bucket/" + name, created.arn());
        bucketArn = created.arn();
        account = bucketArn.split(":")[4];

        GetTableBucketResponse got = check.call("GetTableBucket", () -> client.getTableBucket(b -> b.tableBucketARN(bucketArn)));
        check.equal("GetTableBucket", "arn", bucketArn, got.arn());
        check.equal("GetTableBucket", "name", name, got.name());
        check.equal("GetTableBucket", "ownerAccountId", account, got.ownerAccountId());
        check.recent("GetTableBucket", "createdAt", got.createdAt());
        check.present("GetTableBucket", "tableBucketId", got.tableBucketId());
        check.equal("GetTableBucket", "type", TableBucketType.CUSTOMER, got.type());
        bucketId = got.tableBucketId();

        check.fails("CreateTableBucket", ConflictException.class, 409, () -> client.createTableBucket(b -> b.name(name)));
        check.fails("CreateTableBucket", BadRequestException.class, 400,
                    () -> client.createTableBucket(b -> b.name("Not_A_Valid_Name")));

        destinationArn = check.call("CreateTableBucket",
                                    () -> client.createTableBucket(b -> b.name("java-sdk-" + suffix + "-replica"))).arn();

        // Both buckets share the prefix: one page each with maxBuckets 1, and the paginator follows the token.
        ListTableBucketsResponse page = check.call("ListTableBuckets",
            () -> client.listTableBuckets(b -> b.prefix("java-sdk-" + suffix).maxBuckets(1)));
        check.equal("ListTableBuckets", "tableBuckets (size of a page of maxBuckets 1)", 1, page.tableBuckets().size());
        check.present("ListTableBuckets", "continuationToken (more buckets follow)", page.continuationToken());
        List<TableBucketSummary> all = new ArrayList<>();
        check.call("ListTableBuckets", () -> {
            client.listTableBucketsPaginator(b -> b.prefix("java-sdk-" + suffix).maxBuckets(1)).tableBuckets().forEach(all::add);
            return all;
        });
        check.equal("ListTableBuckets", "tableBuckets[*].arn (all pages)", List.of(bucketArn, destinationArn),
                    all.stream().map(TableBucketSummary::arn).toList());
        TableBucketSummary summary = all.get(0);
        check.equal("ListTableBuckets", "tableBuckets[0].name", name, summary.name());
        check.equal("ListTableBuckets", "tableBuckets[0].ownerAccountId", account, summary.ownerAccountId());
        check.equal("ListTableBuckets", "tableBuckets[0].createdAt", got.createdAt(), summary.createdAt());
        check.equal("ListTableBuckets", "tableBuckets[0].tableBucketId", bucketId, summary.tableBucketId());
        check.equal("ListTableBuckets", "tableBuckets[0].type", TableBucketType.CUSTOMER, summary.type());
        ListTableBucketsResponse last = check.call("ListTableBuckets",
            () -> client.listTableBuckets(b -> b.prefix("java-sdk-" + suffix).type(TableBucketType.CUSTOMER)));
        check.equal("ListTableBuckets", "tableBuckets (type customer)", 2, last.tableBuckets().size());
        check.absent("ListTableBuckets", "continuationToken (last page)", last.continuationToken());
    }

    private void tableBucketConfiguration() {
        String op = "GetTableBucketEncryption";
        check.equal(op, "encryptionConfiguration.sseAlgorithm", SSEAlgorithm.AES256,
                    check.call(op, () -> client.getTableBucketEncryption(b -> b.tableBucketARN(bucketArn)))
                        .encryptionConfiguration().sseAlgorithm());
        String kmsKey = "arn:aws:kms:" + region + ":" + account + ":key/0a1b2c3d-1111-2222-3333-444455556666";
        check.call("PutTableBucketEncryption", () -> client.putTableBucketEncryption(b -> b.tableBucketARN(bucketArn)
            .encryptionConfiguration(e -> e.sseAlgorithm(SSEAlgorithm.AWS_KMS).kmsKeyArn(kmsKey))));
        EncryptionConfiguration enc = check.call(op, () -> client.getTableBucketEncryption(b -> b.tableBucketARN(bucketArn)))
            .encryptionConfiguration();
        check.equal(op, "encryptionConfiguration.sseAlgorithm (after Put)", SSEAlgorithm.AWS_KMS, enc.sseAlgorithm());
        check.equal(op, "encryptionConfiguration.kmsKeyArn (after Put)", kmsKey, enc.kmsKeyArn());
        check.call("DeleteTableBucketEncryption", () -> client.deleteTableBucketEncryption(b -> b.tableBucketARN(bucketArn)));
        enc = check.call(op, () -> client.getTableBucketEncryption(b -> b.tableBucketARN(bucketArn))).encryptionConfiguration();
        check.equal(op, "encryptionConfiguration.sseAlgorithm (after Delete)", SSEAlgorithm.AES256, enc.sseAlgorithm());
        check.absent(op, "encryptionConfiguration.kmsKeyArn (after Delete)", enc.kmsKeyArn());

        op = "GetTableBucketStorageClass";
        check.equal(op, "storageClassConfiguration.storageClass", StorageClass.STANDARD,
                    check.call(op, () -> client.getTableBucketStorageClass(b -> b.tableBucketARN(bucketArn)))
                        .storageClassConfiguration().storageClass());
        check.call("PutTableBucketStorageClass", () -> client.putTableBucketStorageClass(b -> b.tableBucketARN(bucketArn)
            .storageClassConfiguration(s -> s.storageClass(StorageClass.INTELLIGENT_TIERING))));
        check.equal(op, "storageClassConfiguration.storageClass (after Put)", StorageClass.INTELLIGENT_TIERING,
                    check.call(op, () -> client.getTableBucketStorageClass(b -> b.tableBucketARN(bucketArn)))
                        .storageClassConfiguration().storageClass());

        String policy = policy("s3tables:ListNamespaces", bucketArn);
        check.fails("GetTableBucketPolicy", NotFoundException.class, 404,
                    () -> client.getTableBucketPolicy(b -> b.tableBucketARN(bucketArn)));
        check.call("PutTableBucketPolicy", () -> client.putTableBucketPolicy(b -> b.tableBucketARN(bucketArn).resourcePolicy(policy)));
        check.equal("GetTableBucketPolicy", "resourcePolicy", policy,
                    check.call("GetTableBucketPolicy", () -> client.getTableBucketPolicy(b -> b.tableBucketARN(bucketArn))).resourcePolicy());
        check.call("DeleteTableBucketPolicy", () -> client.deleteTableBucketPolicy(b -> b.tableBucketARN(bucketArn)));
        check.fails("GetTableBucketPolicy", NotFoundException.class, 404,
                    () -> client.getTableBucketPolicy(b -> b.tableBucketARN(bucketArn)));

        op = "GetTableBucketMetricsConfiguration";
        check.fails(op, NotFoundException.class, 404, () -> client.getTableBucketMetricsConfiguration(b -> b.tableBucketARN(bucketArn)));
        check.call("PutTableBucketMetricsConfiguration", () -> client.putTableBucketMetricsConfiguration(b -> b.tableBucketARN(bucketArn)));
        GetTableBucketMetricsConfigurationResponse metrics = check.call(op,
            () -> client.getTableBucketMetricsConfiguration(b -> b.tableBucketARN(bucketArn)));
        check.equal(op, "tableBucketARN", bucketArn, metrics.tableBucketARN());
        check.present(op, "id", metrics.id());
        check.call("DeleteTableBucketMetricsConfiguration",
                   () -> client.deleteTableBucketMetricsConfiguration(b -> b.tableBucketARN(bucketArn)));
        check.fails(op, NotFoundException.class, 404, () -> client.getTableBucketMetricsConfiguration(b -> b.tableBucketARN(bucketArn)));

        op = "GetTableBucketMaintenanceConfiguration";
        GetTableBucketMaintenanceConfigurationResponse maint = check.call(op,
            () -> client.getTableBucketMaintenanceConfiguration(b -> b.tableBucketARN(bucketArn)));
        check.equal(op, "tableBucketARN", bucketArn, maint.tableBucketARN());
        unreferencedFileRemoval(op, maint, MaintenanceStatus.ENABLED, 3, 10, " (default)");
        check.call("PutTableBucketMaintenanceConfiguration", () -> client.putTableBucketMaintenanceConfiguration(b -> b
            .tableBucketARN(bucketArn).type(TableBucketMaintenanceType.ICEBERG_UNREFERENCED_FILE_REMOVAL)
            .value(v -> v.status(MaintenanceStatus.ENABLED).settings(TableBucketMaintenanceSettings.fromIcebergUnreferencedFileRemoval(
                s -> s.unreferencedDays(4).nonCurrentDays(12))))));
        maint = check.call(op, () -> client.getTableBucketMaintenanceConfiguration(b -> b.tableBucketARN(bucketArn)));
        unreferencedFileRemoval(op, maint, MaintenanceStatus.ENABLED, 4, 12, " (after Put)");
    }

    private void unreferencedFileRemoval(String op, GetTableBucketMaintenanceConfigurationResponse maint, MaintenanceStatus status,
                                         int unreferencedDays, int nonCurrentDays, String when) {
        TableBucketMaintenanceConfigurationValue v = maint.configuration().get(TableBucketMaintenanceType.ICEBERG_UNREFERENCED_FILE_REMOVAL);
        check.present(op, "configuration.icebergUnreferencedFileRemoval" + when, v);
        if (v == null)
            return;
        check.equal(op, "configuration.icebergUnreferencedFileRemoval.status" + when, status, v.status());
        IcebergUnreferencedFileRemovalSettings s = v.settings() == null ? null : v.settings().icebergUnreferencedFileRemoval();
        check.present(op, "configuration.icebergUnreferencedFileRemoval.settings" + when, s);
        if (s == null)
            return;
        check.equal(op, "configuration.icebergUnreferencedFileRemoval.settings.unreferencedDays" + when, unreferencedDays, s.unreferencedDays());
        check.equal(op, "configuration.icebergUnreferencedFileRemoval.settings.nonCurrentDays" + when, nonCurrentDays, s.nonCurrentDays());
    }

    private String policy(String action, String resource) {
        return "{\"Version\":\"" + POLICY_VERSION + "\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"arn:aws:iam::"
               + account + ":root\"},\"Action\":\"" + action + "\",\"Resource\":\"" + resource + "\"}]}";
    }

    // ---- Namespaces ----------------------------------------------------------------------------

    private String namespaceId;

    private void namespaces() {
        CreateNamespaceResponse created = check.call("CreateNamespace",
            () -> client.createNamespace(b -> b.tableBucketARN(bucketArn).namespace("sales")));
        check.equal("CreateNamespace", "tableBucketARN", bucketArn, created.tableBucketARN());
        check.equal("CreateNamespace", "namespace", List.of("sales"), created.namespace());
        check.fails("CreateNamespace", ConflictException.class, 409,
                    () -> client.createNamespace(b -> b.tableBucketARN(bucketArn).namespace("sales")));
        check.call("CreateNamespace", () -> client.createNamespace(b -> b.tableBucketARN(bucketArn).namespace("scratch")));

        GetNamespaceResponse got = check.call("GetNamespace",
            () -> client.getNamespace(b -> b.tableBucketARN(bucketArn).namespace("sales")));
        check.equal("GetNamespace", "namespace", List.of("sales"), got.namespace());
        check.recent("GetNamespace", "createdAt", got.createdAt());
        check.equal("GetNamespace", "createdBy", account, got.createdBy());
        check.equal("GetNamespace", "ownerAccountId", account, got.ownerAccountId());
        check.present("GetNamespace", "namespaceId", got.namespaceId());
        check.equal("GetNamespace", "tableBucketId", bucketId, got.tableBucketId());
        namespaceId = got.namespaceId();
        check.fails("GetNamespace", NotFoundException.class, 404,
                    () -> client.getNamespace(b -> b.tableBucketARN(bucketArn).namespace("nowhere")));

        ListNamespacesResponse page = check.call("ListNamespaces",
            () -> client.listNamespaces(b -> b.tableBucketARN(bucketArn).maxNamespaces(1)));
        check.equal("ListNamespaces", "namespaces (size of a page of maxNamespaces 1)", 1, page.namespaces().size());
        check.present("ListNamespaces", "continuationToken (more namespaces follow)", page.continuationToken());
        List<NamespaceSummary> all = new ArrayList<>();
        check.call("ListNamespaces", () -> {
            client.listNamespacesPaginator(b -> b.tableBucketARN(bucketArn).maxNamespaces(1)).namespaces().forEach(all::add);
            return all;
        });
        check.equal("ListNamespaces", "namespaces[*].namespace (all pages)", List.of(List.of("sales"), List.of("scratch")),
                    all.stream().map(NamespaceSummary::namespace).toList());
        NamespaceSummary s = all.get(0);
        check.equal("ListNamespaces", "namespaces[0].createdAt", got.createdAt(), s.createdAt());
        check.equal("ListNamespaces", "namespaces[0].createdBy", account, s.createdBy());
        check.equal("ListNamespaces", "namespaces[0].ownerAccountId", account, s.ownerAccountId());
        check.equal("ListNamespaces", "namespaces[0].namespaceId", namespaceId, s.namespaceId());
        check.equal("ListNamespaces", "namespaces[0].tableBucketId", bucketId, s.tableBucketId());
        check.equal("ListNamespaces", "namespaces (prefix sc)", List.of(List.of("scratch")),
                    check.call("ListNamespaces", () -> client.listNamespaces(b -> b.tableBucketARN(bucketArn).prefix("sc")))
                        .namespaces().stream().map(NamespaceSummary::namespace).toList());
    }

    // ---- Tables --------------------------------------------------------------------------------

    private String tableArn;
    private String versionToken;
    private String warehouse;
    private String createdMetadataLocation;

    private void tables() {
        IcebergMetadata iceberg = IcebergMetadata.builder()
            .schema(s -> s.fields(SchemaField.builder().name("id").type("long").required(true).build(),
                                  SchemaField.builder().name("amount").type("double").build(),
                                  SchemaField.builder().name("ts").type("timestamp").build()))
            .build();
        CreateTableResponse created = check.call("CreateTable", () -> client.createTable(b -> b
            .tableBucketARN(bucketArn).namespace("sales").name("orders").format(OpenTableFormat.ICEBERG)
            .metadata(TableMetadata.fromIceberg(iceberg))
            .tags(Map.of("owner", "java-sdk"))));
        check.matches("CreateTable", "tableARN", "arn:aws:s3tables:" + region + ":" + account + ":bucket/java-sdk-" + suffix
                      + "/table/[0-9a-f-]{36}", created.tableARN());
        check.present("CreateTable", "versionToken", created.versionToken());
        tableArn = created.tableARN();
        versionToken = created.versionToken();
        check.fails("CreateTable", ConflictException.class, 409, () -> client.createTable(b -> b
            .tableBucketARN(bucketArn).namespace("sales").name("orders").format(OpenTableFormat.ICEBERG)));
        check.fails("CreateTable", NotFoundException.class, 404, () -> client.createTable(b -> b
            .tableBucketARN(bucketArn).namespace("nowhere").name("orders").format(OpenTableFormat.ICEBERG)));
        // A table without metadata has no metadata location until a client commits one.
        check.call("CreateTable", () -> client.createTable(b -> b.tableBucketARN(bucketArn).namespace("sales").name("empty")
            .format(OpenTableFormat.ICEBERG).storageClassConfiguration(s -> s.storageClass(StorageClass.STANDARD))));

        GetTableResponse byName = check.call("GetTable",
            () -> client.getTable(b -> b.tableBucketARN(bucketArn).namespace("sales").name("orders")));
        GetTableResponse byArn = check.call("GetTable", () -> client.getTable(b -> b.tableArn(tableArn)));
        for (GetTableResponse t : List.of(byName, byArn)) {
            String op = "GetTable";
            check.equal(op, "name", "orders", t.name());
            check.equal(op, "type", TableType.CUSTOMER, t.type());
            check.equal(op, "tableARN", tableArn, t.tableARN());
            check.equal(op, "namespace", List.of("sales"), t.namespace());
            check.equal(op, "namespaceId", namespaceId, t.namespaceId());
            check.equal(op, "versionToken", versionToken, t.versionToken());
            check.matches(op, "warehouseLocation", "s3://[a-z0-9-]+--table-s3", t.warehouseLocation());
            check.that(op, "metadataLocation", t.metadataLocation() != null && t.warehouseLocation() != null
                       && t.metadataLocation().startsWith(t.warehouseLocation() + "/metadata/")
                       && t.metadataLocation().endsWith(".metadata.json"),
                       "a metadata.json under " + t.warehouseLocation() + "/metadata/", t.metadataLocation());
            check.recent(op, "createdAt", t.createdAt());
            check.equal(op, "createdBy", account, t.createdBy());
            check.absent(op, "managedByService", t.managedByService());
            check.that(op, "modifiedAt", t.modifiedAt() != null && !t.modifiedAt().isBefore(t.createdAt()),
                       "not before createdAt " + t.createdAt(), t.modifiedAt());
            // The model marks modifiedBy required, yet AWS leaves it out until something modifies the
            // table (Terraform's acceptance tests against AWS check exactly that).
            check.absent(op, "modifiedBy (never modified)", t.modifiedBy());
            check.equal(op, "ownerAccountId", account, t.ownerAccountId());
            check.equal(op, "format", OpenTableFormat.ICEBERG, t.format());
            check.equal(op, "tableBucketId", bucketId, t.tableBucketId());
            check.absent(op, "managedTableInformation", t.managedTableInformation());
        }
        warehouse = byName.warehouseLocation();
        createdMetadataLocation = byName.metadataLocation();
        GetTableResponse empty = check.call("GetTable", () -> client.getTable(b -> b.tableBucketARN(bucketArn).namespace("sales").name("empty")));
        check.absent("GetTable", "metadataLocation (table created without metadata)", empty.metadataLocation());
        check.that("GetTable", "warehouseLocation (each table has its own)", !warehouse.equals(empty.warehouseLocation()),
                   "a location other than " + warehouse, empty.warehouseLocation());
        check.fails("GetTable", NotFoundException.class, 404,
                    () -> client.getTable(b -> b.tableBucketARN(bucketArn).namespace("sales").name("nothing")));

        ListTablesResponse page = check.call("ListTables", () -> client.listTables(b -> b.tableBucketARN(bucketArn).maxTables(1)));
        check.equal("ListTables", "tables (size of a page of maxTables 1)", 1, page.tables().size());
        check.present("ListTables", "continuationToken (more tables follow)", page.continuationToken());
        List<TableSummary> all = new ArrayList<>();
        check.call("ListTables", () -> {
            client.listTablesPaginator(b -> b.tableBucketARN(bucketArn).namespace("sales").maxTables(1)).tables().forEach(all::add);
            return all;
        });
        check.equal("ListTables", "tables[*].name (all pages)", List.of("empty", "orders"), all.stream().map(TableSummary::name).toList());
        TableSummary s = all.get(1);
        check.equal("ListTables", "tables[1].namespace", List.of("sales"), s.namespace());
        check.equal("ListTables", "tables[1].type", TableType.CUSTOMER, s.type());
        check.equal("ListTables", "tables[1].tableARN", tableArn, s.tableARN());
        check.equal("ListTables", "tables[1].createdAt", byName.createdAt(), s.createdAt());
        check.equal("ListTables", "tables[1].modifiedAt", byName.modifiedAt(), s.modifiedAt());
        check.absent("ListTables", "tables[1].managedByService", s.managedByService());
        check.equal("ListTables", "tables[1].namespaceId", namespaceId, s.namespaceId());
        check.equal("ListTables", "tables[1].tableBucketId", bucketId, s.tableBucketId());
        check.equal("ListTables", "tables (prefix ord)", List.of("orders"),
                    check.call("ListTables", () -> client.listTables(b -> b.tableBucketARN(bucketArn).prefix("ord")))
                        .tables().stream().map(TableSummary::name).toList());

        GetTableMetadataLocationResponse loc = check.call("GetTableMetadataLocation",
            () -> client.getTableMetadataLocation(b -> b.tableBucketARN(bucketArn).namespace("sales").name("orders")));
        check.equal("GetTableMetadataLocation", "versionToken", versionToken, loc.versionToken());
        check.equal("GetTableMetadataLocation", "metadataLocation", byName.metadataLocation(), loc.metadataLocation());
        check.equal("GetTableMetadataLocation", "warehouseLocation", warehouse, loc.warehouseLocation());

        String next = warehouse + "/metadata/00001-" + suffix + ".metadata.json";
        String op = "UpdateTableMetadataLocation";
        UpdateTableMetadataLocationResponse updated = check.call(op, () -> client.updateTableMetadataLocation(b -> b
            .tableBucketARN(bucketArn).namespace("sales").name("orders").versionToken(versionToken).metadataLocation(next)));
        check.equal(op, "name", "orders", updated.name());
        check.equal(op, "tableARN", tableArn, updated.tableARN());
        check.equal(op, "namespace", List.of("sales"), updated.namespace());
        check.that(op, "versionToken", updated.versionToken() != null && !updated.versionToken().equals(versionToken),
                   "a new token (not " + versionToken + ")", updated.versionToken());
        check.equal(op, "metadataLocation", next, updated.metadataLocation());
        String stale = versionToken;
        versionToken = updated.versionToken();
        check.fails(op, ConflictException.class, 409, () -> client.updateTableMetadataLocation(b -> b
            .tableBucketARN(bucketArn).namespace("sales").name("orders").versionToken(stale).metadataLocation(next)));
        check.fails(op, BadRequestException.class, 400, () -> client.updateTableMetadataLocation(b -> b
            .tableBucketARN(bucketArn).namespace("sales").name("orders").versionToken(versionToken)
            .metadataLocation("s3://somewhere-else/metadata/x.metadata.json")));
        GetTableResponse after = check.call("GetTable", () -> client.getTable(b -> b.tableArn(tableArn)));
        check.equal("GetTable", "metadataLocation (after UpdateTableMetadataLocation)", next, after.metadataLocation());
        check.equal("GetTable", "versionToken (after UpdateTableMetadataLocation)", versionToken, after.versionToken());
        check.equal("GetTable", "modifiedBy (after UpdateTableMetadataLocation)", account, after.modifiedBy());
        check.that("GetTable", "modifiedAt (after UpdateTableMetadataLocation)", !after.modifiedAt().isBefore(byName.modifiedAt()),
                   "not before " + byName.modifiedAt(), after.modifiedAt());
    }

    /**
     * The metadata.json CreateTable wrote for `orders`, read back through S3 (the SDK's S3Client on
     * the warehouse): format version 2, the table's location, and the schema's fields with their
     * types and required flags in the order given. SDK 2.40.2 (the newest served here) knows only
     * IcebergMetadata's `schema`; the model's later schemaV2, partitionSpec, writeOrder and
     * properties cannot be sent through it.
     */
    private void tableMetadataFile() {
        String op = "CreateTable";
        String field = "metadata.json: ";
        if (createdMetadataLocation == null)
            return;
        String[] parts = createdMetadataLocation.substring("s3://".length()).split("/", 2);
        JsonNode md;
        try {
            md = JsonNode.parser().parse(s3.getObjectAsBytes(b -> b.bucket(parts[0]).key(parts[1])).asUtf8String());
        } catch (SdkException e) {
            check.fail(op, field + createdMetadataLocation, "readable through S3", Check.describe(e));
            return;
        }
        check.equal(op, field + "format-version", "2", md.field("format-version").map(JsonNode::asNumber).orElse(null));
        check.equal(op, field + "location", warehouse, md.field("location").map(JsonNode::asString).orElse(null));
        JsonNode schema = md.field("schemas").map(n -> n.asArray().get(0)).orElse(null);
        check.present(op, field + "schemas[0]", schema);
        if (schema == null)
            return;
        check.equal(op, field + "schemas[0].fields[*] (name type required)",
                    List.of("id long true", "amount double false", "ts timestamp false"),
                    schema.field("fields").get().asArray().stream().map(f -> f.field("name").get().asString() + " "
                        + f.field("type").get().asString() + " " + f.field("required").get().asBoolean()).toList());
    }

    private void tableConfiguration() {
        // The bucket's encryption was AES256 and its storage class INTELLIGENT_TIERING when the table was made.
        check.equal("GetTableEncryption", "encryptionConfiguration.sseAlgorithm", SSEAlgorithm.AES256,
                    check.call("GetTableEncryption", () -> client.getTableEncryption(b -> b.tableBucketARN(bucketArn)
                        .namespace("sales").name("orders"))).encryptionConfiguration().sseAlgorithm());
        check.equal("GetTableStorageClass", "storageClassConfiguration.storageClass (the bucket's at creation)",
                    StorageClass.INTELLIGENT_TIERING, check.call("GetTableStorageClass", () -> client.getTableStorageClass(b -> b
                        .tableBucketARN(bucketArn).namespace("sales").name("orders"))).storageClassConfiguration().storageClass());
        check.equal("GetTableStorageClass", "storageClassConfiguration.storageClass (CreateTable's own)",
                    StorageClass.STANDARD, check.call("GetTableStorageClass", () -> client.getTableStorageClass(b -> b
                        .tableBucketARN(bucketArn).namespace("sales").name("empty"))).storageClassConfiguration().storageClass());

        String policy = policy("s3tables:GetTableData", tableArn);
        check.fails("GetTablePolicy", NotFoundException.class, 404,
                    () -> client.getTablePolicy(b -> b.tableBucketARN(bucketArn).namespace("sales").name("orders")));
        check.call("PutTablePolicy", () -> client.putTablePolicy(b -> b.tableBucketARN(bucketArn).namespace("sales").name("orders")
            .resourcePolicy(policy)));
        check.equal("GetTablePolicy", "resourcePolicy", policy, check.call("GetTablePolicy",
            () -> client.getTablePolicy(b -> b.tableBucketARN(bucketArn).namespace("sales").name("orders"))).resourcePolicy());
        check.call("DeleteTablePolicy", () -> client.deleteTablePolicy(b -> b.tableBucketARN(bucketArn).namespace("sales").name("orders")));
        check.fails("GetTablePolicy", NotFoundException.class, 404,
                    () -> client.getTablePolicy(b -> b.tableBucketARN(bucketArn).namespace("sales").name("orders")));

        String op = "GetTableMaintenanceConfiguration";
        GetTableMaintenanceConfigurationResponse maint = check.call(op, () -> client.getTableMaintenanceConfiguration(b -> b
            .tableBucketARN(bucketArn).namespace("sales").name("orders")));
        check.equal(op, "tableARN", tableArn, maint.tableARN());
        compaction(op, maint, 512, IcebergCompactionStrategy.AUTO, " (default)");
        snapshots(op, maint, 1, 120, " (default)");
        check.call("PutTableMaintenanceConfiguration", () -> client.putTableMaintenanceConfiguration(b -> b
            .tableBucketARN(bucketArn).namespace("sales").name("orders").type(TableMaintenanceType.ICEBERG_COMPACTION)
            .value(v -> v.status(MaintenanceStatus.ENABLED).settings(TableMaintenanceSettings.fromIcebergCompaction(
                c -> c.targetFileSizeMB(256).strategy(IcebergCompactionStrategy.BINPACK))))));
        check.call("PutTableMaintenanceConfiguration", () -> client.putTableMaintenanceConfiguration(b -> b
            .tableBucketARN(bucketArn).namespace("sales").name("orders").type(TableMaintenanceType.ICEBERG_SNAPSHOT_MANAGEMENT)
            .value(v -> v.status(MaintenanceStatus.ENABLED).settings(TableMaintenanceSettings.fromIcebergSnapshotManagement(
                s -> s.minSnapshotsToKeep(2).maxSnapshotAgeHours(48))))));
        check.fails("PutTableMaintenanceConfiguration", BadRequestException.class, 400, () -> client.putTableMaintenanceConfiguration(b -> b
            .tableBucketARN(bucketArn).namespace("sales").name("orders").type(TableMaintenanceType.ICEBERG_COMPACTION)
            .value(v -> v.status(MaintenanceStatus.ENABLED).settings(TableMaintenanceSettings.fromIcebergCompaction(
                c -> c.targetFileSizeMB(8))))));
        maint = check.call(op, () -> client.getTableMaintenanceConfiguration(b -> b.tableBucketARN(bucketArn).namespace("sales").name("orders")));
        compaction(op, maint, 256, IcebergCompactionStrategy.BINPACK, " (after Put)");
        snapshots(op, maint, 2, 48, " (after Put)");

        op = "GetTableMaintenanceJobStatus";
        GetTableMaintenanceJobStatusResponse jobs = check.call(op, () -> client.getTableMaintenanceJobStatus(b -> b
            .tableBucketARN(bucketArn).namespace("sales").name("orders")));
        check.equal(op, "tableARN", tableArn, jobs.tableARN());
        for (TableMaintenanceJobType type : List.of(TableMaintenanceJobType.ICEBERG_COMPACTION,
                                                   TableMaintenanceJobType.ICEBERG_SNAPSHOT_MANAGEMENT,
                                                   TableMaintenanceJobType.ICEBERG_UNREFERENCED_FILE_REMOVAL)) {
            TableMaintenanceJobStatusValue v = jobs.status().get(type);
            check.present(op, "status." + type, v);
            if (v == null)
                continue;
            check.equal(op, "status." + type + ".status (never run)", JobStatus.NOT_YET_RUN, v.status());
            check.absent(op, "status." + type + ".lastRunTimestamp (never run)", v.lastRunTimestamp());
            check.absent(op, "status." + type + ".failureMessage (never run)", v.failureMessage());
        }

        op = "GetTableRecordExpirationConfiguration";
        TableRecordExpirationConfigurationValue exp = check.call(op,
            () -> client.getTableRecordExpirationConfiguration(b -> b.tableArn(tableArn))).configuration();
        check.equal(op, "configuration.status (default)", TableRecordExpirationStatus.DISABLED, exp.status());
        check.call("PutTableRecordExpirationConfiguration", () -> client.putTableRecordExpirationConfiguration(b -> b
            .tableArn(tableArn).value(v -> v.status(TableRecordExpirationStatus.ENABLED).settings(s -> s.days(30)))));
        exp = check.call(op, () -> client.getTableRecordExpirationConfiguration(b -> b.tableArn(tableArn))).configuration();
        check.equal(op, "configuration.status (after Put)", TableRecordExpirationStatus.ENABLED, exp.status());
        check.equal(op, "configuration.settings.days (after Put)", 30, exp.settings() == null ? null : exp.settings().days());

        op = "GetTableRecordExpirationJobStatus";
        GetTableRecordExpirationJobStatusResponse expJob = check.call(op,
            () -> client.getTableRecordExpirationJobStatus(b -> b.tableArn(tableArn)));
        check.equal(op, "status (never run)", TableRecordExpirationJobStatus.NOT_YET_RUN, expJob.status());
        check.absent(op, "lastRunTimestamp (never run)", expJob.lastRunTimestamp());
        check.absent(op, "failureMessage (never run)", expJob.failureMessage());
        check.absent(op, "metrics (never run)", expJob.metrics());
    }

    private void compaction(String op, GetTableMaintenanceConfigurationResponse maint, int targetMb,
                            IcebergCompactionStrategy strategy, String when) {
        TableMaintenanceConfigurationValue v = maint.configuration().get(TableMaintenanceType.ICEBERG_COMPACTION);
        check.present(op, "configuration.icebergCompaction" + when, v);
        if (v == null)
            return;
        check.equal(op, "configuration.icebergCompaction.status" + when, MaintenanceStatus.ENABLED, v.status());
        IcebergCompactionSettings s = v.settings() == null ? null : v.settings().icebergCompaction();
        check.present(op, "configuration.icebergCompaction.settings" + when, s);
        if (s == null)
            return;
        check.equal(op, "configuration.icebergCompaction.settings.targetFileSizeMB" + when, targetMb, s.targetFileSizeMB());
        check.equal(op, "configuration.icebergCompaction.settings.strategy" + when, strategy, s.strategy());
    }

    private void snapshots(String op, GetTableMaintenanceConfigurationResponse maint, int minKeep, int maxAgeHours, String when) {
        TableMaintenanceConfigurationValue v = maint.configuration().get(TableMaintenanceType.ICEBERG_SNAPSHOT_MANAGEMENT);
        check.present(op, "configuration.icebergSnapshotManagement" + when, v);
        if (v == null)
            return;
        check.equal(op, "configuration.icebergSnapshotManagement.status" + when, MaintenanceStatus.ENABLED, v.status());
        IcebergSnapshotManagementSettings s = v.settings() == null ? null : v.settings().icebergSnapshotManagement();
        check.present(op, "configuration.icebergSnapshotManagement.settings" + when, s);
        if (s == null)
            return;
        check.equal(op, "configuration.icebergSnapshotManagement.settings.minSnapshotsToKeep" + when, minKeep, s.minSnapshotsToKeep());
        check.equal(op, "configuration.icebergSnapshotManagement.settings.maxSnapshotAgeHours" + when, maxAgeHours, s.maxSnapshotAgeHours());
    }

    // ---- Tags ----------------------------------------------------------------------------------

    private void tags() {
        String op = "ListTagsForResource";
        check.equal(op, "tags (bucket, from CreateTableBucket)", Map.of("team", "floe", "stage", "test"),
                    check.call(op, () -> client.listTagsForResource(b -> b.resourceArn(bucketArn))).tags());
        check.equal(op, "tags (table, from CreateTable)", Map.of("owner", "java-sdk"),
                    check.call(op, () -> client.listTagsForResource(b -> b.resourceArn(tableArn))).tags());
        check.call("TagResource", () -> client.tagResource(b -> b.resourceArn(bucketArn).tags(Map.of("cost-center", "42", "stage", "prod"))));
        check.equal(op, "tags (bucket, after TagResource)", Map.of("team", "floe", "stage", "prod", "cost-center", "42"),
                    check.call(op, () -> client.listTagsForResource(b -> b.resourceArn(bucketArn))).tags());
        check.call("UntagResource", () -> client.untagResource(b -> b.resourceArn(bucketArn).tagKeys("team", "absent-key")));
        check.equal(op, "tags (bucket, after UntagResource)", Map.of("stage", "prod", "cost-center", "42"),
                    check.call(op, () -> client.listTagsForResource(b -> b.resourceArn(bucketArn))).tags());
        check.call("TagResource", () -> client.tagResource(b -> b.resourceArn(tableArn).tags(Map.of("tier", "gold"))));
        check.call("UntagResource", () -> client.untagResource(b -> b.resourceArn(tableArn).tagKeys("owner")));
        check.equal(op, "tags (table, after TagResource and UntagResource)", Map.of("tier", "gold"),
                    check.call(op, () -> client.listTagsForResource(b -> b.resourceArn(tableArn))).tags());
    }

    // ---- Replication ---------------------------------------------------------------------------

    private void replication() {
        String role = "arn:aws:iam::" + account + ":role/floe-replication";
        check.fails("GetTableReplication", NotFoundException.class, 404, () -> client.getTableReplication(b -> b.tableArn(tableArn)));
        check.fails("GetTableReplicationStatus", NotFoundException.class, 404,
                    () -> client.getTableReplicationStatus(b -> b.tableArn(tableArn)));
        PutTableReplicationResponse put = check.call("PutTableReplication", () -> client.putTableReplication(b -> b
            .tableArn(tableArn).configuration(c -> c.role(role).rules(TableReplicationRule.builder()
                .destinations(ReplicationDestination.builder().destinationTableBucketARN(destinationArn).build()).build()))));
        check.present("PutTableReplication", "versionToken", put.versionToken());
        check.present("PutTableReplication", "status", put.status());
        GetTableReplicationResponse got = check.call("GetTableReplication", () -> client.getTableReplication(b -> b.tableArn(tableArn)));
        check.equal("GetTableReplication", "versionToken", put.versionToken(), got.versionToken());
        check.equal("GetTableReplication", "configuration.role", role, got.configuration().role());
        check.equal("GetTableReplication", "configuration.rules[*].destinations[*].destinationTableBucketARN", List.of(List.of(destinationArn)),
                    got.configuration().rules().stream().map(r -> r.destinations().stream()
                        .map(ReplicationDestination::destinationTableBucketARN).toList()).toList());

        String op = "GetTableReplicationStatus";
        GetTableReplicationStatusResponse status = check.call(op, () -> client.getTableReplicationStatus(b -> b.tableArn(tableArn)));
        check.equal(op, "sourceTableArn", tableArn, status.sourceTableArn());
        check.equal(op, "destinations (size)", 1, status.destinations().size());
        if (!status.destinations().isEmpty()) {
            ReplicationDestinationStatusModel d = status.destinations().get(0);
            check.equal(op, "destinations[0].destinationTableBucketArn", destinationArn, d.destinationTableBucketArn());
            check.that(op, "destinations[0].replicationStatus",
                       d.replicationStatus() == ReplicationStatus.PENDING || d.replicationStatus() == ReplicationStatus.COMPLETED,
                       "pending or completed", d.replicationStatusAsString());
            if (d.replicationStatus() == ReplicationStatus.COMPLETED) {
                check.matches(op, "destinations[0].destinationTableArn (completed)",
                              "arn:aws:s3tables:" + region + ":" + account + ":bucket/java-sdk-" + suffix + "-replica/table/[0-9a-f-]{36}",
                              d.destinationTableArn());
                check.present(op, "destinations[0].lastSuccessfulReplicatedUpdate (completed)", d.lastSuccessfulReplicatedUpdate());
            }
            check.absent(op, "destinations[0].failureMessage", d.failureMessage());
        }
        check.fails("DeleteTableReplication", ConflictException.class, 409,
                    () -> client.deleteTableReplication(b -> b.tableArn(tableArn).versionToken("not-the-token")));
        check.call("DeleteTableReplication", () -> client.deleteTableReplication(b -> b.tableArn(tableArn).versionToken(put.versionToken())));
        check.fails("GetTableReplication", NotFoundException.class, 404, () -> client.getTableReplication(b -> b.tableArn(tableArn)));

        op = "GetTableBucketReplication";
        check.fails(op, NotFoundException.class, 404, () -> client.getTableBucketReplication(b -> b.tableBucketARN(bucketArn)));
        PutTableBucketReplicationResponse bput = check.call("PutTableBucketReplication", () -> client.putTableBucketReplication(b -> b
            .tableBucketARN(bucketArn).configuration(c -> c.role(role).rules(TableBucketReplicationRule.builder()
                .destinations(ReplicationDestination.builder().destinationTableBucketARN(destinationArn).build()).build()))));
        check.present("PutTableBucketReplication", "versionToken", bput.versionToken());
        check.present("PutTableBucketReplication", "status", bput.status());
        GetTableBucketReplicationResponse bgot = check.call(op, () -> client.getTableBucketReplication(b -> b.tableBucketARN(bucketArn)));
        check.equal(op, "versionToken", bput.versionToken(), bgot.versionToken());
        check.equal(op, "configuration.role", role, bgot.configuration().role());
        check.equal(op, "configuration.rules[*].destinations[*].destinationTableBucketARN", List.of(List.of(destinationArn)),
                    bgot.configuration().rules().stream().map(r -> r.destinations().stream()
                        .map(ReplicationDestination::destinationTableBucketARN).toList()).toList());
        check.equal("GetTableReplicationStatus", "destinations[*].destinationTableBucketArn (from the bucket's configuration)",
                    List.of(destinationArn), check.call("GetTableReplicationStatus", () -> client.getTableReplicationStatus(b -> b
                        .tableArn(tableArn))).destinations().stream().map(ReplicationDestinationStatusModel::destinationTableBucketArn).toList());
        check.call("DeleteTableBucketReplication", () -> client.deleteTableBucketReplication(b -> b
            .tableBucketARN(bucketArn).versionToken(bput.versionToken())));
        check.fails(op, NotFoundException.class, 404, () -> client.getTableBucketReplication(b -> b.tableBucketARN(bucketArn)));
    }

    // ---- Rename and delete ---------------------------------------------------------------------

    private void renameAndDelete() {
        check.call("RenameTable", () -> client.renameTable(b -> b.tableBucketARN(bucketArn).namespace("sales").name("orders")
            .newNamespaceName("scratch").newName("orders_v2").versionToken(versionToken)));
        GetTableResponse renamed = check.call("GetTable", () -> client.getTable(b -> b
            .tableBucketARN(bucketArn).namespace("scratch").name("orders_v2")));
        check.equal("GetTable", "tableARN (after RenameTable)", tableArn, renamed.tableARN());
        check.equal("GetTable", "namespace (after RenameTable)", List.of("scratch"), renamed.namespace());
        check.equal("GetTable", "versionToken (after RenameTable)", versionToken, renamed.versionToken());
        check.fails("GetTable", NotFoundException.class, 404,
                    () -> client.getTable(b -> b.tableBucketARN(bucketArn).namespace("sales").name("orders")));

        check.fails("DeleteNamespace", ConflictException.class, 409,
                    () -> client.deleteNamespace(b -> b.tableBucketARN(bucketArn).namespace("scratch")));
        check.fails("DeleteTable", ConflictException.class, 409, () -> client.deleteTable(b -> b
            .tableBucketARN(bucketArn).namespace("scratch").name("orders_v2").versionToken("stale-token")));
        check.call("DeleteTable", () -> client.deleteTable(b -> b.tableBucketARN(bucketArn).namespace("scratch").name("orders_v2")
            .versionToken(versionToken)));
        check.call("DeleteTable", () -> client.deleteTable(b -> b.tableBucketARN(bucketArn).namespace("sales").name("empty")));
        check.fails("GetTable", NotFoundException.class, 404, () -> client.getTable(b -> b.tableArn(tableArn)));
        check.call("DeleteNamespace", () -> client.deleteNamespace(b -> b.tableBucketARN(bucketArn).namespace("scratch")));
        check.call("DeleteNamespace", () -> client.deleteNamespace(b -> b.tableBucketARN(bucketArn).namespace("sales")));
        check.fails("GetNamespace", NotFoundException.class, 404,
                    () -> client.getNamespace(b -> b.tableBucketARN(bucketArn).namespace("sales")));
        check.call("DeleteTableBucket", () -> client.deleteTableBucket(b -> b.tableBucketARN(bucketArn)));
        check.fails("GetTableBucket", NotFoundException.class, 404, () -> client.getTableBucket(b -> b.tableBucketARN(bucketArn)));
        check.fails("DeleteTableBucket", NotFoundException.class, 404, () -> client.deleteTableBucket(b -> b.tableBucketARN(bucketArn)));
    }
}
