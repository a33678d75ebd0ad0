/* Tests of runtime/s3/address.c: which Host headers address a bucket (virtual-hosted style). */
#include <string.h>

#include "harness.h"
#include "s3/address.h"

static size_t vhost(const char *host)
{
    return floe_s3_virtual_host_bucket(host, strlen(host));
}

TEST(s3_virtual_host_names_a_bucket)
{
    CHECK(vhost("my-bucket.localhost:4566") == 9, "bucket.localhost:port is virtual-hosted");
    CHECK(vhost("my-bucket.s3.localhost") == 9, "bucket.s3.localhost is virtual-hosted");
    CHECK(vhost("my-bucket.127.0.0.1.nip.io:4566") == 9, "bucket.<ip>.nip.io is virtual-hosted");
    CHECK(vhost("abc.s3.us-east-1.amazonaws.com") == 3, "AWS's own virtual-hosted form works");
}

TEST(s3_path_style_hosts_are_not_buckets)
{
    CHECK(vhost("localhost:4566") == 0, "a bare host name is path-style");
    CHECK(vhost("127.0.0.1:4566") == 0, "an IPv4 address is path-style");
    CHECK(vhost("[::1]:4566") == 0, "an IPv6 literal is path-style");
    CHECK(vhost("s3.localhost:4566") == 0, "s3.<domain> is the service endpoint");
    CHECK(vhost("bucket.10.0.0.1") == 0, "a label in front of an IP address is not a bucket");
    CHECK(vhost("ab.localhost") == 0, "a label too short to be a bucket is not one");
    CHECK(vhost("Upper.localhost") == 0, "a label with capitals is not a bucket");
    CHECK(vhost("") == 0, "no Host at all is path-style");
}
