/* tourorg.c -- the organiser's edits of a tournament file (tourorg.h).
 *
 * Why a module of its own: the file is what the organiser decided, and it
 * used to be edited by hand.  The commands that now keep it must each make
 * one change an organiser would make, and refuse what makes no sense at
 * this point of the event with a sentence -- without touching a file, so
 * that the change can be tested as a function and the caller can validate
 * the whole result with tournament_load() before a byte is written.
 *
 * How: every edit works on the jansson tree of the file, keeping the keys'
 * order (the caller writes with JSON_PRESERVE_ORDER), appending to the
 * lists the format has (players, late_entries, drops, rounds,
 * judge_results) and setting keys of a round or a pairing.  What the
 * format itself checks (a string's length, a table given twice, a winner
 * of another pairing, a late entry after the Swiss stage) is left to the
 * loader, which the caller runs on every result: one validation, the
 * readers'.  The checks here are about time and state -- which round is
 * current, who is playing -- that the format allows but the organiser
 * cannot have meant.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/tournament/tourorg.h"

static int refuse(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return TOURORG_EREFUSED;
}

/* Append a new object to list `key` of root (made when absent); takes o. */
static int append(json_t *root, const char *key, json_t *o)
{
    json_t *list = json_object_get(root, key);

    if (!o)
        return TOURORG_ENOMEM;
    if (!list) {
        list = json_array();
        if (!list || json_object_set_new(root, key, list)) {
            json_decref(o);
            return TOURORG_ENOMEM;
        }
    }
    if (!json_is_array(list)) {   /* the loader refuses such a file before any edit */
        json_decref(o);
        return TOURORG_ENOMEM;
    }
    return json_array_append_new(list, o) ? TOURORG_ENOMEM : TOURORG_OK;
}

static int set(json_t *o, const char *key, json_t *v)
{
    return v && !json_object_set_new(o, key, v) ? TOURORG_OK : TOURORG_ENOMEM;
}

/* ---- reading the tree ------------------------------------------------------------ */

json_t *tourorg_round(const json_t *root, uint32_t r)
{
    json_t *rounds = json_object_get(root, "rounds");
    return r >= 1 ? json_array_get(rounds, r - 1) : NULL;
}

uint32_t tourorg_current_round(const json_t *root, int *closed)
{
    json_t *rounds = json_object_get(root, "rounds");
    uint32_t n = (uint32_t)json_array_size(rounds);

    if (closed)
        *closed = n && json_is_true(json_object_get(json_array_get(rounds, n - 1), "closed"));
    return n;
}

/* Rounds listed with pairings. */
static uint32_t published(const json_t *root)
{
    uint32_t n = tourorg_current_round(root, NULL);
    json_t *last = tourorg_round(root, n);

    return n && !json_array_size(json_object_get(last, "pairings")) ? n - 1 : n;
}

uint32_t tourorg_next_round(const json_t *root)
{
    return published(root) + 1;
}

static json_t *player_of(const json_t *root, const char *id)
{
    size_t i;
    json_t *p;

    json_array_foreach(json_object_get(root, "players"), i, p)
        if (!strcmp(json_string_value(json_object_get(p, "id")) ? json_string_value(json_object_get(p, "id")) : "",
                    id))
            return p;
    return NULL;
}

/* The last round after which `id` dropped with no later entry, or -1 when
 * the player is not dropped; *reason the drop's reason. */
static long dropped_after(const json_t *root, const char *id, const char **reason)
{
    long after = -1, entered = -1;
    size_t i;
    json_t *e;

    json_array_foreach(json_object_get(root, "drops"), i, e)
        if (!strcmp(json_string_value(json_object_get(e, "player")) ? json_string_value(json_object_get(e, "player"))
                                                                     : "", id)) {
            long a = (long)json_integer_value(json_object_get(e, "after_round"));
            if (a >= after) {
                after = a;
                *reason = json_string_value(json_object_get(e, "reason"));
            }
        }
    json_array_foreach(json_object_get(root, "late_entries"), i, e)
        if (!strcmp(json_string_value(json_object_get(e, "player")) ? json_string_value(json_object_get(e, "player"))
                                                                     : "", id)) {
            long r = (long)json_integer_value(json_object_get(e, "round"));
            entered = r > entered ? r : entered;
        }
    return after >= 0 && entered > after ? -1 : after;
}

/* The pairing of round object rd at table, or NULL. */
static json_t *pairing_at(const json_t *rd, const char *table)
{
    size_t i;
    json_t *p;

    json_array_foreach(json_object_get(rd, "pairings"), i, p) {
        const char *t = json_string_value(json_object_get(p, "table"));
        if (t && !strcmp(t, table))
            return p;
    }
    return NULL;
}

