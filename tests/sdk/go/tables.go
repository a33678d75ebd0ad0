// Namespaces and tables: creation with Iceberg metadata (schema, partition spec, sort order,
// properties, and the document-typed schemaV2), Get and List, each table-level configuration
// (encryption, storage class, policy, maintenance and its job status, record expiration and its
// job status, replication and its status), tags, rename, and deletion with version tokens.
package main

import (
	"regexp"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3tables"
	"github.com/aws/aws-sdk-go-v2/service/s3tables/document"
	"github.com/aws/aws-sdk-go-v2/service/s3tables/types"
)

// How long a replica may take to catch up on an idle server (docs/replication.md: milliseconds).
const replicationDeadline = 20 * time.Second

var (
	tableARNPattern     = regexp.MustCompile(`^arn:aws:s3tables:us-east-1:` + account + `:bucket/go-lake/table/[0-9a-f-]{36}$`)
	replicaARNPattern   = regexp.MustCompile(`^arn:aws:s3tables:us-east-1:` + account + `:bucket/go-replica/table/[0-9a-f-]{36}$`)
	warehousePattern    = regexp.MustCompile(`^s3://[a-z0-9-]+--table-s3$`)
	metadataLocationFor = func(warehouse string) *regexp.Regexp {
		return regexp.MustCompile(`^` + regexp.QuoteMeta(warehouse) + `/metadata/[0-9]{5}-[0-9a-f-]{36}\.metadata\.json$`)
	}
)

// What the table steps learn and the S3 step uses.
type tableFacts struct {
	arn, versionToken, warehouse, metadataLocation string
	namespaceID, bucketID                          string
	createdAt                                      time.Time
}

var orders tableFacts

func (r *run) namespacesAndTables() {
	r.namespaces()
	r.createTables()
	r.getAndListTables()
	r.tableEncryptionAndStorageClass()
	r.tablePolicy()
	r.tableMaintenance()
	r.recordExpiration()
	r.tableReplication()
	r.tags(orders.arn, map[string]string{"dataset": "orders"})
	r.renameTable()
}

