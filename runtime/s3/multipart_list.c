/*
 * ListParts and ListMultipartUploads. Both page by markers (part-number-marker; key-marker and
 * upload-id-marker) and read one row more than they return to know whether the page is
 * truncated.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListParts.html
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListMultipartUploads.html
 */
#include <stdlib.h>
#include <string.h>

#include "base/failure.h"
#include "s3/checksum.h"
#include "s3/error.h"
#include "s3/ops.h"
#include "s3/xml.h"

#define MAX_PAGE 1000

/* An integer parameter in 0..2^31-1 (absent: fallback), capped at cap; -1 when invalid. */
static long parse_count(const char *s, long fallback, long cap)
{
    char *end;
    long v;

    if (s == NULL)
        return fallback;
    v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 0 || v > INT32_MAX)
        return -1;
    return v > cap ? cap : v;
}

static int invalid_argument(floe_s3_req_t *r, const char *name)
{
    return floe_s3_fail(r, FLOE_S3_InvalidArgument,
                             floe_s3_printf(r, "Provided %s not an integer or within integer range", name), "ArgumentName",
                             name, NULL);
}

static void write_part(floe_s3_req_t *r, floe_s3_xml_t *x, const floe_store_upload_t *up, const floe_store_part_t *p)
{
    floe_s3_xml_open(x, "Part");
    floe_s3_xml_elem_int(x, "PartNumber", p->part_number);
    floe_s3_xml_elem_time(x, "LastModified", p->last_modified_ms);
    floe_s3_xml_elem_etag(x, "ETag", p->etag);
    floe_s3_xml_elem_int(x, "Size", p->size);
    if (p->checksum != NULL && up->checksum_algorithm != NULL)
        floe_s3_xml_elem(x, floe_s3_printf(r, "Checksum%s", up->checksum_algorithm), p->checksum);
    floe_s3_xml_close(x, "Part");
}

int floe_s3_list_parts(floe_s3_req_t *r)
{
    floe_store_bucket_t b;
    floe_store_upload_t up;
    floe_store_part_t *parts;
    const char *id = floe_s3_query(r, "uploadId");
    long max = parse_count(floe_s3_query(r, "max-parts"), MAX_PAGE, MAX_PAGE);
    long marker = parse_count(floe_s3_query(r, "part-number-marker"), 0, INT32_MAX);
    size_t n;
    floe_s3_xml_t x;
    bool is_truncated;

    if (max < 0)
        return invalid_argument(r, "max-parts");
    if (marker < 0)
        return invalid_argument(r, "part-number-marker");
    if (floe_s3_bucket_lookup(r, &b) != 0)
        return FLOE_EFAIL;
    switch (floe_store_upload_get(r->st, &r->req->pool, b.id, r->key, id, &up)) {
    case FLOE_OK: break;
    case FLOE_ENOTFOUND: return floe_s3_fail(r, FLOE_S3_NoSuchUpload, NULL, "UploadId", id, NULL);
    default: return floe_s3_fail_internal(r, "cannot look the upload up");
    }
    if (floe_store_part_list(r->st, &r->req->pool, up.id, (int)marker, (size_t)max + 1, &parts, &n) != FLOE_OK)
        return floe_s3_fail_internal(r, "cannot list the parts");
    if ((is_truncated = n > (size_t)max))
        n = (size_t)max;
    floe_s3_xml_begin(&x, "ListPartsResult");
    floe_s3_xml_elem(&x, "Bucket", r->bucket);
    floe_s3_xml_elem(&x, "Key", r->key);
    floe_s3_xml_elem(&x, "UploadId", up.upload_id);
    floe_s3_xml_elem_int(&x, "PartNumberMarker", marker);
    if (n > 0)
        floe_s3_xml_elem_int(&x, "NextPartNumberMarker", parts[n - 1].part_number);
    floe_s3_xml_elem_int(&x, "MaxParts", max);
    floe_s3_xml_elem_bool(&x, "IsTruncated", is_truncated);
    for (size_t i = 0; i < n; i++)
        write_part(r, &x, &up, &parts[i]);
    floe_s3_xml_owner(&x, "Initiator");
    floe_s3_xml_owner(&x, "Owner");
    floe_s3_xml_elem(&x, "StorageClass", "STANDARD");
    floe_s3_xml_elem(&x, "ChecksumAlgorithm", up.checksum_algorithm);
    floe_s3_xml_elem(&x, "ChecksumType", up.checksum_type);
    floe_s3_xml_close(&x, "ListPartsResult");
    floe_s3_reply(r, 200, x.buf, x.len);
    floe_s3_xml_dispose(&x);
    return FLOE_OK;
}

