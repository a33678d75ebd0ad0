/* A database's CREATE and DROP in AwsDataCatalog (athena_schema_ddl.h). */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "athena/athena_schema_ddl.h"

/* p past spaces and comments */
static const char *skip_space(const char *p)
{
    for (;;) {
        if (isspace((unsigned char)*p))
            p++;
        else if (p[0] == '-' && p[1] == '-')
            p += strcspn(p, "\n");
        else if (p[0] == '/' && p[1] == '*')
            p = strstr(p + 2, "*/") != NULL ? strstr(p + 2, "*/") + 2 : p + strlen(p);
        else
            return p;
    }
}

/* Takes keyword `kw` (a whole word, any case) at *p. */
static bool take_keyword(const char **p, const char *kw)
{
    const char *s = skip_space(*p);
    size_t n = strlen(kw);

    if (strncasecmp(s, kw, n) != 0 || isalnum((unsigned char)s[n]) || s[n] == '_')
        return false;
    *p = s + n;
    return true;
}

/* A name at *p: letters, digits and underscores, or any text in backquotes or double quotes
 * (a doubled quote is one). */
static bool take_name(const char **p, char *out, size_t size)
{
    const char *s = skip_space(*p);
    size_t n = 0;

    if (*s == '`' || *s == '"') {
        char q = *s++;
        for (;; s++) {
            if (*s == '\0')
                return false;
            if (*s == q && s[1] != q)
                break;
            if (*s == q)
                s++;
            if (n + 1 >= size)
                return false;
            out[n++] = *s;
        }
        s++;
    } else {
        while (isalnum((unsigned char)*s) || *s == '_') {
            if (n + 1 >= size)
                return false;
            out[n++] = *s++;
        }
    }
    out[n] = '\0';
    *p = s;
    return n > 0;
}

/* A string literal at *p in single quotes ('' is one quote). */
static bool take_string(const char **p, char *out, size_t size)
{
    const char *s = skip_space(*p);
    size_t n = 0;

    if (*s++ != '\'')
        return false;
    for (;; s++) {
        if (*s == '\0')
            return false;
        if (*s == '\'' && s[1] != '\'')
            break;
        if (*s == '\'')
            s++;
        if (n + 1 >= size)
            return false;
        out[n++] = *s;
    }
    out[n] = '\0';
    *p = s + 1;
    return true;
}

/* Whether nothing but an optional semicolon, spaces and comments follows. */
static bool at_end(const char *p)
{
    p = skip_space(p);
    if (*p == ';')
        p = skip_space(p + 1);
    return *p == '\0';
}

bool floe_schema_ddl_parse(const char *sql, floe_schema_ddl_t *out)
{
    const char *p = sql;

    memset(out, 0, sizeof(*out));
    if (take_keyword(&p, "DROP"))
        out->is_drop = true;
    else if (!take_keyword(&p, "CREATE"))
        return false;
    if (!take_keyword(&p, "SCHEMA") && !take_keyword(&p, "DATABASE"))
        return false;
    if (take_keyword(&p, "IF")) {
        if ((!out->is_drop && !take_keyword(&p, "NOT")) || !take_keyword(&p, "EXISTS"))
            return false;
        out->has_if = true;
    }
    if (!take_name(&p, out->name, sizeof(out->name)))
        return false;
    if (out->is_drop) {
        if (!take_keyword(&p, "RESTRICT"))
            out->is_cascade = take_keyword(&p, "CASCADE");
        return at_end(p);
    }
    if (take_keyword(&p, "COMMENT") && !(out->has_comment = take_string(&p, out->comment, sizeof(out->comment))))
        return false;
    if (take_keyword(&p, "LOCATION") && !(out->has_location = take_string(&p, out->location, sizeof(out->location))))
        return false;
    return at_end(p);
}