func (r *run) namespaces() {
	for _, ns := range []string{"sales", "marketing", "staging"} {
		out, err := r.tables.CreateNamespace(r.ctx, &s3tables.CreateNamespaceInput{
			TableBucketARN: aws.String(lakeARN), Namespace: []string{ns}})
		r.c.must("CreateNamespace", err)
		r.c.str("CreateNamespace", "tableBucketARN", out.TableBucketARN, lakeARN)
		r.c.equal("CreateNamespace", "namespace", out.Namespace, []string{ns})
	}
	_, err := r.tables.CreateNamespace(r.ctx, &s3tables.CreateNamespaceInput{
		TableBucketARN: aws.String(lakeARN), Namespace: []string{"sales"}})
	r.c.errorCode("CreateNamespace", err, "ConflictException", 409)

	bucket, err := r.tables.GetTableBucket(r.ctx, &s3tables.GetTableBucketInput{TableBucketARN: aws.String(lakeARN)})
	r.c.must("GetTableBucket", err)
	orders.bucketID = aws.ToString(bucket.TableBucketId)

	const op = "GetNamespace"
	got, err := r.tables.GetNamespace(r.ctx, &s3tables.GetNamespaceInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales")})
	r.c.must(op, err)
	r.c.equal(op, "namespace", got.Namespace, []string{"sales"})
	createdAt := r.c.recent(op, "createdAt", got.CreatedAt, r.started)
	r.c.str(op, "createdBy", got.CreatedBy, account)
	r.c.str(op, "ownerAccountId", got.OwnerAccountId, account)
	orders.namespaceID = r.c.match(op, "namespaceId", got.NamespaceId, uuidPattern)
	r.c.str(op, "tableBucketId", got.TableBucketId, orders.bucketID)

	const list = "ListNamespaces"
	pager := s3tables.NewListNamespacesPaginator(r.tables, &s3tables.ListNamespacesInput{
		TableBucketARN: aws.String(lakeARN), MaxNamespaces: aws.Int32(2)})
	var names []string
	for page := 0; pager.HasMorePages(); page++ {
		out, err := pager.NextPage(r.ctx)
		r.c.must(list, err)
		if page == 0 {
			r.c.match(list, "continuationToken", out.ContinuationToken, tokenPattern)
		}
		for _, ns := range out.Namespaces {
			names = append(names, ns.Namespace...)
			if len(ns.Namespace) != 1 || ns.Namespace[0] != "sales" {
				continue
			}
			r.c.equal(list, "namespaces[sales].createdAt", aws.ToTime(ns.CreatedAt).UnixMilli(), createdAt.UnixMilli())
			r.c.str(list, "namespaces[sales].createdBy", ns.CreatedBy, account)
			r.c.str(list, "namespaces[sales].ownerAccountId", ns.OwnerAccountId, account)
			r.c.str(list, "namespaces[sales].namespaceId", ns.NamespaceId, orders.namespaceID)
			r.c.str(list, "namespaces[sales].tableBucketId", ns.TableBucketId, orders.bucketID)
		}
	}
	r.c.equal(list, "namespaces[].namespace", names, []string{"marketing", "sales", "staging"})
	out, err := r.tables.ListNamespaces(r.ctx, &s3tables.ListNamespacesInput{
		TableBucketARN: aws.String(lakeARN), Prefix: aws.String("st")})
	r.c.must(list, err)
	r.c.equal(list, "len(namespaces) for prefix st", len(out.Namespaces), 1)
	r.c.absent(list, "continuationToken", out.ContinuationToken)

	_, err = r.tables.DeleteNamespace(r.ctx, &s3tables.DeleteNamespaceInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("staging")})
	r.c.must("DeleteNamespace", err)
	_, err = r.tables.GetNamespace(r.ctx, &s3tables.GetNamespaceInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("staging")})
	r.c.errorCode("GetNamespace after DeleteNamespace", err, "NotFoundException", 404)
}

func (r *run) createTables() {
	const op = "CreateTable"
	out, err := r.tables.CreateTable(r.ctx, &s3tables.CreateTableInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("orders"),
		Format: types.OpenTableFormatIceberg,
		Metadata: &types.TableMetadataMemberIceberg{Value: types.IcebergMetadata{
			Schema: &types.IcebergSchema{Fields: []types.SchemaField{
				{Name: aws.String("order_id"), Type: aws.String("long"), Required: true},
				{Name: aws.String("customer"), Type: aws.String("string")},
				{Name: aws.String("amount"), Type: aws.String("decimal(10,2)")},
				{Name: aws.String("ordered_at"), Type: aws.String("timestamp")},
			}},
			PartitionSpec: &types.IcebergPartitionSpec{Fields: []types.IcebergPartitionField{
				{SourceId: aws.Int32(4), Transform: aws.String("day"), Name: aws.String("ordered_day")}}},
			WriteOrder: &types.IcebergSortOrder{OrderId: aws.Int32(1), Fields: []types.IcebergSortField{{
				SourceId: aws.Int32(1), Transform: aws.String("identity"),
				Direction: types.IcebergSortDirectionAsc, NullOrder: types.IcebergNullOrderNullsLast}}},
			Properties: map[string]string{"comment": "orders from the shop"},
		}},
		EncryptionConfiguration: &types.EncryptionConfiguration{
			SseAlgorithm: types.SSEAlgorithmAwsKms, KmsKeyArn: aws.String(kmsKey)},
		StorageClassConfiguration: &types.StorageClassConfiguration{StorageClass: types.StorageClassIntelligentTiering},
		Tags:                      map[string]string{"dataset": "orders"},
	})
	r.c.must(op, err)
	orders.arn = r.c.match(op, "tableARN", out.TableARN, tableARNPattern)
	orders.versionToken = r.c.match(op, "versionToken", out.VersionToken, tokenPattern)

	// schemaV2 carries each field's type as a document: a nested list type here.
	events, err := r.tables.CreateTable(r.ctx, &s3tables.CreateTableInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("events"),
		Format: types.OpenTableFormatIceberg,
		Metadata: &types.TableMetadataMemberIceberg{Value: types.IcebergMetadata{
			SchemaV2: &types.IcebergSchemaV2{Type: types.SchemaV2FieldTypeStruct, Fields: []types.SchemaV2Field{
				{Id: aws.Int32(1), Name: aws.String("event_id"), Type: document.NewLazyDocument("long"), Required: aws.Bool(true)},
				{Id: aws.Int32(2), Name: aws.String("labels"), Required: aws.Bool(false), Doc: aws.String("free-form labels"),
					Type: document.NewLazyDocument(map[string]any{
						"type": "list", "element-id": 3, "element": "string", "element-required": false})},
			}, IdentifierFieldIds: []int32{1}},
		}},
	})
	r.c.must(op+" with schemaV2", err)
	r.c.match(op, "tableARN", events.TableARN, tableARNPattern)

	_, err = r.tables.CreateTable(r.ctx, &s3tables.CreateTableInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("orders"),
		Format: types.OpenTableFormatIceberg})
	r.c.errorCode(op, err, "ConflictException", 409)
	_, err = r.tables.CreateTable(r.ctx, &s3tables.CreateTableInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("nowhere"), Name: aws.String("orders"),
		Format: types.OpenTableFormatIceberg})
	r.c.errorCode(op+" in a missing namespace", err, "NotFoundException", 404)
}

