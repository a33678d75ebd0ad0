/*
 * The bump allocator behind a decoded Parquet footer (parquet_footer.h, design note 1): many small
 * objects, freed all at once, with a ceiling on the total so a hostile footer cannot make Floe
 * allocate without bound. Not a general allocator: nothing is freed one by one.
 */
#ifndef FLOE_ICEBERG_PARQUET_ARENA_H
#define FLOE_ICEBERG_PARQUET_ARENA_H

#include <stddef.h>

typedef struct floe_parquet_arena floe_parquet_arena_t;

/** A new empty arena that will hand out at most `limit` bytes in all. Free with floe_parquet_arena_free. */
floe_parquet_arena_t *floe_parquet_arena_new(size_t limit);

/** Frees the arena and everything allocated from it. Accepts NULL. */
void floe_parquet_arena_free(floe_parquet_arena_t *arena);

/** `n * size` zeroed bytes, aligned for any type; NULL when that would pass the limit (or overflow).
 * The memory lives until the arena is freed. */
void *floe_parquet_arena_alloc(floe_parquet_arena_t *arena, size_t n, size_t size);

#endif
