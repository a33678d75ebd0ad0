/* Athena's Hive-style DDL as Trino's (hive_ddl.h). */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "athena/athena_csv.h"
#include "athena_engine/hive_ddl.h"
#include "base/failure.h"
#include "base/xalloc.h"

/* How a table bucket's catalog begins as a quoted name: catalogs.h's FLOE_CATALOG_PREFIX, not included
 * since catalogs.c includes this header */
#define TABLE_BUCKET_CATALOG "\"s3tablescatalog/"

/* ---- tokens ---- */

typedef enum { T_WORD, T_QUOTED, T_STRING, T_PUNCT } kind_t;

typedef struct tok {
    kind_t kind;
    char *text; /* a backquoted name is already a double-quoted one */
    size_t at;  /* its offset in the SQL, to copy a CTAS's query as written */
} tok_t;

typedef struct toks {
    tok_t *v;
    size_t n;
} toks_t;

/* The length of the literal, quoted name or comment at p (0 when there is none). */
static size_t quoted_len(const char *p)
{
    const char *q = p + 1;

    if (*p == '\'' || *p == '"' || *p == '`') {
        for (; *q; q++) {
            if (*q == *p && q[1] == *p)
                q++;
            else if (*q == *p)
                return (size_t)(q + 1 - p);
        }
        return strlen(p);
    }
    if (p[0] == '-' && p[1] == '-')
        return strcspn(p, "\n");
    if (p[0] == '/' && p[1] == '*') {
        const char *close = strstr(p + 2, "*/");
        return close != NULL ? (size_t)(close + 2 - p) : strlen(p);
    }
    return 0;
}

/* Backquoted name `a``b"c` of len bytes as Trino's "a`b""c". */
static void append_unbackquoted(floe_athena_csv_t *out, const char *p, size_t len)
{
    size_t end = len >= 2 && p[len - 1] == '`' ? len - 1 : len;

    floe_athena_csv_append(out, "\"", 1);
    for (size_t i = 1; i < end; i++) {
        if (p[i] == '`' && i + 1 < end && p[i + 1] == '`')
            i++;
        floe_athena_csv_append(out, p[i] == '"' ? "\"\"" : p + i, p[i] == '"' ? 2 : 1);
    }
    floe_athena_csv_append(out, "\"", 1);
}

static char *text_of(floe_athena_csv_t *b)
{
    return b->data != NULL ? b->data : floe_xstrdup("");
}

/* `sql` with its backquoted names double-quoted, all else as written. Malloc'ed. */
static char *unbackquote(const char *sql)
{
    floe_athena_csv_t out = {0};

    for (const char *p = sql; *p;) {
        size_t len = quoted_len(p);

        if (*p == '`')
            append_unbackquoted(&out, p, len);
        else
            floe_athena_csv_append(&out, p, len > 0 ? len : 1);
        p += len > 0 ? len : 1;
    }
    return text_of(&out);
}

static void push(toks_t *t, kind_t kind, const char *sql, const char *p, size_t len)
{
    floe_athena_csv_t text = {0};

    if (kind == T_QUOTED && *p == '`')
        append_unbackquoted(&text, p, len);
    else
        floe_athena_csv_append(&text, p, len);
    t->v = floe_xrealloc(t->v, (t->n + 1) * sizeof(*t->v));
    t->v[t->n++] = (tok_t){kind, text_of(&text), (size_t)(p - sql)};
}

static bool is_word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}

/* Words, quoted names, string literals and single-character punctuation; comments dropped. */
static void tokenize(const char *sql, toks_t *t)
{
    for (const char *p = sql; *p;) {
        size_t len = quoted_len(p);

        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        if (len > 0 && *p != '-' && *p != '/')
            push(t, *p == '\'' ? T_STRING : T_QUOTED, sql, p, len);
        else if (len == 0 && is_word_char(*p)) {
            while (is_word_char(p[len]))
                len++;
            push(t, T_WORD, sql, p, len);
        } else if (len == 0)
            push(t, T_PUNCT, sql, p, len = 1);
        p += len;
    }
}

static void toks_dispose(toks_t *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->v[i].text);
    free(t->v);
}

/* ---- a cursor over them ---- */

#define TYPE_DEPTH_MAX 64 /* nested array<...>: deeper is refused by Trino too, and stays off the stack */