func (r *run) getAndListTables() {
	const op = "GetTable"
	got, err := r.tables.GetTable(r.ctx, &s3tables.GetTableInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("orders")})
	r.c.must(op, err)
	r.c.str(op, "name", got.Name, "orders")
	r.c.equal(op, "type", got.Type, types.TableTypeCustomer)
	r.c.str(op, "tableARN", got.TableARN, orders.arn)
	r.c.equal(op, "namespace", got.Namespace, []string{"sales"})
	r.c.str(op, "namespaceId", got.NamespaceId, orders.namespaceID)
	r.c.str(op, "versionToken", got.VersionToken, orders.versionToken)
	orders.warehouse = r.c.match(op, "warehouseLocation", got.WarehouseLocation, warehousePattern)
	orders.metadataLocation = r.c.match(op, "metadataLocation", got.MetadataLocation, metadataLocationFor(orders.warehouse))
	orders.createdAt = r.c.recent(op, "createdAt", got.CreatedAt, r.started)
	r.c.str(op, "createdBy", got.CreatedBy, account)
	r.c.absent(op, "managedByService", got.ManagedByService)
	r.c.recent(op, "modifiedAt", got.ModifiedAt, orders.createdAt)
	r.c.absent(op, "modifiedBy (a table never modified)", got.ModifiedBy)
	r.c.str(op, "ownerAccountId", got.OwnerAccountId, account)
	r.c.equal(op, "format", got.Format, types.OpenTableFormatIceberg)
	r.c.str(op, "tableBucketId", got.TableBucketId, orders.bucketID)
	r.c.absent(op, "managedTableInformation (not a replica)", got.ManagedTableInformation)

	byARN, err := r.tables.GetTable(r.ctx, &s3tables.GetTableInput{TableArn: aws.String(orders.arn)})
	r.c.must(op+" by tableArn", err)
	r.c.str(op+" by tableArn", "name", byARN.Name, "orders")
	r.c.equal(op+" by tableArn", "namespace", byARN.Namespace, []string{"sales"})
	r.c.str(op+" by tableArn", "warehouseLocation", byARN.WarehouseLocation, orders.warehouse)
	_, err = r.tables.GetTable(r.ctx, &s3tables.GetTableInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("returns")})
	r.c.errorCode(op+" of a missing table", err, "NotFoundException", 404)

	const loc = "GetTableMetadataLocation"
	where := &s3tables.GetTableMetadataLocationInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("orders")}
	ml, err := r.tables.GetTableMetadataLocation(r.ctx, where)
	r.c.must(loc, err)
	r.c.str(loc, "versionToken", ml.VersionToken, orders.versionToken)
	r.c.str(loc, "metadataLocation", ml.MetadataLocation, orders.metadataLocation)
	r.c.str(loc, "warehouseLocation", ml.WarehouseLocation, orders.warehouse)

	const list = "ListTables"
	pager := s3tables.NewListTablesPaginator(r.tables, &s3tables.ListTablesInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), MaxTables: aws.Int32(1)})
	var names []string
	for page := 0; pager.HasMorePages(); page++ {
		out, err := pager.NextPage(r.ctx)
		r.c.must(list, err)
		if page == 0 {
			r.c.match(list, "continuationToken", out.ContinuationToken, tokenPattern)
		}
		for _, t := range out.Tables {
			names = append(names, aws.ToString(t.Name))
			if aws.ToString(t.Name) != "orders" {
				continue
			}
			r.c.equal(list, "tables[orders].namespace", t.Namespace, []string{"sales"})
			r.c.equal(list, "tables[orders].type", t.Type, types.TableTypeCustomer)
			r.c.str(list, "tables[orders].tableARN", t.TableARN, orders.arn)
			r.c.equal(list, "tables[orders].createdAt", aws.ToTime(t.CreatedAt).UnixMilli(), orders.createdAt.UnixMilli())
			r.c.equal(list, "tables[orders].modifiedAt", aws.ToTime(t.ModifiedAt).UnixMilli(), aws.ToTime(got.ModifiedAt).UnixMilli())
			r.c.absent(list, "tables[orders].managedByService", t.ManagedByService)
			r.c.str(list, "tables[orders].namespaceId", t.NamespaceId, orders.namespaceID)
			r.c.str(list, "tables[orders].tableBucketId", t.TableBucketId, orders.bucketID)
		}
	}
	r.c.equal(list, "tables[].name", names, []string{"events", "orders"})
	out, err := r.tables.ListTables(r.ctx, &s3tables.ListTablesInput{TableBucketARN: aws.String(lakeARN), Prefix: aws.String("ord")})
	r.c.must(list, err)
	r.c.equal(list, "len(tables) for prefix ord", len(out.Tables), 1)
	r.c.absent(list, "continuationToken", out.ContinuationToken)
}

