/* test_auditpage.c -- the audit page's writer (src/cli/auditpage.h) and the
 * HTML pieces it shares with the tournament page (src/core/htmlout.h).
 *
 * Checked: escaping of every text from a record (match id, player ids,
 * sentences) and of path segments; a page saved through FILE.tmp; a fault
 * highlighted with its sentence, rule id and the rulebook's quote from the
 * rule catalogue; the board drawn as zones; and the public view naming no
 * hidden card -- not on the board, not in the event's text, not in the
 * verdict's sentence (view_redact).  The pages are built from JSON
 * written here in the engines' board shapes (arbiter-replay(1), `arbiter replay
 * --json`), so each test says exactly what the page is given.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "src/cli/auditpage.h"
#include "src/core/carddb.h"
#include "src/core/htmlout.h"
#include "tests/testutil.h"
#include "verifiers/verifier.h"

static cards *db;

static void load_db(void)
{
    char err[1024];
    cr_assert_eq(carddb_load_file(SRC("fixtures/cards/core.json"), &db, err, sizeof err), 0, "%s", err);
}

static void free_db(void)
{
    cards_destroy(&db);
}

static json_t *J(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);
    cr_assert(j, "bad JSON in the test: %s", e.text);
    return j;
}

/* A Snap board after p2's select: p2's hand hidden from the public. */
static const char board_public[] =
    "{\"round\":1,\"turn\":\"p1\",\"step\":\"flip\",\"window\":null,\"chain\":[],\"attack\":null,\"trigger\":null,"
    "\"players\":{"
    "\"p1\":{\"name\":\"alice\",\"active\":{\"face_up\":true,\"card\":\"cor-forge-golem\",\"name\":\"Forge Golem\","
    "\"stack\":[\"cor-forge-golem\"],\"imp\":3000,\"mod\":0,\"total\":3000,\"keywords\":[\"blocker\"]},"
    "\"bench\":[{\"face_up\":false,\"card\":null,\"name\":null},null,null,null],\"fifth\":null,"
    "\"hand\":{\"count\":2,\"cards\":[null,null]},\"locked\":{\"count\":0,\"cards\":[]},"
    "\"reserve\":{\"count\":0,\"cards\":[]},\"graveyard\":[],\"revealed\":1,\"lost\":0,\"swaps_used\":0},"
    "\"p2\":{\"name\":\"bob <b>&\",\"active\":null,\"bench\":[null,null,null,null],\"fifth\":null,"
    "\"hand\":{\"count\":1,\"cards\":[null]},\"locked\":{\"count\":0,\"cards\":[]},"
    "\"reserve\":{\"count\":0,\"cards\":[]},\"graveyard\":[],\"revealed\":0,\"lost\":0,\"swaps_used\":0}},"
    "\"over\":false,\"winner\":null}";

typedef struct {
    auditpage_event ev[2];
    auditpage_in in;
    jtext out;
} page;

/* Two events: #0 the header (ok), #1 p2's select (illegal, snap:9.4's
 * sentence, or the one given), in view v, each with the board above. */
