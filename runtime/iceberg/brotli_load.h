/*
 * Loading libbrotlidec on first use (brotli_load.c), as zstd_load.h loads libzstd: Floe is not
 * linked with libbrotlidec, so a process that never decodes a Brotli Parquet page never maps it.
 * Callers use libbrotlidec's own functions as usual; this header lets a caller load it first and
 * say why it cannot.
 */
#ifndef FLOE_ICEBERG_BROTLI_LOAD_H
#define FLOE_ICEBERG_BROTLI_LOAD_H

/**
 * Opens libbrotlidec if no call has yet (thread-safe; later calls return at once). Returns 0, or
 * -1 when it cannot be opened, with the reason in floe_brotli_load_error().
 */
int floe_brotli_load(void);

/** Why libbrotlidec could not be opened ("" when it was). Static string. */
const char *floe_brotli_load_error(void);

#endif
