/* verify.h -- judge a whole open log: the batch driver behind `arbiter verify`.
 *
 * A log is read event by event (olstream.h) and every event gets exactly one
 * verdict (openlog.md 8).  This layer owns what the engines leave to their
 * caller (verifier.h): the header, the match id, the card database the log
 * names, and the seq bookkeeping (gap, duplicate, conflict).  It prints
 * nothing and keeps no global state, so threads may verify different files
 * at once with the same database, and the daemon can report what it finds.
 *
 * How each event is judged, in this order:
 *
 *   - the codec refused it               -> malformed (olverdict_malformed);
 *                                           it takes no seq (quarantined)
 *   - no header accepted yet:
 *       a header (seq 0, type match)     -> the header's verdict, below
 *       anything else                    -> illegal  openlog:4
 *   - its match is not the header's      -> illegal  openlog:match; it is an
 *                                           event of another match: not stored
 *   - seq below the next expected        -> duplicate (same bytes; `stored` is
 *                                           the first verdict) or conflict
 *   - seq above the next expected        -> gap, with `expect`; not stored
 *   - seq equal to the next expected     -> verifier_apply(); stored, and the
 *                                           next expected seq goes up by one
 *
 * The header: its `cards` ("set@version") must name the database given
 * here -- for a file, the one of the shelf given that it names, else the
 * shelf's first (carddb_shelf_pick()) -- checked in this file *before*
 * verifier_new(): otherwise the header
 * is illegal (openlog:cards), no verifier is made, the match cannot start,
 * and every later event that would have been applied is illegal citing the
 * same rule.  Else verifier_new() judges it (ok, or illegal for an illegal
 * deck: the verifier then refuses every later event itself).  When no engine
 * exists for the header's format (VERIFIER_ENOENGINE), or the header names a
 * number of players its format is not played by (VERIFIER_EPLAYERS), or a
 * card database that does not serve its format (VERIFIER_ECARDS), the log is
 * unverifiable: the header keeps the engine's malformed verdict, the report
 * is VERIFY_UNREADABLE with that sentence, and reading stops there.
 *
 * "Stored" events (ok, warning, illegal, mismatch) keep their raw bytes in
 * memory for duplicate detection: logs are small (a game is ~100 events).
 */
#ifndef ARBITER_VERIFY_H
#define ARBITER_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "logformat/olstream.h"
#include "logformat/olverdict.h"
#include "src/core/carddb.h"
#include "verifiers/cards.h"
#include "verifiers/verifier.h"

enum {
    VERIFY_OK = 0,
    VERIFY_ENOMEM = -1    /* out of memory: no report */
};

/* What the log as a whole is. */
typedef enum {
    VERIFY_LEGAL,         /* every verdict ok, warning or duplicate          */
    VERIFY_ILLEGAL,       /* a verdict illegal, mismatch, conflict, gap or
                             malformed, in a log whose header was read        */
    VERIFY_UNREADABLE     /* cannot be opened or read, empty, its first event
                             is malformed, or no engine for its format:
                             `error` says which                              */
} verify_status;

#define VERIFY_NONE ((size_t)-1)

typedef struct {
    olverdict v;
    size_t stored;        /* duplicate: index in verdicts[] of the verdict
                             the first copy got; else VERIFY_NONE            */
} verify_entry;

/* A finished verification.  Every field is read-only for the caller and
 * lives until verify_report_destroy(); strings are never NULL. */
typedef struct {
    char *name;                  /* the path (or name) given, copied          */
    verify_status status;
    char error[OL_MSG_MAX + 64]; /* UNREADABLE: one sentence; else ""         */
    char match[OL_MATCH_MAX + 1];/* the header's match id; "" without header  */
    const char *format;          /* "snap", ...; "" without header (static)   */
    char engine[32];             /* verifier_engine(): "snap/2"; "" if none   */
    int finished;                /* 1 when the engine says the game is over   */
    int winner;                  /* a seat OL_P1.., or -1 (none, or unfinished) */
    int draw;                    /* 1: finished in a draw (verifier_draw)     */
    unsigned n_players;          /* the header's seats; 0 without engine      */
    size_t counts[OL_V_COUNT];   /* verdicts per status                       */
    unsigned unverified[OL_PLAYERS_MAX]; /* hidden cards never checked, per
                                    seat (verifier_unverified); 0 without engine */
    verify_entry *verdicts;      /* one per event, in the order read          */
    size_t n_verdicts;
    uint64_t next_seq;           /* the next seq expected: the events stored
                                    in the match are seqs 0..next_seq-1       */
    olverdict *later;            /* later verdicts (SPEC.md 8.1): each event
                                    answered held, judged again or made void
                                    by a judge's remedy, in the order given
                                    (`remedy` names the remedy's seq)        */
    size_t n_later;
    int paused;                  /* 1: the log so far ends paused at an
                                    illegal action, awaiting a remedy      */
    uint64_t paused_seq;         /* that action's seq, when paused         */
    const cards *db;             /* the database judging: a session's; for a
                                    file the one its header picked from the
                                    shelf, the shelf's first before a header
                                    or when none has the header's name.
                                    Borrowed: it lives as long as the shelf  */
} verify_report;