/* ---- new --------------------------------------------------------------------------- */

int tourorg_lever(json_t *rules, const char *kv, char *err, size_t errlen)
{
    const char *eq = strchr(kv, '=');
    char key[257], *end = NULL;
    json_t *v;

    if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof key)
        return refuse(err, errlen, "--rule takes a lever as NAME=VALUE, such as chain_cap=3, not '%s'.", kv);
    snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
    if (json_object_get(rules, key))
        return refuse(err, errlen, "The lever %s is given twice.", key);
    if (!strcmp(eq + 1, "true") || !strcmp(eq + 1, "false")) {
        v = json_boolean(!strcmp(eq + 1, "true"));
    } else {
        long long n = strtoll(eq + 1, &end, 10);
        if (!eq[1] || *end)
            return refuse(err, errlen, "The lever %s needs an integer, true or false, not '%s'.", key, eq + 1);
        v = json_integer(n);
    }
    return set(rules, key, v);
}

static int put_str(json_t *o, const char *key, const char *v)
{
    return v ? set(o, key, json_string(v)) : TOURORG_OK;
}

static int new_structure(const tourorg_event *e, json_t **st, char *err, size_t errlen)
{
    char *end = NULL;
    long cut;

    *st = NULL;
    if (e->table && (e->has_swiss || e->cut))
        return refuse(err, errlen, "Give --structure basic|advanced, or --swiss-rounds and --cut, not both.");
    if (e->table) {
        if (strcmp(e->table, "basic") && strcmp(e->table, "advanced"))
            return refuse(err, errlen, "--structure is basic or advanced, not '%s'.", e->table);
        *st = json_pack("{s:s}", "table", e->table);
        return *st ? TOURORG_OK : TOURORG_ENOMEM;
    }
    if (!e->has_swiss || !e->cut)
        return refuse(err, errlen, "A new tournament needs its structure: --structure basic|advanced, or "
                                   "--swiss-rounds S and --cut N.");
    if (!strcmp(e->cut, "all")) {
        *st = json_pack("{s:I, s:s}", "swiss_rounds", (json_int_t)e->swiss_rounds, "cut", "all");
        return *st ? TOURORG_OK : TOURORG_ENOMEM;
    }
    cut = strtol(e->cut, &end, 10);
    if (!e->cut[0] || *end || cut < 0)
        return refuse(err, errlen, "--cut is 0, 4, 8, 16, 32 or all, not '%s'.", e->cut);
    *st = json_pack("{s:I, s:I}", "swiss_rounds", (json_int_t)e->swiss_rounds, "cut", (json_int_t)cut);
    return *st ? TOURORG_OK : TOURORG_ENOMEM;
}

int tourorg_new(const tourorg_event *e, json_t **out, char *err, size_t errlen)
{
    json_t *root = json_object(), *st = NULL;
    int rc = root ? new_structure(e, &st, err, errlen) : TOURORG_ENOMEM;

    *out = NULL;
    if (!rc)
        rc = set(root, "version", json_integer(1));
    if (!rc)
        rc = put_str(root, "id", e->id);
    if (!rc)
        rc = put_str(root, "name", e->name);
    if (!rc)
        rc = put_str(root, "format", e->format);
    if (!rc)
        rc = put_str(root, "cards", e->cards);
    if (!rc && e->rules && json_object_size(e->rules))
        rc = set(root, "rules", json_deep_copy(e->rules));
    if (!rc)
        rc = put_str(root, "seed", e->seed);
    if (!rc)
        rc = set(root, "structure", st);
    st = NULL;
    if (!rc && e->round_minutes)
        rc = set(root, "round_minutes", json_integer(e->round_minutes));
    if (!rc)
        rc = put_str(root, "timezone", e->timezone);
    if (!rc)
        rc = put_str(root, "tier", e->tier);
    if (!rc && e->cut_on_later_day)
        rc = set(root, "cut_on_later_day", json_true());
    if (!rc && e->decklists_public)
        rc = set(root, "decklists_public", json_true());
    if (!rc)
        rc = set(root, "players", json_array());
    json_decref(st);
    if (rc)
        json_decref(root);
    else
        *out = root;
    return rc;
}

/* ---- players ------------------------------------------------------------------------ */

