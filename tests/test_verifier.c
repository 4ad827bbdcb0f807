/* test_verifier.c -- the engine seam (verifiers/verifier.h) and what the
 * open log owns (verifiers/openlog.h), tested through the interface every
 * caller uses, for every format at once. */
#include <criterion/criterion.h>
#include <glob.h>
#include <sodium/crypto_generichash.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logformat/olcodec.h"
#include "src/core/carddb.h"
#include "tests/testutil.h"
#include "verifiers/chain.h"
#include "verifiers/openlog.h"
#include "verifiers/verifier.h"

static cards *db;

/* core.json, the database of every fixture, loaded once. */
static void need_db(void)
{
    char err[1024];
    if (!db)
        cr_assert_eq(carddb_load_file(SRC("fixtures/cards/core.json"), &db, err, sizeof err), 0, "%s", err);
}

static olevent *decode(const char *text)
{
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s: %s", text, err.msg);
    return ev;
}

/* A match being played: the verifier, the match id and the next seq, for
 * events written in a test (game_play), and the last verdict. */
typedef struct {
    verifier *vf;
    char match[OL_MATCH_MAX + 1];
    uint64_t seq;
    olverdict last;
} game;

/* The match of a fixture log, judged with the database `with`: its header,
 * with `members` (JSON object members, such as a rules map) added before
 * its players when not NULL, and its next n events. */
static game game_from(const cards *with, const char *rel, int n, const char *members)
{
    char *line = NULL;
    size_t cap = 0;
    FILE *f = fopen(SRC(rel), "r");
    game g;
    memset(&g, 0, sizeof g);
    cr_assert_not_null(f, "%s", rel);
    for (int i = 0; i <= n && getline(&line, &cap, f) > 0; i++) {
        char *text = line, *at = i == 0 && members ? strstr(line, "\"players\"") : NULL;
        if (at) {
            size_t len = strlen(line) + strlen(members) + 2;
            text = malloc(len);
            cr_assert_not_null(text);
            snprintf(text, len, "%.*s%s,%s", (int)(at - line), line, members, at);
        }
        olevent *ev = decode(text);
        if (i == 0) {
            cr_assert_eq(verifier_new(with, ev, &g.vf, &g.last), VERIFIER_OK);
            snprintf(g.match, sizeof g.match, "%s", ev->match);
        } else {
            verifier_apply(g.vf, ev, &g.last);
        }
        g.seq = ev->seq + 1;
        olevent_destroy(&ev);
        if (text != line)
            free(text);
    }
    free(line);
    fclose(f);
    return g;
}

/* The next event of the game: `body` is its members after match and seq. */
static olverdict game_play(game *g, const char *body)
{
    char text[4096];
    snprintf(text, sizeof text, "{\"match\":\"%s\",\"seq\":%llu,%s}", g->match, (unsigned long long)g->seq++, body);
    olevent *ev = decode(text);
    verifier_apply(g->vf, ev, &g->last);
    olevent_destroy(&ev);
    return g->last;
}

/* game_play for an event that must be legal. */
static void game_ok(game *g, const char *body)
{
    olverdict v = game_play(g, body);
    cr_assert_eq(v.status, OL_V_OK, "%s: %s %s: %s", body, ol_status_name(v.status), v.rule, v.msg);
}

/* A verifier for the first line of a fixture log, fed its next n lines. */
static verifier *replay(const char *rel, int n, olverdict *last)
{
    need_db();
    game g = game_from(db, rel, n, NULL);
    *last = g.last;
    return g.vf;
}

/* core.json with the first `old` after card `id`'s key replaced by `new_`:
 * a card no core card is, for a moment no game of the core cards reaches
 * (the header still names core@1.1.0: which database a match is judged
 * with is the caller's check, verifier.h). */
static cards *core_with(const char *id, const char *old, const char *new_)
{
    char err[2048], key[128], *text = NULL;
    size_t cap = 0;
    FILE *f = fopen(SRC("fixtures/cards/core.json"), "r");
    cr_assert_not_null(f);
    ssize_t n = getdelim(&text, &cap, '\0', f);   /* the whole file: it holds no NUL */
    fclose(f);
    cr_assert_gt(n, 0);
    snprintf(key, sizeof key, "\"id\": \"%s\"", id);
    char *card_at = strstr(text, key), *o = card_at ? strstr(card_at, old) : NULL;
    cr_assert_not_null(o, "%s: %s", id, old);
    size_t head = (size_t)(o - text), lo = strlen(old), ln = strlen(new_);
    char *edited = malloc((size_t)n - lo + ln + 1);
    cr_assert_not_null(edited);
    memcpy(edited, text, head);
    memcpy(edited + head, new_, ln);
    memcpy(edited + head + ln, o + lo, (size_t)n - head - lo + 1);
    free(text);
    cards *out = NULL;
    cr_assert_eq(carddb_load_buffer(edited, strlen(edited), id, &out, err, sizeof err), 0, "%s", err);
    free(edited);
    return out;
}

/* v is `status` citing `rule`, with the sentence `msg`. */
static void verdict_is(const olverdict *v, ol_status status, const char *rule, const char *msg)
{
    cr_assert_eq(v->status, status, "want %s, got %s %s: %s", ol_status_name(status), ol_status_name(v->status),
                 v->rule, v->msg);
    cr_assert_str_eq(v->rule, rule);
    cr_assert_str_eq(v->msg, msg);
}

Test(verifier, each_format_has_its_engine_or_none)
{
    /* the registry: each engine is found by its own format, once */
    const verifier_ops *ops;
    for (size_t i = 0; (ops = verifier_engine_at(i)); i++) {
        cr_assert_eq(verifier_ops_of(ops->format), ops, "%s", ops->engine);
        cr_assert_not_null(ol_format_name(ops->format), "%s", ops->engine);
        cr_assert(ops->title && ops->title[0], "%s has no title", ops->engine);
        for (size_t k = 0; k < i; k++)
            cr_assert_neq(verifier_engine_at(k)->format, ops->format, "two engines for one format");
    }
    cr_assert_null(verifier_ops_of((ol_format)99));
    cr_assert_str_eq(verifier_ops_of(OL_FORMAT_SNAP)->engine, "snap/2");
    cr_assert_str_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->engine, "advanced/1");
    cr_assert_str_eq(verifier_ops_of(OL_FORMAT_MASTER)->engine, "master/1");
}

Test(verifier, a_format_without_an_engine_is_refused_with_a_sentence)
{
    need_db();
    olevent *h = decode("{\"match\":\"m\",\"seq\":0,\"type\":\"match\",\"by\":\"table\",\"format\":\"master\","
                        "\"cards\":\"core@1.1.0\",\"hidden\":\"open\",\"players\":{\"p1\":{\"id\":\"a\",\"deck\":"
                        "{\"main\":[]}},\"p2\":{\"id\":\"b\",\"deck\":{\"main\":[]}}}}");
    verifier *vf = NULL;
    olverdict v;
    /* every format the codec reads has an engine: a format past them is
     * what a later contract might add */
    h->header.format = (ol_format)99;
    cr_assert_eq(verifier_new(db, h, &vf, &v), VERIFIER_ENOENGINE);
    cr_assert_null(vf);
    cr_assert_eq(v.status, OL_V_MALFORMED);
    cr_assert(strstr(v.msg, "no rules engine for the format numbered 99"), "%s", v.msg);
    olevent_destroy(&h);
}

/* ---- an internal error is never a verdict -------------------------------
 * malloc fails on demand (fail_malloc) while one call runs: the deck check
 * allocates, and a deck it could not check must be neither legal nor
 * illegal -- verifier_new() fails with VERIFIER_ENOMEM and no verifier.
 * Other allocations go to the allocator in use (ASan's when sanitized). */
static volatile int fail_malloc;
extern void *__libc_malloc(size_t n);
extern void *__interceptor_malloc(size_t n) __attribute__((weak));

