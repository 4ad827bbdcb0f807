/* gen_games.c -- seeded random Snap matches, played through the real engine.
 *
 * Build: `make -C build bench/gen_games` (it is a noinst program of the
 * tree); run from the top of the tree (the default paths are relative).
 * It plays Snap from the engine's own state (it enumerates legal actions
 * from a snap_state), so it is the one program outside verifiers/snap/ and
 * Snap's suites that includes the engine's header (tests/layering.py
 * allows it by name); it is a program, with I/O and a card database file,
 * never part of the engine library.
 *
 * What: writes one complete open log (header + events) of a Snap match in
 * which every event is legal, or -- with --inject RULE -- exactly one event
 * is judged illegal (or mismatch, or the shot-clock warning) citing RULE.
 * It serves the fixtures of fixtures/snap/ and the benchmark corpus.
 *
 * How: two engines replay the match side by side: a "truth" engine in open
 * mode, which knows every hidden card and from whose public state the
 * candidate events are enumerated, and the "real" engine in the header's
 * hidden mode (open, commit, announced), whose verdicts are the ones
 * `arbiter verify` will give.  At each point the candidates (obligations
 * first: fired triggers, promotions, selections, the fifth monster; then
 * windows; then the active player's steps) are ordered by a weighted random
 * draw (attacks weigh most, so games end) and the first that both engines
 * accept (ok or warning) is kept.  Candidates are judged on copies of the
 * states: snap_apply changes its state even for an illegal event (A26: a
 * window closes by the arrival of any event).
 *
 * --inject RULE: from event --inject-after on, before each legal move the
 * generator also tries a few hundred "wild" events (every type, either
 * player, random slots, cards, targets, wrong href shapes, unknown ids) and
 * keeps the first one the real engine judges illegal (or mismatch) citing
 * RULE (and whose sentence holds --inject-msg) and the truth engine does not accept; the match then goes on from the
 * state after it, so every other event stays legal.  snap:16.1 is injected
 * as a legal event that comes 31-59 s after the previous one (needs --t).
 *
 * The two engines must agree on every legal candidate: hidden cards
 * travelling as commitments or nulls change what can be checked, never
 * whether an action is legal.  When they disagree (one accepts, the other
 * does not), one of them is wrong: the generator stops and prints both
 * verdicts rather than pass the candidate over.
 *
 * Batch mode (--games N): a benchmark corpus of N complete games from one
 * process (or -j processes), MessagePack, as bench/run_verify needs it:
 * `arbiter verify` judges one match per file, so --out-dir DIR writes one
 * file per game, DIR/000000.mlog, DIR/000001.mlog..., short names so that
 * 100,000 of them fit one command line (with a raised stack limit, see
 * bench/run_verify), and DIR/index.tsv, one line per game: file, seed,
 * mode, decks, events, winner, and for an illegal game the rule injected,
 * its seq and status -- what `arbiter verify` must find.  --concat FILE
 * writes the same games back to back in one .mlog as well (a stream for
 * the ingest benchmarks; verified as one file it is one match followed by
 * events of other matches).
 *
 * Game i (from 0) plays deck i%D against deck (i%D + 1 + i/(3D))%D, D the
 * decks matching --decks (default fixtures/decks/snap/legal-*.json, twelve
 * decks), in hidden mode (open, commit, announced)[(i/D)%3]: every deck
 * meets every other in every mode within 3*D*D games.  --illegal-pct P
 * makes P% of the games illegal, spread evenly (game i is illegal when
 * floor((i+1)P/100) > floor(iP/100)); the k-th illegal game injects rule k
 * of a fixed rotating list (inject_rules[] below: rules every deck and mode
 * can break, 23 of them) and takes its decks and mode from k instead of i,
 * so the illegal games, too, go round every deck and mode.  Each game has
 * its own seed, base + 1000*i (+1, +2... when a seed gives no complete
 * game, or its injection fails: the next seed replaces it), and its own
 * match id, gen-SEED; so a game does not depend on the others, -j does not
 * change the corpus, and `gen_games --seed SEED --mode M --deck1 A --deck2
 * B [--inject R --inject-after N]` prints the same game as JSON Lines.
 * Speed (2 cores, AMD EPYC): about 250 games/s per process for a legal
 * corpus -- each step judges its candidates on copies of two engines,
 * through the JSON codec -- so 100,000 games take 3-4 minutes with -j 2;
 * the summary line on stderr gives games/s.
 *
 * Exit: 0 written; 3 the match did not finish within --max-events, the
 * rule could not be injected (try another seed), or the two engines
 * disagreed on a candidate (a defect: both verdicts on stderr); 2 bad usage
 * or input.  In batch mode 3 also when no seed of a game's 1000 worked.
 */
#define _DEFAULT_SOURCE 1   /* MAP_ANONYMOUS */
#include <errno.h>
#include <glob.h>
#include <jansson.h>
#include <math.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "logformat/olcodec.h"
#include "logformat/olstream.h"
#include "src/core/carddb.h"
#include "verifiers/snap/snap.h"

/* ---- random numbers (xorshift64*) ------------------------------------ */

static uint64_t rng_state = 88172645463325252ull;

static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

static int rn(int n)
{
    return n <= 0 ? 0 : (int)(rnd() % (uint64_t)n);
}

static double runit(void)
{
    return ((double)(rnd() >> 11) + 0.5) / 9007199254740992.0;
}

/* ---- options --------------------------------------------------------- */

typedef enum { M_OPEN, M_COMMIT, M_ANNOUNCED } gmode;
static const char *const mode_names[] = {"open", "commit", "announced"};

static struct {
    uint64_t seed;
    gmode mode;
    const char *deck[2];
    const char *cards_path;
    const char *out;
    const char *expect;
    const char *match;
    char rules[512];
    int concede_at, conceder;
    int max_events;
    int with_t;
    uint64_t t0;
    int claim;
    const char *inject;
    const char *inject_msg;
    int inject_after;
    int wild_tries;
    int verbose;
} opt;

/* ---- decks ----------------------------------------------------------- */

typedef struct {
    char *mon[SNAP_LINEUP];
    int n_mon;
    char *sup[SNAP_SUPPORTS];
    int n_sup;
    char *res[SNAP_RESERVE_MAX];
    int n_res;
    char *json;   /* {"monsters":[..],"supports":[..],"reserve":[..]} */
} gdeck;

static gdeck decks[2];
static cards *db;

static int load_list(json_t *root, const char *key, char **out, int max)
{
    json_t *a = json_object_get(root, key);
    size_t i;
    json_t *v;
    int n = 0;
    json_array_foreach(a, i, v)
    {
        if (n < max && json_is_string(v))
            out[n++] = strdup(json_string_value(v));
    }
    return n;
}

static int load_deck(const char *path, gdeck *d)
{
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    if (!root) {
        fprintf(stderr, "gen_games: %s: %s\n", path, err.text);
        return -1;
    }
    d->n_mon = load_list(root, "monsters", d->mon, SNAP_LINEUP);
    d->n_sup = load_list(root, "supports", d->sup, SNAP_SUPPORTS);
    d->n_res = load_list(root, "reserve", d->res, SNAP_RESERVE_MAX);
    json_t *o = json_object();
    json_object_set(o, "monsters", json_object_get(root, "monsters"));
    json_object_set(o, "supports", json_object_get(root, "supports"));
    json_object_set(o, "reserve", json_object_get(root, "reserve") ? json_object_get(root, "reserve") : json_array());
    d->json = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    json_decref(root);
    return 0;
}

/* ---- candidates ------------------------------------------------------ */

enum { R_MON, R_PLAYER, R_SEQ, R_LOCK };

typedef struct {
    int kind, p, slot, lock;
    uint64_t seq;
} gref;

#define MAXC 24

typedef struct {
    const char *type;
    int by;                   /* 0 p1, 1 p2, 2 table, 3 judge */
    int slot;                 /* -1 active, -2 none */
    const char *card;         /* revealed or named card; NULL none */
    const char *cards[MAXC];  /* hrefs of bench setup / select / lock */
    int n_cards;
    int is_setup_bench;
    gref tg[4];
    int n_tg;
    int has_targets;
    gref target;              /* attack */
    int lock;
    int ability;
    gref source;
    const char *extra;        /* raw JSON fields for claim / judge, without leading comma */
    int force_mode;           /* -1: the header's; else render hrefs in that mode */
    int no_nonce;
    const char *bad_nonce;
    double w;
    double key;
} gcand;

