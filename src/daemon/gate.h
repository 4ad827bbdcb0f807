/* gate.h -- who may come in: CURVE, the ZAP handler, the door's limits.
 *
 * Every socket of the daemon (ingest, query, feed) is a door.  libzmq asks
 * a ZAP handler about every connection once its handshake is done (ZAP:
 * rfc.zeromq.org/spec/27); the gate is that handler.  It lets a
 * connection in when
 *   - with a keyring, the client's CURVE public key is listed, and its role
 *     may use the door (only tables and judges write events);
 *   - its peer -- its key with a keyring, its address without one (the IP
 *     address; over ipc:// the user) -- holds fewer connections on that
 *     door than its share;
 *   - the door holds fewer connections than its limit.
 * A peer at its share, or a full door, first makes room: the connection of
 * that peer (or of the door) quiet the longest is closed, provided it has
 * been quiet long enough (arbiterd(8) LIMITS: one that never delivered a message
 * for GATE_QUIET_NEW_MS, one that did for GATE_QUIET_IDLE_MS).  When no
 * connection is that quiet, the newcomer is refused -- in a way it can
 * read: it is let in marked as refused (its User-Id), every message it
 * sends is answered with a refusal naming the limit (gate_refusal()), and
 * it is closed GATE_REFUSED_LINGER_MS after its first message, or
 * GATE_REFUSED_GRACE_MS after it came in if it sends none.  At most
 * GATE_REFUSING_MAX connections of a door are being refused so at once;
 * past that, and always on the feed (a subscriber can be sent nothing of
 * its own), a refusal is ZAP status 400, which only the client's socket
 * monitor sees.
 *
 * Besides: a handshake not done within GATE_HANDSHAKE_MS closes the
 * connection (ZMQ_HANDSHAKE_IVL), and so does a connection that answers
 * nothing whole -- no message, not even ZeroMQ's heartbeat -- for
 * GATE_HEARTBEAT_TIMEOUT_MS after the daemon's heartbeat asked
 * (ZMQ_HEARTBEAT_IVL, _TIMEOUT): a frame begun and never finished, or a
 * peer gone without closing.  A connection that answers heartbeats and
 * sends nothing stays while there is room.
 *
 * libzmq cannot close one connection of a socket; the gate does it from
 * outside with shutdown(2) on the connection's descriptor, which it knows
 * from the socket's monitor (gate.c says how, and how it makes sure the
 * descriptor is still that connection's).
 *
 * A key removed from the keyring at SIGHUP is refused at its next
 * handshake, and every message of a connection it already opened is
 * refused: gate_who() tells the sender of a message from the User-Id the
 * handler gave its connection, and says when that key is gone.
 *
 * The gate owns the ZAP socket and one monitor socket per door; the
 * daemon's loop polls them (gate_poll_items) and calls gate_serve().
 */
#ifndef ARBITER_GATE_H
#define ARBITER_GATE_H

#include <stddef.h>
#include <stdint.h>
#include <zmq.h>

#include "src/core/keys.h"

typedef enum { GATE_INGEST, GATE_QUERY, GATE_FEED, GATE_BROADCAST, GATE_DOORS } gate_door;

/* The door's times (arbiterd(8) LIMITS), milliseconds. */
#define GATE_HANDSHAKE_MS 3000          /* an unfinished handshake closes    */
#define GATE_HEARTBEAT_MS 2000          /* the daemon's heartbeat asks ...   */
#define GATE_HEARTBEAT_TIMEOUT_MS 10000 /* ... and nothing whole since: closed */
#define GATE_QUIET_NEW_MS 1000          /* never delivered a message: may make room */
#define GATE_QUIET_IDLE_MS 10000        /* delivered, then quiet: may make room */
#define GATE_REFUSED_LINGER_MS 250      /* a refused connection's message answered: closed */
#define GATE_REFUSED_GRACE_MS 2000      /* a refused connection that says nothing: closed */
#define GATE_REFUSING_MAX 16            /* connections of a door refused readably at once */
#define GATE_LEFT_MS 5000               /* a peer with no ingest connection this long has left */

/* Shares: connections one peer may hold on each door (default). */
#define GATE_SHARE_INGEST 256
#define GATE_SHARE_QUERY 32
#define GATE_SHARE_FEED 64
#define GATE_SHARE_BROADCAST 16

#define GATE_PEER_MAX 64                /* characters of a peer or an address */

typedef struct {
    const char *keyring_path;      /* NULL: no CURVE, anonymous clients     */
    const keys_pair *server;       /* the daemon's key: CURVE's secret     */
    int caps[GATE_DOORS];          /* connections each door admits         */
    int shares[GATE_DOORS];        /* connections one peer may hold there  */
    int anonymous_judge;           /* without a keyring, anonymous query
                                      clients see every view (local only)  */
} gate_config;

/* Why a connection is refused (it was let in only to be told). */
typedef enum { GATE_ADMITTED, GATE_OVER_DOOR, GATE_OVER_SHARE } gate_refused_why;

/* Who sent a message: a listed key, or anonymous, and the connection it
 * came on.  `name` and `z85` point into the gate's keyring and are valid
 * until the next gate_reload(); copy them to keep them. */
