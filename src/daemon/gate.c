/* gate.c -- the ZAP handler, the door's connections, and the keyring (gate.h).
 *
 * What the gate knows of each connection, and from where:
 *
 *   accept ------> monitor: ACCEPTED, fd ---------> a record at conns[fd]:
 *                                                   its door, its address
 *                                                   (getpeername), unlabelled
 *   handshake ---> ZAP request (door, address, key) -> decide():
 *                    listed?  share?  room?  (make room: shutdown(2) the
 *                    quietest) -> "200" with a User-Id, the record labelled
 *                    IN or REFUSING with its peer; or "400"
 *   a message ---> User-Id, Peer-Address, ZMQ_SRCFD --> gate_who(), and
 *                    gate_heard(): the record's last message, a refused
 *                    connection's close
 *   close -------> monitor: [HANDSHAKE_FAILED_*] DISCONNECTED, fd
 *                                                -> the record is dropped
 *
 * The one thing libzmq does not say is which descriptor a ZAP request is
 * for: the request has the client's IP address, not its port.  So the
 * decision goes to the record of the same door and address that has
 * waited longest for one (handshakes end in about the order they begin),
 * and is put right when the guess was wrong: a labelled connection that
 * fails its handshake (libzmq sends HANDSHAKE_FAILED_* right before its
 * DISCONNECTED) hands its label to the next such record, and a message
 * whose User-Id does not match its descriptor's label swaps labels with
 * the record that has its label.  A wrong guess swaps two connections of
 * one address: the door's count stays right, a peer's too without a
 * keyring (its address is the peer), and with one only keys sharing an
 * address can be counted for each other -- until their connections send a
 * message; which of the two is closed to make room may be wrong while
 * they have said nothing.
 *
 * Closing one connection: shutdown(fd, SHUT_RDWR) makes libzmq's engine
 * read the end of the stream and close the connection as if the peer had
 * (it sends DISCONNECTED like any other).  The descriptor may have been
 * closed by libzmq and given to another connection since the record was
 * made; the monitor says so (DISCONNECTED comes before the ACCEPTED of the
 * descriptor's next use, one I/O thread emitting both), and it is read
 * before every decision, and the address of the descriptor is checked
 * again right before shutdown(): only the connection recorded is closed.
 * A message read from the socket may have outlived its connection
 * (messages wait in libzmq's queue): gate_heard() acts only when the
 * descriptor still holds a connection of that door and address.
 *
 * Invariants: in[d] = records of door d labelled IN, refusing[d] those
 * labelled REFUSING, each peer's conns[d] its IN records on d; a door
 * admits while in[d] - evicting[d] < its limit; a record is in its door's
 * `waiting` list exactly when it is open and unlabelled; ring is NULL
 * exactly when there is no keyring or the last reload failed (fail
 * closed); the User-Id of an admitted CURVE connection is its key in Z85,
 * of an anonymous one "", and GATE_REFUSED_MARK + 'd' or 's' + that for a
 * refused one (a mark outside Z85's alphabet: a key may begin with any
 * character of it, '!' included).
 */
#define _GNU_SOURCE                /* struct ucred, SO_PEERCRED (an ipc peer) */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>

#include "src/core/dlog.h"
#include "src/daemon/gate.h"

#define ZAP_ENDPOINT "inproc://zeromq.zap.01"
#define MONITOR_EVENTS (ZMQ_EVENT_ACCEPTED | ZMQ_EVENT_DISCONNECTED | ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL | \
                        ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH)
#define PEERS_START 64             /* a power of two                        */
/* The first character of a refused connection's User-Id.  Z85 (ZeroMQ
 * RFC 32) never writes '~', so no key's User-Id begins with it. */
#define GATE_REFUSED_MARK '~'

static const char *const door_names[GATE_DOORS] = {"ingest", "query", "feed", "broadcast"};
/* how a limit is set, for the sentences: "" when it is fixed */
static const char *const cap_option[GATE_DOORS] = {" (--max-connections)", "", "", ""};
static const char *const share_option[GATE_DOORS] = {" (--peer-connections)", "", "", ""};

enum { LABEL_NONE, LABEL_IN, LABEL_REFUSING };

typedef struct {
    uint8_t open, door, label, why;
    uint8_t delivered;             /* a message of it was taken            */
    uint8_t closing;               /* shutdown() done, DISCONNECTED to come */
    uint8_t astray;                /* its messages' label is nowhere: not
                                      looked for again until it changes   */
    int prev, next;                /* the door's `waiting` list (fds, -1)  */
    uint64_t accepted_ms, last_ms; /* facts of the connection ...          */
    uint64_t close_at_ms;          /* ... and of its label (REFUSING)      */
    char addr[GATE_PEER_MAX + 1];  /* as libzmq writes a peer's address   */
    char peer[GATE_PEER_MAX + 1];  /* its label's peer                     */
} conn;

typedef struct {
    char id[GATE_PEER_MAX + 1];
    uint8_t state;                 /* 0 free, 1 used, 2 a tombstone        */
    int conns[GATE_DOORS];
    size_t matches;                /* open matches it holds (gate_hold)    */
    uint64_t left_ms;              /* its ingest connections went to 0    */
} peer_entry;

