/* auditpage.c -- a stored match's audit as one self-contained HTML page.
 *
 * What: the page `arbiter audit MATCH --html FILE` writes.  A judge opens
 * it on a laptop or a tablet at the table, or from the tournament's page
 * (which links each match to audit/<match>.html): what the match was,
 * whether its record holds, what went wrong in it and where -- each fault
 * with the rulebook's words beside it and the board it happened on -- and
 * the board after any event of the timeline.
 *
 * Why a page: the text audit is for a terminal; a judge settling a
 * dispute wants the board drawn as a board and the rule quoted, and a
 * player shown the ruling wants to read it without a terminal.  It needs
 * no script (a page saved on a tablet, or opened where scripts are off,
 * reads the same), so choosing an event is a link to the board's anchor
 * and CSS :target shows that board alone.  The boards are therefore all
 * in the page, drawn in advance: every event's up to a bound, beyond it
 * the faults' and every Nth (auditpage.h).
 *
 * How: cmd_audit.c walks the record as the text audit does and gives this
 * module what it found -- the check lines in the text audit's own words,
 * each event with its stored verdict, the verdict judged again where it
 * differs, the board in the view asked for -- and this module only
 * arranges it.  Boards are the engines' board JSON (`arbiter replay
 * --json`'s keys) laid out with CSS grid: each player's side is a row of
 * zones (Snap: active, bench slots, the fifth; Advanced and Master: seven
 * monster zones) and rows of cards (hand, Locked Supports, Reserve, Mana
 * Zone, graveyard), every card a small labelled box, a hidden one a
 * card back; a board whose players are a list of seats (classic Snap, up
 * to eight) is a grid of seats, each a discard pile and a face-down stack,
 * with the common pile and the snap pot in the middle.  Outside the judge view every verdict sentence goes through
 * view_redact() (auditpage.h says why).
 *
 * Escaping and saving are src/core/htmlout.h's, shared with the tournament
 * page.  Errors are the jtext's: sticky, checked once at the end.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logformat/olverdict.h"
#include "src/cli/auditpage.h"
#include "src/core/htmlout.h"
#include "src/core/view.h"
#include "verifiers/verifier.h"

#define put_lit(o, s) htmlout_lit((o), s)

static const char css[] =
    ":root{--fg:#14181f;--bg:#fff;--mut:#5a6270;--line:#c9d1dc;--acc:#0b5394;--head:#eaf0f7;"
    "--bad:#a3231a;--badbg:#fdecea;--warn:#8a5a00;--warnbg:#fff4d6;--ok:#0f5b26;--okbg:#e3f4e8;"
    "--felt:#eef3f8}\n"
    "*{box-sizing:border-box}\n"
    "html{font-size:clamp(14px,0.35vw + 11px,19px);-webkit-text-size-adjust:100%}\n"
    "body{margin:0;font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,\"DejaVu Sans\",sans-serif;"
    "color:var(--fg);background:var(--bg);line-height:1.4}\n"
    "header,main,footer{max-width:96rem;margin:0 auto;padding:0 1rem}\n"
    "header{padding-top:.8rem;padding-bottom:.6rem;border-bottom:.3rem solid var(--acc)}\n"
    "h1{font-size:1.7rem;margin:.1em 0;line-height:1.15;overflow-wrap:anywhere}\n"
    "h2{font-size:1.3rem;margin:1.4em 0 .5em;padding-bottom:.15em;border-bottom:2px solid var(--line);"
    "color:var(--acc)}\n"
    "h3{font-size:1.05rem;margin:0 0 .3em}\n"
    ".meta{color:var(--mut);margin:.2em 0}\n"
    ".vs{font-size:1.15rem;font-weight:600;margin:.2em 0}\n"
    ".badges{display:flex;flex-wrap:wrap;gap:.4em;margin:.5em 0 .2em}\n"
    ".b{display:inline-block;padding:.1em .6em;border-radius:1em;font-weight:600;font-size:.9em;"
    "border:1px solid currentColor;white-space:nowrap}\n"
    ".b.ok{color:var(--ok);background:var(--okbg)}.b.bad{color:var(--bad);background:var(--badbg)}"
    ".b.warn{color:var(--warn);background:var(--warnbg)}.b.n{color:var(--mut);background:var(--head)}\n"
    "nav{margin:.5em 0 0;display:flex;flex-wrap:wrap;gap:.3em 1.2em}\n"
    "a{color:var(--acc)}\n"
    "ul.checks{list-style:none;padding:0;margin:0}\n"
    "ul.checks li{padding:.25em .6em;border-left:.3rem solid var(--ok);margin:.2em 0;background:#f6f8fb;"
    "overflow-wrap:anywhere}\n"
    "ul.checks li.bad{border-left-color:var(--bad);background:var(--badbg)}\n"
    "ul.checks li.note{border-left-color:var(--line)}\n"
    "ul.checks b{margin-right:.4em}\n"
    ".fault{border:2px solid var(--bad);border-radius:.5rem;margin:.8rem 0;overflow:hidden}\n"
    ".fault>.fh{background:var(--badbg);padding:.5rem .8rem}\n"
    ".fault .sent{font-size:1.08rem;font-weight:600;margin:.2em 0}\n"
    ".fault .body{display:grid;grid-template-columns:minmax(16rem,1fr) minmax(0,2.2fr);gap:.8rem;"
    "padding:.6rem .8rem}\n"
    ".remedy{border:2px solid var(--acc);border-radius:.5rem;margin:.8rem 0;overflow:hidden}\n"
    ".remedy>.fh{background:var(--head);padding:.5rem .8rem}\n"
    ".remedy .sent{font-weight:600;margin:.2em 0}\n"
    "ul.later{margin:.2em 0;padding-left:1.2em;columns:2}\n"
    ".remedy .body{display:grid;grid-template-columns:1fr 1fr;gap:.8rem;padding:.6rem .8rem}\n"
    "blockquote{margin:0;padding:.4em .8em;border-left:.3rem solid var(--acc);background:var(--head);"
    "font-family:Georgia,\"DejaVu Serif\",serif}\n"
    "blockquote cite{display:block;font-style:normal;font-family:system-ui,sans-serif;font-size:.8em;"
    "color:var(--mut);margin-top:.4em}\n"
    ".rule{font-family:ui-monospace,\"DejaVu Sans Mono\",monospace;font-size:.9em;background:var(--head);"
    "padding:0 .35em;border-radius:.25em;white-space:nowrap}\n"
    ".st{display:inline-block;min-width:4.6em;text-align:center;font-weight:700;font-size:.8em;"
    "text-transform:uppercase;border-radius:.25em;padding:0 .3em;color:var(--ok);background:var(--okbg)}\n"
    ".st.bad{color:#fff;background:var(--bad)}.st.warn{color:var(--warn);background:var(--warnbg)}\n"
    ".split{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1.45fr);gap:1.2rem;align-items:start}\n"
    "ol.tl{list-style:none;margin:0;padding:0;max-height:88vh;overflow-y:auto;border:1px solid var(--line);"
    "border-radius:.4rem}\n"
    "ol.tl li{border-bottom:1px solid var(--line)}\n"
    "ol.tl li>a,ol.tl li>div{display:block;padding:.25em .6em;color:inherit;text-decoration:none}\n"
    "ol.tl li>a:hover{background:var(--head)}\n"
    "ol.tl li:target{outline:2px solid var(--acc);outline-offset:-2px}\n"
    "ol.tl .sq{display:inline-block;min-width:3.2em;color:var(--mut);font-variant-numeric:tabular-nums}\n"
    "ol.tl .wh{font-weight:600;margin-right:.4em}\n"
    "ol.tl .dt{color:var(--mut);font-size:.85em;overflow-wrap:anywhere}\n"
    "ol.tl li.bad{background:var(--badbg);border-left:.35rem solid var(--bad)}\n"
    "ol.tl li.warn{background:var(--warnbg);border-left:.35rem solid #d39e00}\n"
    "ol.tl .msg{display:block;margin:.15em 0 .1em 3.2em}\n"
    "ol.tl li.bad .msg{font-weight:600;color:var(--bad)}\n"
    "ol.tl blockquote{margin:.2em 0 .3em 3.2em;font-size:.85em}\n"
    ".viewer{position:sticky;top:.5rem}\n"
    ".viewer>.at{display:none}\n"
    ".viewer>.at:target{display:block}\n"
    ".viewer>.at:target~.pick{display:none}\n"
    ".pick{border:2px dashed var(--line);border-radius:.5rem;padding:2rem 1rem;text-align:center;color:var(--mut)}\n"
    ".pick.now{border:0;padding:0;text-align:left;color:inherit}\n"
    ".at h3 .back{font-weight:400;font-size:.85em;margin-left:.6em}\n"
    /* the board */
    ".board{background:var(--felt);border:1px solid var(--line);border-radius:.5rem;padding:.5rem;"
    "display:grid;gap:.5rem}\n"
    ".moment{display:flex;flex-wrap:wrap;gap:.3em 1em;font-weight:600}\n"
    ".mid{background:#fff;border:1px solid var(--line);border-radius:.4rem;padding:.3rem .6rem;font-size:.9em}\n"
    ".side{background:#fff;border:1px solid var(--line);border-radius:.45rem;padding:.4rem;display:grid;gap:.35rem}\n"
    ".side.p1{border-top:.25rem solid #2b6cb0}.side.p2{border-top:.25rem solid #9c4221}\n"
    ".side .who{display:flex;flex-wrap:wrap;gap:.2em 1.1em;align-items:baseline}\n"
    ".side .who b{font-size:1.05em}\n"
    ".side .who span{color:var(--mut);font-size:.9em}\n"
    ".side .who .lp{color:var(--fg);font-weight:700;font-size:1.05em}\n"
    ".zones{display:grid;grid-template-columns:repeat(auto-fill,minmax(6.6rem,1fr));gap:.3rem}\n"
    ".zones.m7{grid-template-columns:repeat(7,minmax(0,1fr))}\n"
    ".seats{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:.4rem}\n"
    ".seats>.side{align-content:start}\n"
    ".zone{border:1px dashed #9aa5b5;border-radius:.35rem;padding:.2rem;min-height:4.6rem;display:flex;"
    "flex-direction:column;gap:.15rem;background:#fafbfd}\n"
    ".zone.act{border:2px solid #5a6b85;background:#f2f5fa}\n"
    ".zn{font-size:.68em;color:var(--mut);text-transform:uppercase;letter-spacing:.04em}\n"
    ".line{display:flex;flex-wrap:wrap;gap:.25rem;align-items:stretch}\n"
    ".line>.zn{flex:0 0 5.2rem;align-self:center;font-size:.72em}\n"
    ".c{border:1px solid #8a94a6;border-left:.3rem solid #8a94a6;border-radius:.3rem;background:#fff;"
    "padding:.1rem .3rem;font-size:.78rem;line-height:1.2;min-width:5.6rem;max-width:9rem;overflow-wrap:anywhere}\n"
    ".c b{display:block;font-weight:600}\n"
    ".c small{display:block;color:var(--mut)}\n"
    ".c.down{background:repeating-linear-gradient(45deg,#f3f5f9 0 .3rem,#e4e9f1 .3rem .6rem)}\n"
    ".c.back{background:repeating-linear-gradient(45deg,#d5dce8 0 .3rem,#c3ccdb .3rem .6rem);"
    "color:#3d4657;min-width:2.6rem;text-align:center;border-left-color:#8a94a6}\n"
    ".c.dp{border-style:dashed;border-left-style:solid}\n"
    ".c.gone{opacity:.75}\n"
    ".k-coreon{border-left-color:#c0392b}.k-fluxion{border-left-color:#2471a3}"
    ".k-synaphera{border-left-color:#1e8449}.k-obscura{border-left-color:#6c3483}"
    ".k-aetherion{border-left-color:#b7950b}\n"
    ".none{color:var(--mut);font-size:.8em;align-self:center}\n"
    "footer{margin-top:2rem;padding-top:.6rem;padding-bottom:1.5rem;border-top:1px solid var(--line);"
    "color:var(--mut);font-size:.85em}\n"
    "@media (max-width:64rem){.split{grid-template-columns:1fr}.viewer{position:static}"
    "ol.tl{max-height:none}.fault .body,.remedy .body{grid-template-columns:1fr}}\n"
    "@media (max-width:40rem){.zones.m7{grid-template-columns:repeat(4,minmax(0,1fr))}h1{font-size:1.35rem}}\n"
    "@media print{.viewer,nav{display:none}ol.tl{max-height:none;overflow:visible}}\n";

