/* openlog.c -- what the open log owns, whatever the format (openlog.h).
 *
 * What: hidden cards and their commitments, what a viewer is shown of
 * them, the end of the game, the shot clock, and the three events every
 * format shares -- `concede`, `judge`, `claim`.
 *
 * Why one module: these are the wire contract's rules, not a format's.
 * Snap, Advanced and Master tables announce hidden cards the same way and
 * are refereed the same way; written per engine, a fix to one would miss
 * the others, and two engines could disagree about the same log.
 *
 * How: an engine embeds an openlog_match in its state and judges each
 * event with an openlog_judgement pointing at it; the functions here
 * check, and on failure write the verdict through openlog_fail().  The
 * format's own rule ids come in as arguments.
 */
#include <stdarg.h>
#include <string.h>

#include <sodium/crypto_generichash.h>

#include "verifiers/deck.h"
#include "verifiers/openlog.h"

void openlog_start(openlog_match *m, const cards *db, const ol_header *h)
{
    memset(m, 0, sizeof *m);
    m->db = db;
    m->hidden = h->hidden;
    m->winner = -1;
    for (unsigned p = 0; p < h->n_players && p < OL_PLAYERS_MAX; p++)
        olverdict_format(m->names[p], sizeof m->names[p], "%s (%s)", ol_player_name((ol_player)p), h->players[p].id);
}

/* The header's seats, p1 first (each seat's deck is checked). */
static size_t header_seats(const ol_header *h)
{
    return h->n_players;
}

int openlog_check_decks(const olevent *header, const cards *db, deck_memo *memo, olverdict *v)
{
    const ol_header *h = &header->header;
    for (size_t p = 0; p < header_seats(h); p++) {
        deck_violation dv;
        size_t n = 0;
        if (deck_check_memo(memo, h->format, db, h, &h->players[p].deck, ol_player_name((ol_player)p), &dv, 1, &n))
            return OPENLOG_EINTERNAL;
        if (n) {
            olverdict_set(v, header->match, header->seq, OL_V_ILLEGAL, dv.rule, "%s", dv.msg);
            return 1;
        }
    }
    return 0;
}

int openlog_player_of(const olevent *ev)
{
    return ev->by < OL_BY_TABLE ? (int)ev->by : -1;
}

void openlog_player_id(const openlog_match *m, int p, char *out, size_t cap)
{
    /* a bounded copy, as snprintf("%s") would make (this runs for every
     * state hash: no printf) */
    const char *open = strchr(m->names[p], '(');
    const char *from = open ? open + 1 : m->names[p];
    size_t n = strlen(from);

    if (n >= cap)
        n = cap - 1;
    memcpy(out, from, n);
    out[n] = '\0';
    if (open && n && out[n - 1] == ')')
        out[n - 1] = '\0';
}

int openlog_fail(openlog_judgement *j, ol_status st, const char *rule, const char *fmt, ...)
{
    char msg[OL_MSG_MAX];
    va_list ap;

    if (j->failed)
        return -1;
    va_start(ap, fmt);
    olverdict_vformat(msg, sizeof msg, fmt, ap);
    va_end(ap);
    olverdict_set(j->v, j->ev->match, j->ev->seq, st, rule, "%s", msg);
    j->failed = 1;
    return -1;
}

int openlog_break(openlog_judgement *j, const char *rule, const char *fmt, ...)
{
    char msg[OL_MSG_MAX];
    va_list ap;

    if (j->m->forcing && !j->failed) {
        /* a judge lets it stand: the rule is passed over, not the check's
         * failure written -- the verdict of the remedy says it.  The count
         * is a write to the state like any other (R12: noted) */
        if (j->m->n_forced < UINT8_MAX)
            UNDO_SET(j->m->undo, j->m->n_forced, j->m->n_forced + 1);
        return 0;
    }
    if (j->failed)
        return 1;
    va_start(ap, fmt);
    olverdict_vformat(msg, sizeof msg, fmt, ap);
    va_end(ap);
    olverdict_set(j->v, j->ev->match, j->ev->seq, OL_V_ILLEGAL, rule, "%s", msg);
    j->failed = 1;
    return 1;
}