typedef struct cur {
    const toks_t *t;
    size_t i;
    int depth;          /* of nested types */
    bool keep_location; /* a table of Glue's default catalog: its LOCATION is the user's to choose */
} cur_t;

static const tok_t *peek(const cur_t *c)
{
    return c->i < c->t->n ? &c->t->v[c->i] : NULL;
}

static bool is_kw(const cur_t *c, const char *kw)
{
    const tok_t *k = peek(c);
    return k != NULL && k->kind == T_WORD && strcasecmp(k->text, kw) == 0;
}

static bool is_punct(const cur_t *c, char ch)
{
    const tok_t *k = peek(c);
    return k != NULL && k->kind == T_PUNCT && k->text[0] == ch;
}

static bool take_kw(cur_t *c, const char *kw)
{
    return is_kw(c, kw) ? (c->i++, true) : false;
}

static bool take_punct(cur_t *c, char ch)
{
    return is_punct(c, ch) ? (c->i++, true) : false;
}

static bool is_name(const tok_t *k)
{
    return k != NULL && (k->kind == T_WORD || k->kind == T_QUOTED);
}

static void put(floe_athena_csv_t *out, const char *s)
{
    floe_athena_csv_append(out, s, strlen(s));
}

/* A dotted name (catalog.schema.table), copied. */
static bool copy_name(cur_t *c, floe_athena_csv_t *out)
{
    do {
        if (!is_name(peek(c)))
            return false;
        put(out, peek(c)->text);
        c->i++;
        if (is_punct(c, '.'))
            put(out, ".");
    } while (take_punct(c, '.'));
    return true;
}

/* ---- types ---- */

static bool copy_type(cur_t *c, floe_athena_csv_t *out);

/* Hive's `array<T>`, `map<K,V>` and `struct<a:T,...>` as Trino's array(T), map(K, V), row(a T, ...). */
static bool copy_nested(cur_t *c, const char *kind, floe_athena_csv_t *out)
{
    bool is_struct = strcasecmp(kind, "struct") == 0;

    put(out, is_struct ? "row(" : strcasecmp(kind, "array") == 0 ? "array(" : "map(");
    do {
        if (is_struct) {
            if (!is_name(peek(c)))
                return false;
            put(out, peek(c)->text);
            put(out, " ");
            c->i++;
            if (!take_punct(c, ':'))
                return false;
        }
        if (!copy_type(c, out))
            return false;
        if (is_struct && take_kw(c, "COMMENT")) { /* a field's comment has no place in Trino's row type */
            if (peek(c) == NULL || peek(c)->kind != T_STRING)
                return false;
            c->i++;
        }
        if (is_punct(c, ','))
            put(out, ", ");
    } while (take_punct(c, ','));
    put(out, ")");
    return take_punct(c, '>');
}

/* A column type, Hive's names as Trino's; a name Trino knows already (varchar, integer) unchanged. */
static bool copy_type(cur_t *c, floe_athena_csv_t *out)
{
    static const char *const hive[][2] = {{"string", "varchar"}, {"float", "real"}, {"binary", "varbinary"},
                                          {"timestamp", "timestamp(6)"}};
    const tok_t *k = peek(c);
    const char *name;

    if (k == NULL || k->kind != T_WORD)
        return false;
    name = k->text;
    c->i++;
    if (take_punct(c, '<')) {
        bool ok = c->depth < TYPE_DEPTH_MAX && (strcasecmp(name, "array") == 0 || strcasecmp(name, "map") == 0 ||
                                                strcasecmp(name, "struct") == 0);

        c->depth++;
        ok = ok && copy_nested(c, name, out);
        c->depth--;
        return ok;
    }
    if (is_punct(c, '(')) { /* decimal(10,2), varchar(20), timestamp(3): as written */
        put(out, name);
        while (peek(c) != NULL && !is_punct(c, ')'))
            put(out, peek(c)->text), c->i++;
        put(out, ")");
        return take_punct(c, ')');
    }
    for (size_t i = 0; i < sizeof(hive) / sizeof(hive[0]); i++) {
        if (strcasecmp(name, hive[i][0]) == 0)
            name = hive[i][1];
    }
    put(out, name);
    return true;
}

/* The 'text' after a COMMENT, as " COMMENT 'text'"; false when no literal follows. */
static bool copy_comment(cur_t *c, floe_athena_csv_t *out)
{
    if (peek(c) == NULL || peek(c)->kind != T_STRING)
        return false;
    put(out, " COMMENT ");
    put(out, peek(c)->text);
    c->i++;
    return true;
}