void *malloc(size_t n)
{
    if (fail_malloc)
        return NULL;
    return __interceptor_malloc ? __interceptor_malloc(n) : __libc_malloc(n);
}

/* The header (first line) of a legal fixture log of `format`. */
static olevent *legal_header_of(ol_format format)
{
    char pattern[512], line[1 << 16];
    glob_t g;
    snprintf(pattern, sizeof pattern, "%s", SRC("fixtures/"));
    snprintf(pattern + strlen(pattern), sizeof pattern - strlen(pattern), "%s/legal-*.jsonl", ol_format_name(format));
    cr_assert_eq(glob(pattern, 0, NULL, &g), 0, "no legal fixture: %s", pattern);
    FILE *fp = fopen(g.gl_pathv[0], "r");
    cr_assert_not_null(fp);
    cr_assert_not_null(fgets(line, sizeof line, fp));
    fclose(fp);
    globfree(&g);
    return decode(line);
}

Test(verifier, a_deck_check_that_cannot_run_is_an_error_never_a_verdict)
{
    const verifier_ops *ops;
    need_db();
    for (size_t i = 0; (ops = verifier_engine_at(i)); i++) {
        if (!ops->deck)
            continue;   /* a format without decklists checks none */
        olevent *h = legal_header_of(ops->format);
        verifier *vf = NULL;
        olverdict v;
        /* the header is legal: with memory, its verdict is ok */
        cr_assert_eq(verifier_new(db, h, &vf, &v), VERIFIER_OK);
        cr_assert_eq(v.status, OL_V_OK, "%s: %s", ops->engine, v.msg);
        verifier_destroy(&vf);
        fail_malloc = 1;
        int rc = verifier_new(db, h, &vf, &v);
        fail_malloc = 0;
        cr_assert_eq(rc, VERIFIER_ENOMEM, "%s: a deck nobody checked was judged (%d, %s)", ops->engine, v.status,
                     v.msg);
        cr_assert_null(vf);
        olevent_destroy(&h);
    }
}

/* Every id any engine or the contract may cite is found, with a quote and a
 * summary; an unknown id is not. */
Test(verifier, the_rule_catalogues_answer_for_every_format)
{
    static const char *const ids[] = {"snap:9.4", "snap:R4", "snap:A5", "advanced:combat.ap_vs_dp",
                                      "advanced:A27", "advanced:deck.size", "openlog:6", "openlog:owner"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const verifier_rule *r = verifier_rule_find(ids[i]);
        cr_assert_not_null(r, "%s", ids[i]);
        cr_assert_str_eq(r->id, ids[i]);
        cr_assert(strlen(r->quote) > 10 && strlen(r->summary) > 10, "%s", ids[i]);
    }
    cr_assert_null(verifier_rule_find("advanced:no.such"));
    cr_assert_null(verifier_rule_find(NULL));
    size_t n = 0;
    const verifier_rule *all = openlog_rules(&n);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(strncmp(all[i].id, "openlog:", 8), 0, "%s", all[i].id);
}

/* The sight a board is drawn for decides which hidden cards it names; the
 * canonical encoding names every card the engine knows. */
static void boards_obey_the_sight(const char *rel, int n, const char *hand_id, const char *hand_card)
{
    olverdict v;
    verifier *vf = replay(rel, n, &v);
    jtext t = {0};
    static const openlog_sight none = {{0, 0}}, own = {{1, 0}}, all = {{1, 1}};
    cr_assert_eq(verifier_board_json(vf, &none, &t), 0);
    cr_assert_null(strstr(t.buf, hand_id), "the public board names %s", hand_id);
    cr_assert_eq(verifier_board_words(vf, &none, &t), 0);
    cr_assert_null(strstr(t.buf, hand_card));
    cr_assert_eq(verifier_board_json(vf, &own, &t), 0);
    cr_assert_not_null(strstr(t.buf, hand_id), "p1's own board names p1's %s", hand_id);
    cr_assert_eq(verifier_board_words(vf, &all, &t), 0);
    cr_assert_not_null(strstr(t.buf, hand_card));
    jtext enc = {0};
    cr_assert_eq(verifier_encode(vf, &enc), 0);
    cr_assert_eq(verifier_board_json(vf, &all, &t), 0);
    cr_assert_str_eq(enc.buf, t.buf, "the canonical encoding is the board at full sight");
    jtext_free(&enc);
    jtext_free(&t);
    verifier_destroy(&vf);
    cr_assert_null(vf);
}

Test(verifier, snap_boards_obey_the_sight)
{
    /* after p1's opening selection: Kindle Fury is in p1's hand */
    boards_obey_the_sight("fixtures/snap/legal-open-concede.jsonl", 3, "cor-kindle-fury", "Kindle Fury");
}

Test(verifier, advanced_boards_obey_the_sight)
{
    /* after both opening selections: Cinder Hound is in p1's hand */
    boards_obey_the_sight("fixtures/logs/advanced-open-every-event.jsonl", 2, "cor-cinder-hound", "Cinder Hound");
}

Test(verifier, the_engine_reports_its_round_finish_and_hidden_mode)
{
    olverdict v;
    verifier *vf = replay("fixtures/logs/advanced-open-every-event.jsonl", 33, &v);
    int winner = -2;
    unsigned unv[OL_PLAYERS_MAX];
    memset(unv, 0xff, sizeof unv);
    cr_assert_eq(verifier_hidden(vf), OL_HIDDEN_OPEN);
    cr_assert_eq(verifier_finished(vf, &winner), 1);
    cr_assert_eq(winner, 1, "p1 conceded");
    cr_assert_eq(verifier_round(vf), 3);
    verifier_unverified(vf, unv);
    cr_assert(unv[0] == 0 && unv[1] == 0, "open mode leaves nothing unverified");
    for (int p = 2; p < OL_PLAYERS_MAX; p++)
        cr_assert_eq(unv[p], 0, "a seat the match does not have counts nothing");
    cr_assert_eq(verifier_players(vf), 2);
    cr_assert_str_eq(verifier_engine(vf), "advanced/1");
    verifier_log_ended(vf);   /* no window open: nothing changes */
    cr_assert_eq(verifier_finished(vf, NULL), 1);
    verifier_destroy(&vf);
    verifier_destroy(&vf);   /* NULL-safe */
    verifier_destroy(NULL);
}

/* verifier_score(): TOURNAMENT.md T4 and T5, each player's score on the
 * board after a fixture's last event, raw, and the base. */
static void score_is(const char *rel, int n, int64_t base, int64_t p1, int64_t p2)
{
    olverdict v;
    int64_t score[OL_PLAYERS_MAX] = {-9, -9, -9, -9, -9, -9, -9, -9}, b = -9;
    verifier *vf = replay(rel, n, &v);
    cr_assert_eq(verifier_finished(vf, NULL), 1, "%s: the game is over", rel);
    cr_assert_eq(verifier_score(vf, score, &b), VERIFIER_OK);
    cr_assert(b == base && score[0] == p1 && score[1] == p2, "%s: base %lld, p1 %lld, p2 %lld", rel, (long long)b,
              (long long)score[0], (long long)score[1]);
    for (int p = 2; p < OL_PLAYERS_MAX; p++)
        cr_assert_eq(score[p], 0, "%s: a seat the match does not have scores 0", rel);
    score[0] = score[1] = -9;
    cr_assert_eq(verifier_score(vf, score, NULL), VERIFIER_OK, "the base may be NULL");
    cr_assert(score[0] == p1 && score[1] == p2);
    verifier_destroy(&vf);
}