static void make_page(page *p, view_kind v, const char *msg)
{
    memset(p, 0, sizeof *p);
    p->ev[0] = (auditpage_event){.seq = 0, .what = "table match",
                                 .event = J("{\"type\":\"match\",\"format\":\"snap\",\"hidden\":\"open\"}"),
                                 .verdict = J("{\"seq\":0,\"status\":\"ok\"}"), .board = J(board_public)};
    json_t *verdict = json_pack("{s:i, s:s, s:s, s:s}", "seq", 1, "status", "illegal", "rule", "snap:9.4", "msg", msg);
    p->ev[1] = (auditpage_event){.seq = 1, .what = "p2 select",
                                 .event = J(v == VIEW_JUDGE ? "{\"type\":\"select\",\"cards\":[\"aet-aegis-flash\"]}"
                                                            : "{\"type\":\"select\",\"cards\":[null]}"),
                                 .verdict = verdict, .board = J(board_public)};
    if (v != VIEW_JUDGE) {
        for (int i = 0; i < 2; i++) {
            p->ev[i].seen = json_object();
            p->ev[i].hidden = json_object();
            cr_assert_eq(view_strings(p->ev[i].seen, p->ev[i].board, db), 0);
            cr_assert_eq(view_strings(p->ev[i].seen, p->ev[i].event, db), 0);
        }
        json_object_set_new(p->ev[1].hidden, "aet-aegis-flash", json_true());
    }
    p->in = (auditpage_in){.match = "m<1>&\"x'", .view = v,
                           .summary = J("{\"format\":\"snap\",\"engine\":\"snap/2\",\"cards\":\"core@1.1.0\","
                                        "\"status\":\"illegal\",\"winner\":null,\"finished\":false,\"events\":2,"
                                        "\"rounds\":1}"),
                           .players = {"alice", "bob <b>&"}, .db = db, .events = p->ev, .n_events = 2,
                           .checks = "hash chain: intact, 2 links through #1\nseal: MISSING: the record is not sealed\n",
                           .intact = 0, .as_stored = 1, .judged = 1, .all_drawn = 1};
    cr_assert_eq(auditpage_write(&p->in, &p->out), 0);
    cr_assert(!p->out.bad);
}

static void free_page(page *p)
{
    for (int i = 0; i < 2; i++) {
        json_decref(p->ev[i].event);
        json_decref(p->ev[i].verdict);
        json_decref(p->ev[i].board);
        json_decref(p->ev[i].seen);
        json_decref(p->ev[i].hidden);
    }
    json_decref(p->in.summary);
    jtext_free(&p->out);
}

TestSuite(auditpage, .init = load_db, .fini = free_db);