static gcand cands[4096];
static int n_cands;

static gcand *add(const char *type, int by, double w)
{
    if (n_cands >= (int)(sizeof cands / sizeof cands[0]))
        return NULL;
    gcand *c = &cands[n_cands++];
    memset(c, 0, sizeof *c);
    c->type = type;
    c->by = by;
    c->slot = -2;
    c->force_mode = -1;
    c->w = w;
    return c;
}

/* ---- rendering ------------------------------------------------------- */

typedef struct {
    char *b;
    size_t n, cap;
} sbuf;

static void sb(sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb(sbuf *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(s->b + s->n, s->cap - s->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        s->n += (size_t)k < s->cap - s->n ? (size_t)k : s->cap - s->n - 1;
}

static const char *pname(int p)
{
    return p == 0 ? "p1" : p == 1 ? "p2" : p == 2 ? "table" : "judge";
}

/* n bytes as 2n lower-case hex digits and a NUL. */
static void hex_of(const uint8_t *b, int n, char *out)
{
    static const char hexd[] = "0123456789abcdef";
    for (int i = 0; i < n; i++) {
        out[2 * i] = hexd[b[i] >> 4];
        out[2 * i + 1] = hexd[b[i] & 15];
    }
    out[2 * n] = '\0';
}

/* The nonce of (player, card): 16 bytes derived from the seed. */
static void nonce_bytes(int p, const char *id, uint8_t h[16])
{
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, 16);
    crypto_generichash_update(&st, (const unsigned char *)&opt.seed, sizeof opt.seed);
    crypto_generichash_update(&st, (const unsigned char *)pname(p), 2);
    crypto_generichash_update(&st, (const unsigned char *)id, strlen(id));
    crypto_generichash_final(&st, h, 16);
}

/* The same in hex. */
static void nonce_of(int p, const char *id, char out[33])
{
    uint8_t h[16];
    nonce_bytes(p, id, h);
    hex_of(h, 16, out);
}

/* openlog 6: hex = BLAKE2b-256(card id bytes || 0x00 || nonce bytes) */
static void commit_of(int p, const char *id, char out[65])
{
    uint8_t nb[16], h[32];
    nonce_bytes(p, id, nb);
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, sizeof h);
    crypto_generichash_update(&st, (const unsigned char *)id, strlen(id));
    crypto_generichash_update(&st, (const unsigned char *)"", 1);
    crypto_generichash_update(&st, nb, sizeof nb);
    crypto_generichash_final(&st, h, sizeof h);
    hex_of(h, 32, out);
}

static void put_slot(sbuf *s, int slot)
{
    if (slot == OL_SLOT_ACTIVE)
        sb(s, "\"a\"");
    else
        sb(s, "%d", slot);
}

static void put_ref(sbuf *s, const gref *r)
{
    switch (r->kind) {
    case R_MON: sb(s, "{\"p\":\"%s\",\"s\":", pname(r->p)); put_slot(s, r->slot); sb(s, "}"); break;
    case R_PLAYER: sb(s, "{\"p\":\"%s\"}", pname(r->p)); break;
    case R_SEQ: sb(s, "{\"seq\":%llu}", (unsigned long long)r->seq); break;
    default: sb(s, "{\"p\":\"%s\",\"lock\":%d}", pname(r->p), r->lock); break;
    }
}

static void put_href(sbuf *s, gmode m, int p, const char *id)
{
    if (!id || m == M_ANNOUNCED) {
        sb(s, "null");
    } else if (m == M_COMMIT) {
        char c[65];
        commit_of(p, id, c);
        sb(s, "{\"c\":\"%s\"}", c);
    } else {
        sb(s, "\"%s\"", id);
    }
}

/* A revealed card: "card":"id" and, in commit mode, its nonce. */
static void put_reveal(sbuf *s, const gcand *c, gmode m)
{
    sb(s, ",\"card\":\"%s\"", c->card);
    if (c->bad_nonce)
        sb(s, ",\"nonce\":\"%s\"", c->bad_nonce);
    else if (m == M_COMMIT && !c->no_nonce && c->by < 2) {
        char n[33];
        nonce_of(c->by, c->card, n);
        sb(s, ",\"nonce\":\"%s\"", n);
    }
}

static int bench_facedown = SNAP_BENCH;

static void render(const gcand *c, gmode m, uint64_t seq, int has_t, uint64_t t, char *out, size_t cap)
{
    sbuf s = {out, 0, cap};
    gmode hm = c->force_mode >= 0 ? (gmode)c->force_mode : m;
    int hp = c->by < 2 ? c->by : 0;
    sb(&s, "{\"match\":\"%s\",\"seq\":%llu,\"type\":\"%s\",\"by\":\"%s\"", opt.match, (unsigned long long)seq,
       c->type, pname(c->by));
    if (has_t)
        sb(&s, ",\"t\":%llu", (unsigned long long)t);
    const char *ty = c->type;
    if (!strcmp(ty, "bench") && c->is_setup_bench) {
        sb(&s, ",\"slots\":[");
        for (int i = 0; i < c->n_cards; i++) {
            sb(&s, i ? "," : "");
            /* 18.6 / A29: the slots from bench_facedown on start face-up, named */
            put_href(&s, c->force_mode < 0 && i >= bench_facedown ? M_OPEN : hm, hp, c->cards[i]);
        }
        sb(&s, "]");
    } else if (!strcmp(ty, "bench")) {
        sb(&s, ",\"slot\":");
        put_slot(&s, c->slot);
        sb(&s, ",\"card\":");
        put_href(&s, hm, hp, c->card);
    } else if (!strcmp(ty, "select") || !strcmp(ty, "lock")) {
        sb(&s, ",\"cards\":[");
        for (int i = 0; i < c->n_cards; i++) {
            sb(&s, i ? "," : "");
            put_href(&s, hm, hp, c->cards[i]);
        }
        sb(&s, "]");
    } else if (!strcmp(ty, "unlock")) {
        sb(&s, ",\"lock\":%d", c->lock);
        put_reveal(&s, c, m);
    } else if (!strcmp(ty, "flip") || !strcmp(ty, "promote")) {
        sb(&s, ",\"slot\":");
        put_slot(&s, c->slot);
        if (c->card)
            put_reveal(&s, c, m);
    } else if (!strcmp(ty, "trigger")) {
        sb(&s, ",\"source\":");
        put_ref(&s, &c->source);
        sb(&s, ",\"ability\":%d", c->ability);
    } else if (!strcmp(ty, "spell") || !strcmp(ty, "counter")) {
        put_reveal(&s, c, m);
    } else if (!strcmp(ty, "evolve")) {
        sb(&s, ",\"slot\":");
        put_slot(&s, c->slot);
        sb(&s, ",\"card\":\"%s\"", c->card);
    } else if (!strcmp(ty, "prime")) {
        sb(&s, ",\"card\":\"%s\"", c->card);
    } else if (!strcmp(ty, "attack")) {
        sb(&s, ",\"target\":");
        put_ref(&s, &c->target);
    } else if (!strcmp(ty, "block") || !strcmp(ty, "swap")) {
        sb(&s, ",\"slot\":");
        put_slot(&s, c->slot);
    }
    if (c->has_targets) {
        sb(&s, ",\"targets\":[");
        for (int i = 0; i < c->n_tg; i++) {
            sb(&s, i ? "," : "");
            put_ref(&s, &c->tg[i]);
        }
        sb(&s, "]");
    }
    if (c->extra)
        sb(&s, ",%s", c->extra);
    sb(&s, "}");
}

/* ---- the match ------------------------------------------------------- */

static snap_state truth, real;
static uint64_t seq_next = 1, t_now;
static olevent *header_ev;

/* The game being written: its encoded events, appended one by one and
 * written out once the game is complete (batch mode drops a game that
 * failed and tries the next seed). */
static struct {
    char *b;
    size_t n, cap;
} obuf;
static ol_encoding out_enc = OL_ENC_JSON;

