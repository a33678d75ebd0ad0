/*
 * The Trino server Floe starts for Athena's queries: found where `scripts/setup-deps --athena` puts
 * it (or --athena-trino-home), run on a JDK 24 or newer as one coordinator that also does the work,
 * configured under Floe's data directory, stopped with Floe. Floe's only child process.
 *
 * Design notes:
 *  1. The child is started by the engine worker that found Trino down (a thread that lives until
 *     Floe stops) and asks the kernel for SIGKILL when that thread ends (PR_SET_PDEATHSIG), so a
 *     Floe killed with -9 leaves no Trino behind; a normal stop
 *     sends SIGTERM to its process group and waits, then SIGKILL.
 *  2. Ready means a statement runs: Trino answers /v1/info, and takes queries, before its worker
 *     has announced itself ("No nodes available to run query"), so readiness is a `SELECT 1`.
 *  3. Catalogs are dynamic (`catalog.management=dynamic`, kept in memory): the engine creates one
 *     per table bucket as queries name them (athena_engine/catalogs.h).
 */
#ifndef FLOE_TRINO_SERVER_H
#define FLOE_TRINO_SERVER_H

#include <limits.h>
#include <stddef.h>

#include "base/config.h"

#define FLOE_TRINO_VERSION "476" /* scripts/setup-deps pins the same release */
#define FLOE_TRINO_WHY_MAX 512

/** Where Trino and its Java are. */
typedef struct floe_trino_place {
    char home[PATH_MAX];      /* trino-server-<version>, with bin/launcher */
    char plugins[PATH_MAX];   /* the plugin directory Trino loads */
    char java_home[PATH_MAX]; /* a JDK 24 or newer */
} floe_trino_place_t;

typedef struct floe_trino_server floe_trino_server_t;

/** Finds Trino and a JDK for it: FLOE_OK, or FLOE_ENOTFOUND with why[] saying what is missing and
 * how to install it. */
int floe_trino_find(const floe_config_t *config, floe_trino_place_t *out /* OUT */, char *why, size_t n);

/** Starts Trino in `work_dir` (created): FLOE_OK with *out, or FLOE_EFAIL with why[]. It is not
 * ready yet (floe_trino_server_ready). With `access_control_uri`, Trino asks that URI before each
 * access (its Open Policy Agent plugin, which the plugin directory must hold). */
int floe_trino_server_start(const floe_trino_place_t *place, const char *work_dir, const char *access_control_uri,
                            floe_trino_server_t **out /* OUT */, char *why, size_t n);

/** http://127.0.0.1:<port> of a started server. */
const char *floe_trino_server_url(const floe_trino_server_t *s);

/** FLOE_OK once a statement runs (design note 2), FLOE_ESTATE while it starts, FLOE_EFAIL (why[])
 * when the process has ended. */
int floe_trino_server_ready(floe_trino_server_t *s, char *why, size_t n);

/** Stops the process (design note 1) and frees `s`; NULL is ignored. */
void floe_trino_server_stop(floe_trino_server_t *s);

#endif
