/* test_remedy.c -- a judge's remedy for an illegal action (SPEC.md 8.1,
 * openlog:remedy): the pause, the held events, "stands", "backup", a game
 * loss, a ruling that is no remedy, the limit of what a pause holds, and a
 * lean session (the daemon's) judging alike.  The games are
 * fixtures/remedy/ (generate.py there); tests/e2e_remedy.py checks the
 * same logs from outside, batch and live. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "logformat/olcodec.h"
#include "src/core/carddb.h"
#include "src/core/verify.h"
#include "tests/testutil.h"

static cards *db;

static void need_db(void)
{
    char err[1024];
    if (!db)
        cr_assert_eq(carddb_load_file(SRC("fixtures/cards/core.json"), &db, err, sizeof err), 0, "%s", err);
}

/* A log's lines, each a NUL-terminated string (at most 1024 of them). */
typedef struct {
    char *line[1024];
    size_t n;
} lines;

static void read_lines(const char *rel, lines *l)
{
    FILE *f = fopen(SRC(rel), "r");
    char *buf = NULL;
    size_t cap = 0;
    ssize_t got;
    cr_assert_not_null(f, "%s", rel);
    memset(l, 0, sizeof *l);
    while ((got = getline(&buf, &cap, f)) > 0 && l->n < 1024) {
        while (got && (buf[got - 1] == '\n'))
            buf[--got] = '\0';
        if (got)
            l->line[l->n++] = strdup(buf);
    }
    free(buf);
    fclose(f);
}

static void free_lines(lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->line[i]);
}

/* Judge one line through the session; its verdict. */
static olverdict judge(verify_session *s, const char *text)
{
    olevent *ev = NULL;
    olerror err;
    const verify_entry *e = NULL;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s: %s", text, err.msg);
    cr_assert_eq(verify_session_event(s, ev, text, strlen(text), &e), VERIFY_OK);
    olverdict v = e->v;
    olevent_destroy(&ev);
    return v;
}

static verify_session *session(int lean)
{
    verify_session *s = NULL;
    need_db();
    cr_assert_eq(verify_session_new(db, "t", &s), VERIFY_OK);
    if (lean)
        cr_assert_eq(verify_session_lean(s), VERIFY_OK);
    return s;
}

/* A fixture's lines and a session to judge them with; and both gone. */
static verify_session *open_log(const char *rel, lines *l, int lean)
{
    read_lines(rel, l);
    return session(lean);
}

static void close_log(verify_session **s, lines *l)
{
    verify_session_destroy(s);
    free_lines(l);
}

/* The later verdicts the last event gave, as "SEQ STATUS" words. */
static void later_words(const verify_session *s, char *out, size_t cap)
{
    size_t n = 0, k = 0;
    const olverdict *l = verify_session_later(s, &n);
    out[0] = '\0';
    for (size_t i = 0; i < n && k < cap; i++)
        k += (size_t)snprintf(out + k, cap - k, "%s%llu %s/%llu", i ? " " : "", (unsigned long long)l[i].seq,
                              ol_status_name(l[i].status), (unsigned long long)l[i].remedy);
}

/* EVIDENCE-OF openlog:remedy: "the match pauses at the illegal event:
 * every later event but a judge's is stored and answered held until a
 * judge event gives the remedy" -- and "stands" judges them on the board
 * with the action applied: the cascade that reject mode finds illegal is
 * ok, in every format, in a full session and a lean one alike. */
static void stands_cascade(const char *rel, uint64_t illegal_seq, int lean)
{
    lines l;
    verify_session *s = open_log(rel, &l, lean);
    uint64_t at = 0;
    for (size_t i = 0; i + 1 < l.n; i++) {
        olverdict v = judge(s, l.line[i]);
        if (i < illegal_seq)
            cr_expect(v.status == OL_V_OK, "%s #%zu: %s %s", rel, i, ol_status_name(v.status), v.msg);
        else if (i == illegal_seq)
            cr_expect(v.status == OL_V_ILLEGAL, "%s #%zu: %s", rel, i, ol_status_name(v.status));
        else
            cr_expect(v.status == OL_V_HELD && !strcmp(v.rule, "openlog:remedy"), "%s #%zu: %s %s", rel, i,
                      ol_status_name(v.status), v.rule);
        if (i >= illegal_seq)
            cr_expect(verify_session_paused(s, &at) && at == illegal_seq, "%s #%zu: not paused at %llu", rel, i,
                      (unsigned long long)illegal_seq);
    }
    olverdict r = judge(s, l.line[l.n - 1]);   /* the remedy */
    cr_expect(r.status == OL_V_OK && !strcmp(r.rule, "openlog:remedy"), "%s: the remedy: %s %s %s", rel,
              ol_status_name(r.status), r.rule, r.msg);
    size_t n = 0;
    const olverdict *later = verify_session_later(s, &n);
    cr_expect_eq(n, l.n - 2 - illegal_seq, "%s: %zu later verdicts", rel, n);
    for (size_t i = 0; i < n; i++)
        cr_expect(later[i].status == OL_V_OK && later[i].has_remedy && later[i].remedy == l.n - 1 &&
                      later[i].seq == illegal_seq + 1 + i,
                  "%s: later #%llu %s %s", rel, (unsigned long long)later[i].seq, ol_status_name(later[i].status),
                  later[i].msg);
    cr_expect(!verify_session_paused(s, NULL), "%s: still paused after the remedy", rel);
    close_log(&s, &l);
}

