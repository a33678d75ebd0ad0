/*
 * The S3 error replies of error.h: the table, and one writer for S3's <Error> document.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "base/failure.h"
#include "base/log.h"
#include "s3/error.h"
#include "s3/xml.h"

typedef struct error_info {
    const char *code;
    int status;
    const char *message;
} error_info_t;

static const error_info_t errors[] = {
#define FLOE_S3_ERROR_ROW(code, status, message) {#code, status, message},
    FLOE_S3_ERRORS(FLOE_S3_ERROR_ROW)
#undef FLOE_S3_ERROR_ROW
};

const char *floe_s3_error_message(floe_s3_error_t e)
{
    return errors[e].message;
}

static int reply_error(floe_s3_req_t *r, floe_s3_error_t e, const char *message, va_list extras)
{
    floe_s3_xml_t x;
    const char *name;

    if (errors[e].status == 304) { /* Not Modified has no body, whatever the method */
        floe_s3_reply(r, 304, NULL, 0);
        return FLOE_EFAIL;
    }
    floe_s3_xml_begin_plain(&x, "Error");
    floe_s3_xml_elem(&x, "Code", errors[e].code);
    floe_s3_xml_elem(&x, "Message", message != NULL ? message : errors[e].message);
    while ((name = va_arg(extras, const char *)) != NULL)
        floe_s3_xml_elem(&x, name, va_arg(extras, const char *));
    floe_s3_xml_elem(&x, "Key", r->key);
    floe_s3_xml_elem(&x, "BucketName", r->bucket);
    floe_s3_xml_elem(&x, "RequestId", r->request_id);
    floe_s3_xml_elem(&x, "HostId", r->request_id);
    floe_s3_xml_close(&x, "Error");
    floe_s3_reply(r, errors[e].status, x.buf, x.len);
    floe_s3_xml_dispose(&x);
    return FLOE_EFAIL;
}

int floe_s3_fail(floe_s3_req_t *r, floe_s3_error_t e, const char *message, ...)
{
    va_list ap;
    va_start(ap, message);
    reply_error(r, e, message, ap);
    va_end(ap);
    return FLOE_EFAIL;
}

int floe_s3_fail_internal(floe_s3_req_t *r, const char *what)
{
    int err = errno; /* the system error, if `what` came from one; SQLite keeps its own */

    floe_log("%s %s: %s (sqlite: %s; system: %s)", r->op, r->bucket ? r->bucket : "-", what,
             floe_state_errmsg(r->st), strerror(err));
    return floe_s3_fail(r, FLOE_S3_InternalError, NULL, NULL);
}
