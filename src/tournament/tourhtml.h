/* tourhtml.h -- a tournament as one self-contained HTML page for people:
 * the page `arbiter tournament html` writes, for a screen in the hall or a
 * website.
 *
 * The page holds, in this order: the tournament's name, format, structure
 * and round status (and the round clock the caller words, tourhtml_opts); the standings (place, player, points, W-D-L, MOV, SoS;
 * marked provisional while a result is pending, T24); the elimination
 * bracket, drawn with CSS grid and flex boxes, when the structure has
 * elimination rounds; every published round's pairings by table, each with
 * its result and the match id linked to its audit; the alarms (resolved
 * ones dimmed); a statistics section with inline SVG bar charts.  Once the
 * cut is known the Swiss standings mark who made it and the bracket shows
 * the first elimination round's games, seed against seed, before they are
 * published.  The sentences of src/tournament/tournament.h name players by
 * name on the page, and no text cites a ruling number (those are for
 * judges).
 *
 * The page is self-contained: its CSS is inline, it loads nothing (no
 * font, image, script or style from anywhere), and it needs no script to
 * be read.  Every text that comes from the file or the records (names,
 * ids, tables, sentences) is HTML-escaped; match ids in links are
 * percent-encoded.  Each match id links to `audit/<match>.html`, a path
 * relative to the page: the audit pages `arbiter audit MATCH --html
 * audit/MATCH.html` writes (src/cli/auditpage.h) into an `audit/` folder
 * beside this page.
 *
 * Like src/tournament/tournament.h, this module is pure: it computes what it shows
 * through tournament.h and writes into a growable buffer; the caller
 * reads the records and writes the file.
 */
#ifndef ARBITER_TOURHTML_H
#define ARBITER_TOURHTML_H

#include <stddef.h>

#include "logformat/jtext.h"
#include "src/tournament/tourstand.h"

/* What the page shows that the tournament does not know. */
typedef struct {
    const char *generated;      /* when the page was made, as people read it
                                   ("2026-11-26 02:16 UTC"); NULL: not shown */
    size_t records;             /* the records judged for it                 */
    const struct tourstats *stats; /* T46's statistics (src/tournament/tourstats.h), or
                                   NULL: the card statistics are left out    */
    const tour_game *games;     /* the records judged (tournament_results()'s
                                   input), to name every record of a pairing
                                   that has several; NULL when none      */
    size_t n_games;
    const char *clock;          /* the round clock, a sentence ("Round 2
                                   started at 14:05 and ends at 14:55 ..."),
                                   shown under the round's status; NULL: none */
    int projector;              /* 1: text large enough to read across a hall
                                   (a class on <html>; the page is the same) */
} tourhtml_opts;

/* The page for t and its results r (tournament_results()), appended to
 * out.  0, or TOUR_ENOMEM (out->bad may be set).  A tournament with no
 * round published yet gives a page that says so; a cut that cannot be
 * computed yet (a Swiss result pending) leaves the bracket's seeds out. */
int tourhtml_write(const tournament *t, const tour_results *r, const tourhtml_opts *o, jtext *out);

/* What goes on the wall and on the tables, to print (A4, large type; the
 * page's style with a print style on top).
 *
 * tourhtml_wall: round `round`'s pairings by table, then every player in
 * alphabetical order of name with their table, seat (Player 1 or 2) and
 * opponent (or "bye"), then the standings after the round before (none for
 * round 1), each section on a sheet of its own when printed.
 *
 * tourhtml_slips: one match slip per table of the round (byes have none),
 * three to a sheet: the event, the round (and the game, in an elimination
 * round), the table, both players' names and ids by seat, boxes to tick
 * the winner or a draw, lines for the scores, both players' signatures.
 *
 * Both append a whole page to out.  0; TOUR_EINVAL when the round is not
 * published (err says so, in one sentence); TOUR_ENOMEM. */
int tourhtml_wall(const tournament *t, const tour_results *r, uint32_t round, jtext *out, char *err, size_t errlen);
int tourhtml_slips(const tournament *t, const tour_results *r, uint32_t round, jtext *out, char *err, size_t errlen);

#endif