/* `name type [COMMENT 'text']`, as Trino writes a column. */
static bool copy_column(cur_t *c, floe_athena_csv_t *out)
{
    if (!is_name(peek(c)))
        return false;
    put(out, peek(c)->text);
    put(out, " ");
    c->i++;
    if (!copy_type(c, out))
        return false;
    return !take_kw(c, "COMMENT") || copy_comment(c, out);
}

/* ---- CREATE TABLE's clauses ---- */

/* What a CREATE TABLE's clauses ask of Trino's table properties. */
typedef struct props {
    floe_athena_csv_t with;         /* "format = 'PARQUET', partitioning = ARRAY[...]" */
    char *location;                 /* LOCATION's string literal as written, NULL when none */
    floe_athena_csv_t keys, values; /* Athena's properties kept as Iceberg's: "'k1', 'k2'" */
    bool is_iceberg, is_other_type;
} props_t;

static void props_dispose(props_t *p)
{
    free(p->location);
    free(p->with.data);
    free(p->keys.data);
    free(p->values.data);
}

static void add_prop(props_t *p, const char *text)
{
    if (p->with.len > 0)
        put(&p->with, ", ");
    put(&p->with, text);
}

/* A column name in a partitioning string: bare when it is a plain lower-case name. */
static void put_partition_column(floe_athena_csv_t *out, const tok_t *k)
{
    const char *s = k->text;
    size_t len = strlen(s);
    bool plain = k->kind == T_QUOTED && len > 2;

    for (size_t i = 1; plain && i + 1 < len; i++)
        plain = islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) || s[i] == '_';
    if (plain)
        floe_athena_csv_append(out, s + 1, len - 2);
    else {
        for (; *s; s++) /* in a string literal: quotes doubled */
            floe_athena_csv_append(out, *s == '\'' ? "''" : s, *s == '\'' ? 2 : 1);
    }
}

/* One PARTITIONED BY field: col, bucket(N, col), truncate(N, col), year|month|day|hour(col); as
 * Trino's Iceberg partitioning string, whose bucket and truncate name the column first. */
static bool copy_partition_field(cur_t *c, floe_athena_csv_t *out)
{
    const tok_t *k = peek(c), *width = NULL;

    if (!is_name(k))
        return false;
    c->i++;
    put(out, "'");
    if (!take_punct(c, '(')) {
        put_partition_column(out, k);
        put(out, "'");
        return is_punct(c, ',') || is_punct(c, ')');
    }
    if (k->kind != T_WORD)
        return false;
    if (strcasecmp(k->text, "bucket") == 0 || strcasecmp(k->text, "truncate") == 0) {
        width = peek(c);
        if (width == NULL || width->kind != T_WORD || !isdigit((unsigned char)width->text[0]))
            return false;
        c->i++;
        if (!take_punct(c, ','))
            return false;
    } else if (strcasecmp(k->text, "year") != 0 && strcasecmp(k->text, "month") != 0 &&
               strcasecmp(k->text, "day") != 0 && strcasecmp(k->text, "hour") != 0)
        return false;
    if (!is_name(peek(c)))
        return false;
    put(out, k->text);
    put(out, "(");
    put_partition_column(out, peek(c));
    c->i++;
    if (width != NULL) {
        put(out, ", ");
        put(out, width->text);
    }
    put(out, ")'");
    return take_punct(c, ')');
}

static bool take_partitioned_by(cur_t *c, props_t *p)
{
    floe_athena_csv_t list = {0};
    bool ok = take_punct(c, '(');

    put(&list, "partitioning = ARRAY[");
    while (ok) {
        ok = copy_partition_field(c, &list);
        if (!ok || !take_punct(c, ','))
            break;
        put(&list, ", ");
    }
    ok = ok && take_punct(c, ')');
    put(&list, "]");
    if (ok)
        add_prop(p, list.data);
    free(list.data);
    return ok;
}

/* Athena's key as its canonical (lower-case) name in FLOE_ATHENA_ICEBERG_PROPERTIES, or NULL when
 * Athena's list has no such key. */
