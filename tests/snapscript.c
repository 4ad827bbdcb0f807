/* snapscript.c -- a scripted Snap game for the Criterion suites.
 *
 * BASE is a legal open-mode game through Round 4; the helpers start a
 * match, play one event at a time and assert its verdict.  Shared by
 * test_snap.c (rule by rule) and test_snap_rulings.c (ruling by ruling).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logformat/jtext.h"
#include "logformat/olcodec.h"
#include "src/core/carddb.h"
#include "tests/snapscript.h"
#include "tests/testutil.h"

/* A legal game through Round 4 (open mode, default levers). */
const char *const BASE[] = {
    /* 1 */ "\"type\":\"bench\",\"by\":\"p1\",\"slots\":[\"cor-forge-golem\",\"cor-magma-tortoise\",\"cor-ash-sprite\",\"flx-current-eel\"]",
    /* 2 */ "\"type\":\"bench\",\"by\":\"p2\",\"slots\":[\"obs-crypt-rat\",\"obs-grave-bat\",\"obs-wraith-sentry\",\"aet-cloud-monk\"]",
    /* 3 */ "\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"cor-kindle-fury\",\"cor-searing-brand\",\"cor-stoke-the-forge\",\"flx-riptide-shift\",\"cor-flashpoint-denial\"]",
    /* 4 */ "\"type\":\"select\",\"by\":\"p2\",\"cards\":[\"obs-night-terror\",\"obs-soul-siphon\",\"obs-shadow-step\",\"obs-void-denial\",\"obs-dark-mirror\",\"obs-death-grip\"]",
    /* 5 */ "\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-forge-golem\"",
    /* 6 */ "\"type\":\"promote\",\"by\":\"p2\",\"slot\":0,\"card\":\"obs-crypt-rat\"",
    /* 7  Round 1, p1 */ "\"type\":\"bench\",\"by\":\"p1\",\"slot\":0,\"card\":\"flx-frost-skimmer\"",
    /* 8 */ "\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-magma-tortoise\"",
    /* 9 */ "\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-heat-haze\",\"cor-crucible-rite\",\"cor-eruption\"]",
    /* 10 */ "\"type\":\"end\",\"by\":\"p1\"",
    /* 11 Round 1, p2 */ "\"type\":\"bench\",\"by\":\"p2\",\"slot\":0,\"card\":\"aet-aether-kite\"",
    /* 12 */ "\"type\":\"flip\",\"by\":\"p2\",\"slot\":1,\"card\":\"obs-grave-bat\"",
    /* 13 */ "\"type\":\"lock\",\"by\":\"p2\",\"cards\":[\"obs-curse-of-silence\",\"obs-grave-whisper\",\"obs-eclipse-ritual\"]",
    /* 14 */ "\"type\":\"end\",\"by\":\"p2\"",
    /* 15 Round 2 */ "\"type\":\"flip\",\"by\":\"p1\",\"slot\":2,\"card\":\"cor-ash-sprite\"",
    /* 16 */ "\"type\":\"end\",\"by\":\"p1\"",
    /* 17 */ "\"type\":\"flip\",\"by\":\"p2\",\"slot\":2,\"card\":\"obs-wraith-sentry\"",
    /* 18 */ "\"type\":\"end\",\"by\":\"p2\"",
    /* 19 Round 3 */ "\"type\":\"flip\",\"by\":\"p1\",\"slot\":3,\"card\":\"flx-current-eel\"",
    /* 20 */ "\"type\":\"end\",\"by\":\"p1\"",
    /* 21 */ "\"type\":\"flip\",\"by\":\"p2\",\"slot\":3,\"card\":\"aet-cloud-monk\"",
    /* 22 */ "\"type\":\"end\",\"by\":\"p2\"",
    /* 23 Round 4 */ "\"type\":\"unlock\",\"by\":\"p1\",\"lock\":0,\"card\":\"cor-heat-haze\"",
    /* 24 */ "\"type\":\"flip\",\"by\":\"p1\",\"slot\":0,\"card\":\"flx-frost-skimmer\"",
    /* 25 */ "\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-meltdown\"]",
    /* 26 */ "\"type\":\"end\",\"by\":\"p1\"",
    /* 27 */ "\"type\":\"unlock\",\"by\":\"p2\",\"lock\":0,\"card\":\"obs-curse-of-silence\"",
    /* 28 */ "\"type\":\"flip\",\"by\":\"p2\",\"slot\":0,\"card\":\"aet-aether-kite\"",
    /* 29 */ "\"type\":\"lock\",\"by\":\"p2\",\"cards\":[\"obs-soul-reap\"]",
    /* 30 */ "\"type\":\"end\",\"by\":\"p2\"",
};
const size_t BASE_N = sizeof BASE / sizeof BASE[0];

cards *db;
snap_state st;
uint64_t seq;

olevent *decode(const char *text)
{
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s: %s", text, err.msg);
    return ev;
}

void header_text(char *text, size_t n, const char *hidden, const char *rules, const char *p1deck, const char *p2deck)
{
    snprintf(text, n,
             "{\"match\":\"t\",\"seq\":0,\"type\":\"match\",\"by\":\"table\",\"format\":\"snap\",\"cards\":\"core@1.1.0\","
             "\"hidden\":\"%s\",%s%s\"players\":{\"p1\":{\"id\":\"alice\",\"deck\":%s},\"p2\":{\"id\":\"bob\",\"deck\":%s}}}",
             hidden, rules ? rules : "", rules ? "," : "", p1deck, p2deck);
}

