/* duelscript.c -- a scripted duel for the Criterion suites (duelscript.h
 * says how to use it). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <sodium/crypto_generichash.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logformat/jtext.h"
#include "logformat/olcodec.h"
#include "src/core/carddb.h"
#include "tests/duelscript.h"
#include "tests/testutil.h"
#include "verifiers/advanced/advanced.h"
#include "verifiers/master/master.h"

cards *db;
duel_state st;
uint64_t seq;

static olevent *decode(const char *text)
{
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s: %s", text, err.msg);
    return ev;
}

/* The `main` list of a deck file, as JSON text (malloc'd); a deck given
 * as that list already ("[...]") is copied. */
static char *deck_main(const char *rel)
{
    json_error_t e;
    if (rel[0] == '[') {
        char *copy = strdup(rel);
        cr_assert_not_null(copy);
        return copy;
    }
    json_t *d = json_load_file(SRC(rel), 0, &e);
    cr_assert_not_null(d, "%s: %s", rel, e.text);
    char *text = json_dumps(json_object_get(d, "main"), JSON_COMPACT);
    json_decref(d);
    return text;
}

char *duel_script_header_text(const char *format, const char *hidden, const char *rules, const char *p1deck,
                              const char *p2deck)
{
    char *text = malloc(16384), *d1 = deck_main(p1deck), *d2 = deck_main(p2deck);
    cr_assert_not_null(text);
    snprintf(text, 16384,
             "{\"match\":\"t\",\"seq\":0,\"type\":\"match\",\"by\":\"table\",\"format\":\"%s\","
             "\"cards\":\"core@1.1.0\",\"hidden\":\"%s\",%s%s%s\"players\":{\"p1\":{\"id\":\"carol\",\"deck\":"
             "{\"main\":%s}},\"p2\":{\"id\":\"dave\",\"deck\":{\"main\":%s}}}}",
             format, hidden, rules ? "\"rules\":{" : "", rules ? rules : "", rules ? "}," : "", d1, d2);
    free(d1);
    free(d2);
    return text;
}

/* The text of the database duel_script_rewrite_card() has rewritten so far. */
static char *rewritten;
static cards *rewritten_db; /* the database loaded from it */

void duel_script_rewrite_card(const char *format, const char *id, const char *from, const char *to)
{
    char err[2048], key[128], props[32];
    if (!rewritten) {
        FILE *f = fopen(SRC("fixtures/cards/core.json"), "rb");
        long n;
        cr_assert_not_null(f);
        cr_assert_eq(fseek(f, 0, SEEK_END), 0);
        n = ftell(f);
        rewind(f);
        rewritten = malloc((size_t)n + 1);
        cr_assert_not_null(rewritten);
        cr_assert_eq(fread(rewritten, 1, (size_t)n, f), (size_t)n);
        rewritten[n] = 0;
        fclose(f);
    }
    snprintf(key, sizeof key, "\"id\": \"%s\"", id);
    snprintf(props, sizeof props, "\"%s\": {", format);
    char *at = strstr(rewritten, key);
    cr_assert_not_null(at, "no card %s", id);
    at = strstr(at, props);
    cr_assert_not_null(at, "%s has no %s properties", id, format);
    at = strstr(at, from);
    cr_assert_not_null(at, "%s: no %s after its %s properties", id, from, format);
    size_t head = (size_t)(at - rewritten), nf = strlen(from), nt = strlen(to), len = strlen(rewritten);
    char *text = malloc(len - nf + nt + 1);
    cr_assert_not_null(text);
    memcpy(text, rewritten, head);
    memcpy(text + head, to, nt);
    memcpy(text + head + nt, at + nf, len - head - nf + 1);
    free(rewritten);
    rewritten = text;
    /* the core database, if loaded, stays for the process; a database
     * rewritten before in this test gives way to the new one */
    if (db && db == rewritten_db)
        cards_destroy(&db);
    db = NULL;
    cr_assert_eq(carddb_load_buffer(rewritten, strlen(rewritten), "core.json (rewritten)", &db, err, sizeof err), 0,
                 "%s", err);
    rewritten_db = db;
}

