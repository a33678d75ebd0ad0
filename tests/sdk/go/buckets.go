// The table bucket operations: creation with settings, Get and List, and each bucket-level
// configuration (encryption, storage class, maintenance, metrics, policy, replication) and tags,
// each read back after it is written, with AWS's defaults and NotFound answers.
package main

import (
	"encoding/json"
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3tables"
	"github.com/aws/aws-sdk-go-v2/service/s3tables/types"
)

const (
	kmsKey = "arn:aws:kms:us-east-1:" + account + ":key/1234abcd-12ab-34cd-56ef-1234567890ab"
	role   = "arn:aws:iam::" + account + ":role/s3tables-replication"
)

var (
	uuidPattern  = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	tokenPattern = regexp.MustCompile(`^\S+$`)
)

// The buckets later steps use: the lake holds the tables, the replica receives their copies.
var (
	lakeARN    = bucketARN("go-lake")
	replicaARN = bucketARN("go-replica")
)

func policyDocument(resource string, action string) string {
	doc, _ := json.Marshal(map[string]any{
		"Version": "2012-10-17",
		"Statement": []map[string]any{{
			"Sid": "ReadAccess", "Effect": "Allow",
			"Principal": map[string]string{"AWS": "arn:aws:iam::" + account + ":root"},
			"Action":    []string{action}, "Resource": resource,
		}},
	})
	return string(doc)
}

func (r *run) tableBuckets() {
	r.createBuckets()
	r.getAndListBuckets()
	r.bucketEncryption()
	r.bucketStorageClass()
	r.bucketMaintenance()
	r.bucketMetrics()
	r.bucketPolicy()
	r.bucketReplication()
	r.tags(lakeARN, map[string]string{"team": "analytics", "env": "test"})
	r.deleteBucket("go-archive")
}

func (r *run) createBuckets() {
	out, err := r.tables.CreateTableBucket(r.ctx, &s3tables.CreateTableBucketInput{
		Name: aws.String("go-lake"),
		EncryptionConfiguration: &types.EncryptionConfiguration{
			SseAlgorithm: types.SSEAlgorithmAwsKms, KmsKeyArn: aws.String(kmsKey)},
		StorageClassConfiguration: &types.StorageClassConfiguration{StorageClass: types.StorageClassIntelligentTiering},
		Tags:                      map[string]string{"team": "analytics", "env": "test"},
	})
	r.c.must("CreateTableBucket", err)
	r.c.str("CreateTableBucket", "arn", out.Arn, lakeARN)
	for _, name := range []string{"go-archive", "go-replica"} {
		out, err := r.tables.CreateTableBucket(r.ctx, &s3tables.CreateTableBucketInput{Name: aws.String(name)})
		r.c.must("CreateTableBucket", err)
		r.c.str("CreateTableBucket", "arn", out.Arn, bucketARN(name))
	}
	_, err = r.tables.CreateTableBucket(r.ctx, &s3tables.CreateTableBucketInput{Name: aws.String("go-lake")})
	r.c.errorCode("CreateTableBucket", err, "ConflictException", 409)
}