struct gate {
    gate_config cfg;
    void *zctx, *zap;
    void *monitor[GATE_DOORS];
    conn *conns;                   /* by descriptor                       */
    int nconns;
    int head[GATE_DOORS], tail[GATE_DOORS];   /* unlabelled, oldest first  */
    size_t open[GATE_DOORS], in[GATE_DOORS], refusing[GATE_DOORS], evicting[GATE_DOORS], npeers[GATE_DOORS];
    int failed_before[GATE_DOORS]; /* the last event was HANDSHAKE_FAILED  */
    uint64_t refused[GATE_DOORS], evicted[GATE_DOORS];
    uint64_t next_close_ms;        /* the earliest close_at of a REFUSING  */
    peer_entry *peers;
    size_t peer_cap, peer_used;    /* used: used + tombstones             */
    size_t departing;              /* peers with left_ms set               */
    uint64_t logged;               /* refusals and evictions logged        */
    keyring *ring;
    int curve;
    char ring_path[4096];
};

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

const char *gate_door_name(gate_door d)
{
    return d < GATE_DOORS ? door_names[d] : "?";
}

/* ---- addresses and peers ------------------------------------------------------ */

/* s into out[cap], cut to fit: not snprintf, which costs more than the
 * rest of a malformed message's answer (it runs for every message) */
static void copy(char *out, size_t cap, const char *s)
{
    size_t n = strnlen(s, cap - 1);
    memcpy(out, s, n);
    out[n] = 0;
}

void gate_address_peer(const char *addr, char *out, size_t cap)
{
    copy(out, cap, addr && *addr ? addr : "local");
    /* over ipc the address is localhost:UID:GID:PID: the peer is the user
     * (and group), so that new processes make no new peer */
    char *pid = !strncmp(out, "localhost:", 10) ? strrchr(out, ':') : NULL;
    if (pid && pid > out + 9 && strchr(out + 10, ':') != pid)
        *pid = 0;
}

/* The address of the peer of `fd`, written as libzmq writes it (the
 * Peer-Address of its messages): 0, or -1 when fd is no connected socket. */
static int addr_of_fd(int fd, char *out, size_t cap)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    out[0] = 0;
    if (getpeername(fd, (struct sockaddr *)&ss, &len))
        return -1;
    if (ss.ss_family == AF_INET || ss.ss_family == AF_INET6)   /* as libzmq's get_peer_ip_address */
        return getnameinfo((struct sockaddr *)&ss, len, out, (socklen_t)cap, NULL, 0, NI_NUMERICHOST) ? -1 : 0;
    if (ss.ss_family == AF_UNIX) {
        struct ucred cred;
        socklen_t clen = sizeof cred;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen))
            snprintf(out, cap, "localhost");
        else
            snprintf(out, cap, "localhost:%u:%u:%d", (unsigned)cred.uid, (unsigned)cred.gid, (int)cred.pid);
        return 0;
    }
    return -1;
}

static size_t hash_id(const char *s)
{
    size_t h = 1469598103934665603ull;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ull;
    return h;
}

static int peers_grow(gate *g);

/* The entry of peer `id`; made when `create` (NULL: none, or out of
 * memory). */
static peer_entry *peer_get(gate *g, const char *id, int create)
{
    peer_entry *grave = NULL;
    for (size_t i = hash_id(id) & (g->peer_cap - 1);; i = (i + 1) & (g->peer_cap - 1)) {
        peer_entry *e = &g->peers[i];
        if (e->state == 1 && !strcmp(e->id, id))
            return e;
        if (e->state == 2 && !grave)
            grave = e;
        if (e->state == 0)
            break;
    }
    if (!create)
        return NULL;
    if (!grave && (g->peer_used + 1) * 2 > g->peer_cap) {
        if (peers_grow(g))
            return NULL;
        return peer_get(g, id, 1);
    }
    peer_entry *e = grave;
    if (!e) {
        for (size_t i = hash_id(id) & (g->peer_cap - 1);; i = (i + 1) & (g->peer_cap - 1))
            if (g->peers[i].state == 0) {
                e = &g->peers[i];
                break;
            }
        g->peer_used++;
    }
    memset(e, 0, sizeof *e);
    e->state = 1;
    snprintf(e->id, sizeof e->id, "%s", id);
    return e;
}

/* Rebuild the peer table without its tombstones, twice as large when it
 * is more than a quarter full of live entries. */
static int peers_grow(gate *g)
{
    size_t live = 0, cap;
    for (size_t i = 0; i < g->peer_cap; i++)
        live += g->peers[i].state == 1;
    cap = g->peer_cap;
    while ((live + 1) * 4 > cap)
        cap *= 2;
    peer_entry *old = g->peers, *fresh = calloc(cap, sizeof *fresh);
    size_t old_cap = g->peer_cap;
    if (!fresh)
        return -1;
    g->peers = fresh;
    g->peer_cap = cap;
    g->peer_used = 0;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].state == 1) {
            peer_entry *e = peer_get(g, old[i].id, 1);
            *e = old[i];
        }
    free(old);
    return 0;
}

/* A peer that holds nothing and is not waiting to be told gone: forgotten. */
static void peer_maybe_forget(peer_entry *e)
{
    for (int d = 0; d < GATE_DOORS; d++)
        if (e->conns[d])
            return;
    if (!e->left_ms && !e->matches)
        e->state = 2;
}

