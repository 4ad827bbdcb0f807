/* table_client.c -- a table program that streams one open log to arbiterd.
 *
 *     table_client [--window N] [--timeout MS] [--pace MS] ENDPOINT LOG.jsonl
 *
 * This is the smallest complete client a table author needs, written from
 * arbiterd(8) (WRITING A TABLE, SOCKETS, FRAMES AND FAIR SHARES) alone;
 * copy it and put your table's events where it reads a file.  It does what
 * a careful table must do, and nothing more:
 *
 *   - one event per message and per frame, on a DEALER socket (a REQ socket
 *     would add a delimiter frame, and a two-frame message is `malformed`);
 *   - up to --window events in flight (default 16); replies come one per
 *     event, in the order sent, so the oldest unanswered event is the one a
 *     reply answers -- we still check its seq;
 *   - when no reply comes for --timeout ms (default 2000), or a `gap`
 *     verdict's `expect` is one of our unanswered events (the daemon lost
 *     what it had not stored, e.g. it was restarted), the socket is closed,
 *     a NEW one connected, and everything unanswered resent in order.  A
 *     resent event that was stored is answered `duplicate`, with the stored
 *     verdict in `stored`: nothing is judged twice;
 *   - ZeroMQ's own silent reconnection is switched off (ZMQ_RECONNECT_IVL
 *     -1): a message queued for a dead daemon would reach the next one after
 *     a hole, and come back `gap`;
 *   - an event answered `illegal` citing `openlog:limits` was not taken (a
 *     header past the daemon's room for matches, or this connection past
 *     its room for connections: it is closed): wait, connect anew, and send
 *     it again.
 *
 * Each verdict is printed as it arrives, "seq status [rule] [msg]".  Exit:
 * 0 every event answered (whatever the verdicts), 2 bad usage or an
 * unreadable log, 3 no daemon answered after --retries attempts (default
 * 30).  JSON is the encoding: the daemon answers in the one it was sent.
 * Libraries: libzmq and jansson.
 */
#define _POSIX_C_SOURCE 200809L   /* getline, nanosleep */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>

typedef struct {
    char **line;        /* the log's events, one JSON text each */
    long long *seq;     /* each event's seq                     */
    size_t n;
} log_events;

typedef struct {
    const char *endpoint;
    int window, timeout_ms, pace_ms, retries;
} options;

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
        ;
}

static void log_free(log_events *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->line[i]);
    free(l->line);
    free(l->seq);
}

/* Read LOG.jsonl: one event per non-empty line, each with its seq. */
static int log_read(const char *path, log_events *l)
{
    FILE *f = fopen(path, "r");
    char *buf = NULL;
    size_t cap = 0, alloc = 0;
    ssize_t len;
    int rc = -1;

    memset(l, 0, sizeof *l);
    if (!f) {
        perror(path);
        return -1;
    }
    while ((len = getline(&buf, &cap, f)) > 0) {
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            buf[--len] = 0;
        if (!len)
            continue;
        json_t *ev = json_loads(buf, 0, NULL);
        json_t *seq = ev ? json_object_get(ev, "seq") : NULL;
        if (!json_is_integer(seq)) {
            fprintf(stderr, "%s: line %zu is no event with a seq\n", path, l->n + 1);
            json_decref(ev);
            goto out;
        }
        if (l->n == alloc) {
            alloc = alloc ? 2 * alloc : 64;
            char **nl = realloc(l->line, alloc * sizeof *nl);
            long long *ns = nl ? realloc(l->seq, alloc * sizeof *ns) : NULL;
            if (nl)
                l->line = nl;
            if (!ns) {
                json_decref(ev);
                goto out;
            }
            l->seq = ns;
        }
        l->seq[l->n] = json_integer_value(seq);
        json_decref(ev);
        if (!(l->line[l->n] = strdup(buf)))
            goto out;
        l->n++;
    }
    rc = 0;
out:
    free(buf);
    fclose(f);
    if (rc)
        log_free(l);
    return rc;
}

/* A new DEALER socket connected to the daemon, without silent reconnection. */
static void *connect_dealer(void *ctx, const char *endpoint)
{
    int off = -1, linger = 0;
    void *s = zmq_socket(ctx, ZMQ_DEALER);
    if (!s)
        return NULL;
    if (zmq_setsockopt(s, ZMQ_RECONNECT_IVL, &off, sizeof off) || zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger) ||
        zmq_connect(s, endpoint)) {
        zmq_close(s);
        return NULL;
    }
    return s;
}

/* What one reply asks of the loop. */
enum reply { ANSWERED, RESEND, RESEND_LATER, IGNORED };

/* Print the verdict answering event `ev` (seq `want`) and say what to do. */
static enum reply on_reply(const char *text, size_t len, long long want, long long last_sent)
{
    json_t *v = json_loadb(text, len, 0, NULL);
    const char *status = json_string_value(json_object_get(v, "status"));
    json_t *seq = json_object_get(v, "seq"), *stored = json_object_get(v, "stored");
    const char *rule = json_string_value(json_object_get(stored ? stored : v, "rule"));
    const char *msg = json_string_value(json_object_get(stored ? stored : v, "msg"));
    enum reply r = IGNORED;

