/*
 * The request log: one line per request on stderr (time, method, path, operation, status,
 * microseconds), silenced by --quiet; one line per maintenance job, in the same form. Also
 * floe_log() for the server's own messages.
 */
#ifndef FLOE_BASE_LOG_H
#define FLOE_BASE_LOG_H

#include <stdbool.h>
#include <stdint.h>

#include <h2o.h>

#include "base/config.h"

/** Microseconds on a monotonic clock, for request timing. */
uint64_t floe_log_now_us(void);
/** Logs one finished request (silenced by config->quiet); `operation` may be NULL (no operation matched). */
void floe_log_request(const floe_config_t *config, h2o_req_t *req, const char *operation, int status, uint64_t started_us);
/**
 * Logs one finished maintenance job like a request line: "<time> JOB <table ARN>
 * Maintenance:<type> <outcome> <N>us <trigger>[: <message>]", where trigger is "scheduled" or
 * "requested". Silenced by --quiet. One write(2), so any thread may call it without blocking a loop.
 */
void floe_log_job(const floe_config_t *config, const char *type, const char *table_arn, const char *outcome,
                  uint64_t started_us, bool is_scheduled, const char *message);
/** The monotonic time (floe_log_now_us) at which h2o began to read `req`. */
uint64_t floe_log_request_started_us(h2o_req_t *req);
/** A server message on stderr, prefixed "floe: ". */
void floe_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