/* ---- hidden cards in sentences ------------------------------------------------ */

/* ---- words ------------------------------------------------------------------- */

static const char *status_class(const char *status)
{
    if (!status || !strcmp(status, "ok"))
        return status ? "" : " bad";
    return !strcmp(status, "warning") ? " warn" : " bad";
}

static int is_fault(const auditpage_event *e)
{
    const char *s = json_string_value(json_object_get(e->verdict, "status"));
    return !s || (strcmp(s, "ok") && strcmp(s, "warning")) || e->again;
}

static const char *card_name(const cards *db, const char *id)
{
    const card *c = db && id ? cards_find(db, id) : NULL;
    return c ? c->name : id;
}

static const char *card_cls(const cards *db, const char *id)
{
    const card *c = db && id ? cards_find(db, id) : NULL;
    return c ? card_class_name(c->cls) : NULL;
}

/* ---- the board ------------------------------------------------------------------ */

/* A card known by id (or a HIDDEN value: null, "committed"): a small box. */
static void put_card_id(jtext *o, const cards *db, const json_t *id, const char *extra)
{
    const char *s = json_string_value(id);
    if (!s || !strcmp(s, "committed")) {
        put_lit(o, "<div class=\"c back\" title=\"hidden\">");
        htmlout_str(o, s ? "committed" : "?");
        put_lit(o, "</div>");
        return;
    }
    const char *cls = card_cls(db, s);
    put_lit(o, "<div class=\"c");
    if (cls) {
        put_lit(o, " k-");
        htmlout_esc(o, cls);
    }
    put_lit(o, "\"><b>");
    htmlout_esc(o, card_name(db, s));
    put_lit(o, "</b>");
    if (extra) {
        put_lit(o, "<small>");
        htmlout_esc(o, extra);
        put_lit(o, "</small>");
    }
    put_lit(o, "</div>");
}

