/* test_verifier.c -- the engine seam (verifiers/verifier.h) and what the
 * open log owns (verifiers/openlog.h), tested through the interface every
 * caller uses, for every format at once. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logformat/olcodec.h"
#include "src/carddb.h"
#include "tests/testutil.h"
#include "verifiers/chain.h"
#include "verifiers/openlog.h"
#include "verifiers/verifier.h"

static cards *db;

static olevent *decode(const char *text)
{
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s: %s", text, err.msg);
    return ev;
}

/* A verifier for the first line of a fixture log, fed its next n lines. */
static verifier *replay(const char *rel, int n, olverdict *last)
{
    char err[1024], *line = NULL;
    size_t cap = 0;
    FILE *f = fopen(SRC(rel), "r");
    verifier *vf = NULL;
    if (!db)
        cr_assert_eq(carddb_load_file(SRC("fixtures/cards/core.json"), &db, err, sizeof err), 0, "%s", err);
    cr_assert_not_null(f, "%s", rel);
    for (int i = 0; i <= n && getline(&line, &cap, f) > 0; i++) {
        olevent *ev = decode(line);
        if (i == 0)
            cr_assert_eq(verifier_new(db, ev, &vf, last), VERIFIER_OK);
        else
            verifier_apply(vf, ev, last);
        olevent_destroy(&ev);
    }
    free(line);
    fclose(f);
    return vf;
}

Test(verifier, each_format_has_its_engine_or_none)
{
    cr_assert_eq(verifier_ops_of(OL_FORMAT_SNAP), &snap_verifier_ops);
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED), &advanced_verifier_ops);
    cr_assert_null(verifier_ops_of(OL_FORMAT_MASTER));
    cr_assert_str_eq(snap_verifier_ops.engine, "snap/2");
    cr_assert_str_eq(advanced_verifier_ops.engine, "advanced/1");
}

Test(verifier, a_format_without_an_engine_is_refused_with_a_sentence)
{
    char err[1024];
    if (!db)
        cr_assert_eq(carddb_load_file(SRC("fixtures/cards/core.json"), &db, err, sizeof err), 0, "%s", err);
    olevent *h = decode("{\"match\":\"m\",\"seq\":0,\"type\":\"match\",\"by\":\"table\",\"format\":\"master\","
                        "\"cards\":\"core@1.0.0\",\"hidden\":\"open\",\"players\":{\"p1\":{\"id\":\"a\",\"deck\":"
                        "{\"main\":[]}},\"p2\":{\"id\":\"b\",\"deck\":{\"main\":[]}}}}");
    verifier *vf = NULL;
    olverdict v;
    cr_assert_eq(verifier_new(db, h, &vf, &v), VERIFIER_ENOENGINE);
    cr_assert_null(vf);
    cr_assert_eq(v.status, OL_V_MALFORMED);
    cr_assert(strstr(v.msg, "no rules engine for the master format"), "%s", v.msg);
    olevent_destroy(&h);
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
    unsigned unv[2];
    cr_assert_eq(verifier_hidden(vf), OL_HIDDEN_OPEN);
    cr_assert_eq(verifier_finished(vf, &winner), 1);
    cr_assert_eq(winner, 1, "p1 conceded");
    cr_assert_eq(verifier_round(vf), 3);
    verifier_unverified(vf, unv);
    cr_assert(unv[0] == 0 && unv[1] == 0, "open mode leaves nothing unverified");
    cr_assert_str_eq(verifier_engine(vf), "advanced/1");
    verifier_log_ended(vf);   /* no window open: nothing changes */
    cr_assert_eq(verifier_finished(vf, NULL), 1);
    verifier_destroy(&vf);
    verifier_destroy(&vf);   /* NULL-safe */
}

Test(openlog, what_a_sight_is_shown_of_a_hidden_card)
{
    char err[1024];
    if (!db)
        cr_assert_eq(carddb_load_file(SRC("fixtures/cards/core.json"), &db, err, sizeof err), 0, "%s", err);
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
    char err[1024];
    if (!db)
        cr_assert_eq(carddb_load_file(SRC("fixtures/cards/core.json"), &db, err, sizeof err), 0, "%s", err);
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
    chain_json(&t, links, 1);
    cr_assert_str_eq(t.buf, "[{\"seq\":4,\"player\":\"p1\",\"kind\":\"spell\",\"card\":\"cor-kindle-fury\","
                            "\"name\":\"Kindle Fury\",\"negated\":true}]");
    jtext_free(&t);
    olevent_destroy(&spell);
    olevent_destroy(&counter);
}

/* The Snap board in words and JSON at moments the other tests do not
 * draw (verifiers/snap/board.c; README.md, `arbiter replay`). */
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

/* A blocked attack on a bench monster, in the public view. */
Test(verifier, snap_board_shows_a_blocked_attack_on_the_bench)
{
    jtext w = {0}, j = {0};
    draw("fixtures/snap/legal-commit-coreon-obscura.jsonl", 20, &public_sight, &w, &j);
    cr_assert(strstr(w.buf, "\nattack: p1 Slag Brute (active) -> p2 Crypt Rat (bench 2), blocked\n"), "%s", w.buf);
    cr_assert(strstr(j.buf, "\"attack\":{\"attacker\":{\"player\":\"p1\",\"slot\":\"a\",\"card\":\"cor-slag-brute\","
                            "\"name\":\"Slag Brute\"},\"target\":{\"player\":\"p2\",\"slot\":2,\"card\":"
                            "\"obs-crypt-rat\",\"name\":\"Crypt Rat\"},\"blocked\":true}"), "%s", j.buf);
    jtext_free(&w);
    jtext_free(&j);
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
    snprintf(m.names[0], sizeof m.names[0], "p1 ()");
    openlog_player_id(&m, 0, out, sizeof out);
    cr_assert_str_eq(out, "");
    size_t n = 0;
    cr_assert_eq(openlog_rules(NULL), openlog_rules(&n));
    cr_assert_gt(n, 3);
}
