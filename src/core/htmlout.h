/* htmlout.h -- the pieces every HTML page arbiter writes is made of.
 *
 * Two commands write a page for people: `arbiter tournament html`
 * (src/tournament/tourhtml.h) and `arbiter audit --html` (src/cli/auditpage.h).  Both
 * write into a growable jtext (logformat/jtext.h) and both must escape
 * every text that did not come from their own source the same way, so the
 * writers live here once:
 *   htmlout_str   a string as it is (the page's own markup and CSS only);
 *   htmlout_esc   text as HTML: & < > " ' as entities, safe in element
 *                 content and in quoted attributes;
 *   htmlout_url   a path segment: every byte but A-Z a-z 0-9 - . _ ~ as
 *                 %XX, so that it needs no HTML escaping either;
 *   htmlout_fmt   numbers and fixed words, printf-style (never a string
 *                 that came from a file or a record);
 *   htmlout_lit   a string literal, as jtext_lit.
 * and the one way a page reaches its reader, htmlout_save(): stdout, or a
 * FILE.tmp beside FILE renamed over it, so that a browser or a web server
 * never reads half a page.
 *
 * Errors while writing are the jtext's: sticky (out->bad), checked once by
 * the caller at the end.  NULL strings write nothing.
 */
#ifndef ARBITER_HTMLOUT_H
#define ARBITER_HTMLOUT_H

#include <stddef.h>

#include "logformat/jtext.h"

#define htmlout_lit(o, s) jtext_lit((o), s)

/* s as it is; NULL writes nothing. */
void htmlout_str(jtext *o, const char *s);

/* s HTML-escaped (& < > " ' as entities); NULL writes nothing. */
void htmlout_esc(jtext *o, const char *s);

/* s percent-encoded as one path segment; NULL writes nothing. */
void htmlout_url(jtext *o, const char *s);

/* printf-style, for numbers and fixed words; a result of 256 bytes or
 * more sets o->bad. */
void htmlout_fmt(jtext *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

enum {
    HTMLOUT_OK = 0,
    HTMLOUT_EWRITE = -1,   /* the file or stdout cannot be written: err says why */
    HTMLOUT_ENOMEM = -2
};

/* The page text->buf[0..len) to `path`: "-" is stdout; any other path is
 * written to "<path>.tmp" and renamed over path once whole, and the .tmp is
 * removed on failure.  On error a sentence naming the file is written to
 * err (errlen bytes, may be 0).  Returns HTMLOUT_OK, HTMLOUT_EWRITE or
 * HTMLOUT_ENOMEM. */
int htmlout_save(const char *path, const jtext *text, char *err, size_t errlen);

#endif
