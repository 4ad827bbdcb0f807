/* view.c -- a match's board and events as one viewer may see them.
 *
 * What: the views of openlog.md 9 (public, judge, one per seat) and the one rule of who sees which
 * hidden card; a match's board for a view, drawn by the match's own engine
 * (as words for a judge at a table, as JSON for table software); and
 * events filtered for a viewer.  `arbiter replay`, `arbiter audit` and the
 * daemon (feed, query socket) all come here.  (The per-event state hash of
 * a record is the engine's: verifier_state_hash.)
 *
 * Why one module: hidden information is the one thing a view can get
 * dangerously wrong.  Every hidden card shown anywhere goes through
 * openlog_show(), which obeys the sight view_can_see() made; no other code
 * decides who sees what, so a leak would have to be written here, where
 * the rule is.
 *
 * How: a view becomes an openlog_sight (view_sight: whose hidden cards it
 * sees, by view_can_see) and the engine draws its board for that sight
 * through verifier.h; it shows a hidden card through openlog_show(), as
 * what the engine knows of it -- an identity, a commitment not yet
 * opened, or nothing (announced mode) -- and only when the sight allows.
 * The engine never decides visibility and this file never reads an
 * engine's state, so a leak would have to be written here, where the
 * rule is, or in openlog_show().
 */
#include <stdlib.h>
#include <string.h>

#include "logformat/jtext.h"
#include "logformat/olcodec.h"
#include "src/core/view.h"

