/* Tests of runtime/iceberg_rest/iceberg_rest_response.c: the REST catalog's answer bodies. */
#include <string.h>

#include "base/json.h"
#include "harness.h"
#include "iceberg_rest/iceberg_rest_response.h"

TEST(iceberg_rest_update_properties_answer_always_names_missing)
{
    const char *updated[] = {"team"};
    floe_iceberg_UpdateNamespacePropertiesResponse out = {.updated = {1, updated}};
    floe_json_t w;
    floe_json_init(&w);
    floe_iceberg_serialize_UpdateNamespacePropertiesResponse(&out, &w);
    /* PyIceberg 0.12.0 refuses the answer without "missing", even when nothing was missing. */
    CHECK(strcmp(w.buf, "{\"updated\":[\"team\"],\"removed\":[],\"missing\":[]}") == 0,
          "an update that removed nothing still answers an empty 'missing' list");
    floe_json_dispose(&w);
}