static const char *kept_property(const char *key, char *name, size_t n)
{
    const char *list = FLOE_ATHENA_ICEBERG_PROPERTIES;
    size_t len = strlen(key);

    for (const char *p = list; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        if (strcspn(p, ",") == len && strncasecmp(p, key, len) == 0 && len < n) {
            memcpy(name, p, len);
            name[len] = '\0';
            return name;
        }
    }
    return NULL;
}

/* A kept property, into the table's Iceberg properties (Trino's extra_properties). */
static void keep_property(props_t *p, const char *name, const tok_t *value)
{
    put(&p->keys, p->keys.len > 0 ? ", '" : "'");
    put(&p->keys, name);
    put(&p->keys, "'");
    if (p->values.len > 0)
        put(&p->values, ", ");
    if (value->kind == T_STRING)
        put(&p->values, value->text);
    else { /* 'k' = 10: a word is letters, digits and '_', safe in quotes */
        put(&p->values, "'");
        put(&p->values, value->text);
        put(&p->values, "'");
    }
}

/* The kept properties as Trino's extra_properties, after the others. */
static void add_kept(props_t *p)
{
    if (p->keys.len == 0)
        return;
    add_prop(p, "extra_properties = MAP(ARRAY[");
    put(&p->with, p->keys.data);
    put(&p->with, "], ARRAY[");
    put(&p->with, p->values.data);
    put(&p->with, "])");
}

/* 'parquet' as Trino's format value 'PARQUET'. */
static void add_format(props_t *p, const char *literal)
{
    char *upper = floe_xstrdup(literal), with[256];

    for (char *s = upper; *s; s++)
        *s = (char)toupper((unsigned char)*s);
    snprintf(with, sizeof(with), "format = %s", upper);
    add_prop(p, with);
    free(upper);
}

/* The text of a string literal, unquoted (a property's key or value). */
static void unquoted(const tok_t *k, char *out, size_t n)
{
    size_t len = strlen(k->text);
    snprintf(out, n, "%.*s", (int)(len >= 2 ? len - 2 : 0), k->text + 1);
}

/* TBLPROPERTIES ('key' = 'value', ...): FLOE_OK, FLOE_ENOTFOUND for a form it does not know, or
 * FLOE_EINVAL (why) for a key Athena does not accept. */
static int take_tblproperties(cur_t *c, props_t *p, char *why, size_t n)
{
    if (!take_punct(c, '('))
        return FLOE_ENOTFOUND;
    do {
        const tok_t *key = peek(c), *value;
        char k[128], v[128], name[64];

        if (key == NULL || key->kind != T_STRING || (c->i++, !take_punct(c, '=')))
            return FLOE_ENOTFOUND;
        value = peek(c);
        if (value == NULL || (value->kind != T_STRING && value->kind != T_WORD))
            return FLOE_ENOTFOUND;
        c->i++;
        unquoted(key, k, sizeof(k));
        if (value->kind == T_STRING)
            unquoted(value, v, sizeof(v));
        else
            snprintf(v, sizeof(v), "%s", value->text);
        if (strcasecmp(k, "table_type") == 0) {
            p->is_iceberg = strcasecmp(v, "iceberg") == 0;
            p->is_other_type = !p->is_iceberg;
        } else if (strcasecmp(k, "format") == 0 && value->kind == T_STRING)
            add_format(p, value->text);
        else if (kept_property(k, name, sizeof(name)) != NULL)
            keep_property(p, name, value);
        else {
            snprintf(why, n, "INVALID_TABLE_PROPERTY: Unsupported table property key: %s", k);
            return FLOE_EINVAL;
        }
    } while (take_punct(c, ','));
    if (!take_punct(c, ')'))
        return FLOE_ENOTFOUND;
    add_kept(p);
    return FLOE_OK;
}

/* The clauses after the columns, in any order. LOCATION is kept only in Glue's default catalog,
 * where Athena requires it of an Iceberg table; else S3 Tables chooses each table's location, and
 * Trino's REST catalog would otherwise ask for that one. */