void duel_script_rewrite_effect(const char *format, const char *id, const char *op, const char *target, const char *to)
{
    char from[160];
    snprintf(from, sizeof from, "\"op\": \"%s\",\n            \"target\": \"%s\"", op, target);
    duel_script_rewrite_card(format, id, from, to);
}

olverdict duel_script_start(const char *format, const char *hidden, const char *rules, const char *p1deck,
                            const char *p2deck)
{
    char err[2048], *text = duel_script_header_text(format, hidden, rules, p1deck, p2deck);
    if (!db)
        cr_assert_eq(carddb_load_file(SRC("fixtures/cards/core.json"), &db, err, sizeof err), 0, "%s", err);
    olevent *h = decode(text);
    olverdict v;
    if (!strcmp(format, "master"))
        master_start(&st, db, NULL, h, &v);
    else
        advanced_start(&st, db, NULL, h, &v);
    olevent_destroy(&h);
    free(text);
    seq = 1;
    return v;
}

void duel_script_open_with(const char *p1cards, const char *p2cards)
{
    char body[2048];
    snprintf(body, sizeof body, "\"type\":\"select\",\"by\":\"p1\",\"cards\":%s", p1cards);
    ok(body);
    snprintf(body, sizeof body, "\"type\":\"select\",\"by\":\"p2\",\"cards\":%s", p2cards);
    ok(body);
}

olverdict play_t(const char *body, uint64_t t)
{
    char text[8192];
    event_text(text, sizeof text, (unsigned long long)seq, (unsigned long long)t, body);
    olevent *ev = decode(text);
    olverdict v;
    duel_apply(&st, ev, &v);
    olevent_destroy(&ev);
    seq++;
    cr_assert_eq(duel_check_invariants(&st), 0, "invariant %d broken after %s", duel_check_invariants(&st), body);
    return v;
}

olverdict play(const char *body)
{
    return play_t(body, 0);
}

void ok(const char *body)
{
    olverdict v = play(body);
    cr_assert(v.status == OL_V_OK || v.status == OL_V_WARNING, "seq %llu %s: %s %s %s", (unsigned long long)v.seq, body,
              ol_status_name(v.status), v.rule, v.msg);
}

void expect(olverdict v, ol_status status, const char *rule)
{
    cr_assert_eq(v.status, status, "want %s %s, got %s %s: %s", ol_status_name(status), rule, ol_status_name(v.status),
                 v.rule, v.msg);
    cr_assert_str_eq(v.rule, rule, "want %s, got %s: %s", rule, v.rule, v.msg);
    cr_assert(strlen(v.msg) > 10, "the verdict must say what was wrong");
}

void illegal(const char *body, const char *rule)
{
    expect(play(body), OL_V_ILLEGAL, rule);
}

void summon(const char *by, int slot, const char *id, const char *position)
{
    char body[512];
    snprintf(body, sizeof body,
             "\"type\":\"summon\",\"by\":\"%s\",\"slot\":%d,\"card\":\"%s\",\"position\":\"%s\",\"kind\":\"normal\"",
             by, slot, id, position);
    ok(body);
}

void end_turn(const char *by)
{
    char body[64];
    snprintf(body, sizeof body, "\"type\":\"end\",\"by\":\"%s\"", by);
    ok(body);
}

void select_one(const char *by, const char *id)
{
    char body[256];
    snprintf(body, sizeof body, "\"type\":\"select\",\"by\":\"%s\",\"cards\":[\"%s\"]", by, id);
    ok(body);
}