/* ---- records and their labels -------------------------------------------------- */

static void wait_push(gate *g, int fd)
{
    conn *c = &g->conns[fd];
    c->prev = g->tail[c->door];
    c->next = -1;
    if (c->prev >= 0)
        g->conns[c->prev].next = fd;
    else
        g->head[c->door] = fd;
    g->tail[c->door] = fd;
}

static void wait_unlink(gate *g, int fd)
{
    conn *c = &g->conns[fd];
    if (c->prev >= 0)
        g->conns[c->prev].next = c->next;
    else
        g->head[c->door] = c->next;
    if (c->next >= 0)
        g->conns[c->next].prev = c->prev;
    else
        g->tail[c->door] = c->prev;
    c->prev = c->next = -1;
}

/* The open unlabelled record of door d and address addr (any address when
 * addr is NULL) that has waited longest, not `skip`; -1 when none. */
static int waiting_for(const gate *g, gate_door d, const char *addr, int skip)
{
    for (int fd = g->head[d]; fd >= 0; fd = g->conns[fd].next)
        if (fd != skip && (!addr || !strcmp(g->conns[fd].addr, addr)))
            return fd;
    return -1;
}

static void count_peer(gate *g, const char *id, gate_door d, int delta)
{
    peer_entry *e = peer_get(g, id, delta > 0);
    if (!e)
        return;   /* out of memory: the peer is not counted (its share is lost) */
    int was = e->conns[d];
    e->conns[d] = was + delta < 0 ? 0 : was + delta;
    if (!was && e->conns[d])
        g->npeers[d]++;
    if (was && !e->conns[d])
        g->npeers[d]--;
    if (d == GATE_INGEST && !was && e->conns[d] && e->left_ms) {
        e->left_ms = 0;   /* back before it was told gone */
        g->departing--;
    }
    if (d == GATE_INGEST && was && !e->conns[d] && !e->left_ms) {
        e->left_ms = now_ms();
        g->departing++;
    }
    peer_maybe_forget(e);
}

/* 1 when the record counts as a connection being closed to make room. */
static int evicting_part(const conn *c)
{
    return c->label == LABEL_IN && c->closing;
}

static void label(gate *g, int fd, int lab, gate_refused_why why, const char *peer, uint64_t now)
{
    conn *c = &g->conns[fd];
    wait_unlink(g, fd);
    c->label = (uint8_t)lab;
    c->why = (uint8_t)why;
    c->astray = 0;
    snprintf(c->peer, sizeof c->peer, "%s", peer);
    if (lab == LABEL_IN) {
        g->in[c->door]++;
        g->evicting[c->door] += evicting_part(c);
        count_peer(g, peer, (gate_door)c->door, +1);
    } else {
        g->refusing[c->door]++;
        c->close_at_ms = now + GATE_REFUSED_GRACE_MS;
        if (!g->next_close_ms || c->close_at_ms < g->next_close_ms)
            g->next_close_ms = c->close_at_ms;
    }
}

static void unlabel(gate *g, int fd)
{
    conn *c = &g->conns[fd];
    if (c->label == LABEL_IN) {
        g->in[c->door]--;
        g->evicting[c->door] -= evicting_part(c);
        count_peer(g, c->peer, (gate_door)c->door, -1);
    } else if (c->label == LABEL_REFUSING) {
        g->refusing[c->door]--;
    }
    c->label = LABEL_NONE;
    c->astray = 0;
    c->peer[0] = 0;
    if (c->open)
        wait_push(g, fd);
}

/* Give record `to` the label of `from` (`swap`: and `from` the label of
 * `to`, both labelled; else `from` ends unlabelled and `to` was).  The
 * records are of one door and address: the counts per peer and door stay
 * as they were.  What happened to each connection (delivered, closing)
 * stays with it. */
static void relabel(gate *g, int from, int to, int swap)
{
    conn *x = &g->conns[from], *y = &g->conns[to];
    conn t = *y;
    gate_door d = (gate_door)x->door;
    g->evicting[d] -= evicting_part(x) + evicting_part(y);
    if (!swap)
        wait_unlink(g, to);
    y->label = x->label, y->why = x->why, y->close_at_ms = x->close_at_ms;
    memcpy(y->peer, x->peer, sizeof y->peer);
    x->label = swap ? t.label : LABEL_NONE, x->why = t.why, x->close_at_ms = t.close_at_ms;
    memcpy(x->peer, swap ? t.peer : "", swap ? sizeof x->peer : 1);
    x->astray = y->astray = 0;
    g->evicting[d] += evicting_part(x) + evicting_part(y);
    if (!swap && x->open)
        wait_push(g, from);
}

static int ensure_fd(gate *g, int fd)
{
    if (fd < g->nconns)
        return 0;
    int n = g->nconns ? g->nconns : 256;
    while (n <= fd)
        n *= 2;
    conn *t = realloc(g->conns, (size_t)n * sizeof *t);
    if (!t)
        return -1;
    memset(t + g->nconns, 0, (size_t)(n - g->nconns) * sizeof *t);
    g->conns = t;
    g->nconns = n;
    return 0;
}

/* The connection at fd closed (`failed`: before its handshake ended). */
static void hold_to_cap(gate *g, int fd);