static int take_clauses(cur_t *c, props_t *p, floe_athena_csv_t *comment, char *why, size_t n)
{
    while (peek(c) != NULL && !is_punct(c, ';')) {
        if (take_kw(c, "COMMENT")) {
            if (!copy_comment(c, comment))
                return FLOE_ENOTFOUND;
        } else if (take_kw(c, "PARTITIONED")) {
            if (!take_kw(c, "BY") || !take_partitioned_by(c, p))
                return FLOE_ENOTFOUND;
        } else if (take_kw(c, "LOCATION")) {
            if (peek(c) == NULL || peek(c)->kind != T_STRING || p->location != NULL)
                return FLOE_ENOTFOUND;
            if (c->keep_location)
                p->location = floe_xstrdup(peek(c)->text);
            c->i++;
        } else if (take_kw(c, "TBLPROPERTIES")) {
            int rc = take_tblproperties(c, p, why, n);
            if (rc != FLOE_OK)
                return rc;
        } else
            return FLOE_ENOTFOUND; /* ROW FORMAT, STORED AS ...: a Hive table, Trino answers */
    }
    return FLOE_OK;
}

/* ---- the statements ---- */

/* Trino's `location = '<uri>'` table property, after the others. */
static void add_location(floe_athena_csv_t *with, const char *literal)
{
    if (with->len > 0)
        put(with, ", ");
    put(with, "location = ");
    put(with, literal);
}

/* CREATE [EXTERNAL] TABLE [IF NOT EXISTS] name (columns) clauses. */
static int create_table(cur_t *c, bool external, floe_athena_csv_t *out, char *why, size_t n)
{
    floe_athena_csv_t comment = {0};
    props_t p = {0};
    int rc = FLOE_ENOTFOUND;

    do {
        if (!copy_column(c, out))
            goto Done;
        if (is_punct(c, ','))
            put(out, ", ");
    } while (take_punct(c, ','));
    if (!take_punct(c, ')'))
        goto Done;
    put(out, ")");
    if ((rc = take_clauses(c, &p, &comment, why, n)) != FLOE_OK || p.is_other_type) {
        rc = rc == FLOE_EINVAL ? rc : FLOE_ENOTFOUND;
        goto Done;
    }
    if (external && p.is_iceberg) { /* Athena's own sentence (its "Creating Iceberg tables") */
        snprintf(why, n, "NOT_SUPPORTED: External keyword not supported for table type ICEBERG.");
        rc = FLOE_EINVAL;
        goto Done;
    }
    rc = external ? FLOE_ENOTFOUND : FLOE_OK;
    if (p.location != NULL)
        add_location(&p.with, p.location);
    if (comment.len > 0)
        put(out, comment.data);
    if (p.with.len > 0) {
        put(out, " WITH (");
        put(out, p.with.data);
        put(out, ")");
    }
Done:
    free(comment.data);
    props_dispose(&p);
    return rc;
}

/* CTAS's WITH (table_type = 'ICEBERG', is_external = false, format = 'parquet', partitioning =
 * ARRAY[...], location = ...) as Trino's WITH (format = 'PARQUET', partitioning = ARRAY[...]);
 * Athena's own Iceberg properties kept as the create's are, any other left to Trino. */
static int ctas_with(cur_t *c, const char *sql, floe_athena_csv_t *out)
{
    props_t p = {0};
    char *rest, name[64];
    int rc = FLOE_ENOTFOUND;

    if (!take_punct(c, '('))
        goto Done;
    do {
        const tok_t *key = peek(c);
        size_t from;

        if (key == NULL || key->kind != T_WORD || (c->i++, !take_punct(c, '=')) || peek(c) == NULL)
            goto Done;
        from = c->i;
        for (int depth = 0; peek(c) != NULL && (depth > 0 || (!is_punct(c, ',') && !is_punct(c, ')'))); c->i++)
            depth += is_punct(c, '[') || is_punct(c, '(') ? 1 : is_punct(c, ']') || is_punct(c, ')') ? -1 : 0;
        if (strcasecmp(key->text, "table_type") == 0) {
            char v[64];
            unquoted(&c->t->v[from], v, sizeof(v));
            if (strcasecmp(v, "iceberg") != 0)
                goto Done;
        } else if (strcasecmp(key->text, "format") == 0 && c->t->v[from].kind == T_STRING)
            add_format(&p, c->t->v[from].text);
        else if (kept_property(key->text, name, sizeof(name)) != NULL) {
            if (c->i != from + 1 || (c->t->v[from].kind != T_STRING && c->t->v[from].kind != T_WORD))
                goto Done;
            keep_property(&p, name, &c->t->v[from]);
        } else if (strcasecmp(key->text, "location") == 0) {
            if (c->keep_location && c->i == from + 1 && c->t->v[from].kind == T_STRING)
                add_location(&p.with, c->t->v[from].text);
        } else if (strcasecmp(key->text, "is_external") != 0) {
            floe_athena_csv_t prop = {0};
            size_t end = peek(c) != NULL ? peek(c)->at : strlen(sql);
            char *value = floe_xmalloc(end - c->t->v[from].at + 1), *as_trino;

            memcpy(value, sql + c->t->v[from].at, end - c->t->v[from].at); /* as written, backquotes aside */
            value[end - c->t->v[from].at] = '\0';
            as_trino = unbackquote(value);
            while (as_trino[0] != '\0' && isspace((unsigned char)as_trino[strlen(as_trino) - 1]))
                as_trino[strlen(as_trino) - 1] = '\0';
            put(&prop, key->text);
            put(&prop, " = ");
            put(&prop, as_trino);
            add_prop(&p, prop.data);
            free(prop.data);
            free(as_trino);
            free(value);
        }
    } while (take_punct(c, ','));
    if (!take_punct(c, ')') || peek(c) == NULL)
        goto Done;
    add_kept(&p);
    if (p.with.len > 0) {
        put(out, " WITH (");
        put(out, p.with.data);
        put(out, ")");
    }
    rest = unbackquote(sql + peek(c)->at);
    put(out, " ");
    put(out, rest);
    free(rest);
    rc = FLOE_OK;
Done:
    props_dispose(&p);
    return rc;
}

