/* verify.c -- judge a whole open log, event by event.
 *
 * An engine (verifiers/verifier.h) knows the rules of one format and
 * nothing about where events come from: it assumes each event it is given
 * is the next one of its match.  Real logs are not so tidy.  A table that
 * lost its connection resends events (duplicates), a buggy one sends two
 * different events under one seq (a conflict) or skips one (a gap), a file
 * gets a line from another match pasted into it, or names a card database
 * other than the one the judge holds.  This file is the gatekeeper between
 * the raw log and the engine: it decides, for every event, whether the
 * engine should see it at all, and produces the verdict itself when not.
 *
 * The order of the checks matters and is the one of verify.h: the codec
 * first (a malformed event has no trustworthy fields), then the header
 * (nothing can be judged before it), then the match id (an event of another
 * match must not disturb this match's seq bookkeeping), then seq, and only
 * then the engine.  Which verdicts "take" a seq follows openlog.md 8: those
 * recorded in the match (ok, warning, illegal, mismatch) do; a gap is not
 * stored, a malformed event goes to quarantine, and a duplicate or conflict
 * was stored already.  So after a malformed event at seq 5 the log's event
 * 6 is a gap expecting 5, which is exactly what a live table resending a
 * corrected event 5 would need to hear.
 *
 * Raw bytes of stored events are kept in one growing buffer, indexed by
 * seq (stored seqs are always 0..expect-1, without holes), so a duplicate
 * check is a memcmp.  Nothing here prints, reads the clock or touches a
 * global: the command line runs one verify_file() per thread, and the
 * daemon will report the same verdicts byte for byte (openlog.md 10).
 *
 * `arbiter replay` needs the board as it stood at one event, judged exactly
 * as `verify` judges it.  So there is one loop, run_reader(), with a limit:
 * it stops once the event at the limit's seq has been stored, and can hand
 * the engine over instead of destroying it.  verify_file() is that loop
 * with no limit; nothing about seq bookkeeping exists twice.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "logformat/olcodec.h"
#include "src/core/carddb.h"
#include "src/core/verify.h"
#include "verifiers/verifier.h"

/* Where a stored event's bytes are, and which verdict it got. */
typedef struct {
    size_t off, len;
    size_t verdict;
} verify_seen;

/* A match paused at an illegal action (SPEC.md 8.1, the lever on_illegal
 * "judge"): the illegal action's bytes, then each held event's, back to
 * back.  ev[0] is the illegal action; n == 0 when the match is not paused.
 * Its own copy of the bytes, lean or not, so that a remedy can judge them
 * again; bounded by VERIFY_HELD_MAX and VERIFY_HELD_BYTES. */
typedef struct {
    size_t off, len;
    uint64_t seq;
} verify_held;

typedef struct {
    verify_held *ev;
    size_t n, cap;
    char *bytes;
    size_t len, bytes_cap;
} verify_hold;

/* The state of one verification; lives for one verify_reader() call, or
 * as long as a verify_session (the daemon keeps one per live match). */
struct verify_session {
    const cards *db;           /* the database judging: a file's is picked
                                  from `shelf` by its header's name       */
    const carddb_shelf *shelf; /* a file's; NULL for a session            */
    verify_decks *decks;       /* the batch's memo of legal decklists, or
                                  NULL (verify_file_decks)                */
    verify_report *rep;
    size_t cap;                /* capacity of rep->verdicts               */
    verifier *vf;              /* NULL until a header is accepted          */
    int ended;                 /* the reader reached the end of the log    */
    int have_header;           /* a header took seq 0                      */
    int refused;               /* the header was illegal before the engine:
                                  the match cannot start                  */
    int stop;                  /* read no further (no engine, I/O error)   */
    uint64_t expect;           /* the next seq to apply                    */
    verify_seen *seen;         /* [0, expect)                              */
    size_t seen_cap;
    char *bytes;
    size_t bytes_len, bytes_cap;
    int lean;                  /* verify_session_lean: stored events are
                                  the caller's, not kept here              */
    const char *resent;        /* lean: the stored bytes of the seq being */
    size_t resent_len;         /* judged, when it is below expect (NULL:  */
    int has_resent;            /* not given)                              */
    verify_hold hold;          /* remedies: the illegal action the match
                                  is paused at, and the events held since
                                  (empty when not paused)                 */
    size_t later_cap;          /* capacity of rep->later                  */
    size_t later_from;         /* the later verdicts of the last event    */
};
typedef struct verify_session verify_run;

/* The memo of legal decklists of one batch: one deck_memo per database
 * the shelf has served (a shelf holds few), made when first needed. */
#define DECKS_DBS 8
struct verify_decks {
    const cards *db[DECKS_DBS];
    deck_memo *memo[DECKS_DBS];
};

