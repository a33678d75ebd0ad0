/*
 * fault_shim: an LD_PRELOAD library that makes a running `floe serve` fail its writes (or reads)
 * of chosen files, or hold them, switched on and off while the server runs. tests/e2e/robustness/74-faults.py
 * preloads it to fail calls, tests/e2e/maintenance/98-maintenance-compaction-concurrent-delete.mjs to hold a
 * job at a chosen moment; it is built beside floe (tests/CMakeLists.txt) but never linked into
 * it, so no fault code sits on the production binary's paths.
 *
 * Control: FLOE_FAULT_CONTROL names a file. Each of its lines is one rule,
 *
 *     <target> <ERRNO | delay=MS> [reads] [after=N] [times=M]
 *
 * <target>   `db`: the database and its side files (a basename floe.db or floe.db-*);
 *            `wal`: floe.db-wal alone; `objects`: object files being written
 *            (<data_dir>/tmp/obj-*); or a string starting with '/', matched as a substring of
 *            the file's path.
 * <ERRNO>    EIO, ENOSPC, EDQUOT or EROFS.
 * delay=MS   hold the call instead of failing it, then let it through: until the control file
 *            changes (the test releases it by writing new rules) or MS milliseconds have passed,
 *            whichever comes first, so a test that fails cannot hang the server for long.
 * reads      fail reads (read, pread, pread64) instead of writes (write, pwrite, pwrite64,
 *            writev, pwritev, copy_file_range on its destination, fsync, fdatasync): a disk that
 *            cannot read a page back.
 * after=N    let the first N matching calls through (a fault in the middle of a request).
 * times=M    fail M calls after those, then let every call through again (a passing fault);
 *            without it every later matching call fails.
 *
 * A failed call does nothing and returns -1 with the rule's errno. An empty or missing file
 * means no faults. The file is read again (and the counters restart) whenever its size, inode
 * or modification time changes, so a test switches faults by writing a new file and renaming it
 * over the control file. Each failed or held call is reported on stderr as one line starting
 * with "floe-fault-shim:" ("... write EIO on <path>", "... write held on <path>"), so a test can
 * check that its fault really fired, and when; a held call's release is reported as a line
 * starting with "floe-fault-shim (released):".
 *
 * Design notes:
 *  1. The shim allocates nothing and never calls a function it wraps (its stderr line and its
 *     reading of the control file go through the real write and read), so it cannot recurse.
 *     Real functions come from dlsym(RTLD_NEXT). Under AddressSanitizer libasan must come first
 *     in LD_PRELOAD; its interceptors then call into this shim, which calls libc.
 *  2. A call finds its descriptor's path with readlink(/proc/self/fd/N), and only while some rule
 *     is loaded; with no rule a call costs one stat of the control file and a mutex.
 *  3. One mutex guards the rules and their counters: floe serves on several threads. A held call
 *     waits without it (sleeping in steps of HOLD_STEP_MS, taking it only to look at the control
 *     file), so the other threads' calls go on meanwhile.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define MAX_RULES 8
#define MAX_PATTERN 256
#define CONTROL_MAX 4096
#define HOLD_STEP_MS 10

typedef enum match_kind { MATCH_DB, MATCH_WAL, MATCH_OBJECTS, MATCH_SUBSTRING } match_kind_t;

typedef struct rule {
    match_kind_t kind;
    char pattern[MAX_PATTERN];
    int error;            /* 0 for a delay rule */
    unsigned long delay_ms; /* delay=MS: the longest a matching call is held */
    int is_read;          /* fails reads (`reads`), not writes */
    unsigned long n_pass; /* matching calls still let through (after=N) */
    int has_limit;        /* times=M given */
    unsigned long n_fail; /* with has_limit: matching calls still to fail */
} rule_t;

static struct {
    pthread_mutex_t lock;
    struct stat seen; /* the control file as last read; st_ino 0 when absent */
    unsigned long generation; /* bumped each time the control file is read again (a held call's release) */
    rule_t rules[MAX_RULES];
    size_t n_rules;
} g = {.lock = PTHREAD_MUTEX_INITIALIZER};

static const struct {
    const char *name;
    int value;
} errno_names[] = {{"EIO", EIO}, {"ENOSPC", ENOSPC}, {"EDQUOT", EDQUOT}, {"EROFS", EROFS}};

/* ---- the real functions ---- */

typedef ssize_t (*read_fn)(int, void *, size_t);
typedef ssize_t (*pread_fn)(int, void *, size_t, off_t);
typedef ssize_t (*pread64_fn)(int, void *, size_t, off64_t);
typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);
typedef ssize_t (*pwrite64_fn)(int, const void *, size_t, off64_t);
typedef ssize_t (*writev_fn)(int, const struct iovec *, int);
typedef ssize_t (*pwritev_fn)(int, const struct iovec *, int, off_t);
typedef ssize_t (*copy_fn)(int, loff_t *, int, loff_t *, size_t, unsigned int);
typedef int (*sync_fn)(int);