static int create(cur_t *c, const char *sql, floe_athena_csv_t *out, char *why, size_t n)
{
    bool external = take_kw(c, "EXTERNAL");

    if (!take_kw(c, "TABLE"))
        return FLOE_ENOTFOUND;
    put(out, "CREATE TABLE ");
    if (take_kw(c, "IF")) {
        if (!take_kw(c, "NOT") || !take_kw(c, "EXISTS"))
            return FLOE_ENOTFOUND;
        put(out, "IF NOT EXISTS ");
    }
    if (peek(c) != NULL && strncasecmp(peek(c)->text, TABLE_BUCKET_CATALOG, strlen(TABLE_BUCKET_CATALOG)) == 0)
        c->keep_location = false; /* a table bucket's table, in whichever context */
    if (!copy_name(c, out))
        return FLOE_ENOTFOUND;
    if (take_punct(c, '(')) {
        put(out, " (");
        return create_table(c, external, out, why, n);
    }
    return !external && take_kw(c, "WITH") ? ctas_with(c, sql, out) : FLOE_ENOTFOUND;
}

/* The end of a statement: nothing more, or its ';'. */
static bool at_end(cur_t *c)
{
    take_punct(c, ';');
    return peek(c) == NULL;
}

/* Starts another of Trino's statements in `out`: they are kept apart by '\0' (hive_ddl.h). */
static void next_statement(floe_athena_csv_t *out)
{
    floe_athena_csv_append(out, "", 1);
}

static void alter_table(floe_athena_csv_t *out, const char *table, const char *what)
{
    put(out, "ALTER TABLE ");
    put(out, table);
    put(out, what);
}

/* ADD COLUMNS (col, ...): Trino adds one column per statement, so one ADD COLUMN each. */
static int add_columns(cur_t *c, const char *table, floe_athena_csv_t *out)
{
    if (!take_kw(c, "COLUMNS") || !take_punct(c, '('))
        return FLOE_ENOTFOUND;
    do {
        if (out->len > 0)
            next_statement(out);
        alter_table(out, table, " ADD COLUMN ");
        if (!copy_column(c, out))
            return FLOE_ENOTFOUND;
    } while (take_punct(c, ','));
    return take_punct(c, ')') && at_end(c) ? FLOE_OK : FLOE_ENOTFOUND;
}

/* A name as Trino resolves a column: quotes off, in lower case. */
static void folded(const tok_t *k, char *out, size_t n)
{
    size_t len = strlen(k->text), skip = k->kind == T_QUOTED && len >= 2 ? 1 : 0;

    snprintf(out, n, "%.*s", (int)(len - 2 * skip), k->text + skip);
    for (; *out; out++)
        *out = (char)tolower((unsigned char)*out);
}

static bool same_column(const tok_t *a, const tok_t *b)
{
    char x[256], y[256];

    folded(a, x, sizeof(x));
    folded(b, y, sizeof(y));
    return strcmp(x, y) == 0 && strlen(x) + 1 < sizeof(x);
}

