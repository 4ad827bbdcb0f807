/* arbiterd.c -- the live judge: open-log events in over ZeroMQ, verdicts
 * out, every verified record kept in LMDB (openlog.md 8-10).
 *
 * What: tables connect a DEALER to the ingest socket and get each event's
 * verdict once it is on disk (ingest.h); every stored event is published
 * on the feed in the public view (feed.h); judges and tools ask the query
 * socket (query.h).  Every socket stands behind the gate (gate.h): CURVE
 * keys with a keyring, connection limits always.
 *
 * Why one loop: the record of a match must be written in the order its
 * events were judged, and a single writer is what LMDB allows anyway.
 * Nothing in the loop ever waits for a client -- every receive and send is
 * non-blocking -- so one careless or hostile client cannot stop it for the
 * others; and each part has a documented bound (arbiterd(8), LIMITS), so none can
 * make it grow without limit.  The one piece of work too long for a turn
 * of the loop, a tournament's standings (every stored record judged
 * again), runs in a worker thread that only reads (standings.h): the loop
 * hands it requests and sends its answers, and polls its socket with the
 * others.
 *
 * How this file reads: options, then start-up in the order the parts
 * depend on each other (limits, key, cards, store, its check, the live
 * matches, the gate, the sockets), then the loop: the gate first (who may
 * come in), the feed's subscriptions (what is published), a batch of
 * events, a query.
 */
#include <errno.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#include "logformat/olstream.h"
#include "src/core/carddb.h"
#include "src/core/dlog.h"
#include "src/daemon/daemon.h"
#include "src/daemon/ingest.h"
#include "src/daemon/notify.h"
#include "src/daemon/query.h"
#include "src/daemon/replica.h"
#include "src/daemon/standings.h"
#include "src/pg/pgship.h"
#include "src/record/record.h"
#include "src/tournament/tournament.h"
#include "src/tournament/tourrec.h"

#ifndef ZMQ_ZERO_COPY_RECV
#define ZMQ_ZERO_COPY_RECV 10      /* a context option of libzmq 4.3 (zmq.h: draft) */
#endif

#define CARD_FILES_MAX 16
#define MAX_CONNECTIONS 1024       /* ingest, default (arbiterd(8) LIMITS) */
#define QUERY_CONNECTIONS 64
#define FEED_CONNECTIONS 256
#define BROADCAST_CONNECTIONS 64
#define FD_RESERVE 128             /* descriptors kept for the store, logs  */
#define LOOP_POLL_US 1000          /* carrying on from batch to batch: the
                                      other sockets at least this often    */

static const char usage_text[] =
    "usage: arbiterd [--db DIR] [--ingest EP] [--feed EP] [--query EP] [--cards FILE]...\n"
    "                [--key FILE] [--trusted-seals FILE] [--keyring FILE] [--insecure]\n"
    "                [--seal-legacy] [--max-connections N] [--peer-connections N]\n"
    "                [--max-matches N] [--peer-matches N] [--quarantine-max N]\n"
    "                [--log-level error|warn|info|debug] [--map-mb N] [--tournament FILE]...\n"
    "                [--replicate URL [--venue NAME]] [--broadcast-delay D [--broadcast EP]]\n"
    "\n"
    "The live judge of openlog.md 9: tables send events to the ingest ROUTER and\n"
    "get each verdict once it is stored (fsync'd LMDB); the feed PUB publishes\n"
    "every stored event in the public view; the query ROUTER answers health,\n"
    "match, events, state, verify, list, cards, quarantine and standings.\n"
    "\n"
    "  --db DIR              the store (default ./var/arbiter, created if missing)\n"
    "  --ingest EP           default tcp://127.0.0.1:7420\n"
    "  --feed EP             default tcp://127.0.0.1:7421\n"
    "  --query EP            default tcp://127.0.0.1:7422\n"
    "  --cards FILE          a card database; repeat for several (default: the same\n"
    "                        as `arbiter verify`).  A header picks the one it names.\n"
    "  --key FILE            the daemon's key (arbiter keygen): it seals every record\n"
    "                        and, with a keyring, is the CURVE server key (default\n"
    "                        arbiterd.key beside the store folder DIR, never inside\n"
    "                        it, made on the first start; under systemd with\n"
    "                        LoadCredential=arbiterd.key:PATH, that credential)\n"
    "  --trusted-seals FILE  the keys whose seals are trusted besides the daemon's\n"
    "                        own (earlier daemon keys): one per line, 64 hex digits\n"
    "                        and a name, or a .pub file (default: trusted-seals\n"
    "                        beside DIR, if there is one).  At start every record\n"
    "                        is checked whole; one sealed by any other key, or with\n"
    "                        any other finding, takes no events (health: damaged)\n"
    "  --keyring FILE        CURVE on every socket; only the keys listed, each with a\n"
    "                        role, are admitted (arbiterd(8)); SIGHUP reloads it\n"
    "  --insecure            allow an endpoint that is not loopback without a keyring\n"
    "  --seal-legacy         seal, as they stand, the unsealed records of a store\n"
    "                        written before records were sealed (only a store you\n"
    "                        trust: the seals then vouch for what it holds now)\n"
    "  --max-connections N   ingest connections admitted at once (default 1024)\n"
    "  --peer-connections N  ingest connections one peer (its key; without a\n"
    "                        keyring its address) may hold (default 256); past\n"
    "                        it, or a full socket, its connection quiet the longest\n"
    "                        is closed (quiet 1 s if it never sent, else 10 s), or\n"
    "                        the newcomer is refused with openlog:limits\n"
    "  --max-matches N       open matches held in memory (default 10000)\n"
    "  --peer-matches N      open matches one peer may hold (default 1000); a peer\n"
    "                        gone 5 s frees them\n"
    "  --quarantine-max N    quarantine entries kept (default 20000)\n"
    "  --log-level L         what goes to stderr (default info)\n"
    "  --map-mb N            the store's initial LMDB map (default 64); it doubles\n"
    "                        whenever it is full, so this matters only for tests\n"
    "  --tournament FILE     a tournament file (arbiter-tournament(5)), for the\n"
    "                        query op `standings`: a worker thread judges that\n"
    "                        tournament's stored records again (at most 2000), one\n"
    "                        request at a time, 16 waiting (busy beyond), the last\n"
    "                        16 answers kept until the store changes; repeat for\n"
    "                        several (at most 16, distinct ids)\n"
    "  --replicate URL       ship every stored record to the circuit's PostgreSQL\n"
    "                        database at URL (libpq's; keep its password in a\n"
    "                        .pgpass file, not here), from a thread of its own:\n"
    "                        verdicts never wait for it; what is not confirmed\n"
    "                        yet is kept in the store (its outbox) and shipped\n"
    "                        when the database can be reached (health:\n"
    "                        replication; arbiterd(8), REPLICATION)\n"
    "  --broadcast-delay D   the broadcast: every stored event in the judge's view,\n"
    "                        once it is D old (\"15m\", \"90s\", \"2h\", \"1500ms\"; at\n"
    "                        most 24h), on a socket of its own for keys of the\n"
    "                        role broadcast only (needs --keyring; arbiterd(8),\n"
    "                        BROADCAST)\n"
    "  --broadcast EP        its socket (default tcp://127.0.0.1:7423)\n"
    "  --venue NAME          the venue's name there (default: the host name; 1 to\n"
    "                        64 of A-Z a-z 0-9 . _ -), registered by the circuit's\n"
    "                        administrator with this daemon's key (arbiter pg\n"
    "                        venue add)\n"
    "\n"
    "SIGTERM, SIGINT: finish and acknowledge the current batch, stop the standings\n"
    "worker at its next record, exit 0.\n"
    "SIGHUP: reload the card databases, the keyring and the tournament files (a file\n"
    "that is refused then is logged, and the one loaded before is kept).\n"
    "exit: 0 stopped by a signal, 1 the store failed (nothing unstored was\n"
    "acknowledged), 2 bad usage or cannot start.\n";

