/*
 * Loading Avro C on first use (avro_load.c): Floe is not linked with libavro, so a process that
 * never reads or writes a manifest never maps it (nor jansson, lzma, snappy and libstdc++).
 * Callers use Avro C's own functions as usual; this header only lets a caller load it early.
 */
#ifndef FLOE_ICEBERG_AVRO_LOAD_H
#define FLOE_ICEBERG_AVRO_LOAD_H

/**
 * Opens libavro if no call has yet (thread-safe; later calls return at once). Returns 0, or -1
 * when it cannot be opened, with the reason in avro_strerror().
 */
int floe_avro_load(void);

#endif