Test(verifier, snap_score_is_the_opponents_monsters_defeated)
{
    /* p1 conceded with one of p2's monsters defeated and two of their own:
     * the scores are the monsters defeated, not raised for the winner */
    score_is("fixtures/snap/legal-open-concede-by-p1-mid-game.jsonl", 45, 5, 1, 2);
    /* p1 won with four of p2's monsters defeated (T4: the module, not the
     * engine, gives a winner 5) */
    score_is("fixtures/snap/legal-commit-coreon-obscura.jsonl", 45, 5, 4, 2);
    /* nothing played yet: 0 to 0 */
    olverdict v;
    int64_t score[OL_PLAYERS_MAX], base = -9;
    verifier *vf = replay("fixtures/snap/legal-commit-coreon-obscura.jsonl", 0, &v);
    cr_assert_eq(verifier_score(vf, score, &base), VERIFIER_OK);
    cr_assert(base == 5 && score[0] == 0 && score[1] == 0);
    verifier_destroy(&vf);
}

Test(verifier, advanced_score_is_the_lp_the_opponent_lost)
{
    /* p1 conceded at 3300 LP against 5900: 6000 - 5900 and 6000 - 3300 */
    score_is("fixtures/advanced/legal-open-concede-by-p1.jsonl", 42, 6000, 100, 2700);
    /* starting_lp 5000 is the base; p1 won at 4500 LP */
    score_is("fixtures/advanced/legal-commit-lp-5000-p1-wins.jsonl", 94, 5000, 5000, 500);
}

Test(verifier, master_score_is_the_lp_the_opponent_lost)
{
    /* p2 gained 400 LP: p1's score is negative, raw (T5: the module clamps) */
    score_is("fixtures/master/legal-open-concede-by-p1.jsonl", 62, 8000, -400, 0);
    score_is("fixtures/master/legal-commit-hands-5-6.jsonl", 243, 8000, 8000, 5400);
}

Test(openlog, what_a_sight_is_shown_of_a_hidden_card)
{
    need_db();
    const card *c = cards_find(db, "cor-ember-whelp");
    openlog_card known = {.card = c}, committed = {.has_commit = 1}, unknown = {0};
    static const openlog_sight p1 = {{1, 0}};
    cr_assert_eq(openlog_show(&p1, 1, &known).kind, OPENLOG_SHOWN_HIDDEN);
    cr_assert_eq(openlog_show(&p1, 0, &known).kind, OPENLOG_SHOWN_CARD);
    cr_assert_eq(openlog_show(&p1, 0, &committed).kind, OPENLOG_SHOWN_COMMITTED);
    cr_assert_eq(openlog_show(&p1, 0, &unknown).kind, OPENLOG_SHOWN_UNKNOWN);
    cr_assert_str_eq(openlog_shown_words(openlog_show(&p1, 0, &known)), "Ember Whelp");
    cr_assert_str_eq(openlog_shown_words(openlog_show(&p1, 0, &committed)), "committed, not yet revealed");
    cr_assert_str_eq(openlog_shown_words(openlog_show(&p1, 0, &unknown)), "unknown");
    cr_assert_str_eq(openlog_shown_words(openlog_show(&p1, 1, &known)), "hidden");
    jtext t = {0};
    openlog_shown_json(&t, openlog_show(&p1, 0, &known));
    openlog_shown_json(&t, openlog_show(&p1, 0, &committed));
    openlog_shown_json(&t, openlog_show(&p1, 1, &known));
    cr_assert_str_eq(t.buf, "\"cor-ember-whelp\"\"committed\"null");
    jtext_free(&t);
}

Test(openlog, a_chain_in_json_and_in_words)
{
    need_db();
    olevent *spell = decode("{\"match\":\"m\",\"seq\":4,\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\","
                            "\"targets\":[{\"p\":\"p1\",\"s\":0}]}");
    olevent *counter = decode("{\"match\":\"m\",\"seq\":5,\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\","
                              "\"targets\":[{\"seq\":4}]}");
    chain_link links[2];
    chain_link_set(&links[0], spell, 0, cards_find(db, "cor-kindle-fury"), 1);
    chain_link_set(&links[1], counter, 1, cards_find(db, "obs-void-denial"), 0);
    links[0].negated = 1;
    cr_assert_eq(links[0].n_targets, 1);
    cr_assert_eq(links[1].targets[0].seq, 4);
    jtext t = {0};
    chain_words(&t, links, 0);
    cr_assert_eq(t.len, 0, "an empty chain says nothing");
    chain_words(&t, links, 2);
    cr_assert_str_eq(t.buf, "chain: 1. p1 Kindle Fury (spell, seq 4, negated), 2. p2 Void Denial (counter, seq 5)\n");
    jtext_reset(&t);
    chain_json(&t, links, 2);
    cr_assert_str_eq(t.buf, "[{\"seq\":4,\"player\":\"p1\",\"kind\":\"spell\",\"card\":\"cor-kindle-fury\","
                            "\"name\":\"Kindle Fury\",\"negated\":true},{\"seq\":5,\"player\":\"p2\",\"kind\":"
                            "\"counter\",\"card\":\"obs-void-denial\",\"name\":\"Void Denial\",\"negated\":false}]");
    jtext_free(&t);
    olevent_destroy(&spell);
    olevent_destroy(&counter);
}

/* The Snap board in words and JSON at moments the other tests do not
 * draw (verifiers/snap/board.c; arbiter-replay(1)). */
static void draw(const char *rel, int n, const openlog_sight *sight, jtext *words, jtext *json)
{
    olverdict v;
    verifier *vf = replay(rel, n, &v);
    jtext_reset(words);
    jtext_reset(json);
    cr_assert_eq(verifier_board_words(vf, sight, words), 0);
    cr_assert_eq(verifier_board_json(vf, sight, json), 0);
    verifier_destroy(&vf);
}

static const openlog_sight judge_sight = {{1, 1}}, public_sight = {{0, 0}}, p2_sight = {{0, 1}};

/* A Resonance counter negated the announced trigger: the window, and the
 * trigger named with its seq and ", negated". */
Test(verifier, snap_board_shows_a_negated_trigger_in_the_resonance_window)
{
    jtext w = {0}, j = {0};
    draw("fixtures/snap/legal-announced-five-classes.jsonl", 22, &judge_sight, &w, &j);
    cr_assert(strstr(w.buf, "\nwindow: resonance\ntrigger: p1 Tide Sprite, ability 0 (seq 21, negated)\n"), "%s", w.buf);
    cr_assert(strstr(j.buf, "\"window\":\"resonance\""), "%s", j.buf);
    cr_assert(strstr(j.buf, "\"trigger\":{\"seq\":21,\"player\":\"p1\",\"card\":\"flx-tide-sprite\","
                            "\"name\":\"Tide Sprite\",\"ability\":0,\"negated\":true}"), "%s", j.buf);
    /* Before the counter: the same window, the trigger not negated, seen by p2. */
    draw("fixtures/snap/legal-announced-five-classes.jsonl", 7, &p2_sight, &w, &j);
    cr_assert(strstr(w.buf, "\ntrigger: p2 Veil Assassin, ability 0 (seq 7)\n"), "%s", w.buf);
    cr_assert(strstr(w.buf, "\np2 (bob)  (you)\n"), "p2's own view marks p2: %s", w.buf);
    cr_assert(strstr(j.buf, "\"negated\":false}"), "%s", j.buf);
    jtext_free(&w);
    jtext_free(&j);
}

/* Words and JSON of the game's board for `sight`. */
static void draw_game(const game *g, const openlog_sight *sight, jtext *words, jtext *json)
{
    cr_assert_eq(verifier_board_words(g->vf, sight, words), 0);
    cr_assert_eq(verifier_board_json(g->vf, sight, json), 0);
}

/* The game's board for `sight` has `words` in its words and `json` in its
 * JSON. */
static void game_shows(const game *g, const openlog_sight *sight, const char *words, const char *json)
{
    jtext w = {0}, j = {0};
    draw_game(g, sight, &w, &j);
    cr_assert(strstr(w.buf, words), "want %s in: %s", words, w.buf);
    cr_assert(strstr(j.buf, json), "want %s in: %s", json, j.buf);
    jtext_free(&w);
    jtext_free(&j);
}