typedef struct {
    const char *dbdir, *ingest_ep, *feed_ep, *query_ep, *key, *keyring, *trusted_seals, *replicate, *venue;
    const char *broadcast_ep;
    uint64_t broadcast_delay_ms;   /* 0: no broadcast */
    const char *card_files[CARD_FILES_MAX];
    const char *tour_files[DAEMON_TOURNAMENTS_MAX];
    int n_tour_files;
    int n_card_files, level, insecure, seal_legacy;
    unsigned long map_mb, max_connections, peer_connections, max_matches, peer_matches, quarantine_max;
} options;

/* the bounds usage_text names */
_Static_assert(STANDINGS_RECORDS == 2000 && DAEMON_TOURNAMENTS_MAX == 16 && STANDINGS_WAITING == 16 &&
                   STANDINGS_CACHE == 16,
               "arbiterd --help names these bounds");
_Static_assert(GATE_SHARE_INGEST == 256 && DAEMON_PEER_MATCHES == 1000 && GATE_QUIET_NEW_MS == 1000 &&
                   GATE_QUIET_IDLE_MS == 10000 && GATE_LEFT_MS == 5000,
               "arbiterd --help names these bounds");

static volatile sig_atomic_t stop_flag, reload_flag;

static void on_signal(int sig)
{
    if (sig == SIGHUP)
        reload_flag = 1;
    else
        stop_flag = 1;
}

/* ---- options ---------------------------------------------------------------- */

static int number(const char *name, const char *val, unsigned long lo, unsigned long hi, unsigned long *out)
{
    char *end;
    errno = 0;
    *out = strtoul(val, &end, 10);
    if (errno || *end || val[0] == '-' || *out < lo || *out > hi) {
        fprintf(stderr, "arbiterd: %s needs a number from %lu to %lu\n", name, lo, hi);
        return -1;
    }
    return 0;
}

static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->dbdir = "var/arbiter";
    o->ingest_ep = "tcp://127.0.0.1:7420";
    o->feed_ep = "tcp://127.0.0.1:7421";
    o->broadcast_ep = "tcp://127.0.0.1:7423";
    o->query_ep = "tcp://127.0.0.1:7422";
    o->level = DLOG_INFO;
    o->max_connections = MAX_CONNECTIONS;
    o->peer_connections = GATE_SHARE_INGEST;
    o->max_matches = DAEMON_MAX_MATCHES;
    o->peer_matches = DAEMON_PEER_MATCHES;
    o->quarantine_max = QUARANTINE_MAX_DEFAULT;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            exit(0);
        }
        if (!strcmp(a, "--insecure")) {
            o->insecure = 1;
            continue;
        }
        if (!strcmp(a, "--seal-legacy")) {
            o->seal_legacy = 1;
            continue;
        }
        if (!val) {
            fprintf(stderr, "arbiterd: %s needs a value\n%s", a, usage_text);
            return -1;
        }
        i++;
        if (!strcmp(a, "--db")) {
            o->dbdir = val;
        } else if (!strcmp(a, "--ingest")) {
            o->ingest_ep = val;
        } else if (!strcmp(a, "--feed")) {
            o->feed_ep = val;
        } else if (!strcmp(a, "--query")) {
            o->query_ep = val;
        } else if (!strcmp(a, "--key")) {
            o->key = val;
        } else if (!strcmp(a, "--keyring")) {
            o->keyring = val;
        } else if (!strcmp(a, "--trusted-seals")) {
            o->trusted_seals = val;
        } else if (!strcmp(a, "--broadcast")) {
            o->broadcast_ep = val;
        } else if (!strcmp(a, "--broadcast-delay")) {
            if (broadcast_parse_delay(val, &o->broadcast_delay_ms)) {
                fprintf(stderr, "arbiterd: --broadcast-delay needs a time from 1 ms to 24 h: 15m, 90s, 2h, 1500ms, or "
                        "seconds\n");
                return -1;
            }
        } else if (!strcmp(a, "--replicate")) {
            o->replicate = val;
        } else if (!strcmp(a, "--venue")) {
            if (!pgship_venue_valid(val)) {
                fprintf(stderr, "arbiterd: --venue needs 1 to %d letters, digits, dots, dashes or underscores\n",
                        PGSHIP_VENUE_MAX);
                return -1;
            }
            o->venue = val;
        } else if (!strcmp(a, "--cards")) {
            if (o->n_card_files == CARD_FILES_MAX) {
                fprintf(stderr, "arbiterd: at most %d --cards\n", CARD_FILES_MAX);
                return -1;
            }
            o->card_files[o->n_card_files++] = val;
        } else if (!strcmp(a, "--tournament")) {
            if (o->n_tour_files == DAEMON_TOURNAMENTS_MAX) {
                fprintf(stderr, "arbiterd: at most %d --tournament\n", DAEMON_TOURNAMENTS_MAX);
                return -1;
            }
            o->tour_files[o->n_tour_files++] = val;
        } else if (!strcmp(a, "--map-mb")) {
            if (number(a, val, 1, 1ul << 20, &o->map_mb))
                return -1;
        } else if (!strcmp(a, "--max-connections")) {
            if (number(a, val, 1, 1000000, &o->max_connections))
                return -1;
        } else if (!strcmp(a, "--peer-connections")) {
            if (number(a, val, 1, 1000000, &o->peer_connections))
                return -1;
        } else if (!strcmp(a, "--max-matches")) {
            if (number(a, val, 1, 10000000, &o->max_matches))
                return -1;
        } else if (!strcmp(a, "--peer-matches")) {
            if (number(a, val, 1, 10000000, &o->peer_matches))
                return -1;
        } else if (!strcmp(a, "--quarantine-max")) {
            if (number(a, val, 0, 100000000, &o->quarantine_max))
                return -1;
        } else if (!strcmp(a, "--log-level")) {
            if ((o->level = dlog_parse_level(val)) < 0) {
                fprintf(stderr, "arbiterd: unknown log level %s\n", val);
                return -1;
            }
        } else {
            fprintf(stderr, "arbiterd: unknown option %s\n%s", a, usage_text);
            return -1;
        }
    }
    if (o->broadcast_delay_ms && !o->keyring) {
        /* the judge's view: only keys of the role broadcast may have it */
        fprintf(stderr, "arbiterd: --broadcast-delay needs --keyring: the broadcast is for the keys of the role "
                "broadcast only, and without a keyring anybody could subscribe\n");
        return -1;
    }
    if (o->venue && !o->replicate) {
        fprintf(stderr, "arbiterd: --venue names the venue for --replicate, which is missing\n");
        return -1;
    }
    if (o->replicate && !o->venue) {   /* the host name, when it is a venue name */
        static char host[256];
        if (gethostname(host, sizeof host - 1) || !pgship_venue_valid(host)) {
            fprintf(stderr, "arbiterd: --replicate needs --venue NAME: the host name is no venue name\n");
            return -1;
        }
        o->venue = host;
    }
    if (!o->n_card_files) {   /* the shelf of `arbiter verify` */
        const char *const *paths;
        int n = carddb_default_paths(&paths);
        for (int i = 0; i < n && i < CARD_FILES_MAX; i++)
            o->card_files[o->n_card_files++] = paths[i];
    }
    return 0;
}