olverdict start_decks(const char *hidden, const char *rules, const char *p1deck, const char *p2deck)
{
    char err[2048];
    if (!db)
        cr_assert_eq(carddb_load_file(SRC("fixtures/cards/core.json"), &db, err, sizeof err), 0, "%s", err);
    char text[8192];
    header_text(text, sizeof text, hidden, rules, p1deck, p2deck);
    olevent *h = decode(text);
    olverdict v;
    snap_start(&st, db, NULL, h, &v);
    olevent_destroy(&h);
    seq = 1;
    return v;
}

olverdict start_with(const char *hidden, const char *rules, const char *p1deck)
{
    return start_decks(hidden, rules, p1deck, P2_DECK);
}

void start(const char *rules)
{
    olverdict v = start_with("open", rules, P1_DECK);
    cr_assert_eq(v.status, OL_V_OK, "header: %s %s", v.rule, v.msg);
}

olverdict play_t(const char *body, uint64_t t)
{
    char text[4096];
    event_text(text, sizeof text, (unsigned long long)seq, (unsigned long long)t, body);
    olevent *ev = decode(text);
    olverdict v;
    snap_apply(&st, ev, &v);
    olevent_destroy(&ev);
    seq++;
    cr_assert_eq(snap_check_invariants(&st), 0, "invariant %d broken after %s", snap_check_invariants(&st), body);
    cr_assert_eq(v.seq, seq - 1);
    return v;
}

olverdict play(const char *body)
{
    return play_t(body, 0);
}

void ok(const char *body)
{
    olverdict v = play(body);
    cr_assert(v.status == OL_V_OK || v.status == OL_V_WARNING, "seq %llu %s: %s %s %s",
              (unsigned long long)v.seq, body, ol_status_name(v.status), v.rule, v.msg);
}

void base(size_t n)
{
    for (size_t i = 0; i < n && i < BASE_N; i++)
        ok(BASE[i]);
}

/* The lever p1_hand n: p1 opens with the first n Supports of P1_DECK,
 * then BASE goes on through p1's Round 1 flip (seq 8). */
void big_hand_opening(size_t n)
{
    static const char *const supports[SNAP_SUPPORTS] = {
        "cor-kindle-fury",  "cor-searing-brand",  "cor-stoke-the-forge", "cor-heat-haze",     "cor-crucible-rite",
        "cor-eruption",     "cor-meltdown",       "cor-flashpoint-denial", "cor-resonant-flare", "cor-backdraft",
        "cor-firewall",     "cor-smolder-trap",   "flx-undertow",        "flx-riptide-shift", "flx-ebb-and-flow",
        "flx-frozen-moment", "flx-deep-current",  "flx-wave-break",      "flx-echoing-surge", "flx-misdirecting-fog"};
    char rules[64], select[2048];
    size_t used = 0;
    cr_assert(n <= SNAP_SUPPORTS);
    snprintf(rules, sizeof rules, "\"rules\":{\"p1_hand\":%zu}", n);
    start(rules);
    base(2);
    used += (size_t)snprintf(select, sizeof select, "\"type\":\"select\",\"by\":\"p1\",\"cards\":[");
    for (size_t i = 0; i < n; i++)
        used += (size_t)snprintf(select + used, sizeof select - used, "%s\"%s\"", i ? "," : "", supports[i]);
    snprintf(select + used, sizeof select - used, "]");
    ok(select);
    for (size_t i = 3; i < 8; i++)
        ok(BASE[i]);
}

void expect(olverdict v, ol_status status, const char *rule)
{
    cr_assert_eq(v.status, status, "want %s %s, got %s %s: %s", ol_status_name(status), rule,
                 ol_status_name(v.status), v.rule, v.msg);
    cr_assert_str_eq(v.rule, rule, "want %s, got %s: %s", rule, v.rule, v.msg);
    cr_assert(strlen(v.msg) > 10, "the verdict must say what was wrong");
}

void illegal(const char *body, const char *rule)
{
    expect(play(body), OL_V_ILLEGAL, rule);
}

int judge_board_has(const char *text)
{
    jtext t = {0};
    cr_assert_eq(snap_encode(&st, &t), 0);
    int has = t.buf && strstr(t.buf, text);
    jtext_free(&t);
    return has;
}

/* ---- core.json rewritten, for rulings no core card exercises --------- */

char *core_text(void)
{
    FILE *f = fopen(SRC("fixtures/cards/core.json"), "rb");
    cr_assert(f);
    cr_assert_eq(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    cr_assert(n > 0);
    rewind(f);
    char *text = malloc((size_t)n + 1);
    cr_assert(text);
    cr_assert_eq(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = 0;
    fclose(f);
    return text;
}

char *replace_after(char *text, const char *anchor, const char *old, const char *new_)
{
    char *a = strstr(text, anchor);
    cr_assert(a, "%s", anchor);
    char *o = strstr(a, old);
    cr_assert(o, "%s", old);
    size_t head = (size_t)(o - text), lo = strlen(old), ln = strlen(new_), n = strlen(text);
    char *out = malloc(n - lo + ln + 1);
    cr_assert(out);
    memcpy(out, text, head);
    memcpy(out + head, new_, ln);
    memcpy(out + head + ln, o + lo, n - head - lo + 1);
    free(text);
    return out;
}

void load_core_edited(const char *name, const core_edit *edits, size_t n)
{
    char *text = core_text();
    for (size_t i = 0; i < n; i++)
        text = replace_after(text, edits[i].anchor, edits[i].old, edits[i].new_);
    load_core_text(text, name);
}

void load_core_text(char *text, const char *name)
{
    char err[2048];
    cr_assert_eq(carddb_load_buffer(text, strlen(text), name, &db, err, sizeof err), 0, "%s", err);
    free(text);
}