static void conn_closed(gate *g, int fd, int failed)
{
    conn *c = &g->conns[fd];
    if (c->label != LABEL_NONE && failed) {
        /* it was given another connection's label: that one is in */
        int to = waiting_for(g, (gate_door)c->door, c->addr, fd);
        if (to >= 0) {
            relabel(g, fd, to, 0);
            hold_to_cap(g, to);
        }
    }
    c->open = 0;
    if (c->label != LABEL_NONE)
        unlabel(g, fd);
    else
        wait_unlink(g, fd);
    g->open[c->door]--;
}

static void conn_accepted(gate *g, gate_door d, int fd, uint64_t now)
{
    if (fd < 0 || ensure_fd(g, fd))
        return;   /* out of memory: the connection is not seen (never closed to make room) */
    if (g->conns[fd].open)
        conn_closed(g, fd, 0);   /* its DISCONNECTED waits in another door's monitor */
    conn *c = &g->conns[fd];
    memset(c, 0, sizeof *c);
    c->open = 1;
    c->door = (uint8_t)d;
    c->accepted_ms = now;
    c->prev = c->next = -1;
    addr_of_fd(fd, c->addr, sizeof c->addr);
    wait_push(g, fd);
    g->open[d]++;
}

/* ---- the monitors ---------------------------------------------------------------- */

/* One monitor event, [u16 event, u32 value][endpoint]: its event number
 * and value, or -1 when none is waiting. */
static int read_event(void *monitor, int *value)
{
    uint16_t event = 0;
    uint32_t v = 0;
    int more = 1, got = 0;
    while (more) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, monitor, got ? 0 : ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&m);
            break;   /* the parts of a message arrive together */
        }
        if (!got++ && zmq_msg_size(&m) >= 6) {
            memcpy(&event, zmq_msg_data(&m), 2);
            memcpy(&v, (char *)zmq_msg_data(&m) + 2, 4);
        }
        more = zmq_msg_more(&m);
        zmq_msg_close(&m);
    }
    *value = (int)v;
    return got ? event : -1;
}

static void read_monitor(gate *g, gate_door d)
{
    int event, value;
    uint64_t now = now_ms();
    while ((event = read_event(g->monitor[d], &value)) >= 0) {
        if (event == ZMQ_EVENT_ACCEPTED) {
            conn_accepted(g, d, value, now);
        } else if (event == ZMQ_EVENT_DISCONNECTED) {
            if (value >= 0 && value < g->nconns && g->conns[value].open && g->conns[value].door == d)
                conn_closed(g, value, g->failed_before[d]);
        }
        /* libzmq sends a failed handshake's HANDSHAKE_FAILED_* right
         * before that connection's DISCONNECTED */
        g->failed_before[d] = event == ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL ||
                              event == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL || event == ZMQ_EVENT_HANDSHAKE_FAILED_AUTH;
    }
}

static void read_monitors(gate *g)
{
    for (int d = 0; d < GATE_DOORS; d++)
        if (g->monitor[d])
            read_monitor(g, (gate_door)d);
}

/* ---- closing one connection ----------------------------------------------------------- */

/* Close the connection recorded at fd: 0.  The descriptor no longer holds
 * it (libzmq closed it: its DISCONNECTED is on the way) is no error
 * either: nothing is done to whatever holds the descriptor now. */
static void shut(gate *g, int fd)
{
    conn *c = &g->conns[fd];
    char now_addr[GATE_PEER_MAX + 1];
    if (addr_of_fd(fd, now_addr, sizeof now_addr) || strcmp(now_addr, c->addr))
        return;
    if (shutdown(fd, SHUT_RDWR) && errno != ENOTCONN)
        dlog(DLOG_DEBUG, "shutdown of a %s connection: %s", door_names[c->door], strerror(errno));
}

/* After a label moved onto the connection at fd (the gate's guess of which
 * connection a ZAP decision was for proved wrong): if that makes the door
 * hold more connections than its limit -- the one found in was never
 * counted when it came in -- it is closed as a newcomer past the limit
 * would have been refused.  A DEALER reconnects by itself; the invariant
 * in[d] - evicting[d] <= limit holds again. */
static void hold_to_cap(gate *g, int fd)
{
    conn *c = &g->conns[fd];
    gate_door d = (gate_door)c->door;
    if (c->label != LABEL_IN || c->closing || g->in[d] - g->evicting[d] <= (size_t)g->cfg.caps[d])
        return;
    if (++g->logged <= 20 || g->logged % 1000 == 0)
        dlog(DLOG_INFO, "closed a %s connection from %s found let in past the limit of %d (a burst from one "
             "address: the connection a decision was for guessed wrong)", door_names[d], c->addr, g->cfg.caps[d]);
    shut(g, fd);
    c->closing = 1;
    g->evicting[d]++;
}

/* Room on door d (for a newcomer of `peer`, or any when NULL): close the
 * connection quiet the longest, if one has been quiet long enough.  1 when
 * one was closed, 0 when none may be. */
