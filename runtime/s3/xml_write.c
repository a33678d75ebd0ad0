/*
 * The writer half of xml.h: S3's namespace, its owner and ETag elements, its whole-second times
 * and its URL encoding. Writing and escaping are the shared writer's (runtime/http/xml_writer.c),
 * which these functions call.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/percent.h"
#include "s3/request.h"
#include "s3/xml.h"

void floe_s3_xml_begin_plain(floe_s3_xml_t *x, const char *root)
{
    floe_xml_begin(x);
    floe_xml_open(x, root);
}

void floe_s3_xml_begin(floe_s3_xml_t *x, const char *root)
{
    floe_xml_begin(x);
    floe_xml_open_ns(x, root, FLOE_S3_XMLNS);
}

void floe_s3_xml_dispose(floe_s3_xml_t *x)
{
    floe_xml_dispose(x);
}

void floe_s3_xml_open(floe_s3_xml_t *x, const char *name)
{
    floe_xml_open(x, name);
}

void floe_s3_xml_close(floe_s3_xml_t *x, const char *name)
{
    floe_xml_close(x, name);
}

void floe_s3_xml_text(floe_s3_xml_t *x, const char *s, size_t n)
{
    floe_xml_text(x, s, n);
}

void floe_s3_xml_elem(floe_s3_xml_t *x, const char *name, const char *text)
{
    floe_xml_elem(x, name, text);
}

void floe_s3_xml_elem_int(floe_s3_xml_t *x, const char *name, int64_t v)
{
    floe_xml_elem_int(x, name, v);
}

void floe_s3_xml_elem_bool(floe_s3_xml_t *x, const char *name, bool v)
{
    floe_xml_elem_bool(x, name, v);
}

void floe_s3_iso8601(int64_t ms, char *buf, size_t size)
{
    time_t secs = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&secs, &tm);
    strftime(buf, size, "%Y-%m-%dT%H:%M:%S.000Z", &tm);
}

void floe_s3_xml_elem_time(floe_s3_xml_t *x, const char *name, int64_t ms)
{
    char buf[40];
    floe_s3_iso8601(ms, buf, sizeof(buf));
    floe_s3_xml_elem(x, name, buf);
}

void floe_s3_xml_elem_etag(floe_s3_xml_t *x, const char *name, const char *etag)
{
    floe_s3_xml_open(x, name);
    floe_xml_raw(x, "&quot;", strlen("&quot;"));
    floe_s3_xml_text(x, etag, strlen(etag));
    floe_xml_raw(x, "&quot;", strlen("&quot;"));
    floe_s3_xml_close(x, name);
}

void floe_s3_xml_owner(floe_s3_xml_t *x, const char *element)
{
    floe_s3_xml_open(x, element);
    floe_s3_xml_elem(x, "ID", FLOE_S3_OWNER_ID);
    floe_s3_xml_elem(x, "DisplayName", FLOE_S3_OWNER_NAME);
    floe_s3_xml_close(x, element);
}


char *floe_s3_url_encode(h2o_mem_pool_t *pool, const char *s)
{
    size_t n = strlen(s);
    char *out = h2o_mem_alloc_pool(pool, FLOE_PERCENT_ENCODED_MAX(n));

    floe_percent_encode(out, s, n, true);
    return out;
}