func (r *run) tableEncryptionAndStorageClass() {
	for _, tc := range []struct {
		name       string
		encryption types.EncryptionConfiguration
		class      types.StorageClass
	}{
		// orders was given its own settings; events takes the bucket's at creation (AES256 after
		// DeleteTableBucketEncryption, STANDARD after PutTableBucketStorageClass).
		{"orders", types.EncryptionConfiguration{SseAlgorithm: types.SSEAlgorithmAwsKms, KmsKeyArn: aws.String(kmsKey)},
			types.StorageClassIntelligentTiering},
		{"events", types.EncryptionConfiguration{SseAlgorithm: types.SSEAlgorithmAes256}, types.StorageClassStandard},
	} {
		enc, err := r.tables.GetTableEncryption(r.ctx, &s3tables.GetTableEncryptionInput{
			TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String(tc.name)})
		r.c.must("GetTableEncryption", err)
		r.c.equal("GetTableEncryption", "encryptionConfiguration of "+tc.name, enc.EncryptionConfiguration, &tc.encryption)
		sc, err := r.tables.GetTableStorageClass(r.ctx, &s3tables.GetTableStorageClassInput{
			TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String(tc.name)})
		r.c.must("GetTableStorageClass", err)
		r.c.equal("GetTableStorageClass", "storageClassConfiguration of "+tc.name, sc.StorageClassConfiguration,
			&types.StorageClassConfiguration{StorageClass: tc.class})
	}
}