/* Resolves `name` once; a race between threads stores the same pointer twice. */
static void *real(void **slot, const char *name)
{
    void *fn = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (fn == NULL) {
        fn = dlsym(RTLD_NEXT, name);
        if (fn == NULL)
            abort();
        __atomic_store_n(slot, fn, __ATOMIC_RELEASE);
    }
    return fn;
}
#define REAL(type, name) ((type)real(&real_##name, #name))

static void *real_read, *real_pread, *real_pread64, *real_write, *real_pwrite, *real_pwrite64, *real_writev,
    *real_pwritev, *real_copy_file_range, *real_fsync, *real_fdatasync;

/* ---- the control file ---- */

static int parse_errno(const char *s)
{
    for (size_t i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++)
        if (strcmp(s, errno_names[i].name) == 0)
            return errno_names[i].value;
    return 0;
}

/* Says on stderr that a rule was not understood (in words the fault count does not match). */
static void refuse_rule(const char *line)
{
    char msg[CONTROL_MAX + 64];
    int n = snprintf(msg, sizeof(msg), "floe-fault-shim (rule not understood, ignored): %s\n", line);

    if (n > 0)
        REAL(write_fn, write)(STDERR_FILENO, msg, (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1);
}

/* Adds the rule on one line of the control file to g.rules. Called with g.lock held. */
static void parse_rule(char *line)
{
    char copy[CONTROL_MAX], *save = NULL, *target, *err, *opt;
    rule_t *r;

    snprintf(copy, sizeof(copy), "%s", line);
    if ((target = strtok_r(line, " \t\r", &save)) == NULL)
        return; /* a blank line */
    if ((err = strtok_r(NULL, " \t\r", &save)) == NULL || g.n_rules == MAX_RULES)
        goto Refuse;
    r = &g.rules[g.n_rules];
    memset(r, 0, sizeof(*r));
    if (strncmp(err, "delay=", 6) == 0) {
        char *end;
        r->delay_ms = strtoul(err + 6, &end, 10);
        if (r->delay_ms == 0 || *end != '\0')
            goto Refuse;
    } else if ((r->error = parse_errno(err)) == 0) {
        goto Refuse;
    }
    if (strcmp(target, "db") == 0)
        r->kind = MATCH_DB;
    else if (strcmp(target, "wal") == 0)
        r->kind = MATCH_WAL;
    else if (strcmp(target, "objects") == 0)
        r->kind = MATCH_OBJECTS;
    else if (target[0] == '/' && strlen(target) < MAX_PATTERN)
        r->kind = MATCH_SUBSTRING, strcpy(r->pattern, target);
    else
        goto Refuse;
    while ((opt = strtok_r(NULL, " \t\r", &save)) != NULL) {
        if (strcmp(opt, "reads") == 0)
            r->is_read = 1;
        else if (strncmp(opt, "after=", 6) == 0)
            r->n_pass = strtoul(opt + 6, NULL, 10);
        else if (strncmp(opt, "times=", 6) == 0)
            r->has_limit = 1, r->n_fail = strtoul(opt + 6, NULL, 10);
        else
            goto Refuse;
    }
    g.n_rules++;
    return;
Refuse:
    refuse_rule(copy);
}

/* Reads the control file into g.rules. Called with g.lock held. */
static void load_rules(const char *path)
{
    static char text[CONTROL_MAX];
    ssize_t n = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    g.n_rules = 0;
    if (fd < 0)
        return;
    n = REAL(read_fn, read)(fd, text, sizeof(text) - 1);
    close(fd);
    text[n > 0 ? n : 0] = '\0';
    for (char *line = text, *next; line != NULL; line = next) {
        if ((next = strchr(line, '\n')) != NULL)
            *next++ = '\0';
        parse_rule(line);
    }
}

/* Re-reads the control file if it changed since the last look. Called with g.lock held. */
static void refresh(void)
{
    const char *path = getenv("FLOE_FAULT_CONTROL");
    struct stat now;

    if (path == NULL)
        return;
    if (stat(path, &now) != 0)
        memset(&now, 0, sizeof(now));
    if (now.st_ino == g.seen.st_ino && now.st_size == g.seen.st_size && now.st_mtim.tv_sec == g.seen.st_mtim.tv_sec &&
        now.st_mtim.tv_nsec == g.seen.st_mtim.tv_nsec)
        return;
    g.seen = now;
    g.generation++;
    load_rules(path);
}

/* ---- matching ---- */

static int matches(const rule_t *r, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;

    switch (r->kind) {
    case MATCH_DB:
        return strcmp(base, "floe.db") == 0 || strncmp(base, "floe.db-", 8) == 0;
    case MATCH_WAL:
        return strcmp(base, "floe.db-wal") == 0;
    case MATCH_OBJECTS:
        return strncmp(base, "obj-", 4) == 0 && strstr(path, "/tmp/obj-") != NULL;
    case MATCH_SUBSTRING:
        return strstr(path, r->pattern) != NULL;
    }
    return 0;
}

/* One line on stderr: "<mark> <op> <what> on <path>". */
static void report(const char *mark, const char *op, const char *what, const char *path)
{
    char line[PATH_MAX + 128];
    int n = snprintf(line, sizeof(line), "%s %s %s on %s\n", mark, op, what, path);

    if (n > 0)
        REAL(write_fn, write)(STDERR_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

static unsigned long elapsed_ms(const struct timespec *from)
{
    struct timespec now;
    long long ns;

    clock_gettime(CLOCK_MONOTONIC, &now);
    ns = (long long)(now.tv_sec - from->tv_sec) * 1000000000LL + (now.tv_nsec - from->tv_nsec);
    return ns > 0 ? (unsigned long)(ns / 1000000) : 0;
}

/* Holds the calling thread (design note 3) until the control file was read again after
 * `generation`, or for `ms` milliseconds. */
static void hold(unsigned long ms, unsigned long generation)
{
    const struct timespec step = {0, HOLD_STEP_MS * 1000000L};
    struct timespec start;
    int is_released = 0;

    clock_gettime(CLOCK_MONOTONIC, &start);
    while (!is_released && elapsed_ms(&start) < ms) {
        nanosleep(&step, NULL);
        pthread_mutex_lock(&g.lock);
        refresh();
        is_released = g.generation != generation;
        pthread_mutex_unlock(&g.lock);
    }
}

/* The errno to fail a call on `fd` with, or 0 to let it through (after holding it, for a delay
 * rule). */
static int fault_for(int fd, const char *op, int is_read)
{
    char link[64], path[PATH_MAX];
    ssize_t n;
    int error = 0;
    unsigned long delay_ms = 0, generation = 0;

    pthread_mutex_lock(&g.lock);
    refresh();
    if (g.n_rules == 0)
        goto Exit;
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    if ((n = readlink(link, path, sizeof(path) - 1)) <= 0)
        goto Exit;
    path[n] = '\0';
    for (size_t i = 0; i < g.n_rules && error == 0 && delay_ms == 0; i++) {
        rule_t *r = &g.rules[i];
        int fires = 0;
        if (r->is_read != is_read || !matches(r, path))
            continue;
        if (r->n_pass > 0)
            r->n_pass--;
        else if (!r->has_limit)
            fires = 1;
        else if (r->n_fail > 0)
            r->n_fail--, fires = 1;
        if (fires)
            error = r->error, delay_ms = r->delay_ms;
    }
    generation = g.generation;
    if (error != 0)
        report("floe-fault-shim:", op, strerrorname_np(error), path);
    else if (delay_ms != 0)
        report("floe-fault-shim:", op, "held", path);
Exit:
    pthread_mutex_unlock(&g.lock);
    if (delay_ms != 0) {
        hold(delay_ms, generation);
        report("floe-fault-shim (released):", op, "let through", path);
    }
    return error;
}

#define FAIL_IF(fd, op, is_read)                                                                                    \
    do {                                                                                                            \
        int error_ = fault_for((fd), (op), (is_read));                                                              \
        if (error_ != 0) {                                                                                          \
            errno = error_;                                                                                         \
            return -1;                                                                                              \
        }                                                                                                           \
    } while (0)

#define FAIL_IF_FAULTED(fd, op) FAIL_IF(fd, op, 0)
#define FAIL_IF_READ_FAULTED(fd, op) FAIL_IF(fd, op, 1)

/* ---- the wrapped calls ---- */

ssize_t read(int fd, void *buf, size_t n)
{
    FAIL_IF_READ_FAULTED(fd, "read");
    return REAL(read_fn, read)(fd, buf, n);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
    FAIL_IF_READ_FAULTED(fd, "pread");
    return REAL(pread_fn, pread)(fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off64_t off)
{
    FAIL_IF_READ_FAULTED(fd, "pread64");
    return REAL(pread64_fn, pread64)(fd, buf, n, off);
}

ssize_t write(int fd, const void *buf, size_t n)
{
    FAIL_IF_FAULTED(fd, "write");
    return REAL(write_fn, write)(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    FAIL_IF_FAULTED(fd, "pwrite");
    return REAL(pwrite_fn, pwrite)(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
    FAIL_IF_FAULTED(fd, "pwrite64");
    return REAL(pwrite64_fn, pwrite64)(fd, buf, n, off);
}

ssize_t writev(int fd, const struct iovec *iov, int n_iov)
{
    FAIL_IF_FAULTED(fd, "writev");
    return REAL(writev_fn, writev)(fd, iov, n_iov);
}

ssize_t pwritev(int fd, const struct iovec *iov, int n_iov, off_t off)
{
    FAIL_IF_FAULTED(fd, "pwritev");
    return REAL(pwritev_fn, pwritev)(fd, iov, n_iov, off);
}

ssize_t copy_file_range(int fd_in, loff_t *off_in, int fd_out, loff_t *off_out, size_t n, unsigned int flags)
{
    FAIL_IF_FAULTED(fd_out, "copy_file_range");
    return REAL(copy_fn, copy_file_range)(fd_in, off_in, fd_out, off_out, n, flags);
}

int fsync(int fd)
{
    FAIL_IF_FAULTED(fd, "fsync");
    return REAL(sync_fn, fsync)(fd);
}

int fdatasync(int fd)
{
    FAIL_IF_FAULTED(fd, "fdatasync");
    return REAL(sync_fn, fdatasync)(fd);
}