/* The same for the board of a fixture after n events. */
static void board_shows(const char *rel, int n, const openlog_sight *sight, const char *words, const char *json)
{
    need_db();
    game g = game_from(db, rel, n, NULL);
    game_shows(&g, sight, words, json);
    verifier_destroy(&g.vf);
}

/* A blocked attack on a bench monster, in the public view. */
Test(verifier, snap_board_shows_a_blocked_attack_on_the_bench)
{
    board_shows("fixtures/snap/legal-commit-coreon-obscura.jsonl", 20, &public_sight,
                "\nattack: p1 Slag Brute (active) -> p2 Crypt Rat (bench 2), blocked\n",
                "\"attack\":{\"attacker\":{\"player\":\"p1\",\"slot\":\"a\",\"card\":\"cor-slag-brute\","
                "\"name\":\"Slag Brute\"},\"target\":{\"player\":\"p2\",\"slot\":2,\"card\":"
                "\"obs-crypt-rat\",\"name\":\"Crypt Rat\"},\"blocked\":true}");
}

/* Announced mode, setup: the fifth monster waits off the field, unknown
 * to the engine; what each player still owes is pending. */
Test(verifier, snap_board_shows_what_is_pending_in_setup)
{
    jtext w = {0}, j = {0};
    draw("fixtures/snap/legal-announced-concede.jsonl", 4, &judge_sight, &w, &j);
    cr_assert(strstr(w.buf, "  fifth      waiting off the field: unknown\n"), "%s", w.buf);
    cr_assert(strstr(w.buf, "  pending    promotion due\n"), "%s", w.buf);
    cr_assert(strstr(j.buf, "\"promote\":true"), "%s", j.buf);
    draw("fixtures/snap/legal-announced-concede.jsonl", 5, &public_sight, &w, &j);
    cr_assert(strstr(w.buf, "  pending    fifth monster to place\n"), "%s", w.buf);
    cr_assert(strstr(w.buf, "  fifth      waiting off the field\n"), "the public does not see it: %s", w.buf);
    cr_assert(strstr(j.buf, "\"fifth\":true}"), "%s", j.buf);
    jtext_free(&w);
    jtext_free(&j);
}

/* openlog_player_id: the id inside "p1 (alice)", bounded by cap. */
Test(openlog, player_id_is_the_name_in_brackets_bounded)
{
    openlog_match m;
    char out[16];
    memset(&m, 0, sizeof m);
    snprintf(m.names[0], sizeof m.names[0], "p1 (alice)");
    snprintf(m.names[1], sizeof m.names[1], "bob");
    openlog_player_id(&m, 0, out, sizeof out);
    cr_assert_str_eq(out, "alice");
    openlog_player_id(&m, 1, out, sizeof out);
    cr_assert_str_eq(out, "bob", "a name without brackets is the id");
    openlog_player_id(&m, 0, out, 4);
    cr_assert_str_eq(out, "ali", "cut to cap - 1 bytes; the bracket was cut, nothing more is removed");
    openlog_player_id(&m, 1, out, 1);
    cr_assert_str_eq(out, "");
    openlog_player_id(&m, 0, out, 1);
    cr_assert_str_eq(out, "", "nothing fits but the NUL, bracket or not");
    snprintf(m.names[0], sizeof m.names[0], "p1 ()");
    openlog_player_id(&m, 0, out, sizeof out);
    cr_assert_str_eq(out, "");
    size_t n = 0;
    cr_assert_eq(openlog_rules(NULL), openlog_rules(&n));
    cr_assert_gt(n, 3);
}

/* ---- the seam: what verifier.c judges for every engine ------------------- */

/* openlog 7: an event type the match's format does not have is refused
 * before any engine sees it, naming who announced it and the format; the
 * state does not change (the board is the same after it). */
Test(verifier, openlog_7_another_formats_event_is_refused_naming_who_announced_it)
{
    olverdict v;
    jtext before = {0}, after = {0};
    verifier *vf = replay("fixtures/snap/legal-open-concede.jsonl", 8, &v);
    static const struct {
        const char *event, *msg;
    } refused[] = {
        {"{\"match\":\"fx-legal-open-concede\",\"seq\":9,\"type\":\"position\",\"by\":\"table\",\"slot\":0}",
         "The table announced a position, which is not an action of the Snap format this match is played in."},
        {"{\"match\":\"fx-legal-open-concede\",\"seq\":9,\"type\":\"discard\",\"by\":\"judge\",\"card\":\"cor-kindle-fury\"}",
         "The judge announced a discard, which is not an action of the Snap format this match is played in."},
        {"{\"match\":\"fx-legal-open-concede\",\"seq\":9,\"type\":\"position\",\"by\":\"p1\",\"slot\":0}",
         "p1 announced a position, which is not an action of the Snap format this match is played in."},
    };
    cr_assert_eq(verifier_encode(vf, &before), 0);
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        olevent *ev = decode(refused[i].event);
        verifier_apply(vf, ev, &v);
        olevent_destroy(&ev);
        verdict_is(&v, OL_V_ILLEGAL, "openlog:7", refused[i].msg);
    }
    cr_assert_eq(verifier_encode(vf, &after), 0);
    cr_assert_str_eq(after.buf, before.buf, "a refused event changes nothing");
    verifier_destroy(&vf);

    /* the same for a Snap event in an Advanced match */
    vf = replay("fixtures/logs/advanced-open-every-event.jsonl", 2, &v);
    olevent *flip = decode("{\"match\":\"adv-spec-1\",\"seq\":3,\"type\":\"flip\",\"by\":\"p1\",\"slot\":0,"
                           "\"card\":\"cor-ember-whelp\"}");
    verifier_apply(vf, flip, &v);
    olevent_destroy(&flip);
    verdict_is(&v, OL_V_ILLEGAL, "openlog:7",
               "p1 announced a flip, which is not an action of the Advanced format this match is played in.");
    verifier_destroy(&vf);
    jtext_free(&before);
    jtext_free(&after);
}

/* openlog 8: after the end, an event of another format is refused as
 * coming after the end (the engine's rule), not as another format's. */
Test(verifier, openlog_8_after_the_end_another_formats_event_is_refused_as_after_the_end)
{
    olverdict v;
    verifier *vf = replay("fixtures/snap/legal-open-concede.jsonl", 31, &v);   /* p2 conceded at seq 31 */
    cr_assert_eq(verifier_finished(vf, NULL), 1);
    olevent *ev = decode("{\"match\":\"fx-legal-open-concede\",\"seq\":32,\"type\":\"position\",\"by\":\"p1\",\"slot\":0}");
    verifier_apply(vf, ev, &v);
    olevent_destroy(&ev);
    verdict_is(&v, OL_V_ILLEGAL, "snap:3.4", "The game is over; no action may follow its end.");
    verifier_destroy(&vf);

    vf = replay("fixtures/logs/advanced-open-every-event.jsonl", 33, &v);   /* p1 conceded */
    cr_assert_eq(verifier_finished(vf, NULL), 1);
    ev = decode("{\"match\":\"adv-spec-1\",\"seq\":34,\"type\":\"flip\",\"by\":\"p2\",\"slot\":0,\"card\":\"cor-ember-whelp\"}");
    verifier_apply(vf, ev, &v);
    olevent_destroy(&ev);
    verdict_is(&v, OL_V_ILLEGAL, "advanced:win.immediate", "The game is over; no action may follow its end.");
    verifier_destroy(&vf);
}

/* The events the open log owns (openlog 3, 8) belong to every format --
 * verifier_apply leaves a judge or claim after the end to the engine on
 * that account -- and no value past the last type is any format's. */
