/* reply.c -- one answer on a ROUTER socket (reply.h).
 *
 * Why a module of its own: the query socket's replies leave from two
 * places, the loop (query.c) and the standings worker's results
 * (standings.c), and the rules for sending -- never wait, count what is
 * dropped, take in what the I/O thread said first -- must be the same for
 * both.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "logformat/olcodec.h"
#include "src/core/dlog.h"
#include "src/daemon/reply.h"

json_t *reply_error(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return json_pack("{s:b, s:s}", "ok", 0, "error", msg);
}

int reply_send(void *sock, const reply_route *to, json_t *rep, uint64_t *dropped)
{
    char *out = NULL;
    size_t n = 0;
    int rc = -1;
    if (to->as_json) {
        out = json_dumps(rep, JSON_COMPACT);
        n = out ? strlen(out) : 0;
    } else if (olcodec_json_to_msgpack(rep, &out, &n)) {
        out = NULL;
    }
    if (out) {
        /* Asking for ZMQ_EVENTS makes libzmq take in what its I/O thread
         * said about replies already gone out; a send alone does that only
         * now and then, and the queue of a client that does read its
         * replies would look full. */
        int events;
        size_t elen = sizeof events;
        zmq_getsockopt(sock, ZMQ_EVENTS, &events, &elen);
        rc = zmq_send(sock, to->ident, to->ident_len, ZMQ_SNDMORE | ZMQ_DONTWAIT);
        if (rc >= 0 && to->delimiter)
            rc = zmq_send(sock, "", 0, ZMQ_SNDMORE | ZMQ_DONTWAIT);
        if (rc >= 0)
            rc = zmq_send(sock, out, n, ZMQ_DONTWAIT);
        if (rc < 0 && errno == EAGAIN && ++*dropped % 100 == 1)
            dlog(DLOG_WARN, "a query client does not read its replies: dropped (%llu so far)",
                 (unsigned long long)*dropped);
    }
    free(out);
    return rc < 0 ? -1 : 0;
}