func (r *run) tablePolicy() {
	const op = "GetTablePolicy"
	in := &s3tables.GetTablePolicyInput{TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("orders")}
	_, err := r.tables.GetTablePolicy(r.ctx, in)
	r.c.errorCode(op+" before Put", err, "NotFoundException", 404)
	policy := policyDocument(orders.arn, "s3tables:GetTableData")
	_, err = r.tables.PutTablePolicy(r.ctx, &s3tables.PutTablePolicyInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("orders"),
		ResourcePolicy: aws.String(policy)})
	r.c.must("PutTablePolicy", err)
	out, err := r.tables.GetTablePolicy(r.ctx, in)
	r.c.must(op, err)
	r.c.str(op, "resourcePolicy", out.ResourcePolicy, policy)
	_, err = r.tables.DeleteTablePolicy(r.ctx, &s3tables.DeleteTablePolicyInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("orders")})
	r.c.must("DeleteTablePolicy", err)
	_, err = r.tables.GetTablePolicy(r.ctx, in)
	r.c.errorCode(op+" after Delete", err, "NotFoundException", 404)
}

func compaction(status types.MaintenanceStatus, sizeMB int32, strategy types.IcebergCompactionStrategy) types.TableMaintenanceConfigurationValue {
	return types.TableMaintenanceConfigurationValue{Status: status, Settings: &types.TableMaintenanceSettingsMemberIcebergCompaction{
		Value: types.IcebergCompactionSettings{TargetFileSizeMB: aws.Int32(sizeMB), Strategy: strategy}}}
}

func snapshots(status types.MaintenanceStatus, keep, hours int32) types.TableMaintenanceConfigurationValue {
	return types.TableMaintenanceConfigurationValue{Status: status, Settings: &types.TableMaintenanceSettingsMemberIcebergSnapshotManagement{
		Value: types.IcebergSnapshotManagementSettings{MinSnapshotsToKeep: aws.Int32(keep), MaxSnapshotAgeHours: aws.Int32(hours)}}}
}

func (r *run) tableMaintenance() {
	const op = "GetTableMaintenanceConfiguration"
	compactionKey := string(types.TableMaintenanceTypeIcebergCompaction)
	snapshotKey := string(types.TableMaintenanceTypeIcebergSnapshotManagement)
	get := func(want map[string]types.TableMaintenanceConfigurationValue, when string) {
		out, err := r.tables.GetTableMaintenanceConfiguration(r.ctx, &s3tables.GetTableMaintenanceConfigurationInput{
			TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("orders")})
		r.c.must(op, err)
		r.c.str(op, "tableARN", out.TableARN, orders.arn)
		r.c.equal(op, "configuration "+when, out.Configuration, want)
	}
	// AWS's documented defaults: compaction to 512 MB with the auto strategy; keep at least one
	// snapshot and expire snapshots older than 120 hours.
	get(map[string]types.TableMaintenanceConfigurationValue{
		compactionKey: compaction(types.MaintenanceStatusEnabled, 512, types.IcebergCompactionStrategyAuto),
		snapshotKey:   snapshots(types.MaintenanceStatusEnabled, 1, 120),
	}, "of a new table")
	for _, put := range []struct {
		kind  types.TableMaintenanceType
		value types.TableMaintenanceConfigurationValue
	}{
		{types.TableMaintenanceTypeIcebergCompaction, compaction(types.MaintenanceStatusEnabled, 128, types.IcebergCompactionStrategySort)},
		{types.TableMaintenanceTypeIcebergSnapshotManagement, snapshots(types.MaintenanceStatusDisabled, 3, 48)},
	} {
		_, err := r.tables.PutTableMaintenanceConfiguration(r.ctx, &s3tables.PutTableMaintenanceConfigurationInput{
			TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("orders"),
			Type: put.kind, Value: ptr(put.value)})
		r.c.must("PutTableMaintenanceConfiguration", err)
	}
	get(map[string]types.TableMaintenanceConfigurationValue{
		compactionKey: compaction(types.MaintenanceStatusEnabled, 128, types.IcebergCompactionStrategySort),
		snapshotKey:   snapshots(types.MaintenanceStatusDisabled, 3, 48),
	}, "after PutTableMaintenanceConfiguration")
	_, err := r.tables.PutTableMaintenanceConfiguration(r.ctx, &s3tables.PutTableMaintenanceConfigurationInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("orders"),
		Type:  types.TableMaintenanceTypeIcebergCompaction,
		Value: ptr(compaction(types.MaintenanceStatusEnabled, 1024, types.IcebergCompactionStrategyAuto))})
	r.c.errorCode("PutTableMaintenanceConfiguration with targetFileSizeMB 1024", err, "BadRequestException", 400)

	const jobs = "GetTableMaintenanceJobStatus"
	out, err := r.tables.GetTableMaintenanceJobStatus(r.ctx, &s3tables.GetTableMaintenanceJobStatusInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("orders")})
	r.c.must(jobs, err)
	r.c.str(jobs, "tableARN", out.TableARN, orders.arn)
	r.c.equal(jobs, "status", out.Status, map[string]types.TableMaintenanceJobStatusValue{
		string(types.TableMaintenanceJobTypeIcebergCompaction):              {Status: types.JobStatusNotYetRun},
		string(types.TableMaintenanceJobTypeIcebergSnapshotManagement):      {Status: types.JobStatusDisabled},
		string(types.TableMaintenanceJobTypeIcebergUnreferencedFileRemoval): {Status: types.JobStatusNotYetRun},
	})
}