static int obuf_put(const void *p, size_t n)
{
    if (obuf.cap - obuf.n < n) {
        size_t cap = obuf.cap ? obuf.cap : 65536;
        while (cap - obuf.n < n)
            cap *= 2;
        char *b = realloc(obuf.b, cap);
        if (!b)
            return -1;
        obuf.b = b;
        obuf.cap = cap;
    }
    memcpy(obuf.b + obuf.n, p, n);
    obuf.n += n;
    return 0;
}

/* Append one event in the output encoding (JSON Lines get their '\n'). */
static int put_event(const olevent *ev)
{
    char *bytes = NULL;
    size_t len = 0;
    if (olcodec_encode(ev, out_enc, &bytes, &len) != OL_OK)
        return -1;
    int rc = obuf_put(bytes, len);
    free(bytes);
    if (!rc && out_enc == OL_ENC_JSON)
        rc = obuf_put("\n", 1);
    return rc;
}

static int quiet_decode;   /* batch: wild candidates the codec refuses are no news */

static olevent *decode(const char *text)
{
    olevent *ev = NULL;
    olerror err;
    if (olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err) != OL_OK) {
        if (!quiet_decode)
            fprintf(stderr, "gen_games: cannot decode %s: %s\n", text, err.msg);
        return NULL;
    }
    return ev;
}

static int accepted(const olverdict *v)
{
    return v->status == OL_V_OK || v->status == OL_V_WARNING;
}

/* Judge candidate c on copies of both engines.  *vt, *vr: the verdicts;
 * *nt, *nr: the states after it. */
static int judge_cand(const gcand *c, uint64_t t, snap_state *nt, snap_state *nr, olverdict *vt, olverdict *vr,
                      char *text_real, size_t cap)
{
    char text_truth[8192];
    render(c, M_OPEN, seq_next, opt.with_t, t, text_truth, sizeof text_truth);
    render(c, opt.mode, seq_next, opt.with_t, t, text_real, cap);
    /* in open mode (and for events without hidden cards) both texts are
     * one: decode it once */
    int same = !strcmp(text_truth, text_real);
    olevent *et = decode(text_truth), *er = same ? et : decode(text_real);
    if (!et || !er) {
        olevent_destroy(&et);
        if (!same)
            olevent_destroy(&er);
        return -1;
    }
    *nt = truth;
    *nr = real;
    snap_apply(nt, et, vt);
    snap_apply(nr, er, vr);
    olevent_destroy(&et);
    if (!same)
        olevent_destroy(&er);
    return 0;
}

/* The truth and the real engine judged the legal candidate `text` alike,
 * or the generator stops (exit 3) with both verdicts. */
static void engines_agree(const char *text, const olverdict *vt, const olverdict *vr)
{
    if (accepted(vt) == accepted(vr))
        return;
    fprintf(stderr,
            "gen_games: seed %llu: the engines disagree at seq %llu on %s\n"
            "  open mode: %s %s %s\n  %s mode: %s %s %s\n",
            (unsigned long long)opt.seed, (unsigned long long)seq_next, text, ol_status_name(vt->status),
            vt->rule[0] ? vt->rule : "-", vt->msg, mode_names[opt.mode], ol_status_name(vr->status),
            vr->rule[0] ? vr->rule : "-", vr->msg);
    exit(3);
}

static int emit(const char *text)
{
    olevent *ev = decode(text);
    if (!ev)
        return -1;
    int rc = put_event(ev);
    olevent_destroy(&ev);
    seq_next++;
    return rc;
}

/* ---- enumerating legal candidates from the truth state --------------- */

static const card *top_of(const snap_monster *m)
{
    return m->depth ? m->stack[m->depth - 1] : NULL;
}

static snap_monster *mon(snap_state *s, int p, int slot)
{
    return slot == OL_SLOT_ACTIVE ? &s->side[p].active : &s->side[p].bench[slot];
}

/* Random references that fit selector t for controller p; 0 if none. */
static int pick_target(snap_state *s, fx_target t, int p, gref *r)
{
    gref opts[16];
    int n = 0;
    memset(r, 0, sizeof *r);
    switch (t) {
    case TGT_PLAYER:
        opts[n++] = (gref){R_PLAYER, 0, 0, 0, 0};
        opts[n++] = (gref){R_PLAYER, 1, 0, 0, 0};
        break;
    case TGT_CHAIN_LINK:
        for (int i = 0; i < s->n_chain; i++)
            opts[n++] = (gref){R_SEQ, 0, 0, 0, s->chain[i].seq};
        break;
    case TGT_TRIGGER:
        if (s->window == WIN_RESONANCE)
            opts[n++] = (gref){R_SEQ, 0, 0, 0, s->trig.seq};
        break;
    case TGT_OPP_LOCKED:
        for (int i = 0; i < s->side[1 - p].n_locked; i++)
            opts[n++] = (gref){R_LOCK, 1 - p, 0, i, 0};
        break;
    default:
        for (int q = 0; q < 2; q++)
            for (int sl = -1; sl < SNAP_BENCH; sl++) {
                snap_monster *m = mon(s, q, sl);
                if (!m->present || !m->face_up)
                    continue;
                int own = q == p, bench = sl != OL_SLOT_ACTIVE;
                if ((t == TGT_OWN_MONSTER && !own) || (t == TGT_OPP_MONSTER && own) ||
                    (t == TGT_OWN_BENCH && (!own || !bench)) || (t == TGT_OPP_BENCH && (own || !bench)))
                    continue;
                opts[n++] = (gref){R_MON, q, sl, 0, 0};
            }
    }
    if (!n)
        return 0;
    *r = opts[rn(n)];
    return 1;
}

/* One reference per chosen selector; a Trigger (`may_skip`) leaves out a
 * selector with no candidate (ruling A30), a Spell or Counter cannot. */
static int fill_targets(snap_state *s, gcand *c, const card_effect *fx, int n_fx, int p, int may_skip)
{
    c->has_targets = 1;
    c->n_tg = 0;
    for (int i = 0; i < n_fx; i++) {
        if (!fx_target_is_chosen(fx[i].target))
            continue;
        if (c->n_tg >= 4)
            return 0;
        if (pick_target(s, fx[i].target, p, &c->tg[c->n_tg]))
            c->n_tg++;
        else if (!may_skip)
            return 0;
    }
    return 1;
}

static void shuffle_ptrs(const char **a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int k = rn(i + 1);
        const char *x = a[i];
        a[i] = a[k];
        a[k] = x;
    }
}

/* Supports of p not yet out of the deck (open truth), shuffled. */
static int free_supports(const snap_state *s, int p, const char **outv)
{
    int n = 0;
    for (int i = 0; i < SNAP_SUPPORTS; i++)
        if (s->side[p].supports[i] && !s->side[p].support_seen[i])
            outv[n++] = s->side[p].supports[i]->id;
    shuffle_ptrs(outv, n);
    return n;
}

static void enum_setup(snap_state *s)
{
    for (int p = 0; p < 2; p++) {
        snap_side *sd = &s->side[p];
        if (!sd->benched) {
            const char *m[SNAP_LINEUP];
            int n = 0;
            for (int i = 0; i < SNAP_LINEUP; i++)
                if (sd->lineup[i] && sd->lineup[i]->kind == CARD_MONSTER)
                    m[n++] = sd->lineup[i]->id;
            shuffle_ptrs(m, n);
            gcand *c = add("bench", p, 100);
            c->is_setup_bench = 1;
            for (int i = 0; i < 4 && i < n; i++)
                c->cards[c->n_cards++] = m[i];
        }
        if (!sd->selected) {
            const char *f[SNAP_SUPPORTS];
            int n = free_supports(s, p, f);
            gcand *c = add("select", p, 90);
            for (int i = 0; i < s->hand_size[p] && i < n; i++)
                c->cards[c->n_cards++] = f[i];
        }
    }
}

static void add_counters(snap_state *s, int p, double w)
{
    snap_side *sd = &s->side[p];
    for (int i = 0; i < sd->n_hand; i++) {
        const card *k = sd->hand[i].card;
        if (!k || k->kind != CARD_COUNTER)
            continue;
        if (s->window == WIN_RESONANCE && !(k->snap.keywords & KW_RESONANCE))
            continue;
        for (int v = 0; v < 2; v++) {
            gcand *c = add("counter", p, (k->snap.keywords & KW_RESONANCE) ? w * 3 : w);
            if (!c)
                return;
            c->card = k->id;
            if (!fill_targets(s, c, k->snap.effects, k->snap.n_effects, p, 0))
                n_cands--;
        }
    }
}

