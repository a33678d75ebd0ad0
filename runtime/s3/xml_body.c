/*
 * The request-body readers of xml_body.h, on the XML reader of xml.h. Each walks one document
 * shape and stops at the first thing S3 would refuse; the document is freed before returning, so
 * every string handed out is a copy in the caller's pool.
 */
#include <stdlib.h>
#include <string.h>

#include "s3/xml.h"
#include "s3/xml_body.h"

static floe_s3_xml_body_rc_t ok(void)
{
    return (floe_s3_xml_body_rc_t){true, FLOE_S3_MalformedXML};
}

static floe_s3_xml_body_rc_t refuse(floe_s3_error_t e)
{
    return (floe_s3_xml_body_rc_t){false, e};
}

int floe_s3_part_number_parse(const char *s)
{
    char *end;
    long v = s != NULL ? strtol(s, &end, 10) : 0;
    return s != NULL && *s != '\0' && *end == '\0' && v >= FLOE_S3_MIN_PART_NUMBER && v <= FLOE_S3_MAX_PART_NUMBER
               ? (int)v
               : 0;
}

static char *unquote(char *etag)
{
    size_t n = strlen(etag);
    if (n >= 2 && etag[0] == '"' && etag[n - 1] == '"') {
        etag[n - 1] = '\0';
        return etag + 1;
    }
    return etag;
}

/* Reads the <Part> children of root into parts (room for FLOE_S3_MAX_PART_NUMBER). */
static floe_s3_xml_body_rc_t read_parts(h2o_mem_pool_t *pool, floe_s3_xml_node_t *root,
                                        floe_s3_listed_part_t *parts, size_t *n_parts)
{
    size_t n = 0;

    for (floe_s3_xml_node_t *node = floe_s3_xml_child(root, "Part"); node != NULL;
         node = floe_s3_xml_next(node, "Part")) {
        char *number = floe_s3_xml_child_text(pool, node, "PartNumber");
        char *etag = floe_s3_xml_child_text(pool, node, "ETag");
        if (n == FLOE_S3_MAX_PART_NUMBER || etag == NULL || (parts[n].number = floe_s3_part_number_parse(number)) == 0)
            return refuse(FLOE_S3_MalformedXML);
        if (n > 0 && parts[n].number <= parts[n - 1].number)
            return refuse(FLOE_S3_InvalidPartOrder);
        parts[n++].etag = unquote(etag);
    }
    if (n == 0)
        return refuse(FLOE_S3_MalformedXML);
    *n_parts = n;
    return ok();
}

floe_s3_xml_body_rc_t floe_s3_xml_read_complete(h2o_mem_pool_t *pool, const char *body, size_t len,
                                                floe_s3_listed_part_t **parts, size_t *n_parts)
{
    floe_s3_xml_doc_t *doc = floe_s3_xml_parse(body, len);
    floe_s3_xml_node_t *root = doc != NULL ? floe_s3_xml_root(doc, "CompleteMultipartUpload") : NULL;
    floe_s3_listed_part_t *list;
    floe_s3_xml_body_rc_t rc = refuse(FLOE_S3_MalformedXML);

    if (root != NULL) {
        list = h2o_mem_alloc_pool(pool, FLOE_S3_MAX_PART_NUMBER * sizeof(*list));
        if ((rc = read_parts(pool, root, list, n_parts)).is_ok)
            *parts = list;
    }
    floe_s3_xml_free(doc);
    return rc;
}

floe_s3_xml_body_rc_t floe_s3_xml_read_delete(h2o_mem_pool_t *pool, const char *body, size_t len, char ***keys,
                                              size_t *n_keys, bool *is_quiet)
{
    floe_s3_xml_doc_t *doc = floe_s3_xml_parse(body, len);
    floe_s3_xml_node_t *root = doc != NULL ? floe_s3_xml_root(doc, "Delete") : NULL;
    floe_s3_xml_body_rc_t rc = refuse(FLOE_S3_MalformedXML);
    char **list, *quiet;
    size_t n = 0;

    if (root == NULL)
        goto Exit;
    quiet = floe_s3_xml_child_text(pool, root, "Quiet");
    list = h2o_mem_alloc_pool(pool, FLOE_S3_MAX_DELETE_KEYS * sizeof(*list));
    for (floe_s3_xml_node_t *obj = floe_s3_xml_child(root, "Object"); obj != NULL;
         obj = floe_s3_xml_next(obj, "Object")) {
        char *key = floe_s3_xml_child_text(pool, obj, "Key");
        if (key == NULL || n == FLOE_S3_MAX_DELETE_KEYS)
            goto Exit;
        list[n++] = key;
    }
    if (n == 0)
        goto Exit;
    *keys = list;
    *n_keys = n;
    *is_quiet = quiet != NULL && strcmp(quiet, "true") == 0;
    rc = ok();
Exit:
    floe_s3_xml_free(doc);
    return rc;
}

floe_s3_xml_body_rc_t floe_s3_xml_read_location(h2o_mem_pool_t *pool, const char *body, size_t len,
                                                const char **region)
{
    floe_s3_xml_doc_t *doc;
    floe_s3_xml_node_t *root;
    char *text;

    if (len == 0) {
        *region = "";
        return ok();
    }
    if ((doc = floe_s3_xml_parse(body, len)) == NULL)
        return refuse(FLOE_S3_MalformedXML);
    if ((root = floe_s3_xml_root(doc, "CreateBucketConfiguration")) == NULL) {
        floe_s3_xml_free(doc);
        return refuse(FLOE_S3_MalformedXML);
    }
    text = floe_s3_xml_child_text(pool, root, "LocationConstraint");
    floe_s3_xml_free(doc);
    *region = text != NULL ? text : "";
    return ok();
}
