/*
 * The HTTP server: h2o configuration, one listening socket, an event loop per thread, signal
 * handling and an orderly shutdown.
 */
#ifndef FLOE_SERVER_H
#define FLOE_SERVER_H

#include "base/config.h"

/**
 * Binds, serves until SIGINT or SIGTERM, then shuts down. Returns the process exit code:
 * 0 after a clean shutdown, 1 if start-up failed (the reason is logged).
 */
int floe_server_run(const floe_config_t *config);

#endif
