// S3 in a table's warehouse, as an Iceberg writer uses it: read the metadata file CreateTable
// wrote, put the next metadata file and move the table's pointer to it (UpdateTableMetadataLocation),
// and upload a data file in parts. The warehouse comes from GetTable's warehouseLocation.
package main

import (
	"bytes"
	"crypto/md5"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/aws-sdk-go-v2/service/s3tables"
)

// S3's smallest part but the last.
const minPartSize = 5 * 1024 * 1024

var multipartETagPattern = regexp.MustCompile(`^"[0-9a-f]{32}-2"$`)

func (r *run) warehouseObjects() {
	bucket := strings.TrimPrefix(orders.warehouse, "s3://")
	metadata := r.readMetadata(bucket)
	r.commitMetadata(bucket, metadata)
	r.multipartUpload(bucket)
	_, err := r.s3.ListObjectsV2(r.ctx, &s3.ListObjectsV2Input{Bucket: aws.String(bucket)})
	r.c.errorCode("ListObjectsV2 on a warehouse", err, "MethodNotAllowed", 405)
	r.cleanUp()
	// The table is gone, and its warehouse bucket with it.
	_, err = r.s3.GetObject(r.ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(keyOf(bucket, orders.metadataLocation))})
	r.c.errorCode("GetObject in a deleted table's warehouse", err, "NoSuchBucket", 404)
}

func keyOf(bucket, location string) string {
	return strings.TrimPrefix(location, "s3://"+bucket+"/")
}

// readMetadata gets the metadata.json CreateTable wrote and checks it describes the table created.
func (r *run) readMetadata(bucket string) []byte {
	const op = "GetObject"
	out, err := r.s3.GetObject(r.ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(keyOf(bucket, orders.metadataLocation))})
	r.c.must(op+" of the table's metadata.json", err)
	body, err := io.ReadAll(out.Body)
	out.Body.Close()
	r.c.must(op+" body", err)
	r.c.equal(op, "ContentLength", aws.ToInt64(out.ContentLength), int64(len(body)))
	r.c.match(op, "ETag", out.ETag, regexp.MustCompile(`^"[0-9a-f]{32}"$`))
	var md struct {
		FormatVersion int    `json:"format-version"`
		Location      string `json:"location"`
		Schemas       []struct {
			Fields []struct {
				Name string `json:"name"`
			} `json:"fields"`
		} `json:"schemas"`
		PartitionSpecs []struct {
			Fields []struct {
				Transform string `json:"transform"`
				Name      string `json:"name"`
			} `json:"fields"`
		} `json:"partition-specs"`
		Properties map[string]string `json:"properties"`
	}
	if err := json.Unmarshal(body, &md); err != nil {
		r.c.fail(op, "Body", "the metadata file is not JSON: %v", err)
		return body
	}
	r.c.equal(op, "Body format-version", md.FormatVersion, 2)
	r.c.equal(op, "Body location", md.Location, orders.warehouse)
	var fields []string
	for _, s := range md.Schemas {
		for _, f := range s.Fields {
			fields = append(fields, f.Name)
		}
	}
	r.c.equal(op, "Body schemas[].fields[].name", fields, []string{"order_id", "customer", "amount", "ordered_at"})
	if len(md.PartitionSpecs) == 1 && len(md.PartitionSpecs[0].Fields) == 1 {
		r.c.equal(op, "Body partition-specs[0].fields[0]", md.PartitionSpecs[0].Fields[0].Name+"="+md.PartitionSpecs[0].Fields[0].Transform, "ordered_day=day")
	} else {
		r.c.fail(op, "Body partition-specs", "got %+v, want one spec with the day(ordered_at) field", md.PartitionSpecs)
	}
	r.c.equal(op, "Body properties.comment", md.Properties["comment"], "orders from the shop")
	return body
}