/* Verify the log at `path` (".mlog" or ".jsonl" by extension; "-" is stdin,
 * read as JSON Lines) against the card database of `shelf` its header
 * names (the shelf's first when none has that name: the header is then
 * openlog:cards).  The shelf must outlive the report (report->db).
 *
 * Returns VERIFY_OK with a new report in *out -- also for a file that
 * cannot be opened (status VERIFY_UNREADABLE, no verdicts) -- or
 * VERIFY_ENOMEM with *out NULL.  Thread-safe for distinct outputs. */
int verify_file(const carddb_shelf *shelf, const char *path, verify_report **out);

/* A batch's memo of the decklists found legal (verifiers/deck.h:
 * deck_memo, one per database of the shelf), so that verifying many logs
 * checks each distinct decklist once; the reports are the same as without
 * it.  Not locked: one per thread.  It must not outlive the shelf.
 * verify_decks_new() returns NULL when out of memory. */
typedef struct verify_decks verify_decks;
verify_decks *verify_decks_new(void);
void verify_decks_destroy(verify_decks **d);

/* verify_file() through the batch memo `decks` (NULL: verify_file()). */
int verify_file_decks(const carddb_shelf *shelf, verify_decks *decks, const char *path, verify_report **out);

/* The same over a reader the caller opened (olreader_new over a buffer,
 * for instance); `name` labels the report.  The reader is read to its end
 * (or until an unverifiable header) but not destroyed. */
int verify_reader(const carddb_shelf *shelf, olreader *r, const char *name, verify_report **out);

/* The same as verify_file(), judged by the same loop, but reading stops
 * once the event at seq `at_seq` has been stored (ok, warning, illegal or
 * mismatch): the report holds every verdict up to that point, its status
 * and `finished` describe the log so far, and when the log ends first
 * report->next_seq <= at_seq.  When vf_out is not NULL the engine, as it
 * stands after that event, goes to *vf_out (NULL when no engine was made:
 * no header, a header naming another database, no engine for the format);
 * the caller destroys it with verifier_destroy() before the shelf.  This is
 * `arbiter replay --at SEQ`. */
int verify_file_until(const carddb_shelf *shelf, const char *path, uint64_t at_seq, verify_report **out,
                      verifier **vf_out);

/* The report as `arbiter verify --json` prints it (arbiter-verify(1) documents
 * the keys and their order): a new reference, or NULL when out of memory.
 * Only verdicts that are not ok are listed. */
typedef struct json_t json_t;
json_t *verify_report_json(const verify_report *r);

/* {"p1": n, "p2": n, ...}: a count per seat of a match of n_players (p1
 * and p2 when fewer are known, as without an engine).  A new reference,
 * or NULL when out of memory. */
json_t *verify_seats_json(const unsigned *per_seat, unsigned n_players);

/* Just its "verdicts": every verdict that is not ok, in the log's order,
 * each in its wire form.  A new reference, or NULL when out of memory. */
json_t *verify_report_verdicts_json(const verify_report *r);

/* What a match paused at an illegal action holds (SPEC.md 8.1): at most
 * VERIFY_HELD_MAX events and VERIFY_HELD_BYTES of their bytes; an event
 * past either is refused (illegal, openlog:remedy) until a remedy comes. */
#define VERIFY_HELD_MAX 256
#define VERIFY_HELD_BYTES (1024 * 1024)