Test(verifier, every_format_has_the_events_of_the_open_log)
{
    const verifier_ops *const all[] = {verifier_ops_of(OL_FORMAT_SNAP), verifier_ops_of(OL_FORMAT_ADVANCED)};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        cr_assert(all[i]->has_type(OL_CONCEDE) && all[i]->has_type(OL_CLAIM) && all[i]->has_type(OL_JUDGE),
                  "%s", all[i]->engine);
        cr_assert_not(all[i]->has_type(OL_TYPE_COUNT), "%s", all[i]->engine);
    }
    cr_assert(verifier_ops_of(OL_FORMAT_SNAP)->has_type(OL_FLIP) && !verifier_ops_of(OL_FORMAT_SNAP)->has_type(OL_SUMMON));
    cr_assert(verifier_ops_of(OL_FORMAT_ADVANCED)->has_type(OL_SUMMON) && !verifier_ops_of(OL_FORMAT_ADVANCED)->has_type(OL_FLIP));
}

/* Each engine's catalogue through the seam: the count is optional, and
 * every id is the engine's own. */
Test(verifier, each_rule_catalogue_gives_its_rows_with_or_without_the_count)
{
    const verifier_ops *ops;
    for (size_t e = 0; (ops = verifier_engine_at(e)); e++) {
        size_t n = 0;
        char prefix[32];
        snprintf(prefix, sizeof prefix, "%s:", ol_format_name(ops->format));
        const verifier_rule *rows = ops->rules(&n);
        cr_assert_eq(ops->rules(NULL), rows, "n may be NULL");
        cr_assert_gt(n, 0, "%s", prefix);
        for (size_t i = 0; i < n; i++) {
            cr_assert_eq(strncmp(rows[i].id, prefix, strlen(prefix)), 0, "%s", rows[i].id);
            cr_assert_eq(verifier_rule_find(rows[i].id), &rows[i], "%s", rows[i].id);
        }
    }
}

/* core.json with card `id` renamed `name`, built through the database's
 * own functions (the JSON loader takes only UTF-8 names; cards_add takes
 * any bytes). */
static cards *core_renamed(const char *id, const char *name)
{
    cards_problem problems[4];
    size_t n = 0;
    need_db();
    cards *out = cards_new(cards_set(db), cards_version(db));
    cr_assert_not_null(out);
    for (size_t i = 0; i < cards_count(db); i++) {
        card c = *cards_at(db, i);
        if (!strcmp(c.id, id))
            snprintf(c.name, sizeof c.name, "%s", name);
        cr_assert_eq(cards_add(out, &c), 0, "%s", c.id);
    }
    cr_assert_eq(cards_finish(out, problems, 4, &n), 0, "%s", n ? problems[0].msg : "");
    return out;
}

/* A board is JSON only when every string in it is UTF-8: a face-up
 * monster whose name is not makes the JSON board and the canonical
 * encoding fail (-1), for every engine, rather than give a text that is
 * not JSON; the words, which are not JSON, are still drawn. */
Test(verifier, a_board_that_cannot_be_written_as_json_is_an_error)
{
    static const struct {
        const char *log, *card;
        int n;   /* events after which the card is face-up on the field */
    } games[] = {{"fixtures/snap/legal-open-concede.jsonl", "cor-forge-golem", 5},
                 {"fixtures/logs/advanced-open-every-event.jsonl", "cor-ember-whelp", 3}};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        cards *cdb = core_renamed(games[i].card, "Not \xff UTF-8");
        game g = game_from(cdb, games[i].log, games[i].n, NULL);
        jtext t = {0};
        cr_assert_eq(g.last.status, OL_V_OK, "%s", g.last.msg);
        cr_assert_eq(verifier_board_json(g.vf, &public_sight, &t), -1, "%s", games[i].log);
        cr_assert_eq(verifier_encode(g.vf, &t), -1, "%s", games[i].log);
        cr_assert_eq(verifier_board_words(g.vf, &public_sight, &t), 0, "%s", games[i].log);
        cr_assert_not_null(strstr(t.buf, "Not \xff UTF-8"), "%s", t.buf);
        jtext_free(&t);
        verifier_destroy(&g.vf);
        cards_destroy(&cdb);
    }
}

/* ---- openlog.c, function by function -------------------------------------- */

/* The common part of a match in `hidden` mode, players alice and bob. */
static void start_match(openlog_match *m, const char *hidden)
{
    char text[512];
    need_db();
    snprintf(text, sizeof text,
             "{\"match\":\"m\",\"seq\":0,\"type\":\"match\",\"by\":\"table\",\"format\":\"master\",\"cards\":"
             "\"core@1.1.0\",\"hidden\":\"%s\",\"players\":{\"p1\":{\"id\":\"alice\",\"deck\":{\"main\":[]}},"
             "\"p2\":{\"id\":\"bob\",\"deck\":{\"main\":[]}}}}",
             hidden);
    olevent *h = decode(text);
    openlog_start(m, db, &h->header);
    olevent_destroy(&h);
}

/* An event of match "m" at seq 1: `body` is its members after those. */
static olevent *event(const char *body)
{
    char text[2048];
    snprintf(text, sizeof text, "{\"match\":\"m\",\"seq\":1,%s}", body);
    return decode(text);
}

/* openlog 6: the shape of an href is the header's mode's; the sentence
 * names the shape announced -- a card id, a commitment, or null. */
Test(openlog, openlog_6_an_href_must_have_the_shape_of_the_hidden_mode)
{
    static const struct {
        const char *hidden, *href, *msg;
    } wrong[] = {
        {"open", "null", "p1's card is announced as null, but this match is played in open mode."},
        {"open", "{\"c\":\"" "0000000000000000000000000000000000000000000000000000000000000000" "\"}",
         "p1's card is announced as a commitment, but this match is played in open mode."},
        {"commit", "\"cor-ember-whelp\"", "p1's card is announced as a card id, but this match is played in commit mode."},
        {"announced", "\"cor-ember-whelp\"",
         "p1's card is announced as a card id, but this match is played in announced mode."},
    };
    char body[256];
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        openlog_match m;
        olverdict v;
        openlog_card c;
        start_match(&m, wrong[i].hidden);
        snprintf(body, sizeof body, "\"type\":\"select\",\"by\":\"p1\",\"cards\":[%s]", wrong[i].href);
        olevent *ev = event(body);
        openlog_judgement j = {&m, ev, &v, 0};
        cr_assert_eq(openlog_take_href(&j, &ev->cards[0], &c, "p1's card"), -1);
        verdict_is(&v, OL_V_ILLEGAL, "openlog:6", wrong[i].msg);
        cr_assert_null(c.card);
        olevent_destroy(&ev);
    }
    /* each mode's own shape is taken: announced mode keeps nothing */
    openlog_match m;
    olverdict v;
    openlog_card c;
    start_match(&m, "announced");
    olevent *ev = event("\"type\":\"select\",\"by\":\"p1\",\"cards\":[null]");
    openlog_judgement j = {&m, ev, &v, 0};
    cr_assert_eq(openlog_take_href(&j, &ev->cards[0], &c, "p1's card"), 0);
    cr_assert(!j.failed && !c.card && !c.has_commit);
    olevent_destroy(&ev);
}

/* The commitment of card `id` under the nonce in hex (openlog 6). */
static void commit_to(const char *id, const char *nonce_hex, uint8_t out[OL_COMMIT_BYTES])
{
    uint8_t nonce[OL_NONCE_MAX_BYTES];
    size_t n = strlen(nonce_hex) / 2;
    crypto_generichash_state st;
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(sscanf(nonce_hex + 2 * i, "%2hhx", &nonce[i]), 1);
    crypto_generichash_init(&st, NULL, 0, OL_COMMIT_BYTES);
    crypto_generichash_update(&st, (const unsigned char *)id, strlen(id));
    crypto_generichash_update(&st, (const unsigned char *)"", 1);
    crypto_generichash_update(&st, nonce, n);
    crypto_generichash_final(&st, out, OL_COMMIT_BYTES);
}

/* openlog:commit: a committed card is revealed only with the nonce that
 * opens its commitment; without a nonce nothing opens it. */
