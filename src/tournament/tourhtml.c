/* tourhtml.c -- a tournament as one self-contained HTML page.
 *
 * An organiser puts the page on the hall's projector between rounds, or on
 * a website after the event; a player reads it on a phone.  So it is one
 * file that loads nothing: the CSS is inline, the charts are inline SVG,
 * and there is no script at all -- what a browser shows is the HTML as
 * written.  It is large on a projector (the root font grows with the
 * window), and on a narrow screen the wide tables scroll sideways inside
 * their own box and the less needed columns are hidden.
 *
 * Everything shown is computed by src/tournament/tournament.h: this file only
 * arranges it.  The standings are those `arbiter tournament standings`
 * prints by default (after the last Swiss round published), and the final
 * standings (T38) as well once an elimination round is published.  The
 * bracket is a CSS grid of columns, one per elimination round; each game
 * sits in a slot of equal share of its column's height, so that a game is
 * level with the middle of the two games that feed it (T36: Game #k of a
 * round meets the winners of Game #k and Game #(M + 1 - k) of the round
 * before), and the connectors are borders of the slots.
 *
 * Escaping: every string that did not come from this file goes through
 * put_esc() (src/core/htmlout.h's htmlout_esc) (& < > " ' as entities), and a match id in a link is
 * percent-encoded besides (put_url()).  Numbers are written with put_fmt(),
 * which is used for nothing else.
 *
 * The sentences tournament.h writes (alarms, why a result is pending) name
 * players by id and the page's readers know them by name: put_sentence()
 * writes each word that is a player's id as the name, and leaves out the
 * ruling numbers, which are for judges (TOURNAMENT.md), not players.
 * Ruling numbers are in none of the page's own words either.
 *
 * The same file writes the two pages to print of a round (tourhtml_wall,
 * tourhtml_slips) with the page's style and a print style on top, so that
 * names, rounds and standings look and read the same on the wall, on the
 * tables and on the screen.
 *
 * Errors are the jtext's: sticky, checked once at the end.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "src/core/htmlout.h"
#include "src/tournament/tourhtml.h"
#include "src/tournament/tourstats.h"

/* ---- writing ---------------------------------------------------------------- */

/* The shared writers (src/core/htmlout.h), under this file's short names. */
#define put_lit(o, s) htmlout_lit((o), s)
#define put_str htmlout_str
#define put_esc htmlout_esc
#define put_url htmlout_url
#define put_fmt htmlout_fmt

/* ---- the style -------------------------------------------------------------------- */

static const char css[] =
    ":root{--fg:#14181f;--bg:#fff;--mut:#5a6270;--line:#c9d1dc;--acc:#0b5394;--head:#eaf0f7;"
    "--row:#f6f8fb;--win:#dff2e4;--winfg:#0f5b26;--warn:#a3231a;--tag:#fdebc8}\n"
    "*{box-sizing:border-box}\n"
    "html{font-size:clamp(15px,0.55vw + 11px,26px);-webkit-text-size-adjust:100%}\n"
    "body{margin:0;font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,\"DejaVu Sans\",sans-serif;"
    "color:var(--fg);background:var(--bg);line-height:1.4}\n"
    "header,main,footer{max-width:80rem;margin:0 auto;padding:0 1rem}\n"
    "header{padding-top:.8rem;padding-bottom:.6rem;border-bottom:.3rem solid var(--acc)}\n"
    "h1{font-size:2.1rem;margin:.1em 0;line-height:1.15;overflow-wrap:anywhere}\n"
    "h2{font-size:1.45rem;margin:1.6em 0 .5em;padding-bottom:.15em;border-bottom:2px solid var(--line);"
    "color:var(--acc)}\n"
    "h3{font-size:1.1rem;margin:1.2em 0 .3em}\n"
    ".meta{color:var(--mut);margin:.2em 0}\n"
    ".status{font-size:1.15rem;font-weight:600;margin:.3em 0}\n"
    ".clock{font-size:1.15rem;margin:.3em 0}\n"
    "nav{margin:.5em 0 0;display:flex;flex-wrap:wrap;gap:.3em 1.2em}\n"
    "nav a,a{color:var(--acc)}\n"
    ".scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}\n"
    "table{border-collapse:collapse;width:100%}\n"
    "th,td{padding:.3em .6em;text-align:left;border-bottom:1px solid var(--line);vertical-align:top}\n"
    "th{background:var(--head);font-weight:600;white-space:nowrap}\n"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "tbody tr:nth-child(even){background:var(--row)}\n"
    ".pl{font-weight:600;overflow-wrap:anywhere}\n"
    ".id{color:var(--mut);font-size:.8em;margin-left:.3em}\n"
    ".w{color:var(--winfg)}\n"
    ".w .pl::before{content:\"\\2714\\00a0\"}\n"
    ".tag{display:inline-block;padding:0 .45em;margin-left:.3em;border-radius:.3em;font-size:.78em;"
    "background:var(--tag);font-weight:600;white-space:nowrap}\n"
    ".note{background:#fff6d8;border-left:.3rem solid #d39e00;padding:.4em .8em;margin:.5em 0}\n"
    ".small{font-size:.85em;color:var(--mut)}\n"
    ".pending{color:var(--warn);font-weight:600}\n"
    "tr.resolved{opacity:.45}\n"
    "tr.open td:first-child{border-left:.3rem solid var(--warn)}\n"
    ".cards{display:flex;flex-wrap:wrap;gap:.6rem;margin:.6rem 0}\n"
    ".card{border:1px solid var(--line);border-radius:.4rem;padding:.4rem .8rem;min-width:8rem}\n"
    ".card b{display:block;font-size:1.6rem}\n"
    ".charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(18rem,1fr));gap:1.2rem}\n"
    "figure{margin:0}\n"
    "figcaption{font-weight:600;margin-bottom:.3em}\n"
    "svg{width:100%;height:auto;max-height:22rem}\n"
    ".legend span{display:inline-block;margin-right:1em;white-space:nowrap}\n"
    ".legend i{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:-.05em}\n"
    /* the bracket: one column per elimination round, slots of equal share */
    ".bracket{display:grid;column-gap:2rem;overflow-x:auto;padding-bottom:.5rem}\n"
    ".bracket h3{margin:.2em 0 .4em}\n"
    ".bcol{display:flex;flex-direction:column}\n"
    ".slot{flex:1 1 0;display:flex;flex-direction:column;justify-content:center;position:relative;"
    "padding:.35rem 0}\n"
    ".game{border:2px solid var(--line);border-radius:.45rem;background:var(--bg);position:relative;"
    "min-width:9rem}\n"
    ".game .p{display:flex;justify-content:space-between;gap:.5em;padding:.25em .5em}\n"
    ".game .p+.p{border-top:1px solid var(--line)}\n"
    ".game .p.w{background:var(--win);font-weight:700}\n"
    ".game .p .n{font-variant-numeric:tabular-nums}\n"
    ".game .g{font-size:.75em;color:var(--mut);padding:.1em .5em;border-top:1px solid var(--line)}\n"
    ".game.tbd{border-style:dashed;color:var(--mut)}\n"
    ".game.next{border-style:dashed}\n"
    "tr.in-cut td:first-child{border-left:.3rem solid var(--acc)}\n"
    ".tag.cut{background:var(--win);color:var(--winfg)}\n"
    ".seed{color:var(--mut);font-size:.8em;margin-right:.3em}\n"
    ".bcol:not(:last-child) .game::after{content:\"\";position:absolute;top:50%;right:calc(-1rem - 2px);"
    "width:1rem;border-top:2px solid var(--line)}\n"
    ".bcol:not(:first-child) .game::before{content:\"\";position:absolute;top:50%;left:calc(-1rem - 2px);"
    "width:1rem;border-top:2px solid var(--line)}\n"
    ".bcol:not(:last-child) .slot:nth-child(odd)::after{content:\"\";position:absolute;right:-1rem;top:50%;"
    "bottom:0;border-right:2px solid var(--line)}\n"
    ".bcol:not(:last-child) .slot:nth-child(even)::after{content:\"\";position:absolute;right:-1rem;top:0;"
    "bottom:50%;border-right:2px solid var(--line)}\n"
    "footer{margin-top:2rem;padding-top:.6rem;padding-bottom:1.5rem;border-top:1px solid var(--line);"
    "color:var(--mut);font-size:.85em}\n"
    "@media (max-width:42rem){h1{font-size:1.6rem}.hide-s{display:none}th,td{padding:.25em .35em}}\n"
    "@media print{nav{display:none}a{color:inherit;text-decoration:none}}\n"
    /* the projector: about 1/50 of the screen's width a letter (38 px on a
       1920 px wide screen, 26 px on a 1280 px one), the least needed
       columns and the small print hidden, the width of the screen used */
    "html.projector{font-size:clamp(20px,2vw,56px)}\n"
    ".projector header,.projector main,.projector footer{max-width:none;padding:0 2vw}\n"
    ".projector .hide-s,.projector .id,.projector nav,.projector footer{display:none}\n"
    ".projector .small{font-size:.9em}\n"
    ".projector th,.projector td{padding:.15em .4em}\n";

