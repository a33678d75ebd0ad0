/*
 * CloudFormation templates written in YAML, read with libyaml into the same cJSON tree the JSON
 * form gives: `!Ref X` becomes {"Ref": "X"}, `!GetAtt A.B` and `!GetAtt [A, B]` become
 * {"Fn::GetAtt": ["A", "B"]}, `!Sub`, `!Join`, `!If` and the other short forms become
 * {"Fn::Name": <their value>}. Not a YAML parser of its own (libyaml is), and not for template
 * sections or meaning (template.h).
 *
 * Scalars follow the YAML 1.2 core schema, which keeps CloudFormation's strings strings:
 *   1. Quoted, literal and folded scalars, and scalars with a short-form tag, are strings
 *      ("123", 'true').
 *   2. Plain true/false (any case of the first letter, or all capitals) are booleans; yes, no,
 *      on, off (YAML 1.1 booleans) stay strings, so `AllowedValues: [yes, no]` keeps its words.
 *   3. Plain null, Null, NULL, ~ and the empty value are JSON null.
 *   4. Plain decimal, 0x hex and 0o octal integers and decimal floats are cJSON numbers that keep
 *      their literal text in valuestring: `TableName: 0123` is the string "0123" again when a
 *      string is expected (intrinsic.h, floe_cfn_scalar_text). .inf and .nan stay strings.
 *   5. Timestamps (2010-09-09) are strings: AWSTemplateFormatVersion stays as written.
 * Anchors are ignored; aliases are refused (AWS does not expand them). Keys must be plain
 * scalars and unique in their mapping. One document per template.
 */
#ifndef FLOE_CFN_TEMPLATE_YAML_H
#define FLOE_CFN_TEMPLATE_YAML_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "cfn_template/error.h"

/** Deepest nesting of sequences and mappings accepted. */
#define FLOE_CFN_YAML_MAX_DEPTH 100

/**
 * Reads `len` bytes of YAML. Returns the document's tree, which the caller releases with
 * cJSON_Delete (a JSON null when the text holds no document), or NULL with err set to AWS's
 * "Template format error: YAML not well-formed. (line L, column C)" or another reason.
 */
cJSON *floe_cfn_yaml_parse(const char *text, size_t len, floe_cfn_template_error_t *err /* OUT */);

#endif
