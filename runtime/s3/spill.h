/*
 * Keeping large uploads out of resident memory. h2o 2.2 buffers a whole request body before the
 * handler runs; above h2o_socket_buffer_mmap_settings.threshold (32 MiB) the buffer is a shared
 * mapping of an unlinked file in <data_dir>/tmp. Its pages stay mapped, and count in the
 * process's RSS, once h2o has written them, so a 1 GiB PUT would peak near 0.5-1 GiB resident.
 * Dropping the mapping of pages that are already written (MADV_DONTNEED on a shared file
 * mapping keeps their contents in the file) bounds that to what arrives between two event-loop
 * turns, plus the slice a handler is working on.
 */
#ifndef FLOE_S3_SPILL_H
#define FLOE_S3_SPILL_H

#include <stdbool.h>
#include <stddef.h>

#define H2O_USE_LIBUV 0
#include <h2o.h>

/** True when a request body of `len` bytes lives in h2o's file-backed buffer. */
bool floe_s3_spill_is_spilled(size_t len);

/** Drops the resident pages wholly inside [p, p + len) of a spilled body (see floe_s3_spill_is_spilled). */
void floe_s3_spill_release(const void *p, size_t len);

/**
 * Drops the resident pages of the body a connection is still receiving, if its input buffer is
 * file-backed. Called after every event-loop turn for each open connection (server.c).
 */
void floe_s3_spill_trim(h2o_socket_t *sock);

#endif