Test(openlog, openlog_commit_a_reveal_opens_the_commitment_only_with_its_nonce)
{
    static const char nonce[] = "00112233445566778899aabbccddeeff";
    openlog_match m;
    olverdict v;
    openlog_card h = {.has_commit = 1};
    const card *out = NULL, *whelp;
    start_match(&m, "commit");
    whelp = cards_find(db, "cor-ember-whelp");
    commit_to("cor-ember-whelp", nonce, h.commit);
    olevent *ev = event("\"type\":\"flip\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ember-whelp\"");
    openlog_judgement j = {&m, ev, &v, 0};

    cr_assert_eq(openlog_reveal(&j, &h, "cor-ember-whelp", NULL, "The flipped monster", &out), -1);
    verdict_is(&v, OL_V_ILLEGAL, "openlog:commit",
               "The flipped monster reveals Ember Whelp, which does not match the card committed there.");
    cr_assert_null(out);
    j.failed = 0;
    cr_assert_eq(openlog_reveal(&j, &h, "cor-ember-whelp", "ffeeddccbbaa99887766554433221100", "The flipped monster",
                                &out), -1, "another nonce opens nothing");
    j.failed = 0;
    cr_assert_eq(openlog_reveal(&j, &h, "cor-ember-whelp", nonce, "The flipped monster", &out), 0);
    cr_assert_eq(out, whelp);

    /* in a hand: the committed card is found with its nonce only */
    cr_assert_eq(openlog_zone_find(&h, 1, whelp, NULL), -1);
    cr_assert_eq(openlog_zone_find(&h, 1, whelp, nonce), 0);
    olevent_destroy(&ev);
}

/* The shot clock (snap 16.1 / A6): time runs forward only -- an event at
 * the same `t` as the previous one, or earlier, took no time -- and a
 * late decision turns only an ok verdict into a warning. */
Test(openlog, the_shot_clock_runs_forward_and_warns_only_a_legal_decision)
{
    openlog_match m;
    olverdict v;
    start_match(&m, "open");
    static const struct {
        const char *body;
        uint64_t limit_ms;
        ol_status given, want;
    } steps[] = {
        {"\"type\":\"end\",\"by\":\"p1\",\"t\":1000000", 30000, OL_V_OK, OL_V_OK},
        {"\"type\":\"end\",\"by\":\"p1\",\"t\":1000000", 0, OL_V_OK, OL_V_OK},        /* the same t: no time */
        {"\"type\":\"end\",\"by\":\"p2\",\"t\":900000", 0, OL_V_OK, OL_V_OK},         /* earlier: no time */
        {"\"type\":\"end\",\"by\":\"p1\",\"t\":990000", 0, OL_V_ILLEGAL, OL_V_ILLEGAL}, /* late, but illegal */
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        olevent *ev = event(steps[i].body);
        olverdict_set(&v, "m", 1, steps[i].given, steps[i].given == OL_V_OK ? NULL : "snap:10.1",
                      steps[i].given == OL_V_OK ? NULL : "Not your turn.");
        openlog_clock(&m, ev, &v, steps[i].limit_ms, "snap:16.1");
        cr_assert_eq(v.status, steps[i].want, "step %zu: %s", i, v.msg);
        olevent_destroy(&ev);
    }
    cr_assert_str_eq(v.rule, "snap:10.1", "the illegal verdict keeps its rule");
    /* 110 seconds after the last `t` (990000), a legal decision is late */
    olevent *ev = event("\"type\":\"end\",\"by\":\"p1\",\"t\":1100000");
    olverdict_set(&v, "m", 1, OL_V_OK, NULL, NULL);
    openlog_clock(&m, ev, &v, 30000, "snap:16.1");
    verdict_is(&v, OL_V_WARNING, "snap:16.1",
               "p1 (alice) took 110 seconds for this decision; the shot clock is 30 seconds.");
    olevent_destroy(&ev);
}

/* openlog 3: a judge's game loss ends the game for the other player --
 * only when it names the player, and only a game still going on. */
Test(openlog, openlog_3_a_game_loss_ends_only_a_game_in_play_for_the_player_named)
{
    static const struct {
        const char *player;
        int over, winner;
    } rulings[] = {
        {"", 0, -1},                   /* a game loss for nobody ends nothing */
        {",\"player\":\"p1\"", 1, 1},  /* p1's game loss: p2 wins */
        {",\"player\":\"p2\"", 1, 1},  /* the game was over: p2 stays the winner */
    };
    openlog_match m;
    olverdict v;
    char body[256];
    start_match(&m, "open");
    for (size_t i = 0; i < sizeof rulings / sizeof rulings[0]; i++) {
        snprintf(body, sizeof body, "\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"game_loss\"%s,\"text\":\"x\"",
                 rulings[i].player);
        olevent *ev = event(body);
        openlog_judgement j = {&m, ev, &v, 0};
        cr_assert_eq(openlog_ruling(&j), 0);
        cr_assert(!j.failed && m.over == rulings[i].over && m.winner == rulings[i].winner, "ruling %zu", i);
        olevent_destroy(&ev);
    }
}

/* A claimed winner is compared with the end the engine found, and the
 * mismatch says what the engine found: the game going on, no winner, p1
 * won or p2 won. */
Test(openlog, a_claimed_winner_is_compared_with_the_end_the_engine_found)
{
    static const struct {
        int over, winner;
        const char *claimed, *msg;   /* msg NULL: the claim agrees */
    } claims[] = {
        {0, -1, "p2", "The table claims p2 won; the engine finds the game still going on."},
        {1, -1, "p1", "The table claims p1 won; the engine finds no winner."},
        {1, 0, "p2", "The table claims p2 won; the engine finds p1 won."},
        {1, 1, "p1", "The table claims p1 won; the engine finds p2 won."},
        {1, 1, "p2", NULL},
    };
    char body[128];
    for (size_t i = 0; i < sizeof claims / sizeof claims[0]; i++) {
        openlog_match m;
        olverdict v;
        start_match(&m, "open");
        if (claims[i].over)
            openlog_end(&m, claims[i].winner);
        snprintf(body, sizeof body, "\"type\":\"claim\",\"by\":\"table\",\"winner\":\"%s\"", claims[i].claimed);
        olevent *ev = event(body);
        openlog_judgement j = {&m, ev, &v, 0};
        olverdict_set(&v, "m", 1, OL_V_OK, NULL, NULL);
        openlog_claim(&j, "snap:A5", "Bench slot");
        if (claims[i].msg)
            verdict_is(&v, OL_V_MISMATCH, "snap:A5", claims[i].msg);
        else
            cr_assert(!j.failed && v.status == OL_V_OK, "the claim agrees");
        olevent_destroy(&ev);
    }
}

/* Defeats are kept up to OPENLOG_DEFEATS_MAX; a claim naming more than a
 * sentence holds is cut where the list no longer fits, and the sentence
 * still says what the engine found. */
Test(openlog, a_claim_of_many_defeats_is_cut_to_fit_its_sentence)
{
    openlog_match m;
    olverdict v;
    start_match(&m, "open");
    for (int i = 0; i < OPENLOG_DEFEATS_MAX + 1; i++)
        openlog_defeated(&m, 0, OL_SLOT_ACTIVE);
    cr_assert_eq(m.n_defeated, OPENLOG_DEFEATS_MAX);
    olevent *claim = event("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p2\",\"s\":0},{\"p\":\"p2\",\"s\":1},"
                           "{\"p\":\"p2\",\"s\":2},{\"p\":\"p2\",\"s\":3},{\"p\":\"p2\",\"s\":0},{\"p\":\"p2\",\"s\":1},"
                           "{\"p\":\"p2\",\"s\":2},{\"p\":\"p2\",\"s\":3},{\"p\":\"p2\",\"s\":0},{\"p\":\"p2\",\"s\":1}]");
    openlog_judgement j = {&m, claim, &v, 0};
    openlog_claim(&j, "snap:A5", "Bench slot");
    cr_assert_eq(v.status, OL_V_MISMATCH);
    cr_assert_str_eq(v.rule, "snap:A5");
    /* the claimed list is cut at the 159 bytes its buffer holds, within
     * the sixth defeat; the engine's list follows */
    static const char want[] = "The table claims defeated: p2's monster in Bench slot 0, p2's monster in Bench slot 1, "
                               "p2's monster in Bench slot 2, p2's monster in Bench slot 3, p2's monster in Bench slot 0, "
                               "p2's mons; since the last claim or resolution the engine finds defeated: p1's active "
                               "monster, p1's active monster, ";
    cr_assert_eq(strncmp(v.msg, want, sizeof want - 1), 0, "%s", v.msg);
    cr_assert_eq(m.n_defeated, OPENLOG_DEFEATS_MAX, "a claim that differs clears nothing");
    olevent_destroy(&claim);
}