/* CHANGE [COLUMN] old new type [COMMENT 'text']: the type first (Iceberg's widening, refused before
 * anything changed when it is no widening), then the rename, then the comment. FIRST and AFTER,
 * which Trino cannot do to a column that exists, are left to Trino. */
static int change_column(cur_t *c, const char *table, floe_athena_csv_t *out)
{
    const tok_t *old, *new;

    take_kw(c, "COLUMN");
    old = peek(c);
    if (!is_name(old))
        return FLOE_ENOTFOUND;
    c->i++;
    new = peek(c);
    if (!is_name(new))
        return FLOE_ENOTFOUND;
    c->i++;
    alter_table(out, table, " ALTER COLUMN ");
    put(out, old->text);
    put(out, " SET DATA TYPE ");
    if (!copy_type(c, out))
        return FLOE_ENOTFOUND;
    if (!same_column(old, new)) {
        next_statement(out);
        alter_table(out, table, " RENAME COLUMN ");
        put(out, old->text);
        put(out, " TO ");
        put(out, new->text);
    }
    if (take_kw(c, "COMMENT")) {
        if (peek(c) == NULL || peek(c)->kind != T_STRING)
            return FLOE_ENOTFOUND;
        next_statement(out);
        put(out, "COMMENT ON COLUMN ");
        put(out, table);
        put(out, ".");
        put(out, new->text);
        put(out, " IS ");
        put(out, peek(c)->text);
        c->i++;
    }
    return at_end(c) ? FLOE_OK : FLOE_ENOTFOUND;
}

/* SET TBLPROPERTIES (...) as Trino's SET PROPERTIES, with CREATE TABLE's properties. */
static int set_tblproperties(cur_t *c, const char *table, floe_athena_csv_t *out, char *why, size_t n)
{
    props_t p = {0};
    int rc = take_kw(c, "TBLPROPERTIES") ? take_tblproperties(c, &p, why, n) : FLOE_ENOTFOUND;

    if (rc == FLOE_OK && (p.is_other_type || p.with.len == 0 || !at_end(c)))
        rc = FLOE_ENOTFOUND;
    if (rc == FLOE_OK) {
        alter_table(out, table, " SET PROPERTIES ");
        put(out, p.with.data);
    }
    props_dispose(&p);
    return rc;
}

/* ALTER TABLE name ADD COLUMNS | CHANGE COLUMN | SET TBLPROPERTIES; Trino's own forms (ADD COLUMN,
 * DROP COLUMN ...) are left as written. */
static int alter(cur_t *c, floe_athena_csv_t *out, char *why, size_t n)
{
    floe_athena_csv_t table = {0};
    int rc = FLOE_ENOTFOUND;

    if (take_kw(c, "TABLE") && copy_name(c, &table)) {
        if (take_kw(c, "ADD"))
            rc = add_columns(c, table.data, out);
        else if (take_kw(c, "CHANGE"))
            rc = change_column(c, table.data, out);
        else if (take_kw(c, "SET"))
            rc = set_tblproperties(c, table.data, out, why, n);
    }
    free(table.data);
    return rc;
}

/* The table's Iceberg properties table, Trino's "name$properties" in place of the name's last part. */
static bool copy_properties_table(cur_t *c, floe_athena_csv_t *out)
{
    do {
        const tok_t *k = peek(c);

        if (!is_name(k) || (k->kind == T_QUOTED && (strlen(k->text) < 2 || k->text[strlen(k->text) - 1] != '"')))
            return false;
        c->i++;
        if (is_punct(c, '.')) {
            put(out, k->text);
            put(out, ".");
        } else if (k->kind == T_WORD) { /* letters, digits, '_': safe in quotes, folded as Trino folds */
            put(out, "\"");
            for (const char *s = k->text; *s; s++)
                floe_athena_csv_append(out, &(char){(char)tolower((unsigned char)*s)}, 1);
            put(out, "$properties\"");
        } else {
            floe_athena_csv_append(out, k->text, strlen(k->text) - 1);
            put(out, "$properties\"");
        }
    } while (take_punct(c, '.'));
    return true;
}

#define ICEBERG_FORMAT "write.format.default" /* Athena's 'format', in Trino's words */
#define SHOWN_KEY "CASE key WHEN '" ICEBERG_FORMAT "' THEN 'format' ELSE key END"
#define SHOWN_VALUE "CASE key WHEN '" ICEBERG_FORMAT "' THEN lower(value) ELSE value END"

