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

#endif