// commitMetadata writes the next metadata file with PutObject and swaps the table's pointer to it.
func (r *run) commitMetadata(bucket string, metadata []byte) {
	next := orders.warehouse + "/metadata/00001-7d0a2f4c-63a1-4c8e-9b1e-0c5b3e1f9a01.metadata.json"
	sum := md5.Sum(metadata)
	put, err := r.s3.PutObject(r.ctx, &s3.PutObjectInput{
		Bucket: aws.String(bucket), Key: aws.String(keyOf(bucket, next)),
		Body: bytes.NewReader(metadata), ContentType: aws.String("application/json")})
	r.c.must("PutObject of the next metadata.json", err)
	r.c.str("PutObject", "ETag", put.ETag, `"`+hex.EncodeToString(sum[:])+`"`)
	// The SDK sends a CRC32 of every body by default; S3 verifies it, keeps it and echoes it.
	r.c.str("PutObject", "ChecksumCRC32", put.ChecksumCRC32, crc32Base64(metadata))
	r.c.equal("PutObject", "ChecksumType", put.ChecksumType, s3types.ChecksumTypeFullObject)

	got, err := r.s3.GetObject(r.ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(keyOf(bucket, next))})
	r.c.must("GetObject of the object just put", err)
	body, err := io.ReadAll(got.Body)
	got.Body.Close()
	r.c.must("GetObject body", err)
	r.c.equal("GetObject", "Body (same bytes as put)", bytes.Equal(body, metadata), true)
	r.c.str("GetObject", "ContentType", got.ContentType, "application/json")
	r.c.str("GetObject", "ChecksumCRC32", got.ChecksumCRC32, crc32Base64(metadata))
	r.c.equal("GetObject", "ChecksumType", got.ChecksumType, s3types.ChecksumTypeFullObject)
	head, err := r.s3.HeadObject(r.ctx, &s3.HeadObjectInput{Bucket: aws.String(bucket), Key: aws.String(keyOf(bucket, next)),
		ChecksumMode: s3types.ChecksumModeEnabled})
	r.c.must("HeadObject", err)
	r.c.equal("HeadObject", "ContentLength", aws.ToInt64(head.ContentLength), int64(len(metadata)))
	r.c.str("HeadObject", "ETag", head.ETag, aws.ToString(put.ETag))
	r.c.str("HeadObject", "ContentType", head.ContentType, "application/json")
	r.c.str("HeadObject", "ChecksumCRC32", head.ChecksumCRC32, crc32Base64(metadata))
	r.c.equal("HeadObject", "ChecksumType", head.ChecksumType, s3types.ChecksumTypeFullObject)

	const op = "UpdateTableMetadataLocation"
	_, err = r.tables.UpdateTableMetadataLocation(r.ctx, &s3tables.UpdateTableMetadataLocationInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("orders"),
		VersionToken: aws.String("0000000000000000000000000000000000000000"), MetadataLocation: aws.String(next)})
	r.c.errorCode(op+" with a wrong versionToken", err, "ConflictException", 409)
	out, err := r.tables.UpdateTableMetadataLocation(r.ctx, &s3tables.UpdateTableMetadataLocationInput{
		TableBucketARN: aws.String(lakeARN), Namespace: aws.String("sales"), Name: aws.String("orders"),
		VersionToken: aws.String(orders.versionToken), MetadataLocation: aws.String(next)})
	r.c.must(op, err)
	r.c.str(op, "name", out.Name, "orders")
	r.c.str(op, "tableARN", out.TableARN, orders.arn)
	r.c.equal(op, "namespace", out.Namespace, []string{"sales"})
	token := r.c.match(op, "versionToken", out.VersionToken, tokenPattern)
	if token == orders.versionToken {
		r.c.fail(op, "versionToken", "unchanged (%q) by the update", token)
	}
	r.c.str(op, "metadataLocation", out.MetadataLocation, next)

	table, err := r.tables.GetTable(r.ctx, &s3tables.GetTableInput{TableArn: aws.String(orders.arn)})
	r.c.must("GetTable after UpdateTableMetadataLocation", err)
	r.c.str("GetTable after UpdateTableMetadataLocation", "metadataLocation", table.MetadataLocation, next)
	r.c.str("GetTable after UpdateTableMetadataLocation", "versionToken", table.VersionToken, token)
	r.c.str("GetTable after UpdateTableMetadataLocation", "modifiedBy", table.ModifiedBy, account)
	r.c.recent("GetTable after UpdateTableMetadataLocation", "modifiedAt", table.ModifiedAt, orders.createdAt)
	// cleanUp deletes with the token from before the update: that must conflict first.
}

