/*
 * The values of value.h: the unknown marker's test and a scalar's text.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cfn_template/value.h"

bool floe_cfn_is_unknown(const cJSON *node)
{
    return node != NULL && (node->type & 0xFF) == cJSON_Raw;
}

const char *floe_cfn_scalar_text(const cJSON *node, char *buf, size_t size)
{
    if (cJSON_IsString(node))
        return node->valuestring;
    if (cJSON_IsBool(node))
        return cJSON_IsTrue(node) ? "true" : "false";
    if (!cJSON_IsNumber(node))
        return NULL;
    if (node->valuestring != NULL) /* read from YAML: as written */
        return node->valuestring;
    double v = node->valuedouble;
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, size, "%.0f", v);
    else if (snprintf(buf, size, "%.15g", v) > 0 && strtod(buf, NULL) != v)
        snprintf(buf, size, "%.17g", v); /* the shortest text that reads back as v */
    return buf;
}
