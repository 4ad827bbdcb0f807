/* auditpage.h -- a stored match's audit as one self-contained HTML page:
 * the page `arbiter audit MATCH --html FILE` writes for a judge.
 *
 * The page holds, in this order: the match, its players, format, engine
 * and card database, and the view it is drawn in; the record's checks as
 * the text audit words them (hash chain, record links, seal, record head,
 * card database, summary), the record judged again, and with --against
 * the first divergence between the two records; the faults -- every event
 * whose verdict is not ok (or that judged again otherwise), highlighted
 * with its sentence, its rule id and the rulebook's quote for that rule
 * (verifier_rule_find()) and the board after it drawn as a board; the
 * timeline, every event with its verdict, each a link to its board; and
 * the boards of the events drawn, one shown at a time by CSS :target.
 *
 * Which boards are drawn is the caller's choice, said by `bound` and
 * `every` (cmd_audit.c draws every event's board up to AUDITPAGE_BOUND
 * events; beyond it, the faults', every AUDITPAGE_EVERY-th and the last).
 *
 * Self-contained: the CSS is inline, nothing is loaded, there is no
 * script.  Every text from the record (ids, names, sentences) is escaped
 * (src/core/htmlout.h).
 *
 * Hidden cards: boards and events are given already drawn in the view
 * (view_board_json, view_event_json).  Verdict sentences are not: they are
 * the engine's words and may name a hidden card ("p2 selected Aegis
 * Flash, which is not in ...").  So in every view but the judge's the
 * page passes each sentence through view_redact() (src/core/view.h), which puts "a
 * hidden card" for each card the sentence names that the view does not
 * see there.
 *
 * Pure: no I/O; the caller reads the record and saves the page
 * (htmlout_save).  Nothing given is kept or changed.
 */
#ifndef ARBITER_AUDITPAGE_H
#define ARBITER_AUDITPAGE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "logformat/jtext.h"
#include "src/core/view.h"
#include "verifiers/cards.h"

/* Every board is drawn for a match of at most this many events; beyond,
 * the faults', every AUDITPAGE_EVERY-th event's and the last one's. */
#define AUDITPAGE_BOUND 400
#define AUDITPAGE_EVERY 25

/* One stored event, as the page shows it.  JSON values are borrowed. */
typedef struct {
    uint64_t seq;
    const char *what;        /* "p1 flip" (cmd_audit's timeline words)       */
    json_t *event;           /* the event in the view (view_event_json); NULL:
                                unreadable                                  */
    json_t *verdict;         /* the stored verdict (openlog.md 8)            */
    json_t *again;           /* judged again, when it differs; else NULL     */
    json_t *board;           /* the board after it in the view; NULL: not drawn */
    /* Non-judge views only (NULL in the judge view): what the view may
     * name at this event -- a set (JSON object, keys) of every string of
     * the view's board after the event and of the view's event -- and the
     * strings of the judge's event the view's event does not hold (the
     * hidden cards it names). */
    json_t *seen;
    json_t *hidden;
    /* A judge's remedy (SPEC.md 8.1): the later verdicts it gave the held
     * events (a JSON array, maybe empty), the seq of the illegal action it
     * remedies, and who sent it (the stored sender: a key or an address).
     * later NULL: not a remedy. */
    json_t *later;
    uint64_t remedy_for;
    const char *sender;
} auditpage_event;

typedef struct {
    const char *match;
    view_kind view;
    json_t *summary;         /* the stored summary (borrowed)               */
    const char *players[OL_PLAYERS_MAX]; /* each seat's id from the header, p1 first;
                                NULL: unknown                               */
    unsigned n_players;      /* the header's seats (2 when it is unreadable) */
    const cards *db;         /* card names and classes; NULL: none (then every
                                sentence is withheld outside the judge view) */
    const auditpage_event *events;
    size_t n_events;
    /* The text audit's lines for the record's checks (print_checks and
     * the judged-again and --against lines), '\n' after each. */
    const char *checks;
    int intact;              /* every check of the record held              */
    int as_stored;           /* judged again: every verdict and board as stored */
    int judged;              /* anything was judged again (a card database) */
    int all_drawn;           /* every event's board is drawn (n <= bound)   */
    const char *generated;   /* when ("2026-11-26 02:16 UTC"); NULL: not shown */
    int broadcast;           /* a broadcast page (arbiterd(8), BROADCAST): the
                                events older than the daemon's delay, in the
                                judge's view; no record check is claimed, and
                                the last board is shown from the start */
} auditpage_in;

/* The page for `in`, appended to out.  0, or -1 when out of memory (out->bad
 * may be set). */
int auditpage_write(const auditpage_in *in, jtext *out);

#endif
