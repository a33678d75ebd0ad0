/*
 * Finding an embedded console file by path (assets.h): a binary search over the generated table,
 * which console/embed.cmake writes sorted by path.
 */
#include <string.h>

#include "console/assets.h"

/* strcmp's order between a NUL-terminated path and n bytes of another. */
static int compare(const char *path, const char *key, size_t n)
{
    int c = strncmp(path, key, n);
    if (c != 0)
        return c;
    return path[n] == '\0' ? 0 : 1;
}

const floe_console_asset_t *floe_console_asset_find(const char *path, size_t n)
{
    size_t lo = 0, hi = floe_console_n_assets;

    if (memchr(path, '\0', n) != NULL)
        return NULL;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = compare(floe_console_assets[mid].path, path, n);
        if (c == 0)
            return &floe_console_assets[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}
