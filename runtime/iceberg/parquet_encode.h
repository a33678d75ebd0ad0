/*
 * Writing Parquet footers: a floe_parquet_file_metadata_t (decoded by parquet_footer.h or built by
 * parquet_stitch.h) back to a FileMetaData in Thrift's compact protocol, and the trailer that ends
 * a Parquet file. Fields are written in field-id order, the unknown ones kept in `extra` among
 * them, with minimal varints and short-form headers, as Apache's Thrift libraries write them.
 *
 * Not a check: the structs are written as they are. A decoded footer encodes to bytes that decode
 * to an equal footer.
 */
#ifndef FLOE_ICEBERG_PARQUET_ENCODE_H
#define FLOE_ICEBERG_PARQUET_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "iceberg/iceberg_error.h"
#include "iceberg/parquet_footer.h"

/** The FileMetaData of md. Returns a malloc'ed buffer (the caller frees) of *len bytes. */
uint8_t *floe_parquet_encode(const floe_parquet_file_metadata_t *md, size_t *len /* OUT */);

/**
 * What ends a Parquet file after its last data byte: md's FileMetaData, its length as 4
 * little-endian bytes, and "PAR1". On success *out is malloc'ed (the caller frees) and *len its
 * length; fails (FLOE_ICEBERG_EINVALID) only when the FileMetaData is longer than
 * FLOE_PARQUET_FOOTER_MAX, which no reader would take.
 */
int floe_parquet_encode_footer(const floe_parquet_file_metadata_t *md, uint8_t **out /* OUT */,
                               size_t *len /* OUT */, floe_iceberg_error_t *err);

#endif
