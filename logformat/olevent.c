/* olevent.c -- names of the open log's enumerations and its lever table.
 *
 * The wire uses lower-case names for every enumeration (openlog.md 3-8);
 * here each enumeration is one array, indexed by the C value, so that the
 * name and the value cannot drift apart.  The variant levers a header may
 * set (openlog.md 4, snap.md 18, the Balance Levers of advanced.md and
 * master.md, the lever rulings of snap-rulings.md) are one table too: the
 * codec rejects a lever that is not in it, and the engines read their
 * defaults from it.
 */
#include <stdint.h>
#include <string.h>

#include "logformat/olarena.h"
#include "logformat/olevent.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *const type_names[OL_TYPE_COUNT] = {
    "match", "bench", "select", "unlock", "flip", "promote", "trigger",
    "spell", "counter", "pass", "evolve", "prime", "attack", "block", "swap",
    "lock", "end", "concede", "claim", "judge", "summon", "position", "discard",
    "mana", "mana_remove", "deal", "snap", "snap_pot", "take", "pot", "penalty",
    "turn_over", "out",
};
static const char *const by_names[] = {"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "table", "judge"};
static const char *const player_names[OL_PLAYERS_MAX] = {"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"};
_Static_assert(OL_BY_TABLE == OL_PLAYERS_MAX && OL_BY_JUDGE + 1 == sizeof by_names / sizeof by_names[0],
               "ol_by numbers the seats as ol_player does, then the table and the judge");
static const char *const format_names[] = {"snap", "advanced", "master", "classic"};
static const char *const hidden_names[] = {"open", "commit", "announced"};
static const char *const ruling_names[] = {"note", "warning", "game_loss"};
static const char *const remedy_names[] = {"stands", "backup"};
static const char *const position_names[] = {"ap", "dp"};
static const char *const summon_kind_names[] = {"normal", "special", "mana"};
static const char *const class_names[OL_CLASS_COUNT] = {"coreon", "fluxion", "synaphera", "obscura", "aetherion"};

static const char *name_at(const char *const *names, size_t n, int i)
{
    return i >= 0 && (size_t)i < n ? names[i] : NULL;
}

static int name_find(const char *const *names, size_t n, const char *s)
{
    for (size_t i = 0; s && i < n; i++)
        if (!strcmp(names[i], s))
            return (int)i;
    return -1;
}

/* The same on a string of n bytes that need not be NUL-terminated. */
static int name_findn(const char *const *names, size_t count, const char *s, size_t n)
{
    for (size_t i = 0; n && i < count; i++)
        if (names[i][0] == s[0] && !strncmp(names[i], s, n) && !names[i][n])
            return (int)i;
    return -1;
}

int ol_type_parsen(const char *s, size_t n) { return name_findn(type_names, COUNT(type_names), s, n); }
int ol_by_parsen(const char *s, size_t n) { return name_findn(by_names, COUNT(by_names), s, n); }
int ol_player_parsen(const char *s, size_t n) { return name_findn(player_names, COUNT(player_names), s, n); }
int ol_format_parsen(const char *s, size_t n) { return name_findn(format_names, COUNT(format_names), s, n); }
int ol_hidden_parsen(const char *s, size_t n) { return name_findn(hidden_names, COUNT(hidden_names), s, n); }
int ol_ruling_parsen(const char *s, size_t n) { return name_findn(ruling_names, COUNT(ruling_names), s, n); }
int ol_remedy_parsen(const char *s, size_t n) { return name_findn(remedy_names, COUNT(remedy_names), s, n); }
int ol_position_parsen(const char *s, size_t n) { return name_findn(position_names, COUNT(position_names), s, n); }
int ol_summon_kind_parsen(const char *s, size_t n)
{
    return name_findn(summon_kind_names, COUNT(summon_kind_names), s, n);
}

int ol_class_parsen(const char *s, size_t n) { return name_findn(class_names, COUNT(class_names), s, n); }
int ol_class_parse(const char *s) { return name_find(class_names, COUNT(class_names), s); }
const char *ol_class_name(ol_class c) { return name_at(class_names, COUNT(class_names), (int)c); }

const char *ol_type_name(ol_type t) { return name_at(type_names, COUNT(type_names), (int)t); }
int ol_type_parse(const char *s) { return name_find(type_names, COUNT(type_names), s); }
const char *ol_by_name(ol_by b) { return name_at(by_names, COUNT(by_names), (int)b); }
const char *ol_player_name(ol_player p) { return name_at(player_names, COUNT(player_names), (int)p); }
const char *ol_format_name(ol_format f) { return name_at(format_names, COUNT(format_names), (int)f); }
const char *ol_hidden_name(ol_hidden h) { return name_at(hidden_names, COUNT(hidden_names), (int)h); }
const char *ol_ruling_name(ol_ruling r) { return name_at(ruling_names, COUNT(ruling_names), (int)r); }
const char *ol_remedy_name(ol_remedy r) { return name_at(remedy_names, COUNT(remedy_names), (int)r); }
const char *ol_position_name(ol_position p) { return name_at(position_names, COUNT(position_names), (int)p); }
const char *ol_summon_kind_name(ol_summon_kind k)
{
    return name_at(summon_kind_names, COUNT(summon_kind_names), (int)k);
}

int ol_by_parse(const char *s) { return name_find(by_names, COUNT(by_names), s); }
int ol_player_parse(const char *s) { return name_find(player_names, COUNT(player_names), s); }
int ol_format_parse(const char *s) { return name_find(format_names, COUNT(format_names), s); }
int ol_hidden_parse(const char *s) { return name_find(hidden_names, COUNT(hidden_names), s); }
int ol_ruling_parse(const char *s) { return name_find(ruling_names, COUNT(ruling_names), s); }
int ol_remedy_parse(const char *s) { return name_find(remedy_names, COUNT(remedy_names), s); }
int ol_position_parse(const char *s) { return name_find(position_names, COUNT(position_names), s); }
int ol_summon_kind_parse(const char *s) { return name_find(summon_kind_names, COUNT(summon_kind_names), s); }

/* The levers.  A lever is announced before play (snap.md 18.7) and applies
 * to the whole match; its range is what the rulebook's examples span, so an
 * organiser's typo (chain_cap 30) is caught at the header, not mid-game. */
/* `on_illegal` (SPEC.md 8.1): what the table does with an illegal action.
 * "reject" (a digital table refuses it: nothing changes, play goes on) or
 * "judge" (a physical table may have played on: the match pauses until a
 * judge's remedy).  Every format's, since the mechanism is the seam's. */
static const char *const on_illegal_words[] = {"reject", "judge", NULL};
#define ON_ILLEGAL(f)                                                                                     \
    {"on_illegal", (f), 0, 0, 1, OL_ON_ILLEGAL_REJECT, "openlog:remedy",                                  \
     "what the table does on an illegal action: the action is refused, or play pauses for a judge's remedy", \
     on_illegal_words, 1}

static const ol_lever_info levers[] = {
    {"chain_cap", OL_FORMAT_SNAP, 0, 1, 6, 3, "snap:18.3",
     "Counters each player may add to one chain", NULL, 0},
    {"unlocks_per_turn", OL_FORMAT_SNAP, 0, 0, 2, 1, "snap:18.2",
     "Locked Supports unlocked in each Unlock Step", NULL, 0},
    {"swaps_per_game", OL_FORMAT_SNAP, 0, 0, 3, 1, "snap:18.4",
     "Swap Phase swaps each player may make in a game", NULL, 0},
    {"swap_refresh_on_prime_defeat", OL_FORMAT_SNAP, 1, 0, 1, 0, "snap:18.4",
     "a player's Swap is refreshed when their Prime Singular is defeated", NULL, 0},
    {"p1_round1_unlock", OL_FORMAT_SNAP, 1, 0, 1, 0, "snap:18.5",
     "Player 1 may unlock Supports in Round 1", NULL, 0},
    {"p1_hand", OL_FORMAT_SNAP, 0, 0, 20, 5, "snap:18.5",
     "Supports Player 1 selects at setup", NULL, 0},
    {"p2_hand", OL_FORMAT_SNAP, 0, 0, 20, 6, "snap:18.5",
     "Supports Player 2 selects at setup", NULL, 0},
    {"round1_attacks", OL_FORMAT_SNAP, 1, 0, 1, 0, "snap:18.5",
     "attacks are allowed in Round 1", NULL, 0},
    {"freeze_rounds", OL_FORMAT_SNAP, 0, 0, 2, 2, "snap:18.6",
     "rounds of the Lock Freeze after Round 1", NULL, 0},
    {"bench_facedown", OL_FORMAT_SNAP, 0, 1, 4, 4, "snap:18.6",
     "monsters each player places face-down on the Bench at setup", NULL, 0},
    {"p1_opening_lock", OL_FORMAT_SNAP, 1, 0, 1, 1, "snap:R2",
     "Player 1 makes an Opening Lock-in at the end of Round 1", NULL, 0},

    {"starting_lp", OL_FORMAT_ADVANCED, 0, 1000, 100000, 6000, "advanced:levers",
     "Life Points each player starts with", NULL, 0},
    {"monster_zones", OL_FORMAT_ADVANCED, 0, 5, 7, 7, "advanced:levers",
     "monsters a player may control at once", NULL, 0},
    {"hand_limit", OL_FORMAT_ADVANCED, 0, 7, 10, 9, "advanced:levers",
     "cards in hand at the end of a turn", NULL, 0},
    {"selection_rate", OL_FORMAT_ADVANCED, 0, 1, 2, 1, "advanced:levers",
     "cards selected in each Selection Step", NULL, 0},
    {"chain_cap", OL_FORMAT_ADVANCED, 0, 1, 6, 3, "advanced:levers",
     "Counters each player may add to one chain", NULL, 0},

    {"starting_lp", OL_FORMAT_MASTER, 0, 1000, 100000, 8000, "master:levers",
     "Life Points each player starts with", NULL, 0},
    {"mana_rate", OL_FORMAT_MASTER, 0, 1, 2, 1, "master:levers",
     "cards placed as mana in each Mana Step", NULL, 0},
    {"deck_size", OL_FORMAT_MASTER, 0, 50, 70, 60, "master:levers",
     "cards in a deck", NULL, 0},
    {"hand_limit", OL_FORMAT_MASTER, 0, 8, 12, 10, "master:levers",
     "cards in hand at the end of a turn", NULL, 0},
    {"p1_hand", OL_FORMAT_MASTER, 0, 1, 20, 7, "master:levers",
     "cards Player 1 selects at setup", NULL, 0},
    {"p2_hand", OL_FORMAT_MASTER, 0, 1, 20, 8, "master:levers",
     "cards Player 2 selects at setup", NULL, 0},
    {"chain_cap", OL_FORMAT_MASTER, 0, 1, 6, 3, "master:levers",
     "Counters each player may add to one chain", NULL, 0},

    /* Classic Snap: seats are numbers here (3 is p3); whether the seat is
     * one of the match's is the engine's verdict. */
    {"decks", OL_FORMAT_CLASSIC, 0, 1, 8, 1, "classic:deck.decks",
     "copies of the card database shuffled together into the deck", NULL, 0},
    {"dealer", OL_FORMAT_CLASSIC, 0, 1, 8, 1, "classic:deal.one_at_a_time",
     "the seat of the player who deals (3 is p3)", NULL, 0},
    {"first", OL_FORMAT_CLASSIC, 0, 0, 8, 0, "classic:play.first",
     "the seat of the player who flips first; 0 is the player on the dealer's left", NULL, 0},
    {"common_pile", OL_FORMAT_CLASSIC, 1, 0, 1, 0, "classic:flip.common",
     "one common discard pile (the simplest version) instead of a pile each", NULL, 0},
    {"snap_pot", OL_FORMAT_CLASSIC, 1, 0, 1, 1, "classic:pot.tie",
     "simultaneous calls make a snap pot; off, the first call by time takes", NULL, 0},
    {"prop", OL_FORMAT_CLASSIC, 1, 0, 1, 0, "classic:prop",
     "a caller grabs a prop: only one can, so calls never tie", NULL, 0},
    {"tie_window", OL_FORMAT_CLASSIC, 0, 0, 1000, 100, "classic:pot.tie",
     "milliseconds within which two calls are at the same time", NULL, 0},

    ON_ILLEGAL(OL_FORMAT_SNAP),
    ON_ILLEGAL(OL_FORMAT_ADVANCED),
    ON_ILLEGAL(OL_FORMAT_MASTER),
    ON_ILLEGAL(OL_FORMAT_CLASSIC),
};

const char *ol_lever_word(const ol_lever_info *l, uint64_t v)
{
    for (uint64_t i = 0; l && l->words && l->words[i]; i++)
        if (i == v)
            return l->words[i];
    return NULL;
}

const ol_lever_info *ol_levers(size_t *n)
{
    *n = COUNT(levers);
    return levers;
}

const ol_lever_info *ol_lever_find(ol_format f, const char *name)
{
    for (size_t i = 0; i < COUNT(levers); i++)
        if (levers[i].format == f && !strcmp(levers[i].name, name))
            return &levers[i];
    return NULL;
}

uint64_t ol_header_lever(const ol_header *h, const char *name, uint64_t dflt)
{
    for (size_t i = 0; i < h->n_rules; i++)
        if (!strcmp(h->rules[i].name, name))
            return h->rules[i].value;
    return dflt;
}

olevent *olevent_new(void)
{
    olarena *a = olarena_new();
    if (!a)
        return NULL;
    return olevent_new_in(a);
}

olevent *olevent_new_in(olarena *a)
{
    olevent *ev = olarena_alloc(a, sizeof *ev);
    if (!ev) {
        olarena_destroy(&a);
        return NULL;
    }
    ev->arena = a;
    return ev;
}

void *olevent_alloc(olevent *ev, size_t n)
{
    return olarena_alloc(ev->arena, n);
}

const char *olevent_strdup(olevent *ev, const char *s)
{
    return olarena_strndup(ev->arena, s, strlen(s));
}

void olevent_destroy(olevent **ev)
{
    if (!ev || !*ev)
        return;
    olarena *a = (*ev)->arena;
    if ((*ev)->release_tree)
        (*ev)->release_tree((*ev)->tree);
    olarena_destroy(&a);   /* the event itself lives in its arena */
    *ev = NULL;
}

/* Offset of the first byte that is not well-formed UTF-8 (RFC 3629: no
 * overlongs, no surrogates, nothing above U+10FFFF) or a NUL, or len. */
size_t ol_utf8_bad(const uint8_t *s, size_t len)
{
    size_t i = 0;
    /* ASCII without NUL, eight bytes at a time: most strings are that */
    while (len - i >= 8) {
        uint64_t w;
        memcpy(&w, s + i, sizeof w);
        if ((w & 0x8080808080808080ull) || ((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull))
            break;
        i += 8;
    }
    while (i < len) {
        uint8_t c = s[i];
        size_t n;
        uint32_t cp, min;
        if (c == 0)
            return i;
        if (c < 0x80) { i++; continue; }
        if ((c & 0xE0) == 0xC0) { n = 1; cp = c & 0x1F; min = 0x80; }
        else if ((c & 0xF0) == 0xE0) { n = 2; cp = c & 0x0F; min = 0x800; }
        else if ((c & 0xF8) == 0xF0) { n = 3; cp = c & 0x07; min = 0x10000; }
        else return i;
        if (len - i <= n)
            return i;
        for (size_t k = 1; k <= n; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return i;
        i += n + 1;
    }
    return len;
}

size_t ol_append(char *dst, size_t cap, size_t at, const char *s)
{
    size_t n = strlen(s);
    if (!cap)
        return 0;
    if (at >= cap)
        at = cap - 1;
    if (n > cap - 1 - at)
        n = cap - 1 - at;
    memcpy(dst + at, s, n);
    dst[at + n] = 0;
    return at + n;
}

size_t ol_append_u64(char *dst, size_t cap, size_t at, uint64_t v)
{
    char num[24], *q = num + sizeof num;
    *--q = 0;
    do
        *--q = (char)('0' + v % 10);
    while (v /= 10);
    return ol_append(dst, cap, at, q);
}

void ol_utf8_clean(char *s)
{
    size_t len = strlen(s), i = 0;
    while ((i += ol_utf8_bad((const uint8_t *)s + i, len - i)) < len) {
        unsigned char c = (unsigned char)s[i];
        size_t need = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0, k = i + 1;
        while (k < len && ((unsigned char)s[k] & 0xC0) == 0x80)
            k++;
        if (need && k == len && len - i - 1 < need) {
            s[i] = 0;   /* a character cut by a buffer's end */
            return;
        }
        s[i++] = '?';
    }
}
