/* The leading words of a statement (sql_words.h). */
#include <ctype.h>
#include <string.h>

#include "athena_engine/sql_words.h"

/* sql past spaces and comments */
static const char *skip_space(const char *sql)
{
    while (isspace((unsigned char)*sql) || (sql[0] == '-' && sql[1] == '-') || (sql[0] == '/' && sql[1] == '*')) {
        if (sql[0] == '-' && sql[1] == '-')
            sql += strcspn(sql, "\n");
        else if (sql[0] == '/' && sql[1] == '*')
            sql = strstr(sql, "*/") != NULL ? strstr(sql, "*/") + 2 : sql + strlen(sql);
        else
            sql++;
    }
    return sql;
}

size_t floe_sql_leading_words(const char *sql, char (*words)[FLOE_SQL_WORD_MAX], size_t max)
{
    size_t n = 0;

    while (n < max) {
        size_t len = 0;
        char quote = 0;

        sql = skip_space(sql);
        while (*sql && (quote || (!isspace((unsigned char)*sql) && *sql != '(' && *sql != ';'))) {
            if ((*sql == '"' || *sql == '`') && (quote == 0 || quote == *sql))
                quote = quote ? 0 : *sql;
            if (len + 1 < FLOE_SQL_WORD_MAX)
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

static size_t trimmed(const char *sql, size_t len)
{
    while (len > 0 && isspace((unsigned char)sql[len - 1]))
        len--;
    return len;
}

size_t floe_sql_unterminated_length(const char *sql)
{
    size_t len = trimmed(sql, strlen(sql));

    return len > 0 && sql[len - 1] == ';' ? trimmed(sql, len - 1) : len;
}