/* ---- the page's state ---------------------------------------------------------------- */

typedef struct {
    const tournament *t;
    const tour_results *r;
    const tourhtml_opts *o;
    jtext *out;
    const tour_structure *st;
    uint32_t published;          /* the last round published                    */
    uint32_t last_swiss;         /* the last Swiss round published (0: none)    */
    tour_standings *swiss;       /* after last_swiss; NULL when none            */
    tour_standings *final;       /* once an elimination round is published      */
    int seeds[TOUR_CUT_MAX];     /* the cut (T33), when it can be computed      */
    uint32_t n_seeds;
    const tour_game **placed;    /* this tournament's records with a round and
                                    a table, by (round, table): put_records_at */
    size_t n_placed;
} page;

static const char *outcome_word(tour_outcome x)
{
    switch (x) {
    case TOUR_WIN: return "win";
    case TOUR_LOSS: return "loss";
    case TOUR_DRAW_WIN: return "draw, won";
    case TOUR_DRAW_LOSS: return "draw, lost";
    case TOUR_INTENTIONAL_DRAW: return "intentional draw";
    case TOUR_BYE: return "bye";
    case TOUR_UNPAIRED_LOSS: return "unpaired loss";
    case TOUR_DOUBLE_LOSS: return "double loss";
    case TOUR_NO_RESULT: return "no result";
    case TOUR_PENDING: break;
    }
    return "pending";
}

static const char *by_word(tour_by b)
{
    switch (b) {
    case TOUR_BY_ENGINE: return "by the engine";
    case TOUR_BY_TIME: return "at time";
    case TOUR_BY_ORGANISER: return "by the organiser";
    case TOUR_BY_JUDGE: return "by the head judge";
    case TOUR_BY_NONE: break;
    }
    return "";
}

static int is_winner(tour_outcome x)
{
    return x == TOUR_WIN || x == TOUR_DRAW_WIN || x == TOUR_BYE;
}

/* Name and id of player i ("-" for nobody). */
static void put_player(page *p, int i)
{
    const tour_player *pl = i >= 0 ? tournament_player(p->t, (size_t)i) : NULL;

    if (!pl) {
        put_lit(p->out, "<span class=\"small\">&#8212;</span>");
        return;
    }
    put_lit(p->out, "<span class=\"pl\">");
    put_esc(p->out, pl->name && pl->name[0] ? pl->name : pl->id);
    put_lit(p->out, "</span>");
    if (pl->name && pl->name[0] && strcmp(pl->name, pl->id)) {
        put_lit(p->out, "<span class=\"id\">");
        put_esc(p->out, pl->id);
        put_lit(p->out, "</span>");
    }
}

/* A match id linked to its audit page (`arbiter audit MATCH --html
 * audit/MATCH.html` writes audit/<match>.html beside this page). */
static void put_match(page *p, const char *match)
{
    if (!match || !match[0]) {
        put_lit(p->out, "<span class=\"small\">no record</span>");
        return;
    }
    put_lit(p->out, "<a href=\"audit/");
    put_url(p->out, match);
    put_lit(p->out, ".html\">");
    put_esc(p->out, match);
    put_lit(p->out, "</a>");
}

/* ---- sentences of tournament.h, for people ------------------------------------------------ */

/* tournament.h's sentences (an alarm, why a result is pending, how it was
 * decided) name players by id and may cite a ruling.  The page is read by
 * players, who know each other by name and the rulings not at all: each
 * word of a sentence that is a player's id is written as the player's name,
 * and a parenthesis of ruling numbers ("(T17)", "(T19, T20)") is left out.
 * A word is a run of letters, digits, '_', '-' and '.'; a full stop at its
 * end is tried without when the word with it is nobody's id. */

static int is_word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

/* The length of " (T1, T2)" (its leading space optional) at s, or 0. */
static size_t ruling_paren(const char *s)
{
    const char *q = s + (*s == ' ');

    if (*q++ != '(')
        return 0;
    for (;;) {
        if (*q++ != 'T' || !isdigit((unsigned char)*q))
            return 0;
        while (isdigit((unsigned char)*q))
            q++;
        if (*q == ')')
            return (size_t)(q + 1 - s);
        if (!strncmp(q, ", ", 2))
            q += 2;
        else if (!strncmp(q, " and ", 5))
            q += 5;
        else
            return 0;
    }
}

/* n bytes of s, escaped. */
static void put_esc_n(jtext *o, const char *s, size_t n)
{
    char buf[256];

    while (n) {
        size_t k = n < sizeof buf - 1 ? n : sizeof buf - 1;
        memcpy(buf, s, k);
        buf[k] = '\0';
        put_esc(o, buf);
        s += k;
        n -= k;
    }
}

/* The player whose id is the n bytes at s, or -1. */
static int player_of_word(const page *p, const char *s, size_t n)
{
    char id[TOUR_STR_MAX + 1];

    if (n > TOUR_STR_MAX)
        return -1;
    memcpy(id, s, n);
    id[n] = '\0';
    return tournament_player_index(p->t, id);
}

static void put_sentence(page *p, const char *s)
{
    while (s && *s) {
        size_t n = ruling_paren(s), k;
        int i;
        if (n) {
            s += n;
            continue;
        }
        for (n = 0; s[n] && !is_word_char(s[n]) && !ruling_paren(s + n); n++)
            ;
        if (n) {                      /* spaces and punctuation */
            put_esc_n(p->out, s, n);
            s += n;
            continue;
        }
        for (n = 0; is_word_char(s[n]); n++)
            ;
        for (k = n; k > 1 && s[k - 1] == '.'; k--)
            ;
        if ((i = player_of_word(p, s, n)) < 0 && k < n && (i = player_of_word(p, s, k)) >= 0)
            n = k;
        if (i >= 0) {
            const tour_player *pl = tournament_player(p->t, (size_t)i);
            put_esc(p->out, pl->name && pl->name[0] ? pl->name : pl->id);
        } else {
            put_esc_n(p->out, s, n);
        }
        s += n;
    }
}

/* The records of this tournament placed at round r, table tb: how many;
 * when write, each linked, ", " between (none: nothing written). */
static int place_cmp(uint32_t ra, const char *ta, uint32_t rb, const char *tb)
{
    return ra != rb ? (ra < rb ? -1 : 1) : strcmp(ta, tb);
}

static int placed_cmp(const void *a, const void *b)
{
    const tour_game *x = *(const tour_game *const *)a, *y = *(const tour_game *const *)b;
    int c = place_cmp(x->round, x->table, y->round, y->table);
    return c ? c : strcmp(x->match ? x->match : "", y->match ? y->match : "");
}

/* p->placed from the options' records.  0, or -1 out of memory. */
static int place_records(page *p)
{
    if (!p->o || !p->o->n_games)
        return 0;
    if (!(p->placed = malloc(p->o->n_games * sizeof *p->placed)))
        return -1;
    for (size_t i = 0; i < p->o->n_games; i++) {
        const tour_game *g = &p->o->games[i];
        if (g->round && g->table && g->tournament && !strcmp(g->tournament, tournament_id(p->t)))
            p->placed[p->n_placed++] = g;
    }
    qsort(p->placed, p->n_placed, sizeof *p->placed, placed_cmp);
    return 0;
}