static int make_room(gate *g, gate_door d, const char *peer, uint64_t now)
{
    int best = -1, best_class = 2;
    uint64_t best_t = 0;
    if (d == GATE_FEED || d == GATE_BROADCAST)
        return 0;   /* subscribers are quiet by nature */
    for (int fd = 0; fd < g->nconns; fd++) {
        conn *c = &g->conns[fd];
        if (!c->open || c->door != d || c->label != LABEL_IN || c->closing || (peer && strcmp(c->peer, peer)))
            continue;
        /* one that never delivered a message first, then the idle */
        int cls = c->delivered ? 1 : 0;
        uint64_t t = c->delivered ? c->last_ms : c->accepted_ms;
        if (now - t < (cls ? GATE_QUIET_IDLE_MS : GATE_QUIET_NEW_MS))
            continue;
        if (cls < best_class || (cls == best_class && t < best_t)) {
            best = fd;
            best_class = cls;
            best_t = t;
        }
    }
    if (best < 0)
        return 0;
    conn *c = &g->conns[best];
    if (++g->logged <= 20 || g->logged % 1000 == 0)
        dlog(DLOG_INFO, "closed a %s connection from %s (quiet for %.1f s%s) to make room for a newcomer (%s full)",
             door_names[d], c->addr, (double)(now - best_t) / 1000, c->delivered ? "" : ", it never sent a message",
             peer ? "its peer's share" : "the socket");
    shut(g, best);
    c->closing = 1;
    g->evicting[d]++;
    g->evicted[d]++;
    return 1;
}

/* Close the refused connections whose time has come. */
static void close_refused(gate *g, uint64_t now)
{
    if (!g->next_close_ms || now < g->next_close_ms)
        return;
    g->next_close_ms = 0;
    for (int fd = 0; fd < g->nconns; fd++) {
        conn *c = &g->conns[fd];
        if (!c->open || c->label != LABEL_REFUSING || c->closing)
            continue;
        if (c->close_at_ms <= now) {
            shut(g, fd);
            c->closing = 1;
        } else if (!g->next_close_ms || c->close_at_ms < g->next_close_ms) {
            g->next_close_ms = c->close_at_ms;
        }
    }
}

/* ---- the ZAP handler ------------------------------------------------------------------ */

int gate_new(void *zctx, const gate_config *cfg, gate **out, char *err, size_t errlen)
{
    gate *g = calloc(1, sizeof *g);
    *out = NULL;
    if (!g || !(g->peers = calloc(PEERS_START, sizeof *g->peers))) {
        free(g);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    g->peer_cap = PEERS_START;
    g->cfg = *cfg;
    g->zctx = zctx;
    g->curve = cfg->keyring_path != NULL;
    for (int d = 0; d < GATE_DOORS; d++)
        g->head[d] = g->tail[d] = -1;
    if (g->curve) {
        snprintf(g->ring_path, sizeof g->ring_path, "%s", cfg->keyring_path);
        g->cfg.keyring_path = g->ring_path;
        if (!cfg->server || !cfg->server->has_secret) {
            snprintf(err, errlen, "CURVE needs the daemon's secret key (--key)");
            goto fail;
        }
        if (keyring_load(g->ring_path, &g->ring, err, errlen))
            goto fail;
    }
    int zero = 0;
    if (!(g->zap = zmq_socket(zctx, ZMQ_REP)) || zmq_setsockopt(g->zap, ZMQ_LINGER, &zero, sizeof zero) ||
        zmq_bind(g->zap, ZAP_ENDPOINT)) {
        snprintf(err, errlen, "cannot start the ZAP handler: %s", zmq_strerror(errno));
        goto fail;
    }
    *out = g;
    return 0;
fail:
    gate_destroy(&g);
    return -1;
}

int gate_guard(gate *g, void *sock, gate_door door, char *err, size_t errlen)
{
    char ep[64];
    int one = 1, ivl = GATE_HANDSHAKE_MS, beat = GATE_HEARTBEAT_MS, beat_out = GATE_HEARTBEAT_TIMEOUT_MS, zero = 0;
    const char *domain = door_names[door];

    snprintf(ep, sizeof ep, "inproc://arbiterd-monitor-%s", domain);
    if (zmq_setsockopt(sock, ZMQ_ZAP_DOMAIN, domain, strlen(domain)) ||
        zmq_setsockopt(sock, ZMQ_HANDSHAKE_IVL, &ivl, sizeof ivl) ||
        zmq_setsockopt(sock, ZMQ_HEARTBEAT_IVL, &beat, sizeof beat) ||
        zmq_setsockopt(sock, ZMQ_HEARTBEAT_TIMEOUT, &beat_out, sizeof beat_out))
        goto fail;
    if (g->curve && (zmq_setsockopt(sock, ZMQ_CURVE_SERVER, &one, sizeof one) ||
                     zmq_setsockopt(sock, ZMQ_CURVE_SECRETKEY, g->cfg.server->curve_secret, 32)))
        goto fail;
    /* the monitor's queue has no limit: libzmq's I/O thread would wait on
     * a full one, and the events are read every turn of the loop */
    if (zmq_socket_monitor(sock, ep, MONITOR_EVENTS) || !(g->monitor[door] = zmq_socket(g->zctx, ZMQ_PAIR)) ||
        zmq_setsockopt(g->monitor[door], ZMQ_LINGER, &zero, sizeof zero) ||
        zmq_setsockopt(g->monitor[door], ZMQ_RCVHWM, &zero, sizeof zero) || zmq_connect(g->monitor[door], ep))
        goto fail;
    return 0;
fail:
    snprintf(err, errlen, "cannot guard the %s socket: %s", domain, zmq_strerror(errno));
    return -1;
}

int gate_poll_items(gate *g, zmq_pollitem_t *items, int max)
{
    int n = 0;
    if (n < max)
        items[n++] = (zmq_pollitem_t){g->zap, 0, ZMQ_POLLIN, 0};
    for (int d = 0; d < GATE_DOORS && n < max; d++)
        if (g->monitor[d])
            items[n++] = (zmq_pollitem_t){g->monitor[d], 0, ZMQ_POLLIN, 0};
    return n;
}

/* Read the frames of one ZAP request into f[] (at most 8, the rest
 * dropped); their count, or -1 when none was waiting. */
static int read_request(void *zap, zmq_msg_t *f, int max)
{
    int n = 0, more = 1;
    while (more) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, zap, n ? 0 : ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&m);
            return n ? n : -1;
        }
        more = zmq_msg_more(&m);
        if (n < max)
            f[n++] = m;
        else
            zmq_msg_close(&m);
    }
    return n;
}

