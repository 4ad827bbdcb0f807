/* query.h -- the query socket: health, matches, events, boards (openlog.md 9).
 *
 * A ROUTER.  A request is one map {"op": ...} in MessagePack or JSON; the
 * reply, in the same encoding, is {"ok":true,...} or {"ok":false,"error":
 * SENTENCE}.  arbiterd(8) lists every op and key (QUERY OPERATIONS),
 * settles paging, and says who may ask what (KEYS AND ROLES): the view a
 * client may see follows its role (judges every view and the raw bytes, a
 * table the player views of the matches it owns, everybody the public
 * view), and every refusal is an {"ok":false} with a sentence.
 *
 * A request may come with an empty delimiter frame before it (a REQ
 * socket): the reply carries it back.  Replies never wait: at most
 * QUERY_SNDHWM wait for one connection, a reply past that is dropped and
 * counted.  libzmq learns that a connection took its replies only every
 * QUERY_SNDHWM / 2 of them, so a client keeping at most QUERY_IN_FLIGHT
 * requests unanswered never loses a reply.  Lists come in pages of at most
 * QUERY_PAGE items and about QUERY_PAGE_BYTES, so that a reply, and what
 * waits for one connection, stays bounded in bytes too.
 *
 * `standings` judges every stored record of a --tournament again
 * (src/tournament/tourrec.h, as `arbiter tournament standings --db`), at most
 * STANDINGS_RECORDS of them: the one op whose cost grows with the
 * store, bounded so, and open to every role (standings hide no card).
 * It is computed by a worker thread (standings.h), never on the loop:
 * its reply comes when the worker is done, or at once from a cache, or
 * at once as a refusal when STANDINGS_WAITING requests already wait.
 */
#ifndef ARBITER_QUERY_H
#define ARBITER_QUERY_H

#include <jansson.h>

#include "src/daemon/daemon.h"

#define QUERY_SNDHWM 32
#define QUERY_IN_FLIGHT 16
#define QUERY_RCVHWM 4                  /* requests queued from a connection */
#define QUERY_REQUEST_MAX (512 * 1024)  /* ZMQ_MAXMSGSIZE: larger closes it  */
#define QUERY_VERIFY_MAX 1000           /* events of a verify request         */
#define QUERY_PAGE 1000
#define QUERY_PAGE_BYTES (128 * 1024)
#define QUERY_LIST_SCAN 10000           /* summaries a list request reads     */
#define QUERY_TURN_US 5000              /* queries answered per loop turn     */

/* Set the query socket's options (before zmq_bind).  0, or -1. */
int query_setup(void *sock);

/* Answer one waiting request: 1, or 0 when none was waiting.  Never
 * blocks. */
int query_serve(daemon_ctx *d, void *sock);

/* The reply to one request from `who`: a new reference, never NULL.  A
 * `standings` request is computed on the spot here (the worker's replies
 * go out through query_serve only). */
json_t *query_answer(daemon_ctx *d, json_t *req, const gate_peer *who);

#endif
