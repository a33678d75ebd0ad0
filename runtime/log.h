/*
 * The request log: one line per request on stderr (time, method, path, operation, status,
 * microseconds), silenced by --quiet. Also floe_log() for the server's own messages.
 */
#ifndef FLOE_LOG_H
#define FLOE_LOG_H

#include <stdint.h>

#include "worker.h"

/** Microseconds on a monotonic clock, for request timing. */
uint64_t floe_log_now_us(void);
/** Logs one finished request; `operation` may be NULL (no operation matched). */
void floe_log_request(floe_worker_t *w, h2o_req_t *req, const char *operation, int status, uint64_t started_us);
/** A server message on stderr, prefixed "floe: ". */
void floe_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
