/* cmd_send.c -- `arbiter send`: play logs to arbiterd as live tables.
 *
 * What: each table is one DEALER connected to the daemon's ingest socket
 * (openlog.md 9).  The logs given are dealt to the tables in turn; a table
 * streams its logs' events one message each, keeps up to WINDOW of them in
 * flight, and prints every verdict as it arrives.
 *
 * Why it matters: this is the reference behaviour of a well-made table.
 * The contract is at-least-once from the table: replies come in the order
 * the events were sent, so the oldest unanswered event is always the next
 * reply; when no reply comes for a while (the daemon restarted, the
 * network blinked) the table closes its socket, connects a new one and
 * sends again everything still unanswered.  The daemon answers an event it
 * already stored with `duplicate` and the stored verdict, so resending is
 * always safe -- the kill -9 test relies on exactly this.
 *
 * Events are sent in MessagePack (re-encoded from .jsonl by the codec,
 * losslessly); a line the codec refuses is sent as it is, for the daemon
 * to judge malformed and quarantine.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "logformat/olcodec.h"
#include "logformat/olstream.h"
#include "src/cli/cli.h"
#include "src/core/keys.h"

#define WINDOW 64
#define TABLES_MAX 4096

static const char usage_text[] =
    "usage: arbiter send FILE... [--endpoint EP] [--tables N] [--rate R] [--timeout MS] [--raw]\n"
    "                    [--key FILE --server-key KEY] [--json] [--quiet]\n"
    "\n"
    "Stream open logs (.jsonl or .mlog) to arbiterd as live tables and print\n"
    "each verdict as it arrives.\n"
    "\n"
    "  --endpoint EP  the daemon's ingest socket (default tcp://127.0.0.1:7420)\n"
    "  --tables N     how many tables stream at once (default: one per file, at\n"
    "                 most 64); the files are dealt to them in turn\n"
    "  --rate R       events per second per table (default: as fast as replies\n"
    "                 allow, with up to 64 events in flight)\n"
    "  --timeout MS   resend the unanswered events on a new connection after MS\n"
    "                 without a reply (default 2000)\n"
    "  --raw          send each FILE whole as one message, bytes as they are (to\n"
    "                 try what a table must not send: the daemon judges it)\n"
    "  --key FILE     your key (arbiter keygen), for a daemon with a keyring\n"
    "  --server-key KEY  the daemon's public key: its .pub file or 40 Z85 characters\n"
    "  --json         one verdict per line, as the daemon sent it (openlog.md 8)\n"
    "  --quiet        print only verdicts that are not ok, warning or duplicate,\n"
    "                 and the summary\n"
    "\n"
    "exit: 0 every verdict ok, warning or duplicate; 1 a verdict illegal,\n"
    "mismatch, conflict, gap or malformed; 2 bad usage or an unreadable file.\n";

typedef struct {
    char *bytes;
    size_t len;
    char match[OL_MATCH_MAX + 1];   /* "" for a --raw message            */
    uint64_t seq;
} msg;

typedef struct {
    void *sock;
    msg *events;
    size_t n, cap;
    size_t next, acked;           /* sent up to next, answered up to acked */
    uint64_t last_progress, last_send;
    unsigned reconnects;
} table;

typedef struct {
    const char *endpoint;
    const char *key, *server_key;  /* CURVE (keys.h), or NULL             */
    int tables, json, quiet, raw;
    double rate;
    long timeout_ms;
    char **files;
    int n_files;
} send_opts;

static uint64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int push_msg(table *t, const void *bytes, size_t len, const olevent *ev)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 128;
        msg *m = realloc(t->events, cap * sizeof *m);
        if (!m)
            return -1;
        t->events = m;
        t->cap = cap;
    }
    char *copy = malloc(len ? len : 1);
    if (!copy)
        return -1;
    memcpy(copy, bytes, len);
    t->events[t->n] = (msg){copy, len, "", 0};
    if (ev) {
        snprintf(t->events[t->n].match, sizeof t->events[t->n].match, "%s", ev->match);
        t->events[t->n].seq = ev->seq;
    }
    t->n++;
    return 0;
}