/* 1 when an endpoint can be reached from this machine only: ipc, inproc,
 * or tcp on a loopback address (arbiterd(8), KEYS AND ROLES). */
static int endpoint_local(const char *ep)
{
    static const char *const local[] = {"127.", "localhost:", "[::1]:", "::1:", "lo:"};
    if (!strncmp(ep, "ipc://", 6) || !strncmp(ep, "inproc://", 9))
        return 1;
    if (strncmp(ep, "tcp://", 6))
        return 0;
    for (size_t i = 0; i < sizeof local / sizeof local[0]; i++)
        if (!strncmp(ep + 6, local[i], strlen(local[i])))
            return 1;
    return 0;
}

/* ---- start-up ---------------------------------------------------------------- */

/* A keyring that cannot be loaded stops the start before anything else
 * (arbiterd(8), KEYS AND ROLES: fail closed); gate_new() loads it again for use. */
static int keyring_check(const char *path)
{
    char err[512];
    keyring *r = NULL;
    if (keyring_load(path, &r, err, sizeof err)) {
        dlog(DLOG_ERROR, "%s: arbiterd does not start without a good keyring", err);
        return -1;
    }
    keyring_destroy(&r);
    return 0;
}

static int make_dirs(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(path, 0700) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(path, 0700) && errno != EEXIST ? -1 : 0;
}

/* Raise the descriptor limit to its hard limit, and fit the connection
 * limits under it with FD_RESERVE to spare (arbiterd(8), LIMITS). */
static void fit_descriptors(options *o)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl))
        return;
    if (rl.rlim_cur < rl.rlim_max) {
        rlim_t was = rl.rlim_cur;
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl))
            rl.rlim_cur = was;
    }
    unsigned long budget = (unsigned long)rl.rlim_cur, others = QUERY_CONNECTIONS + FEED_CONNECTIONS + FD_RESERVE;
    if (o->max_connections + others > budget) {
        unsigned long fit = budget > others + 16 ? budget - others : 16;
        dlog(DLOG_WARN, "%lu file descriptors only: ingest connections are limited to %lu, not %lu", budget, fit,
             o->max_connections);
        o->max_connections = fit;
    }
}

/* Where the daemon keeps its key without --key (arbiterd(8), THE KEY):
 * systemd's credentials folder when the service loads it there
 * (LoadCredential=arbiterd.key:PATH), else beside the store folder
 * (record_home) -- never inside it: whoever can edit the store must not be
 * able to sign with the daemon's key.  `arbiter audit --db DIR` finds the
 * .pub beside the store by the same rule. */
static void key_prefix(const options *o, char *out, size_t cap)
{
    const char *cred = getenv("CREDENTIALS_DIRECTORY");
    char dir[4000];
    if (cred && *cred) {
        snprintf(out, cap, "%s/arbiterd", cred);
        return;
    }
    record_home(o->dbdir, dir, sizeof dir);
    snprintf(out, cap, "%s/arbiterd", dir);
}

/* The daemon's key: --key, or the default place (key_prefix), made there on
 * the first start.  A key inside the store folder is never used: one that
 * arbiter 0.1 made there is moved out to the default place when none is
 * there yet (its seals stay the daemon's); with a key at the default place
 * already, one inside the store is somebody else's doing -- ignored, and
 * said.  0, or -1 (logged). */
