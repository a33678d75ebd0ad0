/*
 * Values in a template's tree as CloudFormation reads them: a scalar's text, and the *unknown*
 * marker a resolution leaves where a value is known only at run time (intrinsic.h, design note 1).
 * Not for evaluating functions (intrinsic.h).
 */
#ifndef FLOE_CFN_TEMPLATE_VALUE_H
#define FLOE_CFN_TEMPLATE_VALUE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

/** Whether a resolved node is unknown (design note 1). */
bool floe_cfn_is_unknown(const cJSON *node);

/**
 * The text of a scalar as CloudFormation sees it: a string itself, a number as written in YAML or
 * in its shortest form ("5", "1.5"), a boolean as "true"/"false". Returns the string's own buffer
 * or buf (size 32 or more), or NULL for anything that is not a scalar.
 */
const char *floe_cfn_scalar_text(const cJSON *node, char *buf, size_t size);

#endif