/* A monster on the field (Snap MONSTER, or an Advanced/Master zone). */
static void put_monster(jtext *o, const cards *db, const json_t *m)
{
    const json_t *id = json_object_get(m, "card");
    const char *name = json_string_value(json_object_get(m, "name"));
    const char *pos = json_string_value(json_object_get(m, "position"));
    int down = json_is_false(json_object_get(m, "face_up"));
    const char *cls = card_cls(db, json_string_value(id));
    char stats[128] = "";

    if (down && !name) {
        put_lit(o, "<div class=\"c back\" title=\"face-down\">face-down</div>");
        return;
    }
    put_lit(o, "<div class=\"c");
    if (down)
        put_lit(o, " down");
    if (pos && !strcmp(pos, "dp"))
        put_lit(o, " dp");
    if (cls) {
        put_lit(o, " k-");
        htmlout_esc(o, cls);
    }
    put_lit(o, "\"><b>");
    htmlout_esc(o, name ? name : card_name(db, json_string_value(id)));
    put_lit(o, "</b><small>");
    if (down)
        put_lit(o, "face-down");
    if (json_is_integer(json_object_get(m, "total")))
        snprintf(stats, sizeof stats, "IMP %" JSON_INTEGER_FORMAT, json_integer_value(json_object_get(m, "total")));
    else if (json_is_integer(json_object_get(m, "atk")))
        snprintf(stats, sizeof stats, "ATK %" JSON_INTEGER_FORMAT " / DEF %" JSON_INTEGER_FORMAT,
                 json_integer_value(json_object_get(m, "atk")) + json_integer_value(json_object_get(m, "atk_mod")),
                 json_integer_value(json_object_get(m, "def")) + json_integer_value(json_object_get(m, "def_mod")));
    else if (json_is_integer(json_object_get(m, "def")))
        snprintf(stats, sizeof stats, "DEF %" JSON_INTEGER_FORMAT,
                 json_integer_value(json_object_get(m, "def")) + json_integer_value(json_object_get(m, "def_mod")));
    htmlout_str(o, stats);
    if (pos)
        htmlout_str(o, !strcmp(pos, "dp") ? " &#183; DP" : " &#183; AP");
    put_lit(o, "</small>");
    size_t i;
    json_t *k;
    json_array_foreach(json_object_get(m, "keywords"), i, k) {
        htmlout_str(o, i ? ", " : "<small>");
        htmlout_esc(o, json_string_value(k));
    }
    if (json_array_size(json_object_get(m, "keywords")))
        put_lit(o, "</small>");
    if (json_array_size(json_object_get(m, "stack")) > 1)
        htmlout_fmt(o, "<small>%zu stacked</small>", json_array_size(json_object_get(m, "stack")));
    put_lit(o, "</div>");
}

/* A labelled zone box holding one monster or nothing. */
static void put_zone(jtext *o, const cards *db, const char *label, int idx, const json_t *m, int active)
{
    put_lit(o, "<div class=\"zone");
    if (active)
        put_lit(o, " act");
    put_lit(o, "\"><span class=\"zn\">");
    htmlout_str(o, label);
    if (idx >= 0)
        htmlout_fmt(o, " %d", idx);
    put_lit(o, "</span>");
    if (json_is_object(m))
        put_monster(o, db, m);
    else
        put_lit(o, "<span class=\"none\">empty</span>");
    put_lit(o, "</div>");
}

/* A row of cards: a label, then each card of `list` (ids or HIDDEN);
 * `count` (-1: the list's size) may be more than the list holds. */
static void put_line(jtext *o, const cards *db, const char *label, const json_t *list, json_int_t count)
{
    size_t i;
    json_t *c;

    if (count < 0)
        count = (json_int_t)json_array_size(list);
    put_lit(o, "<div class=\"line\"><span class=\"zn\">");
    htmlout_str(o, label);
    htmlout_fmt(o, " (%" JSON_INTEGER_FORMAT ")</span>", count);
    json_array_foreach((json_t *)list, i, c) {
        if (json_is_object(c))   /* a Mana Zone card: {"class","card"} */
            put_card_id(o, db, json_object_get(c, "card"), json_string_value(json_object_get(c, "class")));
        else
            put_card_id(o, db, c, NULL);
    }
    if (!count)
        put_lit(o, "<span class=\"none\">none</span>");
    put_lit(o, "</div>");
}

static void put_counted(jtext *o, const cards *db, const char *label, const json_t *z)
{
    if (json_is_object(z))
        put_line(o, db, label, json_object_get(z, "cards"), json_integer_value(json_object_get(z, "count")));
}