/* --raw: the whole file is one message, its bytes as they are. */
static int load_raw(table *t, const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n = -1;
    int rc = CLI_BADINPUT;

    if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
        (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n)
        rc = push_msg(t, buf, (size_t)n, NULL) ? CLI_INTERNAL : CLI_OK;
    else
        cli_error("%s: cannot read it", path);
    free(buf);
    if (f)
        fclose(f);
    return rc;
}

/* Append every event of `path` to table t.  0, or CLI_BADINPUT (said). */
static int load_file(table *t, const char *path)
{
    olreader *r = NULL;
    olerror err;
    int rc;
    if (olreader_open(path, -1, &r, &err) != OL_OK) {
        cli_error("%s: %s", path, err.msg);
        return CLI_BADINPUT;
    }
    for (;;) {
        olevent *ev = NULL;
        const char *raw = NULL;
        size_t len = 0;
        rc = olreader_next(r, &ev, &raw, &len, &err);
        if (rc == 0)
            break;
        if (rc == 1) {
            char *mp = NULL;
            size_t n = 0;
            rc = olcodec_encode(ev, OL_ENC_MSGPACK, &mp, &n);
            rc = rc == OL_OK ? push_msg(t, mp, n, ev) : -1;
            free(mp);
        } else if (rc == OL_EMALFORMED && raw) {
            rc = push_msg(t, raw, len, NULL);   /* the daemon will judge it malformed */
        } else if (rc != OL_EMALFORMED) {
            rc = -1;
        } else {
            rc = 0;
        }
        olevent_destroy(&ev);
        if (rc) {
            cli_error("%s: cannot read it whole", path);
            olreader_destroy(&r);
            return CLI_BADINPUT;
        }
    }
    olreader_destroy(&r);
    return 0;
}

static int connect_table(void *ctx, table *t, const send_opts *o)
{
    const char *ep = o->endpoint;
    char err[512];
    int zero = 0;
    if (t->sock)
        zmq_close(t->sock);
    t->sock = zmq_socket(ctx, ZMQ_DEALER);
    if (!t->sock)
        return -1;
    zmq_setsockopt(t->sock, ZMQ_LINGER, &zero, sizeof zero);
    /* No silent reconnection: ZeroMQ would reconnect under us and hand the
     * new daemon what was queued after the old one died, so that replies
     * no longer line up with what we sent.  We reconnect ourselves, with a
     * new socket, and resend everything unanswered, in order. */
    int never = -1;
    zmq_setsockopt(t->sock, ZMQ_RECONNECT_IVL, &never, sizeof never);
    if (keys_client_secure(t->sock, o->key, o->server_key, err, sizeof err)) {
        cli_error("%s", err);
        return -1;
    }
    if (zmq_connect(t->sock, ep)) {
        cli_error("cannot connect to %s: %s", ep, zmq_strerror(errno));
        return -1;
    }
    t->next = t->acked;   /* everything unanswered goes again */
    t->last_progress = mono_ms();
    return 0;
}

/* Print one verdict; counts it in bad when it is not clean. */
/* A reply as a JSON map (the daemon answers in the encoding it was spoken
 * to: JSON for JSON, else MessagePack), or NULL. */
static json_t *reply_json(const char *bytes, size_t len)
{
    json_t *v = NULL;
    if (len && bytes[0] == '{')
        v = json_loadb(bytes, len, 0, NULL);
    else if (olcodec_msgpack_to_json((const uint8_t *)bytes, len, (ol_origin){0, 0}, &v, NULL) != OL_OK)
        v = NULL;
    if (!json_is_object(v)) {
        json_decref(v);
        return NULL;
    }
    return v;
}

/* A `gap` that only says the transport lost events (they died with a
 * daemon): the event it expects is one of ours still unanswered.  A gap in
 * the log itself expects an event the table never had. */
