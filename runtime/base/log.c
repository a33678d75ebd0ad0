/*
 * The request log of log.h. Each line is formatted in one buffer and written with one write(2),
 * so lines from several threads never interleave.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "base/json.h"
#include "base/log.h"

#define LOG_LINE_MAX 1024
#define LOG_PATH_MAX 300 /* longer paths are cut in the log */

uint64_t floe_log_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

void floe_log_request(const floe_config_t *config, h2o_req_t *req, const char *operation, int status, uint64_t started_us)
{
    char line[LOG_LINE_MAX], when[40];
    struct timeval tv;
    int path_len = (int)(req->input.path.len < LOG_PATH_MAX ? req->input.path.len : LOG_PATH_MAX);
    int n;

    if (config->quiet)
        return;
    gettimeofday(&tv, NULL);
    floe_format_rfc3339((int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000, when, sizeof(when));
    n = snprintf(line, sizeof(line), "%s %.*s %.*s %s %d %lluus\n", when, (int)req->input.method.len,
                 req->input.method.base, path_len, req->input.path.base, operation ? operation : "-", status,
                 (unsigned long long)(floe_log_now_us() - started_us));
    if (n > 0)
        (void)!write(STDERR_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

void floe_log_job(const floe_config_t *config, const char *type, const char *table_arn, const char *outcome,
                  uint64_t started_us, bool is_scheduled, const char *message)
{
    char line[LOG_LINE_MAX], when[40];
    struct timeval tv;
    int n;

    if (config->quiet)
        return;
    gettimeofday(&tv, NULL);
    floe_format_rfc3339((int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000, when, sizeof(when));
    n = snprintf(line, sizeof(line), "%s JOB %.*s Maintenance:%s %s %lluus %s%s%s\n", when, LOG_PATH_MAX, table_arn,
                 type, outcome, (unsigned long long)(floe_log_now_us() - started_us),
                 is_scheduled ? "scheduled" : "requested", message != NULL && *message ? ": " : "",
                 message != NULL ? message : "");
    if (n >= (int)sizeof(line)) { /* a long message is cut, the line still ends */
        n = (int)sizeof(line) - 1;
        line[n - 1] = '\n';
    }
    if (n > 0)
        (void)!write(STDERR_FILENO, line, (size_t)n);
}

uint64_t floe_log_request_started_us(h2o_req_t *req)
{
    struct timeval now;
    int64_t waited_us;

    gettimeofday(&now, NULL);
    waited_us = ((int64_t)now.tv_sec - req->timestamps.request_begin_at.tv_sec) * 1000000 +
                (now.tv_usec - req->timestamps.request_begin_at.tv_usec);
    if (req->timestamps.request_begin_at.tv_sec == 0 || waited_us < 0)
        waited_us = 0;
    return floe_log_now_us() - (uint64_t)waited_us;
}

void floe_log(const char *fmt, ...)
{
    char line[LOG_LINE_MAX];
    va_list ap;
    int n = snprintf(line, sizeof(line), "floe: ");

    va_start(ap, fmt);
    n += vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof(line) - 2)
        n = (int)sizeof(line) - 2;
    line[n++] = '\n';
    (void)!write(STDERR_FILENO, line, (size_t)n);
}
