/*
 * One piece of replication work, on the replication thread: take the oldest queued source commit
 * (catalog/replication_queue.h) and bring every destination's replica to that source state. The
 * thread itself, its wake-up and its lifetime are replicator.c's.
 *
 * Design notes:
 *  1. Every read and write of the state is a step on the serving thread (background.h): catalog
 *     steps in the destination's account and region, store steps in none. Reading source files
 *     and writing the replica's new files happen here, off the event loop.
 *  2. A replica is the source's namespace and name in the destination bucket, created (with its
 *     namespace) when missing and marked as a replica in the transaction that creates it.
 *  3. Files go children first: data files (a second object row naming the same file, store/
 *     share.h), then manifests, manifest lists, and metadata.json, each under the key it has in
 *     the source's warehouse with its paths rewritten (rewrite.h); the replica's metadata pointer
 *     moves last, in the transaction that records the pair's status. Readers follow the pointer
 *     only, so nothing half-copied is ever visible.
 *  4. Replaying is harmless: a replica file that exists is complete (a file is published before
 *     its row commits) and is not written again, a share of a shared file changes nothing, and a
 *     pointer already at the target does not move. Keys are the source's, so a replay never makes
 *     a second copy, and a file published before a crash but never committed is an orphan the
 *     start-up sweep removes (store/recover.h).
 *  5. Source files are immutable, so a manifest list or manifest already in the replica is never
 *     read again: a later commit copies only what it added.
 *  6. Once the pointer has moved (or, on a replay, is found already moved), the replica is pruned
 *     of what the commit dropped (prune.h); a failed prune only leaves files behind.
 */
#ifndef FLOE_REPLICATION_REPLICA_H
#define FLOE_REPLICATION_REPLICA_H

#include "background/background.h"
#include "base/config.h"

/**
 * Replicates the oldest queued source commit to every destination of its source's configurations
 * and removes it from the queue. Returns 1 when it handled work, 0 when the queue was empty, and
 * -1 when the server is stopping (the work stays queued for the next start).
 */
int floe_replica_take_one(floe_background_t *bg, const floe_config_t *config);

#endif
