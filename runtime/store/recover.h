/*
 * The store's start-up sweep: makes the data directory ready for objects and removes what a crash
 * left behind (design note 2 in store.c). Runs once, before any thread serves.
 */
#ifndef FLOE_STORE_RECOVER_H
#define FLOE_STORE_RECOVER_H

#include "db/state.h"

/**
 * Makes the data directory ready for the store and removes what a crash left behind: creates
 * objects/ and tmp/, deletes every file in tmp/ (temp objects and h2o's body spills; no request is
 * in flight at start-up) and every file in objects/ that no row names, on the caller's connection
 * `st` (the first worker's, opened before any thread starts). FLOE_OK or FLOE_EFAIL (logged).
 */
int floe_store_recover(floe_state_t *st, const char *data_dir);

#endif