func (r *run) recordExpiration() {
	const op = "GetTableRecordExpirationConfiguration"
	const jobs = "GetTableRecordExpirationJobStatus"
	get := func(want types.TableRecordExpirationConfigurationValue, job types.TableRecordExpirationJobStatus, when string) {
		out, err := r.tables.GetTableRecordExpirationConfiguration(r.ctx, &s3tables.GetTableRecordExpirationConfigurationInput{
			TableArn: aws.String(orders.arn)})
		r.c.must(op, err)
		r.c.equal(op, "configuration "+when, out.Configuration, &want)
		st, err := r.tables.GetTableRecordExpirationJobStatus(r.ctx, &s3tables.GetTableRecordExpirationJobStatusInput{
			TableArn: aws.String(orders.arn)})
		r.c.must(jobs, err)
		r.c.equal(jobs, "status "+when, st.Status, job)
		r.c.absent(jobs, "lastRunTimestamp (never run)", st.LastRunTimestamp)
		r.c.absent(jobs, "failureMessage (never run)", st.FailureMessage)
		r.c.absent(jobs, "metrics (never run)", st.Metrics)
	}
	get(types.TableRecordExpirationConfigurationValue{Status: types.TableRecordExpirationStatusDisabled},
		types.TableRecordExpirationJobStatusDisabled, "of a new table")
	_, err := r.tables.PutTableRecordExpirationConfiguration(r.ctx, &s3tables.PutTableRecordExpirationConfigurationInput{
		TableArn: aws.String(orders.arn), Value: &types.TableRecordExpirationConfigurationValue{
			Status: types.TableRecordExpirationStatusEnabled, Settings: &types.TableRecordExpirationSettings{Days: aws.Int32(30)}}})
	r.c.must("PutTableRecordExpirationConfiguration", err)
	get(types.TableRecordExpirationConfigurationValue{Status: types.TableRecordExpirationStatusEnabled,
		Settings: &types.TableRecordExpirationSettings{Days: aws.Int32(30)}},
		types.TableRecordExpirationJobStatusNotYetRun, "after PutTableRecordExpirationConfiguration")
}

