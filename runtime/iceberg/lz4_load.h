/*
 * Loading liblz4 on first use (lz4_load.c), as zstd_load.h loads libzstd: Floe is not linked with
 * liblz4, so a process that never decodes an LZ4_RAW Parquet page never maps it. Callers use
 * liblz4's own functions as usual; this header lets a caller load it first and say why it cannot.
 */
#ifndef FLOE_ICEBERG_LZ4_LOAD_H
#define FLOE_ICEBERG_LZ4_LOAD_H

/**
 * Opens liblz4 if no call has yet (thread-safe; later calls return at once). Returns 0, or -1
 * when it cannot be opened, with the reason in floe_lz4_load_error().
 */
int floe_lz4_load(void);

/** Why liblz4 could not be opened ("" when it was). Static string. */
const char *floe_lz4_load_error(void);

#endif