static size_t put_records_at(page *p, uint32_t r, const char *tb, int write)
{
    size_t lo = 0, hi = p->n_placed, n = 0;

    if (!tb)
        return 0;
    while (lo < hi) {   /* the first record at (r, tb) or after */
        size_t mid = lo + (hi - lo) / 2;
        if (place_cmp(p->placed[mid]->round, p->placed[mid]->table, r, tb) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < p->n_placed && !place_cmp(p->placed[lo]->round, p->placed[lo]->table, r, tb); lo++, n++)
        if (write) {
            put_str(p->out, n ? ", " : "");
            put_match(p, p->placed[lo]->match);
        }
    return n;
}

/* The match cell of a pairing: the record that counts; else every record
 * at its table, "N records:" before them when there are several (none
 * counts until the head judge names one), so that the pairing, the live
 * progress and the alarm say the same. */
static void put_match_of(page *p, uint32_t r, const char *tb, const char *match)
{
    size_t n;

    if (match && match[0]) {
        put_match(p, match);
        return;
    }
    n = put_records_at(p, r, tb, 0);
    if (!n) {
        put_match(p, "");
        return;
    }
    if (n > 1)
        put_fmt(p->out, "<span class=\"pending\">%zu records:</span> ", n);
    put_records_at(p, r, tb, 1);
}

static void put_sos(page *p, const tour_row *w)
{
    unsigned __int128 den = w->sos_den ? w->sos_den : 1;
    uint64_t milli = (uint64_t)(((unsigned __int128)w->sos_num * 1000 + den / 2) / den);

    put_fmt(p->out, "%" PRIu64 ".%03" PRIu64, milli / 1000, milli % 1000);
}

/* The kind of round r: "Swiss" or the elimination round's name. */
static void put_round_name(page *p, uint32_t r)
{
    uint32_t s = p->st->swiss_rounds, e = p->st->elimination_rounds;

    if (r <= s) {
        put_fmt(p->out, "Round %" PRIu32 " (Swiss)", r);
        return;
    }
    uint32_t left = s + e >= r ? s + e - r : 0;   /* elimination rounds after r */
    const char *name = left == 0 ? "final" : left == 1 ? "semifinals" : left == 2 ? "quarterfinals" : NULL;
    if (name)
        put_fmt(p->out, "Round %" PRIu32 " (elimination, %s)", r, name);
    else
        put_fmt(p->out, "Round %" PRIu32 " (elimination)", r);
}

/* Results of round r: how many, how many pending. */
static void round_counts(const page *p, uint32_t r, size_t *n, size_t *pending, size_t *live)
{
    *n = *pending = *live = 0;
    for (size_t i = 0; i < p->r->n_results; i++) {
        const tour_result *x = &p->r->results[i];
        if (x->round != r)
            continue;
        (*n)++;
        if (x->outcome[0] == TOUR_PENDING || (x->player[1] >= 0 && x->outcome[1] == TOUR_PENDING)) {
            (*pending)++;
            *live += x->live != 0;
        }
    }
}

static size_t open_alarms(const tour_results *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_alarms; i++)
        n += !r->alarms[i].resolved;
    return n;
}

/* ---- the head: name, format, structure, round status ----------------------------------- */

static void put_head(page *p)
{
    const tour_structure *st = p->st;
    uint32_t total = st->swiss_rounds + st->elimination_rounds;
    size_t n, pending, live;

    put_lit(p->out, "<!DOCTYPE html>\n<html lang=\"en\"");
    if (p->o && p->o->projector)
        put_lit(p->out, " class=\"projector\"");
    put_lit(p->out, ">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                    "<meta name=\"generator\" content=\"arbiter tournament html\">\n<title>");
    put_esc(p->out, tournament_name(p->t));
    put_lit(p->out, "</title>\n<style>\n");
    put_str(p->out, css);
    put_lit(p->out, "</style>\n</head>\n<body>\n<header>\n<h1>");
    put_esc(p->out, tournament_name(p->t));
    put_lit(p->out, "</h1>\n<p class=\"meta\">");
    put_esc(p->out, tournament_format_name(p->t));
    put_lit(p->out, " &#183; ");
    if (st->kind == TOUR_ALL_ELIMINATION)
        put_fmt(p->out, "single elimination, %" PRIu32 " rounds", st->elimination_rounds);
    else if (st->cut)
        put_fmt(p->out, "%" PRIu32 " Swiss rounds, top %" PRIu32 " cut", st->swiss_rounds, st->cut);
    else
        put_fmt(p->out, "%" PRIu32 " Swiss rounds, no cut", st->swiss_rounds);
    if (st->row)   /* T39, T40: the row used, and whose counts they are */
        put_fmt(p->out, " (the %s table, %s players%s)", st->kind == TOUR_TABLE_BASIC || st->fell_back ? "Basic"
                : "Advanced", st->row, st->reconstructed ? ", counts reconstructed by arbiter" : "");
    put_fmt(p->out, " &#183; %zu players &#183; id ", tournament_player_count(p->t));
    put_esc(p->out, tournament_id(p->t));
    put_lit(p->out, "</p>\n<p class=\"status\">");
    if (!p->published) {
        put_lit(p->out, "No round is published yet.");
    } else {
        round_counts(p, p->published, &n, &pending, &live);
        put_round_name(p, p->published);
        put_fmt(p->out, " of %" PRIu32 ": ", total);
        if (!pending)
            put_fmt(p->out, "all %zu results in%s.", n,
                    p->published >= total ? "; the tournament is over" : "");
        else
            put_fmt(p->out, "%zu of %zu results pending%s.", pending, n, live ? " (the round is open)" : "");
    }
    if (p->o && p->o->clock && p->o->clock[0]) {
        put_lit(p->out, "</p>\n<p class=\"clock\">");
        put_esc(p->out, p->o->clock);
    }
    put_lit(p->out, "</p>\n<nav><a href=\"#standings\">Standings</a>");
    if (st->elimination_rounds)
        put_lit(p->out, "<a href=\"#bracket\">Bracket</a>");
    put_lit(p->out, "<a href=\"#rounds\">Pairings</a><a href=\"#alarms\">Alarms</a>"
                    "<a href=\"#statistics\">Statistics</a></nav>\n</header>\n<main>\n");
}

/* ---- standings ------------------------------------------------------------------------ */

static uint32_t seed_of(const page *p, int i);

static void put_standings(page *p, const tour_standings *s, const char *id)
{
    jtext *o = p->out;
    /* the standings the cut is made from (T33): who made it is marked */
    int cut = !s->final && p->n_seeds && s->after_round == p->st->swiss_rounds;

    put_lit(o, "<section id=\"");
    put_str(o, id);
    put_lit(o, "\">\n<h2>");
    if (s->final)
        put_lit(o, "Final standings");
    else
        put_fmt(o, "Standings after round %" PRIu32, s->after_round);
    if (s->provisional)
        put_lit(o, " <span class=\"tag\">provisional</span>");
    put_lit(o, "</h2>\n");
    if (s->provisional) {
        if (s->n_pending)
            put_fmt(o, "<p class=\"note\">Provisional: %zu result%s pending.</p>\n<ul class=\"small\">\n",
                    s->n_pending, s->n_pending == 1 ? " is" : "s are");
        else
            put_lit(o, "<p class=\"note\">Provisional: the bracket is not over.</p>\n");
        for (size_t i = 0; i < s->n_pending; i++) {
            const tour_pending *x = &s->pending[i];
            put_fmt(o, "<li>Round %" PRIu32 ", table ", x->round);
            put_esc(o, x->table ? x->table : "-");
            if (x->match[0] || put_records_at(p, x->round, x->table, 0)) {
                put_lit(o, ", ");
                put_match_of(p, x->round, x->table, x->match);
            }
            put_lit(o, ": ");
            put_sentence(p, x->why);
            put_lit(o, "</li>\n");
        }
        if (s->n_pending)
            put_lit(o, "</ul>\n");
    }
    if (cut)
        put_fmt(o, "<p>The top %" PRIu32 " make the cut: they are marked with their seed.</p>\n", p->n_seeds);
    put_lit(o, "<div class=\"scroll\"><table>\n<thead><tr><th class=\"n\">Place</th><th>Player</th>"
               "<th class=\"n\">Points</th><th class=\"n\">W-D-L</th><th class=\"n\">MOV</th>"
               "<th class=\"n hide-s\">SoS</th><th class=\"hide-s\">Notes</th></tr></thead>\n<tbody>\n");
    for (size_t i = 0; i < s->n_rows; i++) {
        const tour_row *w = &s->rows[i];
        uint32_t seed = cut ? seed_of(p, w->player) : 0;
        put_fmt(o, "<tr class=\"st%s\"><td class=\"n\">%" PRIu32 "</td><td>", seed ? " in-cut" : "", w->place);
        put_player(p, w->player);
        if (seed)
            put_fmt(o, "<span class=\"tag cut\">top %" PRIu32 ", seed %" PRIu32 "</span>", p->n_seeds, seed);
        put_fmt(o, "</td><td class=\"n\">%" PRId64 "</td><td class=\"n\">%" PRIu32 "-%" PRIu32 "-%" PRIu32
                   "</td><td class=\"n\">%" PRId64 "</td><td class=\"n hide-s\">",
                w->points, w->wins, w->draws, w->losses, w->mov);
        put_sos(p, w);
        put_lit(o, "</td><td class=\"hide-s\">");
        if (w->byes)
            put_fmt(o, "<span class=\"tag\">%" PRIu32 " bye%s</span>", w->byes, w->byes == 1 ? "" : "s");
        if (w->eliminated_in)
            put_fmt(o, "<span class=\"tag\">out in round %" PRIu32 "</span>", w->eliminated_in);
        if (w->dropped)
            put_lit(o, "<span class=\"tag\">dropped</span>");
        put_lit(o, "</td></tr>\n");
    }
    put_lit(o, "</tbody></table></div>\n");
    if (s->seed) {
        /* the draw's label ("standings 2") is what the seed is drawn with:
           shown as such, not as the name of a seed */
        put_lit(o, "<p class=\"small\">Random tiebreak: seed <code>");
        put_esc(o, s->seed);
        put_lit(o, "</code>");
        if (s->label[0] && !s->final) {
            put_lit(o, ", draw <code>");
            put_esc(o, s->label);
            put_lit(o, "</code>");
        }
        if (s->seed_made)
            put_lit(o, " (made by arbiter: write it into the file to draw the same again)");
        put_lit(o, "</p>\n");
    }
    put_lit(o, "</section>\n");
}

