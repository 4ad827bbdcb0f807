/* reply.h -- one answer on a ROUTER socket, never waiting for its client.
 *
 * The query socket answers each request at once (query.c), or later, when
 * the standings worker is done (standings.c).  Both send the same way,
 * through here: to a route (the client's ROUTER identity, its encoding,
 * whether it sent an empty delimiter first: a REQ socket), with
 * ZMQ_DONTWAIT, so that a client that does not read loses its replies
 * instead of stopping the daemon.  A refusal is {"ok":false,"error":
 * SENTENCE}.
 */
#ifndef ARBITER_REPLY_H
#define ARBITER_REPLY_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define REPLY_ROUTE_MAX 255         /* a ROUTER identity, at most (ZMTP)  */

/* Where a reply goes. */
typedef struct {
    uint8_t ident[REPLY_ROUTE_MAX];
    size_t ident_len;
    int delimiter, as_json;
} reply_route;

/* {"ok":false,"error":SENTENCE}, the sentence at most 511 bytes; NULL out
 * of memory. */
json_t *reply_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Send rep to `to` on the ROUTER `sock` in its encoding (JSON or
 * MessagePack).  Never blocks: a full queue drops the reply, counted in
 * *dropped (and logged now and then).  0 sent, -1 dropped or not
 * encodable. */
int reply_send(void *sock, const reply_route *to, json_t *rep, uint64_t *dropped);

#endif