func (r *run) getAndListBuckets() {
	const op = "GetTableBucket"
	got, err := r.tables.GetTableBucket(r.ctx, &s3tables.GetTableBucketInput{TableBucketARN: aws.String(lakeARN)})
	r.c.must(op, err)
	r.c.str(op, "arn", got.Arn, lakeARN)
	r.c.str(op, "name", got.Name, "go-lake")
	r.c.str(op, "ownerAccountId", got.OwnerAccountId, account)
	createdAt := r.c.recent(op, "createdAt", got.CreatedAt, r.started)
	id := r.c.match(op, "tableBucketId", got.TableBucketId, uuidPattern)
	r.c.equal(op, "type", got.Type, types.TableBucketTypeCustomer)

	_, err = r.tables.GetTableBucket(r.ctx, &s3tables.GetTableBucketInput{TableBucketARN: aws.String(bucketARN("go-none"))})
	r.c.errorCode(op, err, "NotFoundException", 404)

	// One bucket per page, through the SDK's own paginator.
	const list = "ListTableBuckets"
	pager := s3tables.NewListTableBucketsPaginator(r.tables, &s3tables.ListTableBucketsInput{
		Prefix: aws.String("go-"), MaxBuckets: aws.Int32(1), Type: types.TableBucketTypeCustomer})
	var names []string
	for page := 0; pager.HasMorePages(); page++ {
		out, err := pager.NextPage(r.ctx)
		r.c.must(list, err)
		if len(out.TableBuckets) > 1 {
			r.c.fail(list, "tableBuckets", "%d buckets on a page of maxBuckets 1", len(out.TableBuckets))
		}
		if page == 0 {
			r.c.match(list, "continuationToken", out.ContinuationToken, tokenPattern)
		}
		for _, b := range out.TableBuckets {
			names = append(names, aws.ToString(b.Name))
			if aws.ToString(b.Name) != "go-lake" {
				continue
			}
			r.c.str(list, "tableBuckets[go-lake].arn", b.Arn, lakeARN)
			r.c.str(list, "tableBuckets[go-lake].ownerAccountId", b.OwnerAccountId, account)
			r.c.equal(list, "tableBuckets[go-lake].createdAt", aws.ToTime(b.CreatedAt).UnixMilli(), createdAt.UnixMilli())
			r.c.str(list, "tableBuckets[go-lake].tableBucketId", b.TableBucketId, id)
			r.c.equal(list, "tableBuckets[go-lake].type", b.Type, types.TableBucketTypeCustomer)
		}
	}
	r.c.equal(list, "tableBuckets[].name", names, []string{"go-archive", "go-lake", "go-replica"})

	out, err := r.tables.ListTableBuckets(r.ctx, &s3tables.ListTableBucketsInput{Prefix: aws.String("go-r")})
	r.c.must(list, err)
	r.c.equal(list, "len(tableBuckets) for prefix go-r", len(out.TableBuckets), 1)
	r.c.absent(list, "continuationToken", out.ContinuationToken)
}

func (r *run) bucketEncryption() {
	const op = "GetTableBucketEncryption"
	get := func(want types.EncryptionConfiguration, when string) {
		out, err := r.tables.GetTableBucketEncryption(r.ctx, &s3tables.GetTableBucketEncryptionInput{
			TableBucketARN: aws.String(lakeARN)})
		r.c.must(op, err)
		if out.EncryptionConfiguration == nil {
			r.c.fail(op, "encryptionConfiguration", "missing %s", when)
			return
		}
		r.c.equal(op, "encryptionConfiguration.sseAlgorithm "+when, out.EncryptionConfiguration.SseAlgorithm, want.SseAlgorithm)
		r.c.equal(op, "encryptionConfiguration.kmsKeyArn "+when, out.EncryptionConfiguration.KmsKeyArn, want.KmsKeyArn)
	}
	get(types.EncryptionConfiguration{SseAlgorithm: types.SSEAlgorithmAwsKms, KmsKeyArn: aws.String(kmsKey)},
		"after CreateTableBucket")
	_, err := r.tables.PutTableBucketEncryption(r.ctx, &s3tables.PutTableBucketEncryptionInput{
		TableBucketARN:          aws.String(lakeARN),
		EncryptionConfiguration: &types.EncryptionConfiguration{SseAlgorithm: types.SSEAlgorithmAes256}})
	r.c.must("PutTableBucketEncryption", err)
	get(types.EncryptionConfiguration{SseAlgorithm: types.SSEAlgorithmAes256}, "after PutTableBucketEncryption")
	_, err = r.tables.PutTableBucketEncryption(r.ctx, &s3tables.PutTableBucketEncryptionInput{
		TableBucketARN:          aws.String(lakeARN),
		EncryptionConfiguration: &types.EncryptionConfiguration{SseAlgorithm: types.SSEAlgorithmAwsKms}})
	r.c.errorCode("PutTableBucketEncryption", err, "BadRequestException", 400)
	_, err = r.tables.DeleteTableBucketEncryption(r.ctx, &s3tables.DeleteTableBucketEncryptionInput{
		TableBucketARN: aws.String(lakeARN)})
	r.c.must("DeleteTableBucketEncryption", err)
	get(types.EncryptionConfiguration{SseAlgorithm: types.SSEAlgorithmAes256}, "after DeleteTableBucketEncryption")
}

func (r *run) bucketStorageClass() {
	const op = "GetTableBucketStorageClass"
	get := func(want types.StorageClass) {
		out, err := r.tables.GetTableBucketStorageClass(r.ctx, &s3tables.GetTableBucketStorageClassInput{
			TableBucketARN: aws.String(lakeARN)})
		r.c.must(op, err)
		if out.StorageClassConfiguration == nil {
			r.c.fail(op, "storageClassConfiguration", "missing")
			return
		}
		r.c.equal(op, "storageClassConfiguration.storageClass", out.StorageClassConfiguration.StorageClass, want)
	}
	get(types.StorageClassIntelligentTiering)
	_, err := r.tables.PutTableBucketStorageClass(r.ctx, &s3tables.PutTableBucketStorageClassInput{
		TableBucketARN:            aws.String(lakeARN),
		StorageClassConfiguration: &types.StorageClassConfiguration{StorageClass: types.StorageClassStandard}})
	r.c.must("PutTableBucketStorageClass", err)
	get(types.StorageClassStandard)
}

