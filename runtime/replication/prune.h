/*
 * Pruning a replica's warehouse after a replicated commit, on the replication thread. A replica
 * gets no maintenance of its own (as on AWS), so when a source commit drops snapshots (snapshot
 * expiration on the source) or lets metadata files fall out of its metadata-log, the replica would
 * keep its copies of them for ever. After the replica's pointer has moved (its commit is durable),
 * this deletes from the replica's warehouse exactly what the dropped snapshots alone reached (their
 * manifest lists, manifests, data and delete file rows, statistics files), computed from the
 * replica's own manifests with maintenance's reach (maintenance/reach.h), and the metadata files
 * that fell out of the replica's metadata-log. Not for copying (replica.h).
 *
 * Design notes:
 *  1. What goes is "reached by the dropped snapshots" minus "reached by the snapshots the replica
 *     now has", never guessed from names, as expiration counts it: the snapshots kept reach their
 *     manifests' live entries, the dropped ones every entry (reach.h, floe_reach_entries_t), so a
 *     file a compaction replaced goes with the last snapshot that held it live. The current reach
 *     is read strictly: a retained manifest that cannot be read stops the prune with nothing
 *     deleted.
 *  2. A data file's row in the replica names a file the source (or another replica) may still name;
 *     the store removes the file only when no row names it (store/row_ids.h), so deleting the row is
 *     always safe.
 *  3. Deletes go children first (data files, then manifests, then manifest lists, statistics and
 *     metadata files), so a prune cut short leaves a prefix done. Replaying it is harmless: the
 *     dropped snapshots are read tolerantly (a manifest list or manifest already deleted is
 *     skipped; its children went before it), and deleting a missing object changes nothing.
 *  4. The replica's previous state is the pointer before the move; on a replay, whose pointer had
 *     already moved, it is the newest metadata-log entry that still exists in the replica.
 */
#ifndef FLOE_REPLICATION_PRUNE_H
#define FLOE_REPLICATION_PRUNE_H

#include <stddef.h>
#include <stdint.h>

#include "background/background.h"

/** One prune of one replica. */
typedef struct floe_prune {
    floe_background_t *bg;
    const char *data_dir;
    int64_t store_bucket;    /* the replica warehouse's store bucket id */
    const char *location;    /* "s3://<replica warehouse>" */
    const char *previous;    /* the replica's metadata location before the move; NULL when unknown */
    const char *current;     /* the replica's metadata location now */
    int64_t n_deleted;       /* OUT: objects deleted */
    char message[512];       /* OUT: why it failed */
} floe_prune_t;

/** Prunes the replica (design notes). FLOE_OK, or FLOE_EFAIL with p->message set; nothing unsafe
 * is ever deleted either way. */
int floe_replica_prune(floe_prune_t *p);

#endif