static int transport_gap(const table *t, json_t *v)
{
    const char *status = json_string_value(json_object_get(v, "status"));
    const char *match = json_string_value(json_object_get(v, "match"));
    json_t *expect = json_object_get(v, "expect");
    if (!status || strcmp(status, "gap") || !match || !json_is_integer(expect))
        return 0;
    for (size_t i = t->acked; i < t->next; i++)
        if (t->events[i].seq == (uint64_t)json_integer_value(expect) && !strcmp(t->events[i].match, match))
            return 1;
    return 0;
}

/* Print one verdict (v NULL: a reply that is not one); counts it in bad
 * when it is not clean. */
static void show_verdict(const send_opts *o, json_t *v, size_t len, int *bad, size_t *dups)
{
    if (!v) {
        printf("(a reply that is not a verdict, %zu bytes)\n", len);
        *bad = 1;
        return;
    }
    const char *status = json_string_value(json_object_get(v, "status"));
    int clean = status && (!strcmp(status, "ok") || !strcmp(status, "warning") || !strcmp(status, "duplicate"));
    *dups += status && !strcmp(status, "duplicate");
    if (!clean)
        *bad = 1;
    if (o->json) {
        char *s = json_dumps(v, JSON_COMPACT);
        if (s && (!o->quiet || !clean))
            printf("%s\n", s);
        free(s);
    } else if (!o->quiet || !clean) {
        const char *match = json_string_value(json_object_get(v, "match"));
        const char *rule = json_string_value(json_object_get(v, "rule"));
        const char *m = json_string_value(json_object_get(v, "msg"));
        printf("%s #%lld %s%s%s%s%s\n", match ? match : "?", (long long)json_integer_value(json_object_get(v, "seq")),
               status ? status : "?", rule ? " " : "", rule ? rule : "", m ? ": " : "", m ? m : "");
    }
}

static int parse_opts(int argc, char **argv, send_opts *o)
{
    memset(o, 0, sizeof *o);
    o->endpoint = "tcp://127.0.0.1:7420";
    o->timeout_ms = 2000;
    o->files = calloc((size_t)argc, sizeof *o->files);
    if (!o->files)
        return CLI_INTERNAL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--json")) {
            o->json = 1;
        } else if (!strcmp(a, "--quiet")) {
            o->quiet = 1;
        } else if (!strcmp(a, "--raw")) {
            o->raw = 1;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            return -1;
        } else if (a[0] == '-' && a[1] == '-' && !val) {
            cli_error("%s needs a value", a);
            return CLI_BADINPUT;
        } else if (!strcmp(a, "--endpoint")) {
            o->endpoint = argv[++i];
        } else if (!strcmp(a, "--key")) {
            o->key = argv[++i];
        } else if (!strcmp(a, "--server-key")) {
            o->server_key = argv[++i];
        } else if (!strcmp(a, "--tables")) {
            o->tables = atoi(argv[++i]);
        } else if (!strcmp(a, "--rate")) {
            o->rate = atof(argv[++i]);
        } else if (!strcmp(a, "--timeout")) {
            o->timeout_ms = atol(argv[++i]);
        } else if (a[0] == '-' && a[1]) {
            cli_error("unknown option %s", a);
            return CLI_BADINPUT;
        } else {
            o->files[o->n_files++] = argv[i];
        }
    }
    if (!o->n_files) {
        fputs(usage_text, stderr);
        return CLI_BADINPUT;
    }
    if (o->tables <= 0)
        o->tables = o->n_files < 64 ? o->n_files : 64;
    if (o->tables > TABLES_MAX || o->timeout_ms <= 0 || o->rate < 0) {
        cli_error("--tables must be 1-%d, --timeout positive, --rate not negative", TABLES_MAX);
        return CLI_BADINPUT;
    }
    return 0;
}