    if (!status) {
        fprintf(stderr, "table_client: a reply that is no verdict: %.*s\n", (int)(len > 200 ? 200 : len), text);
    } else if (!strcmp(status, "gap")) {
        /* the daemon expects an event we sent and it lost: resend from there */
        long long expect = json_integer_value(json_object_get(v, "expect"));
        r = expect >= want && expect <= last_sent ? RESEND : IGNORED;
        fprintf(stderr, "table_client: gap, the daemon expects seq %lld%s\n", expect,
                r == RESEND ? ": resending what is unanswered" : "");
    } else if (!json_is_integer(seq) || json_integer_value(seq) != want) {
        /* replies come in the order sent; anything else means a lost reply */
        fprintf(stderr, "table_client: a verdict for seq %lld while waiting for %lld: resending\n",
                (long long)json_integer_value(seq), want);
        r = RESEND;
    } else if (!strcmp(status, "illegal") && rule && !strcmp(rule, "openlog:limits")) {
        fprintf(stderr, "table_client: the daemon cannot take the event now (%s): trying again\n", msg ? msg : "");
        r = RESEND_LATER;
    } else {
        const char *was = json_string_value(json_object_get(stored, "status"));
        printf("%lld %s%s%s%s\n", want, status, was ? " (stored: " : "", was ? was : "", was ? ")" : "");
        if (rule || msg)
            printf("    %s%s%s\n", rule ? rule : "", rule && msg ? ": " : "", msg ? msg : "");
        r = ANSWERED;
    }
    json_decref(v);
    return r;
}

/* Stream the log: returns 0 when every event is answered, 3 when the daemon
 * never answered, -1 on a ZeroMQ failure. */
static int stream(void *ctx, const options *o, const log_events *l)
{
    size_t first = 0, next = 0;   /* oldest unanswered; next to send */
    int attempts = 0, rc = -1;
    void *s = connect_dealer(ctx, o->endpoint);

    while (s && first < l->n) {
        while (next < l->n && next - first < (size_t)o->window) {
            if (zmq_send(s, l->line[next], strlen(l->line[next]), ZMQ_DONTWAIT) < 0)
                break;   /* not connected yet: the timeout below reconnects */
            next++;
            if (o->pace_ms)
                sleep_ms(o->pace_ms);
        }
        zmq_pollitem_t it = {s, 0, ZMQ_POLLIN, 0};
        int n = zmq_poll(&it, 1, o->timeout_ms);
        enum reply r = RESEND;
        if (n < 0 && zmq_errno() != EINTR)
            break;
        if (n > 0) {
            zmq_msg_t m;
            zmq_msg_init(&m);
            if (zmq_msg_recv(&m, s, 0) < 0) {
                zmq_msg_close(&m);
                break;
            }
            r = on_reply(zmq_msg_data(&m), zmq_msg_size(&m), l->seq[first], l->seq[next - (next > first)]);
            zmq_msg_close(&m);
        } else if (++attempts > o->retries) {
            fprintf(stderr, "table_client: no daemon answered at %s\n", o->endpoint);
            rc = 3;
            break;
        } else {
            fprintf(stderr, "table_client: no reply in %d ms: reconnecting, resending %zu events\n", o->timeout_ms,
                    next - first);
        }
        if (r == ANSWERED) {
            first++;
            attempts = 0;
        } else if (r == RESEND || r == RESEND_LATER) {
            /* a new socket: replies still queued on the old one are dropped
             * with it, so the next reply answers `first` again */
            zmq_close(s);
            if (r == RESEND_LATER)
                sleep_ms(1000);
            s = connect_dealer(ctx, o->endpoint);
            next = first;
        }
    }
    if (first == l->n)
        rc = 0;
    if (s)
        zmq_close(s);
    return rc;
}

static int usage(void)
{
    fprintf(stderr, "usage: table_client [--window N] [--timeout MS] [--pace MS] [--retries N] ENDPOINT LOG.jsonl\n");
    return 2;
}

int main(int argc, char **argv)
{
    options o = {NULL, 16, 2000, 0, 30};
    const char *path = NULL;
    log_events l;

    for (int i = 1; i < argc; i++) {
        int *num = !strcmp(argv[i], "--window")    ? &o.window
                   : !strcmp(argv[i], "--timeout") ? &o.timeout_ms
                   : !strcmp(argv[i], "--pace")    ? &o.pace_ms
                   : !strcmp(argv[i], "--retries") ? &o.retries
                                                   : NULL;
        if (num && i + 1 < argc)
            *num = atoi(argv[++i]);
        else if (!o.endpoint && argv[i][0] != '-')
            o.endpoint = argv[i];
        else if (!path && argv[i][0] != '-')
            path = argv[i];
        else
            return usage();
    }
    if (!o.endpoint || !path || o.window < 1 || o.timeout_ms < 1 || o.pace_ms < 0 || o.retries < 0)
        return usage();
    if (log_read(path, &l))
        return 2;
    void *ctx = zmq_ctx_new();
    int rc = ctx ? stream(ctx, &o, &l) : -1;
    if (rc < 0)
        fprintf(stderr, "table_client: %s\n", zmq_strerror(zmq_errno()));
    if (ctx)
        zmq_ctx_term(ctx);
    log_free(&l);
    return rc < 0 ? 3 : rc;
}