// multipartUpload uploads a data file in two parts with CRC32 checksums and reads it back whole
// and by range.
func (r *run) multipartUpload(bucket string) {
	key := "data/ordered_day=2026-01-15/00000-0-go-sdk.parquet"
	created, err := r.s3.CreateMultipartUpload(r.ctx, &s3.CreateMultipartUploadInput{Bucket: aws.String(bucket), Key: aws.String(key),
		ChecksumAlgorithm: s3types.ChecksumAlgorithmCrc32})
	r.c.must("CreateMultipartUpload", err)
	r.c.equal("CreateMultipartUpload", "ChecksumAlgorithm", created.ChecksumAlgorithm, s3types.ChecksumAlgorithmCrc32)
	r.c.str("CreateMultipartUpload", "Bucket", created.Bucket, bucket)
	r.c.str("CreateMultipartUpload", "Key", created.Key, key)
	uploadID := r.c.match("CreateMultipartUpload", "UploadId", created.UploadId, tokenPattern)

	parts := [][]byte{bytes.Repeat([]byte("PAR1-go-sdk-part-one-"), minPartSize/21+1), []byte("the last part is small")}
	var completed []s3types.CompletedPart
	for i, part := range parts {
		n := int32(i + 1)
		sum := md5.Sum(part)
		out, err := r.s3.UploadPart(r.ctx, &s3.UploadPartInput{Bucket: aws.String(bucket), Key: aws.String(key),
			UploadId: aws.String(uploadID), PartNumber: aws.Int32(n), Body: bytes.NewReader(part)})
		r.c.must(fmt.Sprintf("UploadPart %d", n), err)
		r.c.str("UploadPart", fmt.Sprintf("ETag of part %d", n), out.ETag, `"`+hex.EncodeToString(sum[:])+`"`)
		r.c.str("UploadPart", fmt.Sprintf("ChecksumCRC32 of part %d", n), out.ChecksumCRC32, crc32Base64(part))
		completed = append(completed, s3types.CompletedPart{ETag: out.ETag, PartNumber: aws.Int32(n), ChecksumCRC32: out.ChecksumCRC32})
	}
	done, err := r.s3.CompleteMultipartUpload(r.ctx, &s3.CompleteMultipartUploadInput{Bucket: aws.String(bucket),
		Key: aws.String(key), UploadId: aws.String(uploadID), MultipartUpload: &s3types.CompletedMultipartUpload{Parts: completed}})
	r.c.must("CompleteMultipartUpload", err)
	r.c.str("CompleteMultipartUpload", "Bucket", done.Bucket, bucket)
	r.c.str("CompleteMultipartUpload", "Key", done.Key, key)
	etag := r.c.match("CompleteMultipartUpload", "ETag", done.ETag, multipartETagPattern)
	// A CRC32 upload's checksum is the CRC32 of its parts' CRC32s, then -<parts> (COMPOSITE).
	composite := crc32Base64(append(crc32Raw(parts[0]), crc32Raw(parts[1])...)) + "-2"
	r.c.str("CompleteMultipartUpload", "ChecksumCRC32", done.ChecksumCRC32, composite)
	r.c.equal("CompleteMultipartUpload", "ChecksumType", done.ChecksumType, s3types.ChecksumTypeComposite)

	whole := bytes.Join(parts, nil)
	got, err := r.s3.GetObject(r.ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	r.c.must("GetObject of the uploaded file", err)
	body, err := io.ReadAll(got.Body)
	got.Body.Close()
	r.c.must("GetObject body", err)
	r.c.equal("GetObject", "Body (the parts in order)", bytes.Equal(body, whole), true)
	r.c.equal("GetObject", "ContentLength", aws.ToInt64(got.ContentLength), int64(len(whole)))
	r.c.str("GetObject", "ETag", got.ETag, etag)
	r.c.str("GetObject", "ChecksumCRC32", got.ChecksumCRC32, composite)
	r.c.equal("GetObject", "ChecksumType", got.ChecksumType, s3types.ChecksumTypeComposite)

	tail, err := r.s3.GetObject(r.ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key),
		Range: aws.String(fmt.Sprintf("bytes=%d-", len(parts[0])))})
	r.c.must("GetObject with a Range", err)
	body, err = io.ReadAll(tail.Body)
	tail.Body.Close()
	r.c.must("GetObject body", err)
	r.c.equal("GetObject", "Body of the range (the last part)", string(body), string(parts[1]))
	r.c.str("GetObject", "ContentRange", tail.ContentRange,
		fmt.Sprintf("bytes %d-%d/%d", len(parts[0]), len(whole)-1, len(whole)))
}

// crc32Raw is the big-endian CRC32 of b, as S3 encodes checksums before base64.
func crc32Raw(b []byte) []byte {
	return binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(b))
}

func crc32Base64(b []byte) string {
	return base64.StdEncoding.EncodeToString(crc32Raw(b))
}