/* "p1 slot 2 (Ember Whelp)": a REF of an attack. */
static void put_ref(jtext *o, const json_t *r)
{
    const json_t *slot = json_object_get(r, "slot");
    const char *name = json_string_value(json_object_get(r, "name"));
    htmlout_esc(o, json_string_value(json_object_get(r, "player")));
    if (json_is_integer(slot))
        htmlout_fmt(o, " zone %" JSON_INTEGER_FORMAT, json_integer_value(slot));
    else if (json_is_string(slot))
        put_lit(o, " active");
    else
        put_lit(o, " directly");
    if (name) {
        put_lit(o, " (");
        htmlout_esc(o, name);
        put_lit(o, ")");
    }
}

/* The window, chain, attack and trigger: what is in the middle of the table. */
static void put_middle(jtext *o, const json_t *b)
{
    const json_t *chain = json_object_get(b, "chain"), *atk = json_object_get(b, "attack");
    const json_t *trig = json_object_get(b, "trigger");
    size_t i;
    json_t *l;

    if (!json_array_size(chain) && !json_is_object(atk) && !json_is_object(trig))
        return;
    put_lit(o, "<div class=\"mid\">");
    if (json_is_object(atk)) {
        put_lit(o, "<div><b>Attack:</b> ");
        put_ref(o, json_object_get(atk, "attacker"));
        put_lit(o, " attacks ");
        put_ref(o, json_object_get(atk, "target"));
        if (json_string_value(json_object_get(atk, "name"))) {
            put_lit(o, " with ");
            htmlout_esc(o, json_string_value(json_object_get(atk, "name")));
        }
        if (json_is_true(json_object_get(atk, "fizzled")))
            put_lit(o, " (fizzled)");
        if (json_is_true(json_object_get(atk, "blocked")))
            put_lit(o, " (blocked)");
        put_lit(o, "</div>");
    }
    if (json_array_size(chain)) {
        put_lit(o, "<div><b>Chain</b> (oldest first): ");
        json_array_foreach((json_t *)chain, i, l) {
            if (i)
                put_lit(o, " &#8594; ");
            htmlout_esc(o, json_string_value(json_object_get(l, "player")));
            put_lit(o, " ");
            htmlout_esc(o, json_string_value(json_object_get(l, "kind")));
            put_lit(o, " <b>");
            htmlout_esc(o, json_string_value(json_object_get(l, "name")));
            put_lit(o, "</b>");
            if (json_is_true(json_object_get(l, "negated")))
                put_lit(o, " (negated)");
        }
        put_lit(o, "</div>");
    }
    if (json_is_object(trig)) {
        put_lit(o, "<div><b>Trigger:</b> ");
        htmlout_esc(o, json_string_value(json_object_get(trig, "player")));
        put_lit(o, " ");
        htmlout_esc(o, json_string_value(json_object_get(trig, "name")));
        if (json_is_true(json_object_get(trig, "negated")))
            put_lit(o, " (negated)");
        put_lit(o, "</div>");
    }
    put_lit(o, "</div>");
}

static void put_side(jtext *o, const cards *db, const json_t *b, const char *who)
{
    const json_t *p = json_object_get(json_object_get(b, "players"), who);
    const json_t *zones = json_object_get(p, "zones"), *mana = json_object_get(p, "mana"), *v;
    size_t i;

    if (!json_is_object(p))
        return;
    put_lit(o, "<div class=\"side ");
    htmlout_str(o, who);
    put_lit(o, "\"><div class=\"who\"><b>");
    htmlout_str(o, who);
    put_lit(o, " &#183; ");
    htmlout_esc(o, json_string_value(json_object_get(p, "name")));
    put_lit(o, "</b>");
    if (json_is_integer(v = json_object_get(p, "lp")))
        htmlout_fmt(o, "<span class=\"lp\">LP %" JSON_INTEGER_FORMAT "</span>", json_integer_value(v));
    if (json_is_integer(v = json_object_get(json_object_get(p, "hand"), "count")))
        htmlout_fmt(o, "<span>hand %" JSON_INTEGER_FORMAT "</span>", json_integer_value(v));
    if (json_is_integer(v = json_object_get(p, "deck")))
        htmlout_fmt(o, "<span>deck %" JSON_INTEGER_FORMAT "</span>", json_integer_value(v));
    if (json_is_integer(v = json_object_get(p, "revealed")))
        htmlout_fmt(o, "<span>revealed %" JSON_INTEGER_FORMAT "</span>", json_integer_value(v));
    if (json_is_integer(v = json_object_get(p, "lost")))
        htmlout_fmt(o, "<span>defeated %" JSON_INTEGER_FORMAT "</span>", json_integer_value(v));
    if (json_is_integer(v = json_object_get(p, "swaps_used")))
        htmlout_fmt(o, "<span>swaps %" JSON_INTEGER_FORMAT "</span>", json_integer_value(v));
    if (json_is_object(mana)) {
        const char *k;
        int any = 0;
        put_lit(o, "<span>mana ready:");
        json_object_foreach(json_object_get(mana, "ready"), k, v)
            if (json_integer_value(v)) {
                htmlout_fmt(o, "%s %" JSON_INTEGER_FORMAT " ", any++ ? "," : "", json_integer_value(v));
                htmlout_esc(o, k);
            }
        htmlout_str(o, any ? "</span>" : " none</span>");
    }
    put_lit(o, "</div>");
    if (json_is_array(zones)) {
        put_lit(o, "<div class=\"zones m7\">");
        json_array_foreach((json_t *)zones, i, v)
            put_zone(o, db, "zone", (int)i, v, 0);
        put_lit(o, "</div>");
        if (json_is_object(mana))
            put_line(o, db, "mana zone", json_object_get(mana, "cards"), -1);
        put_counted(o, db, "hand", json_object_get(p, "hand"));
    } else {
        put_lit(o, "<div class=\"zones\">");
        put_zone(o, db, "active", -1, json_object_get(p, "active"), 1);
        json_array_foreach(json_object_get(p, "bench"), i, v)
            put_zone(o, db, "bench", (int)i, v, 0);
        if (json_is_object(v = json_object_get(p, "fifth"))) {
            put_lit(o, "<div class=\"zone\"><span class=\"zn\">fifth (waiting)</span>");
            put_card_id(o, db, json_object_get(v, "card"), NULL);
            put_lit(o, "</div>");
        }
        put_lit(o, "</div>");
        put_counted(o, db, "hand", json_object_get(p, "hand"));
        put_counted(o, db, "locked", json_object_get(p, "locked"));
        put_counted(o, db, "reserve", json_object_get(p, "reserve"));
    }
    if (json_is_array(v = json_object_get(p, "graveyard")))
        put_line(o, db, "graveyard", v, -1);
    if (json_array_size(v = json_object_get(p, "ongoing")))
        put_line(o, db, "ongoing", v, -1);
    put_lit(o, "</div>");
}

