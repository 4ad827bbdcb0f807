/* gate.c -- the ZAP handler, connection counts, and the keyring (gate.h).
 *
 * How a connection comes in, and what each door counts:
 *
 *   accept ------> monitor: ACCEPTED                  accepted++
 *   greeting
 *   handshake ---> ZAP request (domain = the door) --> decide()
 *                    room?  key listed?  role fits?
 *                    "200": granted++   |   "400": libzmq closes it
 *   handshake fails (refused, timed out, garbage)
 *             ---> monitor: HANDSHAKE_FAILED_*        failed++
 *   close -------> monitor: DISCONNECTED              closed++
 *
 * libzmq emits exactly one HANDSHAKE_FAILED_* event for every connection
 * that closes before its handshake is done (a ZAP refusal included), and
 * none for one that got through.  So closed - failed is the number of
 * admitted connections that have closed, and
 *
 *     admitted = granted - (closed - failed)
 *
 * counts the connections let in and still open, whatever is still
 * handshaking.  The room a door has is measured against `admitted`, not
 * against everything accepted: a burst of twenty connections at a door of
 * eight must let eight in, though all twenty are accepted before the first
 * is decided.  A connection let in that dies before its handshake ends
 * (rare) is counted failed, and would stay in `admitted` for ever; so
 * `admitted` is clamped to what is open (accepted - closed) each time the
 * monitors are read, which also makes the count right again whenever the
 * door empties.
 *
 * Invariants: admitted[d] <= accepted[d] - closed[d]; ring is NULL exactly
 * when there is no keyring or the last reload failed (then every key is
 * refused: fail closed); User-Id of an admitted CURVE connection is its
 * key in Z85, of an anonymous one "".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/dlog.h"
#include "src/daemon/gate.h"

#define ZAP_ENDPOINT "inproc://zeromq.zap.01"
#define HANDSHAKE_MS 3000          /* arbiterd(8) LIMITS: an unfinished handshake */
#define MONITOR_EVENTS (ZMQ_EVENT_ACCEPTED | ZMQ_EVENT_DISCONNECTED | ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL | \
                        ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH)

static const char *const door_names[GATE_DOORS] = {"ingest", "query", "feed"};

struct gate {
    gate_config cfg;
    void *zctx, *zap;
    void *monitor[GATE_DOORS];
    int64_t accepted[GATE_DOORS], closed[GATE_DOORS], failed[GATE_DOORS], granted[GATE_DOORS];
    uint64_t refused[GATE_DOORS];
    keyring *ring;
    int curve;
    char ring_path[4096];
};

const char *gate_door_name(gate_door d)
{
    return d < GATE_DOORS ? door_names[d] : "?";
}

int gate_new(void *zctx, const gate_config *cfg, gate **out, char *err, size_t errlen)
{
    gate *g = calloc(1, sizeof *g);
    *out = NULL;
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    g->cfg = *cfg;
    g->zctx = zctx;
    g->curve = cfg->keyring_path != NULL;
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
    int one = 1, ivl = HANDSHAKE_MS, zero = 0;
    const char *domain = door_names[door];

    snprintf(ep, sizeof ep, "inproc://arbiterd-monitor-%s", domain);
    if (zmq_setsockopt(sock, ZMQ_ZAP_DOMAIN, domain, strlen(domain)) ||
        zmq_setsockopt(sock, ZMQ_HANDSHAKE_IVL, &ivl, sizeof ivl))
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

/* Connections let in on d and still open (see the top of this file).
 * Signed: a refused connection's HANDSHAKE_FAILED comes before its
 * DISCONNECTED, so closed - failed is briefly below zero. */
static int64_t admitted(const gate *g, gate_door d)
{
    return g->granted[d] - (g->closed[d] - g->failed[d]);
}

/* One monitor event, [u16 event, u32 value][endpoint]: its event number,
 * or -1 when none is waiting. */
static int read_event(void *monitor)
{
    uint16_t event = 0;
    int more = 1, got = 0;
    while (more) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, monitor, got ? 0 : ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&m);
            break;   /* the parts of a message arrive together */
        }
        if (!got++ && zmq_msg_size(&m) >= 6)
            memcpy(&event, zmq_msg_data(&m), 2);
        more = zmq_msg_more(&m);
        zmq_msg_close(&m);
    }
    return got ? event : -1;
}