/* ---- chain.c ------------------------------------------------------------------ */

/* A link whose card the engine does not hold is drawn without one: null
 * in JSON, "?" in words. */
Test(chain, a_link_without_its_card_is_drawn_without_one)
{
    olevent *counter = decode("{\"match\":\"m\",\"seq\":7,\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\","
                              "\"targets\":[{\"seq\":4}]}");
    chain_link link;
    chain_link_set(&link, counter, 1, NULL, 0);
    jtext t = {0};
    chain_json(&t, &link, 1);
    cr_assert_str_eq(t.buf, "[{\"seq\":7,\"player\":\"p2\",\"kind\":\"counter\",\"card\":null,\"name\":null,"
                            "\"negated\":false}]");
    jtext_reset(&t);
    chain_words(&t, &link, 1);
    cr_assert_str_eq(t.buf, "chain: 1. p2 ? (counter, seq 7)\n");
    jtext_free(&t);
    olevent_destroy(&counter);
}

/* ---- the Snap board (verifiers/snap/board.c) ------------------------------------ */

/* The p1_hand lever at 1 (snap 18.5): a hand of one card is "1 card",
 * named for whoever may see it and counted for the public. */
Test(verifier, snap_board_a_hand_of_one_card)
{
    jtext w = {0}, j = {0};
    need_db();
    game g = game_from(db, "fixtures/snap/legal-open-concede.jsonl", 2, "\"rules\":{\"p1_hand\":1}");
    game_ok(&g, "\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"cor-kindle-fury\"]");
    draw_game(&g, &judge_sight, &w, &j);
    cr_assert(strstr(w.buf, "\n  hand       1 card: Kindle Fury\n"), "%s", w.buf);
    cr_assert(strstr(j.buf, "\"hand\":{\"count\":1,\"cards\":[\"cor-kindle-fury\"]}"), "%s", j.buf);
    draw_game(&g, &public_sight, &w, &j);
    cr_assert(strstr(w.buf, "\n  hand       1 card\n"), "%s", w.buf);
    cr_assert(strstr(j.buf, "\"hand\":{\"count\":1,\"cards\":[null]}"), "%s", j.buf);
    cr_assert_null(strstr(w.buf, "Kindle Fury"), "the public view names no hidden card");
    cr_assert_null(strstr(j.buf, "cor-kindle-fury"), "the public view names no hidden card");
    jtext_free(&w);
    jtext_free(&j);
    verifier_destroy(&g.vf);
}

/* Stoke the Forge resolved (snap A8): p1 owes the selection of two
 * Support cards, and nothing else, until they select them. */
Test(verifier, snap_board_shows_the_support_cards_an_effect_lets_a_player_select)
{
    need_db();
    game g = game_from(db, "fixtures/snap/legal-open-concede.jsonl", 8, NULL);   /* p1 flipped a Coreon */
    game_ok(&g, "\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-stoke-the-forge\",\"targets\":[]");
    game_ok(&g, "\"type\":\"pass\",\"by\":\"p2\"");
    game_shows(&g, &public_sight, "\n  pending    select 2 Support cards\n",
               "\"pending\":{\"triggers\":[],\"promote\":false,\"select\":2,\"fifth\":false}");
    game_ok(&g, "\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"cor-heat-haze\",\"cor-eruption\"]");
    game_shows(&g, &judge_sight, "Flashpoint Denial, Heat Haze, Eruption\n  locked",
               "\"pending\":{\"triggers\":[],\"promote\":false,\"select\":0,\"fifth\":false}");
    verifier_destroy(&g.vf);
}

/* What a player owes, in the board's order -- triggers, then promotion,
 * then selection -- joined by "; ".  No core card fires more than one
 * trigger at a time, so Magma Tortoise is given three [on reveal] ones:
 * destroy a monster, select a card, prevent a lock.  p1 flips it (seq 8),
 * announces the first on their own active monster and the next two; each
 * announcement closes the window of the one before (snap A26). */
Test(verifier, snap_board_lists_every_pending_obligation_in_order)
{
    static const char trig[] = "trigger to announce: Magma Tortoise (on_reveal)";
    char want[512];
    cards *cdb = core_with("cor-magma-tortoise", "\"imp\": 1500,",
                           "\"imp\": 1500, \"triggers\": ["
                           "{\"when\": \"on_reveal\", \"effects\": [{\"op\": \"destroy\", \"target\": \"monster\"}]},"
                           "{\"when\": \"on_reveal\", \"effects\": [{\"op\": \"select\", \"target\": \"controller\", "
                           "\"amount\": 1}]},"
                           "{\"when\": \"on_reveal\", \"effects\": [{\"op\": \"prevent_lock\", \"target\": "
                           "\"opponent\"}]}],");
    game g = game_from(cdb, "fixtures/snap/legal-open-concede.jsonl", 8, NULL);
    cr_assert_eq(g.last.status, OL_V_OK, "%s", g.last.msg);
    snprintf(want, sizeof want, "\n  pending    %s; %s; %s\n", trig, trig, trig);
    game_shows(&g, &judge_sight, want,
               "\"pending\":{\"triggers\":[{\"card\":\"cor-magma-tortoise\",\"slot\":1,\"ability\":0},"
               "{\"card\":\"cor-magma-tortoise\",\"slot\":1,\"ability\":1},{\"card\":\"cor-magma-tortoise\","
               "\"slot\":1,\"ability\":2}],\"promote\":false,\"select\":0,\"fifth\":false}");

    game_ok(&g, "\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":1},\"ability\":0,"
                "\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    game_ok(&g, "\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":1},\"ability\":1,\"targets\":[]");
    /* Forge Golem, p1's active monster, is destroyed */
    snprintf(want, sizeof want, "\np1 (alice)\n  active     (empty)\n");
    game_shows(&g, &judge_sight, want, "\"players\":{\"p1\":{\"name\":\"alice\",\"active\":null,");
    snprintf(want, sizeof want, "\n  pending    %s; promotion due\n", trig);
    game_shows(&g, &judge_sight, want,
               "\"pending\":{\"triggers\":[{\"card\":\"cor-magma-tortoise\",\"slot\":1,\"ability\":2}],"
               "\"promote\":true,\"select\":0,\"fifth\":false}");

    game_ok(&g, "\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":1},\"ability\":2,\"targets\":[]");
    game_shows(&g, &public_sight, "\n  pending    promotion due; select 1 Support card\n",
               "\"pending\":{\"triggers\":[],\"promote\":true,\"select\":1,\"fifth\":false}");
    verifier_destroy(&g.vf);
    cards_destroy(&cdb);
}

/* p2 promoted Veil Assassin (seq 6): its [on entry] trigger is pending at
 * the active slot, before the fifth monster p2 still has to place. */
Test(verifier, snap_board_names_the_active_slot_of_a_trigger_fired_on_entry)
{
    board_shows("fixtures/snap/legal-announced-five-classes.jsonl", 6, &p2_sight,
                "\n  pending    trigger to announce: Veil Assassin (on_entry); fifth monster to place\n",
                "\"pending\":{\"triggers\":[{\"card\":\"obs-veil-assassin\",\"slot\":\"a\",\"ability\":0}],"
                "\"promote\":false,\"select\":0,\"fifth\":true}");
}

