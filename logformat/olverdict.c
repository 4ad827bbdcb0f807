/* olverdict.c -- verdicts (openlog.md 8) as values and as wire maps.
 *
 * Every event gets exactly one verdict.  The struct is fixed-size so that
 * engines can return one without allocating; the wire form keeps the key
 * order of the contract so that verdict bytes are stable (they are hashed
 * into the record's chain, openlog.md 10).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "logformat/olverdict.h"

static const char *const status_names[OL_V_COUNT] = {
    "ok", "warning", "illegal", "mismatch", "duplicate", "conflict", "gap", "malformed", "held", "void",
};

const char *ol_status_name(ol_status s)
{
    return (unsigned)s < OL_V_COUNT ? status_names[s] : NULL;
}

int ol_status_parse(const char *s)
{
    for (int i = 0; s && i < OL_V_COUNT; i++)
        if (!strcmp(status_names[i], s))
            return i;
    return -1;
}

void olverdict_vformat(char *buf, size_t n, const char *fmt, va_list ap)
{
    if (n) {
        vsnprintf(buf, n, fmt, ap);
        ol_utf8_clean(buf);   /* a name cut at the buffer's end */
    }
}

void olverdict_format(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    olverdict_vformat(buf, n, fmt, ap);
    va_end(ap);
}

/* snprintf(dst, cap, "%s", src) without the formatting machinery: every
 * event's verdict is set at least once, most of them with no message. */
static void copy_cut(char *dst, size_t cap, const char *src)
{
    size_t n = src ? strnlen(src, cap - 1) : 0;
    memcpy(dst, src ? src : "", n);
    dst[n] = '\0';
}

void olverdict_set(olverdict *v, const char *match, uint64_t seq, ol_status st,
                   const char *rule, const char *fmt, ...)
{
    memset(v, 0, sizeof *v);
    copy_cut(v->match, sizeof v->match, match);
    v->seq = seq;
    v->has_seq = 1;
    v->status = st;
    copy_cut(v->rule, sizeof v->rule, rule);
    ol_utf8_clean(v->rule);   /* a rule that names a key, cut to fit */
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        if (!strcmp(fmt, "%s"))   /* a sentence made already: copied */
            copy_cut(v->msg, sizeof v->msg, va_arg(ap, const char *));
        else
            vsnprintf(v->msg, sizeof v->msg, fmt, ap);
        va_end(ap);
        ol_utf8_clean(v->msg);
    }
}

void olverdict_malformed(olverdict *v, const char *match, int has_seq, uint64_t seq,
                         const char *key, const char *msg)
{
    char rule[OL_RULE_MAX] = "";
    /* Cite the contract by the top-level key at fault: "players.p1.id"
     * is a fault of the header's "players". */
    if (key && key[0]) {
        size_t k = ol_append(rule, sizeof rule, 0, "openlog:"), n = strcspn(key, ".[");
        if (n > sizeof rule - 1 - k)
            n = sizeof rule - 1 - k;
        memcpy(rule + k, key, n);
        rule[k + n] = 0;
    }
    olverdict_set(v, match, seq, OL_V_MALFORMED, rule, "%s", msg ? msg : "");
    v->has_seq = has_seq;
}
