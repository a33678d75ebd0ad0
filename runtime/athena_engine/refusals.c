/* Statements Athena refuses on S3 Tables (refusals.h). */
#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "athena_engine/refusals.h"

#define WORDS_MAX 6
#define WORD_MAX 64

#define NOT_SUPPORTED(what) "NOT_SUPPORTED: " what " is not supported for tables in S3 table buckets."
#define MAINTAINED(what)                                                                                       \
    "NOT_SUPPORTED: " what " is not supported for tables in S3 table buckets: Amazon S3 Tables maintains them " \
    "itself (compaction, snapshot management and unreferenced file removal; see the table's and its "        \
    "bucket's maintenance configuration)."

/* The first n words of sql (identifiers and keywords, quotes kept inside a word), after spaces and comments. */
static size_t words_of(const char *sql, char words[WORDS_MAX][WORD_MAX])
{
    size_t n = 0;

    while (n < WORDS_MAX) {
        size_t len = 0;
        char quote = 0;

        while (isspace((unsigned char)*sql) || (sql[0] == '-' && sql[1] == '-') || (sql[0] == '/' && sql[1] == '*')) {
            if (sql[0] == '-' && sql[1] == '-')
                sql += strcspn(sql, "\n");
            else if (sql[0] == '/' && sql[1] == '*')
                sql = strstr(sql, "*/") != NULL ? strstr(sql, "*/") + 2 : sql + strlen(sql);
            else
                sql++;
        }
        while (*sql && (quote || (!isspace((unsigned char)*sql) && *sql != '(' && *sql != ';'))) {
            if ((*sql == '"' || *sql == '`') && (quote == 0 || quote == *sql))
                quote = quote ? 0 : *sql;
            if (len + 1 < WORD_MAX)
                words[n][len++] = *sql;
            sql++;
        }
        words[n][len] = '\0';
        if (len == 0)
            break;
        n++;
    }
    return n;
}

static bool is(const char *word, const char *keyword)
{
    return strcasecmp(word, keyword) == 0;
}

const char *floe_athena_refusal(const char *sql)
{
    char w[WORDS_MAX][WORD_MAX];
    size_t n = words_of(sql, w);

    if (n >= 1 && is(w[0], "OPTIMIZE"))
        return MAINTAINED("OPTIMIZE");
    if (n >= 1 && is(w[0], "VACUUM"))
        return MAINTAINED("VACUUM");
    if (n >= 2 && is(w[0], "CREATE") && (is(w[1], "VIEW") || (n >= 4 && is(w[1], "OR") && is(w[2], "REPLACE") &&
                                                              (is(w[3], "VIEW") || is(w[3], "PROTECTED")))))
        return NOT_SUPPORTED("CREATE VIEW");
    if (n >= 2 && is(w[0], "ALTER") && (is(w[1], "DATABASE") || is(w[1], "SCHEMA")))
        return NOT_SUPPORTED("ALTER DATABASE");
    if (n >= 5 && is(w[0], "ALTER") && is(w[1], "TABLE") && is(w[3], "RENAME") && is(w[4], "TO"))
        return NOT_SUPPORTED("ALTER TABLE RENAME");
    return NULL;
}