static olevent *closer;     /* an event by the table that closes any window */
static int last_was_pass;   /* no two passes in a row */

static void enum_legal(snap_state *win)
{
    n_cands = 0;
    if (!win->setup_done) {
        enum_setup(win);
        return;
    }
    /* Events that do not belong to an open window close it by arriving
     * (A26): enumerate them from the state after the window closed, which
     * an illegal event by the table gives on a copy. */
    static snap_state closed;
    snap_state *s = win;
    if (win->window != WIN_NONE) {
        olverdict v;
        closed = *win;
        snap_apply(&closed, closer, &v);
        s = &closed;
    }
    for (int i = 0; i < s->n_fired; i++) {
        snap_fired *f = &s->fired[i];
        const snap_trigger *tr = &f->card->snap.triggers[f->ability];
        for (int v = 0; v < 3; v++) {
            gcand *c = add("trigger", f->player, 200);
            c->source = (gref){R_MON, f->player, f->slot_is_active ? OL_SLOT_ACTIVE : f->slot, 0, 0};
            c->ability = f->ability;
            if (!fill_targets(s, c, tr->effects, tr->n_effects, f->player, 1))
                n_cands--;
        }
    }
    for (int p = 0; p < 2; p++) {
        snap_side *sd = &s->side[p];
        if (sd->promote_due)
            for (int sl = 0; sl < SNAP_BENCH; sl++)
                if (sd->bench[sl].present) {
                    gcand *c = add("promote", p, 100);
                    c->slot = sl;
                    if (!sd->bench[sl].face_up)
                        c->card = sd->bench[sl].id.card->id;
                }
        if (sd->select_due) {
            const char *f[SNAP_SUPPORTS];
            int n = free_supports(s, p, f);
            gcand *c = add("select", p, 100);
            for (int i = 0; i < sd->select_due && i < n; i++)
                c->cards[c->n_cards++] = f[i];
        }
        if (sd->fifth_due)
            for (int sl = 0; sl < SNAP_BENCH; sl++)
                if (!sd->bench[sl].present) {
                    gcand *c = add("bench", p, 100);
                    c->slot = sl;
                    c->card = sd->fifth.card->id;
                }
    }
    int t = s->turn, o = 1 - t;
    snap_side *sd = &s->side[t];
    if (win->window == WIN_BLOCKER)
        for (int sl = 0; sl < SNAP_BENCH; sl++) {
            gcand *c = add("block", o, 40);
            c->slot = sl;
        }
    if (win->window != WIN_NONE) {
        add_counters(win, o, 12);
        add_counters(win, t, 6);
        if (!last_was_pass)
            add("pass", o, 2);
    }
    if (s->ol.over) {
        /* the window's resolution ends the game: only the table's claim
         * (A27) closes it legally */
        static char e[64];
        snprintf(e, sizeof e, "\"winner\":\"%s\"", pname(s->ol.winner < 0 ? 0 : s->ol.winner));
        gcand *c = add("claim", 2, 50);
        c->extra = e;
        return;
    }
    /* the active player's turn */
    for (int i = 0; i < sd->n_locked; i++) {
        gcand *c = add("unlock", t, 30);
        c->lock = i;
        c->card = sd->locked[i].card->id;
    }
    for (int sl = 0; sl < SNAP_BENCH; sl++)
        if (sd->bench[sl].present && !sd->bench[sl].face_up) {
            gcand *c = add("flip", t, 30);
            c->slot = sl;
            c->card = sd->bench[sl].id.card->id;
        }
    for (int i = 0; i < sd->n_hand; i++) {
        const card *k = sd->hand[i].card;
        if (!k || k->kind != CARD_SPELL)
            continue;
        gcand *c = add("spell", t, 8);
        c->card = k->id;
        if (!fill_targets(s, c, k->snap.effects, k->snap.n_effects, t, 0))
            n_cands--;
    }
    for (int sl = -1; sl < SNAP_BENCH; sl++) {
        snap_monster *m = mon(s, t, sl);
        if (!m->present || !m->face_up)
            continue;
        const card *nx = cards_next_stage(s->ol.db, top_of(m));
        if (nx) {
            gcand *c = add("evolve", t, 25);
            c->slot = sl;
            c->card = nx->id;
        }
        if (sl >= 0) {
            gcand *c = add("swap", t, 3);
            c->slot = sl;
        }
    }
    if (sd->prime) {
        gcand *c = add("prime", t, 40);
        c->card = sd->prime->id;
    }
    for (int sl = -1; sl < SNAP_BENCH; sl++) {
        gcand *c = add("attack", t, sl == OL_SLOT_ACTIVE ? 60 : 25);
        c->target = (gref){R_MON, o, sl, 0, 0};
    }
    {
        const char *f[SNAP_SUPPORTS];
        int n = free_supports(s, t, f);
        int k = s->round == 1 ? 1 + rn(3) : 1;
        if (n) {
            gcand *c = add("lock", t, 15);
            for (int i = 0; i < k && i < n; i++)
                c->cards[c->n_cards++] = f[i];
        }
    }
    add("end", t, 6);
}

static int cmp_key(const void *a, const void *b)
{
    double x = ((const gcand *)a)->key, y = ((const gcand *)b)->key;
    return x < y ? -1 : x > y;
}

static void order_cands(void)
{
    for (int i = 0; i < n_cands; i++)
        cands[i].key = cands[i].w > 0 ? -log(runit()) / cands[i].w : 1e300;
    qsort(cands, (size_t)n_cands, sizeof cands[0], cmp_key);
}

/* ---- wild candidates for --inject ------------------------------------ */

static const char *rand_card(snap_state *s, int p)
{
    if (p > 1)
        p = rn(2);
    int q = rn(5) == 0 ? 1 - p : p;
    const gdeck *d = &decks[q];
    (void)s;
    switch (rn(8)) {
    case 0: return d->n_mon ? d->mon[rn(d->n_mon)] : "zzz";
    case 1: return d->n_res ? d->res[rn(d->n_res)] : "zzz";
    case 2: return rn(4) ? cards_at(db, (size_t)rn((int)cards_count(db)))->id : "zzz-no-such-card";
    default: return d->n_sup ? d->sup[rn(d->n_sup)] : "zzz";
    }
}

static int rand_slot(void)
{
    return rn(5) - 1;
}

static gref rand_ref(snap_state *s)
{
    gref r = {0};
    switch (rn(6)) {
    case 0: r.kind = R_PLAYER; r.p = rn(2); break;
    case 1: {
        r.kind = R_SEQ;
        int k = rn(3);
        r.seq = k == 0 && s->n_chain ? s->chain[rn(s->n_chain)].seq
              : k == 1 && s->window == WIN_RESONANCE ? s->trig.seq : 1 + (uint64_t)rn((int)seq_next);
        break;
    }
    case 2: r.kind = R_LOCK; r.p = rn(2); r.lock = rn(4); break;
    default: r.kind = R_MON; r.p = rn(2); r.slot = rand_slot(); break;
    }
    return r;
}

static void wild_targets(snap_state *s, gcand *c, const card *k, int p)
{
    if (k && rn(3)) {
        if (fill_targets(s, c, k->snap.effects, k->snap.n_effects, p, 0) && rn(2))
            return;
    }
    c->has_targets = 1;
    c->n_tg = rn(3);
    for (int i = 0; i < c->n_tg; i++)
        c->tg[i] = rand_ref(s);
}