/* ---- hidden cards ------------------------------------------------------ */

static unsigned hex_digit(char c)
{
    return (unsigned)(c <= '9' ? c - '0' : c - 'a' + 10);
}

static int commit_matches(const openlog_card *h, const char *id, const char *nonce)
{
    uint8_t nb[OL_NONCE_MAX_BYTES], out[OL_COMMIT_BYTES];
    crypto_generichash_state st;
    size_t n;

    if (!nonce)
        return 0;
    n = strlen(nonce) / 2;
    for (size_t i = 0; i < n; i++)
        nb[i] = (uint8_t)(hex_digit(nonce[2 * i]) << 4 | hex_digit(nonce[2 * i + 1]));
    /* openlog 6: "hex = BLAKE2b-256(card id bytes || 0x00 || nonce bytes)".
     * libsodium fails these calls only for an output or key length out of
     * range; BLAKE2b-256 without a key is in range, so none can fail. */
    crypto_generichash_init(&st, NULL, 0, sizeof out);
    crypto_generichash_update(&st, (const unsigned char *)id, strlen(id));
    crypto_generichash_update(&st, (const unsigned char *)"", 1);
    crypto_generichash_update(&st, nb, n);
    crypto_generichash_final(&st, out, sizeof out);
    return memcmp(out, h->commit, sizeof out) == 0;
}

static const char *href_shape(ol_href_kind k)
{
    return k == OL_HREF_CARD ? "a card id" : k == OL_HREF_COMMIT ? "a commitment" : "null";
}

int openlog_take_href(openlog_judgement *j, const ol_href *h, openlog_card *out, const char *what)
{
    static const ol_href_kind want[] = {OL_HREF_CARD, OL_HREF_COMMIT, OL_HREF_NULL};
    const openlog_match *m = j->m;

    undo_note(m->undo, out, sizeof *out);   /* a local of the caller is no state: ignored */
    memset(out, 0, sizeof *out);
    /* openlog 6: open mode names the card, commit mode its commitment,
     * announced mode nothing (null) -- the header's mode decides. */
    if (h->kind != want[m->hidden])
        return OPENLOG_ILLEGAL(j, "openlog:6", "%s is announced as %s, but this match is played in %s mode.", what,
                               href_shape(h->kind), ol_hidden_name(m->hidden));
    if (h->kind == OL_HREF_CARD && !(out->card = cards_find(m->db, h->card)))
        return OPENLOG_ILLEGAL(j, "openlog:cards", "The card \"%s\" is not in the card database.", h->card);
    if (h->kind == OL_HREF_COMMIT) {
        memcpy(out->commit, h->commit, sizeof out->commit);
        out->has_commit = 1;
    }
    return 0;
}

int openlog_reveal(openlog_judgement *j, const openlog_card *h, const char *id, const char *nonce,
                   const char *where, const card **out)
{
    const card *c = cards_find(j->m->db, id);

    if (!c)
        return OPENLOG_ILLEGAL(j, "openlog:cards", "The card \"%s\" is not in the card database.", id);
    /* the card that is there stays unnamed: it is hidden from everyone but
     * its owner and the judge, and the sentence goes to every view (the
     * judge's board shows it) */
    if (h->card && h->card != c)
        return OPENLOG_ILLEGAL(j, "openlog:6", "%s reveals %s, which is not the card there.", where, c->name);
    if (h->has_commit && !commit_matches(h, id, nonce))
        return OPENLOG_ILLEGAL(j, "openlog:commit", "%s reveals %s, which does not match the card committed there.",
                               where, c->name);
    *out = c;
    return 0;
}

int openlog_zone_find(const openlog_card *zone, int n, const card *c, const char *nonce)
{
    for (int i = 0; i < n; i++)
        if (zone[i].card == c)
            return i;
    for (int i = 0; i < n; i++)
        if (!zone[i].card && zone[i].has_commit && commit_matches(&zone[i], c->id, nonce))
            return i;
    for (int i = 0; i < n; i++)
        if (!zone[i].card && !zone[i].has_commit)
            return i;
    return -1;
}