verify_decks *verify_decks_new(void)
{
    return calloc(1, sizeof(verify_decks));
}

void verify_decks_destroy(verify_decks **d)
{
    if (!d || !*d)
        return;
    for (size_t i = 0; i < DECKS_DBS; i++)
        deck_memo_destroy(&(*d)->memo[i]);
    free(*d);
    *d = NULL;
}

/* The memo for db, or NULL (no batch memo, more databases than slots, out
 * of memory): then decks are checked in full, which is never wrong. */
static deck_memo *decks_for(verify_decks *d, const cards *db)
{
    if (!d || !db)
        return NULL;
    for (size_t i = 0; i < DECKS_DBS; i++) {
        if (d->db[i] == db)
            return d->memo[i];
        if (!d->db[i]) {
            if (!(d->memo[i] = deck_memo_new(db)))
                return NULL;
            d->db[i] = db;
            return d->memo[i];
        }
    }
    return NULL;
}

const char *verify_status_name(verify_status s)
{
    switch (s) {
    case VERIFY_LEGAL: return "legal";
    case VERIFY_ILLEGAL: return "illegal";
    case VERIFY_UNREADABLE: return "unreadable";
    }
    return "unreadable";
}

int verify_status_is_clean(ol_status s)
{
    return s == OL_V_OK || s == OL_V_WARNING || s == OL_V_DUPLICATE;
}

void verify_report_destroy(verify_report **report)
{
    if (!report || !*report)
        return;
    free((*report)->name);
    free((*report)->verdicts);
    free((*report)->later);
    free(*report);
    *report = NULL;
}

/* Double a capacity until it holds `need`; 0 when that would overflow. */
static size_t grow_to(size_t cap, size_t need, size_t elem)
{
    size_t n = cap ? cap : 16;

    while (n < need) {
        if (n > ((size_t)-1 / 2) / elem)
            return 0;
        n *= 2;
    }
    return n;
}

/* Make room for `need` elements of `elem` bytes in the array whose pointer
 * is at `pp` (any T **) and whose capacity is *cap: the one growth path of
 * this file.  The pointer is read and written with memcpy, so T ** need
 * not be punned to void **. */
static int reserve(void *pp, size_t *cap, size_t need, size_t elem)
{
    void *old, *q;
    if (need <= *cap)
        return VERIFY_OK;
    size_t n = grow_to(*cap, need, elem);
    memcpy(&old, pp, sizeof old);
    if (!n || !(q = realloc(old, n * elem)))
        return VERIFY_ENOMEM;
    memcpy(pp, &q, sizeof q);
    *cap = n;
    return VERIFY_OK;
}

/* Append one verdict to the report; its index in *index (may be NULL). */
static int push_verdict(verify_run *run, const olverdict *v, size_t stored, size_t *index)
{
    verify_report *rep = run->rep;

    if (reserve(&rep->verdicts, &run->cap, rep->n_verdicts + 1, sizeof *rep->verdicts))
        return VERIFY_ENOMEM;
    rep->verdicts[rep->n_verdicts].v = *v;
    rep->verdicts[rep->n_verdicts].stored = stored;
    if (index)
        *index = rep->n_verdicts;
    rep->n_verdicts++;
    if ((unsigned)v->status < OL_V_COUNT)
        rep->counts[v->status]++;
    return VERIFY_OK;
}

/* Record the event at seq run->expect with its verdict, and move on. */
static int store(verify_run *run, const char *raw, size_t len, const olverdict *v)
{
    size_t index;

    if (run->lean) {   /* lean: the caller keeps the record */
        if (push_verdict(run, v, VERIFY_NONE, &index) != VERIFY_OK)
            return VERIFY_ENOMEM;
        run->expect++;
        return VERIFY_OK;
    }
    if (reserve(&run->seen, &run->seen_cap, run->expect + 1, sizeof *run->seen))
        return VERIFY_ENOMEM;
    if (reserve(&run->bytes, &run->bytes_cap, run->bytes_len + len, 1))
        return VERIFY_ENOMEM;
    if (push_verdict(run, v, VERIFY_NONE, &index) != VERIFY_OK)
        return VERIFY_ENOMEM;
    if (len)
        memcpy(run->bytes + run->bytes_len, raw, len);
    run->seen[run->expect] = (verify_seen){run->bytes_len, len, index};
    run->bytes_len += len;
    run->expect++;
    return VERIFY_OK;
}

