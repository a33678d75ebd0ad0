/* Tests of runtime/base/json.c: escaping and RFC 3339 timestamps. */
#include <string.h>

#include "base/json.h"
#include "harness.h"

TEST(serialize_timestamps_are_rfc3339)
{
    floe_json_t w;
    floe_json_init(&w);
    floe_json_timestamp(&w, INT64_C(1733249751123));
    CHECK(strcmp(w.buf, "\"2024-12-03T18:15:51.123Z\"") == 0, "milliseconds since the epoch print as RFC 3339 UTC");
    floe_json_dispose(&w);
}

TEST(json_strings_are_escaped)
{
    floe_json_t w;
    floe_json_init(&w);
    floe_json_object_begin(&w);
    floe_json_key(&w, "k");
    floe_json_string(&w, "a\"b\\c\n\x01");
    floe_json_key(&w, "list");
    floe_json_array_begin(&w);
    floe_json_int(&w, 1);
    floe_json_int(&w, 2);
    floe_json_array_end(&w);
    floe_json_object_end(&w);
    CHECK(strcmp(w.buf, "{\"k\":\"a\\\"b\\\\c\\n\\u0001\",\"list\":[1,2]}") == 0,
          "quotes, backslashes and control characters are escaped, and commas placed");
    floe_json_dispose(&w);
}