/* ---- sessions: one match judged event by event (the daemon) ----------
 *
 * The judge of verify_file(), fed one event at a time, so that a live
 * match gets the verdicts a batch run of its log would give, byte for byte
 * (openlog.md 10).  A session is one match: the caller routes events by
 * match id (an event of another match is openlog:match, as in a file).
 * Malformed input never reaches a session (the codec refused it; the
 * caller makes its verdict with olverdict_malformed()).  The end of a live
 * log is never reached, so a session never closes windows by silence
 * (snap A31).  Not thread-safe; distinct sessions are independent. */
typedef struct verify_session verify_session;

/* A new session judging against `db` (which must outlive it); `name`
 * labels its report.  VERIFY_OK or VERIFY_ENOMEM (*out NULL). */
int verify_session_new(const cards *db, const char *name, verify_session **out);

/* Judge one event the codec accepted; `raw`/`len` are its bytes as
 * received (kept for duplicate detection).  On VERIFY_OK *out points to its
 * entry: the verdict and, for a duplicate, `stored` indexes the first
 * verdict in verify_session_report()->verdicts.  The entry pointer is valid
 * until the next call on this session.  VERIFY_ENOMEM: nothing changed
 * that the caller may rely on; destroy the session. */
int verify_session_event(verify_session *s, const olevent *ev, const char *raw, size_t len,
                         const verify_entry **out);

/* Lean sessions (the daemon, which keeps a session per live match): the
 * caller stores every event the session stores, so the session keeps
 * neither their bytes nor their verdicts.  To tell a duplicate from a
 * conflict when an event's seq is below the next expected one (a table
 * resending), the caller reads the event stored at that seq from its
 * record and judges the resent one with verify_session_event_resent(); a
 * lean session given such an event through verify_session_event() fails
 * (VERIFY_ENOMEM: a programming mistake of the caller).  The verdicts are
 * the same, byte for byte, but for two things: a duplicate's entry has
 * `stored` VERIFY_NONE (the caller has the first verdict in its record),
 * and the report's `verdicts` hold the last event's verdict only (counts,
 * finished, winner, next_seq and the rest are whole).  Call right after
 * verify_session_new(): VERIFY_OK, or VERIFY_ENOMEM on a session that has
 * judged an event already. */
int verify_session_lean(verify_session *s);

/* 1 for a lean session. */
int verify_session_is_lean(const verify_session *s);

/* verify_session_event() for a lean session, with the bytes the record
 * holds at ev->seq (`stored`, read for this call only; NULL with 0 when
 * that seq is not stored).  Also fine for an event whose seq is not below
 * the next expected one: the stored bytes are then not looked at. */
int verify_session_event_resent(verify_session *s, const olevent *ev, const char *raw, size_t len,
                                const char *stored, size_t stored_len, const verify_entry **out);

/* The log given to the session is whole: no event will follow (the query
 * socket's `verify` op, which judges a log as `arbiter verify` does).
 * Open windows close by silence (snap A31, advanced A7) and the report is
 * concluded as a file's would be.  A live match never calls it. */
void verify_session_end(verify_session *s);

/* The report so far (counts, finished, winner, every verdict); valid until
 * the next call on this session. */
const verify_report *verify_session_report(const verify_session *s);

/* The later verdicts the last event judged released (a judge's remedy,
 * SPEC.md 8.1: the events held since the illegal action, judged again or
 * void), in order, each with `remedy` set; *n of them (0 mostly).  Valid
 * until the next call on this session. */
const olverdict *verify_session_later(const verify_session *s, size_t *n);

/* 1 when the match is paused at an illegal action awaiting a judge's
 * remedy (its seq into *seq, which may be NULL), else 0. */
int verify_session_paused(const verify_session *s, uint64_t *seq);

/* The engine (NULL before an accepted header), for views; valid until the
 * next call on this session. */
const verifier *verify_session_verifier(const verify_session *s);

/* The next seq the match expects: events 0..next-1 are stored. */
uint64_t verify_session_next_seq(const verify_session *s);

/* Frees everything and sets *s to NULL.  NULL-safe. */
void verify_session_destroy(verify_session **s);

/* VERIFY_LEGAL, VERIFY_ILLEGAL or VERIFY_UNREADABLE as "legal", "illegal",
 * "unreadable". */
const char *verify_status_name(verify_status s);

/* 1 when a verdict status keeps a log legal (ok, warning, duplicate). */
int verify_status_is_clean(ol_status s);

/* Frees everything and sets *report to NULL.  NULL-safe. */
void verify_report_destroy(verify_report **report);

#endif
