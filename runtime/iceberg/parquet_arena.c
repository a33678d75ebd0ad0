/*
 * The arena of parquet_arena.h: a list of blocks, each carved front to back. A request larger than
 * a quarter block gets a block of its own, so a big list does not waste the rest of a block.
 */
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/parquet_arena.h"

/* Most footers fit in one block. */
#define BLOCK_SIZE ((size_t)32 * 1024)
#define ALIGNMENT alignof(max_align_t)

typedef struct block {
    struct block *next;
    size_t used, size;
    alignas(max_align_t) unsigned char data[];
} block_t;

struct floe_parquet_arena {
    block_t *blocks; /* the first is the one being carved */
    size_t total;    /* bytes of all blocks */
    size_t limit;
};

floe_parquet_arena_t *floe_parquet_arena_new(size_t limit)
{
    floe_parquet_arena_t *arena = floe_xcalloc(1, sizeof(*arena));

    arena->limit = limit;
    return arena;
}

void floe_parquet_arena_free(floe_parquet_arena_t *arena)
{
    if (arena == NULL)
        return;
    for (block_t *b = arena->blocks, *next; b != NULL; b = next) {
        next = b->next;
        free(b);
    }
    free(arena);
}

/* A new block of `size` bytes; a big one goes second so the current block keeps being carved. */
static block_t *add_block(floe_parquet_arena_t *arena, size_t size, int is_big)
{
    block_t *b;

    if (size > arena->limit - arena->total)
        return NULL;
    b = floe_xmalloc(sizeof(*b) + size);
    b->used = 0;
    b->size = size;
    arena->total += size;
    if (is_big && arena->blocks != NULL) {
        b->next = arena->blocks->next;
        arena->blocks->next = b;
    } else {
        b->next = arena->blocks;
        arena->blocks = b;
    }
    return b;
}

void *floe_parquet_arena_alloc(floe_parquet_arena_t *arena, size_t n, size_t size)
{
    block_t *b = arena->blocks;
    size_t bytes;
    void *p;

    if (size != 0 && n > SIZE_MAX / size)
        return NULL;
    bytes = n * size;
    if (bytes > SIZE_MAX - ALIGNMENT)
        return NULL;
    bytes = (bytes + ALIGNMENT - 1) & ~(ALIGNMENT - 1);
    if (bytes > BLOCK_SIZE / 4) {
        b = add_block(arena, bytes, 1);
    } else if (b == NULL || b->size - b->used < bytes) {
        b = add_block(arena, BLOCK_SIZE, 0);
    }
    if (b == NULL)
        return NULL;
    p = b->data + b->used;
    b->used += bytes;
    memset(p, 0, bytes);
    return p;
}