/* "Game over: p2 wins" (or a draw) when the board's game is over: 1. */
static int put_game_over(jtext *o, const json_t *b)
{
    if (!json_is_true(json_object_get(b, "over")))
        return 0;
    const char *w = json_string_value(json_object_get(b, "winner"));
    put_lit(o, "<span>Game over: ");
    if (w) {
        htmlout_esc(o, w);
        put_lit(o, " wins");
    } else {
        htmlout_str(o, json_is_true(json_object_get(b, "draw")) ? "a draw" : "no winner");
    }
    put_lit(o, "</span>");
    return 1;
}

/* A pile as a zone box: its label, its top card face up, its count. */
static void put_pile(jtext *o, const cards *db, const char *label, const json_t *pile)
{
    const json_t *top = json_object_get(pile, "top");
    put_lit(o, "<div class=\"zone\"><span class=\"zn\">");
    htmlout_str(o, label);
    htmlout_fmt(o, " (%" JSON_INTEGER_FORMAT ")</span>", json_integer_value(json_object_get(pile, "count")));
    if (json_is_string(top))
        put_card_id(o, db, top, NULL);
    else
        put_lit(o, "<span class=\"none\">empty</span>");
    put_lit(o, "</div>");
}

/* A board whose players are a list of seats (classic Snap, N players):
 * the moment, each seat clockwise -- its face-down stack (the cards where
 * the view shows them, else its count) and its discard pile --, then the
 * common pile and the snap pot. */
static void put_seats(jtext *o, const cards *db, const json_t *b)
{
    const json_t *seat, *v;
    const char *next = json_string_value(json_object_get(b, "next"));
    size_t i;

    put_lit(o, "<div class=\"board\"><div class=\"moment\">");
    if (!put_game_over(o, b) && next) {
        put_lit(o, "<span>");
        htmlout_esc(o, next);
        put_lit(o, " flips next</span>");
    }
    if (json_integer_value(v = json_object_get(b, "calls_waiting")))
        htmlout_fmt(o, "<span>calls waiting: %" JSON_INTEGER_FORMAT "</span>", json_integer_value(v));
    if (json_integer_value(v = json_object_get(b, "consequences_due")))
        htmlout_fmt(o, "<span>consequences due: %" JSON_INTEGER_FORMAT "</span>", json_integer_value(v));
    put_lit(o, "</div><div class=\"seats\">");
    json_array_foreach(json_object_get(b, "players"), i, seat) {
        const char *who = json_string_value(json_object_get(seat, "seat"));
        put_lit(o, "<div class=\"side ");
        htmlout_esc(o, who ? who : "");
        put_lit(o, "\"><div class=\"who\"><b>");
        htmlout_esc(o, who ? who : "?");
        put_lit(o, "</b>");
        if (json_is_true(json_object_get(seat, "out")))
            put_lit(o, "<span>out of the game</span>");
        put_lit(o, "</div>");
        if (json_is_object(v = json_object_get(seat, "pile"))) {
            put_lit(o, "<div class=\"zones\">");
            put_pile(o, db, "discard pile", v);
            put_lit(o, "</div>");
        }
        v = json_object_get(seat, "stack_cards");
        put_line(o, db, "face-down stack", json_is_array(v) ? v : NULL,
                 json_integer_value(json_object_get(seat, "stack")));
        put_lit(o, "</div>");
    }
    put_lit(o, "</div><div class=\"mid\"><div class=\"zones\">");
    if (json_is_object(v = json_object_get(b, "common_pile")))
        put_pile(o, db, "common pile", v);
    put_pile(o, db, "snap pot", json_object_get(b, "pot"));
    put_lit(o, "</div></div></div>");
}

/* A whole board: the moment, the far sides (pN .. p2), the middle, the
 * near side (p1).  The seats are the board's own. */
static void put_board(jtext *o, const cards *db, const json_t *b)
{
    if (json_is_array(json_object_get(b, "players"))) {
        put_seats(o, db, b);
        return;
    }
    const json_t *round = json_object_get(b, "round");
    const char *turn = json_string_value(json_object_get(b, "turn"));
    const char *step = json_string_value(json_object_get(b, "step"));
    const char *window = json_string_value(json_object_get(b, "window"));

    put_lit(o, "<div class=\"board\"><div class=\"moment\">");
    put_game_over(o, b);
    if (json_integer_value(round))
        htmlout_fmt(o, "<span>Round %" JSON_INTEGER_FORMAT "</span>", json_integer_value(round));
    else
        put_lit(o, "<span>Setup</span>");
    if (turn) {
        put_lit(o, "<span>");
        htmlout_esc(o, turn);
        put_lit(o, " to play</span>");
    }
    if (step) {
        put_lit(o, "<span>");
        htmlout_esc(o, step);
        put_lit(o, " step</span>");
    }
    if (window) {
        put_lit(o, "<span>window: ");
        htmlout_esc(o, window);
        put_lit(o, "</span>");
    }
    put_lit(o, "</div>");
    for (int p = OL_PLAYERS_MAX - 1; p >= 1; p--)
        put_side(o, db, b, ol_player_name((ol_player)p));
    put_middle(o, b);
    put_side(o, db, b, ol_player_name(OL_P1));
    put_lit(o, "</div>");
}

/* ---- the timeline's pieces -------------------------------------------------------- */

/* A verdict's sentence, as the page's view may read it. */
static void put_sentence(jtext *o, const auditpage_in *in, const auditpage_event *e, const json_t *verdict)
{
    const char *msg = json_string_value(json_object_get(verdict, "msg"));
    if (!msg)
        return;
    if (in->view == VIEW_JUDGE) {
        htmlout_esc(o, msg);
        return;
    }
    char *safe = view_redact(msg, in->db, e->seen, e->hidden);
    if (!safe)
        o->bad = 1;
    htmlout_esc(o, safe);
    free(safe);
}

