/* tourhtml.h -- a tournament as one self-contained HTML page for people:
 * the page `arbiter tournament html` writes, for a screen in the hall or a
 * website.
 *
 * The page holds, in this order: the tournament's name, format, structure
 * and round status; the standings (place, player, points, W-D-L, MOV, SoS;
 * marked provisional while a result is pending, T24); the elimination
 * bracket, drawn with CSS grid and flex boxes, when the structure has
 * elimination rounds; every published round's pairings by table, each with
 * its result and the match id linked to its audit; the alarms (resolved
 * ones dimmed); a statistics section with inline SVG bar charts.
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
} tourhtml_opts;

/* The page for t and its results r (tournament_results()), appended to
 * out.  0, or TOUR_ENOMEM (out->bad may be set).  A tournament with no
 * round published yet gives a page that says so; a cut that cannot be
 * computed yet (a Swiss result pending) leaves the bracket's seeds out. */
int tourhtml_write(const tournament *t, const tour_results *r, const tourhtml_opts *o, jtext *out);

#endif
