/*
 * The house's return codes: every function that serves a request or a job returns `int`, FLOE_OK
 * or one of the negative codes below, and writes its OUT parameters only on success. Why a call
 * failed is recorded on its context as a floe_failure_t (a house code, its subject, a message:
 * floe_fail on a floe_call_t; a job's error) or, below the call (db/, store/), logged where it
 * happened; each protocol's one wire mapper chooses its own modeled error from the code and the
 * subject (docs/design.md, "Failure").
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
/** The caller may not do this (another account's resource). */
#define FLOE_EDENIED (-13)
/** What the request would change is read-only (a replica, which only its replication writes). */
#define FLOE_EREADONLY (-14)
/* A constraint refused a write (db/sql.h): returned only when the caller said it expects that kind. */
#define FLOE_EUNIQUE (-5)     /* UNIQUE or PRIMARY KEY */
#define FLOE_ENOTNULL (-6)    /* NOT NULL */
#define FLOE_EFOREIGNKEY (-7) /* FOREIGN KEY */
#define FLOE_ECHECK (-8)      /* CHECK */


/** What a recorded failure is about: a protocol's mapper may name its error after it. */
typedef enum floe_subject {
    FLOE_SUBJECT_REQUEST = 0, /* the request itself: a value it carries, or nothing in particular */
    FLOE_SUBJECT_BUCKET,      /* a table bucket */
    FLOE_SUBJECT_NAMESPACE,
    FLOE_SUBJECT_TABLE,
    FLOE_SUBJECT_POLICY,      /* a resource policy */
    FLOE_SUBJECT_OBJECT,      /* a file of a table's */
    FLOE_SUBJECT_REPLICATION, /* a replication configuration, or its queue */
    FLOE_SUBJECT_STACK,       /* a stack, or one of its exports */
    FLOE_SUBJECT__COUNT
} floe_subject_t;

/**
 * Why a call failed: FLOE_OK while it has not, FLOE_EFAIL for a failure inside (the protocol's 500),
 * else the house code of what the caller got wrong. `name` is the subject's name as the request
 * gave it, when the failure knows it (a protocol may word the error with it), else NULL; `message`
 * is the text the answer carries.
 */
typedef struct floe_failure {
    int code;
    floe_subject_t subject;
    const char *name;
    const char *message;
} floe_failure_t;

#endif