static void enum_wild(snap_state *s, int n)
{
    static const char *const types[] = {"bench", "select", "unlock", "flip", "promote", "trigger", "spell",
                                        "counter", "pass", "evolve", "prime", "attack", "block", "swap",
                                        "lock", "end", "claim"};
    static char extras[64][160];
    int ne = 0;
    n_cands = 0;
    /* start from the legal ones, perturbed */
    enum_legal(s);
    int n_legal = n_cands;
    for (int i = 0; i < n_legal && n_cands < n; i++) {
        gcand c = cands[i];
        switch (rn(7)) {
        case 0: c.by = rn(8) == 0 ? 2 : 1 - c.by; break;
        case 1: if (c.card) c.card = rand_card(s, c.by); break;
        case 2: c.force_mode = rn(3); break;
        case 3: if (c.slot != -2) c.slot = rand_slot(); break;
        case 4: if (c.has_targets) wild_targets(s, &c, NULL, c.by); break;
        case 5: c.lock = rn(4); if (c.n_cards) c.cards[rn(c.n_cards)] = rand_card(s, c.by); break;
        default:
            if (c.card)
                c.bad_nonce = "00112233445566778899aabbccddeeff";
            else if (c.n_cards < MAXC && c.n_cards)
                c.cards[c.n_cards++] = rand_card(s, c.by);
            else if (c.n_cards > 1)
                c.n_cards--;
        }
        cands[n_cands++] = c;
    }
    while (n_cands < n) {
        int by = rn(10) == 0 ? 2 : rn(2);
        const char *ty = types[rn((int)(sizeof types / sizeof types[0]))];
        gcand *c = add(ty, by, 1);
        if (!strcmp(ty, "bench")) {
            if (rn(3) == 0) {
                c->is_setup_bench = 1;
                for (int i = 0; i < 4; i++)
                    c->cards[c->n_cards++] = rand_card(s, by);
            } else {
                c->slot = rand_slot();
                c->card = rand_card(s, by);
            }
        } else if (!strcmp(ty, "select") || !strcmp(ty, "lock")) {
            int k = 1 + rn(5);
            for (int i = 0; i < k; i++)
                c->cards[c->n_cards++] = rand_card(s, by);
        } else if (!strcmp(ty, "unlock")) {
            c->lock = rn(4);
            c->card = rand_card(s, by);
        } else if (!strcmp(ty, "flip") || !strcmp(ty, "promote") || !strcmp(ty, "evolve")) {
            c->slot = rand_slot();
            c->card = rn(4) || strcmp(ty, "promote") ? rand_card(s, by) : NULL;
        } else if (!strcmp(ty, "trigger")) {
            c->source = (gref){R_MON, rn(2), rand_slot(), 0, 0};
            c->ability = rn(2);
            wild_targets(s, c, NULL, by);
        } else if (!strcmp(ty, "spell") || !strcmp(ty, "counter")) {
            c->card = rand_card(s, by);
            wild_targets(s, c, by < 2 ? cards_find(db, c->card) : NULL, by);
        } else if (!strcmp(ty, "prime")) {
            c->card = rand_card(s, by);
        } else if (!strcmp(ty, "attack")) {
            c->target = (gref){R_MON, rn(2), rand_slot(), 0, 0};
        } else if (!strcmp(ty, "block") || !strcmp(ty, "swap")) {
            c->slot = rand_slot();
        } else if (!strcmp(ty, "claim")) {
            c->by = 2;
            char *e = extras[ne++ % 64];
            if (rn(2))
                snprintf(e, 160, "\"winner\":\"%s\"", pname(rn(2)));
            else
                snprintf(e, 160, "\"defeated\":[{\"p\":\"%s\",\"s\":\"a\"}]", pname(rn(2)));
            c->extra = e;
        }
    }
}

static int rule_hit(const olverdict *v, const char *rule)
{
    return (v->status == OL_V_ILLEGAL || v->status == OL_V_MISMATCH) && !strcmp(v->rule, rule) &&
           (!opt.inject_msg || strstr(v->msg, opt.inject_msg));
}

/* ---- main loop ------------------------------------------------------- */

static int injected, claimed;
static uint64_t injected_seq;
static char injected_status[16];
static unsigned long cover_block, cover_disrupt, cover_overdrive, cover_swapkw, cover_reso, cover_reveal,
    cover_entry, cover_evolve2, cover_evolve3, cover_prime, cover_swap, cover_spell, cover_counter,
    cover_skipped;

static void note_cover(const gcand *c, const snap_state *before)
{
    if (!strcmp(c->type, "block"))
        cover_block++;
    if (!strcmp(c->type, "attack") && c->target.slot != OL_SLOT_ACTIVE)
        cover_disrupt++;
    if (!strcmp(c->type, "attack") && before->attacks_made >= 1)
        cover_overdrive++;
    if (!strcmp(c->type, "counter") && before->window == WIN_RESONANCE)
        cover_reso++;
    if (!strcmp(c->type, "counter"))
        cover_counter++;
    if (!strcmp(c->type, "spell"))
        cover_spell++;
    if (!strcmp(c->type, "swap"))
        cover_swap++;
    if (!strcmp(c->type, "prime"))
        cover_prime++;
    if (!strcmp(c->type, "evolve")) {
        const card *k = cards_find(db, c->card);
        if (k && k->kind == CARD_PRIME_EVOLUTION)
            cover_evolve3++;
        else
            cover_evolve2++;
    }
    if (!strcmp(c->type, "trigger")) {
        const snap_fired *f = NULL;
        for (int i = 0; i < before->n_fired; i++)
            if (before->fired[i].player == c->source.p && before->fired[i].ability == c->ability)
                f = &before->fired[i];
        if (f) {
            if (f->card->snap.triggers[f->ability].when == TRIG_ON_REVEAL)
                cover_reveal++;
            else
                cover_entry++;
            if (f->card->snap.keywords & KW_SWAP)
                cover_swapkw++;
            int chosen = 0;
            const snap_trigger *tr = &f->card->snap.triggers[f->ability];
            for (int k = 0; k < tr->n_effects; k++)
                chosen += fx_target_is_chosen(tr->effects[k].target);
            if (c->n_tg < chosen)
                cover_skipped++;   /* A30 */
        }
    }
}

static uint64_t next_t(void)
{
    t_now += 1500 + (uint64_t)rn(18000);
    return t_now;
}

static int try_inject(void)
{
    char text[8192];
    snap_state nt, nr;
    olverdict vt, vr;
    if (!strcmp(opt.inject, "snap:16.1"))
        return 0;   /* handled with the next legal event */
    enum_wild(&truth, opt.wild_tries);
    for (int i = 0; i < n_cands; i++) {
        uint64_t t = opt.with_t ? t_now + 1000 : 0;
        if (judge_cand(&cands[i], t, &nt, &nr, &vt, &vr, text, sizeof text))
            continue;
        if (!rule_hit(&vr, opt.inject) || accepted(&vt))
            continue;
        if (opt.with_t)
            t_now += 1000;
        truth = nt;
        real = nr;
        injected = 1;
        injected_seq = seq_next;
        snprintf(injected_status, sizeof injected_status, "%s", ol_status_name(vr.status));
        if (opt.verbose)
            fprintf(stderr, "inject %s: %s -- %s\n", opt.inject, text, vr.msg);
        return emit(text);
    }
    return 0;
}

static int step_legal(void)
{
    char text[8192];
    snap_state nt, nr;
    olverdict vt, vr;
    enum_legal(&truth);
    order_cands();
    int clock = opt.inject && !injected && !strcmp(opt.inject, "snap:16.1") && (int)seq_next > opt.inject_after;
    for (int i = 0; i < n_cands; i++) {
        if (cands[i].by > 1 && strcmp(cands[i].type, "claim"))
            continue;
        uint64_t t = 0;
        if (opt.with_t)
            t = clock ? t_now + 31000 + (uint64_t)rn(28000) : t_now + 1500 + (uint64_t)rn(18000);
        if (judge_cand(&cands[i], t, &nt, &nr, &vt, &vr, text, sizeof text))
            continue;
        engines_agree(text, &vt, &vr);
        if (!accepted(&vr))
            continue;
        if (clock) {
            if (vr.status != OL_V_WARNING || strcmp(vr.rule, "snap:16.1"))
                continue;
            injected = 1;
            injected_seq = seq_next;
            snprintf(injected_status, sizeof injected_status, "warning");
        } else if (vr.status != OL_V_OK) {
            continue;
        }
        if (opt.with_t)
            t_now = t;
        note_cover(&cands[i], &truth);
        last_was_pass = !strcmp(cands[i].type, "pass");
        claimed = !strcmp(cands[i].type, "claim");
        truth = nt;
        real = nr;
        return emit(text);
    }
    if (opt.verbose) {
        fprintf(stderr, "gen_games: no legal event at seq %llu\n", (unsigned long long)seq_next);
        for (int i = 0; i < n_cands; i++) {
            if (judge_cand(&cands[i], t_now, &nt, &nr, &vt, &vr, text, sizeof text))
                continue;
            fprintf(stderr, "  %s -> %s %s %s\n", text, ol_status_name(vr.status), vr.rule, vr.msg);
        }
    }
    return -1;
}

