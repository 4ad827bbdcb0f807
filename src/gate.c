/* gate.c -- the ZAP handler, connection counts, and the keyring (gate.h).
 *
 * How a connection comes in:
 *
 *   accept ------> monitor: ZMQ_EVENT_ACCEPTED        open[door]++
 *   greeting
 *   handshake ---> ZAP request (domain = the door) --> gate_answer()
 *                    room?  key listed?  role fits?  -> "200" | "400"
 *   ...
 *   close -------> monitor: ZMQ_EVENT_DISCONNECTED    open[door]--
 *
 * The ACCEPTED event is sent before libzmq starts the handshake, so by
 * draining the monitors before answering (gate_serve does) the count the
 * handler sees includes the connection it is asked about.  A refused
 * connection is closed by libzmq, which emits its DISCONNECTED too.
 *
 * Invariants: open[d] is the number of connections accepted on door d and
 * not yet closed; ring is NULL exactly when there is no keyring or the
 * last reload failed (then every key is refused: fail closed); User-Id of
 * an admitted CURVE connection is its key in Z85, of an anonymous one "".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/dlog.h"
#include "src/gate.h"

#define ZAP_ENDPOINT "inproc://zeromq.zap.01"
#define HANDSHAKE_MS 10000

static const char *const door_names[GATE_DOORS] = {"ingest", "query", "feed"};

struct gate {
    gate_config cfg;
    void *zctx, *zap;
    void *monitor[GATE_DOORS];
    size_t open[GATE_DOORS];
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
    if (zmq_socket_monitor(sock, ep, ZMQ_EVENT_ACCEPTED | ZMQ_EVENT_DISCONNECTED) ||
        !(g->monitor[door] = zmq_socket(g->zctx, ZMQ_PAIR)) ||
        zmq_setsockopt(g->monitor[door], ZMQ_LINGER, &zero, sizeof zero) || zmq_connect(g->monitor[door], ep))
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

/* One monitor event: [u16 event, u32 value][endpoint]. */
static void read_monitor(gate *g, gate_door d)
{
    for (;;) {
        zmq_msg_t m;
        uint16_t event = 0;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, g->monitor[d], ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&m);
            return;
        }
        if (zmq_msg_size(&m) >= 6)
            memcpy(&event, zmq_msg_data(&m), 2);
        int more = zmq_msg_more(&m);
        zmq_msg_close(&m);
        while (more) {   /* the endpoint frame */
            zmq_msg_init(&m);
            if (zmq_msg_recv(&m, g->monitor[d], ZMQ_DONTWAIT) < 0)
                more = 0;
            else
                more = zmq_msg_more(&m);
            zmq_msg_close(&m);
        }
        if (event == ZMQ_EVENT_ACCEPTED)
            g->open[d]++;
        else if (event == ZMQ_EVENT_DISCONNECTED && g->open[d])
            g->open[d]--;
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
    if (g->open[d] > (size_t)g->cfg.caps[d]) {
        *reason = "too many connections";
        log_refusal(g, d, addr, "too many connections (the limit is reached)");
        return "400";
    }
    if (!g->curve)
        return "200";
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
    return "200";
}

void gate_serve(gate *g)
{
    for (int d = 0; d < GATE_DOORS; d++)
        if (g->monitor[d])
            read_monitor(g, (gate_door)d);
    for (;;) {
        zmq_msg_t f[8];
        char user[KEYS_Z85 + 1];
        const char *reason = "OK";
        int n = read_request(g->zap, f, 8);
        if (n < 0)
            return;
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
    return g->open[d];
}

int gate_cap(const gate *g, gate_door d)
{
    return g->cfg.caps[d];
}

uint64_t gate_refused(const gate *g, gate_door d)
{
    return g->refused[d];
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
