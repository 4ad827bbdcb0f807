/* jtext.h -- compact JSON written straight into a growing buffer, byte for
 * byte what jansson's json_dumps(JSON_COMPACT) writes (src/jtext.c says
 * why).  Usage:
 *
 *     jtext t = {0};
 *     jtext_lit(&t, "{\"name\":"); jtext_str(&t, name); jtext_lit(&t, "}");
 *     if (t.bad) ... else use t.buf[0..t.len) (NUL-terminated);
 *     jtext_free(&t);
 *
 * Errors are sticky: after an allocation failure, or a string that is not
 * UTF-8 (or NULL, where json_string() would refuse it), t.bad is set and
 * every later call does nothing.  t.buf is owned by the jtext; a jtext may
 * be reused after t.len = 0, t.bad = 0 (jtext_reset).
 */
#ifndef ARBITER_JTEXT_H
#define ARBITER_JTEXT_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *buf;                /* NUL-terminated when len > 0 and !bad  */
    size_t len, cap;
    int bad;                  /* out of memory, or a string not UTF-8 */
} jtext;

/* Make room for n more bytes and the NUL; 0, or -1 (t->bad set). */
int jtext_grow(jtext *t, size_t n);

/* Make room for exactly n more bytes and the NUL when there is less: for
 * a small text whose size is known about (a first jtext_grow takes
 * 8 KiB).  0, or -1 (t->bad set). */
int jtext_reserve(jtext *t, size_t n);

/* n bytes as they are (already JSON). */
static inline void jtext_raw(jtext *t, const char *s, size_t n)
{
    if (t->len + n >= t->cap && jtext_grow(t, n))
        return;
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    t->buf[t->len] = 0;
}

/* A literal piece of JSON: punctuation, keys, true/false/null. */
#define jtext_lit(t, s) jtext_raw((t), "" s "", sizeof(s) - 1)   /* string literals only */

/* A string, quoted and escaped; NULL or invalid UTF-8 sets t->bad. */
void jtext_str(jtext *t, const char *s);

/* The len bytes at s as a string (json_stringn's: a NUL inside is
 * written "\u0000"); invalid UTF-8 sets t->bad. */
void jtext_strn(jtext *t, const char *s, size_t len);

/* A string, or null when s is NULL. */
void jtext_str_or_null(jtext *t, const char *s);

/* s when cond holds (a NULL s then sets t->bad), else null. */
void jtext_str_if(jtext *t, int cond, const char *s);

void jtext_int(jtext *t, long long v);

/* A member written at once: `head` is its punctuation and key as JSON
 * (",\"def\":"), then the integer. */
static inline void jtext_member_int(jtext *t, const char *head, long long v)
{
    jtext_raw(t, head, strlen(head));
    jtext_int(t, v);
}

/* Text formatted as printf would (for words, not JSON: nothing is
 * escaped).  A text longer than 1 KiB is cut there. */
void jtext_fmt(jtext *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void jtext_bool(jtext *t, int b);

static inline void jtext_reset(jtext *t)
{
    t->len = 0;
    t->bad = 0;
}

static inline void jtext_free(jtext *t)
{
    free(t->buf);
    t->buf = NULL;
    t->len = t->cap = 0;
}

#endif