static void read_monitor(gate *g, gate_door d)
{
    int event;
    while ((event = read_event(g->monitor[d])) >= 0) {
        if (event == ZMQ_EVENT_ACCEPTED)
            g->accepted[d]++;
        else if (event == ZMQ_EVENT_DISCONNECTED)
            g->closed[d]++;
        else if (event == ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL || event == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL ||
                 event == ZMQ_EVENT_HANDSHAKE_FAILED_AUTH)
            g->failed[d]++;
        /* keep the invariant 0 <= admitted <= open.  Every connection is
         * accepted before it is granted or fails, so granted + failed <=
         * accepted, that is admitted <= open, unless a connection granted
         * then failed: then it is taken back here. */
        int64_t open = g->accepted[d] - g->closed[d];
        if (admitted(g, d) > open)
            g->granted[d] -= admitted(g, d) - open;
        if (admitted(g, d) < 0)
            g->granted[d] -= admitted(g, d);
    }
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

/* Decide one request: "200" with the user id, or "400" with the reason. */
static const char *decide(gate *g, zmq_msg_t *f, int n, char *user, const char **reason)
{
    char addr[64] = "?";
    gate_door d = n >= 6 ? door_of(&f[2]) : GATE_DOORS;
    size_t alen = n >= 4 ? zmq_msg_size(&f[3]) : 0;

    *user = 0;
    memcpy(addr, n >= 4 ? zmq_msg_data(&f[3]) : "?", alen < sizeof addr ? alen : sizeof addr - 1);
    addr[alen < sizeof addr ? alen : sizeof addr - 1] = 0;
    if (!alen)
        snprintf(addr, sizeof addr, "a local socket");
    if (d == GATE_DOORS || n < 6) {
        *reason = "not one of the daemon's sockets";
        return "400";
    }
    if (admitted(g, d) >= g->cfg.caps[d]) {
        *reason = "too many connections";
        log_refusal(g, d, addr, "too many connections (the limit is reached)");
        return "400";
    }
    if (!g->curve) {
        g->granted[d]++;
        return "200";
    }
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
        snprintf(why, sizeof why, "%s has the role %s; only tables and judges send events", e->name, keys_role_name(e->role));
        *reason = "this role may not send events";
        log_refusal(g, d, addr, why);
        return "400";
    }
    memcpy(user, e->z85, KEYS_Z85 + 1);
    dlog(DLOG_DEBUG, "admitted %s (%s) to %s from %s", e->name, keys_role_name(e->role), door_names[d], addr);
    g->granted[d]++;
    return "200";
}

static void read_monitors(gate *g)
{
    for (int d = 0; d < GATE_DOORS; d++)
        if (g->monitor[d])
            read_monitor(g, (gate_door)d);
}

void gate_serve(gate *g)
{
    read_monitors(g);
    for (;;) {
        zmq_msg_t f[8];
        char user[KEYS_Z85 + 1];
        const char *reason = "OK";
        int n = read_request(g->zap, f, 8);
        if (n < 0)
            return;
        /* libzmq sent the ACCEPTED of this connection before its ZAP
         * request: read the monitors again so that the counts include it
         * (and every connection granted so far), as the invariant needs */
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

int gate_who(const gate *g, zmq_msg_t *msg, gate_peer *out)
{
    memset(out, 0, sizeof *out);
    if (!g->curve) {
        out->anonymous = 1;
        out->role = g->cfg.anonymous_judge ? KEYS_JUDGE : KEYS_VIEWER;
        return 0;
    }
    const keys_entry *e = keyring_find_z85(g->ring, zmq_msg_gets(msg, "User-Id"));
    if (!e)
        return -1;
    out->name = e->name;
    out->z85 = e->z85;
    out->role = e->role;
    return 0;
}

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
    return (size_t)admitted(g, d);
}

size_t gate_handshaking(const gate *g, gate_door d)
{
    return (size_t)(g->accepted[d] - g->closed[d] - admitted(g, d));
}

int gate_cap(const gate *g, gate_door d)
{
    return g->cfg.caps[d];
}

uint64_t gate_refused(const gate *g, gate_door d)
{
    return g->refused[d];
}

void gate_release(gate *g, void *sock, gate_door door)
{
    if (!g || !sock || door >= GATE_DOORS || !g->monitor[door])
        return;
    zmq_socket_monitor(sock, NULL, 0);
    /* read up to MONITOR_STOPPED, the last event libzmq sends */
    for (int waited = 0; waited < 200;) {
        zmq_pollitem_t item = {g->monitor[door], 0, ZMQ_POLLIN, 0};
        int n = zmq_poll(&item, 1, 20);
        if (n < 0 || (n > 0 && read_event(g->monitor[door]) == ZMQ_EVENT_MONITOR_STOPPED))
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
    free(*g);
    *g = NULL;
}