static int special_event(const char *type, int by, const char *extra)
{
    gcand c;
    memset(&c, 0, sizeof c);
    c.type = type;
    c.by = by;
    c.slot = -2;
    c.force_mode = -1;
    c.extra = extra;
    char text[8192];
    snap_state nt, nr;
    olverdict vt, vr;
    uint64_t t = opt.with_t ? next_t() : 0;
    if (judge_cand(&c, t, &nt, &nr, &vt, &vr, text, sizeof text))
        return -1;
    engines_agree(text, &vt, &vr);
    if (!accepted(&vr))
        return -1;
    truth = nt;
    real = nr;
    return emit(text);
}

/* ---- one game -------------------------------------------------------- */

typedef struct {
    unsigned long long events;
    int over, winner;
    int injected;
    uint64_t injected_seq;
    char injected_status[16];
} game_result;

/* Play the game opt describes (seed, mode, decks, inject...) into obuf.
 * 0: complete; 3: unfinished, injection failed; 2: bad input. */
static int play_game(game_result *res)
{
    memset(res, 0, sizeof *res);
    obuf.n = 0;
    rng_state = 88172645463325252ull ^ (opt.seed * 0x9e3779b97f4a7c15ull);
    if (!rng_state)
        rng_state = 1;
    for (int i = 0; i < 8; i++)
        rnd();
    if (opt.inject && opt.inject_after < 0)
        opt.inject_after = rn(60);
    seq_next = 1;
    t_now = opt.t0;
    injected = claimed = 0;
    injected_seq = 0;
    injected_status[0] = '\0';
    last_was_pass = 0;
    n_cands = 0;

    /* the header, in the real mode, and its twin in open mode */
    static char htext[65536], htruth[65536];
    for (int k = 0; k < 2; k++) {
        char *h = k ? htruth : htext;
        int n = snprintf(h, 65536, "{\"match\":\"%s\",\"seq\":0,\"type\":\"match\",\"by\":\"table\"", opt.match);
        if (opt.with_t)
            n += snprintf(h + n, 65536 - (size_t)n, ",\"t\":%llu", (unsigned long long)t_now);
        n += snprintf(h + n, 65536 - (size_t)n,
                      ",\"format\":\"snap\",\"cards\":\"core@1.1.0\",\"hidden\":\"%s\",\"players\":{\"p1\":{\"id\":"
                      "\"alice\",\"deck\":%s},\"p2\":{\"id\":\"bob\",\"deck\":%s}}",
                      mode_names[k ? M_OPEN : opt.mode], decks[0].json, decks[1].json);
        if (opt.rules[0])
            n += snprintf(h + n, 65536 - (size_t)n, ",\"rules\":{%s}", opt.rules);
        snprintf(h + n, 65536 - (size_t)n, "}");
    }
    header_ev = decode(htext);
    olevent *ht = decode(htruth);
    if (!header_ev || !ht) {
        olevent_destroy(&header_ev);
        olevent_destroy(&ht);
        return 2;
    }
    olverdict v;
    snap_start(&real, db, NULL, header_ev, &v);
    snap_start(&truth, db, NULL, ht, &v);
    bench_facedown = real.bench_facedown;
    olevent_destroy(&ht);
    if (v.status != OL_V_OK) {
        fprintf(stderr, "gen_games: header: %s %s\n", v.rule, v.msg);
        olevent_destroy(&header_ev);
        return 2;
    }
    int rc = put_event(header_ev) ? 2 : 0;
    olevent_destroy(&header_ev);

    while (!rc && (int)seq_next <= opt.max_events) {
        if (opt.inject && !injected && (int)seq_next > opt.inject_after) {
            if (try_inject() < 0) {
                rc = 3;
                break;
            }
            if (injected && real.ol.over)
                break;
        }
        if (real.ol.over)
            break;
        if (opt.concede_at > 0 && (int)seq_next >= opt.concede_at && real.setup_done) {
            special_event("concede", opt.conceder >= 0 ? opt.conceder : rn(2), NULL);
            break;
        }
        if (step_legal() < 0) {
            rc = 3;
            break;
        }
    }
    /* rules that can only be broken after the end (3.4): try once more */
    if (!rc && opt.inject && !injected && real.ol.over)
        try_inject();
    if (!rc && opt.claim && !claimed && real.ol.over && real.ol.winner >= 0) {
        char e[64];
        snprintf(e, sizeof e, "\"winner\":\"%s\"", pname(real.ol.winner));
        special_event("claim", 2, e);
    }
    if (!rc && !real.ol.over)
        rc = 3;
    if (!rc && opt.inject && !injected)
        rc = 3;
    res->events = (unsigned long long)seq_next - 1;
    res->over = real.ol.over;
    res->winner = real.ol.winner;
    res->injected = injected;
    res->injected_seq = injected_seq;
    snprintf(res->injected_status, sizeof res->injected_status, "%s", injected_status);
    return rc;
}

/* ---- batch mode: a corpus --------------------------------------------- */

/* The rules a mixed corpus injects, in turn: ones every deck and every
 * hidden mode can break (so injection rarely fails), each with the event
 * from which to try (-1: a random one in 0..59, as --inject does). */
static const struct {
    const char *rule;
    int after;
} inject_rules[] = {
    {"snap:10.1", -1}, {"snap:6.2", -1},  {"snap:10.3", -1},  {"snap:10.4", 20},     {"snap:10.8.1", -1},
    {"snap:12.2", 20}, {"snap:13.1", -1}, {"snap:15.2", -1},  {"snap:3.4", 999},     {"openlog:3", -1},
    {"snap:A5", 30},   {"snap:R4", 20},   {"snap:9.1", 10},   {"snap:8", 0},         {"snap:8.3", 0},
    {"snap:8.5", 0},   {"snap:6.3", -1},  {"snap:10.9", -1},  {"openlog:cards", 20}, {"snap:12.4", -1},
    {"openlog:7", -1}, {"snap:10.10", -1}, {"snap:9.6", 30},
};
#define N_INJECT ((int)(sizeof inject_rules / sizeof inject_rules[0]))

/* Seeds tried for game i: base + i * SEED_STRIDE + attempt, attempt <
 * SEED_STRIDE, so every game is independent of the others (and of -j). */
#define SEED_STRIDE 1000

static struct {
    long games;
    const char *dir, *concat;
    double illegal_pct;
    int jobs;
    const char *decks_glob;
    uint64_t base;
} batch;

static gdeck *all_decks;
static char **deck_paths;
static int n_decks;

/* One line of index.tsv per game, in a shared mapping so that workers of
 * -j can fill it. */
#define INDEX_LINE 320
static char *index_lines;

/* Is game i one of the illegal ones?  Spread evenly: game i is illegal
 * when floor((i+1) * pct / 100) > floor(i * pct / 100); the k-th illegal
 * game (k from 0) injects inject_rules[k % N_INJECT]. */
static long illegal_ordinal(long i)
{
    return (long)((double)i * (batch.illegal_pct / 100.0));
}

static int illegal_rank(long i)
{
    long k = illegal_ordinal(i);
    return illegal_ordinal(i + 1) > k ? (int)(k % N_INJECT) : -1;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int write_file(const char *path, const char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        return -1;
    }
    int bad = fwrite(b, 1, n, f) != n;
    bad |= fclose(f) != 0;
    if (bad)
        perror(path);
    return bad ? -1 : 0;
}

static char matchbuf[64];

/* Game i of the corpus: try seeds until one gives a complete game (and,
 * for an illegal one, its injection), write DIR/NNNNNN.mlog and its index
 * line.  Returns 0, or 3 when no seed of the stride worked, 2 on I/O. */