/* ---- the bracket -------------------------------------------------------------------------- */

/* The result of elimination round r's Game #g, or NULL. */
static const tour_result *find_game(const page *p, uint32_t r, uint32_t g)
{
    for (size_t i = 0; i < p->r->n_results; i++) {
        const tour_result *x = &p->r->results[i];
        if (x->round == r && x->elimination && x->game == g)
            return x;
    }
    return NULL;
}

/* The seed of player i in the cut, 0 when none. */
static uint32_t seed_of(const page *p, int i)
{
    for (uint32_t k = 0; i >= 0 && k < p->n_seeds; k++)
        if (p->seeds[k] == i)
            return k + 1;
    return 0;
}

/* A side of a bracket game: the seed (0: none), then player i, or the
 * fixed words `nobody` when i < 0. */
static void put_seeded(page *p, uint32_t seed, int i, const char *nobody)
{
    if (seed)
        put_fmt(p->out, "<span class=\"seed\">%" PRIu32 "</span>", seed);
    if (i >= 0) {
        put_player(p, i);
        return;
    }
    put_lit(p->out, "<span class=\"small\">");
    put_str(p->out, nobody);
    put_lit(p->out, "</span>");
}

static void put_bracket_side(page *p, const tour_result *x, int side)
{
    jtext *o = p->out;
    int i = x->player[side];
    int pending = x->outcome[side] == TOUR_PENDING;
    uint32_t seed = seed_of(p, i);

    put_lit(o, "<div class=\"p");
    if (i >= 0 && is_winner(x->outcome[side]))
        put_lit(o, " w");
    put_lit(o, "\"><span>");
    put_seeded(p, seed, i, "bye");
    put_lit(o, "</span><span class=\"n\">");
    if (i >= 0 && pending)
        put_lit(o, "<span class=\"pending\">&#8230;</span>");
    else if (i >= 0 && x->player[1] >= 0)
        put_fmt(o, "%" PRId64, x->score[side]);
    put_lit(o, "</span></div>");
}

/* One game of the bracket: the players, their scores, the winner marked. */
static void put_bracket_game(page *p, uint32_t r, uint32_t g)
{
    jtext *o = p->out;
    const tour_result *x = find_game(p, r, g);

    put_lit(o, "<div class=\"slot\">");
    if (!x && r == p->st->swiss_rounds + 1 && g <= p->n_seeds / 2) {
        /* the cut is made and the round not published: T34's pairing of
           seed g against seed N + 1 - g is already known */
        put_lit(o, "<div class=\"game next\">");
        for (int k = 0; k < 2; k++) {
            uint32_t sd = k ? p->n_seeds + 1 - g : g;
            put_lit(o, "<div class=\"p\"><span>");
            put_seeded(p, sd, p->seeds[sd - 1], "empty seed: a bye");
            put_lit(o, "</span><span class=\"n\"></span></div>");
        }
        put_fmt(o, "<div class=\"g\">Game %" PRIu32 " &#183; to be published</div></div></div>\n", g);
        return;
    }
    if (!x) {
        put_fmt(o, "<div class=\"game tbd\"><div class=\"p\">&#160;</div><div class=\"p\">to be paired</div>"
                   "<div class=\"g\">Game %" PRIu32 "</div></div></div>\n", g);
        return;
    }
    put_lit(o, "<div class=\"game\">");
    put_bracket_side(p, x, 0);
    put_bracket_side(p, x, 1);
    put_fmt(o, "<div class=\"g\">Game %" PRIu32, g);
    if (x->table) {
        put_lit(o, " &#183; table ");
        put_esc(o, x->table);
    }
    if (x->match[0] || put_records_at(p, r, x->table, 0)) {
        put_lit(o, " &#183; ");
        put_match_of(p, r, x->table, x->match);
    }
    put_lit(o, "</div></div></div>\n");
}

/* Game numbers of a round in the order that puts each game between the
 * two that feed the next round's game (T36: Game #k of the next round is
 * Game #k against Game #(M + 1 - k)).  order[] has 2^levels entries. */
static void bracket_order(uint32_t *order, uint32_t levels)
{
    uint32_t n = 1;

    order[0] = 1;
    for (uint32_t l = 0; l < levels; l++) {
        for (uint32_t k = n; k-- > 0;) {
            order[2 * k] = order[k];
            order[2 * k + 1] = 2 * n + 1 - order[k];
        }
        n *= 2;
    }
}

/* The bracket: one column per elimination round, later rounds not yet
 * paired drawn as empty games.  0, or -1 out of memory. */
static int put_bracket(page *p)
{
    jtext *o = p->out;
    uint32_t s = p->st->swiss_rounds, e = p->st->elimination_rounds;
    uint32_t *order = NULL;

    if (!e)
        return 0;
    if (e > 20 || !(order = malloc(((size_t)1 << (e - 1)) * sizeof *order)))
        return -1;
    put_lit(o, "<section id=\"bracket\">\n<h2>Elimination bracket</h2>\n");
    if (p->n_seeds)
        put_lit(o, "<p class=\"small\">The small number before a name is the player's seed in the cut.</p>\n");
    put_fmt(o, "<div class=\"bracket\" style=\"grid-template-columns:repeat(%" PRIu32 ",minmax(10rem,1fr))\">\n", e);
    for (uint32_t k = 0; k < e; k++) {
        uint32_t left = e - 1 - k;   /* rounds after this one */
        put_str(o, left == 0 ? "<h3>Final" : left == 1 ? "<h3>Semifinals" : left == 2 ? "<h3>Quarterfinals" : "<h3>");
        put_fmt(o, "%s<span class=\"small\">round %" PRIu32 "</span></h3>\n", left > 2 ? "" : " ", s + 1 + k);
    }
    for (uint32_t k = 0; k < e; k++) {
        uint32_t levels = e - 1 - k, games = (uint32_t)1 << levels;
        bracket_order(order, levels);
        put_lit(o, "<div class=\"bcol\">\n");
        for (uint32_t g = 0; g < games; g++)
            put_bracket_game(p, s + 1 + k, order[g]);
        put_lit(o, "</div>\n");
    }
    put_lit(o, "</div>\n</section>\n");
    free(order);
    return 0;
}

/* ---- rounds: pairings by table with their results ------------------------------------------ */

static void put_result_cell(page *p, const tour_result *x)
{
    jtext *o = p->out;
    int bye = x->player[1] < 0;
    int pending = x->outcome[0] == TOUR_PENDING || (!bye && x->outcome[1] == TOUR_PENDING);

    put_lit(o, "<td class=\"n\">");
    if (pending) {
        put_lit(o, "<span class=\"pending\">pending</span>");
    } else if (bye) {
        put_esc(o, outcome_word(x->outcome[0]));
    } else {
        put_fmt(o, "%" PRId64 " &#8211; %" PRId64, x->score[0], x->score[1]);
    }
    put_lit(o, "</td><td class=\"hide-s small\">");
    /* the head judge's sentence is written once, with the judge's name */
    const char *how = pending ? x->why : bye ? "" : x->why[0] ? x->why : by_word(x->by);
    int said = 0;
    if (x->judge && x->judge_text && !strcmp(how, x->judge_text))
        how = "";
    if (!pending && !bye && x->outcome[0] != TOUR_WIN && x->outcome[0] != TOUR_LOSS) {
        put_esc(o, outcome_word(x->outcome[0]));
        put_str(o, how[0] ? "; " : "");
        said = 1;
    }
    if (how[0]) {
        put_sentence(p, how);
        said = 1;
    }
    if (x->judge) {
        put_str(o, said ? "<br>" : "");
        put_lit(o, "head judge ");
        put_esc(o, x->judge);
        if (x->judge_text) {
            put_lit(o, ": ");
            put_esc(o, x->judge_text);
        }
    }
    put_lit(o, "</td>");
}

static void put_player_cell(page *p, const tour_result *x, int side)
{
    int won = x->player[side] >= 0 && x->player[1] >= 0 && is_winner(x->outcome[side]);

    put_str(p->out, won ? "<td class=\"w\">" : "<td>");
    if (side == 1 && x->player[1] < 0)
        put_lit(p->out, "<span class=\"small\">bye</span>");
    else
        put_player(p, x->player[side]);
    put_lit(p->out, "</td>");
}