/* The header: the card database first (see verify.h), then the engine. */
static int judge_header(verify_run *run, const olevent *ev, const char *raw, size_t len)
{
    verify_report *rep = run->rep;
    const char *named = ev->header.cards ? ev->header.cards : "";
    olverdict v;
    int rc;

    memset(&v, 0, sizeof v);
    snprintf(rep->match, sizeof rep->match, "%s", ev->match);
    rep->format = ol_format_name(ev->header.format) ? ol_format_name(ev->header.format) : "";
    if (run->shelf)   /* a file: the header picks its database */
        run->db = rep->db = carddb_shelf_pick(run->shelf, named);
    if (!carddb_is_named(run->db, named)) {
        olverdict_set(&v, ev->match, ev->seq, OL_V_ILLEGAL, "openlog:cards",
                      "The header names the card database %s, but the one at hand is %s@%s: judge the log "
                      "with the database it was played with.",
                      named[0] ? named : "(none)", cards_set(run->db), cards_version(run->db));
        run->refused = 1;
        run->have_header = 1;
        return store(run, raw, len, &v);
    }
    rc = verifier_new_memo(run->db, decks_for(run->decks, run->db), ev, &run->vf, &v);
    /* The engine may leave the envelope to us; a verdict always has one. */
    if (!v.match[0])
        snprintf(v.match, sizeof v.match, "%s", ev->match);
    v.seq = ev->seq;
    v.has_seq = 1;
    if (rc == VERIFIER_ENOMEM)
        return VERIFY_ENOMEM;
    if (rc == VERIFIER_ENOENGINE || rc == VERIFIER_EPLAYERS || rc == VERIFIER_ECARDS) {
        /* Unverifiable, not illegal: nothing the players did is wrong. */
        run->vf = NULL;
        run->stop = 1;
        v.status = OL_V_MALFORMED;
        if (!v.msg[0])
            snprintf(v.msg, sizeof v.msg, "There is no rules engine for the %s format yet.",
                     rep->format);
        rep->status = VERIFY_UNREADABLE;
        snprintf(rep->error, sizeof rep->error, "%s", v.msg);
        return push_verdict(run, &v, VERIFY_NONE, NULL);
    }
    if (rc != VERIFIER_OK || !run->vf)
        return VERIFY_ENOMEM;   /* an engine error we do not know: fail safe */
    snprintf(rep->engine, sizeof rep->engine, "%s", verifier_engine(run->vf));
    run->have_header = 1;
    return store(run, raw, len, &v);
}

/* ---- remedies (SPEC.md 8.1) ---------------------------------------------
 *
 * A table whose header's on_illegal lever is "judge" plays on after an
 * illegal action (a physical table: the monster is on the table already).
 * The match pauses at the illegal action: every later event but a judge's
 * is stored and answered `held`, until a judge event gives a remedy --
 * "stands" (the action is made to stand as announced, as far as the engine
 * can: verifier_force) or "backup" (the state before it comes back:
 * verifier_back_up; a game loss without a remedy backs up too).  Then the
 * held events are judged in order against the remedied state (stands) or
 * are void (backup), and each gets a later verdict carrying the remedy's
 * seq, which the daemon sends on its feed.  A held event judged illegal
 * pauses the match again, and the events after it stay held.
 *
 * It all happens here, in the one loop of batch and live, so that
 * `arbiter verify`, the daemon and an audit judge a paused match alike;
 * the engines give only what verifier.h's remedies section says. */

/* Read an event's bytes again: JSON when its first byte that is not
 * white space is '{' (a line of a .jsonl file), else MessagePack. */
