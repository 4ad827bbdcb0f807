/* cmd_replay.c -- `arbiter replay`: the board at one event, for a person.
 *
 *   arbiter replay FILE --at SEQ [--view judge|public|p1..p8] [--cards FILE] [--json]
 *
 * A judge called to a table hears "that spell was not in his hand" and
 * wants to see the game as it stood at event 41: whose turn, which step,
 * what is on the chain, what each player holds -- and which verdicts the
 * log had earned by then.  `verify` answers "was the game legal"; this
 * command answers "what did the table look like", drawn as plain text a
 * judge can read aloud, or as one JSON object for table software.
 *
 * Same verdicts as `verify`, by construction.  The log is replayed by
 * verify_file_until() (src/core/verify.c), the very loop behind verify_file()
 * with a stop after the event at SEQ has been stored, and the engine it
 * leaves behind is drawn by src/core/view.c.  Nothing here judges an event,
 * keeps seq bookkeeping or decides who sees what: this file picks the
 * event, frames the board with the match, the seq and the verdicts so far,
 * and prints.
 *
 * Who sees what (snap.md 7, 16.4) is one rule, view_can_see() in
 * src/core/view.c, shared with `arbiter audit` and the daemon's views.
 *
 * SEQ past the log's end shows the final board with a note; replaying is
 * a view, not a check, so the exit code is 0 whenever a board is shown,
 * whatever the verdicts (`verify` is the command whose exit code judges).
 * 2: bad usage, an unreadable log, a format with no engine; 1: the match
 * never started (its header names another card database); 3: internal.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "logformat/olcodec.h"
#include "logformat/olstream.h"
#include "src/cli/cli.h"
#include "src/core/carddb.h"
#include "src/core/verify.h"
#include "src/core/view.h"
#include "verifiers/verifier.h"

static const char usage_text[] =
    "usage: arbiter replay FILE --at SEQ [--view judge|public|p1..p8] [--cards FILE] [--json]\n"
    "\n"
    "Replay an open log (.jsonl or .mlog; '-' reads JSON Lines from stdin) up to\n"
    "and including the event at SEQ, judged exactly as `arbiter verify` judges it,\n"
    "and show the board at that moment and every verdict so far that is not ok.\n"
    "\n"
    "  --at SEQ      the event to stop after (required); past the log's end, the\n"
    "                final board is shown with a note\n"
    "  --view V      who is looking (default public):\n"
    "                  public  no hidden card is named, only counts\n"
    "                  p1..p8  that player's own hidden cards, none of the others'\n"
    "                          (a seat the match has)\n"
    "                  judge   every hidden card the engine knows (snap.md 16.4)\n"
    "  --cards FILE  judge with this card database, which the header must name;\n"
    "                without it, with the one the header names of core.json,\n"
    "                standard.json and core-1.0.0.json (fixtures/cards/ here,\n"
    "                else the installed copies); $ARBITER_CARDS names one file\n"
    "                to use instead of those three\n"
    "  --json        one JSON object, keys in this order:\n"
    "                {\"match\",\"seq\",\"view\",\"round\",\"turn\",\"step\",\"window\",\n"
    "                 \"chain\",\"attack\",\"trigger\",\"players\",\"over\",\"winner\",\n"
    "                 \"verdicts\",\"note\"} for Snap; Advanced, Master and\n"
    "                classic Snap draw their own board (arbiter-replay(1));\n"
    "                then \"later\" and \"paused\" at a table that pauses\n"
    "                for a judge's remedy (SPEC.md 8.1)\n"
    "\n"
    "exit: 0 board shown (whatever the verdicts), 1 the match never started,\n"
    "2 bad usage or a log that cannot be read or has no engine, 3 internal error.\n";

typedef struct {
    const char *path;
    const char *cards;
    uint64_t at;
    int has_at;
    view_kind view;
    int json;
    int help;
} replay_opts;

/* Everything the drawing needs, gathered once. */
typedef struct {
    const verifier *vf;
    const verify_report *rep;
    view_kind view;
    uint64_t seq;             /* the event the board stands at              */
    char note[160];           /* "" unless SEQ is past the end              */
    char **said;              /* per verdict: its sentence as the view may
                                 read it, NULL where it is the engine's     */
} replay_ctx;