/* Send what the window and the rate allow. */
static void feed_table(const send_opts *o, table *t, uint64_t now)
{
    while (t->next < t->n && t->next - t->acked < WINDOW) {
        if (o->rate > 0 && now - t->last_send < (uint64_t)(1000.0 / o->rate))
            return;
        if (zmq_send(t->sock, t->events[t->next].bytes, t->events[t->next].len, ZMQ_DONTWAIT) < 0)
            return;   /* not connected yet: the next turn tries again */
        if (t->next == t->acked)
            t->last_progress = now;   /* the wait for this reply starts now */
        t->next++;
        t->last_send = now;
    }
}

int cmd_send(int argc, char **argv)
{
    send_opts o;
    table *tables = NULL;
    zmq_pollitem_t *items = NULL;
    void *ctx = NULL;
    int rc = parse_opts(argc, argv, &o), bad = 0;
    size_t answered = 0, total = 0, dups = 0;

    if (rc)
        goto out;
    rc = CLI_INTERNAL;
    if (!(tables = calloc((size_t)o.tables, sizeof *tables)) ||
        !(items = calloc((size_t)o.tables, sizeof *items)) || !(ctx = zmq_ctx_new()))
        goto out;
    for (int i = 0; i < o.n_files; i++)
        if ((rc = (o.raw ? load_raw : load_file)(&tables[i % o.tables], o.files[i])))
            goto out;
    for (int i = 0; i < o.tables; i++) {
        total += tables[i].n;
        if (connect_table(ctx, &tables[i], &o)) {
            rc = CLI_BADINPUT;
            goto out;
        }
    }
    while (answered < total) {
        uint64_t now = mono_ms();
        for (int i = 0; i < o.tables; i++) {
            table *t = &tables[i];
            if (t->acked < t->n && now - t->last_progress > (uint64_t)o.timeout_ms) {
                /* no reply for too long: a new connection, everything unanswered again */
                t->reconnects++;
                if (connect_table(ctx, t, &o))
                    goto out;
            }
            feed_table(&o, t, now);
            items[i] = (zmq_pollitem_t){t->sock, 0, ZMQ_POLLIN, 0};
        }
        if (zmq_poll(items, o.tables, 50) < 0 && errno != EINTR)
            goto out;
        for (int i = 0; i < o.tables; i++) {
            table *t = &tables[i];
            char buf[1 << 16];
            int n;
            while ((n = zmq_recv(t->sock, buf, sizeof buf, ZMQ_DONTWAIT)) >= 0) {
                if (t->acked >= t->next)
                    continue;   /* a late reply to a connection we gave up: ignore */
                size_t len = (size_t)n < sizeof buf ? (size_t)n : sizeof buf;
                json_t *v = reply_json(buf, len);
                if (v && transport_gap(t, v)) {
                    /* what followed the lost events is gapped too: start over */
                    json_decref(v);
                    t->reconnects++;
                    if (connect_table(ctx, t, &o))
                        goto out;
                    break;
                }
                show_verdict(&o, v, len, &bad, &dups);
                json_decref(v);
                t->acked++;
                answered++;
                t->last_progress = mono_ms();
            }
        }
        fflush(stdout);
    }
    unsigned reconnects = 0;
    for (int i = 0; i < o.tables; i++)
        reconnects += tables[i].reconnects;
    if (!o.quiet || !o.json)
        fprintf(stderr, "arbiter send: %zu events from %d file%s at %d table%s, %zu verdicts (%zu duplicate: "
                "already stored), %u reconnect%s\n", total, o.n_files, o.n_files == 1 ? "" : "s", o.tables,
                o.tables == 1 ? "" : "s", answered, dups, reconnects, reconnects == 1 ? "" : "s");
    rc = bad ? CLI_ILLEGAL : CLI_OK;
out:
    for (int i = 0; tables && i < o.tables; i++) {
        if (tables[i].sock)
            zmq_close(tables[i].sock);
        for (size_t k = 0; k < tables[i].n; k++)
            free(tables[i].events[k].bytes);
        free(tables[i].events);
    }
    free(tables);
    free(items);
    free(o.files);
    if (ctx)
        zmq_ctx_term(ctx);
    return rc < 0 ? CLI_OK : rc;
}