static int own_key(const options *o, keys_pair *k)
{
    char path[4200], prefix[4096], err[512], old[4200], oldpub[4200], pub[4200];
    if (o->key) {
        if (keys_read(o->key, k, err, sizeof err) || !k->has_secret) {
            dlog(DLOG_ERROR, "%s", k->has_secret ? err : "--key must be a .key file (with its secret halves)");
            return -1;
        }
        return 0;
    }
    key_prefix(o, prefix, sizeof prefix);
    snprintf(path, sizeof path, "%s.key", prefix);
    snprintf(pub, sizeof pub, "%s.pub", prefix);
    snprintf(old, sizeof old, "%s/arbiterd.key", o->dbdir);
    snprintf(oldpub, sizeof oldpub, "%s/arbiterd.pub", o->dbdir);
    if (access(old, F_OK) == 0 && access(path, F_OK) == 0) {
        dlog(DLOG_WARN, "%s, a key inside the store folder, is not used: the daemon's key is %s (whoever can edit the "
             "store could have put that one there; remove it)", old, path);
    } else if (access(old, F_OK) == 0) {
        if (rename(old, path) || (access(oldpub, F_OK) == 0 && rename(oldpub, pub))) {
            dlog(DLOG_ERROR, "the daemon's key %s is inside the store folder, where whoever can edit the store can "
                 "sign with it, and it cannot be moved to %s: %s; move it there (or give --key)", old, path,
                 strerror(errno));
            return -1;
        }
        dlog(DLOG_WARN, "moved the daemon's key out of the store folder: %s is now %s (inside the store, whoever "
             "could edit the store could sign with it)", old, path);
    }
    if (access(path, F_OK) == 0)
        return keys_read(path, k, err, sizeof err) ? (dlog(DLOG_ERROR, "%s", err), -1) : 0;
    if (getenv("CREDENTIALS_DIRECTORY") && *getenv("CREDENTIALS_DIRECTORY")) {
        dlog(DLOG_ERROR, "no daemon key in the service's credentials (%s): make one with arbiter keygen and name it "
             "in LoadCredential=arbiterd.key:PATH", path);
        return -1;
    }
    if (keys_generate("arbiterd", k) || keys_write(k, prefix, err, sizeof err)) {
        dlog(DLOG_ERROR, "cannot make the daemon's key: %s", err);
        return -1;
    }
    dlog(DLOG_INFO, "made the daemon's key %s, outside the store; its seals are what audits trust: keep %s to "
         "check them (arbiter audit --sealed-by)", path, pub);
    return 0;
}

/* The seals the daemon accepts: its own key's, and those --trusted-seals
 * lists (default: the file `trusted-seals` beside the store, when there
 * is one: record_home).  0, or -1 (logged). */
static int load_trust(const options *o, daemon_ctx *d)
{
    char err[512], path[4200], home[4096];
    const char *file = o->trusted_seals;
    memset(&d->trust, 0, sizeof d->trust);
    record_trust_add(&d->trust, d->key.sign_public, "the daemon's own key");
    if (!file) {
        record_home(o->dbdir, home, sizeof home);
        snprintf(path, sizeof path, "%s/" RECORD_TRUSTED_FILE, home);
        file = access(path, F_OK) == 0 ? path : NULL;
    }
    if (file && record_trust_load(&d->trust, file, err, sizeof err)) {
        dlog(DLOG_ERROR, "%s", err);
        return -1;
    }
    if (file)
        dlog(DLOG_INFO, "seals trusted: this daemon's key and %zu more from %s", d->trust.n - 1, file);
    return 0;
}

static int save_cards(daemon_ctx *d)
{
    MDB_txn *txn = NULL;
    int rc = mdb_txn_begin(store_env(d->st), NULL, 0, &txn);
    if (!rc && (rc = cardset_save(d->cards, d->st, txn)))
        mdb_txn_abort(txn);
    else if (!rc)
        rc = mdb_txn_commit(txn);
    if (rc)
        dlog(DLOG_ERROR, "cannot store the card databases: %s", rc < 0 ? strerror(-rc) : mdb_strerror(rc));
    return rc;
}

/* ---- the store at start ------------------------------------------------------ */

/* A damaged LMDB page can make liblmdb fault rather than return an error:
 * the daemon would die by a signal, with nothing said.  So a store that
 * exists is first read whole in a child process (store_probe); a damaged
 * one is not served, and the log says in one line what is damaged and
 * what to do.  0, or -1 (logged). */
static int probe_store(const char *dir)
{
    char data[4200], why[1024];
    uint64_t matches = 0, events = 0;
    uint64_t t0 = daemon_mono_us();
    snprintf(data, sizeof data, "%s/data.mdb", dir);
    if (access(data, F_OK))
        return 0;   /* a new store */
    int rc = store_probe(dir, &matches, &events, why, sizeof why);
    if (rc == STORE_DAMAGED) {
        dlog(DLOG_ERROR, "the store %s is damaged: %s; it is not served: `arbiter store check %s` says what is "
             "damaged, `arbiter store salvage %s NEWDIR` copies every record that still verifies into a new store "
             "to serve instead", dir, why, dir, dir);
        return -1;
    }
    if (rc) {
        dlog(DLOG_ERROR, "cannot read the store %s in a child process first: %s", dir, strerror(-rc));
        return -1;
    }
    dlog(DLOG_INFO, "the store %s reads whole: %llu matches, %llu events (%.1f s)", dir, (unsigned long long)matches,
         (unsigned long long)events, (double)(daemon_mono_us() - t0) / 1e6);
    return 0;
}

typedef struct {
    daemon_ctx *d;
    MDB_txn *txn;
    int legacy;                    /* no meta "format": from before seals,
                                      or made to look so                  */
    size_t checked, damaged, sealed, unsealed, recovered, total;
    uint64_t t0, said_us;
} start_ctx;

/* Seal a record of a store written before seals as it stands
 * (--seal-legacy): its stored summary and the heads its events give. */
static int seal_as_is(start_ctx *c, const char *id, const record_heads *h)
{
    record_info info;
    int rc = record_read(c->d->st, c->txn, id, &info);
    if (!rc)
        rc = record_seal(c->d->st, c->txn, id, h, info.summary, info.summary_len, &c->d->key);
    if (!rc)
        c->sealed++;
    return rc;
}