func (r *run) tableReplication() {
	const op = "GetTableReplication"
	_, err := r.tables.GetTableReplication(r.ctx, &s3tables.GetTableReplicationInput{TableArn: aws.String(orders.arn)})
	r.c.errorCode(op+" before Put", err, "NotFoundException", 404)
	configuration := &types.TableReplicationConfiguration{
		Role: aws.String(role),
		Rules: []types.TableReplicationRule{{Destinations: []types.ReplicationDestination{
			{DestinationTableBucketARN: aws.String(replicaARN)}}}},
	}
	put, err := r.tables.PutTableReplication(r.ctx, &s3tables.PutTableReplicationInput{
		TableArn: aws.String(orders.arn), Configuration: configuration})
	r.c.must("PutTableReplication", err)
	first := r.c.match("PutTableReplication", "versionToken", put.VersionToken, tokenPattern)
	r.c.str("PutTableReplication", "status", put.Status, "pending")
	got, err := r.tables.GetTableReplication(r.ctx, &s3tables.GetTableReplicationInput{TableArn: aws.String(orders.arn)})
	r.c.must(op, err)
	r.c.str(op, "versionToken", got.VersionToken, first)
	r.c.equal(op, "configuration", got.Configuration, configuration)

	r.replicationStatus()

	again, err := r.tables.PutTableReplication(r.ctx, &s3tables.PutTableReplicationInput{
		TableArn: aws.String(orders.arn), Configuration: configuration, VersionToken: aws.String(first)})
	r.c.must("PutTableReplication with the current versionToken", err)
	second := r.c.match("PutTableReplication", "versionToken", again.VersionToken, tokenPattern)
	if second == first {
		r.c.fail("PutTableReplication", "versionToken", "unchanged (%q) by a second Put", second)
	}
	_, err = r.tables.DeleteTableReplication(r.ctx, &s3tables.DeleteTableReplicationInput{
		TableArn: aws.String(orders.arn), VersionToken: aws.String(first)})
	r.c.errorCode("DeleteTableReplication with a stale versionToken", err, "ConflictException", 409)
	_, err = r.tables.DeleteTableReplication(r.ctx, &s3tables.DeleteTableReplicationInput{
		TableArn: aws.String(orders.arn), VersionToken: aws.String(second)})
	r.c.must("DeleteTableReplication", err)
	_, err = r.tables.GetTableReplication(r.ctx, &s3tables.GetTableReplicationInput{TableArn: aws.String(orders.arn)})
	r.c.errorCode(op+" after Delete", err, "NotFoundException", 404)
}

