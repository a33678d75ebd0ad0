/*
 * The table name check of table_rules.h, which both API families apply; the rule itself is
 * catalog/rules.h's, shared with CloudFormation.
 */
#include "catalog/rules.h"
#include "catalog/table_rules.h"
#include "floe_api.h"

int floe_table_check_name(floe_call_t *call, const char *name)
{
    if (floe_rules_table_name_is_allowed(name))
        return FLOE_OK;
    return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_TABLE, FLOE_RULES_MESSAGE_TABLE_NAME);
}