/* snap 8.1: a header with an illegal deck starts no match -- the game is
 * over at once, with no winner. */
Test(verifier, snap_board_of_a_match_that_never_started)
{
    board_shows("fixtures/snap/illegal-snap_8_1-event-after-illegal-deck.jsonl", 0, &public_sight,
                "game over: no winner\nwindow: none\n\n", "\"over\":true,\"winner\":null}");
}

/* A Counter that destroys the attacker (no core Counter does: Flashpoint
 * Denial is given that effect) resolves as the attack's window closes; the
 * attacker was p2's last monster, so p2 loses at once and the attack is
 * never fought.  The board keeps the attack, its attacker's slot now
 * empty: no card in JSON, and no name in words (which call it "a
 * face-down monster"). */
Test(verifier, snap_board_keeps_the_attack_of_a_game_that_ended_in_its_chain)
{
    jtext w = {0}, j = {0};
    cards *cdb = core_with("cor-flashpoint-denial", "\"op\": \"negate\",\n            \"target\": \"chain_link\"",
                           "\"op\": \"destroy\",\n            \"target\": \"attacker\"");
    /* seq 75: p2's Nyxora attacks p1's Forge Colossus, each player's last monster */
    game g = game_from(cdb, "fixtures/snap/illegal-snap_10-attack-after-lock-gen.jsonl", 75, NULL);
    cr_assert_eq(g.last.status, OL_V_OK, "%s", g.last.msg);
    game_ok(&g, "\"type\":\"counter\",\"by\":\"p1\",\"card\":\"cor-flashpoint-denial\",\"targets\":[]");
    game_ok(&g, "\"type\":\"pass\",\"by\":\"p2\"");
    game_ok(&g, "\"type\":\"pass\",\"by\":\"p1\"");
    int winner = -1;
    cr_assert_eq(verifier_finished(g.vf, &winner), 1);
    cr_assert_eq(winner, 0, "p1 won");
    draw_game(&g, &public_sight, &w, &j);
    static const char moment[] = "game over: p1 (alice) won\nwindow: none\n"
                                 "attack: p2 a face-down monster (active) -> p1 Forge Colossus (active)\n\n";
    cr_assert_eq(strncmp(w.buf, moment, sizeof moment - 1), 0, "%s", w.buf);
    cr_assert(strstr(j.buf, "\"attack\":{\"attacker\":{\"player\":\"p2\",\"slot\":\"a\",\"card\":null,\"name\":null},"
                            "\"target\":{\"player\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-colossus\",\"name\":"
                            "\"Forge Colossus\"},\"blocked\":false}"), "%s", j.buf);
    cr_assert(strstr(j.buf, "\"over\":true,\"winner\":\"p1\"}"), "%s", j.buf);
    jtext_free(&w);
    jtext_free(&j);
    verifier_destroy(&g.vf);
    cards_destroy(&cdb);
}

/* The first line of a fixture log with `seats` (JSON members) added as the
 * first entries of its players map: a header naming more players. */
static olevent *header_with_seats(const char *rel, const char *seats)
{
    char *line = NULL, text[65536];
    size_t cap = 0;
    FILE *f = fopen(SRC(rel), "r");
    cr_assert_not_null(f, "%s", rel);
    cr_assert_gt(getline(&line, &cap, f), 0);
    fclose(f);
    char *at = strstr(line, "\"players\":{");
    cr_assert_not_null(at);
    at += strlen("\"players\":{");
    snprintf(text, sizeof text, "%.*s%s,%s", (int)(at - line), line, seats, at);
    free(line);
    return decode(text);
}

/* A format's engine says how many players it is played by; a header naming
 * another count is refused before the engine, with a sentence. */
Test(verifier, a_header_naming_more_players_than_the_format_has_is_malformed)
{
    static const struct {
        const char *rel, *seats, *msg;
    } cases[] = {
        {"fixtures/snap/legal-open-concede.jsonl", "\"p3\":{\"id\":\"carol\"}",
         "A snap match has 2 players; this header names 3."},
        {"fixtures/advanced/legal-open-concede-by-p1.jsonl", "\"p3\":{\"id\":\"carol\"},\"p4\":{\"id\":\"dan\"}",
         "An advanced match has 2 players; this header names 4."},
        {"fixtures/master/legal-announced-concede-by-p2.jsonl",
         "\"p8\":{\"id\":\"h\"},\"p7\":{\"id\":\"g\"},\"p6\":{\"id\":\"f\"},\"p5\":{\"id\":\"e\"},"
         "\"p4\":{\"id\":\"d\"},\"p3\":{\"id\":\"c\"}",
         "A master match has 2 players; this header names 8."},
    };
    need_db();
    cr_assert_eq(verifier_ops_of(OL_FORMAT_SNAP)->players_min, 2);
    cr_assert_eq(verifier_ops_of(OL_FORMAT_SNAP)->players_max, 2);
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->players_max, 2);
    cr_assert_eq(verifier_ops_of(OL_FORMAT_MASTER)->players_max, 2);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        olevent *h = header_with_seats(cases[i].rel, cases[i].seats);
        verifier *vf = NULL;
        olverdict v;
        memset(&v, 0, sizeof v);
        cr_assert_eq(verifier_new(db, h, &vf, &v), VERIFIER_EPLAYERS, "%s", cases[i].rel);
        cr_assert_null(vf);
        verdict_is(&v, OL_V_MALFORMED, "openlog:4", cases[i].msg);
        cr_assert_eq(v.seq, 0);
        olevent_destroy(&h);
    }
}

/* openlog 3: a seat the match does not have, wherever an event names it,
 * is nobody at this table -- judged once, for every engine, before any of
 * them indexes its players with it. */
Test(verifier, an_event_naming_a_seat_the_match_does_not_have_is_illegal)
{
    static const struct {
        const char *rel, *body, *msg;
    } cases[] = {
        {"fixtures/snap/legal-open-concede.jsonl", "\"type\":\"concede\",\"by\":\"p3\"",
         "p3 is not a player of this match, whose players are p1 and p2."},
        {"fixtures/snap/legal-open-concede.jsonl", "\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p8\"",
         "p8 is not a player of this match, whose players are p1 and p2."},
        {"fixtures/snap/legal-open-concede.jsonl",
         "\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"game_loss\",\"player\":\"p4\",\"text\":\"x\"",
         "p4 is not a player of this match, whose players are p1 and p2."},
        {"fixtures/advanced/legal-open-concede-by-p1.jsonl",
         "\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p1\",\"s\":0},{\"p\":\"p5\",\"s\":1}]",
         "p5 is not a player of this match, whose players are p1 and p2."},
        {"fixtures/master/legal-announced-concede-by-p2.jsonl",
         "\"type\":\"attack\",\"by\":\"p1\",\"slot\":0,\"attack\":0,\"target\":{\"p\":\"p3\"}",
         "p3 is not a player of this match, whose players are p1 and p2."},
        /* a classic pot's piles (SPEC.md 7.6): the seam judges them too */
        {"fixtures/snap/legal-open-concede.jsonl", "\"type\":\"pot\",\"by\":\"table\",\"piles\":[\"p1\",\"p6\"]",
         "p6 is not a player of this match, whose players are p1 and p2."},
    };
    need_db();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        game g = game_from(db, cases[i].rel, 0, NULL);
        cr_assert_eq(verifier_players(g.vf), 2);
        olverdict v = game_play(&g, cases[i].body);
        verdict_is(&v, OL_V_ILLEGAL, "openlog:3", cases[i].msg);
        /* nothing changed: the game is not over, p1 still plays */
        cr_assert_eq(verifier_finished(g.vf, NULL), 0, "%s", cases[i].body);
        verifier_destroy(&g.vf);
    }
}