static int frame_is(zmq_msg_t *m, const char *s)
{
    return zmq_msg_size(m) == strlen(s) && !memcmp(zmq_msg_data(m), s, strlen(s));
}

static gate_door door_of(zmq_msg_t *domain)
{
    for (int d = 0; d < GATE_DOORS; d++)
        if (frame_is(domain, door_names[d]))
            return (gate_door)d;
    return GATE_DOORS;
}

/* Log a refusal: the first ones, then one in a thousand (a refused client
 * comes back every 100 ms). */
static void log_refusal(gate *g, gate_door d, const char *addr, const char *why)
{
    uint64_t n = ++g->refused[d < GATE_DOORS ? d : 0];
    if (n <= 10 || n % 1000 == 0)
        dlog(DLOG_WARN, "refused a connection to %s from %s: %s (%llu refused there so far)",
             d < GATE_DOORS ? door_names[d] : "an unknown socket", addr, why, (unsigned long long)n);
}

/* A connection of `peer` past a limit: let in to be told why (its record
 * labelled REFUSING, *user marked), or "400" when none more may be. */
static const char *refuse_readably(gate *g, gate_door d, int rec, gate_refused_why why, const char *peer,
                                   const char *addr, char *user, const char **reason, uint64_t now)
{
    char line[200];
    int readable = d != GATE_FEED && d != GATE_BROADCAST && rec >= 0 && g->refusing[d] < GATE_REFUSING_MAX;
    snprintf(line, sizeof line, "%s (peer %s)%s",
             why == GATE_OVER_SHARE ? "its peer holds its share of connections" : "too many connections", peer,
             readable ? "; let in to be told so, then closed" : "");
    *reason = why == GATE_OVER_SHARE ? "too many connections from this peer" : "too many connections";
    log_refusal(g, d, addr, line);
    if (!readable)
        return "400";
    char rest[KEYS_Z85 + 1];
    snprintf(rest, sizeof rest, "%s", user);
    snprintf(user, KEYS_Z85 + 3, "%c%c%s", GATE_REFUSED_MARK, why == GATE_OVER_SHARE ? 's' : 'd', rest);
    label(g, rec, LABEL_REFUSING, why, peer, now);
    return "200";
}

/* Decide one request: "200" with the user id, or "400" with the reason. */
static const char *decide(gate *g, zmq_msg_t *f, int n, char *user, const char **reason)
{
    char addr[GATE_PEER_MAX + 1] = "?", peer[GATE_PEER_MAX + 1];
    gate_door d = n >= 6 ? door_of(&f[2]) : GATE_DOORS;
    size_t alen = n >= 4 ? zmq_msg_size(&f[3]) : 0;
    uint64_t now = now_ms();

    *user = 0;
    memcpy(addr, n >= 4 ? zmq_msg_data(&f[3]) : "?", alen < sizeof addr ? alen : sizeof addr - 1);
    addr[alen < sizeof addr ? alen : sizeof addr - 1] = 0;
    if (d == GATE_DOORS || n < 6) {
        *reason = "not one of the daemon's sockets";
        return "400";
    }
    if (g->curve) {
        if (!frame_is(&f[5], "CURVE") || n < 7 || zmq_msg_size(&f[6]) != 32) {
            *reason = "CURVE is required";
            log_refusal(g, d, addr, "not a CURVE client");
            return "400";
        }
        const keys_entry *e = keyring_find(g->ring, zmq_msg_data(&f[6]));
        if (!e) {
            char z85[KEYS_Z85 + 1], why[128];
            keys_z85(zmq_msg_data(&f[6]), z85);
            snprintf(why, sizeof why, "the key %s is not in the keyring%s", z85, g->ring ? "" : " (none is loaded)");
            *reason = "unknown key";
            log_refusal(g, d, addr, why);
            return "400";
        }
        if (d == GATE_INGEST && e->role != KEYS_TABLE && e->role != KEYS_JUDGE) {
            char why[160];
            snprintf(why, sizeof why, "%s has the role %s; only tables and judges send events", e->name,
                     keys_role_name(e->role));
            *reason = "this role may not send events";
            log_refusal(g, d, addr, why);
            return "400";
        }
        /* the broadcast (arbiterd(8), BROADCAST): the judge's view, late,
         * for the keys of its role only */
        if (d == GATE_BROADCAST && e->role != KEYS_BROADCAST) {
            char why[160];
            snprintf(why, sizeof why, "%s has the role %s; only broadcast keys receive the broadcast", e->name,
                     keys_role_name(e->role));
            *reason = "this role may not receive the broadcast";
            log_refusal(g, d, addr, why);
            return "400";
        }
        memcpy(user, e->z85, KEYS_Z85 + 1);
        snprintf(peer, sizeof peer, "%s", e->z85);
        dlog(DLOG_DEBUG, "admitting %s (%s) to %s from %s", e->name, keys_role_name(e->role), door_names[d], addr);
    } else {
        gate_address_peer(addr, peer, sizeof peer);
    }
    /* its record: the connection of that address waiting longest */
    int rec = waiting_for(g, d, addr, -1);
    if (rec < 0)
        rec = waiting_for(g, d, NULL, -1);
    peer_entry *e = peer_get(g, peer, 0);
    if (e && e->conns[d] >= g->cfg.shares[d] && !make_room(g, d, peer, now))
        return refuse_readably(g, d, rec, GATE_OVER_SHARE, peer, addr, user, reason, now);
    if (g->in[d] - g->evicting[d] >= (size_t)g->cfg.caps[d] && !make_room(g, d, NULL, now))
        return refuse_readably(g, d, rec, GATE_OVER_DOOR, peer, addr, user, reason, now);
    if (rec >= 0)
        label(g, rec, LABEL_IN, GATE_ADMITTED, peer, now);
    *reason = "OK";
    return "200";
}

