/* Statements Athena refuses on S3 Tables (refusals.h). */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "athena_engine/refusals.h"
#include "athena_engine/sql_words.h"

#define WORDS_MAX 6

#define NOT_SUPPORTED(what) "NOT_SUPPORTED: " what " is not supported for tables in S3 table buckets."
#define MAINTAINED(what)                                                                                       \
    "NOT_SUPPORTED: " what " is not supported for tables in S3 table buckets: Amazon S3 Tables maintains them " \
    "itself (compaction, snapshot management and unreferenced file removal; see the table's and its "        \
    "bucket's maintenance configuration)."

/* Athena's "ALTER TABLE CHANGE COLUMN" page: REPLACE COLUMNS removes every column, then adds new
 * ones, which Iceberg's schema evolution does not do (the sentence is Floe's). */
#define REPLACE_COLUMNS                                                                                     \
    "NOT_SUPPORTED: ALTER TABLE REPLACE COLUMNS is not supported for Iceberg tables: it removes all "       \
    "columns and then adds new ones. Use ALTER TABLE CHANGE COLUMN, ADD COLUMNS or DROP COLUMN."

static bool is(const char *word, const char *keyword)
{
    return strcasecmp(word, keyword) == 0;
}

/* What Floe does not run on Glue's own tables, which Athena runs there (the sentence is Floe's). */
#define NOT_IN_DEFAULT(what) "NOT_SUPPORTED: Floe does not run " what " in AwsDataCatalog, as Athena does there."

const char *floe_athena_refusal(const char *sql, bool on_table_bucket)
{
    char w[WORDS_MAX][FLOE_SQL_WORD_MAX];
    size_t n = floe_sql_leading_words(sql, w, WORDS_MAX);

    if (n >= 1 && is(w[0], "OPTIMIZE"))
        return on_table_bucket ? MAINTAINED("OPTIMIZE") : NOT_IN_DEFAULT("OPTIMIZE");
    if (n >= 1 && is(w[0], "VACUUM"))
        return on_table_bucket ? MAINTAINED("VACUUM") : NOT_IN_DEFAULT("VACUUM");
    if (on_table_bucket && n >= 2 && is(w[0], "CREATE") &&
        (is(w[1], "VIEW") || (n >= 4 && is(w[1], "OR") && is(w[2], "REPLACE") &&
                              (is(w[3], "VIEW") || is(w[3], "PROTECTED")))))
        return NOT_SUPPORTED("CREATE VIEW");
    if (n >= 2 && is(w[0], "ALTER") && (is(w[1], "DATABASE") || is(w[1], "SCHEMA")))
        return on_table_bucket ? NOT_SUPPORTED("ALTER DATABASE") : NOT_IN_DEFAULT("ALTER DATABASE");
    if (on_table_bucket && n >= 5 && is(w[0], "ALTER") && is(w[1], "TABLE") && is(w[3], "RENAME") && is(w[4], "TO"))
        return NOT_SUPPORTED("ALTER TABLE RENAME");
    if (n >= 5 && is(w[0], "ALTER") && is(w[1], "TABLE") && is(w[3], "REPLACE") && is(w[4], "COLUMNS"))
        return REPLACE_COLUMNS;
    return NULL;
}
