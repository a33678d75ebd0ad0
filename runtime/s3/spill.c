/*
 * The page releasing of spill.h.
 *
 * Why this is safe: MADV_DONTNEED on a MAP_SHARED file mapping only unmaps the pages; their
 * contents (dirty or not) stay in the page cache and the file, and the next access faults them
 * back in. It is only ever applied to whole pages inside file-backed h2o buffers: an input buffer
 * whose _fd is set, or a finished body larger than the mmap threshold (h2o moves a buffer to a
 * file mapping as soon as its capacity reaches the threshold, and a body that size fills a buffer
 * at least that large).
 */
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "s3/spill.h"

static uintptr_t page_size(void)
{
    static uintptr_t size;
    if (size == 0)
        size = (uintptr_t)sysconf(_SC_PAGESIZE);
    return size;
}

bool floe_s3_spill_is_spilled(size_t len)
{
    return len > h2o_socket_buffer_mmap_settings.threshold;
}

void floe_s3_spill_release(const void *p, size_t len)
{
    uintptr_t page = page_size(), start = ((uintptr_t)p + page - 1) & ~(page - 1),
              end = ((uintptr_t)p + len) & ~(page - 1);

    if (end > start)
        madvise((void *)start, end - start, MADV_DONTNEED);
}

void floe_s3_spill_trim(h2o_socket_t *sock)
{
    h2o_buffer_t *input = sock->input;

    /* _fd is h2o's own field (public in 2.2's memory.h): -1 unless the buffer is a file mapping. */
    if (input == NULL || input->bytes == NULL || input->_fd == -1)
        return;
    floe_s3_spill_release(input->bytes, input->size);
}