/* The keys SHOW TBLPROPERTIES shows, "'k1', 'k2'": Athena's, as FLOE_ATHENA_ICEBERG_PROPERTIES keeps them. */
static void put_shown_keys(floe_athena_csv_t *out)
{
    put(out, "'" ICEBERG_FORMAT "', '");
    for (const char *p = FLOE_ATHENA_ICEBERG_PROPERTIES; *p; p++)
        put(out, *p == ',' ? "', '" : (char[]){*p, '\0'});
    put(out, "'");
}

/* SHOW TBLPROPERTIES name [('key')] as a query of the table's Iceberg properties: Athena's rows, a
 * "key<TAB>value" each, or the key's value alone. Only Athena's properties are shown, as Athena shows. */
static int show(cur_t *c, floe_athena_csv_t *out)
{
    floe_athena_csv_t from = {0};
    char key[128], name[64];
    const char *wanted;
    int rc = FLOE_ENOTFOUND;

    if (!take_kw(c, "TBLPROPERTIES") || !copy_properties_table(c, &from))
        goto Done;
    if (take_punct(c, '(')) {
        if (peek(c) == NULL || peek(c)->kind != T_STRING)
            goto Done;
        unquoted(peek(c), key, sizeof(key));
        c->i++;
        if (!take_punct(c, ')') || !at_end(c))
            goto Done;
        wanted = strcasecmp(key, "format") == 0 ? ICEBERG_FORMAT : kept_property(key, name, sizeof(name));
        put(out, "SELECT " SHOWN_VALUE " AS prpt_name FROM ");
        put(out, from.data);
        put(out, wanted != NULL ? " WHERE key = '" : " WHERE false"); /* a key Athena does not have: no row */
        if (wanted != NULL) {
            put(out, wanted);
            put(out, "'");
        }
    } else if (at_end(c)) {
        put(out, "SELECT concat(" SHOWN_KEY ", chr(9), " SHOWN_VALUE ") AS prpt_name FROM ");
        put(out, from.data);
        put(out, " WHERE key IN (");
        put_shown_keys(out);
        put(out, ") ORDER BY 1");
    } else
        goto Done;
    rc = FLOE_OK;
Done:
    free(from.data);
    return rc;
}

/* `s` with the second '\0' that ends hive_ddl.h's list of statements. */
static char *one_statement(char *s)
{
    size_t len = strlen(s);

    s = floe_xrealloc(s, len + 2);
    s[len + 1] = '\0';
    return s;
}

const char *floe_hive_ddl_next(const char *stmt)
{
    const char *next = stmt + strlen(stmt) + 1;
    return *next != '\0' ? next : NULL;
}

int floe_hive_ddl_translate(const char *sql, bool in_default_catalog, char **out, char *why, size_t n)
{
    static const char *const ddl[] = {"CREATE", "ALTER", "DROP", "SHOW", "DESCRIBE"};
    floe_athena_csv_t text = {0};
    toks_t t = {0};
    cur_t c = {&t, 1, 0, in_default_catalog};
    bool is_ddl = false;
    int rc = FLOE_ENOTFOUND;

    *out = NULL;
    tokenize(sql, &t);
    for (size_t i = 0; t.n > 0 && i < sizeof(ddl) / sizeof(ddl[0]); i++)
        is_ddl = is_ddl || (t.v[0].kind == T_WORD && strcasecmp(t.v[0].text, ddl[i]) == 0);
    if (is_ddl && strcasecmp(t.v[0].text, "CREATE") == 0)
        rc = create(&c, sql, &text, why, n);
    else if (is_ddl && strcasecmp(t.v[0].text, "ALTER") == 0)
        rc = alter(&c, &text, why, n);
    else if (is_ddl && strcasecmp(t.v[0].text, "SHOW") == 0)
        rc = show(&c, &text);
    toks_dispose(&t);
    if (rc == FLOE_OK) {
        next_statement(&text); /* the list's end */
        *out = text.data;
        return FLOE_OK;
    }
    free(text.data);
    if (rc == FLOE_EINVAL)
        return FLOE_EINVAL;
    *out = one_statement(is_ddl ? unbackquote(sql) : floe_xstrdup(sql));
    return FLOE_OK;
}
