/*
 * TemplateURL (template_url.h): a URL read as an address in Floe's own S3, and the object read
 * through the store. AWS's messages for a URL it cannot use are those seen from CreateStack
 * ("TemplateURL must be an Amazon S3 URL.", "TemplateURL must reference a valid S3 object to which
 * you have access."); a template over 1 MB has no documented message, so Floe words its own.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cloudformation/stack_api.h"
#include "cloudformation/template_url.h"
#include "store/store.h"

#define MSG_NOT_S3 "TemplateURL must be an Amazon S3 URL."
#define MSG_NO_OBJECT "TemplateURL must reference a valid S3 object to which you have access."

static const char *const aws_suffixes[] = {".amazonaws.com", ".amazonaws.com.cn"};

static bool has_suffix(const char *s, size_t len, const char *suffix, size_t *prefix_len /* OUT */)
{
    size_t n = strlen(suffix);

    if (len < n || memcmp(s + len - n, suffix, n) != 0)
        return false;
    *prefix_len = len - n;
    return true;
}

/* A region name as it appears in an S3 host: letters, digits and dashes. */
static bool is_region(const char *s, size_t len)
{
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (!islower((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) && s[i] != '-')
            return false;
    }
    return true;
}

/* AWS's S3 endpoint labels before amazonaws.com: s3, s3.REGION, s3-REGION, s3.dualstack.REGION;
 * not s3-website-REGION. */
static bool is_s3_endpoint(const char *s, size_t len)
{
    static const char dualstack[] = "s3.dualstack.";

    if (len == 2)
        return memcmp(s, "s3", 2) == 0;
    if (len > strlen(dualstack) && memcmp(s, dualstack, strlen(dualstack)) == 0)
        return is_region(s + strlen(dualstack), len - strlen(dualstack));
    if (len > 3 + strlen("website") && memcmp(s + 3, "website", strlen("website")) == 0)
        return false; /* a static website endpoint, which CloudFormation does not read */
    return len > 3 && memcmp(s, "s3", 2) == 0 && (s[2] == '.' || s[2] == '-') && is_region(s + 3, len - 3);
}

static bool is_ipv4(const char *s, size_t len)
{
    int dots = 0;

    for (size_t i = 0; i < len; i++) {
        if (s[i] == '.')
            dots++;
        else if (!isdigit((unsigned char)s[i]))
            return false;
    }
    return dots == 3;
}

/* Which bucket the host names (virtual-hosted: *bucket_len > 0) or none (path-style: 0); false for
 * a host that is not Floe's or AWS's S3. `host` is lower case, without its port. */
static bool host_bucket(const char *host, size_t len, size_t *bucket_len)
{
    size_t rest;

    *bucket_len = 0;
    if (len == 0)
        return false;
    if (host[0] == '[' || is_ipv4(host, len) || memchr(host, '.', len) == NULL) /* IP literal, localhost, one label */
        return true;
    if (has_suffix(host, len, ".localhost", &rest)) {
        size_t b;
        if (rest == 2 && memcmp(host, "s3", 2) == 0)
            return true;
        *bucket_len = has_suffix(host, rest, ".s3", &b) ? b : rest;
        return *bucket_len > 0;
    }
    for (size_t i = 0; i < sizeof(aws_suffixes) / sizeof(aws_suffixes[0]); i++) {
        if (!has_suffix(host, len, aws_suffixes[i], &rest))
            continue;
        if (is_s3_endpoint(host, rest))
            return true;
        for (size_t at = 1; at + 2 <= rest; at++) { /* BUCKET.s3...: the first ".s3" the rest of which is S3's */
            if (host[at - 1] == '.' && memcmp(host + at, "s3", 2) == 0 && is_s3_endpoint(host + at, rest - at)) {
                *bucket_len = at - 1;
                return true;
            }
        }
        return false;
    }
    return false;
}

static int hex_value(char c)
{
    if (isdigit((unsigned char)c))
        return c - '0';
    c = (char)tolower((unsigned char)c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The percent-decoded copy of s[0..len) in the call's pool; NULL for a bad escape or a NUL. */
static char *decode(floe_call_t *call, const char *s, size_t len)
{
    char *out = floe_call_alloc(call, len + 1);
    size_t n = 0;

    for (size_t i = 0; i < len; i++) {
        if (s[i] != '%') {
            out[n++] = s[i];
            continue;
        }
        if (i + 2 >= len)
            return NULL;
        int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
        if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
            return NULL;
        out[n++] = (char)(hi * 16 + lo);
        i += 2;
    }
    out[n] = '\0';
    return out;
}

bool floe_template_url_parse(floe_call_t *call, const char *url, char **bucket, char **key)
{
    const char *p, *path, *slash;
    size_t authority_len, host_len, path_len, bucket_len;
    char *host;

    if (strncasecmp(url, "https://", 8) == 0)
        p = url + 8;
    else if (strncasecmp(url, "http://", 7) == 0)
        p = url + 7;
    else
        return false;
    authority_len = strcspn(p, "/?#");
    if (memchr(p, '@', authority_len) != NULL) /* user info: not a URL an SDK writes */
        return false;
    host = floe_call_strndup(call, p, authority_len);
    for (char *c = host; *c != '\0'; c++)
        *c = (char)tolower((unsigned char)*c);
    host_len = host[0] == '[' ? strcspn(host, "]") + 1 : strcspn(host, ":"); /* without the port */
    if (host_len > authority_len || !host_bucket(host, host_len, &bucket_len))
        return false;
    path = p + authority_len;
    if (path[0] != '/')
        return false;
    path++;
    path_len = strcspn(path, "?#");
    if (bucket_len > 0) {
        *bucket = floe_call_strndup(call, host, bucket_len);
        *key = decode(call, path, path_len);
    } else {
        if ((slash = memchr(path, '/', path_len)) == NULL)
            return false;
        *bucket = decode(call, path, (size_t)(slash - path));
        *key = decode(call, slash + 1, path_len - (size_t)(slash - path) - 1);
    }
    return *bucket != NULL && *key != NULL && (*bucket)[0] != '\0' && (*key)[0] != '\0';
}

int floe_stack_template_from_url(floe_call_t *call, const char *url, char **body, char **why)
{
    char *bucket, *key, *data = NULL;
    size_t len = 0;
    int rc;

    if (!floe_template_url_parse(call, url, &bucket, &key))
        return floe_stack_refuse(call, FLOE_EINVAL, why, MSG_NOT_S3);
    rc = floe_store_head_object(floe_call_state(call), bucket, key, &len);
    if (rc == FLOE_OK && len > FLOE_STACK_TEMPLATE_URL_BODY_MAX)
        return floe_stack_refuse(call, FLOE_EINVAL, why, "Template may not exceed %d bytes in size.",
                                 FLOE_STACK_TEMPLATE_URL_BODY_MAX);
    if (rc == FLOE_OK)
        rc = floe_store_read_object(floe_call_state(call), floe_call_config(call)->data_dir, bucket, key, &data, &len);
    if (rc == FLOE_ENOTFOUND)
        return floe_stack_refuse(call, FLOE_EINVAL, why, MSG_NO_OBJECT);
    if (rc != FLOE_OK)
        return (int)floe_fail_internal(call, "reading a TemplateURL object failed");
    *body = floe_call_strndup(call, data, len);
    free(data);
    return FLOE_OK;
}
