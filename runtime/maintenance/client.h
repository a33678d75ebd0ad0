/*
 * The client side of POST /_floe/maintenance/run, for `floe maintenance run` (cli.c): a blocking
 * HTTP/1.1 request to a running Floe. Not a general HTTP client: plain http://, one request, the
 * connection closed after the answer.
 */
#ifndef FLOE_MAINTENANCE_CLIENT_H
#define FLOE_MAINTENANCE_CLIENT_H

#include "http/sigv4_sign.h"

/**
 * Sends {"arn","type","now"?} to `endpoint` ("http://host:port"), signed with SigV4 by `signer`
 * when it is not NULL (a server with --strict-signatures refuses anything else), and waits for
 * the whole answer: 0 with *status and *body (malloc'ed, the caller frees), or -1 (reason on
 * stderr) when the server cannot be reached or answers something that is not HTTP.
 */
int floe_maintenance_client_run(const char *endpoint, const floe_sigv4_signer_t *signer, const char *arn,
                                const char *type, const char *now, int *status /* OUT */, char **body /* OUT */);

#endif