void commit_of(const char *id, const char *nonce, char out[80])
{
    uint8_t nb[64], h[32];
    size_t n = strlen(nonce) / 2;
    crypto_generichash_state s;
    for (size_t i = 0; i < n; i++)
        sscanf(nonce + 2 * i, "%2hhx", &nb[i]);
    crypto_generichash_init(&s, NULL, 0, sizeof h);
    crypto_generichash_update(&s, (const unsigned char *)id, strlen(id));
    crypto_generichash_update(&s, (const unsigned char *)"", 1);
    crypto_generichash_update(&s, nb, n);
    crypto_generichash_final(&s, h, sizeof h);
    int k = snprintf(out, 80, "{\"c\":\"");
    for (int i = 0; i < 32; i++)
        k += snprintf(out + k, 80 - (size_t)k, "%02x", h[i]);
    snprintf(out + k, 80 - (size_t)k, "\"}");
}

void select_committed(const char *by, const char *const ids[], int n, const char *nonce)
{
    char body[2048], c[80];
    int k = snprintf(body, sizeof body, "\"type\":\"select\",\"by\":\"%s\",\"cards\":[", by);
    for (int i = 0; i < n; i++) {
        commit_of(ids[i], nonce, c);
        k += snprintf(body + k, sizeof body - (size_t)k, "%s%s", i ? "," : "", c);
    }
    snprintf(body + k, sizeof body - (size_t)k, "]");
    ok(body);
}

char *duel_script_board(int json, int sees_p1, int sees_p2)
{
    jtext t = {0};
    openlog_sight sight = {{(uint8_t)sees_p1, (uint8_t)sees_p2}};
    cr_assert_eq(json ? duel_board_json(&st, &sight, &t) : duel_board_words(&st, &sight, &t), 0);
    cr_assert_not_null(t.buf);
    return t.buf;
}

void board_has(int json, int sees_p1, int sees_p2, const char *want, int has)
{
    char *b = duel_script_board(json, sees_p1, sees_p2);
    cr_assert(!strstr(b, want) == !has, "%s <%s> in:\n%s", has ? "want" : "do not want", want, b);
    free(b);
}

void duel_script_concede_twice(const verifier_ops *ops, const char *rule)
{
    int winner = -2;
    ok("\"type\":\"concede\",\"by\":\"p2\"");
    cr_assert(ops->finished(&st, &winner));
    cr_assert_eq(winner, 0, "p2 conceded first: p1 wins");
    olverdict v = play("\"type\":\"concede\",\"by\":\"p1\"");
    expect(v, OL_V_ILLEGAL, rule);
    cr_assert_str_eq(v.msg, "The game is over; no action may follow its end.");
    winner = -2;
    cr_assert(ops->finished(&st, &winner));
    cr_assert_eq(winner, 0, "the second concession changes nothing");
}

void duel_script_starts_no_game(const char *header, const char *next, const char *rule)
{
    char event[8192];
    const char *const texts[] = {header, event};
    char err[2048];
    if (!db)
        cr_assert_eq(carddb_load_file(SRC("fixtures/cards/core.json"), &db, err, sizeof err), 0, "%s", err);
    event_text(event, sizeof event, 1, 0, next);
    verify_session *s = judge_texts(db, texts, 2);
    cr_assert_not_null(s);
    const verify_report *r = verify_session_report(s);
    const verifier *vf = verify_session_verifier(s);
    cr_assert_eq(r->n_verdicts, 2);
    expect(r->verdicts[0].v, OL_V_ILLEGAL, rule);   /* src/tournament/tourrec.c: TOUR_REC_NO_GAME */
    expect(r->verdicts[1].v, OL_V_ILLEGAL, rule);   /* the match never started */
    cr_assert(!r->finished && r->winner == -1, "no game, so no end and no winner");
    if (!strcmp(rule, "openlog:cards"))
        cr_assert_null(vf, "no engine was started");
    else
        cr_assert(vf && verifier_round(vf) == 0, "no game round");
    verify_session_destroy(&s);
}