static int batch_game(long i, unsigned long long *events, unsigned long long *attempts)
{
    int rank = illegal_rank(i);
    /* an illegal game takes its decks and mode from its own ordinal, so
     * that the illegal games too go round every deck and mode */
    long c = rank >= 0 ? illegal_ordinal(i) : i, nd = n_decks;
    int d1 = (int)(c % nd);
    gmode mode = (gmode)((c / nd) % 3);
    int d2 = (int)((d1 + 1 + c / (3 * nd)) % nd);
    game_result res;
    for (int attempt = 0; attempt < SEED_STRIDE; attempt++) {
        opt.seed = batch.base + (uint64_t)i * SEED_STRIDE + (uint64_t)attempt;
        opt.mode = mode;
        decks[0] = all_decks[d1];
        decks[1] = all_decks[d2];
        snprintf(matchbuf, sizeof matchbuf, "gen-%llu", (unsigned long long)opt.seed);
        opt.match = matchbuf;
        opt.inject = rank >= 0 ? inject_rules[rank].rule : NULL;
        opt.inject_after = rank >= 0 ? inject_rules[rank].after : -1;
        (*attempts)++;
        int rc = play_game(&res);
        if (rc == 2)
            return 2;
        if (rc)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%06ld.mlog", batch.dir, i);
        if (write_file(path, obuf.b, obuf.n))
            return 2;
        *events += res.events + 1;
        char inj[96] = "-\t-\t-";
        if (rank >= 0)
            snprintf(inj, sizeof inj, "%s\t%llu\t%s", opt.inject, (unsigned long long)res.injected_seq,
                     res.injected_status);
        snprintf(index_lines + (size_t)i * INDEX_LINE, INDEX_LINE, "%06ld.mlog\t%llu\t%s\t%s\t%s\t%llu\t%s\t%s\n", i,
                 (unsigned long long)opt.seed, mode_names[mode], base_name(deck_paths[d1]),
                 base_name(deck_paths[d2]), res.events + 1,
                 res.winner < 0 ? "none" : pname(res.winner), inj);
        return 0;
    }
    fprintf(stderr, "gen_games: game %ld: no seed from %llu on gave a complete game\n", i,
            (unsigned long long)(batch.base + (uint64_t)i * SEED_STRIDE));
    return 3;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The next game no worker has taken (shared by the workers of -j). */
static long *next_game;

static int batch_worker(unsigned long long *events, unsigned long long *attempts)
{
    for (;;) {
        long i = __atomic_fetch_add(next_game, 1, __ATOMIC_RELAXED);
        if (i >= batch.games)
            return 0;
        int rc = batch_game(i, events, attempts);
        if (rc)
            return rc;
    }
}

static int concat_corpus(void)
{
    FILE *f = fopen(batch.concat, "wb");
    if (!f) {
        perror(batch.concat);
        return 2;
    }
    for (long i = 0; i < batch.games; i++) {
        char path[4096], *buf = NULL;
        size_t len = 0;
        olerror err;
        snprintf(path, sizeof path, "%s/%06ld.mlog", batch.dir, i);
        if (olstream_read_file(path, OL_FILE_MAX, &buf, &len, &err)) {
            fprintf(stderr, "gen_games: %s\n", err.msg);
            fclose(f);
            return 2;
        }
        size_t put = fwrite(buf, 1, len, f);
        free(buf);
        if (put != len) {
            perror(batch.concat);
            fclose(f);
            return 2;
        }
    }
    if (fclose(f)) {
        perror(batch.concat);
        return 2;
    }
    return 0;
}

static int run_batch(void)
{
    glob_t g;
    if (glob(batch.decks_glob, 0, NULL, &g) || g.gl_pathc == 0) {
        fprintf(stderr, "gen_games: no deck matches %s\n", batch.decks_glob);
        return 2;
    }
    n_decks = (int)g.gl_pathc;
    all_decks = calloc((size_t)n_decks, sizeof *all_decks);
    deck_paths = g.gl_pathv;
    for (int k = 0; k < n_decks; k++)
        if (load_deck(deck_paths[k], &all_decks[k]))
            return 2;
    char tmpdir[4096] = "";
    if (!batch.dir) {
        /* --concat alone: the games go through a scratch directory */
        snprintf(tmpdir, sizeof tmpdir, "%s.tmpXXXXXX", batch.concat);
        if (!mkdtemp(tmpdir)) {
            perror(tmpdir);
            return 2;
        }
        batch.dir = tmpdir;
    } else if (mkdir(batch.dir, 0777) && errno != EEXIST) {
        perror(batch.dir);
        return 2;
    }
    size_t index_size = (size_t)batch.games * INDEX_LINE;
    index_lines = mmap(NULL, index_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (index_lines == MAP_FAILED) {
        perror("mmap");
        return 3;
    }
    /* per worker: events, attempts; then the next game's index */
    unsigned long long *stats = mmap(NULL, ((size_t)batch.jobs * 2 + 1) * sizeof *stats, PROT_READ | PROT_WRITE,
                                     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (stats == MAP_FAILED) {
        perror("mmap");
        return 3;
    }
    next_game = (long *)&stats[2 * batch.jobs];
    double t0 = now_s();
    int rc = 0;
    if (batch.jobs == 1) {
        rc = batch_worker(&stats[0], &stats[1]);
    } else {
        fflush(NULL);
        for (int w = 0; w < batch.jobs; w++) {
            pid_t pid = fork();
            if (pid < 0) {
                perror("fork");
                return 3;
            }
            if (pid == 0)
                _exit(batch_worker(&stats[2 * w], &stats[2 * w + 1]));
        }
        for (int w = 0; w < batch.jobs; w++) {
            int st = 0;
            if (wait(&st) < 0 || !WIFEXITED(st))
                rc = 3;
            else if (WEXITSTATUS(st) > rc)
                rc = WEXITSTATUS(st);
        }
    }
    double secs = now_s() - t0;
    unsigned long long events = 0, attempts = 0;
    for (int w = 0; w < batch.jobs; w++) {
        events += stats[2 * w];
        attempts += stats[2 * w + 1];
    }
    if (!rc) {
        char path[4096];
        snprintf(path, sizeof path, "%s/index.tsv", batch.dir);
        FILE *f = tmpdir[0] ? NULL : fopen(path, "w");
        if (!tmpdir[0] && !f) {
            perror(path);
            rc = 2;
        }
        if (f) {
            fputs("file\tseed\tmode\tdeck1\tdeck2\tevents\twinner\tinject\tinject_seq\tinject_status\n", f);
            for (long i = 0; i < batch.games; i++)
                fputs(index_lines + (size_t)i * INDEX_LINE, f);
            if (fclose(f)) {
                perror(path);
                rc = 2;
            }
        }
    }
    if (!rc && batch.concat)
        rc = concat_corpus();
    if (tmpdir[0]) {
        for (long i = 0; i < batch.games; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%06ld.mlog", tmpdir, i);
            unlink(path);
        }
        rmdir(tmpdir);
    }
    long n_illegal = 0;
    for (long i = 0; i < batch.games; i++)
        n_illegal += illegal_rank(i) >= 0;
    fprintf(stderr,
            "gen_games: %ld games (%ld illegal), %llu events, %llu seeds tried, %.2f s on %d process%s: "
            "%.0f games/s, %.0f events/s\n",
            batch.games, n_illegal, events, attempts, secs, batch.jobs, batch.jobs == 1 ? "" : "es",
            (double)batch.games / secs, (double)events / secs);
    return rc;
}

/* ---- command line ----------------------------------------------------- */

static const char usage_text[] =
    "usage: gen_games [--seed N] [--mode open|commit|announced] [--deck1 FILE] [--deck2 FILE]\n"
    "                 [--rule KEY=VALUE]... [--concede-at N] [--conceder p1|p2] [--t MS]\n"
    "                 [--claim] [--max-events N] [--inject RULE [--inject-msg TEXT] [--inject-after N] [--tries N]]\n"
    "                 [--cards FILE] [--match ID] [--out FILE] [--expect FILE] [-v]\n"
    "       gen_games --games N (--out-dir DIR | --concat FILE) [--illegal-pct P] [--seed N]\n"
    "                 [--decks GLOB] [-j N] [--cards FILE] [--max-events N]\n"
    "\n"
    "One game: a complete Snap open log, every event legal (or, with --inject,\n"
    "exactly one judged illegal citing RULE), to --out (stdout by default), as\n"
    "JSON Lines, or MessagePack when the name ends in .mlog.  The summary goes\n"
    "to stderr.  Exit 0 written; 3 unfinished, injection failed or the engines\n"
    "disagreed; 2 bad usage or input.\n"
    "\n"
    "Batch (a benchmark corpus): --games N writes N complete games, N up to\n"
    "a million, as MessagePack:\n"
    "  --out-dir DIR    DIR/000000.mlog ... one file per game (what `arbiter\n"
    "                   verify` takes), and DIR/index.tsv: file, seed, mode,\n"
    "                   decks, events, winner, injected rule/seq/status\n"
    "  --concat FILE    all games back to back in one .mlog (with or without\n"
    "                   --out-dir)\n"
    "  --illegal-pct P  P% of the games (spread evenly) carry exactly one\n"
    "                   illegal event, the rules injected in turn from a fixed\n"
    "                   list of 23 (default 0: every game legal)\n"
    "  --decks GLOB     the decks cycled through (default\n"
    "                   fixtures/decks/snap/legal-*.json)\n"
    "  -j N             N processes (default 1); the corpus is the same\n"
    "The options of one game (--rule, --t, --claim, --max-events...) apply to\n"
    "every game; --inject and --out are refused.\n"
    "Game i (from 0) plays deck i%D against deck (i%D+1+i/(3D))%D, D decks,\n"
    "in mode (open, commit, announced)[(i/D)%3] (the k-th illegal game: k for\n"
    "i), with seed S+1000i (+1, +2... when a seed gives no complete game or\n"
    "its injection fails) and match id gen-SEED; `gen_games --seed SEED --mode\n"
    "M --deck1 A --deck2 B [--inject R --inject-after N]` gives the same game.\n"
    "The summary line (stderr) reports games/s.\n";

static void usage(void)
{
    fputs(usage_text, stderr);
}

int main(int argc, char **argv)
{
    opt.seed = 1;
    opt.mode = M_OPEN;
    opt.deck[0] = "fixtures/decks/snap/legal-coreon-fluxion-lines.json";
    opt.deck[1] = "fixtures/decks/snap/legal-obscura-eclipse.json";
    opt.cards_path = "fixtures/cards/core.json";
    opt.match = NULL;
    opt.max_events = 600;
    opt.concede_at = -1;
    opt.conceder = -1;
    opt.inject_after = -1;
    opt.wild_tries = 400;
    batch.jobs = 1;
    batch.decks_glob = "fixtures/decks/snap/legal-*.json";
    size_t rl = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
#define ARG(name) (!strcmp(a, name) && v && (i++, 1))
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            return 0;
        } else if (ARG("--seed"))
            opt.seed = strtoull(v, NULL, 10);
        else if (ARG("--mode"))
            opt.mode = !strcmp(v, "commit") ? M_COMMIT : !strcmp(v, "announced") ? M_ANNOUNCED : M_OPEN;
        else if (ARG("--deck1"))
            opt.deck[0] = v;
        else if (ARG("--deck2"))
            opt.deck[1] = v;
        else if (ARG("--cards"))
            opt.cards_path = v;
        else if (ARG("--out"))
            opt.out = v;
        else if (ARG("--expect"))
            opt.expect = v;
        else if (ARG("--match"))
            opt.match = v;
        else if (ARG("--rule")) {
            char key[64];
            const char *eq = strchr(v, '=');
            if (!eq || (size_t)(eq - v) >= sizeof key) {
                usage();
                return 2;
            }
            snprintf(key, sizeof key, "%.*s", (int)(eq - v), v);
            rl += (size_t)snprintf(opt.rules + rl, sizeof opt.rules - rl, "%s\"%s\":%s", rl ? "," : "", key, eq + 1);
        } else if (ARG("--concede-at"))
            opt.concede_at = atoi(v);
        else if (ARG("--conceder"))
            opt.conceder = !strcmp(v, "p2");
        else if (ARG("--t")) {
            opt.with_t = 1;
            opt.t0 = strtoull(v, NULL, 10);
        } else if (ARG("--max-events"))
            opt.max_events = atoi(v);
        else if (ARG("--inject"))
            opt.inject = v;
        else if (ARG("--inject-msg"))
            opt.inject_msg = v;
        else if (ARG("--inject-after"))
            opt.inject_after = atoi(v);
        else if (ARG("--tries"))
            opt.wild_tries = atoi(v);
        else if (ARG("--games"))
            batch.games = atol(v);
        else if (ARG("--out-dir"))
            batch.dir = v;
        else if (ARG("--concat"))
            batch.concat = v;
        else if (ARG("--illegal-pct"))
            batch.illegal_pct = atof(v);
        else if (ARG("--decks"))
            batch.decks_glob = v;
        else if (ARG("-j") || ARG("--jobs"))
            batch.jobs = atoi(v);
        else if (!strcmp(a, "--claim"))
            opt.claim = 1;
        else if (!strcmp(a, "-v"))
            opt.verbose = 1;
        else {
            usage();
            return 2;
        }
    }
    if (batch.games || batch.dir || batch.concat) {
        if (batch.games < 1 || batch.games > 1000000 || (!batch.dir && !batch.concat) || batch.jobs < 1 ||
            batch.jobs > 64 || batch.illegal_pct < 0 || batch.illegal_pct > 100 || opt.inject || opt.out) {
            usage();
            return 2;
        }
        if (batch.jobs > batch.games)
            batch.jobs = (int)batch.games;
        batch.base = opt.seed;
        out_enc = OL_ENC_MSGPACK;
    }
    if (sodium_init() < 0)
        return 3;
    char err[2048];
    if (carddb_load_file(opt.cards_path, &db, err, sizeof err)) {
        fprintf(stderr, "gen_games: %s\n", err);
        return 2;
    }
    closer = decode("{\"match\":\"x\",\"seq\":1,\"type\":\"end\",\"by\":\"table\"}");
    if (batch.games) {
        quiet_decode = 1;
        return run_batch();
    }

    for (int p = 0; p < 2; p++)
        if (load_deck(opt.deck[p], &decks[p]))
            return 2;
    if (!opt.match) {
        snprintf(matchbuf, sizeof matchbuf, "gen-%llu", (unsigned long long)opt.seed);
        opt.match = matchbuf;
    }
    if (opt.out && olstream_encoding_of(opt.out) == OL_ENC_MSGPACK)
        out_enc = OL_ENC_MSGPACK;
    game_result res;
    int rc = play_game(&res);
    if (rc == 2)
        return 2;
    FILE *out = opt.out ? fopen(opt.out, "w") : stdout;
    if (!out) {
        perror(opt.out);
        return 2;
    }
    if (fwrite(obuf.b, 1, obuf.n, out) != obuf.n || (opt.out ? fclose(out) : fflush(out))) {
        perror(opt.out ? opt.out : "stdout");
        return 2;
    }
    fprintf(stderr,
            "gen_games: seed %llu: %llu events, %s, winner %s; cover block=%lu disruptor=%lu overdrive=%lu "
            "swapkw=%lu resonance=%lu on_reveal=%lu on_entry=%lu evolve2=%lu evolve3=%lu prime=%lu swap=%lu "
            "spell=%lu counter=%lu skipped=%lu",
            (unsigned long long)opt.seed, res.events, res.over ? "over" : "unfinished",
            res.winner < 0 ? "none" : pname(res.winner), cover_block, cover_disrupt, cover_overdrive, cover_swapkw,
            cover_reso, cover_reveal, cover_entry, cover_evolve2, cover_evolve3, cover_prime, cover_swap,
            cover_spell, cover_counter, cover_skipped);
    if (opt.inject)
        fprintf(stderr, "; inject %s %s", res.injected ? "at" : "failed", opt.inject);
    fprintf(stderr, "\n");
    if (opt.inject && res.injected && opt.expect) {
        FILE *f = fopen(opt.expect, "w");
        if (!f) {
            perror(opt.expect);
            return 2;
        }
        fprintf(f, "%llu %s %s\n", (unsigned long long)res.injected_seq, res.injected_status, opt.inject);
        fclose(f);
    }
    return rc;
}