static const char *const view_names[] = {"public", "judge", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"};
_Static_assert(sizeof view_names / sizeof view_names[0] == VIEW_P8 + 1 && VIEW_P8 - VIEW_P1 + 1 == OL_PLAYERS_MAX,
               "a view per seat");

int view_parse(const char *name, view_kind *out)
{
    for (size_t i = 0; name && i < sizeof view_names / sizeof view_names[0]; i++)
        if (!strcmp(name, view_names[i])) {
            *out = (view_kind)i;
            return 0;
        }
    return -1;
}

const char *view_name(view_kind v)
{
    return (unsigned)v < sizeof view_names / sizeof view_names[0] ? view_names[v] : "?";
}

int view_seat(view_kind v)
{
    return v >= VIEW_P1 && v <= VIEW_P8 ? (int)(v - VIEW_P1) : -1;
}

int view_in_match(view_kind v, unsigned n_players, char *msg, size_t cap)
{
    int seat = view_seat(v);
    if (seat < 0 || (unsigned)seat < n_players)
        return 1;
    if (msg && n_players >= 1 && n_players <= OL_PLAYERS_MAX)
        snprintf(msg, cap, "This match has no %s: its players are p1 %s %s.", view_name(v), n_players == 2 ? "and" : "to",
                 ol_player_name((ol_player)(n_players - 1)));
    else if (msg)
        snprintf(msg, cap, "This match has no %s.", view_name(v));
    return 0;
}

/* ---- who sees what ---------------------------------------------------------- */

int view_can_see(view_kind v, int owner)
{
    if (v == VIEW_JUDGE)
        return 1;
    return owner >= 0 && view_seat(v) == owner;   /* the public: nobody's */
}

/* The sight of a view: whose hidden cards it sees, by the rule above.
 * Engines draw what a sight allows (verifiers/openlog.h). */
openlog_sight view_sight(view_kind v)
{
    openlog_sight s;
    for (int p = 0; p < OL_PLAYERS_MAX; p++)
        s.sees[p] = (uint8_t)view_can_see(v, p);
    return s;
}

/* ---- boards, through the match's engine --------------------------------------- */

int view_board_print(FILE *out, const verifier *vf, view_kind v)
{
    openlog_sight sight = view_sight(v);
    jtext t = {0};
    int rc = -1;

    if (!verifier_board_words(vf, &sight, &t) && fwrite(t.buf, 1, t.len, out) == t.len)
        rc = 0;
    jtext_free(&t);
    return rc;
}

json_t *view_board_json(const verifier *vf, view_kind v)
{
    openlog_sight sight = view_sight(v);
    jtext t = {0};
    json_t *o = verifier_board_json(vf, &sight, &t) ? NULL : json_loadb(t.buf, t.len, 0, NULL);

    jtext_free(&t);
    return o;
}

/* ---- events ------------------------------------------------------------------- */

/* A card id in an href is an identity; a commitment ({"c": hex}) or null
 * reveals nothing.  Hide the identities `v` may not see. */
static void hide_href(json_t *parent, const char *key, json_t *href, int visible)
{
    if (!visible && json_is_string(href))
        json_object_set_new(parent, key, json_null());
}

/* 1 when v sees the cards the field h hides. */
static int sees(view_kind v, const verifier_hidden_field *h)
{
    return h->owner >= 0 && view_can_see(v, h->owner);
}

/* The fields of ev that hide a card from some view (hid, its count
 * returned). */
static size_t hidden_of(const olevent *ev, view_kind v, const olevent *header,
                        verifier_hidden_field hid[VERIFIER_HIDDEN_MAX])
{
    return v == VIEW_JUDGE ? 0 : verifier_event_hidden(ev, ev->type == OL_MATCH ? ev : header, hid);
}

int view_event_text(const olevent *ev, view_kind v, const olevent *header, jtext *out)
{
    verifier_hidden_field hid[VERIFIER_HIDDEN_MAX];
    olcodec_null nulls[VERIFIER_HIDDEN_MAX];
    size_t n_nulls = 0;
    /* a header's decklists are left to the tree (one event a match) */
    if (ev->type == OL_MATCH || ev->tree || !ev->wire)
        return 0;
    size_t n_hid = hidden_of(ev, v, header, hid);
    for (size_t i = 0; i < n_hid; i++)
        if (!sees(v, &hid[i]))
            nulls[n_nulls++] = (olcodec_null){hid[i].key, hid[i].list, hid[i].list ? hid[i].first : 0};
    /* view_event_json's object is then the tree of these bytes, less the
     * nonce outside the judge's view, with the hidden hrefs null */
    int rc = olcodec_msgpack_text(ev->wire, ev->wire_len, v == VIEW_JUDGE ? NULL : "nonce", nulls, n_nulls, NULL, 0,
                                  out);
    return rc == OL_OK ? 1 : rc == OL_ENOMEM ? -1 : 0;
}

json_t *view_event_json(const olevent *ev, view_kind v, const olevent *header)
{
    json_t *o = olcodec_to_json(ev);
    if (!o || v == VIEW_JUDGE)
        return o;
    verifier_hidden_field hid[VERIFIER_HIDDEN_MAX];
    size_t n_hid = hidden_of(ev, v, header, hid);
    /* nothing to draw on -- no nonce, no hidden field, no decklist: every
     * view sees the event as the judge does, and gets it as the judge's
     * view does (most events; the copy below was most of a public view's
     * cost) */
    if (!n_hid && ev->type != OL_MATCH && !json_object_get(o, "nonce"))
        return o;
    /* a copy to draw on: an event decoded from JSON hands out its own tree
     * (olcodec_to_json), which the judge's view and every later reader
     * must still find whole */
    json_t *copy = json_deep_copy(o);
    json_decref(o);
    if (!(o = copy))
        return NULL;
    json_object_del(o, "nonce");
    for (size_t i = 0; i < n_hid; i++) {
        /* the engine says which fields hide whose cards */
        int see = sees(v, &hid[i]);
        json_t *f = json_object_get(o, hid[i].key);
        if (!hid[i].list) {
            hide_href(o, hid[i].key, f, see);
            continue;
        }
        for (size_t k = 0; k < json_array_size(f) && k < hid[i].first; k++)
            if (!see && json_is_string(json_array_get(f, k)))
                json_array_set_new(f, k, json_null());
    }
    if (ev->type == OL_MATCH) {
        /* A decklist says what the hidden zones may hold. */
        json_t *players = json_object_get(o, "players");
        for (int p = 0; p < OL_PLAYERS_MAX; p++) {
            json_t *seat = json_object_get(players, ol_player_name((ol_player)p));
            if (json_is_object(seat) && json_object_get(seat, "deck") && !view_can_see(v, p))
                json_object_set_new(seat, "deck", json_null());
        }
    }
    /* every other card an event names is public (openlog 6) */
    return o;
}

/* ---- sentences: the cards a view may not read ------------------------------ */

int view_strings(json_t *set, const json_t *j, const cards *db)
{
    size_t i;
    const char *k;
    json_t *v;

    if (json_is_string(j)) {
        const card *c = db ? cards_find(db, json_string_value(j)) : NULL;
        if (json_object_set_new(set, json_string_value(j), json_true()) ||
            (c && json_object_set_new(set, c->name, json_true())))
            return -1;
    } else if (json_is_array(j)) {
        json_array_foreach((json_t *)j, i, v)
            if (view_strings(set, v, db))
                return -1;
    } else if (json_is_object(j)) {
        json_object_foreach((json_t *)j, k, v)
            if (view_strings(set, v, db))
                return -1;
    }
    return 0;
}

static int in_set(const json_t *set, const char *s)
{
    return set && json_object_get(set, s) != NULL;
}

/* s with every occurrence of `word` replaced by `by`: a new string, or
 * NULL when out of memory. */
static char *replace_all(const char *s, const char *word, const char *by)
{
    size_t n = 0, wl = strlen(word), bl = strlen(by);
    for (const char *p = strstr(s, word); p; p = strstr(p + wl, word))
        n++;
    char *out = malloc(strlen(s) + n * bl + 1), *w = out;
    if (!out)
        return NULL;
    for (const char *p; (p = strstr(s, word)); s = p + wl) {
        memcpy(w, s, (size_t)(p - s));
        w += p - s;
        memcpy(w, by, bl);
        w += bl;
    }
    strcpy(w, s);
    return out;
}

static int by_name_length(const void *a, const void *b)
{
    size_t la = strlen((*(const card *const *)a)->name), lb = strlen((*(const card *const *)b)->name);
    return la < lb ? 1 : la > lb ? -1 : 0;
}

char *view_redact(const char *msg, const cards *db, const json_t *seen, const json_t *hidden)
{
    if (!db)
        return strdup("(the sentence is withheld: without the card database it cannot be told which cards "
                      "it names are hidden from this view)");
    size_t n = cards_count(db);
    const card **order = malloc((n ? n : 1) * sizeof *order);
    char *text = strdup(msg ? msg : "");
    if (!order || !text) {
        free(order);
        free(text);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = cards_at(db, i);
    /* longest names first: "Ember Drake" is not found inside a name
     * already replaced */
    qsort(order, n, sizeof *order, by_name_length);
    for (size_t i = 0; i < n && text; i++) {
        const card *c = order[i];
        int shown = (!seen || in_set(seen, c->id) || in_set(seen, c->name)) && !in_set(hidden, c->id) &&
                    !in_set(hidden, c->name);
        for (int form = 0; form < 2 && text && !shown; form++) {
            const char *word = form ? c->id : c->name;
            if (!word[0] || !strstr(text, word))
                continue;
            char *next = replace_all(text, word, "a hidden card");
            free(text);
            text = next;
        }
    }
    free(order);
    return text;
}

/* A verdict's sentence, and its `stored` one, through view_redact() with
 * the cards this event hides from v: those the judge's view of the event
 * names and v's does not. */
static int redact_msg(json_t *verdict, const cards *db, const json_t *hidden)
{
    json_t *msg = json_object_get(verdict, "msg");
    int changed = 0;
    if (json_is_string(msg)) {
        char *safe = view_redact(json_string_value(msg), db, NULL, hidden);
        changed = safe && strcmp(safe, json_string_value(msg)) != 0;
        if (!safe || (changed && json_object_set_new(verdict, "msg", json_string(safe)))) {
            free(safe);
            return -1;
        }
        free(safe);
    }
    json_t *stored = json_object_get(verdict, "stored");
    int more = json_is_object(stored) ? redact_msg(stored, db, hidden) : 0;
    return more < 0 ? -1 : changed || more;
}

int view_verdict_redact(json_t *verdict, const olevent *ev, view_kind v, const olevent *header, const cards *db)
{
    if (v == VIEW_JUDGE || !ev || !json_is_object(verdict))
        return 0;
    json_t *judge = view_event_json(ev, VIEW_JUDGE, header), *seen = view_event_json(ev, v, header);
    json_t *all = json_object(), *shown = json_object(), *hidden = json_object();
    int rc = -1;
    if (!judge || !seen || !all || !shown || !hidden || view_strings(all, judge, db) || view_strings(shown, seen, db))
        goto out;
    const char *k;
    json_t *x;
    json_object_foreach(all, k, x)
        if (!json_object_get(shown, k) && json_object_set(hidden, k, json_true()))
            goto out;
    rc = json_object_size(hidden) ? redact_msg(verdict, db, hidden) : 0;
out:
    json_decref(judge);
    json_decref(seen);
    json_decref(all);
    json_decref(shown);
    json_decref(hidden);
    return rc;
}