/* Bring the session of a clean, unfinished match into memory. */
static int keep_live(start_ctx *c, const char *id, verify_session **s, const record_heads *h)
{
    daemon_ctx *d = c->d;
    record_info info;
    char why[256];
    if (record_read(d->st, c->txn, id, &info) || info.finished || live_count(d->live) >= d->max_matches)
        return 0;   /* made from the store if an event of it ever comes */
    live *l = live_slot(d->live, id);
    if (!l)
        return -ENOMEM;
    l->db = record_cards(d->cards, d->st, c->txn, &info, why, sizeof why);
    l->heads = *h;
    snprintf(l->tags.tournament, sizeof l->tags.tournament, "%s", info.tournament);
    snprintf(l->tags.owner, sizeof l->tags.owner, "%s", info.owner);
    snprintf(l->tags.owner_key, sizeof l->tags.owner_key, "%s", info.owner_key);
    l->used_ms = daemon_now_ms();
    live_attach(d->live, l, *s);
    *s = NULL;
    c->recovered++;
    return 0;
}

static int start_one(void *ctx, const char *match, const char *json, size_t len)
{
    start_ctx *c = ctx;
    daemon_ctx *d = c->d;
    record_findings f;
    record_heads h;
    verify_session *s = NULL;
    char why[1024];
    int rc = record_check(d->st, c->txn, d->cards, match, &d->trust, 1, NULL, NULL, &f, &s, &h);

    if (rc)
        return rc;
    c->checked++;
    if (c->legacy && f.seal == SEAL_MISSING) {
        record_findings but_seal = f;
        but_seal.seal = 0;
        but_seal.trusted = 1;
        /* Sealing attests to a record this daemon never saw written: only
         * when the administrator says so.  Otherwise an unsealed record is
         * a finding like any other -- a forger can make any record look
         * like one from before seals by deleting its seal and a meta key. */
        if (record_findings_clean(&but_seal) && d->seal_legacy) {
            if ((rc = seal_as_is(c, match, &h)))
                goto out;
            f = but_seal;
        } else if (record_findings_clean(&but_seal)) {
            c->unsealed++;
        }
    }
    if (record_findings_clean(&f) && s) {
        rc = keep_live(c, match, &s, &h);
    } else {
        record_findings_text(&f, why, sizeof why);
        if (!why[0])
            snprintf(why, sizeof why, "its record cannot be judged again");
        dlog(DLOG_ERROR, "match %s: %s: it takes no more events until a judge has looked at it (arbiter audit)", match,
             why);
        c->damaged++;
        rc = daemon_damage(d, match, why) ? -ENOMEM : 0;
    }
    /* a long check says how far it is, and keeps systemd's watchdog fed */
    if (daemon_mono_us() - c->said_us >= 5000000) {
        c->said_us = daemon_mono_us();
        dlog(DLOG_INFO, "checking the store: %zu of %zu matches so far", c->checked, c->total);
        notify_starting(c->checked, c->total);
    }
out:
    verify_session_destroy(&s);
    (void)json;
    (void)len;
    return rc;
}

/* Stored card databases whose bytes no longer hash to their name: named in
 * the log (a record pinning one is damaged: record_check says so). */
static int check_cards(void *ctx, const char *hex, const void *bytes, size_t len)
{
    uint8_t h[32];
    char got[65];
    crypto_generichash(h, sizeof h, bytes, len, NULL, 0);
    carddb_hash_hex(h, got);
    if (strcmp(got, hex))
        dlog(DLOG_ERROR, "the card database stored as %s has been altered: its bytes hash to %s", hex, got);
    (void)ctx;
    return 0;
}

/* The store's own list of the keys its daemons sealed with (meta
 * "signers"): a hint for people, never a reason to trust.  This daemon's
 * key is added when it is new. */
static int note_signer(start_ctx *c)
{
    const void *bytes;
    size_t len = 0;
    uint8_t list[32 * 64];
    int rc = store_get_meta(c->d->st, c->txn, "signers", &bytes, &len);
    if (rc && rc != MDB_NOTFOUND)
        return rc;
    len = rc ? 0 : len - len % 32;
    for (size_t i = 0; i < len; i += 32)
        if (!memcmp((const uint8_t *)bytes + i, c->d->key.sign_public, 32))
            return 0;
    if (len + 32 > sizeof list)
        len = sizeof list - 32;   /* a hint: the newest 63 are enough */
    memcpy(list, len ? bytes : list, len);
    memcpy(list + len, c->d->key.sign_public, 32);
    return store_put_meta(c->d->st, c->txn, "signers", list, len + 32);
}

/* At start: every stored match checked whole (record_check: chain, links,
 * seal by a trusted key, summary, card database, every verdict and board
 * judged again).  A match with a finding is named in the log and in
 * health, and takes no more events; a clean unfinished one keeps the
 * session that judged it, live.  An unsealed record of a store from before
 * seals is a finding unless --seal-legacy seals it as it stands.  0, or a
 * store error. */
static int check_store(daemon_ctx *d)
{
    start_ctx c;
    const void *fmt;
    size_t flen;
    MDB_stat ms;
    int rc, seeded = 0;

    memset(&c, 0, sizeof c);
    c.d = d;
    c.t0 = c.said_us = daemon_mono_us();
    if ((rc = mdb_txn_begin(store_env(d->st), NULL, 0, &c.txn)))
        return rc;
    rc = store_get_meta(d->st, c.txn, "format", &fmt, &flen);
    c.legacy = rc == MDB_NOTFOUND;
    if (!store_count_matches(d->st, c.txn, &ms))
        c.total = ms.ms_entries;
    if ((rc && rc != MDB_NOTFOUND) || (rc = note_signer(&c)) || (rc = store_each_cards(d->st, c.txn, check_cards, &c)) ||
        (rc = store_each_match(d->st, c.txn, start_one, &c)) ||
        (c.legacy && !c.unsealed && (rc = store_put_meta(d->st, c.txn, "format", "2", 1))) ||
        (rc = record_outbox_seed(d->st, c.txn, daemon_now_ms(), &seeded))) {
        mdb_txn_abort(c.txn);
        return rc;
    }
    if ((rc = mdb_txn_commit(c.txn)))
        return rc;
    if (seeded && c.total)
        dlog(DLOG_INFO, "the outbox of replication now lists the %zu stored match%s: a replica gets them all",
             c.total, c.total == 1 ? "" : "es");
    if (c.sealed)
        dlog(DLOG_WARN, "--seal-legacy: sealed %zu match%s as they stand, unsealed in a store from before records were "
             "sealed: their seals attest to this store's content now, not to what was played", c.sealed,
             c.sealed == 1 ? "" : "es");
    if (c.unsealed)
        dlog(DLOG_ERROR, "%zu match%s not sealed: a daemon from before seals wrote them, or their seals were removed; "
             "they take no events; if this store is trusted as it stands, start once with --seal-legacy", c.unsealed,
             c.unsealed == 1 ? " is" : "es are");
    dlog(c.damaged ? DLOG_ERROR : DLOG_INFO, "checked the store: %zu match%s judged again in %.1f s, %zu with findings; "
         "%zu unfinished match%s live", c.checked, c.checked == 1 ? "" : "es", (double)(daemon_mono_us() - c.t0) / 1e6,
         c.damaged, c.recovered, c.recovered == 1 ? "" : "es");
    return 0;
}