static int new_player(json_t *root, const char *id, const char *name, const json_t *deck, char *err, size_t errlen)
{
    json_t *p;

    if (player_of(root, id))
        return refuse(err, errlen, "A player of id \"%s\" is already registered.", id);
    if (!name || !*name)
        return refuse(err, errlen, "A new player needs a name (--name).");
    p = json_pack("{s:s, s:s}", "id", id, "name", name);
    if (p && deck && json_object_set_new(p, "deck", json_deep_copy(deck))) {
        json_decref(p);
        return TOURORG_ENOMEM;
    }
    return append(root, "players", p);
}

int tourorg_add(json_t *root, const char *id, const char *name, const json_t *deck, char *err, size_t errlen)
{
    if (published(root))
        return refuse(err, errlen, "Round 1 is published: a player who comes now enters late "
                                   "(arbiter tournament late-entry).");
    return new_player(root, id, name, deck, err, errlen);
}

int tourorg_late_entry(json_t *root, const char *id, const char *name, const json_t *deck, uint32_t round,
                       char *err, size_t errlen)
{
    uint32_t next = published(root) + 1;
    const char *reason = NULL;
    int rc;

    if (!round)
        round = next;
    if (round < next)
        return refuse(err, errlen, "Round %u is published: a late entry can join round %u or later.", round, next);
    if (round == 1)
        return refuse(err, errlen, "Nothing is published yet: register the player (arbiter tournament add).");
    if (player_of(root, id)) {
        long after = dropped_after(root, id, &reason);
        if (name || deck)
            return refuse(err, errlen, "\"%s\" is registered already: a player who rejoins keeps their name and "
                                       "decklist.", id);
        if (after < 0)
            return refuse(err, errlen, "\"%s\" is playing: only a new player or one who dropped can enter late.", id);
        if (reason && !strcmp(reason, "disqualified"))
            return refuse(err, errlen, "\"%s\" was disqualified and cannot rejoin (T22).", id);
    } else if ((rc = new_player(root, id, name, deck, err, errlen))) {
        return rc;
    }
    return append(root, "late_entries", json_pack("{s:s, s:I}", "player", id, "round", (json_int_t)round));
}

static const char *const drop_reasons[] = {"drop", "no_show", "disqualified", NULL};

int tourorg_drop(json_t *root, const char *id, const char *reason, long after, char *err, size_t errlen)
{
    uint32_t now = published(root);
    const char *had = NULL;
    long was;
    size_t k = 0;

    while (drop_reasons[k] && strcmp(drop_reasons[k], reason))
        k++;
    if (!drop_reasons[k])
        return refuse(err, errlen, "The reason of a drop is drop, no_show or disqualified, not '%s'.", reason);
    if (!player_of(root, id))
        return refuse(err, errlen, "No player of id \"%s\" is registered.", id);
    if (after < 0)
        after = now;
    if ((uint32_t)after > now)
        return refuse(err, errlen, "Round %ld is not published yet: a player drops after a round that is "
                                   "(the current round is %u).", after, now);
    if ((was = dropped_after(root, id, &had)) >= 0)
        return refuse(err, errlen, "\"%s\" has already left after round %ld (%s).", id, was, had ? had : "drop");
    return append(root, "drops", json_pack("{s:s, s:I, s:s}", "player", id, "after_round", (json_int_t)after,
                                           "reason", reason));
}

/* ---- rounds --------------------------------------------------------------------------- */

int tourorg_publish(json_t *root, uint32_t round, const json_t *pairings, const char *seed, uint64_t started,
                    char *err, size_t errlen)
{
    uint32_t next = tourorg_next_round(root), listed = tourorg_current_round(root, NULL);
    json_t *rd;
    int rc = TOURORG_OK;

    if (round != next)
        return refuse(err, errlen, "Round %u cannot be published: the next round is %u.", round, next);
    if (listed < round) {
        rd = json_pack("{s:I}", "round", (json_int_t)round);
        if ((rc = append(root, "rounds", rd)))
            return rc;
    }
    rd = tourorg_round(root, round);
    if (seed && !json_object_get(rd, "seed"))
        rc = set(rd, "seed", json_string(seed));
    if (!rc && started)
        rc = set(rd, "started", json_integer((json_int_t)started));
    if (!rc)
        rc = set(rd, "pairings", json_deep_copy(pairings));
    return rc;
}

/* The current round, open, as round object; refused otherwise. */
static int current_open(const json_t *root, uint32_t round, json_t **rd, char *err, size_t errlen)
{
    int closed;
    uint32_t now = tourorg_current_round(root, &closed);

    *rd = NULL;
    if (!now || !published(root))
        return refuse(err, errlen, "No round is published yet.");
    if (round != now)
        return refuse(err, errlen, "Round %u is not the current round: round %u is.", round, now);
    if (closed)
        return refuse(err, errlen, "Round %u is closed.", round);
    *rd = tourorg_round(root, round);
    return TOURORG_OK;
}

