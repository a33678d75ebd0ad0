/*
 * libFuzzer harness for the aws-chunked decoder (runtime/s3/chunked.h). Input: one byte choosing
 * the largest slice the caller asks for (1..255, or 0 for no limit, as in-memory bodies use), then
 * the body. Besides the sanitizers it checks the decoder's promises: every slice lies inside the
 * body and is no longer than asked, the slices add up to `decoded`, a finished body is in state
 * DONE, a refused one says why, and the checksum trailer strings are terminated inside their
 * buffers.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "s3/chunked.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_STEPS (1u << 20) /* more slices than any body of a fuzzer's size can hold: a loop */

static void expect(int cond)
{
    if (!cond)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *body = (const char *)data + 1;
    size_t len = size - 1, max, total = 0;
    floe_s3_chunked_t d;
    h2o_iovec_t slice;
    unsigned steps = 0;
    int rc;

    if (size < 1)
        return 0;
    max = data[0] != 0 ? data[0] : SIZE_MAX;
    floe_s3_chunked_init(&d, body, len);
    while ((rc = floe_s3_chunked_next(&d, &slice, max)) == 1) {
        expect(slice.len <= max && slice.base >= body && slice.base + slice.len <= body + len);
        total += slice.len;
        expect(++steps < MAX_STEPS);
    }
    expect(total == d.decoded);
    expect(rc == 0 ? d.state == FLOE_S3_CHUNKED_DONE : d.state == FLOE_S3_CHUNKED_ERROR && d.error != NULL);
    expect(memchr(d.checksum_name, '\0', sizeof(d.checksum_name)) != NULL);
    expect(memchr(d.checksum_value, '\0', sizeof(d.checksum_value)) != NULL);
    expect(floe_s3_chunked_next(&d, &slice, max) == rc); /* the end is sticky */
    return 0;
}