func (r *run) bucketMaintenance() {
	const op = "GetTableBucketMaintenanceConfiguration"
	removal := string(types.TableBucketMaintenanceTypeIcebergUnreferencedFileRemoval)
	get := func(want types.TableBucketMaintenanceConfigurationValue, when string) {
		out, err := r.tables.GetTableBucketMaintenanceConfiguration(r.ctx,
			&s3tables.GetTableBucketMaintenanceConfigurationInput{TableBucketARN: aws.String(lakeARN)})
		r.c.must(op, err)
		r.c.str(op, "tableBucketARN", out.TableBucketARN, lakeARN)
		r.c.equal(op, "configuration "+when, out.Configuration,
			map[string]types.TableBucketMaintenanceConfigurationValue{removal: want})
	}
	// AWS's documented defaults: enabled, unreferenced after 3 days, deleted 10 days later.
	get(bucketMaintenance(types.MaintenanceStatusEnabled, 3, 10), "of a new bucket")
	_, err := r.tables.PutTableBucketMaintenanceConfiguration(r.ctx, &s3tables.PutTableBucketMaintenanceConfigurationInput{
		TableBucketARN: aws.String(lakeARN),
		Type:           types.TableBucketMaintenanceTypeIcebergUnreferencedFileRemoval,
		Value:          ptr(bucketMaintenance(types.MaintenanceStatusEnabled, 5, 14)),
	})
	r.c.must("PutTableBucketMaintenanceConfiguration", err)
	get(bucketMaintenance(types.MaintenanceStatusEnabled, 5, 14), "after PutTableBucketMaintenanceConfiguration")
}

func bucketMaintenance(status types.MaintenanceStatus, unreferenced, nonCurrent int32) types.TableBucketMaintenanceConfigurationValue {
	return types.TableBucketMaintenanceConfigurationValue{
		Status: status,
		Settings: &types.TableBucketMaintenanceSettingsMemberIcebergUnreferencedFileRemoval{
			Value: types.IcebergUnreferencedFileRemovalSettings{
				UnreferencedDays: aws.Int32(unreferenced), NonCurrentDays: aws.Int32(nonCurrent)}},
	}
}

func (r *run) bucketMetrics() {
	const op = "GetTableBucketMetricsConfiguration"
	in := &s3tables.GetTableBucketMetricsConfigurationInput{TableBucketARN: aws.String(lakeARN)}
	_, err := r.tables.GetTableBucketMetricsConfiguration(r.ctx, in)
	r.c.errorCode(op+" before Put", err, "NotFoundException", 404)
	for i := 0; i < 2; i++ {
		_, err = r.tables.PutTableBucketMetricsConfiguration(r.ctx, &s3tables.PutTableBucketMetricsConfigurationInput{
			TableBucketARN: aws.String(lakeARN)})
		r.c.must("PutTableBucketMetricsConfiguration", err)
	}
	out, err := r.tables.GetTableBucketMetricsConfiguration(r.ctx, in)
	r.c.must(op, err)
	r.c.str(op, "tableBucketARN", out.TableBucketARN, lakeARN)
	r.c.match(op, "id", out.Id, tokenPattern)
	_, err = r.tables.DeleteTableBucketMetricsConfiguration(r.ctx, &s3tables.DeleteTableBucketMetricsConfigurationInput{
		TableBucketARN: aws.String(lakeARN)})
	r.c.must("DeleteTableBucketMetricsConfiguration", err)
	_, err = r.tables.GetTableBucketMetricsConfiguration(r.ctx, in)
	r.c.errorCode(op+" after Delete", err, "NotFoundException", 404)
}