void gate_serve(gate *g)
{
    read_monitors(g);
    for (;;) {
        zmq_msg_t f[8];
        char user[KEYS_Z85 + 3];
        const char *reason = "OK";
        int n = read_request(g->zap, f, 8);
        if (n < 0)
            break;
        /* libzmq sent the ACCEPTED of this connection before its ZAP
         * request, and every DISCONNECTED of a descriptor before the
         * ACCEPTED of its next use: read them, for the records */
        read_monitors(g);
        const char *status = decide(g, f, n, user, &reason);
        /* version, request id, status, text, user id, metadata */
        const char *id = n >= 2 ? zmq_msg_data(&f[1]) : "";
        size_t idlen = n >= 2 ? zmq_msg_size(&f[1]) : 0;
        if (zmq_send(g->zap, "1.0", 3, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0 ||
            zmq_send(g->zap, id, idlen, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0 ||
            zmq_send(g->zap, status, 3, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0 ||
            zmq_send(g->zap, reason, strlen(reason), ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0 ||
            zmq_send(g->zap, user, strlen(user), ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0 ||
            zmq_send(g->zap, "", 0, ZMQ_DONTWAIT) < 0)
            dlog(DLOG_ERROR, "cannot answer a ZAP request: %s", zmq_strerror(errno));
        for (int i = 0; i < n; i++)
            zmq_msg_close(&f[i]);
    }
    close_refused(g, now_ms());
}

int gate_wait_ms(const gate *g, int cap)
{
    uint64_t now = now_ms();
    if (!g->next_close_ms)
        return cap;
    if (g->next_close_ms <= now)
        return 0;
    return g->next_close_ms - now < (uint64_t)cap ? (int)(g->next_close_ms - now) : cap;
}

int gate_reload(gate *g)
{
    char err[512];
    keyring *r = NULL;
    if (!g->curve)
        return 0;
    if (keyring_load(g->ring_path, &r, err, sizeof err)) {
        dlog(DLOG_ERROR, "%s: every key is refused until a good keyring is loaded (SIGHUP)", err);
        keyring_destroy(&g->ring);   /* fail closed */
        return -1;
    }
    keyring_destroy(&g->ring);
    g->ring = r;
    dlog(DLOG_INFO, "keyring %s: %zu keys", g->ring_path, keyring_size(r));
    return 0;
}

/* ---- messages ------------------------------------------------------------------------ */

int gate_who(const gate *g, zmq_msg_t *msg, gate_peer *out)
{
    const char *addr = zmq_msg_gets(msg, "Peer-Address");
    const char *user = zmq_msg_gets(msg, "User-Id");
    memset(out, 0, sizeof *out);
    out->fd = zmq_msg_get(msg, ZMQ_SRCFD);
    copy(out->addr, sizeof out->addr, addr ? addr : "");
    if (user && user[0] == GATE_REFUSED_MARK && user[1]) {
        out->refused = user[1] == 's' ? GATE_OVER_SHARE : GATE_OVER_DOOR;
        user += 2;
    }
    if (!g->curve) {
        out->anonymous = 1;
        out->role = g->cfg.anonymous_judge ? KEYS_JUDGE : KEYS_VIEWER;
        gate_address_peer(out->addr, out->peer, sizeof out->peer);
        return 0;
    }
    copy(out->peer, sizeof out->peer, user ? user : "");
    const keys_entry *e = keyring_find_z85(g->ring, user);
    if (!e)
        return -1;
    out->name = e->name;
    out->z85 = e->z85;
    out->role = e->role;
    return 0;
}

void gate_heard(gate *g, gate_door d, const gate_peer *who, int delivered)
{
    int fd = who->fd;
    if (fd < 0 || fd >= g->nconns)
        return;
    conn *c = &g->conns[fd];
    if (!c->open || c->door != d || strcmp(c->addr, who->addr))
        return;   /* the message outlived its connection */
    int lab = who->refused ? LABEL_REFUSING : LABEL_IN;
    if ((c->label != lab || strcmp(c->peer, who->peer)) && !c->astray) {
        /* this connection got another one's label (gate.c, top): the two
         * exchange them */
        c->astray = 1;
        for (int o = 0; o < g->nconns; o++) {
            conn *x = &g->conns[o];
            if (o == fd || !x->open || x->door != d || x->label != lab || strcmp(x->peer, who->peer) ||
                strcmp(x->addr, c->addr))
                continue;
            relabel(g, o, fd, c->label != LABEL_NONE);
            hold_to_cap(g, fd);
            break;
        }
    }
    if (!delivered && !who->refused)
        return;   /* the common case of a flood: nothing to note */
    uint64_t now = now_ms();
    if (delivered) {
        c->delivered = 1;
        c->last_ms = now;
    }
    if (who->refused && c->label == LABEL_REFUSING && c->close_at_ms > now + GATE_REFUSED_LINGER_MS) {
        c->close_at_ms = now + GATE_REFUSED_LINGER_MS;
        if (!g->next_close_ms || c->close_at_ms < g->next_close_ms)
            g->next_close_ms = c->close_at_ms;
    }
}

void gate_refusal(const gate *g, gate_door d, const gate_peer *who, char *out, size_t cap)
{
    if (who->refused == GATE_OVER_SHARE)
        snprintf(out, cap,
                 "%s %s holds %d connections to the daemon's %s socket, its share%s; this connection is refused "
                 "and closed: close one of the others, or connect again later.",
                 who->name ? "The key" : "The address", who->name ? who->name : who->peer, g->cfg.shares[d],
                 door_names[d], share_option[d]);
    else
        snprintf(out, cap,
                 "The daemon's %s socket holds %d connections, its limit%s, and none has been quiet long "
                 "enough to make room; this connection is refused and closed: connect again later.",
                 door_names[d], g->cfg.caps[d], cap_option[d]);
}

void gate_departed(gate *g, void (*fn)(void *ctx, const char *peer), void *ctx)
{
    if (!g->departing)
        return;
    uint64_t now = now_ms();
    for (size_t i = 0; i < g->peer_cap; i++) {
        peer_entry *e = &g->peers[i];
        if (e->state != 1 || !e->left_ms || now - e->left_ms < GATE_LEFT_MS)
            continue;
        e->left_ms = 0;
        g->departing--;
        fn(ctx, e->id);
        peer_maybe_forget(e);
    }
}

void gate_hold(gate *g, const char *peer, int delta)
{
    peer_entry *e = peer_get(g, peer, delta > 0);
    if (!e)
        return;   /* out of memory: not counted */
    if (delta > 0)
        e->matches++;
    else if (e->matches)
        e->matches--;
    peer_maybe_forget(e);
}

size_t gate_held(gate *g, const char *peer)
{
    peer_entry *e = peer_get(g, peer, 0);
    return e ? e->matches : 0;
}

/* ---- what health reports ---------------------------------------------------------------- */

int gate_curve(const gate *g)
{
    return g->curve;
}

long gate_keys(const gate *g)
{
    return !g->curve ? -1 : g->ring ? (long)keyring_size(g->ring) : 0;
}

size_t gate_open(const gate *g, gate_door d)
{
    return g->in[d] - g->evicting[d];
}

size_t gate_handshaking(const gate *g, gate_door d)
{
    return g->open[d] - g->in[d] - g->refusing[d];
}

size_t gate_refusing(const gate *g, gate_door d)
{
    return g->refusing[d];
}

int gate_cap(const gate *g, gate_door d)
{
    return g->cfg.caps[d];
}

int gate_share(const gate *g, gate_door d)
{
    return g->cfg.shares[d];
}

uint64_t gate_refused(const gate *g, gate_door d)
{
    return g->refused[d];
}

uint64_t gate_evicted(const gate *g, gate_door d)
{
    return g->evicted[d];
}

size_t gate_peers(const gate *g, gate_door d)
{
    return g->npeers[d];
}

void gate_release(gate *g, void *sock, gate_door door)
{
    if (!g || !sock || door >= GATE_DOORS || !g->monitor[door])
        return;
    zmq_socket_monitor(sock, NULL, 0);
    /* read up to MONITOR_STOPPED, the last event libzmq sends */
    for (int waited = 0; waited < 200;) {
        zmq_pollitem_t item = {g->monitor[door], 0, ZMQ_POLLIN, 0};
        int n = zmq_poll(&item, 1, 20), value;
        if (n < 0 || (n > 0 && read_event(g->monitor[door], &value) == ZMQ_EVENT_MONITOR_STOPPED))
            break;
        waited += n ? 0 : 20;
    }
    zmq_close(g->monitor[door]);
    g->monitor[door] = NULL;
}

void gate_destroy(gate **g)
{
    if (!g || !*g)
        return;
    for (int d = 0; d < GATE_DOORS; d++)
        if ((*g)->monitor[d])
            zmq_close((*g)->monitor[d]);
    if ((*g)->zap)
        zmq_close((*g)->zap);
    keyring_destroy(&(*g)->ring);
    free((*g)->conns);
    free((*g)->peers);
    free(*g);
    *g = NULL;
}