Test(remedy, openlog_remedy_stands_snap) { stands_cascade("fixtures/remedy/snap-prime-stands.jsonl", 17, 0); }
Test(remedy, openlog_remedy_stands_advanced) { stands_cascade("fixtures/remedy/advanced-summon-stands.jsonl", 4, 0); }
Test(remedy, openlog_remedy_stands_master) { stands_cascade("fixtures/remedy/master-summon-stands.jsonl", 6, 0); }
Test(remedy, openlog_remedy_stands_lean) { stands_cascade("fixtures/remedy/master-summon-stands.jsonl", 6, 1); }

/* The same play without the lever is today's: the illegal action changes
 * nothing and the cascade after it is illegal (the reason for remedies). */
Test(remedy, openlog_remedy_reject_is_the_default)
{
    lines l;
    verify_session *s = open_log("fixtures/remedy/advanced-summon-reject.jsonl", &l, 0);
    size_t held = 0, illegal = 0;
    for (size_t i = 0; i < l.n; i++) {
        olverdict v = judge(s, l.line[i]);
        held += v.status == OL_V_HELD;
        illegal += v.status == OL_V_ILLEGAL;
    }
    cr_expect_eq(held, 0);
    cr_expect_eq(illegal, 2, "the second summon and the attack by a monster not there: %zu", illegal);
    cr_expect(!verify_session_paused(s, NULL));
    close_log(&s, &l);
}

/* "backup": the held events are void, the board is the one before the
 * illegal action (its state hash too), and the replayed game is ok. */
Test(remedy, openlog_remedy_backup)
{
    lines l;
    verify_session *s = open_log("fixtures/remedy/advanced-summon-backup.jsonl", &l, 0);
    uint8_t before[VERIFIER_HASH_BYTES], after[VERIFIER_HASH_BYTES];
    char words[2048];
    for (size_t i = 0; i < 4; i++)
        judge(s, l.line[i]);
    cr_assert_eq(verifier_state_hash(verify_session_verifier(s), before), VERIFIER_OK);
    for (size_t i = 4; i <= 15; i++)
        judge(s, l.line[i]);   /* the illegal summon, 10 held, the remedy at 15 */
    cr_assert_eq(verifier_state_hash(verify_session_verifier(s), after), VERIFIER_OK);
    later_words(s, words, sizeof words);
    cr_expect_str_eq(words, "5 void/15 6 void/15 7 void/15 8 void/15 9 void/15 10 void/15 11 void/15 12 void/15 "
                            "13 void/15 14 void/15");
    /* the board is the one before the illegal action: the warning the
     * judge gives with the remedy changes nothing of it */
    cr_expect(!memcmp(before, after, sizeof before), "the board after the backup is not the one before #4");
    cr_expect(!verify_session_paused(s, NULL));
    for (size_t i = 16; i < l.n; i++) {
        olverdict v = judge(s, l.line[i]);
        cr_expect(v.status == OL_V_OK, "#%zu: %s %s", i, ol_status_name(v.status), v.msg);
    }
    cr_expect(verify_session_report(s)->finished);
    close_log(&s, &l);
}

/* A remedy "stands" the engine cannot carry out (a Counter summoned as a
 * monster) is refused citing openlog:remedy, and the pause goes on. */
Test(remedy, openlog_remedy_cannot_stand)
{
    lines l;
    verify_session *s = open_log("fixtures/remedy/advanced-cannot-stand.jsonl", &l, 0);
    olverdict v;
    for (size_t i = 0; i < 8; i++)
        judge(s, l.line[i]);
    v = judge(s, l.line[8]);
    cr_expect(v.status == OL_V_ILLEGAL && !strcmp(v.rule, "openlog:remedy") && strstr(v.msg, "cannot stand"),
              "%s %s %s", ol_status_name(v.status), v.rule, v.msg);
    uint64_t at = 0;
    cr_expect(verify_session_paused(s, &at) && at == 4);
    v = judge(s, l.line[9]);   /* backup */
    cr_expect(v.status == OL_V_OK && !verify_session_paused(s, NULL), "%s %s", ol_status_name(v.status), v.msg);
    close_log(&s, &l);
}

