/*
 * The leading words of a statement (after spaces and comments), the one scanner the engine uses to
 * tell a statement's kind (StatementType, the refusals): keywords and names as written, a quoted
 * name kept whole with its quotes, up to the first parenthesis or semicolon. Never a parse: only
 * what the first words say.
 */
#ifndef FLOE_ATHENA_ENGINE_SQL_WORDS_H
#define FLOE_ATHENA_ENGINE_SQL_WORDS_H

#include <stddef.h>

#define FLOE_SQL_WORD_MAX 64 /* a longer word is cut: no keyword is that long */

/** Up to `max` leading words of `sql` into words[]; returns how many there are. */
size_t floe_sql_leading_words(const char *sql, char (*words)[FLOE_SQL_WORD_MAX], size_t max);

/** The length of `sql` without the semicolon that ends it and the spaces around that: Athena runs
 *  `SELECT 1;` (dbt-athena's table materialization sends one) as `SELECT 1`, Trino refuses it. */
size_t floe_sql_unterminated_length(const char *sql);

#endif
