/* The peer address of peer.h, from the connection's socket. */
#include <arpa/inet.h>

#include "http/peer.h"

/* The dotted quad of `addr` (network order) into `text`: inet_ntop's for IPv4 formats with
 * sprintf, which cost --enforce-iam more than the rest of a cached decision. */
static const char *ipv4_text(const struct in_addr *addr, char *text)
{
    const unsigned char *b = (const unsigned char *)&addr->s_addr;
    char *at = text;

    for (int i = 0; i < 4; i++) {
        if (i > 0)
            *at++ = '.';
        if (b[i] >= 100)
            *at++ = (char)('0' + b[i] / 100);
        if (b[i] >= 10)
            *at++ = (char)('0' + b[i] / 10 % 10);
        *at++ = (char)('0' + b[i] % 10);
    }
    *at = '\0';
    return text;
}

const char *floe_http_peer_address(h2o_req_t *req)
{
    struct sockaddr_storage sa;
    char *text = h2o_mem_alloc_pool(&req->pool, INET6_ADDRSTRLEN);
    socklen_t len = req->conn->callbacks->get_peername(req->conn, (struct sockaddr *)&sa);

    if (len == 0)
        return NULL;
    if (sa.ss_family == AF_INET)
        return ipv4_text(&((struct sockaddr_in *)&sa)->sin_addr, text);
    if (sa.ss_family == AF_INET6)
        return inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&sa)->sin6_addr, text, INET6_ADDRSTRLEN);
    return NULL;
}