/* Whether id plays in pairing pr. */
static int plays(const json_t *pr, const char *id)
{
    const char *p1 = json_string_value(json_object_get(pr, "p1")), *p2 = json_string_value(json_object_get(pr, "p2"));

    return (p1 && !strcmp(id, p1)) || (p2 && !strcmp(id, p2));
}

/* The pairing at round's table, into *pr, with the sentence when there is
 * none; and each of the players named (ids, NULL ones skipped; scores: its
 * keys) must play there. */
static int table_of(const json_t *root, uint32_t round, const char *table, const char *const who[2],
                    const json_t *scores, json_t **pr, char *err, size_t errlen)
{
    json_t *rd = tourorg_round(root, round), *v;
    const char *id;

    if (!rd || !json_array_size(json_object_get(rd, "pairings")))
        return refuse(err, errlen, "Round %u is not published.", round);
    if (!(*pr = pairing_at(rd, table)))
        return refuse(err, errlen, "Round %u has no table \"%s\".", round, table);
    for (int k = 0; k < 2; k++)
        if (who[k] && !plays(*pr, who[k]))
            return refuse(err, errlen, "\"%s\" does not play at table %s of round %u: %s and %s do.", who[k], table,
                          round, json_string_value(json_object_get(*pr, "p1")),
                          json_string_value(json_object_get(*pr, "p2")));
    json_object_foreach((json_t *)scores, id, v)
        if (!plays(*pr, id))
            return refuse(err, errlen, "A score for \"%s\", who does not play at table %s of round %u: %s and %s do.",
                          id, table, round, json_string_value(json_object_get(*pr, "p1")),
                          json_string_value(json_object_get(*pr, "p2")));
    return TOURORG_OK;
}

/* Put o in list `key` of parent in place of the element whose round (when
 * round) and table match, or append it; *replaced says which (may be NULL). */
static int put_for_table(json_t *parent, const char *key, uint32_t round, const char *table, json_t *o, int *replaced)
{
    json_t *list = json_object_get(parent, key), *old;
    size_t i;

    if (replaced)
        *replaced = 0;
    if (!o)
        return TOURORG_ENOMEM;
    json_array_foreach(list, i, old) {
        const char *t = json_string_value(json_object_get(old, "table"));
        if ((!round || json_integer_value(json_object_get(old, "round")) == (json_int_t)round) && t &&
            !strcmp(t, table)) {
            if (replaced)
                *replaced = 1;
            return json_array_set_new(list, i, o) ? TOURORG_ENOMEM : TOURORG_OK;
        }
    }
    return append(parent, key, o);
}

/* The judge results' kinds (arbiter-tournament(5)), and which take a winner. */
static const struct {
    const char *name;
    int winner;                 /* 1: required; 0: refused                     */
} rulings[] = {
    {"win", 1}, {"draw", 0}, {"engine", 0}, {"at_time", 0}, {"double_loss", 0},
};

int tourorg_result(json_t *root, uint32_t round, const char *table, const tourorg_ruling *j, int *replaced,
                   char *err, size_t errlen)
{
    const char *who[2] = {j->winner, j->draw_win};
    json_t *pr, *o;
    size_t k;
    int rc;

    if (replaced)
        *replaced = 0;
    for (k = 0; k < sizeof rulings / sizeof rulings[0] && strcmp(rulings[k].name, j->result); k++)
        ;
    if (k == sizeof rulings / sizeof rulings[0])
        return refuse(err, errlen, "A judge's result is win, draw, engine, at_time or double_loss, not '%s'.",
                      j->result);
    if (rulings[k].winner && !j->winner)
        return refuse(err, errlen, "A win needs its winner.");
    if (!rulings[k].winner && j->winner)
        return refuse(err, errlen, "A winner goes with a win, not with %s.", j->result);
    if (j->draw_win && strcmp(j->result, "draw"))
        return refuse(err, errlen, "A draw win goes with a draw, not with %s.", j->result);
    if ((rc = table_of(root, round, table, who, j->scores, &pr, err, errlen)))
        return rc;
    if (!(o = json_pack("{s:I, s:s}", "round", (json_int_t)round, "table", table)))
        return TOURORG_ENOMEM;
    rc = put_str(o, "match", j->match);
    if (!rc)
        rc = put_str(o, "result", j->result);
    if (!rc)
        rc = put_str(o, "winner", j->winner);
    if (!rc)
        rc = put_str(o, "draw_win", j->draw_win);
    if (!rc && j->scores)
        rc = set(o, "scores", json_deep_copy(j->scores));
    if (!rc)
        rc = put_str(o, "judge", j->judge);
    if (!rc)
        rc = put_str(o, "text", j->text);
    if (rc) {
        json_decref(o);
        return rc;
    }
    return put_for_table(root, "judge_results", round, table, o, replaced);
}

