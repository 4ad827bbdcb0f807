/* jtext.c -- compact JSON written straight into a growing buffer.
 *
 * Why: the daemon writes a summary per match per batch and hashes the
 * judge-view board after every event (openlog.md 10); building a jansson
 * tree and dumping it cost more than judging the event.  This writes the
 * bytes json_dumps(JSON_COMPACT) would give -- "," and ":" without spaces,
 * strings escaped as jansson escapes them (\" \\ \b \f \n \r \t, other
 * control characters \u00XX, UTF-8 kept), integers in decimal -- so a text
 * written here reads back with json_loadb() into the same tree, and hashes
 * of it stay the hashes jansson's output had.  The caller writes keys and
 * punctuation itself (jtext_lit), in the order its format documents.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logformat/jtext.h"

int jtext_grow(jtext *t, size_t n)
{
    size_t cap = t->cap ? t->cap * 2 : 8192;
    char *b;

    if (t->bad)
        return -1;
    while (cap < t->len + n + 1)
        cap *= 2;
    if (!(b = realloc(t->buf, cap))) {
        t->bad = 1;
        return -1;
    }
    t->buf = b;
    t->cap = cap;
    return 0;
}

int jtext_reserve(jtext *t, size_t n)
{
    char *b;
    if (t->bad)
        return -1;
    if (t->len + n < t->cap)
        return 0;
    if (!(b = realloc(t->buf, t->len + n + 1))) {
        t->bad = 1;
        return -1;
    }
    t->buf = b;
    t->cap = t->len + n + 1;
    return 0;
}

/* The length of the UTF-8 sequence at s, of at most `left` bytes (as
 * jansson's utf8_iterate judges it: no overlong forms, no surrogates,
 * nothing above U+10FFFF), its code point in *cp; 0 when it is not valid
 * UTF-8. */
static size_t utf8_seq(const unsigned char *s, size_t left, int32_t *cp)
{
    unsigned char c = s[0];
    size_t n;
    int32_t v;

    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c < 0xC2)
        return 0;
    if (c < 0xE0) {
        n = 2;
        v = c & 0x1F;
    } else if (c < 0xF0) {
        n = 3;
        v = c & 0x0F;
    } else if (c < 0xF5) {
        n = 4;
        v = c & 0x07;
    } else {
        return 0;
    }
    if (n > left)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) || (n == 3 && v < 0x800) || (n == 4 && v < 0x10000))
        return 0;
    *cp = v;
    return n;
}

/* A string, quoted and escaped as json_dumps escapes it; NULL or invalid
 * UTF-8 fails (json_string() would have refused it). */
void jtext_str(jtext *t, const char *s)
{
    if (!s) {
        t->bad = 1;
        return;
    }
    jtext_strn(t, s, strlen(s));
}

/* Printable ASCII that needs no escape: the common case (card ids and
 * names), passed over in one go. */
static const unsigned char *plain_run(const unsigned char *p, const unsigned char *end)
{
    while (p < end && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
        p++;
    return p;
}

void jtext_strn(jtext *t, const char *s, size_t len)
{
    if (!s && len) {
        t->bad = 1;
        return;
    }
    if (!s)
        s = "";   /* msgpack-c gives an empty string no pointer */
    const unsigned char *p = (const unsigned char *)s, *end = p + len, *run;

    if ((p = plain_run(p, end)) == end) {
        if (t->len + len + 2 >= t->cap && jtext_grow(t, len + 2))
            return;
        t->buf[t->len] = '"';
        if (len)
            memcpy(t->buf + t->len + 1, s, len);
        t->buf[t->len + 1 + len] = '"';
        t->len += len + 2;
        t->buf[t->len] = 0;
        return;
    }
    /* s..p needs no escape: the loop goes on from p */
    jtext_lit(t, "\"");
    run = (const unsigned char *)s;
    for (;;) {
        int32_t cp;
        size_t n;
        char esc[8];
        const char *e = NULL;
        if ((p = plain_run(p, end)) == end)
            break;
        if (!(n = utf8_seq(p, (size_t)(end - p), &cp))) {
            t->bad = 1;
            return;
        }
        if (cp != '"' && cp != '\\' && cp >= 0x20) {
            p += n;
            continue;
        }
        jtext_raw(t, (const char *)run, (size_t)(p - run));
        switch (cp) {
        case '"': e = "\\\""; break;
        case '\\': e = "\\\\"; break;
        case '\b': e = "\\b"; break;
        case '\f': e = "\\f"; break;
        case '\n': e = "\\n"; break;
        case '\r': e = "\\r"; break;
        case '\t': e = "\\t"; break;
        default:
            /* a NUL inside the string too: "\u0000", as jansson */
            snprintf(esc, sizeof esc, "\\u%04X", (unsigned)cp);
            e = esc;
        }
        jtext_raw(t, e, strlen(e));
        p += n;
        run = p;
    }
    jtext_raw(t, (const char *)run, (size_t)(p - run));
    jtext_lit(t, "\"");
}

void jtext_int(jtext *t, long long v)
{
    char num[24], *q = num + sizeof num;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;

    do
        *--q = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--q = '-';
    jtext_raw(t, q, (size_t)(num + sizeof num - q));
}

void jtext_bool(jtext *t, int b)
{
    if (b)
        jtext_lit(t, "true");
    else
        jtext_lit(t, "false");
}

/* A string, or null when s is NULL. */
void jtext_str_or_null(jtext *t, const char *s)
{
    if (s)
        jtext_str(t, s);
    else
        jtext_lit(t, "null");
}

/* s when cond holds (a NULL s then fails, as json_string(NULL) does), else null. */
void jtext_str_if(jtext *t, int cond, const char *s)
{
    if (cond)
        jtext_str(t, s);
    else
        jtext_lit(t, "null");
}

void jtext_fmt(jtext *t, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0) {
        t->bad = 1;
        return;
    }
    jtext_raw(t, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}