// replicationStatus waits for the replica to hold the source's metadata, then checks the status
// of the one destination and the replica table itself.
func (r *run) replicationStatus() {
	const op = "GetTableReplicationStatus"
	var out *s3tables.GetTableReplicationStatusOutput
	deadline := time.Now().Add(replicationDeadline)
	for {
		var err error
		out, err = r.tables.GetTableReplicationStatus(r.ctx, &s3tables.GetTableReplicationStatusInput{TableArn: aws.String(orders.arn)})
		r.c.must(op, err)
		if len(out.Destinations) != 1 || out.Destinations[0].ReplicationStatus != types.ReplicationStatusPending ||
			time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	r.c.str(op, "sourceTableArn", out.SourceTableArn, orders.arn)
	if len(out.Destinations) != 1 {
		r.c.fail(op, "destinations", "got %d, want 1", len(out.Destinations))
		return
	}
	d := out.Destinations[0]
	r.c.equal(op, "destinations[0].replicationStatus", d.ReplicationStatus, types.ReplicationStatusCompleted)
	r.c.str(op, "destinations[0].destinationTableBucketArn", d.DestinationTableBucketArn, replicaARN)
	replica := r.c.match(op, "destinations[0].destinationTableArn", d.DestinationTableArn, replicaARNPattern)
	r.c.absent(op, "destinations[0].failureMessage", d.FailureMessage)
	if d.LastSuccessfulReplicatedUpdate == nil {
		r.c.fail(op, "destinations[0].lastSuccessfulReplicatedUpdate", "missing")
	} else {
		r.c.str(op, "destinations[0].lastSuccessfulReplicatedUpdate.metadataLocation",
			d.LastSuccessfulReplicatedUpdate.MetadataLocation, orders.metadataLocation)
		r.c.recent(op, "destinations[0].lastSuccessfulReplicatedUpdate.timestamp",
			d.LastSuccessfulReplicatedUpdate.Timestamp, orders.createdAt)
	}

	got, err := r.tables.GetTable(r.ctx, &s3tables.GetTableInput{TableArn: aws.String(replica)})
	r.c.must("GetTable of the replica", err)
	r.c.str("GetTable of the replica", "name", got.Name, "orders")
	r.c.equal("GetTable of the replica", "namespace", got.Namespace, []string{"sales"})
	if got.ManagedTableInformation == nil || got.ManagedTableInformation.ReplicationInformation == nil {
		r.c.fail("GetTable of the replica", "managedTableInformation.replicationInformation", "missing")
	} else {
		r.c.str("GetTable of the replica", "managedTableInformation.replicationInformation.sourceTableARN",
			got.ManagedTableInformation.ReplicationInformation.SourceTableARN, orders.arn)
	}
}

// renameTable moves events to another namespace and name; its ARN stays.
func (r *run) renameTable() {
	const op = "RenameTable"
	before, err := r.tables.GetTable(r.ctx, &s3tables.GetTableInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("events")})
	r.c.must("GetTable", err)
	_, err = r.tables.RenameTable(r.ctx, &s3tables.RenameTableInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("events"),
		NewNamespaceName: aws.String("marketing"), NewName: aws.String("clicks"), VersionToken: before.VersionToken})
	r.c.must(op, err)
	after, err := r.tables.GetTable(r.ctx, &s3tables.GetTableInput{TableArn: before.TableARN})
	r.c.must("GetTable after RenameTable", err)
	r.c.str("GetTable after RenameTable", "name", after.Name, "clicks")
	r.c.equal("GetTable after RenameTable", "namespace", after.Namespace, []string{"marketing"})
	r.c.str("GetTable after RenameTable", "tableARN", after.TableARN, aws.ToString(before.TableARN))
	_, err = r.tables.GetTable(r.ctx, &s3tables.GetTableInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("events")})
	r.c.errorCode("GetTable of the old name after RenameTable", err, "NotFoundException", 404)
}

// cleanUp deletes what the run created in the lake, through the version-token guarded deletes.
func (r *run) cleanUp() {
	const op = "DeleteTable"
	got, err := r.tables.GetTable(r.ctx, &s3tables.GetTableInput{TableArn: aws.String(orders.arn)})
	r.c.must("GetTable", err)
	_, err = r.tables.DeleteTable(r.ctx, &s3tables.DeleteTableInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("orders"),
		VersionToken: aws.String(orders.versionToken)})
	if aws.ToString(got.VersionToken) != orders.versionToken {
		r.c.errorCode(op+" with a stale versionToken", err, "ConflictException", 409)
	}
	_, err = r.tables.DeleteNamespace(r.ctx, &s3tables.DeleteNamespaceInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales")})
	r.c.errorCode("DeleteNamespace of a namespace with tables", err, "ConflictException", 409)
	_, err = r.tables.DeleteTable(r.ctx, &s3tables.DeleteTableInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("orders"),
		VersionToken: got.VersionToken})
	r.c.must(op, err)
	_, err = r.tables.GetTable(r.ctx, &s3tables.GetTableInput{TableArn: aws.String(orders.arn)})
	r.c.errorCode("GetTable after DeleteTable", err, "NotFoundException", 404)
	_, err = r.tables.DeleteTable(r.ctx, &s3tables.DeleteTableInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("marketing"), Name: aws.String("clicks")})
	r.c.must(op+" without a versionToken", err)
	for _, ns := range []string{"sales", "marketing"} {
		_, err = r.tables.DeleteNamespace(r.ctx, &s3tables.DeleteNamespaceInput{
			TableBucketARN: aws.String(lakeARN), Namespace: aws.String(ns)})
		r.c.must("DeleteNamespace", err)
	}
	r.deleteBucket("go-lake")
}
