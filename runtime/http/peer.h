/*
 * The address of the peer a request came from, as policies read it (aws:SourceIp). Wire only.
 */
#ifndef FLOE_HTTP_PEER_H
#define FLOE_HTTP_PEER_H

#include <h2o.h>

/** The peer's IPv4 or IPv6 address as text, in the request's pool; NULL when the connection has none. */
const char *floe_http_peer_address(h2o_req_t *req);

#endif