/* ---- sentences in the view ---------------------------------------------------- */

/* The sentences of the verdicts not ok as view v may read them
 * (view_verdict_redact: a card the event hides from v is "a hidden card"),
 * from the log read a second time for its events.  *out: one per verdict
 * of rep, NULL where the sentence stands (all of them for the judge's view,
 * or stdin, which cannot be read again).  0, or -1 out of memory. */
static int view_sentences(const char *path, const verify_report *rep, view_kind v, const cards *db, char ***out)
{
    olreader *r = NULL;
    olevent *ev = NULL, *hdr = NULL;
    olerror err;
    int rc = 0;

    *out = calloc(rep->n_verdicts + 1, sizeof **out);
    if (!*out)
        return -1;
    if (v == VIEW_JUDGE || !strcmp(path, "-") || olreader_open(path, -1, &r, &err) != OL_OK)
        return 0;
    for (size_t i = 0; i < rep->n_verdicts && !rc; i++) {
        const char *raw = NULL;
        size_t raw_len = 0;
        int got = olreader_next(r, &ev, &raw, &raw_len, &err);
        if (got == 0 || got == OL_ENOMEM) {
            rc = got ? -1 : 0;
            break;
        }
        const olverdict *vd = &rep->verdicts[i].v;
        json_t *j = NULL;
        /* a guard: the i-th event read is the i-th verdict's (one each) */
        if (got == 1 && vd->status != OL_V_OK && vd->msg[0] && vd->has_seq && vd->seq == ev->seq) {
            j = json_pack("{s:s}", "msg", vd->msg);
            int changed = j ? view_verdict_redact(j, ev, v, hdr, db) : -1;
            if (changed < 0 || (changed && !((*out)[i] = strdup(json_string_value(json_object_get(j, "msg"))))))
                rc = -1;
            json_decref(j);
        }
        /* the header, kept for the Bench's views: a copy of its own, since
         * a reader's event lives only until the next is read */
        if (got == 1 && !hdr && ev->type == OL_MATCH &&
            olcodec_decode_message((const uint8_t *)raw, raw_len, &hdr, NULL) != OL_OK)
            olevent_destroy(&hdr);
        if (got == 1)
            olreader_release(r, &ev);
    }
    olevent_destroy(&hdr);
    olreader_destroy(&r);
    return rc;
}

static void said_free(char **said, size_t n)
{
    for (size_t i = 0; said && i < n; i++)
        free(said[i]);
    free(said);
}

/* ---- text ------------------------------------------------------------------- */

static void print_verdicts(const replay_ctx *c)
{
    const verify_report *r = c->rep;
    size_t bad = 0;

    printf("\nverdicts so far\n");
    for (size_t i = 0; i < r->n_verdicts; i++) {
        const olverdict *v = &r->verdicts[i].v;
        if (v->status == OL_V_OK)
            continue;
        bad++;
        if (v->has_seq)
            printf("  seq %llu", (unsigned long long)v->seq);
        else
            printf("  seq -");
        printf("  %s  %s  %s\n", ol_status_name(v->status), v->rule[0] ? v->rule : "-",
               c->said && c->said[i] ? c->said[i] : v->msg);
    }
    printf("  %zu event%s read, %zu verdict%s not ok\n", r->n_verdicts, r->n_verdicts == 1 ? "" : "s",
           bad, bad == 1 ? "" : "s");
    /* SPEC.md 8.1: the held events a judge's remedy judged again or made
     * void; a sentence is the judge view's only (it may name a card the
     * event hid) but a void one's, which names none */
    for (size_t i = 0; i < r->n_later; i++) {
        const olverdict *v = &r->later[i];
        printf("  seq %llu  later, after the judge's remedy at seq %llu: %s  %s  %s\n", (unsigned long long)v->seq,
               (unsigned long long)v->remedy, ol_status_name(v->status), v->rule[0] ? v->rule : "-",
               c->view == VIEW_JUDGE || v->status == OL_V_VOID ? v->msg : "");
    }
    if (r->paused)
        printf("  paused at the illegal action at seq %llu: the events after it are held until a judge gives a "
               "remedy\n", (unsigned long long)r->paused_seq);
}

