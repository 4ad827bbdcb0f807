/* testutil.h -- helpers shared by the Criterion suites.
 *
 * Tests run from the build tree; `make check` exports top_srcdir so that
 * fixtures are found wherever the build directory is (make distcheck
 * builds in a read-only copy of the sources).
 */
#ifndef ARBITER_TESTUTIL_H
#define ARBITER_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logformat/olcodec.h"
#include "src/core/verify.h"

/* Path of a file under the source tree, in a static buffer per call site. */
static inline const char *src_path(char *buf, size_t n, const char *rel)
{
    const char *top = getenv("top_srcdir");
    snprintf(buf, n, "%s/%s", top && *top ? top : ".", rel);
    return buf;
}

#define SRC(rel) src_path((char[4096]){0}, 4096, (rel))

/* The JSON text of a scripted event of match "t": its seq `at`, its time t (0:
 * none) and the rest of its members, `body` ("\"type\":..."). */
static inline void event_text(char *buf, size_t n, unsigned long long at, unsigned long long t, const char *body)
{
    if (t)
        snprintf(buf, n, "{\"match\":\"t\",\"seq\":%llu,\"t\":%llu,%s}", at, t, body);
    else
        snprintf(buf, n, "{\"match\":\"t\",\"seq\":%llu,%s}", at, body);
}

/* A record of n event texts judged as `arbiter verify` judges a log and as
 * the tournament module (src/tournament/tourrec.c) judges a record: one verify
 * session on cdb, ended.  The caller reads verify_session_report() and
 * verify_session_verifier(), then destroys the session; NULL when a text
 * does not decode or out of memory. */
static inline verify_session *judge_texts(const cards *cdb, const char *const texts[], size_t n)
{
    verify_session *s = NULL;
    if (verify_session_new(cdb, "t", &s) != VERIFY_OK)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        olevent *ev = NULL;
        olerror err;
        const verify_entry *e = NULL;
        size_t len = strlen(texts[i]);
        int bad = olcodec_decode_json(texts[i], len, (ol_origin){0, 1}, &ev, &err) != OL_OK ||
                  verify_session_event(s, ev, texts[i], len, &e) != VERIFY_OK;
        olevent_destroy(&ev);
        if (bad) {
            verify_session_destroy(&s);
            return NULL;
        }
    }
    verify_session_end(s);
    return s;
}

/* The header text `text` made to name another card database than the
 * suites' core@1.1.0 (same length, in place); 0, or -1 when it names none. */
static inline int name_other_cards(char *text)
{
    char *at = strstr(text, "\"cards\":\"core@1.1.0\"");
    if (!at)
        return -1;
    memcpy(at, "\"cards\":\"core@0.9.0\"", strlen("\"cards\":\"core@0.9.0\""));
    return 0;
}

#endif