int openlog_zone_match(const openlog_card *zone, int n, const openlog_card *h)
{
    for (int i = 0; i < n; i++) {
        if (h->card ? zone[i].card == h->card
            : h->has_commit ? zone[i].has_commit && !memcmp(zone[i].commit, h->commit, sizeof h->commit)
                            : !zone[i].card && !zone[i].has_commit)
            return i;
    }
    return -1;
}

int openlog_deck_take(openlog_judgement *j, const card *const *list, uint8_t *used, int n, const card *c,
                      int owner, const char *what, const char *deck_word)
{
    int found = 0;

    for (int i = 0; i < n; i++) {
        if (list[i] != c)
            continue;
        found = 1;
        if (!used[i]) {
            UNDO_SET(j->m->undo, used[i], 1);
            return 0;
        }
    }
    if (!found)
        return OPENLOG_ILLEGAL(j, "openlog:6", "%s %s, which is not in %s's %s.", what, c->name,
                               openlog_who(j->m, owner), deck_word);
    return OPENLOG_ILLEGAL(j, "openlog:6", "%s %s, but every copy of it in %s's %s is already used.", what, c->name,
                           openlog_who(j->m, owner), deck_word);
}

/* ---- what a viewer is shown ------------------------------------------------ */

openlog_shown openlog_show(const openlog_sight *sight, int owner, const openlog_card *h)
{
    if (!sight->sees[owner])
        return (openlog_shown){OPENLOG_SHOWN_HIDDEN, NULL};
    if (h->card)
        return (openlog_shown){OPENLOG_SHOWN_CARD, h->card};
    return (openlog_shown){h->has_commit ? OPENLOG_SHOWN_COMMITTED : OPENLOG_SHOWN_UNKNOWN, NULL};
}

openlog_shown openlog_show_known(const openlog_sight *sight, int owner, const card *c)
{
    openlog_card h;

    memset(&h, 0, sizeof h);
    h.card = c;
    return openlog_show(sight, owner, &h);
}

void openlog_shown_json(jtext *t, openlog_shown sh)
{
    if (sh.kind == OPENLOG_SHOWN_CARD)
        jtext_str(t, sh.card->id);
    else if (sh.kind == OPENLOG_SHOWN_COMMITTED)
        jtext_lit(t, "\"committed\"");
    else
        jtext_lit(t, "null");
}

const char *openlog_shown_words(openlog_shown sh)
{
    switch (sh.kind) {
    case OPENLOG_SHOWN_CARD: return sh.card->name;
    case OPENLOG_SHOWN_COMMITTED: return "committed, not yet revealed";
    case OPENLOG_SHOWN_UNKNOWN: return "unknown";
    case OPENLOG_SHOWN_HIDDEN:
    default: break;
    }
    return "hidden";
}

/* ---- the end of the game ---------------------------------------------------- */

int openlog_over(const openlog_match *m, const olevent *ev, olverdict *v, const char *rule, const char *sentence)
{
    /* openlog 8: nothing follows the end but `judge` -- and `claim`, which
     * is no action but the table's account of the end. */
    if (!m->over || ev->type == OL_JUDGE || ev->type == OL_CLAIM)
        return 0;
    olverdict_set(v, ev->match, ev->seq, OL_V_ILLEGAL, rule, "%s", sentence);
    return 1;
}

void openlog_end(openlog_match *m, int winner)
{
    UNDO_SET(m->undo, m->over, 1);
    UNDO_SET(m->undo, m->winner, (int8_t)winner);
}

void openlog_end_draw(openlog_match *m)
{
    openlog_end(m, -1);
    UNDO_SET(m->undo, m->draw, 1);
}

/* ---- the shot clock ----------------------------------------------------------- */

void openlog_clock(openlog_match *m, const olevent *ev, olverdict *v, uint64_t limit_ms, const char *rule)
{
    int p = openlog_player_of(ev);

    if (!ev->has_t) {
        /* snap A6: "measured between consecutive events that both carry `t`"
         * -- after an event without one, the next gap is unknown. */
        m->has_last_t = 0;
        return;
    }
    if (p >= 0 && m->has_last_t && ev->t > m->last_t && ev->t - m->last_t > limit_ms && v->status == OL_V_OK)
        olverdict_set(v, ev->match, ev->seq, OL_V_WARNING, rule,
                      "%s took %llu seconds for this decision; the shot clock is %llu seconds.", m->names[p],
                      (unsigned long long)((ev->t - m->last_t) / 1000), (unsigned long long)(limit_ms / 1000));
    m->last_t = ev->t;
    m->has_last_t = 1;
}

