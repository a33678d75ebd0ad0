/* The peer address of peer.h, from the connection's socket. */
#include <arpa/inet.h>

#include "http/peer.h"

const char *floe_http_peer_address(h2o_req_t *req)
{
    struct sockaddr_storage sa;
    char *text = h2o_mem_alloc_pool(&req->pool, INET6_ADDRSTRLEN);
    socklen_t len = req->conn->callbacks->get_peername(req->conn, (struct sockaddr *)&sa);

    if (len == 0)
        return NULL;
    if (sa.ss_family == AF_INET)
        return inet_ntop(AF_INET, &((struct sockaddr_in *)&sa)->sin_addr, text, INET6_ADDRSTRLEN);
    if (sa.ss_family == AF_INET6)
        return inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&sa)->sin6_addr, text, INET6_ADDRSTRLEN);
    return NULL;
}