int tourorg_scores(const char *text, json_t **out, char *err, size_t errlen)
{
    json_t *o = json_object();
    const char *p = text;

    *out = NULL;
    if (!o)
        return TOURORG_ENOMEM;
    while (*p) {
        const char *eq = strchr(p, '='), *end = strchr(p, ',');
        char id[257], *num_end = NULL;
        long long v;

        if (!end)
            end = p + strlen(p);
        if (!eq || eq > end || eq == p || (size_t)(eq - p) >= sizeof id)
            goto bad;
        memcpy(id, p, (size_t)(eq - p));
        id[eq - p] = 0;
        v = strtoll(eq + 1, &num_end, 10);
        if (num_end == eq + 1 || num_end != end || eq[1] == '-' || eq[1] == '+' || v < 0 || v == LLONG_MAX)
            goto bad;
        if (json_object_get(o, id)) {
            json_decref(o);
            return refuse(err, errlen, "--scores names \"%s\" twice.", id);
        }
        if (json_object_set_new(o, id, json_integer(v))) {
            json_decref(o);
            return TOURORG_ENOMEM;
        }
        p = *end ? end + 1 : end;
        if (*end && !*p)
            goto bad;
    }
    if (!json_object_size(o))
        goto bad;
    *out = o;
    return TOURORG_OK;
bad:
    json_decref(o);
    return refuse(err, errlen, "--scores is each player's score, a whole number, as alice=3,bob=1, not '%s'.", text);
}

int tourorg_report(json_t *root, uint32_t round, const char *table, const char *winner, const json_t *scores,
                   int *replaced, char *err, size_t errlen)
{
    const char *who[2] = {winner, NULL};
    json_t *pr, *o, *rd;
    int closed, rc;

    if (replaced)
        *replaced = 0;
    if (round != tourorg_current_round(root, &closed))
        return refuse(err, errlen, "Round %u is not the current round: a report is taken while its round is on.",
                      round);
    if ((rc = table_of(root, round, table, who, scores, &pr, err, errlen)))
        return rc;
    rd = tourorg_round(root, round);
    o = winner ? json_pack("{s:s, s:s}", "table", table, "winner", winner)
               : json_pack("{s:s, s:b}", "table", table, "draw", 1);
    if (o && scores && json_object_set_new(o, "scores", json_deep_copy(scores))) {
        json_decref(o);
        return TOURORG_ENOMEM;
    }
    return put_for_table(rd, "reports", 0, table, o, replaced);
}

int tourorg_intentional_draw(json_t *root, uint32_t round, const char *table, char *err, size_t errlen)
{
    json_t *rd, *pr;
    int rc = current_open(root, round, &rd, err, errlen);

    if (rc)
        return rc;
    if (!(pr = pairing_at(rd, table)))
        return refuse(err, errlen, "Round %u has no table \"%s\".", round, table);
    if (json_object_get(pr, "game"))
        return refuse(err, errlen, "Round %u is an elimination round: a game there cannot end in an intentional "
                                   "draw (T15).", round);
    return set(pr, "intentional_draw", json_true());
}

int tourorg_time_call(json_t *root, uint32_t round, const char *table, uint64_t ms, char *err, size_t errlen)
{
    json_t *rd, *target;
    json_int_t started;
    int rc = current_open(root, round, &rd, err, errlen);

    if (rc)
        return rc;
    started = json_integer_value(json_object_get(rd, "started"));
    if (started && (json_int_t)ms < started)
        return refuse(err, errlen, "Time cannot be called before round %u started.", round);
    target = rd;
    if (table && !(target = pairing_at(rd, table)))
        return refuse(err, errlen, "Round %u has no table \"%s\".", round, table);
    return set(target, "time_called", json_integer((json_int_t)ms));
}

int tourorg_close(json_t *root, uint32_t round, char *err, size_t errlen)
{
    json_t *rd;
    int rc = current_open(root, round, &rd, err, errlen);

    return rc ? rc : set(rd, "closed", json_true());
}