/* ---- concede, judge, claim -------------------------------------------------------- */

int openlog_concede(openlog_judgement *j)
{
    int p = openlog_player_of(j->ev);

    /* openlog 3: `by` is who announced it; only a player gives up. */
    if (p < 0)
        return OPENLOG_ILLEGAL(j, "openlog:3", "Only a player can concede.");
    openlog_end(j->m, 1 - p);
    return 0;
}

int openlog_ruling(openlog_judgement *j)
{
    const olevent *ev = j->ev;

    /* openlog 3: `by` is "who announced it"; a ruling announced by anyone
     * but the judge is no ruling (the rulebooks give judges final say). */
    if (ev->by != OL_BY_JUDGE)
        return OPENLOG_ILLEGAL(j, "openlog:3", "%s announced a judge's ruling; only the judge announces a judge event.",
                               ev->by == OL_BY_TABLE ? "The table" : ol_by_name(ev->by));
    /* A game loss ends the game; the other player wins. */
    if (ev->ruling == OL_RULING_GAME_LOSS && ev->has_player && !j->m->over)
        openlog_end(j->m, 1 - (int)ev->player);
    return 0;
}

void openlog_defeated(openlog_match *m, int p, int slot)
{
    if (m->n_defeated < OPENLOG_DEFEATS_MAX) {
        UNDO_SET(m->undo, m->defeated[m->n_defeated],
                 ((ol_ref){.kind = OL_REF_MONSTER, .p = (ol_player)p, .slot = slot}));
        UNDO_SET(m->undo, m->n_defeated, m->n_defeated + 1);
    }
}

static int same_ref(const ol_ref *a, const ol_ref *b)
{
    return a->p == b->p && a->slot == b->slot;
}

/* "p2's active monster, p1's monster in slot 2", or "none". */
static void refs_words(const ol_ref *r, size_t n, const char *slot_word, char *buf, size_t cap)
{
    size_t used = 0;

    olverdict_format(buf, cap, "none");
    for (size_t i = 0; i < n && used + 1 < cap; i++) {
        if (r[i].slot == OL_SLOT_ACTIVE)
            olverdict_format(buf + used, cap - used, "%s%s's active monster", i ? ", " : "", ol_player_name(r[i].p));
        else
            olverdict_format(buf + used, cap - used, "%s%s's monster in %s %d", i ? ", " : "",
                             ol_player_name(r[i].p), slot_word, r[i].slot);
        used += strlen(buf + used);
    }
}

/* Each defeat named once, in any order: a multiset comparison. */
static int same_defeats(const ol_ref *a, size_t na, const ol_ref *b, size_t nb)
{
    uint8_t matched[OPENLOG_DEFEATS_MAX] = {0};

    if (na != nb)
        return 0;
    for (size_t i = 0; i < na; i++) {
        int found = 0;
        for (size_t k = 0; k < nb && !found; k++)
            if (!matched[k] && same_ref(&a[i], &b[k]))
                found = matched[k] = 1;
        if (!found)
            return 0;
    }
    return 1;
}

void openlog_claim(openlog_judgement *j, const char *rule, const char *slot_word)
{
    openlog_match *m = j->m;
    const olevent *ev = j->ev;

    if (ev->has_winner && (!m->over || m->winner != (int)ev->winner)) {
        openlog_fail(j, OL_V_MISMATCH, rule, "The table claims %s won; the engine finds %s.",
                     ol_player_name(ev->winner),
                     m->over ? (m->winner < 0 ? "no winner" : m->winner ? "p2 won" : "p1 won")
                             : "the game still going on");
        return;
    }
    if (ev->has_defeated && !same_defeats(ev->defeated, ev->n_defeated, m->defeated, m->n_defeated)) {
        char claimed[160], found[160];
        refs_words(ev->defeated, ev->n_defeated, slot_word, claimed, sizeof claimed);
        refs_words(m->defeated, m->n_defeated, slot_word, found, sizeof found);
        openlog_fail(j, OL_V_MISMATCH, rule,
                     "The table claims defeated: %s; since the last claim or resolution the engine finds defeated: %s.",
                     claimed, found);
        return;
    }
    UNDO_SET(m->undo, m->n_defeated, 0);
}

