/*
 * The console's files (console/www/: the page, its script and style, and the vendored libraries),
 * compiled into the binary by console/embed.cmake, so build/floe serves the console with nothing
 * installed beside it. Not for the console's JSON routes (route.h).
 */
#ifndef FLOE_CONSOLE_ASSETS_H
#define FLOE_CONSOLE_ASSETS_H

#include <stddef.h>

/** One embedded file. */
typedef struct floe_console_asset {
    const char *path;         /* relative to console/www, e.g. "vendor/uplot/dist/uPlot.esm.js" */
    const char *content_type; /* from its extension */
    const unsigned char *data;
    size_t len;
} floe_console_asset_t;

/* The generated table (console_assets.c in the build directory), sorted by path. */
extern const floe_console_asset_t floe_console_assets[];
extern const size_t floe_console_n_assets;

/** The asset at `path` (n bytes, no leading '/'), or NULL when there is none. Owned by the binary. */
const floe_console_asset_t *floe_console_asset_find(const char *path, size_t n);

#endif