typedef struct {
    const char *name;              /* NULL when anonymous                  */
    const char *z85;               /* the public key, NULL when anonymous  */
    keys_role role;                /* anonymous: KEYS_JUDGE or KEYS_VIEWER */
    int anonymous;
    gate_refused_why refused;      /* not GATE_ADMITTED: answer every message
                                      with gate_refusal(), take nothing     */
    int fd;                        /* the connection's descriptor, -1 unknown */
    char peer[GATE_PEER_MAX + 1];  /* its peer: the key in Z85, or the
                                      address (gate_address_peer); "" none */
    char addr[GATE_PEER_MAX + 1];  /* its address as libzmq gives it      */
} gate_peer;

typedef struct gate gate;

/* A gate in context zctx: binds the ZAP handler and loads the keyring.
 * Call before any socket of zctx binds.  0, or -1 with one sentence in err
 * (a keyring that is missing or malformed: fail closed). */
int gate_new(void *zctx, const gate_config *cfg, gate **out, char *err, size_t errlen);

/* Put `sock` behind the gate as `door`: its ZAP domain, CURVE server
 * options when there is a keyring, the handshake and heartbeat times, and
 * a monitor.  Call before zmq_bind.  0, or -1 with err. */
int gate_guard(gate *g, void *sock, gate_door door, char *err, size_t errlen);

/* The gate's sockets for the daemon's zmq_poll: fills at most `max` items
 * (ZMQ_POLLIN), returns how many (GATE_DOORS + 1). */
int gate_poll_items(gate *g, zmq_pollitem_t *items, int max);

/* Read what the monitors say, answer every waiting ZAP request, close the
 * connections whose time has come.  Never blocks. */
void gate_serve(gate *g);

/* Milliseconds until gate_serve() has a connection to close, at most
 * `cap` (a poll timeout). */
int gate_wait_ms(const gate *g, int cap);

/* SIGHUP: load the keyring again.  0; or -1 when it is missing or
 * malformed, logged, and then every key is refused until a good one is
 * loaded (fail closed).  Without a keyring: 0, nothing to do. */
int gate_reload(gate *g);

/* The sender of a message received on a guarded socket.  0 and *out; or
 * -1 when its key is no longer in the keyring (refuse the message; *out
 * still tells the connection). */
int gate_who(const gate *g, zmq_msg_t *msg, gate_peer *out);

/* A whole message of `who` on `door` was answered; `delivered`: it was
 * taken (not malformed, not refused), so the connection is not idle.  A
 * refused connection is closed GATE_REFUSED_LINGER_MS later, its answer
 * gone out.  Cheap: called for every message. */
void gate_heard(gate *g, gate_door door, const gate_peer *who, int delivered);

/* The sentence that tells a refused connection why (who->refused), at
 * most `cap` bytes with the NUL. */
void gate_refusal(const gate *g, gate_door door, const gate_peer *who, char *out, size_t cap);

/* Count an open match `peer` gained (+1) or lost (-1): the hook of the
 * live matches (live.h, live_table_hook); and how many it holds now. */
void gate_hold(gate *g, const char *peer, int delta);
size_t gate_held(gate *g, const char *peer);

/* Call fn for each peer that has had no ingest connection for GATE_LEFT_MS
 * since it last had one (each such departure once; fn may release its
 * matches, gate_hold). */
void gate_departed(gate *g, void (*fn)(void *ctx, const char *peer), void *ctx);

/* The peer of an address as libzmq writes it: the IP address itself; over
 * ipc:// ("localhost:UID:GID:PID") the user, "localhost:UID:GID"; "local"
 * for none.  The quarantine counts its sources the same way. */
void gate_address_peer(const char *addr, char *out, size_t cap);

/* 1 with a keyring (CURVE on every door). */
int gate_curve(const gate *g);

/* The keys admitted now: the keyring's size, 0 when none is loaded (the
 * last reload failed: fail closed), -1 without a keyring. */
long gate_keys(const gate *g);

/* Per door: connections let in and still open; connections accepted
 * whose handshake is not done yet; connections let in only to be told
 * they are refused; the door's limit and a peer's share; connections
 * refused there (readably or at the handshake); connections closed to make
 * room; peers holding connections there. */
size_t gate_open(const gate *g, gate_door d);
size_t gate_handshaking(const gate *g, gate_door d);
size_t gate_refusing(const gate *g, gate_door d);
int gate_cap(const gate *g, gate_door d);
int gate_share(const gate *g, gate_door d);
uint64_t gate_refused(const gate *g, gate_door d);
uint64_t gate_evicted(const gate *g, gate_door d);
size_t gate_peers(const gate *g, gate_door d);

/* "ingest", "query", "feed". */
const char *gate_door_name(gate_door d);

/* Stop watching `sock` (a door, before zmq_close): its monitor is stopped
 * and every event still queued read, so that nothing libzmq sent it is
 * left behind at exit.  Waits at most 200 ms. */
void gate_release(gate *g, void *sock, gate_door door);

/* Close the gate's sockets (before zmq_ctx_term) and free it; NULL-safe. */
void gate_destroy(gate **g);

#endif