static void put_rounds(page *p)
{
    jtext *o = p->out;

    put_lit(o, "<section id=\"rounds\">\n<h2>Pairings and results</h2>\n");
    if (!p->published)
        put_lit(o, "<p>No round is published yet.</p>\n");
    for (uint32_t r = p->published; r >= 1; r--) {
        int elim = r > p->st->swiss_rounds;
        size_t n, pending, live;
        round_counts(p, r, &n, &pending, &live);
        put_fmt(o, "<h3 id=\"round-%" PRIu32 "\">", r);
        put_round_name(p, r);
        if (pending)
            put_fmt(o, " <span class=\"tag\">%zu pending</span>", pending);
        put_lit(o, "</h3>\n<div class=\"scroll\"><table>\n<thead><tr>");
        if (elim)
            put_lit(o, "<th class=\"n hide-s\">Game</th>");
        put_lit(o, "<th class=\"n\">Table</th><th>Player 1</th><th class=\"n\">Result</th><th class=\"hide-s\">How</th>"
                   "<th>Player 2</th><th>Match</th></tr></thead>\n<tbody>\n");
        for (size_t i = 0; i < p->r->n_results; i++) {
            const tour_result *x = &p->r->results[i];
            if (x->round != r)
                continue;
            put_lit(o, "<tr>");
            if (elim)
                put_fmt(o, "<td class=\"n hide-s\">%" PRIu32 "</td>", x->game);
            put_lit(o, "<td class=\"n\">");
            put_esc(o, x->table ? x->table : "-");
            put_lit(o, "</td>");
            put_player_cell(p, x, 0);
            put_result_cell(p, x);
            put_player_cell(p, x, 1);
            put_lit(o, "<td>");
            if (x->player[1] >= 0)
                put_match_of(p, x->round, x->table, x->match);
            put_lit(o, "</td></tr>\n");
        }
        put_lit(o, "</tbody></table></div>\n");
        if (!n)
            put_lit(o, "<p class=\"small\">This round has no pairings yet.</p>\n");
    }
    put_lit(o, "</section>\n");
}

/* ---- alarms ------------------------------------------------------------------------------- */

/* An alarm's sentence.  When it ends with the sentence of the head judge's
 * result at its table (judge_overrides_record quotes it), that sentence is
 * left to the pairing's result, where it is shown with the judge's name:
 * a judge's sentence is written once on the page. */
static void put_alarm_text(page *p, const tour_alarm *a)
{
    char head[TOUR_TEXT_MAX];
    size_t n = strlen(a->text);

    for (size_t i = 0; i < p->r->n_results; i++) {
        const tour_result *x = &p->r->results[i];
        size_t k = x->judge_text ? strlen(x->judge_text) : 0;
        if (x->round != a->round || !x->table || strcmp(x->table, a->table) || !k || k + 2 > n ||
            strcmp(a->text + n - k, x->judge_text) || strncmp(a->text + n - k - 2, ": ", 2))
            continue;
        snprintf(head, sizeof head, "%.*s", (int)(n - k - 2), a->text);
        put_sentence(p, head);
        put_lit(p->out, " (the judge&#39;s words are with the result of the pairing).");
        return;
    }
    put_sentence(p, a->text);
}

static void put_alarms(page *p)
{
    jtext *o = p->out;
    const tour_results *r = p->r;
    size_t open = open_alarms(r);

    put_lit(o, "<section id=\"alarms\">\n<h2>Alarms</h2>\n");
    put_fmt(o, "<p>%zu alarm%s, %zu open. Resolved alarms, which a head judge's result covers, "
               "are dimmed.</p>\n", r->n_alarms, r->n_alarms == 1 ? "" : "s", open);
    if (r->deck_check_skipped)
        put_lit(o, "<p class=\"note\">Some decklists were hidden: the deck check skipped them.</p>\n");
    if (r->n_alarms) {
        put_lit(o, "<div class=\"scroll\"><table class=\"alarms\">\n<thead><tr><th>Alarm</th><th>What</th>"
                   "<th class=\"n\">Round</th><th class=\"n\">Table</th><th class=\"hide-s\">Players</th>"
                   "<th>Match</th></tr></thead>\n<tbody>\n");
        for (size_t i = 0; i < r->n_alarms; i++) {
            const tour_alarm *a = &r->alarms[i];
            put_str(o, a->resolved ? "<tr class=\"resolved\"><td>" : "<tr class=\"open\"><td>");
            put_esc(o, a->kind);
            if (a->resolved)
                put_lit(o, " <span class=\"small\">(resolved)</span>");
            put_lit(o, "</td><td>");
            put_alarm_text(p, a);
            put_lit(o, "</td><td class=\"n\">");
            if (a->round)
                put_fmt(o, "%" PRIu32, a->round);
            put_lit(o, "</td><td class=\"n\">");
            put_esc(o, a->table);
            put_lit(o, "</td><td class=\"hide-s\">");
            for (int k = 0; k < 2; k++) {
                if (!a->players[k][0])
                    continue;
                if (k && a->players[0][0])
                    put_lit(o, ", ");
                int idx = tournament_player_index(p->t, a->players[k]);
                if (idx >= 0)
                    put_player(p, idx);
                else
                    put_esc(o, a->players[k]);
            }
            put_lit(o, "</td><td>");
            if (!strcmp(a->kind, "two_games") && put_records_at(p, a->round, a->table, 0) > 1)
                put_match_of(p, a->round, a->table, "");
            else if (a->match[0])
                put_match(p, a->match);
            put_lit(o, "</td></tr>\n");
        }
        put_lit(o, "</tbody></table></div>\n");
    }
    put_lit(o, "</section>\n");
}

/* ---- statistics ------------------------------------------------------------------------------ */

/* The first charts use what tournament.h gives (standings and results);
 * the card statistics (T46) are src/tournament/tourstats.h's, counted from what the
 * public view shows, and the decklists only when the statistics were made
 * for the judge view or the file publishes them. */

#define SERIES_MAX 5

typedef struct {
    const char *title, *xlabel;
    size_t n, k;                    /* bars, series                        */
    const int64_t *x;               /* the label under each bar            */
    const uint64_t *v;              /* v[i * k + j]: bar i, series j       */
    const char *const *names;       /* k series names (fixed words)        */
    const char *const *colors;
    const char *const *xnames;      /* words under the bars instead of x  */
    int grouped;                    /* 1: the series side by side, each bar
                                       its own count (series that measure
                                       different things do not add up);
                                       0: stacked, the total above        */
} chart;