/* The sockets, behind the gate, bound: three, and the broadcast's with
 * --broadcast-delay. */
static int open_sockets(daemon_ctx *d, const options *o, void *zctx, void **in, void **fd, void **q, void **bc,
                        ingest **g)
{
    char err[512];
    struct {
        void **sock;
        int type;
        gate_door door;
        const char *ep;
    } s[] = {{in, ZMQ_ROUTER, GATE_INGEST, o->ingest_ep}, {fd, ZMQ_XPUB, GATE_FEED, o->feed_ep},
             {q, ZMQ_ROUTER, GATE_QUERY, o->query_ep}, {bc, ZMQ_XPUB, GATE_BROADCAST, o->broadcast_ep}};
    size_t n = o->broadcast_delay_ms ? 4 : 3;
    for (size_t i = 0; i < n; i++) {
        if (!(*s[i].sock = zmq_socket(zctx, s[i].type)) || gate_guard(d->gate, *s[i].sock, s[i].door, err, sizeof err)) {
            dlog(DLOG_ERROR, "%s", *s[i].sock ? err : "cannot make a socket");
            return -1;
        }
    }
    if (ingest_new(d, *in, g) || feed_new(*fd, &d->feed) || query_setup(*q) ||
        (n == 4 && broadcast_new(*bc, o->broadcast_delay_ms, daemon_mono_us() / 1000, daemon_now_ms(), &d->bcast))) {
        dlog(DLOG_ERROR, "cannot set up the sockets");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (zmq_bind(*s[i].sock, s[i].ep)) {
            dlog(DLOG_ERROR, "cannot bind %s: %s", s[i].ep, zmq_strerror(errno));
            return -1;
        }
    return 0;
}

/* ---- tournaments ---------------------------------------------------------------- */

/* The tournament file at path, loaded into *out; 0, or -1 (logged). */
static int load_tournament(const char *path, tournament **out)
{
    char err[TOUR_TEXT_MAX + 256] = "";
    int rc = tourrec_load_file(path, out, err, sizeof err);
    if (rc)
        dlog(DLOG_ERROR, "tournament file %s: %s", path, rc == TOURREC_ENOMEM ? "out of memory" : err);
    return rc ? -1 : 0;
}

/* Every --tournament file, loaded again; one that is refused, or whose id
 * another slot already has, keeps what its slot held (at start: nothing,
 * and the daemon does not start).  0, or -1 when any was refused. */
static int load_tournaments(daemon_ctx *d, const options *o)
{
    int rc = 0;

    for (int i = 0; i < o->n_tour_files; i++) {
        tournament *t = NULL;
        int dup = 0;
        if (load_tournament(o->tour_files[i], &t)) {
            rc = -1;
            continue;
        }
        for (int k = 0; k < o->n_tour_files && !dup; k++)
            dup = k != i && d->tournaments[k] && !strcmp(tournament_id(d->tournaments[k]), tournament_id(t));
        if (dup) {
            dlog(DLOG_ERROR, "tournament file %s: another --tournament already has the id %s", o->tour_files[i],
                 tournament_id(t));
            tournament_destroy(&t);
            rc = -1;
            continue;
        }
        standings_retire(d->stand, &d->tournaments[i]);   /* the worker may still read it */
        d->tournaments[i] = t;
        d->tour_gen++;   /* no cached standings of before stand */
        dlog(DLOG_INFO, "tournament %s from %s", tournament_id(t), o->tour_files[i]);
    }
    d->n_tournaments = (size_t)o->n_tour_files;
    return rc;
}

/* ARBITERD_TEST_STANDINGS_DELAY_MS: for the tests only, a pause of that
 * many milliseconds (at most 10000) before the standings worker judges
 * each record, so that a test can keep a computation running while a
 * table streams events (tests/e2e_tournament.sh).  Unset: 0. */
/* A test-only delay from the environment (0 in production), said in the
 * log when set. */
static unsigned env_ms(const char *name)
{
    const char *v = getenv(name);
    unsigned long ms = 0;
    if (v && number(name, v, 0, 10000, &ms))
        ms = 0;
    if (ms)
        dlog(DLOG_WARN, "%s=%lu: the daemon is slowed down for a test", name, ms);
    return (unsigned)ms;
}

/* ---- the loop ------------------------------------------------------------------ */

static void reload(daemon_ctx *d, const options *o)
{
    dlog(DLOG_INFO, "SIGHUP: reloading the card databases, the keyring and the tournament files");
    notify_reloading();
    d->stats.reloads++;
    if (cardset_load(d->cards, o->card_files, o->n_card_files) == 0)
        save_cards(d);
    if (d->gate)
        gate_reload(d->gate);
    if (load_tournaments(d, o))
        dlog(DLOG_WARN, "SIGHUP: a tournament file was refused (see above); its slot keeps what it held");
    notify_ready("serving (reloaded)");
}

/* The live matches tell the gate each peer's share (live.h's hook). */
static void count_held(void *ctx, const char *peer, int delta)
{
    gate_hold(((daemon_ctx *)ctx)->gate, peer, delta);
}

/* A peer gone for GATE_LEFT_MS: its matches leave memory (the store has
 * them), so that its share and their slots are free for the others. */
static void release_departed(void *ctx, const char *peer)
{
    daemon_ctx *d = ctx;
    size_t n = live_release(d->live, peer);
    d->stats.released += n;
    if (n)
        dlog(DLOG_INFO, "%s has had no ingest connection for %d s: its %zu open match%s left memory (made again "
             "from the store by its next event)", peer, GATE_LEFT_MS / 1000, n, n == 1 ? "" : "es");
}

/* The start's check found match's record damaged (the live table holds
 * it DAMAGED): 1. */
static int start_damaged(void *ctx, const char *match)
{
    daemon_ctx *d = ctx;
    live *l = live_find(d->live, match);
    return l && l->damaged;
}

/* --broadcast-delay: the events stored before this start that are not old
 * enough yet are taken up from the store.  0, or -1 (logged). */
static int broadcast_start(daemon_ctx *d)
{
    MDB_txn *txn = NULL;
    if (!d->bcast)
        return 0;
    int rc = mdb_txn_begin(store_env(d->st), NULL, MDB_RDONLY, &txn);
    if (!rc)
        rc = broadcast_resume(d->bcast, d->st, txn, start_damaged, d);
    if (txn)
        mdb_txn_abort(txn);
    if (rc)
        dlog(DLOG_ERROR, "broadcast: cannot read the store to take up the events waiting: %s", mdb_strerror(rc));
    return rc ? -1 : 0;
}

static int serve(daemon_ctx *d, const options *o, void *in, void *fd, void *q, void *bc, ingest *g)
{
    uint64_t last_retry = 0, last_poll = 0;
    notify_watchdog wd;
    notify_watchdog_init(&wd, daemon_mono_us());
    while (!stop_flag) {
        uint64_t now = daemon_mono_us();
        notify_watchdog_tick(&wd, now);   /* the loop turns: the daemon lives */
        /* A batch ended on a message carried over to the next (a
         * connection's share, or a run of garbage): the next batch at once,
         * the other sockets looked at once in LOOP_POLL_US.  Each look
         * costs a dozen system calls in libzmq; under a flood of garbage,
         * batches of a few messages come one after another, and looking
         * at every socket between them was half of what the flood cost. */
        if (ingest_pending(g) && !ingest_waiting(g) && now - last_poll < LOOP_POLL_US) {
            if (ingest_turn(g))
                return 1;
            continue;
        }
        last_poll = now;
        zmq_pollitem_t items[11] = {{q, 0, ZMQ_POLLIN, 0},
                                    {fd, 0, ZMQ_POLLIN, 0},
                                    {in, 0, ZMQ_POLLIN, 0},
                                    {standings_socket(d->stand), 0, ZMQ_POLLIN, 0},
                                    {bc, 0, bc ? ZMQ_POLLIN : 0, 0}};
        int waiting = ingest_waiting(g), pending = ingest_pending(g);
        int n = 5 + gate_poll_items(d->gate, items + 5, 6);
        if (waiting)   /* the disk is full: the tables wait, queries do not */
            items[2].events = 0;
        /* a message carried over to the next batch: no waiting for more;
         * a refused connection to close: no waiting past its time */
        int wait = gate_wait_ms(d->gate, pending ? 0 : waiting ? 200 : 500);
        if (d->bcast)   /* the next event of the broadcast comes due */
            wait = broadcast_wait_ms(d->bcast, daemon_mono_us() / 1000, wait);
        if (zmq_poll(items, n, notify_watchdog_wait(&wd, wait)) < 0 && errno != EINTR) {
            dlog(DLOG_ERROR, "poll: %s", zmq_strerror(errno));
            return 1;
        }
        if (reload_flag) {
            reload_flag = 0;
            reload(d, o);
        }
        /* who may come in, before anything they send: when the gate's
         * sockets have something, or a refused connection is to be closed
         * (not every turn: under a flood of garbage turns are many, and
         * reading four idle sockets was most of what a turn cost) */
        int gate_ready = !gate_wait_ms(d->gate, 1);
        for (int i = 5; i < n; i++)
            gate_ready |= items[i].revents & ZMQ_POLLIN;
        if (gate_ready)
            gate_serve(d->gate);
        if (!waiting)          /* not while a batch waits: it is judged again */
            gate_departed(d->gate, release_departed, d);
        if (items[1].revents & ZMQ_POLLIN)
            feed_serve(d->feed);   /* subscriptions decide what is published */
        if (d->bcast) {
            if (items[4].revents & ZMQ_POLLIN)
                broadcast_serve(d->bcast);
            if (broadcast_due(d->bcast, d->st, daemon_mono_us() / 1000, daemon_now_ms()))
                dlog(DLOG_WARN, "broadcast: the store cannot be read; what is due waits for the next turn");
        }
        if (items[3].revents & ZMQ_POLLIN) {   /* a computation ended: its replies */
            standings_shelf shelf = {d->tournaments, d->n_tournaments, d->tour_gen, &d->stats.query_replies_dropped};
            standings_serve(d->stand, &shelf, q);
        }
        if (waiting && daemon_mono_us() - last_retry >= 1000000) {
            last_retry = daemon_mono_us();
            if (ingest_retry(g))
                return 1;
        } else if (!waiting && ((items[2].revents & ZMQ_POLLIN) || pending) && ingest_turn(g)) {
            return 1;   /* nothing of the batch is acknowledged */
        }
        /* a quiet venue: what the replica confirmed waits for no batch */
        if (!waiting && replica_due(d->replica) && daemon_replica_flush(d))
            dlog(DLOG_WARN, "cannot write the replica's confirmations into the store: they wait for the next batch");
        /* queries for at most QUERY_TURN_US a turn (at least one): health
         * stays quick beside a busy ingest, and a client asking for costly
         * answers in a row takes turns with the tables */
        uint64_t q0 = daemon_mono_us();
        for (int i = 0; (items[0].revents & ZMQ_POLLIN) && i < 8; i++)
            if (!query_serve(d, q) || daemon_mono_us() - q0 >= QUERY_TURN_US)
                break;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static daemon_ctx d;
    options o;
    void *zctx = NULL, *in = NULL, *fd = NULL, *q = NULL, *bc = NULL;
    ingest *g = NULL;
    char err[512];
    int rc = 2;

    if (parse_options(argc, argv, &o))
        return 2;
    dlog_set_level(o.level);
    if (sodium_init() < 0)
        return 2;
    const char *open_ep = !endpoint_local(o.ingest_ep) ? o.ingest_ep
                          : !endpoint_local(o.feed_ep) ? o.feed_ep
                          : !endpoint_local(o.query_ep) ? o.query_ep : NULL;
    if (open_ep && !o.keyring && !o.insecure) {
        dlog(DLOG_ERROR, "%s is not on loopback and there is no --keyring: anybody who reaches it could write into "
             "any match; give --keyring (arbiterd(8), KEYS AND ROLES), or --insecure to accept that",
             open_ep);
        return 2;
    }
    if (open_ep && !o.keyring)
        dlog(DLOG_WARN, "--insecure: %s (and any other endpoint not on loopback) is reachable from the network "
             "without keys; anybody who reaches it may write into any match (a query socket off loopback shows "
             "anonymous clients the public view only)", open_ep);
    if (o.keyring && keyring_check(o.keyring))
        return 2;   /* fail closed, before the store is touched */
    fit_descriptors(&o);
    d.dbdir = o.dbdir;
    d.max_matches = o.max_matches;
    d.peer_matches = o.peer_matches;
    d.seal_legacy = o.seal_legacy;
    d.started_ms = daemon_now_ms();
    if (make_dirs(o.dbdir)) {
        dlog(DLOG_ERROR, "cannot create the store directory %s: %s", o.dbdir, strerror(errno));
        goto out;
    }
    if (own_key(&o, &d.key) || load_trust(&o, &d) || cardset_new(&d.cards) || cardset_load(d.cards, o.card_files, o.n_card_files) ||
        !cardset_count(d.cards) || load_tournaments(&d, &o) || live_table_new(o.max_matches, &d.live))
        goto out;
    if (probe_store(o.dbdir))
        goto out;
    if (store_open(o.dbdir, 0, (size_t)o.map_mb << 20, &d.st, err, sizeof err)) {
        dlog(DLOG_ERROR, "%s", err);
        goto out;
    }
    MDB_txn *txn = NULL;
    if (check_store(&d) || save_cards(&d) || mdb_txn_begin(store_env(d.st), NULL, MDB_RDONLY, &txn) ||
        quarantine_new(d.st, txn, o.quarantine_max, &d.quar)) {
        if (txn)
            mdb_txn_abort(txn);
        dlog(DLOG_ERROR, "cannot read the store %s", o.dbdir);
        goto out;
    }
    mdb_txn_abort(txn);
    gate_config gc = {o.keyring, &d.key, {(int)o.max_connections, QUERY_CONNECTIONS, FEED_CONNECTIONS,
                                          BROADCAST_CONNECTIONS},
                      {(int)o.peer_connections, GATE_SHARE_QUERY, GATE_SHARE_FEED, GATE_SHARE_BROADCAST},
                      endpoint_local(o.query_ep)};
    if (!(zctx = zmq_ctx_new()))
        goto out;
    /* Each message in a buffer of its own, not in the 8 KiB receive buffer
     * it arrived in: with zero-copy receiving one queued message keeps a
     * whole buffer alive per connection. */
    zmq_ctx_set(zctx, ZMQ_ZERO_COPY_RECV, 0);
    if (gate_new(zctx, &gc, &d.gate, err, sizeof err)) {
        dlog(DLOG_ERROR, "%s", err);
        goto out;
    }
    live_table_hook(d.live, count_held, &d);
    if (open_sockets(&d, &o, zctx, &in, &fd, &q, &bc, &g) || broadcast_start(&d) || standings_new(zctx, d.st, env_ms("ARBITERD_TEST_STANDINGS_DELAY_MS"), &d.stand) ||
        (o.replicate && replica_new(d.st, o.replicate, o.venue, &d.key, env_ms("ARBITERD_TEST_REPLICA_DELAY_MS"),
                                    &d.replica)))
        goto out;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    {
        char pub[KEYS_Z85 + 1], sign[65];
        keys_z85(d.key.curve_public, pub);
        sodium_bin2hex(sign, sizeof sign, d.key.sign_public, 32);
        dlog(DLOG_INFO, "serving: ingest %s, feed %s, query %s, store %s; %s; seals by %.16s...", o.ingest_ep,
             o.feed_ep, o.query_ep, o.dbdir, o.keyring ? "CURVE with a keyring" : "no keys (anonymous clients)", sign);
        if (d.bcast)
            dlog(DLOG_INFO, "broadcast: %s, every event in the judge's view once it is %llu ms old", o.broadcast_ep,
                 (unsigned long long)o.broadcast_delay_ms);
        if (o.keyring)
            dlog(DLOG_INFO, "the daemon's CURVE public key (clients' --server-key): %s", pub);
    }
    /* the store is open, every match checked, the sockets bound: tables
     * may come (systemd's Type=notify start returns now) */
    notify_ready("serving");
    rc = serve(&d, &o, in, fd, q, bc, g);
    notify_stopping();
    /* what the database confirmed goes into the outbox before the exit: the
     * next start does not ship it again */
    replica_stop(d.replica);
    if (!rc && d.replica && !d.disk_full && daemon_replica_flush(&d))
        dlog(DLOG_WARN, "cannot write the replica's last confirmations: the next start ships them again");
    dlog(DLOG_INFO, "stopping (%llu events stored in %llu batches)", (unsigned long long)d.stats.events_stored,
         (unsigned long long)d.stats.batches);
out:
    standings_destroy(&d.stand);   /* joined: nothing reads the store or a tournament behind the loop */
    replica_destroy(&d.replica);   /* joined too */
    ingest_destroy(&g);
    feed_destroy(&d.feed);
    broadcast_destroy(&d.bcast);
    gate_release(d.gate, bc, GATE_BROADCAST);
    if (bc)
        zmq_close(bc);
    gate_release(d.gate, in, GATE_INGEST);
    gate_release(d.gate, fd, GATE_FEED);
    gate_release(d.gate, q, GATE_QUERY);
    if (in)
        zmq_close(in);
    if (fd)
        zmq_close(fd);
    if (q)
        zmq_close(q);
    gate_destroy(&d.gate);
    if (zctx)
        zmq_ctx_term(zctx);
    live_table_destroy(&d.live);
    quarantine_destroy(&d.quar);
    store_close(&d.st);
    cardset_destroy(&d.cards);
    for (size_t i = 0; i < DAEMON_TOURNAMENTS_MAX; i++)
        tournament_destroy(&d.tournaments[i]);   /* after standings_destroy */
    sodium_memzero(&d.key, sizeof d.key);
    return rc;
}
