/*
 * The house's return codes: every function that serves a request or a job returns `int`, FLOE_OK
 * or one of the negative codes below, and writes its OUT parameters only on success. Why a call
 * failed is recorded on its context (floe_fail on a floe_call_t, the query and REST faces' own
 * fail, a job's error) or, below the call (db/, store/), logged where it happened; each protocol's
 * one wire mapper turns it into the answer (docs/design.md, "Failure").
 *
 * A leaf: every wing may include it, and it includes nothing. The pure Iceberg library keeps its
 * own error struct (iceberg/error.h) and is the one exception.
 */
#ifndef FLOE_BASE_FAILURE_H
#define FLOE_BASE_FAILURE_H

#define FLOE_OK 0
/** Failed inside (SQLite, the disk, a bug) or with a modeled error already recorded on the call. */
#define FLOE_EFAIL (-1)
/** A lookup found nothing: not a failure of the system, the caller says what a miss means. */
#define FLOE_ENOTFOUND (-2)
/** What a create names exists already. */
#define FLOE_EEXISTS (-3)
/** A row the caller read was replaced meanwhile (a compare-and-swap lost). */
#define FLOE_ECHANGED (-4)
/** What a delete names is still referenced (a bucket that holds namespaces); nothing was deleted. */
#define FLOE_EINUSE (-9)
/** The request names something the state cannot take (a page token of another listing). */
#define FLOE_EINVAL (-10)
/** What the request names is in a state that does not allow it (a change set already executed). */
#define FLOE_ESTATE (-11)
/** A file could not be opened or read; errno says why (0: it is shorter than its row says). */
#define FLOE_EIO (-12)
/* A constraint refused a write (db/sql.h): returned only when the caller said it expects that kind. */
#define FLOE_EUNIQUE (-5)     /* UNIQUE or PRIMARY KEY */
#define FLOE_ENOTNULL (-6)    /* NOT NULL */
#define FLOE_EFOREIGNKEY (-7) /* FOREIGN KEY */
#define FLOE_ECHECK (-8)      /* CHECK */

#endif
