/*
 * The bucket naming rules of bucket_name.h, written once for both kinds of bucket. The table
 * bucket model already checks length and characters (TableBucketName); checking them again here
 * costs nothing and keeps the rule whole in one place.
 */
#include <arpa/inet.h>
#include <assert.h>
#include <string.h>

#include "base/bucket_name.h"

#define BUCKET_NAME_MIN_LEN 3
#define BUCKET_NAME_MAX_LEN 63

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const char *const reserved_prefixes[] = {"xn--", "sthree-", "amzn-s3-demo-"};
static const char *const reserved_suffixes[] = {"-s3alias", "--ol-s3", "--x-s3", "--table-s3"};
/* Table buckets only: "Bucket names must not start with the reserved prefix aws". */
static const char reserved_table_prefix[] = "aws";

static bool has_prefix(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool is_lower_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* S3: names must not be formatted as an IP address (192.168.5.4). */
static bool looks_like_ipv4(const char *name)
{
    unsigned char addr[4];
    return inet_pton(AF_INET, name, addr) == 1;
}

/* Length, characters, first and last character, and (general purpose) dots. */
static bool has_valid_shape(const char *name, floe_bucket_name_kind_t kind)
{
    const char *charset = kind == FLOE_BUCKET_NAME_GENERAL_PURPOSE ? "abcdefghijklmnopqrstuvwxyz0123456789.-"
                                                                   : "abcdefghijklmnopqrstuvwxyz0123456789-";
    size_t n = strlen(name);

    if (n < BUCKET_NAME_MIN_LEN || n > BUCKET_NAME_MAX_LEN || !is_lower_alnum(name[0]) ||
        !is_lower_alnum(name[n - 1]) || strspn(name, charset) != n)
        return false;
    return kind != FLOE_BUCKET_NAME_GENERAL_PURPOSE || (strstr(name, "..") == NULL && !looks_like_ipv4(name));
}

static bool is_reserved(const char *name, floe_bucket_name_kind_t kind)
{
    for (size_t i = 0; i < ARRAY_LEN(reserved_prefixes); i++) {
        if (has_prefix(name, reserved_prefixes[i]))
            return true;
    }
    for (size_t i = 0; i < ARRAY_LEN(reserved_suffixes); i++) {
        if (has_suffix(name, reserved_suffixes[i]))
            return true;
    }
    return kind == FLOE_BUCKET_NAME_TABLE && has_prefix(name, reserved_table_prefix);
}

bool floe_bucket_name_is_valid(const char *name, floe_bucket_name_kind_t kind)
{
    assert(kind == FLOE_BUCKET_NAME_GENERAL_PURPOSE || kind == FLOE_BUCKET_NAME_TABLE);
    return has_valid_shape(name, kind) && !is_reserved(name, kind);
}
