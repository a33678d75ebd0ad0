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
 *     share.h) and copies of position delete files (note 7), then manifests, manifest lists, and
 *     metadata.json, each under the key it has in the source's warehouse with its paths
 *     rewritten (rewrite.h); the replica's metadata pointer moves last, in the transaction that
 *     records the pair's status. Readers follow the pointer only, so nothing half-copied is ever
 *     visible.
 *  4. Replaying is harmless: a replica manifest, manifest list or metadata file that exists is
 *     complete (a file is published before its row commits) and is not written again, a delete
 *     file's copy is written again only when the replica's bytes differ (note 7), a share of a
 *     shared file changes nothing, and a pointer already at the target does not move. Keys are
 *     the source's, so a replay never makes a second copy, and a file published before a crash
 *     but never committed is an orphan the start-up sweep removes (store/recover.h).
 *  5. Source files are immutable, so a manifest list or manifest already in the replica is never
 *     read again: a later commit copies only what it added.
 *  6. Once the pointer has moved (or, on a replay, is found already moved), the replica is pruned
 *     of what the commit dropped (prune.h); a failed prune only leaves files behind.
 *  7. Position delete files name the data files they delete from, and readers match those names
 *     against the manifest's data file paths, so a shared copy would delete nothing in the
 *     replica. Each live one gets the replica's own copy instead, made from the source's bytes
 *     (rewrite.h: a Puffin footer's referenced-data-file, a Parquet file's file_path column),
 *     and its manifest entry is updated (size; for Parquet, column sizes, file_path bounds moved
 *     or dropped, split offsets dropped). The copy is the same bytes each time it is made, so one
 *     already in the replica is kept when it matches and replaced when it does not (one an older
 *     Floe shared unchanged). A file that cannot be rewritten (an Avro or ORC delete file, a
 *     compressed Puffin footer, a Parquet codec or encoding Floe does not decode) fails the
 *     replication with the reason: the replica's pointer stays where it was (what was published
 *     before the failure is complete, and a later replication reuses it).
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
