/*
 * A background thread's door to the objects of one store bucket (a table's warehouse): the store
 * steps that maintenance jobs and replication both take, run on the serving thread through
 * background.h, and the reading of a found object's bytes, which stays on the background thread:
 * finding objects by key (file id and size), reading them whole, committing a published blob as
 * an object, deleting objects in batches, and listing keys page by page. Not for SQL (store/ holds
 * it), nor for what a caller makes of a miss or a failure: each caller words its own messages from
 * what the door returns.
 *
 * Design notes:
 *  1. A door names its bucket either by warehouse name, looked up again in every step (a
 *     maintenance job: a warehouse deleted meanwhile reads as empty), or by store bucket id
 *     (replication, which resolved it when it took the work).
 *  2. Bytes are read from the published file a find named, never through a second look-up: store
 *     files are never modified, so the file stays readable even if its object is replaced or
 *     deleted meanwhile (store/blob.h).
 *  3. A delete never holds the serving thread long: FLOE_OBJECT_DOOR_DELETE_BATCH keys a step, the
 *     rows deleted in one transaction and their files removed after it commits (store/object.h).
 */
#ifndef FLOE_BACKGROUND_OBJECT_DOOR_H
#define FLOE_BACKGROUND_OBJECT_DOOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "background/background.h"
#include "base/scope.h"
#include "store/store.h"

#define FLOE_OBJECT_DOOR_DELETE_BATCH 256

/** Which bucket's objects, reached how. Filled by the caller; every pointer is borrowed. */
typedef struct floe_object_door {
    floe_background_t *bg;
    const floe_scope_t *scope; /* the account and region the steps run in; NULL: the server's defaults */
    const char *data_dir;
    const char *warehouse;     /* the bucket by name (design note 1), or NULL to use bucket_id */
    int64_t bucket_id;
    const char *who;           /* "maintenance", "replication": names the caller in what a failed step logs */
} floe_object_door_t;

/** What a find learned of one key. */
typedef struct floe_object_door_found {
    bool is_found;
    char file_id[FLOE_STORE_ID_LEN + 1];
    int64_t size;
} floe_object_door_found_t;

/**
 * Looks keys[0..n) up in one serving-thread step: found[i] for each (is_found false when the key
 * or the named warehouse is missing). FLOE_EFAIL with *err (may be NULL) when the step failed.
 */
int floe_object_door_find(const floe_object_door_t *d, const char *const *keys, size_t n,
                          floe_object_door_found_t *found /* OUT: n entries */,
                          floe_background_error_t *err /* OUT, may be NULL */);

/*
 * How a read ends, in the house codes (failure.h):
 *   FLOE_OK          read whole
 *   FLOE_EFAIL       the look-up step failed: *err says why
 *   FLOE_ENOTFOUND   no object has the key
 *   FLOE_EIO         the file could not be opened or read: errno says why (0: shorter than its row)
 */

/**
 * Reads the whole file of a found object (design note 2) on the calling thread: *data is malloc'ed
 * (the caller frees it), f->size bytes followed by a NUL, so text can be parsed in place. Nothing
 * is left allocated on failure.
 */
int floe_object_door_read(const floe_object_door_t *d, const floe_object_door_found_t *f,
                                                 uint8_t **data /* OUT */);

/**
 * Reads the objects keys[0..n) whole: one find step for all of them (many small files, such as a
 * table's manifests), then each file as floe_object_door_read does. data[i] (malloc'ed, the caller
 * frees each) and len[i]; with is_missing_ok a missing key gives data[i] NULL and len[i] 0. On
 * failure *at is the key that failed (0 for a failed step), nothing is left allocated, and
 * len[0..*at) still say what was read before it. *at is n on success.
 */
int floe_object_door_read_all(const floe_object_door_t *d, const char *const *keys, size_t n,
                                                     bool is_missing_ok, uint8_t **data /* OUT */,
                                                     size_t *len /* OUT */, size_t *at /* OUT */,
                                                     floe_background_error_t *err /* OUT, may be NULL */);

/**
 * Makes the published blob obj->file_id the content of obj->key, in one step (store/object.h's
 * commit; with must_not_exist the key must be free). *rc: FLOE_OK, FLOE_EEXISTS (the
 * key is taken) or FLOE_ENOTFOUND (the warehouse is gone); the blob is the caller's to
 * discard on any but FLOE_OK. FLOE_EFAIL with *err (may be NULL) when the step failed.
 */
int floe_object_door_commit(const floe_object_door_t *d, const floe_store_object_t *obj, bool must_not_exist,
                            int *rc /* OUT */, floe_background_error_t *err /* OUT, may be NULL */);

/**
 * Deletes the objects keys[0..n) (missing ones, or a missing warehouse, are fine), in steps of
 * FLOE_OBJECT_DOOR_DELETE_BATCH keys (design note 3), stopping at the first failed step. With
 * files and bytes (both or neither), each step first looks its keys up and adds to *files and
 * *bytes what it found. FLOE_EFAIL with *err (may be NULL) when a step failed.
 */
int floe_object_door_delete(const floe_object_door_t *d, const char *const *keys, size_t n,
                            int64_t *files /* IN/OUT, may be NULL */, int64_t *bytes /* IN/OUT, may be NULL */,
                            floe_background_error_t *err /* OUT, may be NULL */);

/** One object of a listing. */
typedef struct floe_object_door_entry {
    char *key; /* malloc'ed */
    int64_t last_modified_ms;
} floe_object_door_entry_t;

/**
 * Lists, in one step, up to `max` objects whose keys follow `after` (NULL: from the start) in key
 * order, appending them to *entries (realloc'ed; the caller frees each key and the array) and
 * counting them in *n; *n_listed is how many this step added (fewer than max: the listing is
 * done). A missing warehouse lists nothing. FLOE_EFAIL with *err (may be NULL) when the step
 * failed; what earlier steps appended stays the caller's.
 */
int floe_object_door_list(const floe_object_door_t *d, const char *after, size_t max,
                          floe_object_door_entry_t **entries /* IN/OUT */, size_t *n /* IN/OUT */,
                          size_t *n_listed /* OUT */, floe_background_error_t *err /* OUT, may be NULL */);

#endif