/* The first lines of a paused Advanced match, and an event at `seq`. */
static verify_session *paused_at_4(lines *l)
{
    verify_session *s = open_log("fixtures/remedy/advanced-summon-stands.jsonl", l, 0);
    for (size_t i = 0; i < 5; i++)
        judge(s, l->line[i]);
    cr_assert(verify_session_paused(s, NULL));
    return s;
}

static void event_at(char *buf, size_t n, unsigned long long seq, const char *body)
{
    snprintf(buf, n, "{\"match\":\"remedy-advanced-summon-stands\",\"seq\":%llu,%s}", seq, body);
}

/* A note or a warning without a remedy is recorded, and the pause goes on;
 * a remedy announced by a player is no ruling (openlog:3), and the pause
 * goes on. */
Test(remedy, openlog_remedy_only_a_remedy_ends_the_pause)
{
    lines l;
    char buf[512];
    verify_session *s = paused_at_4(&l);
    event_at(buf, sizeof buf, 5, "\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"note\",\"text\":\"Looking.\"");
    olverdict v = judge(s, buf);
    cr_expect(v.status == OL_V_OK && verify_session_paused(s, NULL), "%s", ol_status_name(v.status));
    event_at(buf, sizeof buf, 6, "\"type\":\"judge\",\"by\":\"p1\",\"ruling\":\"note\",\"remedy\":\"stands\",\"text\":\"x\"");
    v = judge(s, buf);
    cr_expect(v.status == OL_V_ILLEGAL && !strcmp(v.rule, "openlog:3") && verify_session_paused(s, NULL), "%s %s",
              ol_status_name(v.status), v.rule);
    close_log(&s, &l);
}

/* A game loss while paused backs up, then ends the game: the held events
 * are void and the other player wins. */
Test(remedy, openlog_remedy_game_loss_backs_up)
{
    lines l;
    char buf[512];
    verify_session *s = paused_at_4(&l);
    judge(s, l.line[5]);   /* held */
    event_at(buf, sizeof buf, 6, "\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"game_loss\",\"player\":\"p1\","
                                 "\"text\":\"Repeated illegal summons.\"");
    olverdict v = judge(s, buf);
    char words[256];
    later_words(s, words, sizeof words);
    cr_expect(v.status == OL_V_OK, "%s %s", ol_status_name(v.status), v.msg);
    cr_expect_str_eq(words, "5 void/6");
    int winner = -1;
    cr_expect(verifier_finished(verify_session_verifier(s), &winner) && winner == 1, "winner %d", winner);
    cr_expect(!verify_session_paused(s, NULL));
    close_log(&s, &l);
}

/* EVIDENCE-OF openlog:remedy (the limit): a paused match holds at most
 * VERIFY_HELD_MAX events; the next is refused, illegal citing
 * openlog:remedy, stored and not held, with a sentence naming the limit. */
Test(remedy, openlog_remedy_held_limit)
{
    lines l;
    char buf[512];
    verify_session *s = paused_at_4(&l);
    for (unsigned long long seq = 5; seq < 5 + VERIFY_HELD_MAX; seq++) {
        event_at(buf, sizeof buf, seq, "\"type\":\"end\",\"by\":\"p1\"");
        olverdict v = judge(s, buf);
        cr_assert(v.status == OL_V_HELD, "#%llu: %s", seq, ol_status_name(v.status));
    }
    event_at(buf, sizeof buf, 5 + VERIFY_HELD_MAX, "\"type\":\"end\",\"by\":\"p1\"");
    olverdict v = judge(s, buf);
    cr_expect(v.status == OL_V_ILLEGAL && !strcmp(v.rule, "openlog:remedy") && strstr(v.msg, "256 events"), "%s %s",
              ol_status_name(v.status), v.msg);
    cr_expect_eq(verify_session_next_seq(s), 6 + VERIFY_HELD_MAX, "the refused event takes its seq");
    /* a backup voids exactly the held ones */
    event_at(buf, sizeof buf, 6 + VERIFY_HELD_MAX,
             "\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"note\",\"remedy\":\"backup\",\"text\":\"Back up.\"");
    judge(s, buf);
    size_t n = 0;
    verify_session_later(s, &n);
    cr_expect_eq(n, VERIFY_HELD_MAX);
    close_log(&s, &l);
}