int openlog_claim_lp(openlog_judgement *j, const char *rule, const int64_t lp[2])
{
    const olevent *ev = j->ev;

    if (!ev->has_lp || ((int64_t)ev->lp[0] == lp[0] && (int64_t)ev->lp[1] == lp[1]))
        return 0;
    return openlog_fail(j, OL_V_MISMATCH, rule, "The table claims %llu LP for p1 and %llu for p2; the engine finds "
                        "%lld and %lld.", (unsigned long long)ev->lp[0], (unsigned long long)ev->lp[1],
                        (long long)lp[0], (long long)lp[1]);
}

/* ---- the contract's own rules ------------------------------------------------------ */

/* Quotes are verbatim from ../shared/design/openlog.md (the section of the
 * id) or, for what the contract leaves to arbiter, logformat/SPEC.md.  Ids
 * are spelled OPENLOG("6") so that this table, which cites nothing, does
 * not count as citing them (tests/e2e_rule_coverage.sh). */
#define OPENLOG(key) "openlog:" key

static const verifier_rule contract_rules[] = {
    {OPENLOG("2"), "On ZeroMQ: one event per message, one frame.",
     "A message carries exactly one event in one frame; anything else is malformed."},
    {OPENLOG("3"), "`by` | `\"p1\"` `\"p2\"` `\"table\"` `\"judge\"` | who announced it",
     "Each event is announced by the one who may announce it: a player's action by that player, a ruling by the judge."},
    {OPENLOG("4"), "Header — `type: \"match\"`, seq 0, by `\"table\"`",
     "A match has one header, at seq 0, and nothing comes before it."},
    {OPENLOG("6"), "A hidden card reference (`href`) depends on the header's `hidden` mode",
     "Hidden cards travel as the header's mode says, and a revealed card must be the one that was there."},
    {OPENLOG("7"), "Advanced and Master events reuse the envelope and add their own types",
     "Each format has its own event types and fields; an event of another format's, or with the wrong number of "
     "targets, is no action of this game."},
    {OPENLOG("cards"), "the card database; the stored record also keeps that database's content hash",
     "Every card named must be in the match's card database."},
    {OPENLOG("commit"),
     "a reveal that matches no open commitment of that zone is `illegal` (rule `openlog:commit`).",
     "A card revealed in commit mode must open the commitment made for it."},
    {OPENLOG("match"), "`match` | string, 1–64 of `[A-Za-z0-9._:-]` | match id, unique in a store",
     "Every event of a log belongs to the header's match."},
    {OPENLOG("seq"), "`seq` | uint | 0 for the header, then +1 per event, no gaps",
     "Events come in seq order, each once, without gaps."},
    {OPENLOG("owner"), "A match belongs to the key that sent its header",
     "Only the key that opened a match may write into it."},
    {OPENLOG("key"), "a message on a connection whose key was removed from the keyring",
     "A key removed from the keyring may no longer send events."},
    {OPENLOG("table"), "a header from a key of role `table` must name that key in its `event.table`",
     "A table opens only the matches assigned to it."},
    {OPENLOG("limits"), "a header that would open more matches than `--max-matches`",
     "The daemon holds a bounded number of open matches, and each client a share of them and of its "
     "connections."},
    {OPENLOG("record"),
     "an event for a match whose stored record failed the daemon's check at start (section 10): nothing more is "
     "written into it until a judge has looked at it",
     "A record that failed its check takes no more events until a judge has looked at it."},
    {OPENLOG("remedy"),
     "the match pauses at the illegal event: every later event but a judge's is stored and answered `held` "
     "until a `judge` event gives the remedy",
     "At a table that plays on, an illegal action pauses the match until a judge's remedy: it stands, or play "
     "backs up to before it; only a judge gives one."},
};

RULE_CATALOGUE(openlog_rules, contract_rules)