Test(auditpage, htmlout_escapes_text_and_urls)
{
    jtext o = {0};
    htmlout_esc(&o, "<a href=\"x\">Tom & Jerry's</a>");
    cr_assert_str_eq(o.buf, "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
    jtext_reset(&o);
    htmlout_url(&o, "r1/t 2?\"<x>.html");
    cr_assert_str_eq(o.buf, "r1%2Ft%202%3F%22%3Cx%3E.html");
    jtext_reset(&o);
    htmlout_esc(&o, NULL);
    htmlout_url(&o, NULL);
    cr_assert_eq(o.len, 0);
    jtext_free(&o);
}

Test(auditpage, htmlout_save_renames_the_tmp_file)
{
    char dir[] = "/tmp/auditpage-XXXXXX", path[256], tmp[300], buf[64] = "", err[256];
    jtext o = {0};
    cr_assert(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/p.html", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    htmlout_lit(&o, "<p>page</p>");
    cr_assert_eq(htmlout_save(path, &o, err, sizeof err), HTMLOUT_OK, "%s", err);
    cr_assert_neq(access(path, F_OK), -1);
    cr_assert_eq(access(tmp, F_OK), -1, "the .tmp is left behind");
    FILE *f = fopen(path, "r");
    cr_assert(f);
    cr_assert(fgets(buf, sizeof buf, f));
    fclose(f);
    cr_assert_str_eq(buf, "<p>page</p>");
    snprintf(path, sizeof path, "%s/no-such-dir/p.html", dir);
    cr_assert_eq(htmlout_save(path, &o, err, sizeof err), HTMLOUT_EWRITE);
    cr_assert(strstr(err, "no-such-dir"), "the error names the file: %s", err);
    snprintf(path, sizeof path, "%s/p.html", dir);
    unlink(path);
    rmdir(dir);
    jtext_free(&o);
}

Test(auditpage, record_texts_are_escaped)
{
    page p;
    make_page(&p, VIEW_JUDGE, "p2 <i>selected</i> & \"lost\"");
    cr_assert(strstr(p.out.buf, "<h1>Audit of match m&lt;1&gt;&amp;&quot;x&#39;</h1>"), "match id not escaped");
    cr_assert(strstr(p.out.buf, "p2 bob &lt;b&gt;&amp;"), "player id not escaped");
    cr_assert(strstr(p.out.buf, "p2 &lt;i&gt;selected&lt;/i&gt; &amp; &quot;lost&quot;"), "sentence not escaped");
    cr_assert_null(strstr(p.out.buf, "<i>selected"));
    cr_assert_null(strstr(p.out.buf, "<b>&"));
    cr_assert_null(strstr(p.out.buf, "<script"));
    cr_assert_null(strstr(p.out.buf, "http"));
    free_page(&p);
}

Test(auditpage, fault_is_highlighted_with_rule_and_quote)
{
    page p;
    jtext quote = {0};
    const verifier_rule *r = verifier_rule_find("snap:9.4");
    cr_assert(r);
    htmlout_esc(&quote, r->quote);
    make_page(&p, VIEW_JUDGE, "p1 (alice) locked a Support in Round 2.");
    const char *fault = strstr(p.out.buf, "<article class=\"fault\" id=\"f1\">");
    cr_assert(fault, "no fault article for #1");
    cr_assert(strstr(fault, "<span class=\"st bad\">illegal</span> <span class=\"rule\">snap:9.4</span>"));
    cr_assert(strstr(fault, "<p class=\"sent\">p1 (alice) locked a Support in Round 2.</p>"));
    cr_assert(strstr(fault, quote.buf), "the rulebook's quote is not beside the fault");
    cr_assert(strstr(p.out.buf, "<li id=\"e1\" class=\"bad\"><a href=\"#b1\">"), "the timeline row is not highlighted");
    cr_assert_null(strstr(p.out.buf, "id=\"f0\""), "an ok event is not a fault");
    cr_assert(strstr(p.out.buf, "<div class=\"at\" id=\"b1\">"), "no board for #1 in the viewer");
    cr_assert(strstr(p.out.buf, "<span class=\"zn\">active</span>"), "the board is not drawn as zones");
    cr_assert(strstr(p.out.buf, "<li class=\"bad\"><b>seal</b>MISSING"), "a failed check is not marked");
    cr_assert(strstr(p.out.buf, "<b>Forge Golem</b>"));
    cr_assert(strstr(p.out.buf, "cards Aegis Flash"), "the judge's event text names the card");
    jtext_free(&quote);
    free_page(&p);
}

Test(auditpage, public_view_names_no_hidden_card)
{
    page p;
    make_page(&p, VIEW_PUBLIC, "p2 (bob) selected Aegis Flash (aet-aegis-flash), which Forge Golem did not.");
    cr_assert_null(strstr(p.out.buf, "Aegis Flash"), "the public page names the hidden card");
    cr_assert_null(strstr(p.out.buf, "aet-aegis-flash"), "the public page names the hidden card's id");
    cr_assert(strstr(p.out.buf, "p2 (bob) selected a hidden card (a hidden card), which Forge Golem did not."),
              "the sentence is not redacted as it should be");
    cr_assert(strstr(p.out.buf, "cards hidden"), "the event's hidden card is not said hidden");
    cr_assert(strstr(p.out.buf, "<div class=\"c back\" title=\"hidden\">?</div>"), "no card back for the hand");
    free_page(&p);
}

Test(auditpage, redact_keeps_what_the_view_sees)
{
    json_t *seen = json_object(), *hidden = json_object(), *board = J("{\"card\":\"cor-forge-golem\"}");
    cr_assert_eq(view_strings(seen, board, db), 0);
    json_decref(board);
    cr_assert(json_object_get(seen, "Forge Golem"), "a card id's name is seen with it");
    char *s = view_redact("Forge Golem attacked Magma Tortoise.", db, seen, hidden);
    cr_assert_str_eq(s, "Forge Golem attacked a hidden card.");
    free(s);
    /* named by the event's hidden part: redacted even though seen */
    json_object_set_new(hidden, "cor-forge-golem", json_true());
    s = view_redact("Forge Golem attacked.", db, seen, hidden);
    cr_assert_str_eq(s, "a hidden card attacked.");
    free(s);
    /* no card database: nothing can be told, so nothing is said */
    s = view_redact("Forge Golem attacked.", NULL, seen, hidden);
    cr_assert_null(strstr(s, "Forge Golem"));
    free(s);
    json_decref(seen);
    json_decref(hidden);
}