static void print_text(const replay_ctx *c)
{
    printf("match %s  %s, %s hidden cards  at seq %llu  view: %s\n", c->rep->match, c->rep->format,
           ol_hidden_name(verifier_hidden(c->vf)), (unsigned long long)c->seq, view_name(c->view));
    if (c->note[0])
        printf("note: %s\n", c->note);
    view_board_print(stdout, c->vf, c->view);
    print_verdicts(c);
}

/* ---- JSON ------------------------------------------------------------------- */

/* The --json object; keys in the order arbiter-replay(1) documents: the board of
 * view_board_json() between "view" and "verdicts". */
static json_t *replay_json(const replay_ctx *c)
{
    json_t *o = json_object(), *board = view_board_json(c->vf, c->view);
    int bad = !o || !board;

    bad = bad || json_object_set_new(o, "match", json_string(c->rep->match));
    bad = bad || json_object_set_new(o, "seq", json_integer((json_int_t)c->seq));
    bad = bad || json_object_set_new(o, "view", json_string(view_name(c->view)));
    bad = bad || json_object_update(o, board);
    json_t *verdicts = verify_report_verdicts_json(c->rep);
    for (size_t i = 0, k = 0; verdicts && c->said && i < c->rep->n_verdicts; i++)
        if (c->rep->verdicts[i].v.status != OL_V_OK && k++ < json_array_size(verdicts) && c->said[i])
            bad = bad || json_object_set_new(json_array_get(verdicts, k - 1), "msg", json_string(c->said[i]));
    bad = bad || json_object_set_new(o, "verdicts", verdicts);
    bad = bad || json_object_set_new(o, "note", c->note[0] ? json_string(c->note) : json_null());
    /* SPEC.md 8.1, only at a table that pauses for remedies: the later
     * verdicts so far (their sentences the judge view's, or a void's) and
     * the illegal action the match stands paused at */
    if (!bad && c->rep->n_later) {
        json_t *later = json_array();
        bad = !later || json_object_set_new(o, "later", later);
        for (size_t i = 0; !bad && i < c->rep->n_later; i++) {
            olverdict v = c->rep->later[i];
            if (c->view != VIEW_JUDGE && v.status != OL_V_VOID)
                v.msg[0] = '\0';
            bad = json_array_append_new(later, olverdict_to_json(&v, NULL));
        }
    }
    if (!bad && c->rep->paused)
        bad = json_object_set_new(o, "paused", json_integer((json_int_t)c->rep->paused_seq));
    json_decref(board);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* ---- options -------------------------------------------------------------------------- */

static int parse_at(const char *s, uint64_t *at)
{
    char *end = NULL;
    unsigned long long v;

    errno = 0;
    v = strtoull(s, &end, 10);
    if (*s < '0' || *s > '9' || *end || errno) {
        cli_error("--at needs an event's seq, a number from 0, not '%s'", s);
        return -1;
    }
    *at = (uint64_t)v;
    return 0;
}

static int parse_view(const char *s, view_kind *view)
{
    if (view_parse(s, view) == 0)
        return 0;
    cli_error("unknown view '%s' (judge, public, or a player's, p1 to p8)", s);
    return -1;
}

/* Options anywhere; one operand, the log; "--" ends the options. */
static int parse_opts(int argc, char **argv, replay_opts *o)
{
    int rest = 0;

    memset(o, 0, sizeof *o);
    o->view = VIEW_PUBLIC;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = NULL;
        if (rest || a[0] != '-' || !strcmp(a, "-")) {
            if (o->path) {
                cli_error("replay takes one log file, not '%s' too", a);
                return -1;
            }
            o->path = a;
            continue;
        }
        if (!strcmp(a, "--")) {
            rest = 1;
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            o->help = 1;
            continue;
        }
        if (!strcmp(a, "--json")) {
            o->json = 1;
            continue;
        }
        if (!strncmp(a, "--at=", 5) || !strncmp(a, "--view=", 7) || !strncmp(a, "--cards=", 8)) {
            val = strchr(a, '=') + 1;
        } else if (!strcmp(a, "--at") || !strcmp(a, "--view") || !strcmp(a, "--cards")) {
            if (i + 1 >= argc) {
                cli_error("%s needs a value", a);
                return -1;
            }
            val = argv[++i];
        } else {
            cli_error("unknown option '%s' (try arbiter replay --help)", a);
            return -1;
        }
        if (!strncmp(a, "--at", 4)) {
            if (parse_at(val, &o->at) < 0)
                return -1;
            o->has_at = 1;
        } else if (!strncmp(a, "--view", 6)) {
            if (parse_view(val, &o->view) < 0)
                return -1;
        } else {
            o->cards = val;
        }
    }
    return 0;
}