/* One value of an event, in words: a card id as its name, null as hidden. */
static void put_value(jtext *o, const cards *db, const json_t *v)
{
    size_t i;
    json_t *x;

    if (json_is_null(v))
        put_lit(o, "hidden");
    else if (json_is_string(v))
        htmlout_esc(o, card_name(db, json_string_value(v)));
    else if (json_is_integer(v))
        htmlout_fmt(o, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    else if (json_is_boolean(v))
        htmlout_str(o, json_is_true(v) ? "yes" : "no");
    else if (json_is_object(v) && json_object_get(v, "c"))
        put_lit(o, "committed");
    else if (json_is_object(v)) {
        const char *k;
        int n = 0;
        put_lit(o, "(");
        json_object_foreach((json_t *)v, k, x) {
            htmlout_str(o, n++ ? ", " : "");
            htmlout_esc(o, k);
            put_lit(o, " ");
            put_value(o, db, x);
        }
        put_lit(o, ")");
    } else if (json_is_array(v)) {
        json_array_foreach((json_t *)v, i, x) {
            if (i)
                put_lit(o, ", ");
            put_value(o, db, x);
        }
    }
}

/* What the event says beyond who and what: "slot 1, card Magma Tortoise". */
static void put_details(jtext *o, const auditpage_in *in, const json_t *ev)
{
    static const char *const skip[] = {"match", "seq", "type", "by", "nonce", "t", "players", "rules", "decks"};
    const char *k;
    json_t *v;
    int n = 0;

    json_object_foreach((json_t *)ev, k, v) {
        size_t i;
        for (i = 0; i < sizeof skip / sizeof skip[0] && strcmp(k, skip[i]); i++)
            ;
        if (i < sizeof skip / sizeof skip[0])
            continue;
        htmlout_str(o, n++ ? "; " : "");
        htmlout_esc(o, k);
        put_lit(o, " ");
        put_value(o, in->db, v);
    }
}

static void put_status(jtext *o, const char *status)
{
    put_lit(o, "<span class=\"st");
    htmlout_str(o, status_class(status));
    put_lit(o, "\">");
    htmlout_esc(o, status ? status : "unreadable");
    put_lit(o, "</span>");
}

static void put_rule(jtext *o, const json_t *verdict)
{
    const char *rule = json_string_value(json_object_get(verdict, "rule"));
    if (!rule)
        return;
    put_lit(o, " <span class=\"rule\">");
    htmlout_esc(o, rule);
    put_lit(o, "</span>");
}

/* The rulebook's words for the verdict's rule, with the rule's summary. */
static void put_quote(jtext *o, const json_t *verdict)
{
    const char *id = json_string_value(json_object_get(verdict, "rule"));
    const verifier_rule *r = id ? verifier_rule_find(id) : NULL;
    if (!r)
        return;
    put_lit(o, "<blockquote>&#8220;");
    htmlout_esc(o, r->quote);
    put_lit(o, "&#8221;<cite>");
    htmlout_esc(o, r->id);
    put_lit(o, " &#8212; ");
    htmlout_esc(o, r->summary);
    put_lit(o, "</cite></blockquote>");
}

/* "#16 p1 lock": the event's title, then its details. */
static void put_title(jtext *o, const auditpage_in *in, const auditpage_event *e)
{
    htmlout_fmt(o, "<span class=\"sq\">#%" PRIu64 "</span> <span class=\"wh\">", e->seq);
    htmlout_esc(o, e->what);
    put_lit(o, "</span>");
    if (e->event) {
        put_lit(o, " <span class=\"dt\">");
        put_details(o, in, e->event);
        put_lit(o, "</span>");
    }
}

/* ---- the page's sections ------------------------------------------------------------- */

static size_t count_faults(const auditpage_in *in)
{
    size_t n = 0;
    for (size_t i = 0; i < in->n_events; i++)
        n += (size_t)is_fault(&in->events[i]);
    return n;
}

static void put_badge(jtext *o, const char *cls, const char *text)
{
    put_lit(o, "<span class=\"b ");
    htmlout_str(o, cls);
    put_lit(o, "\">");
    htmlout_esc(o, text);
    put_lit(o, "</span>");
}

static void put_head(jtext *o, const auditpage_in *in, size_t faults)
{
    const json_t *s = in->summary;
    const char *status = json_string_value(json_object_get(s, "status"));
    const char *winner = json_string_value(json_object_get(s, "winner"));
    const char *format = json_string_value(json_object_get(s, "format"));

    put_lit(o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>Audit of ");
    htmlout_esc(o, in->match);
    put_lit(o, "</title>\n<style>\n");
    htmlout_str(o, css);
    put_lit(o, "</style>\n</head>\n<body>\n<header>\n<h1>");
    htmlout_str(o, in->broadcast ? "Broadcast of match " : "Audit of match ");
    htmlout_esc(o, in->match);
    put_lit(o, "</h1>\n<p class=\"vs\">");
    for (unsigned p = 0; p < (in->n_players < 2 ? 2 : in->n_players) && p < OL_PLAYERS_MAX; p++) {
        if (p)
            put_lit(o, " &#8212; ");
        htmlout_str(o, ol_player_name((ol_player)p));
        put_lit(o, " ");
        htmlout_esc(o, in->players[p] ? in->players[p] : "?");
    }
    put_lit(o, "</p>\n<p class=\"meta\">");
    htmlout_esc(o, format ? format : "unknown format");
    put_lit(o, " &#183; judged by ");
    htmlout_esc(o, json_string_value(json_object_get(s, "engine")));
    put_lit(o, " &#183; cards ");
    htmlout_esc(o, json_string_value(json_object_get(s, "cards")));
    htmlout_fmt(o, " &#183; %" JSON_INTEGER_FORMAT " events, round %" JSON_INTEGER_FORMAT,
                json_integer_value(json_object_get(s, "events")), json_integer_value(json_object_get(s, "rounds")));
    if (json_string_value(json_object_get(s, "tournament"))) {
        put_lit(o, " &#183; tournament ");
        htmlout_esc(o, json_string_value(json_object_get(s, "tournament")));
    }
    put_lit(o, "</p>\n<div class=\"badges\">");
    put_badge(o, status && !strcmp(status, "legal") ? "ok" : "bad", status ? status : "no status");
    if (json_is_true(json_object_get(s, "finished"))) {
        char w[64];
        snprintf(w, sizeof w, "finished, %s%s",
                 winner ? winner : json_is_true(json_object_get(s, "draw")) ? "a draw" : "no winner",
                 winner ? " wins" : "");
        put_badge(o, "n", w);
    } else {
        put_badge(o, "warn", "live (not finished)");
    }
    if (!in->broadcast) {   /* a broadcast page checks no record */
        put_badge(o, in->intact ? "ok" : "bad", in->intact ? "record intact" : "record NOT intact");
        put_badge(o, !in->judged ? "warn" : in->as_stored ? "ok" : "bad",
                  !in->judged ? "not judged again" : in->as_stored ? "judged again: as stored" : "judged again: differs");
    }
    if (faults) {
        char f[64];
        snprintf(f, sizeof f, "%zu fault%s", faults, faults == 1 ? "" : "s");
        put_badge(o, "bad", f);
    }
    put_lit(o, "<span class=\"b n\">");
    htmlout_str(o, in->broadcast ? "broadcast (the judge&#8217;s, late)" : view_name(in->view));
    put_lit(o, " view</span></div>\n<nav><a href=\"#checks\">Record checks</a><a href=\"#faults\">Faults</a>"
               "<a href=\"#timeline\">Timeline and boards</a></nav>\n</header>\n<main>\n");
}

/* One line of the text audit: "hash chain: intact, ..." -- bold label, its
 * words, marked as a finding when the audit's words say something failed. */
static void put_check(jtext *o, const char *line, size_t len)
{
    static const char *const bad[] = {"BROKEN", "MISSING", "ALTERED", "UNREADABLE", "NOT ", "differ", "diverge",
                                      "not the", "events were"};
    char *l = strndup(line, len);
    if (!l) {
        o->bad = 1;
        return;
    }
    const char *cls = strstr(l, "the store lists that key") ? "note" : "";
    for (size_t i = 0; i < sizeof bad / sizeof bad[0] && !cls[0]; i++)
        if (strstr(l, bad[i]))
            cls = "bad";
    char *colon = strstr(l, ": ");
    put_lit(o, "<li class=\"");
    htmlout_str(o, cls);
    put_lit(o, "\">");
    if (colon) {
        *colon = 0;
        put_lit(o, "<b>");
        htmlout_esc(o, l);
        put_lit(o, "</b>");
        htmlout_esc(o, colon + 2);
    } else {
        htmlout_esc(o, l);
    }
    put_lit(o, "</li>\n");
    free(l);
}

static void put_checks(jtext *o, const auditpage_in *in)
{
    put_lit(o, "<section id=\"checks\">\n<h2>Record checks</h2>\n<ul class=\"checks\">\n");
    for (const char *p = in->checks ? in->checks : ""; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len)
            put_check(o, p, len);
        p += len + (nl ? 1 : 0);
    }
    put_lit(o, "</ul>\n</section>\n");
}

/* A verdict judged again otherwise than stored: what it is now. */
static void put_again(jtext *o, const auditpage_in *in, const auditpage_event *e)
{
    if (!e->again)
        return;
    put_lit(o, "<div class=\"msg\">judged again: ");
    put_status(o, json_string_value(json_object_get(e->again, "status")));
    put_rule(o, e->again);
    put_lit(o, " ");
    put_sentence(o, in, e, e->again);
    put_lit(o, "</div>");
}

static void put_faults(jtext *o, const auditpage_in *in, size_t faults)
{
    htmlout_fmt(o, "<section id=\"faults\">\n<h2>Faults (%zu)</h2>\n", faults);
    if (!faults)
        put_lit(o, "<p>Every verdict is ok or a warning, and judged again as stored.</p>\n");
    for (size_t i = 0; i < in->n_events; i++) {
        const auditpage_event *e = &in->events[i];
        if (!is_fault(e))
            continue;
        htmlout_fmt(o, "<article class=\"fault\" id=\"f%" PRIu64 "\"><div class=\"fh\"><h3>", e->seq);
        put_title(o, in, e);
        put_lit(o, "</h3><div>");
        put_status(o, json_string_value(json_object_get(e->verdict, "status")));
        put_rule(o, e->verdict);
        htmlout_fmt(o, " <a href=\"#e%" PRIu64 "\">in the timeline</a></div><p class=\"sent\">", e->seq);
        put_sentence(o, in, e, e->verdict);
        put_lit(o, "</p>");
        put_again(o, in, e);
        put_lit(o, "</div><div class=\"body\"><div>");
        put_quote(o, e->verdict);
        if (e->again)
            put_quote(o, e->again);
        put_lit(o, "</div><div>");
        if (e->board) {
            htmlout_fmt(o, "<div class=\"zn\">the board after #%" PRIu64
                           " (an illegal action changes nothing: the board it was tried on)</div>", e->seq);
            put_board(o, in->db, e->board);
        } else {
            put_lit(o, "<p class=\"none\">no board: the match has no engine to draw it</p>");
        }
        put_lit(o, "</div></div></article>\n");
    }
    put_lit(o, "</section>\n");
}

/* SPEC.md 8.1: each judge's remedy -- what it was, who gave it, what it
 * made of the held events, and the board on both sides: the one the match
 * paused on (drawn after the illegal action, a fault) and the one after. */
static void put_remedies(jtext *o, const auditpage_in *in)
{
    size_t n = 0;
    for (size_t i = 0; i < in->n_events; i++)
        n += in->events[i].later != NULL;
    if (!n)
        return;
    htmlout_fmt(o, "<section id=\"remedies\">\n<h2>Remedies (%zu)</h2>\n", n);
    for (size_t i = 0; i < in->n_events; i++) {
        const auditpage_event *e = &in->events[i], *before = NULL;
        if (!e->later)
            continue;
        for (size_t k = 0; k < in->n_events; k++)
            if (in->events[k].seq == e->remedy_for)
                before = &in->events[k];
        const char *remedy = json_string_value(json_object_get(e->event, "remedy"));
        htmlout_fmt(o, "<article class=\"remedy\" id=\"r%" PRIu64 "\"><div class=\"fh\"><h3><a href=\"#e%" PRIu64
                       "\">#%" PRIu64 "</a> the judge&#8217;s remedy: ", e->seq, e->seq, e->seq);
        htmlout_esc(o, remedy ? remedy : "game loss");
        htmlout_fmt(o, ", for the illegal action at <a href=\"#e%" PRIu64 "\">#%" PRIu64 "</a></h3><div>given by ",
                    e->remedy_for, e->remedy_for);
        htmlout_esc(o, e->sender && e->sender[0] ? e->sender : "(no sender recorded)");
        put_lit(o, "</div><p class=\"sent\">");
        put_sentence(o, in, e, e->verdict);
        put_lit(o, "</p><ul class=\"later\">");
        size_t k;
        json_t *v;
        json_array_foreach(e->later, k, v) {
            htmlout_fmt(o, "<li><a href=\"#e%" PRIu64 "\">#%" PRIu64 "</a> ",
                        (uint64_t)json_integer_value(json_object_get(v, "seq")),
                        (uint64_t)json_integer_value(json_object_get(v, "seq")));
            put_status(o, json_string_value(json_object_get(v, "status")));
            put_rule(o, v);
            put_lit(o, " ");
            put_sentence(o, in, e, v);
            put_lit(o, "</li>");
        }
        put_lit(o, "</ul></div><div class=\"body\"><div>");
        if (before && before->board) {
            htmlout_fmt(o, "<div class=\"zn\">the board it paused on, after #%" PRIu64 "</div>", before->seq);
            put_board(o, in->db, before->board);
        }
        put_lit(o, "</div><div>");
        if (e->board) {
            htmlout_fmt(o, "<div class=\"zn\">the board after the remedy, #%" PRIu64 "</div>", e->seq);
            put_board(o, in->db, e->board);
        }
        put_lit(o, "</div></div></article>\n");
    }
    put_lit(o, "</section>\n");
}

static void put_timeline(jtext *o, const auditpage_in *in)
{
    size_t i;

    put_lit(o, "<section id=\"timeline\">\n<h2>Timeline and boards</h2>\n<div class=\"split\">\n<ol class=\"tl\">\n");
    for (i = 0; i < in->n_events; i++) {
        const auditpage_event *e = &in->events[i];
        const char *status = json_string_value(json_object_get(e->verdict, "status"));
        htmlout_fmt(o, "<li id=\"e%" PRIu64 "\" class=\"%s\">", e->seq,
                    is_fault(e) ? "bad" : status && !strcmp(status, "warning") ? "warn" : "");
        if (e->board)
            htmlout_fmt(o, "<a href=\"#b%" PRIu64 "\">", e->seq);
        else
            put_lit(o, "<div>");
        put_title(o, in, e);
        put_lit(o, " ");
        put_status(o, status);
        put_rule(o, e->verdict);
        if (json_string_value(json_object_get(e->verdict, "msg"))) {
            put_lit(o, "<span class=\"msg\">");
            put_sentence(o, in, e, e->verdict);
            put_lit(o, "</span>");
        }
        put_again(o, in, e);
        if (is_fault(e))
            put_quote(o, e->verdict);
        htmlout_str(o, e->board ? "</a></li>\n" : "</div></li>\n");
    }
    put_lit(o, "</ol>\n<div class=\"viewer\">\n");
    for (i = 0; i < in->n_events; i++) {
        const auditpage_event *e = &in->events[i];
        if (!e->board)
            continue;
        htmlout_fmt(o, "<div class=\"at\" id=\"b%" PRIu64 "\"><h3>Board after #%" PRIu64 " ", e->seq, e->seq);
        htmlout_esc(o, e->what);
        put_lit(o, " ");
        put_status(o, json_string_value(json_object_get(e->verdict, "status")));
        htmlout_fmt(o, "<a class=\"back\" href=\"#e%" PRIu64 "\">back to the timeline</a></h3>", e->seq);
        put_board(o, in->db, e->board);
        put_lit(o, "</div>\n");
    }
    if (in->broadcast && in->n_events && in->events[in->n_events - 1].board) {
        /* the board a stream shows: after the last event let out */
        const auditpage_event *e = &in->events[in->n_events - 1];
        htmlout_fmt(o, "<div class=\"pick now\"><h3>Board after #%" PRIu64 " ", e->seq);
        htmlout_esc(o, e->what);
        put_lit(o, "</h3>");
        put_board(o, in->db, e->board);
        put_lit(o, "</div>\n</div>\n</div>\n</section>\n");
        return;
    }
    put_lit(o, "<div class=\"pick\">Choose an event in the timeline to see the board after it");
    if (!in->all_drawn)
        htmlout_fmt(o, " (this match has more than %d events: the boards drawn are the faults&#8217;, every "
                       "%d&#8211;th event&#8217;s and the last one&#8217;s; the events without a board are not links)",
                    AUDITPAGE_BOUND, AUDITPAGE_EVERY);
    put_lit(o, ".</div>\n</div>\n</div>\n</section>\n");
}

static void put_foot(jtext *o, const auditpage_in *in)
{
    put_lit(o, "</main>\n<footer>\n<p>Drawn in the ");
    htmlout_str(o, view_name(in->view));
    put_lit(o, " view: ");
    htmlout_str(o, in->view == VIEW_JUDGE    ? "every hidden card the engine knows is shown."
                   : in->view == VIEW_PUBLIC ? "no hidden card is named; hidden cards are card backs, and a "
                                               "sentence naming one says &#8220;a hidden card&#8221;."
                                             : "that player&#8217;s own hidden cards are shown, none of the other&#8217;s.");
    htmlout_fmt(o, " Boards are those after each event; every event&#8217;s board is drawn for a match of up to "
                   "%d events, beyond that the faults&#8217;, every %d&#8211;th event&#8217;s and the last one&#8217;s.",
                AUDITPAGE_BOUND, AUDITPAGE_EVERY);
    put_lit(o, "</p>\n<p>Written by <code>arbiter audit --html</code>");
    if (in->generated) {
        put_lit(o, " on ");
        htmlout_esc(o, in->generated);
    }
    put_lit(o, ". The record checks are the text audit&#8217;s own sentences.</p>\n</footer>\n</body>\n</html>\n");
}

int auditpage_write(const auditpage_in *in, jtext *out)
{
    size_t faults = count_faults(in);

    put_head(out, in, faults);
    put_checks(out, in);
    put_faults(out, in, faults);
    put_remedies(out, in);
    put_timeline(out, in);
    put_foot(out, in);
    return out->bad ? -1 : 0;
}