func (r *run) bucketPolicy() {
	const op = "GetTableBucketPolicy"
	in := &s3tables.GetTableBucketPolicyInput{TableBucketARN: aws.String(lakeARN)}
	_, err := r.tables.GetTableBucketPolicy(r.ctx, in)
	r.c.errorCode(op+" before Put", err, "NotFoundException", 404)
	policy := policyDocument(lakeARN+"/table/*", "s3tables:GetTable")
	_, err = r.tables.PutTableBucketPolicy(r.ctx, &s3tables.PutTableBucketPolicyInput{
		TableBucketARN: aws.String(lakeARN), ResourcePolicy: aws.String(policy)})
	r.c.must("PutTableBucketPolicy", err)
	out, err := r.tables.GetTableBucketPolicy(r.ctx, in)
	r.c.must(op, err)
	r.c.str(op, "resourcePolicy", out.ResourcePolicy, policy)
	_, err = r.tables.DeleteTableBucketPolicy(r.ctx, &s3tables.DeleteTableBucketPolicyInput{TableBucketARN: aws.String(lakeARN)})
	r.c.must("DeleteTableBucketPolicy", err)
	_, err = r.tables.GetTableBucketPolicy(r.ctx, in)
	r.c.errorCode(op+" after Delete", err, "NotFoundException", 404)
}

func (r *run) bucketReplication() {
	const op = "GetTableBucketReplication"
	in := &s3tables.GetTableBucketReplicationInput{TableBucketARN: aws.String(bucketARN("go-archive"))}
	_, err := r.tables.GetTableBucketReplication(r.ctx, in)
	r.c.errorCode(op+" before Put", err, "NotFoundException", 404)
	configuration := &types.TableBucketReplicationConfiguration{
		Role: aws.String(role),
		Rules: []types.TableBucketReplicationRule{{Destinations: []types.ReplicationDestination{
			{DestinationTableBucketARN: aws.String(replicaARN)}}}},
	}
	put, err := r.tables.PutTableBucketReplication(r.ctx, &s3tables.PutTableBucketReplicationInput{
		TableBucketARN: aws.String(bucketARN("go-archive")), Configuration: configuration})
	r.c.must("PutTableBucketReplication", err)
	token := r.c.match("PutTableBucketReplication", "versionToken", put.VersionToken, tokenPattern)
	r.c.str("PutTableBucketReplication", "status", put.Status, "pending")
	out, err := r.tables.GetTableBucketReplication(r.ctx, in)
	r.c.must(op, err)
	r.c.str(op, "versionToken", out.VersionToken, token)
	r.c.equal(op, "configuration", out.Configuration, configuration)

	_, err = r.tables.DeleteTableBucketReplication(r.ctx, &s3tables.DeleteTableBucketReplicationInput{
		TableBucketARN: aws.String(bucketARN("go-archive")), VersionToken: aws.String(token)})
	r.c.must("DeleteTableBucketReplication", err)
	_, err = r.tables.GetTableBucketReplication(r.ctx, in)
	r.c.errorCode(op+" after Delete", err, "NotFoundException", 404)
}

// tags checks ListTagsForResource, TagResource and UntagResource on a bucket or table ARN that
// was created with the given tags.
func (r *run) tags(arn string, initial map[string]string) {
	const op = "ListTagsForResource"
	list := func(want map[string]string, when string) {
		out, err := r.tables.ListTagsForResource(r.ctx, &s3tables.ListTagsForResourceInput{ResourceArn: aws.String(arn)})
		r.c.must(op, err)
		r.c.equal(op, "tags "+when, out.Tags, want)
	}
	list(initial, "given at creation")
	_, err := r.tables.TagResource(r.ctx, &s3tables.TagResourceInput{
		ResourceArn: aws.String(arn), Tags: map[string]string{"owner": "data-eng", "env": "prod"}})
	r.c.must("TagResource", err)
	want := map[string]string{"owner": "data-eng", "env": "prod"}
	for k, v := range initial {
		if _, replaced := want[k]; !replaced {
			want[k] = v
		}
	}
	list(want, "after TagResource")
	_, err = r.tables.UntagResource(r.ctx, &s3tables.UntagResourceInput{
		ResourceArn: aws.String(arn), TagKeys: []string{"env", "absent-key"}})
	r.c.must("UntagResource", err)
	delete(want, "env")
	list(want, "after UntagResource")
}

func (r *run) deleteBucket(name string) {
	_, err := r.tables.DeleteTableBucket(r.ctx, &s3tables.DeleteTableBucketInput{TableBucketARN: aws.String(bucketARN(name))})
	r.c.must("DeleteTableBucket", err)
	_, err = r.tables.GetTableBucket(r.ctx, &s3tables.GetTableBucketInput{TableBucketARN: aws.String(bucketARN(name))})
	r.c.errorCode("GetTableBucket after DeleteTableBucket", err, "NotFoundException", 404)
}

func ptr[T any](v T) *T { return &v }