/* ---- the command ---------------------------------------------------------------------- */

/* The board for a replayed log, or why there is none (an exit code). */
static int show(const replay_opts *o, const verify_report *rep, const verifier *vf, const cards *db)
{
    replay_ctx c;
    int rc;

    if (rep->status == VERIFY_UNREADABLE) {
        cli_error("%s: %s", o->path, rep->error);
        return CLI_BADINPUT;
    }
    if (!vf) {
        /* A header was read (not unreadable) but no engine was made: the
         * match never started; its first verdict says why. */
        const olverdict *v = rep->n_verdicts ? &rep->verdicts[0].v : NULL;
        cli_error("%s: the match never started: %s", o->path, v && v->msg[0] ? v->msg : "no header");
        return CLI_ILLEGAL;
    }
    char why[128];
    if (!view_in_match(o->view, verifier_players(vf), why, sizeof why)) {
        cli_error("%s: %s", o->path, why);
        return CLI_BADINPUT;
    }
    memset(&c, 0, sizeof c);
    c.vf = vf;
    c.rep = rep;
    c.view = o->view;
    c.seq = o->at;
    if (rep->next_seq <= o->at) {
        c.seq = rep->next_seq ? rep->next_seq - 1 : 0;
        snprintf(c.note, sizeof c.note, "the log ends at seq %llu, before seq %llu; this is its final board",
                 (unsigned long long)c.seq, (unsigned long long)o->at);
    }
    if (view_sentences(o->path, rep, o->view, db, &c.said)) {
        said_free(c.said, rep->n_verdicts);
        cli_error("%s: out of memory while drawing the verdicts", o->path);
        return CLI_INTERNAL;
    }
    if (o->json) {
        rc = cli_print_json(replay_json(&c));
    } else {
        print_text(&c);
        rc = CLI_OK;
    }
    said_free(c.said, rep->n_verdicts);
    return rc;
}

int cmd_replay(int argc, char **argv)
{
    replay_opts o;
    carddb_shelf *shelf = NULL;
    verify_report *rep = NULL;
    verifier *vf = NULL;
    int rc;

    if (parse_opts(argc, argv, &o) < 0)
        return CLI_BADINPUT;
    if (o.help) {
        fputs(usage_text, stdout);
        return CLI_OK;
    }
    if (!o.path || !o.has_at) {
        cli_error("replay needs %s", !o.path ? "a log file" : "--at SEQ");
        fputs(usage_text, stderr);
        return CLI_BADINPUT;
    }
    if (cli_load_shelf(o.cards, &shelf) != CLI_OK)
        return CLI_BADINPUT;
    if (verify_file_until(shelf, o.path, o.at, &rep, &vf) != VERIFY_OK) {
        cli_error("%s: out of memory while replaying", o.path);
        rc = CLI_INTERNAL;
        goto done;
    }
    rc = show(&o, rep, vf, rep->db);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("cannot write the board");
        rc = CLI_INTERNAL;
    }
done:
    verifier_destroy(&vf);
    verify_report_destroy(&rep);
    carddb_shelf_destroy(&shelf);
    return rc;
}
