/*
 * Loading libzstd on first use (zstd_load.c): Floe is not linked with libzstd, so a process that
 * never decodes a ZSTD Parquet page or zstandard Avro block never maps it (about 0.1 MiB of idle
 * RSS, docs/benchmarks.md). Callers use libzstd's own functions as usual; this header lets a caller
 * load it first and say why it cannot.
 */
#ifndef FLOE_ICEBERG_ZSTD_LOAD_H
#define FLOE_ICEBERG_ZSTD_LOAD_H

/**
 * Opens libzstd if no call has yet (thread-safe; later calls return at once). Returns 0, or -1
 * when it cannot be opened, with the reason in floe_zstd_load_error().
 */
int floe_zstd_load(void);

/** Why libzstd could not be opened ("" when it was). Static string. */
const char *floe_zstd_load_error(void);

#endif