static int decode_again(const char *raw, size_t len, olevent **out)
{
    size_t i = 0;
    olerror err;
    while (i < len && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\r' || raw[i] == '\n'))
        i++;
    *out = NULL;
    if (i < len && raw[i] == '{')
        return olcodec_decode_json(raw + i, len - i, (ol_origin){0, 1}, out, &err) == OL_OK ? 0 : -1;
    return olcodec_decode_message(raw, len, out, &err) == OL_OK ? 0 : -1;
}

static int hold_push(verify_hold *h, uint64_t seq, const char *raw, size_t len)
{
    if (reserve(&h->ev, &h->cap, h->n + 1, sizeof *h->ev) || reserve(&h->bytes, &h->bytes_cap, h->len + len, 1))
        return VERIFY_ENOMEM;
    if (len)
        memcpy(h->bytes + h->len, raw, len);
    h->ev[h->n++] = (verify_held){h->len, len, seq};
    h->len += len;
    return VERIFY_OK;
}

static void hold_free(verify_hold *h)
{
    free(h->ev);
    free(h->bytes);
    memset(h, 0, sizeof *h);
}

/* A later verdict: one that a remedy gave an event answered held. */
static int push_later(verify_run *run, const olverdict *v)
{
    verify_report *rep = run->rep;
    if (reserve(&rep->later, &run->later_cap, rep->n_later + 1, sizeof *rep->later))
        return VERIFY_ENOMEM;
    rep->later[rep->n_later++] = *v;
    return VERIFY_OK;
}

static int play(verify_run *run, const olevent *ev, const char *raw, size_t len, olverdict *v);

/* A judge event while the match is paused: a remedy, or a ruling that
 * leaves the pause as it is. */
static int remedy(verify_run *run, const olevent *ev, olverdict *v)
{
    verify_hold old = run->hold;
    olevent *ill = NULL;
    olverdict fv;
    unsigned judged = 0, voided = 0, illegal = 0, forced = 0;
    int backup, rc = VERIFY_OK;

    /* A ruling that is no remedy -- by anyone but the judge (refused by
     * the engine, openlog:3), naming a seat the match does not have, a note
     * or a warning without one -- is judged as usual; the pause goes on. */
    if (ev->by != OL_BY_JUDGE || (ev->has_player && (unsigned)ev->player >= verifier_players(run->vf)) ||
        (!ev->has_remedy && ev->ruling != OL_RULING_GAME_LOSS)) {
        verifier_apply(run->vf, ev, v);
        return VERIFY_OK;
    }
    unsigned long long ill_seq = (unsigned long long)old.ev[0].seq;
    backup = !ev->has_remedy || ev->remedy == OL_REMEDY_BACKUP;
    memset(&fv, 0, sizeof fv);
    if (!backup) {
        /* its bytes decoded when it came: only memory fails */
        if (decode_again(old.bytes + old.ev[0].off, old.ev[0].len, &ill))
            return VERIFY_ENOMEM;
        forced = verifier_force(run->vf, ill, &fv);
        olevent_destroy(&ill);
        if (fv.status != OL_V_OK && fv.status != OL_V_WARNING) {
            /* EVIDENCE-OF openlog:remedy: "stands: the illegal action is
             * applied as announced, as far as the engine can apply it;
             * where it cannot, the verdict says so and the judge must
             * choose another remedy" */
            olverdict_set(v, ev->match, ev->seq, OL_V_ILLEGAL, "openlog:remedy",
                          "The illegal action at seq %llu cannot stand: %s The match stays paused; the judge may "
                          "back it up instead.",
                          ill_seq, fv.msg);
            return VERIFY_OK;
        }
    } else if (verifier_back_up(run->vf)) {
        return VERIFY_ENOMEM;   /* every pause keeps the state before it */
    }
    /* The pause is over: the held events are judged (stands) or void
     * (backup), in order, against the remedied state. */
    memset(&run->hold, 0, sizeof run->hold);
    for (size_t i = 1; rc == VERIFY_OK && i < old.n; i++) {
        olverdict hv;
        memset(&hv, 0, sizeof hv);
        if (backup) {   /* void: its seq is known, its bytes need no reading */
            olverdict_set(&hv, ev->match, old.ev[i].seq, OL_V_VOID, "openlog:remedy",
                          "The judge backed play up to before seq %llu: this event is void.", ill_seq);
            voided++;
        } else {
            olevent *hev = NULL;
            if (decode_again(old.bytes + old.ev[i].off, old.ev[i].len, &hev)) {
                rc = VERIFY_ENOMEM;
                break;
            }
            rc = play(run, hev, old.bytes + old.ev[i].off, old.ev[i].len, &hv);
            olevent_destroy(&hev);
            if (rc != VERIFY_OK || hv.status == OL_V_HELD)
                continue;   /* paused again before it: still held */
            judged++;
            illegal += hv.status == OL_V_ILLEGAL;
        }
        hv.remedy = ev->seq;
        hv.has_remedy = 1;
        rc = push_later(run, &hv);
    }
    if (rc == VERIFY_OK) {
        /* the ruling last, when the judge gave it: a game loss ends the
         * game on the remedied board */
        verifier_apply(run->vf, ev, v);
        char rest[160] = "";
        if (run->hold.n)
            snprintf(rest, sizeof rest, " Seq %llu, judged after it, is illegal: the match is paused again.",
                     (unsigned long long)run->hold.ev[0].seq);
        if (v->status == OL_V_OK) {
            if (backup)
                olverdict_set(v, ev->match, ev->seq, OL_V_OK, "openlog:remedy",
                              "The judge backed play up to before the illegal action at seq %llu; %u held event%s "
                              "void.",
                              ill_seq, voided, voided == 1 ? " is" : "s are");
            else
                olverdict_set(v, ev->match, ev->seq, OL_V_OK, "openlog:remedy",
                              "The judge let the illegal action at seq %llu stand (%u rule%s passed over); %u held "
                              "event%s judged again, %u illegal.%s",
                              ill_seq, forced, forced == 1 ? "" : "s", judged,
                              judged == 1 ? "" : "s", illegal, rest);
        }
    }
    hold_free(&old);
    return rc;
}

/* Judge one event of play -- its seq the next, the header accepted -- into
 * *v: through the engine, or, while the match is paused, held.  The caller
 * stores it (or, for a held event judged after a remedy, gives *v as its
 * later verdict). */
static int play(verify_run *run, const olevent *ev, const char *raw, size_t len, olverdict *v)
{
    memset(v, 0, sizeof *v);
    if (run->hold.n) {
        if (ev->type == OL_JUDGE)
            return remedy(run, ev, v);
        if (run->hold.n > VERIFY_HELD_MAX || run->hold.len + len > VERIFY_HELD_BYTES) {
            /* EVIDENCE-OF openlog:remedy: every resource has a limit and a
             * refusal the table can read */
            olverdict_set(v, ev->match, ev->seq, OL_V_ILLEGAL, "openlog:remedy",
                          "The match has held %zu events since the illegal action at seq %llu and takes no more "
                          "until a judge gives a remedy; this one is recorded as refused.",
                          run->hold.n - 1, (unsigned long long)run->hold.ev[0].seq);
            return VERIFY_OK;
        }
        /* EVIDENCE-OF openlog:remedy: "the match pauses at the illegal
         * event -- later events are stored and answered held -- until a
         * judge event gives the remedy" */
        olverdict_set(v, ev->match, ev->seq, OL_V_HELD, "openlog:remedy",
                      "Play is paused at the illegal action at seq %llu until a judge gives a remedy; this event "
                      "is recorded and will be judged after it.",
                      (unsigned long long)run->hold.ev[0].seq);
        return hold_push(&run->hold, ev->seq, raw, len);
    }
    if (!verifier_judging(run->vf)) {
        verifier_apply(run->vf, ev, v);
        return VERIFY_OK;
    }
    int over = verifier_finished(run->vf, NULL);
    if (verifier_keep(run->vf))
        return VERIFY_ENOMEM;
    verifier_apply(run->vf, ev, v);
    /* a judge's own event, or one after the end of the game, pauses
     * nothing: there is no play to remedy */
    if (v->status == OL_V_ILLEGAL && ev->by != OL_BY_JUDGE && !over)
        return hold_push(&run->hold, ev->seq, raw, len);
    return VERIFY_OK;
}

/* One event the codec accepted. */
static int judge_event(verify_run *run, const olevent *ev, const char *raw, size_t len)
{
    verify_report *rep = run->rep;
    olverdict v;
    int rc;

    memset(&v, 0, sizeof v);
    if (!run->have_header) {
        if (ev->type == OL_MATCH && ev->seq == 0)
            return judge_header(run, ev, raw, len);
        olverdict_set(&v, ev->match, ev->seq, OL_V_ILLEGAL, "openlog:4",
                      "The log does not start with its header.");
        return push_verdict(run, &v, VERIFY_NONE, NULL);
    }
    if (strcmp(ev->match, rep->match)) {
        olverdict_set(&v, ev->match, ev->seq, OL_V_ILLEGAL, "openlog:match",
                      "This event belongs to match %s, but the log's header is of match %s.",
                      ev->match, rep->match);
        return push_verdict(run, &v, VERIFY_NONE, NULL);
    }
    if (ev->seq < run->expect) {
        /* the stored copy: kept here, or (lean) read back by the caller */
        const char *old = NULL;
        size_t old_len = 0, first = VERIFY_NONE;
        if (run->lean) {
            if (!run->has_resent)
                return VERIFY_ENOMEM;   /* the caller had to give them */
            old = run->resent;
            old_len = run->resent_len;
        } else {
            old = run->bytes + run->seen[ev->seq].off;
            old_len = run->seen[ev->seq].len;
            first = run->seen[ev->seq].verdict;
        }
        if (old_len == len && !memcmp(old, raw, len)) {
            olverdict_set(&v, ev->match, ev->seq, OL_V_DUPLICATE, NULL,
                          "Seq %llu was received before with the same bytes; its first verdict stands.",
                          (unsigned long long)ev->seq);
            return push_verdict(run, &v, first, NULL);
        }
        olverdict_set(&v, ev->match, ev->seq, OL_V_CONFLICT, "openlog:seq",
                      "Seq %llu was received before with other bytes; the first event stands.",
                      (unsigned long long)ev->seq);
        return push_verdict(run, &v, VERIFY_NONE, NULL);
    }
    if (ev->seq > run->expect) {
        olverdict_set(&v, ev->match, ev->seq, OL_V_GAP, "openlog:seq",
                      "Seq %llu is ahead of the next expected seq %llu; the events between are missing.",
                      (unsigned long long)ev->seq, (unsigned long long)run->expect);
        v.expect = run->expect;
        v.has_expect = 1;
        return push_verdict(run, &v, VERIFY_NONE, NULL);
    }
    if (run->refused) {
        olverdict_set(&v, ev->match, ev->seq, OL_V_ILLEGAL, "openlog:cards",
                      "The match cannot start: its header names another card database.");
        return store(run, raw, len, &v);
    }
    if ((rc = play(run, ev, raw, len, &v)))
        return rc;
    return store(run, raw, len, &v);
}

/* The log's overall status, once every event has its verdict. */
static void conclude(verify_run *run)
{
    verify_report *rep = run->rep;

    rep->paused = run->hold.n != 0;
    rep->paused_seq = run->hold.n ? run->hold.ev[0].seq : 0;
    if (run->vf) {
        if (run->ended)
            verifier_log_ended(run->vf);
        verifier_unverified(run->vf, rep->unverified);
        rep->n_players = verifier_players(run->vf);
        rep->finished = verifier_finished(run->vf, &rep->winner) ? 1 : 0;
        if (!rep->finished)
            rep->winner = -1;
        rep->draw = rep->finished && verifier_draw(run->vf);
    }
    if (run->stop)
        return;   /* UNREADABLE already, with its sentence */
    if (!run->have_header && rep->n_verdicts == 0) {
        rep->status = VERIFY_UNREADABLE;
        snprintf(rep->error, sizeof rep->error, "The log is empty: it has no header.");
        return;
    }
    if (!run->have_header && rep->verdicts[0].v.status == OL_V_MALFORMED) {
        rep->status = VERIFY_UNREADABLE;
        snprintf(rep->error, sizeof rep->error, "The header is malformed: %s",
                 rep->verdicts[0].v.msg);
        return;
    }
    rep->status = VERIFY_LEGAL;
    for (int s = 0; s < OL_V_COUNT; s++)
        if (rep->counts[s] && !verify_status_is_clean((ol_status)s))
            rep->status = VERIFY_ILLEGAL;
}

static verify_report *report_new(const char *name)
{
    verify_report *rep = calloc(1, sizeof *rep);

    if (!rep)
        return NULL;
    rep->name = strdup(name ? name : "");
    if (!rep->name) {
        free(rep);
        return NULL;
    }
    rep->format = "";
    rep->winner = -1;
    return rep;
}

/* The one loop behind every entry point: read events and judge each until
 * the reader ends, reading must stop (no engine, I/O error), or the event
 * at seq `until` has been stored.  On success the report goes to *out and,
 * when vf_out is not NULL, the engine (possibly NULL) to *vf_out. */
static int run_reader(const carddb_shelf *shelf, verify_decks *decks, olreader *r, const char *name,
                      uint64_t until, verify_report **out, verifier **vf_out)
{
    verify_run run;
    int rc = VERIFY_OK;

    *out = NULL;
    if (vf_out)
        *vf_out = NULL;
    memset(&run, 0, sizeof run);
    run.shelf = shelf;
    run.decks = decks;
    run.db = carddb_shelf_pick(shelf, NULL);   /* until a header names one */
    if (!(run.rep = report_new(name)))
        return VERIFY_ENOMEM;
    run.rep->db = run.db;
    /* Room for a whole game at once (~60-150 events), rather than growing
     * from 16 through three copies. */
    if (reserve(&run.rep->verdicts, &run.cap, 128, sizeof *run.rep->verdicts) ||
        reserve(&run.seen, &run.seen_cap, 128, sizeof *run.seen) ||
        reserve(&run.bytes, &run.bytes_cap, 8192, 1))
        rc = VERIFY_ENOMEM;
    while (rc == VERIFY_OK && !run.stop && !(run.have_header && run.expect > until)) {
        olevent *ev = NULL;
        const char *raw = NULL;
        size_t len = 0;
        olerror err;
        olverdict v;
        int got;

        /* what is read of an error: msg, key, match, seq (not all 600
         * bytes, for every event) */
        err.msg[0] = err.key[0] = '\0';
        err.match = NULL;
        err.has_seq = 0;
        err.seq = 0;
        got = olreader_next(r, &ev, &raw, &len, &err);
        if (got == 0) {
            run.ended = 1;
            break;
        }
        if (got == 1) {
            rc = judge_event(&run, ev, raw, len);
        } else if (got == OL_EMALFORMED) {
            olverdict_malformed(&v, err.match, err.has_seq, err.seq, err.key, err.msg);
            rc = push_verdict(&run, &v, VERIFY_NONE, NULL);
        } else if (got == OL_EIO) {
            run.stop = 1;
            run.rep->status = VERIFY_UNREADABLE;
            snprintf(run.rep->error, sizeof run.rep->error, "%s", err.msg);
        } else {
            rc = VERIFY_ENOMEM;
        }
        olreader_release(r, &ev);   /* its memory serves the next event */
    }
    if (rc == VERIFY_OK) {
        conclude(&run);
        run.rep->next_seq = run.expect;
        *out = run.rep;
        run.rep = NULL;
        if (vf_out) {
            *vf_out = run.vf;
            run.vf = NULL;
        }
    }
    verify_report_destroy(&run.rep);
    verifier_destroy(&run.vf);
    free(run.seen);
    free(run.bytes);
    hold_free(&run.hold);
    return rc;
}

/* Set key to a string, or to null when the string is empty. */
static int set_str_or_null(json_t *o, const char *key, const char *s)
{
    return json_object_set_new(o, key, s && s[0] ? json_string(s) : json_null());
}

json_t *verify_report_verdicts_json(const verify_report *r)
{
    json_t *list = json_array();
    int bad = !list;

    for (size_t i = 0; !bad && i < r->n_verdicts; i++) {
        const verify_entry *e = &r->verdicts[i];
        if (e->v.status == OL_V_OK)
            continue;
        bad = json_array_append_new(list, olverdict_to_json(&e->v, e->stored == VERIFY_NONE
                                                            ? NULL : &r->verdicts[e->stored].v));
    }
    if (bad) {
        json_decref(list);
        return NULL;
    }
    return list;
}

json_t *verify_seats_json(const unsigned *per_seat, unsigned n_players)
{
    json_t *o = json_object();
    for (unsigned p = 0; o && p < (n_players < 2 ? 2 : n_players) && p < OL_PLAYERS_MAX; p++)
        if (json_object_set_new(o, ol_player_name((ol_player)p), json_integer(per_seat[p]))) {
            json_decref(o);
            return NULL;
        }
    return o;
}

json_t *verify_report_json(const verify_report *r)
{
    json_t *o = json_object(), *counts = json_object(), *list = verify_report_verdicts_json(r);
    int bad = !o || !counts || !list;

    bad = bad || json_object_set_new(o, "file", json_string(r->name));
    bad = bad || set_str_or_null(o, "match", r->match);
    bad = bad || set_str_or_null(o, "format", r->format);
    bad = bad || set_str_or_null(o, "engine", r->engine);
    bad = bad || json_object_set_new(o, "status", json_string(verify_status_name(r->status)));
    bad = bad || set_str_or_null(o, "winner", r->finished && r->winner >= 0
                                              ? ol_player_name((ol_player)r->winner) : NULL);
    bad = bad || json_object_set_new(o, "finished", json_boolean(r->finished));
    if (r->draw)   /* only when true: a duel's report is as it always was */
        bad = bad || json_object_set_new(o, "draw", json_true());
    bad = bad || json_object_set_new(o, "events", json_integer((json_int_t)r->n_verdicts));
    for (int s = 0; !bad && s < OL_V_COUNT; s++)
        bad = s >= OL_V_LISTED && !r->counts[s] ? 0 : json_object_set_new(counts, ol_status_name((ol_status)s),
                                  json_integer((json_int_t)r->counts[s]));
    /* set_new steals the reference even on failure: hand each over once. */
    if (!bad) {
        bad = json_object_set_new(o, "counts", counts);
        counts = NULL;
    }
    bad = bad || json_object_set_new(o, "unverified", verify_seats_json(r->unverified, r->n_players));
    if (!bad) {
        bad = json_object_set_new(o, "verdicts", list);
        list = NULL;
    }
    if (!bad && r->n_later) {   /* only with remedies: a report is as it always was */
        json_t *later = json_array();
        bad = !later;
        for (size_t i = 0; !bad && i < r->n_later; i++)
            bad = json_array_append_new(later, olverdict_to_json(&r->later[i], NULL));
        bad = bad || json_object_set_new(o, "later", later);
        if (bad && later && !json_object_get(o, "later"))
            json_decref(later);
    }
    if (!bad && r->paused)
        bad = json_object_set_new(o, "paused", json_integer((json_int_t)r->paused_seq));
    if (!bad && r->status == VERIFY_UNREADABLE)
        bad = json_object_set_new(o, "error", json_string(r->error));
    json_decref(counts);
    json_decref(list);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* ---- sessions: the same judge, one event at a time ------------------- */

int verify_session_new(const cards *db, const char *name, verify_session **out)
{
    verify_session *s = calloc(1, sizeof *s);

    *out = NULL;
    if (!s)
        return VERIFY_ENOMEM;
    s->db = db;
    if (!(s->rep = report_new(name))) {
        free(s);
        return VERIFY_ENOMEM;
    }
    s->rep->db = db;
    *out = s;
    return VERIFY_OK;
}

int verify_session_event(verify_session *s, const olevent *ev, const char *raw, size_t len,
                         const verify_entry **out)
{
    size_t before;
    int rc;

    if (s->lean)
        s->rep->n_verdicts = s->rep->n_later = 0;   /* lean: the verdicts are the caller's to keep */
    before = s->rep->n_verdicts;
    s->later_from = s->rep->n_later;

    *out = NULL;
    if (s->stop) {
        /* no engine for the format: every later event is unverifiable too */
        olverdict v;
        olverdict_set(&v, ev->match, ev->seq, OL_V_MALFORMED, NULL, "%s", s->rep->error);
        rc = push_verdict(s, &v, VERIFY_NONE, NULL);
    } else {
        rc = judge_event(s, ev, raw, len);
    }
    if (rc != VERIFY_OK)
        return rc;
    if (s->rep->n_verdicts != before + 1)
        return VERIFY_ENOMEM;   /* cannot happen: every path pushes one verdict */
    conclude(s);
    s->rep->next_seq = s->expect;
    *out = &s->rep->verdicts[before];
    return VERIFY_OK;
}

int verify_session_event_resent(verify_session *s, const olevent *ev, const char *raw, size_t len,
                                const char *stored, size_t stored_len, const verify_entry **out)
{
    s->resent = stored;
    s->resent_len = stored_len;
    s->has_resent = 1;
    int rc = verify_session_event(s, ev, raw, len, out);
    s->resent = NULL;
    s->resent_len = 0;
    s->has_resent = 0;
    return rc;
}

int verify_session_lean(verify_session *s)
{
    if (s->expect || s->rep->n_verdicts)
        return VERIFY_ENOMEM;   /* only a new session turns lean */
    /* one verdict at a time: room for exactly one */
    if (!s->rep->verdicts && !(s->rep->verdicts = malloc(sizeof *s->rep->verdicts)))
        return VERIFY_ENOMEM;
    s->cap = 1;
    s->lean = 1;
    return VERIFY_OK;
}

int verify_session_is_lean(const verify_session *s)
{
    return s->lean;
}

void verify_session_end(verify_session *s)
{
    if (s->ended)
        return;
    s->ended = 1;
    conclude(s);
}

const verify_report *verify_session_report(const verify_session *s)
{
    return s->rep;
}

const olverdict *verify_session_later(const verify_session *s, size_t *n)
{
    *n = s->rep->n_later - s->later_from;
    return *n ? s->rep->later + s->later_from : NULL;   /* no offset to a NULL array */
}

int verify_session_paused(const verify_session *s, uint64_t *seq)
{
    if (s->hold.n && seq)
        *seq = s->hold.ev[0].seq;
    return s->hold.n != 0;
}

const verifier *verify_session_verifier(const verify_session *s)
{
    return s->vf;
}

uint64_t verify_session_next_seq(const verify_session *s)
{
    return s->expect;
}

void verify_session_destroy(verify_session **s)
{
    if (!s || !*s)
        return;
    verify_report_destroy(&(*s)->rep);
    verifier_destroy(&(*s)->vf);
    free((*s)->seen);
    free((*s)->bytes);
    hold_free(&(*s)->hold);
    free(*s);
    *s = NULL;
}

int verify_reader(const carddb_shelf *shelf, olreader *r, const char *name, verify_report **out)
{
    return run_reader(shelf, NULL, r, name, UINT64_MAX, out, NULL);
}

/* Open `path` and run the loop; an unopenable file is a report, not an error. */
static int run_file(const carddb_shelf *shelf, verify_decks *decks, const char *path, uint64_t until,
                    verify_report **out, verifier **vf_out)
{
    olreader *r = NULL;
    olerror err;
    /* stdin has no extension to tell its encoding: read it as JSON Lines. */
    int enc = strcmp(path, "-") ? -1 : (int)OL_ENC_JSON;
    int rc;

    *out = NULL;
    if (vf_out)
        *vf_out = NULL;
    memset(&err, 0, sizeof err);
    rc = olreader_open(path, enc, &r, &err);
    if (rc == OL_ENOMEM)
        return VERIFY_ENOMEM;
    if (rc != OL_OK) {
        verify_report *rep = report_new(path);
        if (!rep)
            return VERIFY_ENOMEM;
        rep->status = VERIFY_UNREADABLE;
        rep->db = carddb_shelf_pick(shelf, NULL);
        snprintf(rep->error, sizeof rep->error, "%s",
                 err.msg[0] ? err.msg : "The file cannot be read.");
        *out = rep;
        return VERIFY_OK;
    }
    rc = run_reader(shelf, decks, r, path, until, out, vf_out);
    olreader_destroy(&r);
    return rc;
}

int verify_file(const carddb_shelf *shelf, const char *path, verify_report **out)
{
    return run_file(shelf, NULL, path, UINT64_MAX, out, NULL);
}

int verify_file_decks(const carddb_shelf *shelf, verify_decks *decks, const char *path, verify_report **out)
{
    return run_file(shelf, decks, path, UINT64_MAX, out, NULL);
}

int verify_file_until(const carddb_shelf *shelf, const char *path, uint64_t at_seq, verify_report **out,
                      verifier **vf_out)
{
    return run_file(shelf, NULL, path, at_seq, out, vf_out);
}