static const char *maybe_encoded(floe_s3_req_t *r, bool is_url, const char *text)
{
    return text != NULL && is_url ? floe_s3_url_encode(&r->req->pool, text) : text;
}

static void write_upload(floe_s3_req_t *r, floe_s3_xml_t *x, bool is_url, const floe_store_upload_t *u)
{
    floe_s3_xml_open(x, "Upload");
    floe_s3_xml_elem(x, "Key", maybe_encoded(r, is_url, u->key));
    floe_s3_xml_elem(x, "UploadId", u->upload_id);
    floe_s3_xml_owner(x, "Initiator");
    floe_s3_xml_owner(x, "Owner");
    floe_s3_xml_elem(x, "StorageClass", "STANDARD");
    floe_s3_xml_elem_time(x, "Initiated", u->initiated_ms);
    floe_s3_xml_elem(x, "ChecksumAlgorithm", u->checksum_algorithm);
    floe_s3_xml_elem(x, "ChecksumType", u->checksum_type);
    floe_s3_xml_close(x, "Upload");
}

int floe_s3_list_multipart_uploads(floe_s3_req_t *r)
{
    floe_store_bucket_t b;
    floe_store_upload_t *ups;
    const char *prefix = floe_s3_query(r, "prefix"), *key_marker = floe_s3_query(r, "key-marker");
    const char *id_marker = floe_s3_query(r, "upload-id-marker"), *encoding = floe_s3_query(r, "encoding-type");
    const char *delimiter = floe_s3_query(r, "delimiter");
    long max = parse_count(floe_s3_query(r, "max-uploads"), MAX_PAGE, MAX_PAGE);
    bool is_url = encoding != NULL && strcmp(encoding, "url") == 0, is_truncated;
    floe_s3_xml_t x;
    size_t n;

    if (max < 0)
        return invalid_argument(r, "max-uploads");
    if (delimiter != NULL && *delimiter != '\0')
        return floe_s3_fail(r, FLOE_S3_NotImplemented, "Floe does not implement ListMultipartUploads with a delimiter.", NULL);
    if (floe_s3_bucket_lookup(r, &b) != 0)
        return FLOE_EFAIL;
    if (floe_store_upload_list(r->st, &r->req->pool, b.id, prefix, key_marker && *key_marker ? key_marker : NULL,
                               id_marker && *id_marker ? id_marker : NULL, (size_t)max + 1, &ups, &n) != FLOE_OK)
        return floe_s3_fail_internal(r, "cannot list the uploads");
    if ((is_truncated = n > (size_t)max))
        n = (size_t)max;
    floe_s3_xml_begin(&x, "ListMultipartUploadsResult");
    floe_s3_xml_elem(&x, "Bucket", r->bucket);
    floe_s3_xml_elem(&x, "KeyMarker", maybe_encoded(r, is_url, key_marker ? key_marker : ""));
    floe_s3_xml_elem(&x, "UploadIdMarker", id_marker ? id_marker : "");
    if (is_truncated && n > 0) {
        floe_s3_xml_elem(&x, "NextKeyMarker", maybe_encoded(r, is_url, ups[n - 1].key));
        floe_s3_xml_elem(&x, "NextUploadIdMarker", ups[n - 1].upload_id);
    }
    floe_s3_xml_elem(&x, "Prefix", maybe_encoded(r, is_url, prefix));
    floe_s3_xml_elem(&x, "EncodingType", is_url ? "url" : NULL);
    floe_s3_xml_elem_int(&x, "MaxUploads", max);
    floe_s3_xml_elem_bool(&x, "IsTruncated", is_truncated);
    for (size_t i = 0; i < n; i++)
        write_upload(r, &x, is_url, &ups[i]);
    floe_s3_xml_close(&x, "ListMultipartUploadsResult");
    floe_s3_reply(r, 200, x.buf, x.len);
    floe_s3_xml_dispose(&x);
    return FLOE_OK;
}
