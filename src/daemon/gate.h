/* gate.h -- who may come in: CURVE, the ZAP handler, connection limits.
 *
 * Every socket of the daemon (ingest, query, feed) is a door.  libzmq asks
 * a ZAP handler about every connection once its handshake is done (ZAP:
 * rfc.zeromq.org/spec/27); the gate is that handler.  It admits a
 * connection when
 *   - the door has room: the connections it let in and that are still
 *     open, counted from the socket's monitor (gate.c says how), stay
 *     within the door's limit, so that idle connections cannot take every
 *     file descriptor and lock out the query socket with the rest;
 *   - with a keyring, the client's CURVE public key is listed, and its role
 *     may use the door (only tables and judges write events).
 * Refusals are ZAP status 400 with a reason, and are counted and logged
 * (rate-limited: a refused client reconnects every few hundred ms).
 *
 * A key removed from the keyring at SIGHUP is refused at its next
 * handshake, but its open connections stay open (libzmq cannot close one
 * connection of a socket).  So every message is checked again: gate_who()
 * tells the sender of a message from the User-Id the handler gave its
 * connection, and says when that key is gone.
 *
 * Without a keyring nobody can be told apart: connections are anonymous,
 * and only the limits apply.
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

typedef enum { GATE_INGEST, GATE_QUERY, GATE_FEED, GATE_DOORS } gate_door;

typedef struct {
    const char *keyring_path;      /* NULL: no CURVE, anonymous clients     */
    const keys_pair *server;       /* the daemon's key: CURVE's secret     */
    int caps[GATE_DOORS];          /* connections each door admits         */
    int anonymous_judge;           /* without a keyring, anonymous query
                                      clients see every view (local only)  */
} gate_config;

/* Who sent a message: a listed key, or anonymous.  `name` and `z85` point
 * into the gate's keyring and are valid until the next gate_reload(); copy
 * them to keep them. */
typedef struct {
    const char *name;              /* NULL when anonymous                  */
    const char *z85;               /* the public key, NULL when anonymous  */
    keys_role role;                /* anonymous: KEYS_JUDGE or KEYS_VIEWER */
    int anonymous;
} gate_peer;

typedef struct gate gate;

/* A gate in context zctx: binds the ZAP handler and loads the keyring.
 * Call before any socket of zctx binds.  0, or -1 with one sentence in err
 * (a keyring that is missing or malformed: fail closed). */
int gate_new(void *zctx, const gate_config *cfg, gate **out, char *err, size_t errlen);

/* Put `sock` behind the gate as `door`: its ZAP domain, CURVE server
 * options when there is a keyring, a handshake limit, and a monitor.  Call
 * before zmq_bind.  0, or -1 with err. */
int gate_guard(gate *g, void *sock, gate_door door, char *err, size_t errlen);

/* The gate's sockets for the daemon's zmq_poll: fills at most `max` items
 * (ZMQ_POLLIN), returns how many (GATE_DOORS + 1). */
int gate_poll_items(gate *g, zmq_pollitem_t *items, int max);

/* Count what the monitors say, then answer every waiting ZAP request.
 * Never blocks. */
void gate_serve(gate *g);

/* SIGHUP: load the keyring again.  0; or -1 when it is missing or
 * malformed, logged, and then every key is refused until a good one is
 * loaded (fail closed).  Without a keyring: 0, nothing to do. */
int gate_reload(gate *g);

/* The sender of a message received on a guarded socket.  0 and *out; or
 * -1 when its key is no longer in the keyring (refuse the message). */
int gate_who(const gate *g, zmq_msg_t *msg, gate_peer *out);

/* 1 with a keyring (CURVE on every door). */
int gate_curve(const gate *g);

/* The keys admitted now: the keyring's size, 0 when none is loaded (the
 * last reload failed: fail closed), -1 without a keyring. */
long gate_keys(const gate *g);

/* Connections let in on a door and still open; connections accepted there
 * whose handshake is not done yet; the door's limit; connections refused
 * there. */
size_t gate_open(const gate *g, gate_door d);
size_t gate_handshaking(const gate *g, gate_door d);
int gate_cap(const gate *g, gate_door d);
uint64_t gate_refused(const gate *g, gate_door d);

/* "ingest", "query", "feed". */
const char *gate_door_name(gate_door d);

/* Stop watching `sock` (a door, before zmq_close): its monitor is stopped
 * and every event still queued read, so that nothing libzmq sent it is
 * left behind at exit.  Waits at most 200 ms. */
void gate_release(gate *g, void *sock, gate_door door);

/* Close the gate's sockets (before zmq_ctx_term) and free it; NULL-safe. */
void gate_destroy(gate **g);

#endif