/* A stacked bar chart as inline SVG with its legend. */
static void put_chart(page *p, const chart *c)
{
    jtext *o = p->out;
    const double W = 600, H = 300, L = 48, R = 10, T = 16, B = 44;
    const double pw = W - L - R, ph = H - T - B;
    uint64_t max = 0, step = 1, top;

    for (size_t i = 0; i < c->n; i++) {
        uint64_t sum = 0;
        for (size_t j = 0; j < c->k; j++) {
            uint64_t v = c->v[i * c->k + j];
            sum = c->grouped ? (v > sum ? v : sum) : sum + v;
        }
        max = sum > max ? sum : max;
    }
    for (unsigned m = 0; max / step > 5;) {   /* steps 1, 2, 5, 10, 20, 50, ... */
        static const uint64_t mant[] = {1, 2, 5};
        m++;
        step = mant[m % 3] * (step / mant[(m - 1) % 3]) * (m % 3 ? 1 : 10);
    }
    top = max ? (max + step - 1) / step * step : 1;
    put_lit(o, "<figure><figcaption>");
    put_str(o, c->title);
    put_fmt(o, "</figcaption>\n<svg viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"", W, H);
    put_str(o, c->title);
    put_lit(o, "\" xmlns=\"http://www.w3.org/2000/svg\" font-family=\"system-ui,sans-serif\" font-size=\"14\">\n");
    for (uint64_t y = 0; y <= top; y += step) {
        double yy = T + ph - ph * (double)y / (double)top;
        put_fmt(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d5dbe3\"/>"
                   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#5a6270\">%" PRIu64 "</text>\n",
                L, yy, W - R, yy, L - 6, yy + 5, y);
    }
    double bw = c->n ? pw / (double)c->n : pw;
    size_t every = c->n > 24 ? (c->n + 23) / 24 : 1;
    for (size_t i = 0; i < c->n; i++) {
        double x = L + bw * (double)i + bw * 0.15, y = T + ph;
        uint64_t sum = 0;
        for (size_t j = 0; c->grouped && j < c->k; j++) {
            uint64_t v = c->v[i * c->k + j];
            double w = bw * 0.7 / (double)c->k, h = ph * (double)v / (double)top, xj = x + w * (double)j;
            put_fmt(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"", xj, T + ph - h, w, h);
            put_str(o, c->colors[j]);
            put_fmt(o, "\"><title>%" PRIu64 " ", v);
            put_str(o, c->names[j]);
            put_lit(o, "</title></rect>\n");
            if (c->n * c->k <= 48)
                put_fmt(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"600\">%" PRIu64
                           "</text>\n", xj + w / 2, T + ph - h - 4, v);
        }
        for (size_t j = 0; !c->grouped && j < c->k; j++) {
            uint64_t v = c->v[i * c->k + j];
            double h = ph * (double)v / (double)top;
            if (!v)
                continue;
            y -= h;
            sum += v;
            put_fmt(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"", x, y, bw * 0.7, h);
            put_str(o, c->colors[j]);
            put_fmt(o, "\"><title>%" PRIu64 " ", v);
            put_str(o, c->names[j]);
            put_lit(o, "</title></rect>\n");
        }
        if (sum && c->n <= 24)
            put_fmt(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"600\">%" PRIu64 "</text>\n",
                    x + bw * 0.35, y - 4, sum);
        if (i % every == 0 && c->xnames) {
            put_fmt(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#14181f\">", x + bw * 0.35,
                    T + ph + 18);
            put_esc(o, c->xnames[i]);
            put_lit(o, "</text>\n");
        } else if (i % every == 0) {
            put_fmt(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#14181f\">%" PRId64 "</text>\n",
                    x + bw * 0.35, T + ph + 18, c->x[i]);
        }
    }
    put_fmt(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#14181f\"/>\n", L, T + ph, W - R, T + ph);
    put_fmt(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#5a6270\">", L + pw / 2, H - 6);
    put_str(o, c->xlabel);
    put_lit(o, "</text>\n</svg>\n");
    if (c->k > 1) {
        put_lit(o, "<div class=\"legend small\">");
        for (size_t j = 0; j < c->k; j++) {
            put_lit(o, "<span><i style=\"background:");
            put_str(o, c->colors[j]);
            put_lit(o, "\"></i>");
            put_str(o, c->names[j]);
            put_lit(o, "</span>");
        }
        put_lit(o, "</div>");
    }
    put_lit(o, "</figure>\n");
}

#define TOP_CARDS 20   /* cards in the table of the page */

static void put_rate(page *p, uint64_t wins, uint64_t results)
{
    if (results)
        put_fmt(p->out, "<td class=\"n\">%" PRIu64 "%%</td>", (wins * 100 + results / 2) / results);
    else
        put_lit(p->out, "<td class=\"n\">-</td>");
}

/* One scope of T46: a chart of the classes, the cards shown most, the
 * rules broken, game length. */
static void put_scope(page *p, const tourstats_scope *sc)
{
    static const char *const names[2] = {"appearances", "games"};
    static const char *const colors[2] = {"#0b5394", "#93c47d"};
    static const char *const cls[TOURSTATS_CLASSES] = {"coreon", "fluxion", "synaphera", "obscura", "aetherion"};
    jtext *o = p->out;
    int64_t x[TOURSTATS_CLASSES];
    uint64_t v[2 * TOURSTATS_CLASSES];

    put_lit(o, "<h3>");
    put_esc(o, sc->format);
    put_fmt(o, ": cards shown, all rounds <span class=\"small\">%" PRIu64 " record%s</span></h3>\n", sc->records,
            sc->records == 1 ? "" : "s");
    for (int c = 0; c < TOURSTATS_CLASSES; c++) {
        x[c] = c + 1;
        v[2 * c] = sc->classes[c].appearances;
        v[2 * c + 1] = sc->classes[c].games;
    }
    chart ch = {"Classes shown: appearances and games", "class", TOURSTATS_CLASSES, 2, x, v, names, colors, cls, 1};
    put_lit(o, "<div class=\"charts\">\n");
    put_chart(p, &ch);
    put_lit(o, "</div>\n<div class=\"scroll\"><table class=\"cardstats\"><thead><tr><th>card</th><th>class</th>"
               "<th class=\"n\">games</th><th class=\"n\">shown</th><th class=\"n\">win rate</th></tr></thead>"
               "<tbody>\n");
    for (size_t i = 0; i < sc->n_cards && i < TOP_CARDS; i++) {
        const tourstats_count *c = &sc->cards[i];
        put_lit(o, "<tr><td>");
        put_esc(o, c->name);
        put_lit(o, "</td><td>");
        put_str(o, tourstats_class_name(c->cls));
        put_fmt(o, "</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRIu64 "</td>", c->games, c->appearances);
        put_rate(p, c->wins, c->results);
        put_lit(o, "</tr>\n");
    }
    put_lit(o, "</tbody></table></div>\n");
    if (sc->n_cards > TOP_CARDS)
        put_fmt(o, "<p class=\"small\">%zu more cards were shown: see <code>arbiter tournament stats</code>.</p>\n",
                sc->n_cards - TOP_CARDS);
    put_lit(o, "<p>Rules broken most often: ");
    for (size_t i = 0; i < sc->n_rules; i++) {
        put_str(o, i ? "; " : "");
        put_str(o, tourstats_verdict_name(sc->rules[i].verdict));
        put_lit(o, " <code>");
        put_esc(o, sc->rules[i].rule);
        put_fmt(o, "</code> %" PRIu64, sc->rules[i].count);
    }
    put_str(o, sc->n_rules ? ".</p>\n" : "none.</p>\n");
    put_fmt(o, "<p>Game length: %" PRIu64 " finished game%s", sc->finished.games, sc->finished.games == 1 ? "" : "s");
    if (sc->finished.games)
        put_fmt(o, ", %" PRIu64 " to %" PRIu64 " events, %" PRIu64 " to %" PRIu64 " game rounds",
                sc->finished.events_min, sc->finished.events_max, sc->finished.rounds_min, sc->finished.rounds_max);
    put_fmt(o, "; %" PRIu64 " ended at time.</p>\n", sc->at_time.games);
}

/* T46: the statistics of the cards, the live progress of the last round
 * and, when allowed, the decklists' classes. */
static void put_card_stats(page *p, const tourstats *s)
{
    jtext *o = p->out;
    char a[TOUR_STR_MAX + 1];

    put_lit(o, "<div id=\"card-statistics\">\n<h3>Live progress");
    if (s->progress_round)
        put_fmt(o, " of round %" PRIu32, s->progress_round);
    put_lit(o, "</h3>\n<div class=\"scroll\"><table class=\"progress\"><thead><tr><th>table</th><th>players</th>"
               "<th>state</th><th>match</th></tr></thead><tbody>\n");
    for (size_t i = 0; i < s->n_progress; i++) {
        const tourstats_progress *g = &s->progress[i];
        put_lit(o, "<tr><td>");
        put_esc(o, g->table);
        put_lit(o, "</td><td>");
        put_player(p, g->player[0]);
        put_lit(o, " vs ");
        put_player(p, g->player[1]);
        put_lit(o, "</td><td>");
        put_str(o, tourstats_state_name(g->state));
        if (g->game_round)
            put_fmt(o, ", game round %" PRIu32, g->game_round);
        for (size_t k = 0; k < g->n_alarms; k++) {
            put_str(o, k ? ", " : ": ");
            put_str(o, g->alarms[k]);
        }
        put_lit(o, "</td><td>");
        if (put_records_at(p, g->round, g->table, 0) > 1)
            put_match_of(p, g->round, g->table, "");
        else if (g->match[0])
            put_match(p, g->match);
        put_lit(o, "</td></tr>\n");
    }
    put_lit(o, "</tbody></table></div>\n");
    for (size_t i = 0; i < s->n_scopes; i++)
        if (!s->scopes[i].round)
            put_scope(p, &s->scopes[i]);
    if (s->decklists_shown) {
        put_lit(o, "<h3>Decklists by class</h3>\n<ul class=\"small\">\n");
        for (size_t i = 0; i < s->n_decks; i++) {
            const tourstats_deck *d = &s->decks[i];
            snprintf(a, sizeof a, "%s", d->player ? d->player : "");
            put_lit(o, "<li>");
            put_esc(o, a);
            put_str(o, d->played ? " (played" : " (registered");
            if (d->played) {
                put_fmt(o, ", round %" PRIu32 ", ", d->round);
                put_esc(o, d->match);
            }
            put_fmt(o, "): %" PRIu32 " cards", d->cards);
            for (int c = 0; c < TOURSTATS_CLASSES; c++)
                if (d->classes[c])
                    put_fmt(o, ", %s %" PRIu32, tourstats_class_name(c), d->classes[c]);
            put_lit(o, "</li>\n");
        }
        put_lit(o, "</ul>\n");
    }
    put_lit(o, "<p class=\"small\">Cards count when the record shows them in the public view: the same from "
               "every view.</p>\n</div>\n");
}

enum { BY_ENGINE, BY_TIME, BY_JUDGE, BY_OTHER, BY_PENDING, BY_N };

/* The statistics: a few counts, the points distribution and how each
 * round's results were decided.  0, or -1 out of memory. */
static int put_stats(page *p, const tour_standings *s)
{
    static const char *const names[BY_N] = {"by the engine", "at time", "by the head judge",
                                            "bye or organiser", "pending"};
    static const char *const colors[BY_N] = {"#0b5394", "#6fa8dc", "#8e44ad", "#93c47d", "#e69138"};
    static const char *const one[1] = {"players"};
    static const char *const one_color[1] = {"#0b5394"};
    jtext *o = p->out;
    size_t n_rows = s ? s->n_rows : 0, n_pts = 0, in = 0, pending = 0;
    int64_t *pts = NULL, *rounds = NULL;
    uint64_t *cnt = NULL, *by = NULL;
    int rc = -1;

    if ((n_rows && (!(pts = malloc(n_rows * sizeof *pts)) || !(cnt = calloc(n_rows, sizeof *cnt)))) ||
        (p->published && (!(rounds = malloc(p->published * sizeof *rounds)) ||
                          !(by = calloc((size_t)p->published * BY_N, sizeof *by)))))
        goto done;
    /* points distribution: the standings' rows are ordered by points, highest first */
    for (size_t i = n_rows; i-- > 0;) {
        if (!n_pts || pts[n_pts - 1] != s->rows[i].points)
            pts[n_pts++] = s->rows[i].points;
        cnt[n_pts - 1]++;
    }
    for (uint32_t r = 0; r < p->published; r++)
        rounds[r] = (int64_t)r + 1;
    for (size_t i = 0; i < p->r->n_results; i++) {
        const tour_result *x = &p->r->results[i];
        int k = x->outcome[0] == TOUR_PENDING || (x->player[1] >= 0 && x->outcome[1] == TOUR_PENDING) ? BY_PENDING
              : x->player[1] < 0 ? BY_OTHER : x->by == TOUR_BY_ENGINE ? BY_ENGINE : x->by == TOUR_BY_TIME ? BY_TIME
              : x->by == TOUR_BY_JUDGE ? BY_JUDGE : BY_OTHER;
        if (x->round < 1 || x->round > p->published)
            continue;
        by[(size_t)(x->round - 1) * BY_N + (size_t)k]++;
        pending += k == BY_PENDING;
        in += k != BY_PENDING;
    }
    put_lit(o, "<section id=\"statistics\">\n<h2>Statistics</h2>\n<div class=\"cards\">");
    put_fmt(o, "<div class=\"card\"><b>%zu</b>players</div>", tournament_player_count(p->t));
    put_fmt(o, "<div class=\"card\"><b>%zu</b>records judged</div>", p->o ? p->o->records : 0);
    put_fmt(o, "<div class=\"card\"><b>%zu</b>results in</div>", in);
    put_fmt(o, "<div class=\"card\"><b>%zu</b>results pending</div>", pending);
    put_fmt(o, "<div class=\"card\"><b>%zu</b>open alarms</div>", open_alarms(p->r));
    put_lit(o, "</div>\n<div class=\"charts\">\n");
    if (n_pts) {
        chart c = {"Players by points", "points", n_pts, 1, pts, cnt, one, one_color, NULL, 0};
        if (s && s->final)
            c.title = "Players by points (final standings)";
        put_chart(p, &c);
    }
    if (p->published) {
        chart c = {"Results by round, and how they were decided", "round", p->published, BY_N, rounds, by,
                   names, colors, NULL, 0};
        put_chart(p, &c);
    }
    put_lit(o, "</div>\n");
    if (p->o && p->o->stats)
        put_card_stats(p, p->o->stats);
    else
        put_lit(o, "<p class=\"small\">Card statistics are not shown.</p>\n");
    put_lit(o, "</section>\n");
    rc = 0;
done:
    free(pts);
    free(cnt);
    free(rounds);
    free(by);
    return rc;
}

/* ---- the page ------------------------------------------------------------------------------- */

int tourhtml_write(const tournament *t, const tour_results *r, const tourhtml_opts *o, jtext *out)
{
    char err[TOUR_TEXT_MAX + 4096];
    page p;
    int rc = TOUR_ENOMEM, got;

    memset(&p, 0, sizeof p);
    p.t = t;
    p.r = r;
    p.o = o;
    p.out = out;
    p.st = tournament_structure(t);
    p.published = tournament_rounds_published(t);
    p.last_swiss = p.published < p.st->swiss_rounds ? p.published : p.st->swiss_rounds;
    if (p.last_swiss && tournament_standings(t, r, p.last_swiss, &p.swiss, err, sizeof err) == TOUR_ENOMEM)
        goto done;
    if (p.published > p.st->swiss_rounds && tournament_final(t, r, &p.final, err, sizeof err) == TOUR_ENOMEM)
        goto done;
    if (p.st->cut && p.st->kind != TOUR_ALL_ELIMINATION && p.last_swiss == p.st->swiss_rounds) {
        got = tournament_cut(t, r, p.seeds, &p.n_seeds, err, sizeof err);
        if (got == TOUR_ENOMEM)
            goto done;
        if (got)   /* a Swiss result pending: no seeds to show yet */
            p.n_seeds = 0;
    }
    if (place_records(&p))
        goto done;
    put_head(&p);
    if (p.final)
        put_standings(&p, p.final, "standings");
    if (p.swiss)
        put_standings(&p, p.swiss, p.final ? "swiss-standings" : "standings");
    if (!p.final && !p.swiss)
        put_lit(out, "<section id=\"standings\">\n<h2>Standings</h2>\n<p>No standings yet: no round is "
                     "published.</p>\n</section>\n");
    if (put_bracket(&p))
        goto done;
    put_rounds(&p);
    put_alarms(&p);
    if (put_stats(&p, p.swiss ? p.swiss : p.final))
        goto done;
    put_lit(out, "</main>\n<footer>\n<p>Made by arbiter from the tournament file and ");
    put_fmt(out, "%zu record%s, each judged again by its format's engine.", o ? o->records : 0,
            o && o->records == 1 ? "" : "s");
    if (o && o->generated) {
        put_lit(out, " Generated ");
        put_esc(out, o->generated);
        put_lit(out, ".");
    }
    put_lit(out, "</p>\n<p>Each match id links to its audit page, <code>audit/&lt;match&gt;.html</code> beside "
                 "this page.</p>\n</footer>\n</body>\n</html>\n");
    rc = out->bad ? TOUR_ENOMEM : 0;
done:
    tour_standings_destroy(&p.swiss);
    tour_standings_destroy(&p.final);
    free(p.placed);
    return rc;
}

/* ---- what goes on the wall and on the tables ------------------------------------------------- */

/* The wall list and the match slips are printed: large type on paper
 * (points, not the screen's rem), the rows of a table never split across
 * two sheets, and every section of the wall list on a sheet of its own
 * so that each can be pinned up where the players look for it.  Slips
 * are a fixed height, three to an A4 sheet, with a dashed edge to cut
 * along. */
static const char print_css[] =
    "@page{size:A4;margin:12mm}\n"
    ".wall{font-size:1.25rem}\n"
    ".wall td,.wall th{padding:.45em .6em;vertical-align:middle}\n"
    ".wall .big{font-size:1.35em;font-weight:700}\n"
    "#by-table th:first-child,#by-table td:first-child{width:5em}#by-table td:nth-child(3){width:2em}\n"
    ".slips{max-width:none;padding:0}\n"
    ".slip{border:2px dashed #5a6270;padding:4mm 6mm;margin:0 auto 6mm;max-width:190mm;height:88mm;"
    "display:flex;flex-direction:column;gap:2mm;break-inside:avoid;page-break-inside:avoid;font-size:11pt}\n"
    ".slip .top{display:flex;justify-content:space-between;align-items:baseline;gap:1em;"
    "border-bottom:2px solid #14181f;padding-bottom:1mm}\n"
    ".slip .ev{font-weight:700;font-size:13pt;overflow-wrap:anywhere}\n"
    ".slip .tb{font-size:20pt;font-weight:800;white-space:nowrap}\n"
    ".slip .pp{display:grid;grid-template-columns:1fr 1fr;gap:4mm}\n"
    ".slip .who{border:1px solid #c9d1dc;border-radius:2mm;padding:1.5mm 3mm}\n"
    ".slip .who .pl{font-size:14pt}\n"
    ".slip .box{display:inline-block;width:4.5mm;height:4.5mm;border:1.5px solid #14181f;"
    "vertical-align:-.8mm;margin-right:2mm}\n"
    ".slip .line{display:inline-block;min-width:28mm;border-bottom:1px solid #14181f;height:5mm}\n"
    ".slip .sig{display:grid;grid-template-columns:1fr 1fr;gap:6mm;margin-top:auto}\n"
    ".slip .sig div{border-top:1px solid #14181f;padding-top:1mm;font-size:9pt;color:#5a6270;margin-top:9mm}\n"
    "@media print{body{font-size:12pt}header,main{max-width:none;padding:0}"
    ".wall{font-size:14pt}.wall section{break-before:page;page-break-before:always}"
    ".wall section:first-of-type{break-before:auto;page-break-before:auto}"
    "tr{break-inside:avoid;page-break-inside:avoid}thead{display:table-header-group}"
    ".slip{margin:0 0 5mm;height:86mm}.scroll{overflow:visible}tbody tr:nth-child(even){background:none}}\n";

/* The head of a printed page: its title (the event, the round, what). */
static void put_print_head(page *p, uint32_t round, const char *what, const char *body_class)
{
    jtext *o = p->out;

    put_lit(o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    put_esc(o, tournament_name(p->t));
    put_fmt(o, ", round %" PRIu32 ": ", round);
    put_str(o, what);
    put_lit(o, "</title>\n<style>\n");
    put_str(o, css);
    put_str(o, print_css);
    put_lit(o, "</style>\n</head>\n<body class=\"");
    put_str(o, body_class);
    put_lit(o, "\">\n");
}

/* The result of round r's pairings, in the file's order; NULL when done. */
static const tour_result *next_of_round(const page *p, uint32_t r, size_t *i)
{
    for (; *i < p->r->n_results; (*i)++)
        if (p->r->results[*i].round == r)
            return &p->r->results[(*i)++];
    return NULL;
}

/* Checks that round r is published; 0, or TOUR_EINVAL with err. */
static int print_round_ok(const page *p, uint32_t r, char *err, size_t errlen)
{
    if (r >= 1 && r <= p->published)
        return 0;
    if (!p->published)
        snprintf(err, errlen, "no round is published yet");
    else
        snprintf(err, errlen, "round %" PRIu32 " is not published (the last one published is round %" PRIu32 ")",
                 r, p->published);
    return TOUR_EINVAL;
}

static void page_init(page *p, const tournament *t, const tour_results *r, jtext *out)
{
    memset(p, 0, sizeof *p);
    p->t = t;
    p->r = r;
    p->out = out;
    p->st = tournament_structure(t);
    p->published = tournament_rounds_published(t);
}

/* One player of the alphabetical list: the player, the table, the seat. */
typedef struct {
    int player, opponent;
    const char *name;           /* the name, else the id */
    const char *id;             /* two players of one name: by id */
    const char *table;          /* NULL: a bye           */
    int seat;                   /* 1 or 2                */
} wall_entry;

static int wall_cmp(const void *a, const void *b)
{
    const wall_entry *x = a, *y = b;
    int c = strcasecmp(x->name, y->name);
    c = c ? c : strcmp(x->name, y->name);
    return c ? c : strcmp(x->id, y->id);
}

static const char *display_name(const tour_player *pl)
{
    return pl->name && pl->name[0] ? pl->name : pl->id;
}

int tourhtml_wall(const tournament *t, const tour_results *r, uint32_t round, jtext *out, char *err, size_t errlen)
{
    page p;
    wall_entry *e = NULL;
    tour_standings *s = NULL;
    const tour_result *x;
    size_t n = 0, i = 0;
    int rc;

    page_init(&p, t, r, out);
    if ((rc = print_round_ok(&p, round, err, errlen)))
        return rc;
    rc = TOUR_ENOMEM;
    if (!(e = calloc(2 * r->n_results + 1, sizeof *e)))
        goto done;
    put_print_head(&p, round, "pairings", "wall");
    put_lit(out, "<header>\n<h1>");
    put_esc(out, tournament_name(t));
    put_lit(out, "</h1>\n<p class=\"status\">");
    put_round_name(&p, round);
    put_lit(out, ": pairings</p>\n</header>\n<main>\n<section id=\"by-table\">\n<h2>By table</h2>\n"
                 "<div class=\"scroll\"><table>\n<thead><tr><th class=\"n\">Table</th><th>Player 1</th><th></th>"
                 "<th>Player 2</th></tr></thead>\n<tbody>\n");
    while ((x = next_of_round(&p, round, &i))) {
        put_lit(out, "<tr><td class=\"n big\">");
        put_esc(out, x->table ? x->table : "-");
        put_lit(out, "</td><td>");
        put_player(&p, x->player[0]);
        put_lit(out, "</td><td class=\"small\">vs</td><td>");
        if (x->player[1] >= 0)
            put_player(&p, x->player[1]);
        else
            put_lit(out, "<span class=\"small\">bye</span>");
        put_lit(out, "</td></tr>\n");
        for (int k = 0; k < 2; k++) {
            const tour_player *pl = x->player[k] >= 0 ? tournament_player(t, (size_t)x->player[k]) : NULL;
            if (!pl)
                continue;
            e[n].player = x->player[k];
            e[n].opponent = x->player[1 - k];
            e[n].name = display_name(pl);
            e[n].id = pl->id;
            e[n].table = x->player[1] >= 0 ? x->table : NULL;
            e[n].seat = k + 1;
            n++;
        }
    }
    put_lit(out, "</tbody></table></div>\n</section>\n<section id=\"by-player\">\n<h2>By player</h2>\n"
                 "<div class=\"scroll\"><table>\n<thead><tr><th>Player</th><th class=\"n\">Table</th><th>Seat</th>"
                 "<th>Opponent</th></tr></thead>\n<tbody>\n");
    qsort(e, n, sizeof *e, wall_cmp);
    for (size_t k = 0; k < n; k++) {
        put_lit(out, "<tr><td>");
        put_player(&p, e[k].player);
        put_lit(out, "</td><td class=\"n big\">");
        put_esc(out, e[k].table ? e[k].table : "-");
        put_lit(out, "</td><td>");
        if (e[k].table)
            put_fmt(out, "Player %d", e[k].seat);
        put_lit(out, "</td><td>");
        if (e[k].table)
            put_player(&p, e[k].opponent);
        else
            put_lit(out, "<span class=\"small\">bye</span>");
        put_lit(out, "</td></tr>\n");
    }
    put_lit(out, "</tbody></table></div>\n</section>\n");
    /* the standings the round was paired from: after the round before */
    if (round > 1) {
        int got = round - 1 <= p.st->swiss_rounds ? tournament_standings(t, r, round - 1, &s, err, errlen)
                                                   : tournament_final(t, r, &s, err, errlen);
        if (got == TOUR_ENOMEM)
            goto done;
        if (!got)
            put_standings(&p, s, "standings");
    }
    put_lit(out, "</main>\n</body>\n</html>\n");
    rc = out->bad ? TOUR_ENOMEM : 0;
done:
    if (rc == TOUR_ENOMEM)
        snprintf(err, errlen, "out of memory");
    tour_standings_destroy(&s);
    free(e);
    return rc;
}

/* One slip: the event, the round, the table; both players; the result to
 * tick and the scores to write; both players' signatures. */
static void put_slip(page *p, uint32_t round, const tour_result *x)
{
    jtext *o = p->out;

    put_lit(o, "<div class=\"slip\">\n<div class=\"top\"><span class=\"ev\">");
    put_esc(o, tournament_name(p->t));
    put_lit(o, "<br><span class=\"small\">");
    put_round_name(p, round);
    if (x->elimination)
        put_fmt(o, ", game %" PRIu32, x->game);
    put_lit(o, "</span></span><span class=\"tb\">Table ");
    put_esc(o, x->table ? x->table : "-");
    put_lit(o, "</span></div>\n<div class=\"pp\">");
    for (int k = 0; k < 2; k++) {
        put_fmt(o, "<div class=\"who\"><span class=\"small\">Player %d</span><br>", k + 1);
        put_player(p, x->player[k]);
        put_lit(o, "</div>");
    }
    put_lit(o, "</div>\n<div><b>Result:</b> <span class=\"box\"></span>");
    put_player(p, x->player[0]);
    put_lit(o, " wins &#160; <span class=\"box\"></span>");
    put_player(p, x->player[1]);
    put_lit(o, " wins &#160; <span class=\"box\"></span>draw</div>\n"
               "<div><b>Scores:</b> Player 1 <span class=\"line\"></span> &#160; Player 2 "
               "<span class=\"line\"></span></div>\n<div class=\"sig\"><div>Player 1's signature</div>"
               "<div>Player 2's signature</div></div>\n</div>\n");
}

int tourhtml_slips(const tournament *t, const tour_results *r, uint32_t round, jtext *out, char *err, size_t errlen)
{
    page p;
    const tour_result *x;
    size_t i = 0, n = 0;
    int rc;

    page_init(&p, t, r, out);
    if ((rc = print_round_ok(&p, round, err, errlen)))
        return rc;
    put_print_head(&p, round, "match slips", "slips");
    put_lit(out, "<main class=\"slips\">\n");
    while ((x = next_of_round(&p, round, &i)))
        if (x->player[1] >= 0 && x->player[0] >= 0) {   /* a bye has nobody to sign with */
            put_slip(&p, round, x);
            n++;
        }
    if (!n)
        put_lit(out, "<p>This round has no table to play at: no slip.</p>\n");
    put_lit(out, "</main>\n</body>\n</html>\n");
    if (out->bad) {
        snprintf(err, errlen, "out of memory");
        return TOUR_ENOMEM;
    }
    return 0;
}
