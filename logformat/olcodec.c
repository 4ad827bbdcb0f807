/* olcodec.c -- the open-log codec: bytes to typed events and back.
 *
 * What: decode one event from a MessagePack frame or a JSON object text into
 * an olevent, and encode events back (logformat/SPEC.md).
 *
 * Why this shape: the two encodings carry the same maps, so both are first
 * turned into one generic tree of values (olval, below), and one typed
 * decoder reads that tree.  For lossless conversion the event keeps what it
 * was decoded from -- the json_t of a JSON text, the bytes of a MessagePack
 * frame -- and re-encodes that as is, unknown keys included.
 *
 * How, for MessagePack: input is hostile.  A generic unpacker (msgpack-c)
 * allocates for the element count an array or map *declares* before
 * reading the elements, so five bytes (dd ff ff ff ff) would ask for
 * ~96 GB.  The scanner here walks the object checking every limit of the
 * contract -- counts no larger than the bytes left, depth, string sizes,
 * UTF-8, no binary or extension values, string keys only, event size --
 * and builds the values as it goes, in the event's arena, a container's
 * elements allocated only once its count is known to fit.  Strings are not
 * copied: the values point into the frame, and the typed decoder copies
 * what the event keeps.  msgpack-c is left for encoding and for the json_t
 * of olcodec_msgpack_to_json().
 *
 * Speed: verifying a log is mostly decoding it (bench/run_verify), and
 * tables send small maps of short ASCII strings and small integers.
 * fast_build() reads just that subset in a tight loop and hands anything
 * else -- and any fault -- to the full scanner, which gives the same values
 * or the exact error.  The typed decoder indexes an event's keys once
 * rather than searching the map per field.
 *
 * Errors say where: every value keeps the offset where it starts, so a
 * typed-decode error about a value can name its byte.  For JSON, a small
 * pass over the (already valid) text finds the same offsets, paired with
 * the json_t tree in pre-order, reported as line and column.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "logformat/olcodec.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define PATH_MAX_LEN 80
#define LIST_MAX 1024      /* entries of any one list in a decoded value */

/* ------------------------------------------------------------------ */
/* Positions: where each value of the tree came from.                  */

typedef struct {
    const json_t *parent;  /* NULL for the root */
    const char *key;       /* object member, or NULL for an array element */
    size_t idx;
    size_t off;
} pos_entry;

typedef struct {
    pos_entry *v;
    size_t n, cap;
    size_t *offs;          /* value offsets in pre-order, from a scan */
    size_t n_offs, cap_offs, next_off;
    ol_origin origin;
    const char *text;      /* JSON text, for line/column; NULL for msgpack */
} olpos;

static void pos_free(olpos *p)
{
    free(p->v);
    free(p->offs);
    memset(p, 0, sizeof *p);
}

static int push_off(olpos *p, size_t off)
{
    if (!p)
        return OL_OK;
    if (p->n_offs == p->cap_offs) {
        size_t cap = p->cap_offs ? p->cap_offs * 2 : 64;
        size_t *v = realloc(p->offs, cap * sizeof *v);
        if (!v)
            return OL_ENOMEM;
        p->offs = v;
        p->cap_offs = cap;
    }
    p->offs[p->n_offs++] = off;
    return OL_OK;
}

/* Pair the next scanned offset with a value of the tree. */
static int pos_note(olpos *p, const json_t *parent, const char *key, size_t idx)
{
    if (!p || p->next_off >= p->n_offs)
        return OL_OK;
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        pos_entry *v = realloc(p->v, cap * sizeof *v);
        if (!v)
            return OL_ENOMEM;
        p->v = v;
        p->cap = cap;
    }
    p->v[p->n++] = (pos_entry){parent, key, idx, p->offs[p->next_off++]};
    return OL_OK;
}

static int pos_find(const olpos *p, const json_t *parent, const char *key,
                    size_t idx, size_t *off)
{
    for (size_t i = 0; p && i < p->n; i++) {
        const pos_entry *e = &p->v[i];
        if (e->parent != parent)
            continue;
        if (key ? (e->key && !strcmp(e->key, key)) : (!e->key && e->idx == idx)) {
            *off = e->off;
            return 1;
        }
    }
    return 0;
}

/* "byte N" or "line L, column C" for an offset. */
static void where(char *buf, size_t n, ol_origin origin, const char *text, size_t off)
{
    buf[0] = 0;
    if (origin.line == 0 || !text) {
        ol_append_u64(buf, n, ol_append(buf, n, 0, "byte "), origin.base + off);
        return;
    }
    unsigned col = 1;
    for (size_t i = 0; i < off; i++)
        if (((unsigned char)text[i] & 0xC0) != 0x80)
            col++;
    size_t k = ol_append_u64(buf, n, ol_append(buf, n, 0, "line "), origin.line);
    ol_append_u64(buf, n, ol_append(buf, n, k, ", column "), col);
}

static int set_err(olerror *err, const char *path, const char *loc, const char *fmt, va_list ap)
{
    char what[320];
    vsnprintf(what, sizeof what, fmt, ap);
    ol_utf8_clean(what);
    if (err) {
        size_t k = ol_append(err->msg, sizeof err->msg, 0, loc);
        if (loc[0])
            k = ol_append(err->msg, sizeof err->msg, k, ": ");
        ol_append(err->msg, sizeof err->msg, ol_append(err->msg, sizeof err->msg, k, what), ".");
        ol_append(err->key, sizeof err->key, 0, path ? path : "");
        ol_utf8_clean(err->msg);
        ol_utf8_clean(err->key);
    }
    return OL_EMALFORMED;
}

static int errf_at(olerror *err, ol_origin origin, const char *text, size_t off,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int errf_at(olerror *err, ol_origin origin, const char *text, size_t off,
                   const char *fmt, ...)
{
    char loc[64];
    va_list ap;
    where(loc, sizeof loc, origin, text, off);
    va_start(ap, fmt);
    set_err(err, NULL, loc, fmt, ap);
    va_end(ap);
    return OL_EMALFORMED;
}

/* ------------------------------------------------------------------ */
/* Decoded values                                                      */

/* The typed decoder reads a small tree of these rather than jansson's
 * json_t: the MessagePack scanner builds it in the event's arena while it
 * checks the bytes (one pass, nothing freed one by one), and a JSON text
 * gets one converted from the json_t that jansson parsed.  A string is its
 * n bytes where they lie in the input (not NUL-terminated: the decoder
 * copies what the event keeps); a map holds 2n values, each key (a
 * string) followed by its value, in input order.  `off` is where the value
 * starts in its input, for messages. */
typedef enum { OV_NULL, OV_FALSE, OV_TRUE, OV_INT, OV_REAL, OV_STR, OV_ARR, OV_MAP } ov_kind;

#define OV_NOPOS ((size_t)-1)

typedef struct olval olval;
struct olval {
    ov_kind kind;
    uint32_t n;            /* STR: bytes; ARR: elements; MAP: entries */
    size_t off;            /* OV_NOPOS when unknown */
    union {
        int64_t i;
        double d;
        const char *s;
        olval *items;      /* ARR: n values; MAP: 2n, key then value */
    } u;
};

static const olval *ov_get(const olval *m, const char *key)
{
    if (!m || m->kind != OV_MAP)
        return NULL;
    size_t n = strlen(key);
    for (uint32_t i = 0; i < m->n; i++) {
        const olval *k = &m->u.items[2 * i];
        if (k->n == n && !memcmp(k->u.s, key, n))
            return k + 1;
    }
    return NULL;
}

/* ------------------------------------------------------------------ */
/* The MessagePack scanner                                             */

typedef struct {
    const uint8_t *buf;
    size_t len;            /* bytes we may look at */
    size_t avail;          /* bytes that exist (len may be capped below it) */
    size_t off;
    ol_origin origin;
    olerror *err;
    olpos *pos;
    olarena *arena;        /* building values (NULL: only checking)        */
    const char *why;       /* building: the first fault that only a built
                              tree shows (a repeated key, a non-finite
                              float), reported once the scan is through   */
    size_t max;            /* the largest message: OL_EVENT_MAX for an
                              event, more for a query (msgpack_tree)      */
} scanner;

static int scan_fail(scanner *s, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int scan_fail(scanner *s, size_t off, const char *fmt, ...)
{
    char loc[64];
    va_list ap;
    where(loc, sizeof loc, s->origin, NULL, off);
    va_start(ap, fmt);
    set_err(s->err, NULL, loc, fmt, ap);
    va_end(ap);
    return OL_EMALFORMED;
}

static int scan_truncated(scanner *s, size_t at, size_t need)
{
    if (s->len < s->avail)
        return scan_fail(s, at, "the event is larger than %zu bytes", s->max);
    return scan_fail(s, at, "truncated MessagePack: %zu more byte%s needed, the input ends",
                     need, need == 1 ? "" : "s");
}

static int need(scanner *s, size_t at, size_t n)
{
    if (s->len - at < n)
        return scan_truncated(s, at, n - (s->len - at));
    return OL_OK;
}

static uint64_t be(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v = (v << 8) | p[i];
    return v;
}

/* The value of the MessagePack integer of type b (cc-cf unsigned, d0-d3
 * signed) whose w bytes are at p.  Both decoders read integers here. */
static int64_t int_at(uint8_t b, const uint8_t *p, size_t w)
{
    uint64_t u = be(p, w);
    if (b >= 0xd0 && w < 8)   /* signed: sign-extend from its width */
        return (int64_t)(u ^ (1ull << (8 * w - 1))) - (int64_t)(1ull << (8 * w - 1));
    return (int64_t)u;
}

static int scan_value(scanner *s, int depth, int is_key, olval *out);

static int scan_str(scanner *s, size_t start, size_t hdr, uint64_t n, int is_key, olval *out)
{
    int rc = need(s, start, hdr);
    if (rc)
        return rc;
    if (n > OL_STRING_MAX)
        return scan_fail(s, start, "a string of %llu bytes; strings are at most %d bytes",
                         (unsigned long long)n, OL_STRING_MAX);
    if (s->len - start - hdr < n)
        return scan_truncated(s, start + hdr, (size_t)n - (s->len - start - hdr));
    const uint8_t *p = s->buf + start + hdr;
    size_t bad = ol_utf8_bad(p, (size_t)n);
    if (bad < n)
        return scan_fail(s, start + hdr + bad, p[bad] ? "invalid UTF-8 in a string"
                                                       : "a NUL character in a string");
    for (size_t i = 0; is_key && i < n; i++)
        if (p[i] >= 'A' && p[i] <= 'Z')
            return scan_fail(s, start, "the key \"%.*s\" is not lower-case", (int)n, (const char *)p);
    s->off = start + hdr + (size_t)n;
    if (out) {
        out->kind = OV_STR;
        out->n = (uint32_t)n;
        out->u.s = (const char *)p;
    }
    return OL_OK;
}

/* Building: has the key at kv[2*i] appeared before in this map?  Small
 * maps compare with every earlier key; large ones (only hostile input has
 * them) keep a hash table of the keys seen, so the check stays linear. */
#define SMALL_MAP 16

static uint32_t key_hash(const olval *k)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < k->n; i++)
        h = (h ^ (uint8_t)k->u.s[i]) * 16777619u;
    return h;
}

static int key_seen(const olval *kv, uint64_t i, uint32_t *table, uint32_t mask)
{
    const olval *k = &kv[2 * i];
    if (!table) {
        for (uint64_t j = 0; j < i; j++)
            if (kv[2 * j].n == k->n && !memcmp(kv[2 * j].u.s, k->u.s, k->n))
                return 1;
        return 0;
    }
    for (uint32_t h = key_hash(k) & mask;; h = (h + 1) & mask) {
        if (!table[h]) {
            table[h] = (uint32_t)i + 1;
            return 0;
        }
        const olval *o = &kv[2 * (table[h] - 1)];
        if (o->n == k->n && !memcmp(o->u.s, k->u.s, k->n))
            return 1;
    }
}

static int scan_container(scanner *s, size_t start, size_t hdr, uint64_t count,
                          int is_map, int depth, olval *out)
{
    int rc = need(s, start, hdr);
    if (rc)
        return rc;
    if (depth >= OL_DEPTH_MAX)
        return scan_fail(s, start, "nesting deeper than %d levels", OL_DEPTH_MAX);
    /* Every element takes at least one byte: refuse a count the remaining
     * bytes cannot hold before anything is allocated for it. */
    uint64_t left = s->len - start - hdr;
    uint64_t min_bytes = is_map ? count * 2 : count;
    if (count > left || min_bytes > left) {
        if (s->len < s->avail)
            return scan_fail(s, start, "the event is larger than %zu bytes", s->max);
        return scan_fail(s, start, "%s declares %llu %s but only %llu bytes follow",
                         is_map ? "a map" : "an array", (unsigned long long)count,
                         is_map ? "entries" : "elements", (unsigned long long)left);
    }
    s->off = start + hdr;
    olval *items = NULL;
    uint32_t *table = NULL, mask = 0;
    if (out) {
        out->kind = is_map ? OV_MAP : OV_ARR;
        out->n = (uint32_t)count;
        if (count && !(items = olarena_alloc_raw(s->arena, (size_t)count * (is_map ? 2 : 1) * sizeof *items)))
            return OL_ENOMEM;
        out->u.items = items;
        if (is_map && count > SMALL_MAP) {
            for (mask = 1; mask < 2 * count; mask <<= 1)
                ;
            if (!(table = calloc(mask, sizeof *table)))
                return OL_ENOMEM;
            mask--;
        }
    }
    for (uint64_t i = 0; i < count; i++) {
        if (is_map) {
            if ((rc = scan_value(s, depth + 1, 1, items ? &items[2 * i] : NULL)))
                break;
            if (items && key_seen(items, i, table, mask) && !s->why)
                s->why = "a key that appears twice in one map";
        }
        if ((rc = scan_value(s, depth + 1, 0, items ? &items[is_map ? 2 * i + 1 : i] : NULL)))
            break;
    }
    free(table);
    return rc;
}

/* A float's value, for the check only a built tree made before (finite). */
static double float_at(const uint8_t *p, int wide)
{
    uint64_t bits = be(p, wide ? 8 : 4);
    if (wide) {
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    uint32_t b32 = (uint32_t)bits;
    float f;
    memcpy(&f, &b32, sizeof f);
    return (double)f;
}

static int scan_value(scanner *s, int depth, int is_key, olval *out)
{
    size_t at = s->off;
    int rc = need(s, at, 1);
    if (rc)
        return rc;
    if (!is_key && (rc = push_off(s->pos, at)))
        return rc;
    uint8_t b = s->buf[at];
    const uint8_t *p = s->buf + at + 1;

    if (out) {
        out->off = at;
        out->n = 0;
    }
    if (is_key && !((b >= 0xa0 && b <= 0xbf) || (b >= 0xd9 && b <= 0xdb)))
        return scan_fail(s, at, "a map key that is not a string");
    if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3) {
        s->off = at + 1;
        if (out) {
            if (b <= 0x7f || b >= 0xe0) {
                out->kind = OV_INT;
                out->u.i = (int8_t)b;
            } else {
                out->kind = b == 0xc0 ? OV_NULL : b == 0xc2 ? OV_FALSE : OV_TRUE;
            }
        }
        return OL_OK;
    }
    if (b >= 0x80 && b <= 0x8f)
        return scan_container(s, at, 1, b & 0x0f, 1, depth, out);
    if (b >= 0x90 && b <= 0x9f)
        return scan_container(s, at, 1, b & 0x0f, 0, depth, out);
    if (b >= 0xa0 && b <= 0xbf)
        return scan_str(s, at, 1, b & 0x1f, is_key, out);
    size_t width = 0;   /* integers and floats: bytes after the type byte */
    switch (b) {
    case 0xcc: case 0xd0: width = 1; break;
    case 0xcd: case 0xd1: width = 2; break;
    case 0xca: case 0xce: case 0xd2: width = 4; break;
    case 0xcb: case 0xd3: width = 8; break;
    case 0xcf:
        if ((rc = need(s, at, 9)))
            return rc;
        if (be(p, 8) > (uint64_t)INT64_MAX)
            return scan_fail(s, at, "an integer larger than %lld", (long long)INT64_MAX);
        width = 8;
        break;
    case 0xd9: return (rc = need(s, at, 2)) ? rc : scan_str(s, at, 2, be(p, 1), is_key, out);
    case 0xda: return (rc = need(s, at, 3)) ? rc : scan_str(s, at, 3, be(p, 2), is_key, out);
    case 0xdb: return (rc = need(s, at, 5)) ? rc : scan_str(s, at, 5, be(p, 4), is_key, out);
    case 0xdc: return (rc = need(s, at, 3)) ? rc : scan_container(s, at, 3, be(p, 2), 0, depth, out);
    case 0xdd: return (rc = need(s, at, 5)) ? rc : scan_container(s, at, 5, be(p, 4), 0, depth, out);
    case 0xde: return (rc = need(s, at, 3)) ? rc : scan_container(s, at, 3, be(p, 2), 1, depth, out);
    case 0xdf: return (rc = need(s, at, 5)) ? rc : scan_container(s, at, 5, be(p, 4), 1, depth, out);
    case 0xc1:
        return scan_fail(s, at, "the byte 0xc1, which MessagePack never uses");
    default:
        /* c4-c6 bin, c7-c9 ext, d4-d8 fixext: no JSON equivalent. */
        return scan_fail(s, at, "a MessagePack %s value; the open log uses none",
                         (b >= 0xc4 && b <= 0xc6) ? "binary" : "extension");
    }
    if ((rc = need(s, at, 1 + width)))
        return rc;
    s->off = at + 1 + width;
    if (!out)
        return OL_OK;
    if (b == 0xca || b == 0xcb) {
        out->kind = OV_REAL;
        out->u.d = float_at(p, b == 0xcb);
        if (!isfinite(out->u.d) && !s->why)
            s->why = "a floating-point value that is not finite";
        return OL_OK;
    }
    out->kind = OV_INT;
    out->u.i = int_at(b, p, width);
    return OL_OK;
}

static int scan_build(const uint8_t *buf, size_t len, int exact, size_t *used,
                      ol_origin origin, olerror *err, olpos *pos, olarena *arena, olval *root,
                      const char **why, size_t max)
{
    scanner s = {buf, len, len, 0, origin, err, pos, arena, NULL, max};
    if (len == 0)
        return scan_fail(&s, 0, "an empty message; an event is a MessagePack map");
    if (exact && len > max)
        return scan_fail(&s, 0, "the event is %zu bytes; an event is at most %zu bytes", len, max);
    if (s.len > max)
        s.len = max;
    int rc = scan_value(&s, 0, 0, root);
    if (rc)
        return rc;
    if (exact && s.off != len)
        return scan_fail(&s, s.off, "%zu trailing byte%s after the event", len - s.off,
                         len - s.off == 1 ? "" : "s");
    *used = s.off;
    if (why)
        *why = s.why;
    return OL_OK;
}

static int scan(const uint8_t *buf, size_t len, int exact, size_t *used,
                ol_origin origin, olerror *err, olpos *pos, size_t max)
{
    return scan_build(buf, len, exact, used, origin, err, pos, NULL, NULL, NULL, max);
}

/* ---- the fast path --------------------------------------------------
 *
 * Events as tables write them -- small maps of short ASCII strings, small
 * integers, null and booleans -- take most of a verifier's time, and the
 * scanner above spends most of it on generality.  fast_build() reads only
 * that common subset, with every check of the scanner, in a tight loop,
 * and gives up (returns 0) at the first byte it does not handle or that
 * is not right: a 64-bit integer, a float, a long string, a large map, a
 * repeated key, bad UTF-8, truncation...  The caller then runs scan_build()
 * from the start, which gives the same tree when the bytes are fine and
 * the exact error when not.  So the fast path may refuse anything; what it
 * accepts must be exactly what scan_build() accepts, built alike. */
typedef struct {
    const uint8_t *buf;
    size_t len, off;
    olarena *arena;
} fastb;

static int fast_value(fastb *f, int depth, olval *out);

/* Bytes a key may hold on the fast path: printable ASCII but upper case. */
static const unsigned char key_chars[256] = {
#define R8(c) [c] = 1, [c + 1] = 1, [c + 2] = 1, [c + 3] = 1, [c + 4] = 1, [c + 5] = 1, [c + 6] = 1, [c + 7] = 1
    R8(0x01), R8(0x09), R8(0x11), R8(0x19), R8(0x21), R8(0x29), R8(0x31), R8(0x39),
    [0x41] = 0, R8(0x5b), R8(0x63), R8(0x6b), R8(0x73), [0x7b] = 1, [0x7c] = 1, [0x7d] = 1, [0x7e] = 1, [0x7f] = 1,
#undef R8
};

/* A string of n bytes at f->off (its header read): ASCII or UTF-8, no NUL;
 * a key is lower-case.  0 when not sure. */
static int fast_str(fastb *f, size_t at, size_t n, int is_key, olval *out)
{
    if (f->len - f->off < n)
        return 0;
    const uint8_t *p = f->buf + f->off;
    if (is_key) {
        /* ASCII, no NUL, no upper case; anything else: the full scan */
        for (size_t i = 0; i < n; i++)
            if (!key_chars[p[i]])
                return 0;
    } else if (ol_utf8_bad(p, n) < n) {
        return 0;
    }
    out->kind = OV_STR;
    out->n = (uint32_t)n;
    out->off = at;
    out->u.s = (const char *)p;
    f->off += n;
    return 1;
}

static int fast_key(fastb *f, olval *out)
{
    size_t at = f->off;
    if (at >= f->len)
        return 0;
    uint8_t b = f->buf[at];
    if (b >= 0xa0 && b <= 0xbf) {
        f->off = at + 1;
        return fast_str(f, at, b & 0x1f, 1, out);
    }
    if (b == 0xd9 && f->len - at >= 2) {
        f->off = at + 2;
        return fast_str(f, at, f->buf[at + 1], 1, out);
    }
    return 0;
}

static int fast_container(fastb *f, size_t at, size_t count, int is_map, int depth, olval *out)
{
    if (depth >= OL_DEPTH_MAX || (is_map && count > SMALL_MAP))
        return 0;
    size_t left = f->len - f->off;
    if (count > left || (is_map ? 2 * count : count) > left)
        return 0;
    olval *items = NULL;
    if (count && !(items = olarena_alloc_raw(f->arena, count * (is_map ? 2 : 1) * sizeof *items)))
        return 0;
    out->kind = is_map ? OV_MAP : OV_ARR;
    out->n = (uint32_t)count;
    out->off = at;
    out->u.items = items;
    for (size_t i = 0; i < count; i++) {
        if (is_map) {
            olval *k = &items[2 * i];
            if (!fast_key(f, k))
                return 0;
            for (size_t j = 0; j < i; j++)
                if (items[2 * j].n == k->n && (k->n == 0 || items[2 * j].u.s[0] == k->u.s[0]) &&
                    !memcmp(items[2 * j].u.s, k->u.s, k->n))
                    return 0;
        }
        if (!fast_value(f, depth + 1, &items[is_map ? 2 * i + 1 : i]))
            return 0;
    }
    return 1;
}

static int fast_value(fastb *f, int depth, olval *out)
{
    size_t at = f->off;
    if (at >= f->len)
        return 0;
    uint8_t b = f->buf[at];
    const uint8_t *p = f->buf + at + 1;
    size_t left = f->len - at - 1;
    f->off = at + 1;
    out->off = at;
    out->n = 0;
    if (b <= 0x7f || b >= 0xe0) {
        out->kind = OV_INT;
        out->u.i = (int8_t)b;
        return 1;
    }
    if (b >= 0xa0 && b <= 0xbf)
        return fast_str(f, at, b & 0x1f, 0, out);
    if (b >= 0x80 && b <= 0x8f)
        return fast_container(f, at, b & 0x0f, 1, depth, out);
    if (b >= 0x90 && b <= 0x9f)
        return fast_container(f, at, b & 0x0f, 0, depth, out);
    switch (b) {
    case 0xc0: out->kind = OV_NULL; return 1;
    case 0xc2: out->kind = OV_FALSE; return 1;
    case 0xc3: out->kind = OV_TRUE; return 1;
    case 0xcc: case 0xcd: case 0xce: case 0xcf:   /* t, milliseconds, is a 0xcf */
    case 0xd0: case 0xd1: case 0xd2: case 0xd3: {
        size_t w = (size_t)1 << (b & 3);
        if (left < w || (b == 0xcf && be(p, 8) > (uint64_t)INT64_MAX))
            return 0;   /* the full scan says why */
        out->kind = OV_INT;
        out->u.i = int_at(b, p, w);
        f->off = at + 1 + w;
        return 1;
    }
    case 0xd9:
        if (left < 1)
            return 0;
        f->off = at + 2;
        return fast_str(f, at, p[0], 0, out);
    case 0xdc:
        if (left < 2)
            return 0;
        f->off = at + 3;
        return fast_container(f, at, (size_t)be(p, 2), 0, depth, out);
    default:
        return 0;
    }
}

/* scan_build() of the common case, or 0 to say "run scan_build()". */
static int fast_build(const uint8_t *buf, size_t len, int exact, size_t *used, olarena *arena,
                      olval *root)
{
    if (len == 0 || len > OL_EVENT_MAX)
        return 0;   /* (stream mode: the scanner caps its view instead) */
    fastb f = {buf, len, 0, arena};
    if (!fast_value(&f, 0, root) || (exact && f.off != len))
        return 0;
    *used = f.off;
    return 1;
}

int olcodec_scan(const uint8_t *buf, size_t len, int exact, size_t *used,
                 ol_origin origin, olerror *err)
{
    return scan(buf, len, exact, used, origin, err, NULL, OL_EVENT_MAX);
}

/* ------------------------------------------------------------------ */
/* Pairing offsets with the tree                                       */

/* The tree keeps the order of its input (jansson keeps insertion order
 * and duplicate keys are refused), so its pre-order walk meets values in
 * the order the scan recorded their offsets. */
static int pos_walk(olpos *p, const json_t *v, const json_t *parent,
                    const char *key, size_t idx)
{
    int rc = pos_note(p, parent, key, idx);
    if (rc)
        return rc;
    if (json_is_object(v)) {
        const char *k;
        json_t *c;
        json_object_foreach((json_t *)v, k, c)
            if ((rc = pos_walk(p, c, v, k, 0)))
                return rc;
    } else if (json_is_array(v)) {
        size_t i;
        json_t *c;
        json_array_foreach(v, i, c)
            if ((rc = pos_walk(p, c, v, NULL, i)))
                return rc;
    }
    return OL_OK;
}

/* ------------------------------------------------------------------ */
/* msgpack_object -> json_t (after a successful scan)                  */

/* Structural checks were done by the scan; what is left is what only a
 * built tree shows: a key repeated in one map, a non-finite float. */
static int from_object(const msgpack_object *o, json_t **out, const char **why)
{
    json_t *j = NULL;
    int rc = OL_OK;
    switch (o->type) {
    case MSGPACK_OBJECT_NIL: j = json_null(); break;
    case MSGPACK_OBJECT_BOOLEAN: j = json_boolean(o->via.boolean); break;
    case MSGPACK_OBJECT_POSITIVE_INTEGER: j = json_integer((json_int_t)o->via.u64); break;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER: j = json_integer((json_int_t)o->via.i64); break;
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64:
        if (!isfinite(o->via.f64)) {
            *why = "a floating-point value that is not finite";
            return OL_EMALFORMED;
        }
        j = json_real(o->via.f64);
        break;
    /* msgpack-c may give an empty string a NULL pointer, which jansson
     * refuses: an empty string (value or key) is "". */
    case MSGPACK_OBJECT_STR: j = json_stringn(o->via.str.size ? o->via.str.ptr : "", o->via.str.size); break;
    case MSGPACK_OBJECT_ARRAY:
        if (!(j = json_array()))
            return OL_ENOMEM;
        for (uint32_t i = 0; !rc && i < o->via.array.size; i++) {
            json_t *v = NULL;
            if (!(rc = from_object(&o->via.array.ptr[i], &v, why)) && json_array_append_new(j, v))
                rc = OL_ENOMEM;
        }
        break;
    case MSGPACK_OBJECT_MAP:
        if (!(j = json_object()))
            return OL_ENOMEM;
        for (uint32_t i = 0; !rc && i < o->via.map.size; i++) {
            const msgpack_object_str *k = &o->via.map.ptr[i].key.via.str;
            const char *key = k->size ? k->ptr : "";
            json_t *v = NULL;
            if (json_object_getn(j, key, k->size)) {
                *why = "a key that appears twice in one map";
                rc = OL_EMALFORMED;
            } else if (!(rc = from_object(&o->via.map.ptr[i].val, &v, why)) &&
                       json_object_setn_new(j, key, k->size, v)) {
                rc = OL_ENOMEM;
            }
        }
        break;
    default:
        *why = "a MessagePack value the open log does not use";
        return OL_EMALFORMED;
    }
    if (!j)
        return OL_ENOMEM;
    if (rc) {
        json_decref(j);
        return rc;
    }
    *out = j;
    return OL_OK;
}

/* Scan and unpack one MessagePack object of exactly len bytes into u (the
 * caller destroys it, whatever this returns). */
static int unpacked(const uint8_t *buf, size_t len, size_t max, ol_origin origin, msgpack_unpacked *u,
                    olpos *pos, olerror *err)
{
    size_t used = 0, off = 0;
    msgpack_unpacked_init(u);
    int rc = scan(buf, len, 1, &used, origin, err, pos, max);
    if (rc)
        return rc;
    msgpack_unpack_return r = msgpack_unpack_next(u, (const char *)buf, len, &off);
    if (r == MSGPACK_UNPACK_NOMEM_ERROR)
        return OL_ENOMEM;
    /* The scan accepts only what msgpack-c parses; reaching this is a
     * disagreement between the two, reported rather than trusted. */
    if (r != MSGPACK_UNPACK_SUCCESS || off != len)
        return errf_at(err, origin, NULL, 0, "MessagePack that could not be unpacked (%d)", (int)r);
    return OL_OK;
}

/* Scan, unpack and convert one MessagePack object of exactly len bytes. */
static int msgpack_tree(const uint8_t *buf, size_t len, size_t max, ol_origin origin,
                        json_t **out, olpos *pos, olerror *err)
{
    msgpack_unpacked u;
    int rc = unpacked(buf, len, max, origin, &u, pos, err);
    if (!rc) {
        const char *why = NULL;
        rc = from_object(&u.data, out, &why);
        if (rc == OL_EMALFORMED)
            rc = errf_at(err, origin, NULL, 0, "%s", why);
    }
    msgpack_unpacked_destroy(&u);
    return rc;
}

/* ------------------------------------------------------------------ */
/* msgpack_object -> JSON text (olcodec_msgpack_text)                  */

static int key_cmp(const void *a, const void *b)
{
    const msgpack_object_str *x = *(const msgpack_object_str *const *)a, *y = *(const msgpack_object_str *const *)b;
    if (x->size != y->size)
        return x->size < y->size ? -1 : 1;
    return x->size ? memcmp(x->ptr, y->ptr, x->size) : 0;
}

/* 1 when a key of the map appears twice (from_object refuses the map), 0
 * when not, OL_ENOMEM.  A map of the open log has a few keys: they are
 * compared pairwise; a large one (only a damaged or hostile record has
 * one) is sorted, so it costs n log n, not n squared. */
static int repeated_key(const msgpack_object_map *m)
{
    const uint32_t n = m->size;
    if (n <= 16) {
        for (uint32_t i = 1; i < n; i++)
            for (uint32_t k = 0; k < i; k++) {
                const msgpack_object_str *x = &m->ptr[i].key.via.str, *y = &m->ptr[k].key.via.str;
                if (!key_cmp(&x, &y))
                    return 1;
            }
        return 0;
    }
    const msgpack_object_str **keys = malloc(n * sizeof *keys);
    int rep = 0;
    if (!keys)
        return OL_ENOMEM;
    for (uint32_t i = 0; i < n; i++)
        keys[i] = &m->ptr[i].key.via.str;
    qsort(keys, n, sizeof *keys, key_cmp);
    for (uint32_t i = 1; i < n && !rep; i++)
        rep = !key_cmp(&keys[i - 1], &keys[i]);
    free(keys);
    return rep;
}

/* What of a top-level member is written null (olcodec_null): its value
 * when a string (*whole), its first *first items that are strings. */
typedef struct {
    const olcodec_null *nulls;
    size_t n;
} null_set;

static int str_is(const msgpack_object_str *k, const char *s)
{
    size_t n = strlen(s);
    return k->size == n && (!n || !memcmp(k->ptr, s, n));
}

static void nulls_of(const null_set *ns, const msgpack_object_str *k, int *whole, size_t *first)
{
    *whole = 0, *first = 0;
    for (size_t i = 0; ns && i < ns->n; i++)
        if (str_is(k, ns->nulls[i].key)) {
            if (!ns->nulls[i].list)
                *whole = 1;
            else if (ns->nulls[i].first > *first)
                *first = ns->nulls[i].first;
        }
}

/* The text from_object's tree dumps to (its checks too), less the member
 * `drop` of this map when not NULL, with the strings `ns` names null
 * (NULL: none; only a top-level map has them). */
static int text_of(const msgpack_object *o, const char *drop, const null_set *ns, jtext *t)
{
    switch (o->type) {
    case MSGPACK_OBJECT_NIL: jtext_lit(t, "null"); break;
    case MSGPACK_OBJECT_BOOLEAN: jtext_bool(t, o->via.boolean); break;
    /* the same conversion as from_object's json_integer() */
    case MSGPACK_OBJECT_POSITIVE_INTEGER: jtext_int(t, (long long)(json_int_t)o->via.u64); break;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER: jtext_int(t, (long long)(json_int_t)o->via.i64); break;
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64: {
        /* jansson's own formatting of a real (no event of the open log has
         * one): asked of jansson, not copied */
        if (!isfinite(o->via.f64))
            return OL_EMALFORMED;
        json_t *r = json_real(o->via.f64);
        char *d = r ? json_dumps(r, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
        json_decref(r);
        if (!d)
            return OL_ENOMEM;
        jtext_raw(t, d, strlen(d));
        free(d);
        break;
    }
    case MSGPACK_OBJECT_STR: jtext_strn(t, o->via.str.ptr, o->via.str.size); break;
    case MSGPACK_OBJECT_ARRAY:
        jtext_lit(t, "[");
        for (uint32_t i = 0; i < o->via.array.size; i++) {
            int rc;
            if (i)
                jtext_lit(t, ",");
            if ((rc = text_of(&o->via.array.ptr[i], NULL, NULL, t)))
                return rc;
        }
        jtext_lit(t, "]");
        break;
    case MSGPACK_OBJECT_MAP: {
        int rc = repeated_key(&o->via.map), first = 1;
        if (rc)
            return rc < 0 ? rc : OL_EMALFORMED;
        jtext_lit(t, "{");
        for (uint32_t i = 0; i < o->via.map.size; i++) {
            const msgpack_object_str *k = &o->via.map.ptr[i].key.via.str;
            const msgpack_object *v = &o->via.map.ptr[i].val;
            int whole;
            size_t before;
            if (drop && str_is(k, drop))
                continue;
            if (!first)
                jtext_lit(t, ",");
            first = 0;
            jtext_strn(t, k->ptr, k->size);
            jtext_lit(t, ":");
            nulls_of(ns, k, &whole, &before);
            if (whole && v->type == MSGPACK_OBJECT_STR) {
                jtext_lit(t, "null");
                continue;
            }
            if (before && v->type == MSGPACK_OBJECT_ARRAY) {
                jtext_lit(t, "[");
                for (uint32_t e = 0; e < v->via.array.size; e++) {
                    const msgpack_object *x = &v->via.array.ptr[e];
                    if (e)
                        jtext_lit(t, ",");
                    if (e < before && x->type == MSGPACK_OBJECT_STR)
                        jtext_lit(t, "null");
                    else if ((rc = text_of(x, NULL, NULL, t)))
                        return rc;
                }
                jtext_lit(t, "]");
                continue;
            }
            if ((rc = text_of(v, NULL, NULL, t)))
                return rc;
        }
        jtext_lit(t, "}");
        break;
    }
    default:
        return OL_EMALFORMED;
    }
    return t->bad ? OL_ENOMEM : OL_OK;
}

int olcodec_msgpack_text(const uint8_t *buf, size_t len, const char *drop, const olcodec_null *nulls, size_t n_nulls,
                         olcodec_pick *picks, size_t n_picks, jtext *out)
{
    null_set ns = {nulls, n_nulls};
    msgpack_unpacked u;
    olerror err;
    size_t start = out->len;
    int was_bad = out->bad;
    int rc = unpacked(buf, len, OL_EVENT_MAX, (ol_origin){0, 0}, &u, NULL, &err);
    if (!rc)
        rc = text_of(&u.data, drop, &ns, out);
    for (size_t i = 0; i < n_picks; i++) {
        picks[i].present = 0, picks[i].s = NULL, picks[i].n = 0;
        for (uint32_t k = 0; !rc && u.data.type == MSGPACK_OBJECT_MAP && k < u.data.via.map.size; k++) {
            const msgpack_object_kv *kv = &u.data.via.map.ptr[k];
            if (!str_is(&kv->key.via.str, picks[i].key))
                continue;
            picks[i].present = 1;
            /* msgpack-c leaves a string in the bytes it unpacked: the
             * pick lives as long as buf (the range is checked all the same) */
            const msgpack_object_str *v = &kv->val.via.str;
            uintptr_t at = (uintptr_t)v->ptr, from = (uintptr_t)buf;
            if (kv->val.type == MSGPACK_OBJECT_STR && (!v->size || (v->size <= len && at >= from && at - from <= len - v->size)))
                picks[i].s = v->size ? v->ptr : "", picks[i].n = v->size;
        }
    }
    msgpack_unpacked_destroy(&u);
    if (rc) {
        /* nothing of a text that could not be finished */
        out->len = start;
        if (out->buf)
            out->buf[start] = 0;
        out->bad = was_bad;
    }
    return rc;
}

int olcodec_msgpack_to_json(const uint8_t *buf, size_t len, ol_origin origin,
                            json_t **out, olerror *err)
{
    return msgpack_tree(buf, len, OL_EVENT_MAX, origin, out, NULL, err);
}

int olcodec_msgpack_to_json_max(const uint8_t *buf, size_t len, size_t max, ol_origin origin,
                                json_t **out, olerror *err)
{
    return msgpack_tree(buf, len, max, origin, out, NULL, err);
}

/* ------------------------------------------------------------------ */
/* json_t -> MessagePack                                               */

static int pack(msgpack_packer *pk, const json_t *j)
{
    int rc = 0;
    switch (json_typeof(j)) {
    case JSON_OBJECT: {
        const char *k;
        json_t *v;
        rc = msgpack_pack_map(pk, json_object_size(j));
        json_object_foreach((json_t *)j, k, v) {
            size_t n = strlen(k);
            if (rc || (rc = msgpack_pack_str(pk, n)) || (rc = msgpack_pack_str_body(pk, k, n)) ||
                (rc = pack(pk, v)))
                break;
        }
        return rc;
    }
    case JSON_ARRAY: {
        size_t i;
        json_t *v;
        rc = msgpack_pack_array(pk, json_array_size(j));
        json_array_foreach(j, i, v)
            if (rc || (rc = pack(pk, v)))
                break;
        return rc;
    }
    case JSON_STRING: {
        size_t n = json_string_length(j);
        return msgpack_pack_str(pk, n) || msgpack_pack_str_body(pk, json_string_value(j), n);
    }
    case JSON_INTEGER: return msgpack_pack_int64(pk, json_integer_value(j));
    case JSON_REAL: return msgpack_pack_double(pk, json_real_value(j));
    case JSON_TRUE: return msgpack_pack_true(pk);
    case JSON_FALSE: return msgpack_pack_false(pk);
    case JSON_NULL: return msgpack_pack_nil(pk);
    }
    return -1;
}

int olcodec_json_to_msgpack(const json_t *j, char **out, size_t *len)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    if (pack(&pk, j)) {
        msgpack_sbuffer_destroy(&sb);
        return OL_ENOMEM;
    }
    *out = sb.data;    /* sbuffer memory is malloc'd: the caller frees it */
    *len = sb.size;
    return OL_OK;
}

/* ------------------------------------------------------------------ */
/* JSON text -> json_t, with value offsets                             */

static size_t skip_ws(const char *t, size_t i, size_t n)
{
    while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        i++;
    return i;
}

static size_t skip_string(const char *t, size_t i, size_t n)
{
    for (i++; i < n && t[i] != '"'; i++)
        if (t[i] == '\\')
            i++;
    return i + 1;
}

/* Where a scalar (number, true, false, null) ends.  Not strchr(): it
 * finds the terminating NUL, and jansson lets a NUL byte through after a
 * number, so a scan that stopped there would never move again. */
static int scalar_end(char c)
{
    return c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Record the offset of every value of a text jansson has already parsed.
 * Every step moves *i forward, whatever the bytes: the offsets only place
 * error messages, and a scan that stands still would loop for ever on one
 * message (a fuzzer found `{"a":[4\0]}` doing that). */
static int json_offsets(const char *t, size_t n, size_t *i, olpos *pos, int depth)
{
    int rc;
    *i = skip_ws(t, *i, n);
    if ((rc = push_off(pos, *i)))
        return rc;
    if (*i >= n)
        return OL_OK;
    char open = t[*i];
    if (open == '"') {
        *i = skip_string(t, *i, n);
        return OL_OK;
    }
    if ((open != '{' && open != '[') || depth > OL_DEPTH_MAX) {
        do
            (*i)++;
        while (*i < n && !scalar_end(t[*i]));
        return OL_OK;
    }
    char close = open == '{' ? '}' : ']';
    (*i)++;
    for (;;) {
        *i = skip_ws(t, *i, n);
        if (*i >= n || t[*i] == close) {
            (*i)++;
            return OL_OK;
        }
        if (open == '{') {
            *i = skip_string(t, *i, n);
            *i = skip_ws(t, *i, n) + 1;  /* the ':' */
        }
        if ((rc = json_offsets(t, n, i, pos, depth + 1)))
            return rc;
        *i = skip_ws(t, *i, n);
        if (*i < n && t[*i] == ',')
            (*i)++;
    }
}

/* Levels of maps and lists, the top map at level 1, as the MessagePack
 * scanner counts them (scan_container): a scalar inside the deepest
 * allowed list is no level of its own. */
static int json_depth_ok(const json_t *j, int depth)
{
    if (!json_is_object(j) && !json_is_array(j))
        return 1;
    if (depth > OL_DEPTH_MAX)
        return 0;
    const char *k;
    json_t *v;
    size_t i;
    if (json_is_object(j)) {
        json_object_foreach((json_t *)j, k, v)
            if (!json_depth_ok(v, depth + 1))
                return 0;
    } else if (json_is_array(j)) {
        json_array_foreach(j, i, v)
            if (!json_depth_ok(v, depth + 1))
                return 0;
    }
    return 1;
}

/* Limits the JSON parser does not know: string and key sizes, lower-case
 * keys, integer range, the event size once encoded as MessagePack. */
static int json_limits(const json_t *j, const json_t *parent, const char *key,
                       size_t idx, olpos *pos, olerror *err)
{
    size_t off = 0;
    const char *k;
    json_t *v;
    size_t i;
    pos_find(pos, parent, key, idx, &off);
    if (json_is_string(j) && json_string_length(j) > OL_STRING_MAX)
        return errf_at(err, pos->origin, pos->text, off,
                       "a string of %zu bytes; strings are at most %d bytes",
                       json_string_length(j), OL_STRING_MAX);
    if (json_is_object(j)) {
        json_object_foreach((json_t *)j, k, v) {
            size_t n = strlen(k);
            /* the size first: a sentence quotes only keys of a fair size */
            if (n > OL_STRING_MAX)
                return errf_at(err, pos->origin, pos->text, off,
                               "a key of %zu bytes; strings are at most %d bytes", n, OL_STRING_MAX);
            for (size_t c = 0; c < n; c++)
                if (k[c] >= 'A' && k[c] <= 'Z')
                    return errf_at(err, pos->origin, pos->text, off,
                                   "the key \"%s\" is not lower-case", k);
            int rc = json_limits(v, j, k, 0, pos, err);
            if (rc)
                return rc;
        }
    } else if (json_is_array(j)) {
        json_array_foreach(j, i, v) {
            int rc = json_limits(v, j, NULL, i, pos, err);
            if (rc)
                return rc;
        }
    }
    return OL_OK;
}

static int json_tree(const char *text, size_t len, ol_origin origin, json_t **out,
                     olpos *pos, olerror *err)
{
    json_error_t je;
    /* RFC 8259 has no raw NUL byte anywhere in a text (in a string it is
     * \u0000, which the string checks refuse); jansson lets one through
     * after a number, so it is refused here, before jansson sees it. */
    const char *nul = memchr(text, 0, len);
    if (nul)
        return errf_at(err, origin, text, (size_t)(nul - text), "a NUL byte; a JSON text has none");
    json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!j) {
        /* jansson counts columns in characters from 1, like we do. */
        snprintf(err->msg, sizeof err->msg, "line %u, column %d: invalid JSON: %s.",
                 origin.line ? origin.line : (unsigned)je.line, je.column > 0 ? je.column : 1,
                 je.text);
        ol_utf8_clean(err->msg);
        err->key[0] = '\0';
        return OL_EMALFORMED;
    }
    int rc = OL_OK;
    size_t i = 0;
    if (!json_depth_ok(j, 1)) {
        rc = errf_at(err, origin, text, 0, "nesting deeper than %d levels", OL_DEPTH_MAX);
    } else if (!(rc = json_offsets(text, len, &i, pos, 0)) &&
               !(rc = pos_walk(pos, j, NULL, NULL, 0))) {
        rc = json_limits(j, NULL, NULL, 0, pos, err);
    }
    if (!rc) {
        char *mp = NULL;
        size_t mplen = 0;
        if (!(rc = olcodec_json_to_msgpack(j, &mp, &mplen)) && mplen > OL_EVENT_MAX)
            rc = errf_at(err, origin, text, 0,
                         "the event is %zu bytes as MessagePack; an event is at most %d bytes",
                         mplen, OL_EVENT_MAX);
        free(mp);
    }
    if (rc) {
        json_decref(j);
        return rc;
    }
    *out = j;
    return OL_OK;
}

/* ------------------------------------------------------------------ */
/* Typed decoding                                                      */

/* Where a value sits: the location it hangs from and its key (or index),
 * and the value itself (NULL when absent).  Its path for people
 * ("players.p1.deck.monsters[2]") is only spelled out for a message. */
typedef struct vloc vloc;
struct vloc {
    const vloc *up;        /* NULL: the root, whose path is `key` */
    const char *key;       /* member name, or NULL for an array element */
    size_t idx;
    const olval *node;
};

typedef struct {
    olerror *err;
    olarena *arena;
    ol_origin origin;
    const char *text;      /* JSON text, for line/column; NULL for msgpack */
} dctx;

/* Paths are for people; a path too long for its buffer is cut short. */
static size_t path_put(char *dst, size_t n, size_t cap, const char *s)
{
    for (; *s && n + 1 < cap; s++)
        dst[n++] = *s;
    dst[n] = '\0';
    return n;
}

static size_t path_build(const vloc *l, char *dst, size_t cap)
{
    if (!l->up)
        return path_put(dst, 0, cap, l->key ? l->key : "");
    size_t n = path_build(l->up, dst, cap);
    if (l->key) {
        if (n)
            n = path_put(dst, n, cap, ".");
        return path_put(dst, n, cap, l->key);
    }
    char idx[24];
    snprintf(idx, sizeof idx, "[%zu]", l->idx);
    return path_put(dst, n, cap, idx);
}

static const char *vpath(const vloc *l, char *buf)
{
    path_build(l, buf, PATH_MAX_LEN);
    return buf;
}
#define VPATH(l) vpath((l), (char[PATH_MAX_LEN]){0})

static int dfail(dctx *d, const vloc *l, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int dfail(dctx *d, const vloc *l, const char *fmt, ...)
{
    char loc[64] = "";
    va_list ap;
    if (l->node && l->node->off != OV_NOPOS)
        where(loc, sizeof loc, d->origin, d->text, l->node->off);
    va_start(ap, fmt);
    set_err(d->err, VPATH(l), loc, fmt, ap);
    va_end(ap);
    return OL_EMALFORMED;
}

static vloc child(const vloc *l, const olval *obj, const char *key)
{
    vloc c = {l, key, 0, ov_get(obj, key)};
    return c;
}

/* The member `key` of obj known to be `node` (looked up already). */
static vloc child_at(const vloc *l, const char *key, const olval *node)
{
    vloc c = {l, key, 0, node};
    return c;
}

static vloc elem(const vloc *l, const olval *arr, size_t i)
{
    vloc c = {l, NULL, i, &arr->u.items[i]};
    return c;
}

static const char *json_kind(const olval *v)
{
    switch (v->kind) {
    case OV_MAP: return "a map";
    case OV_ARR: return "a list";
    case OV_STR: return "a string";
    case OV_INT: return v->u.i < 0 ? "a negative integer" : "an integer";
    case OV_REAL: return "a fractional number";
    case OV_TRUE: case OV_FALSE: return "a boolean";
    case OV_NULL: return "null";
    }
    return "an unknown value";
}

static int wrong(dctx *d, const vloc *l, const olval *v, const char *want)
{
    return dfail(d, l, "\"%s\" must be %s, not %s", VPATH(l), want, json_kind(v));
}

static int missing(dctx *d, const vloc *l, const char *key)
{
    const char *p = VPATH(l);
    return dfail(d, l, "\"%s%s%s\" is required", p, p[0] ? "." : "", key);
}

static int get_uint(dctx *d, const olval *v, const vloc *l, uint64_t *out)
{
    if (v->kind != OV_INT || v->u.i < 0)
        return wrong(d, l, v, "an unsigned integer");
    *out = (uint64_t)v->u.i;
    return OL_OK;
}

static int get_u32(dctx *d, const olval *v, const vloc *l, uint32_t *out)
{
    uint64_t u = 0;
    int rc = get_uint(d, v, l, &u);
    if (rc)
        return rc;
    if (u > UINT32_MAX)
        return dfail(d, l, "\"%s\" is %llu, larger than %u", VPATH(l), (unsigned long long)u,
                     (unsigned)UINT32_MAX);
    *out = (uint32_t)u;
    return OL_OK;
}

static int get_str(dctx *d, const olval *v, const vloc *l, size_t maxlen, const char **out)
{
    if (v->kind != OV_STR)
        return wrong(d, l, v, "a string");
    size_t n = v->n;
    if (n == 0 || n > maxlen)
        return dfail(d, l, "\"%s\" must be 1 to %zu bytes long", VPATH(l), maxlen);
    if (!(*out = olarena_strndup(d->arena, v->u.s, n)))
        return OL_ENOMEM;
    return OL_OK;
}

/* The names of an enumeration (olevent.h): its length-aware parser. */
typedef int (*ov_names)(const char *s, size_t n);
#define TYPE_NAMES ol_type_parsen
#define BY_NAMES ol_by_parsen
#define PLAYER_NAMES ol_player_parsen
#define FORMAT_NAMES ol_format_parsen
#define HIDDEN_NAMES ol_hidden_parsen
#define RULING_NAMES ol_ruling_parsen
#define REMEDY_NAMES ol_remedy_parsen
#define POSITION_NAMES ol_position_parsen
#define SUMMON_KIND_NAMES ol_summon_kind_parsen
#define CLASS_NAMES ol_class_parsen

/* The value whose name the string value is, or -1 (as ol_*_parse()). */
static int ov_enum(const olval *v, ov_names parse)
{
    return v->kind == OV_STR ? parse(v->u.s, v->n) : -1;
}

/* A name from a fixed list (enum). */
static int get_enum(dctx *d, const olval *v, const vloc *l, ov_names names,
                    const char *choices, int *out)
{
    if (v->kind != OV_STR || (*out = ov_enum(v, names)) < 0)
        return dfail(d, l, "\"%s\" must be one of %s", VPATH(l), choices);
    return OL_OK;
}

/* Characters of ids: 1 letters, digits, '.', '_', '-' (card and match
 * ids); 2 ':' (match ids only). */
static const unsigned char id_chars[256] = {
    ['.'] = 1, ['_'] = 1, ['-'] = 1, [':'] = 2,
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1,
    ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1,
    ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
    ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1,
    ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1,
    ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
};

static int card_id_ok(const char *s, size_t n)
{
    if (n == 0 || n > 64)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (id_chars[(unsigned char)s[i]] != 1)
            return 0;
    return 1;
}

static int get_card_id(dctx *d, const olval *v, const vloc *l, const char **out)
{
    if (v->kind != OV_STR)
        return wrong(d, l, v, "a card id");
    if (!card_id_ok(v->u.s, v->n))
        return dfail(d, l, "\"%s\" must be a card id of 1 to 64 letters, digits, '.', '_' or '-'",
                     VPATH(l));
    return get_str(d, v, l, 64, out);
}

static int hex_decode(const char *s, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        for (int k = 0; k < 2; k++) {
            char c = s[2 * i + k];
            v <<= 4;
            if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
            else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
            else return -1;
        }
        out[i] = (uint8_t)v;
    }
    return 0;
}

static int get_href(dctx *d, const olval *v, const vloc *l, ol_href *h)
{
    if (v->kind == OV_NULL) {
        h->kind = OL_HREF_NULL;
        return OL_OK;
    }
    if (v->kind == OV_STR) {
        h->kind = OL_HREF_CARD;
        return get_card_id(d, v, l, &h->card);
    }
    const olval *c = v->kind == OV_MAP ? ov_get(v, "c") : NULL;
    vloc cl = child_at(l, "c", c);
    if (!c)
        return dfail(d, l, "\"%s\" must be a card id, null or {\"c\": hex}", VPATH(l));
    if (c->kind != OV_STR || c->n != 2 * OL_COMMIT_BYTES ||
        hex_decode(c->u.s, h->commit, OL_COMMIT_BYTES))
        return dfail(d, &cl, "\"%s\" must be %d lower-case hex digits (BLAKE2b-256)", VPATH(&cl),
                     2 * OL_COMMIT_BYTES);
    h->kind = OL_HREF_COMMIT;
    return OL_OK;
}

static int get_slot(dctx *d, const olval *v, const vloc *l, int *slot)
{
    if (v->kind == OV_STR && v->n == 1 && v->u.s[0] == 'a') {
        *slot = OL_SLOT_ACTIVE;
        return OL_OK;
    }
    if (v->kind == OV_INT && v->u.i >= 0 && v->u.i <= OL_SLOT_MAX) {
        *slot = (int)v->u.i;
        return OL_OK;
    }
    return dfail(d, l, "\"%s\" must be \"a\" (Snap's active slot) or a slot number 0 to %d", VPATH(l),
                 OL_SLOT_MAX);
}

static int get_player(dctx *d, const olval *v, const vloc *l, ol_player *p)
{
    int x = 0;
    int rc = get_enum(d, v, l, PLAYER_NAMES, "the seats \"p1\" to \"p8\"", &x);
    *p = (ol_player)x;
    return rc;
}

/* A target reference: {"p","s"} monster, {"seq"} chain link or trigger,
 * {"p"} player, {"p","lock"} locked support (openlog.md 7). */
static int get_ref(dctx *d, const olval *v, const vloc *l, ol_ref *r)
{
    if (v->kind != OV_MAP)
        return wrong(d, l, v, "a reference map");
    const olval *p = NULL, *s = NULL, *seq = NULL, *lock = NULL;
    for (uint32_t e = 0; e < v->n; e++) {   /* one pass for the four keys */
        const olval *k = &v->u.items[2 * e];
        if (k->n == 1 && k->u.s[0] == 'p')
            p = k + 1;
        else if (k->n == 1 && k->u.s[0] == 's')
            s = k + 1;
        else if (k->n == 3 && !memcmp(k->u.s, "seq", 3))
            seq = k + 1;
        else if (k->n == 4 && !memcmp(k->u.s, "lock", 4))
            lock = k + 1;
    }
    vloc pl = child_at(l, "p", p), sl = child_at(l, "s", s), ql = child_at(l, "seq", seq),
         ll = child_at(l, "lock", lock);
    int rc;
    if (seq) {
        if (p || s || lock)
            return dfail(d, l, "\"%s\" mixes \"seq\" with \"p\", \"s\" or \"lock\"", VPATH(l));
        r->kind = OL_REF_SEQ;
        return get_uint(d, seq, &ql, &r->seq);
    }
    if (!p)
        return dfail(d, l, "\"%s\" must name a monster {p,s}, a chain link {seq}, a player {p} "
                     "or a locked support {p,lock}", VPATH(l));
    if ((rc = get_player(d, p, &pl, &r->p)))
        return rc;
    if (s && lock)
        return dfail(d, l, "\"%s\" has both \"s\" and \"lock\"", VPATH(l));
    if (s) {
        r->kind = OL_REF_MONSTER;
        return get_slot(d, s, &sl, &r->slot);
    }
    if (lock) {
        r->kind = OL_REF_LOCKED;
        return get_u32(d, lock, &ll, &r->lock);
    }
    r->kind = OL_REF_PLAYER;
    return OL_OK;
}

static int get_monster_ref(dctx *d, const olval *v, const vloc *l, ol_ref *r)
{
    int rc = get_ref(d, v, l, r);
    if (!rc && r->kind != OL_REF_MONSTER)
        return dfail(d, l, "\"%s\" must be a monster reference {\"p\", \"s\"}", VPATH(l));
    return rc;
}

/* An attack's target: a monster, or a player (a direct attack, SPEC.md 7.2). */
static int get_attack_target(dctx *d, const olval *v, const vloc *l, ol_ref *r)
{
    int rc = get_ref(d, v, l, r);
    if (!rc && r->kind != OL_REF_MONSTER && r->kind != OL_REF_PLAYER)
        return dfail(d, l, "\"%s\" must be a monster {\"p\", \"s\"} or a player {\"p\"}", VPATH(l));
    return rc;
}

/* A claim's Life Points: {"p1": uint, "p2": uint}. */
static int get_lp(dctx *d, const olval *v, const vloc *l, uint64_t lp[2])
{
    static const char *const names[2] = {"p1", "p2"};
    if (v->kind != OV_MAP)
        return wrong(d, l, v, "a map {\"p1\": LP, \"p2\": LP}");
    for (int p = 0; p < 2; p++) {
        const olval *x = ov_get(v, names[p]);
        vloc xl = child_at(l, names[p], x);
        int rc;
        if (!x)
            return missing(d, l, names[p]);
        if ((rc = get_uint(d, x, &xl, &lp[p])))
            return rc;
    }
    return OL_OK;
}

/* A Master payment: {"<class>": uint, ...}, each class at most once (the
 * scan refused repeated keys), 0 to OL_PAY_MAX mana of it. */
static int get_pay(dctx *d, const olval *v, const vloc *l, uint8_t pay[OL_CLASS_COUNT])
{
    if (v->kind != OV_MAP)
        return wrong(d, l, v, "a map {\"<class>\": mana, ...}");
    for (uint32_t e = 0; e < v->n; e++) {
        const olval *k = &v->u.items[2 * e], *x = k + 1;
        int c = ov_enum(k, CLASS_NAMES);
        uint64_t n = 0;
        int rc;
        if (c < 0)
            return dfail(d, l, "\"%s\" names classes only (coreon, fluxion, synaphera, obscura, aetherion)", VPATH(l));
        vloc xl = child_at(l, ol_class_name((ol_class)c), x);
        if ((rc = get_uint(d, x, &xl, &n)))
            return rc;
        if (n > OL_PAY_MAX)
            return dfail(d, &xl, "\"%s\" is %llu; a payment holds at most %d mana of a class", VPATH(&xl),
                         (unsigned long long)n, OL_PAY_MAX);
        pay[c] = (uint8_t)n;
    }
    return OL_OK;
}

/* A list decoded element by element into arena memory. */
typedef int (*elem_fn)(dctx *d, const olval *v, const vloc *l, void *out);

static int get_list(dctx *d, const olval *v, const vloc *l, size_t size, elem_fn fn,
                    void **out, size_t *n)
{
    if (v->kind != OV_ARR)
        return wrong(d, l, v, "a list");
    size_t len = v->n;
    if (len > LIST_MAX)
        return dfail(d, l, "\"%s\" has %zu entries; a list has at most %d", VPATH(l), len, LIST_MAX);
    char *a = olarena_alloc(d->arena, size * (len ? len : 1));
    if (!a)
        return OL_ENOMEM;
    for (size_t i = 0; i < len; i++) {
        vloc el = elem(l, v, i);
        int rc = fn(d, el.node, &el, a + i * size);
        if (rc)
            return rc;
    }
    *out = a;
    *n = len;
    return OL_OK;
}

static int elem_href(dctx *d, const olval *v, const vloc *l, void *out)
{
    return get_href(d, v, l, out);
}
static int elem_ref(dctx *d, const olval *v, const vloc *l, void *out)
{
    return get_ref(d, v, l, out);
}
static int elem_monster_ref(dctx *d, const olval *v, const vloc *l, void *out)
{
    return get_monster_ref(d, v, l, out);
}
static int elem_card_id(dctx *d, const olval *v, const vloc *l, void *out)
{
    return get_card_id(d, v, l, out);
}
static int elem_player(dctx *d, const olval *v, const vloc *l, void *out)
{
    return get_player(d, v, l, out);
}

static int get_bool(dctx *d, const olval *v, const vloc *l, int *out)
{
    if (v->kind != OV_TRUE && v->kind != OV_FALSE)
        return wrong(d, l, v, "true or false");
    *out = v->kind == OV_TRUE;
    return OL_OK;
}

static int get_idlist(dctx *d, const olval *obj, const vloc *l, const char *key,
                      int required, ol_idlist *out)
{
    vloc cl = child(l, obj, key);
    if (!cl.node)
        return required ? missing(d, l, key) : OL_OK;
    return get_list(d, cl.node, &cl, sizeof(char *), elem_card_id, (void **)&out->ids, &out->n);
}

static int get_deck(dctx *d, const olval *v, const vloc *l, ol_format f, ol_deck *deck)
{
    int rc;
    if (v->kind != OV_MAP)
        return wrong(d, l, v, "a decklist map");
    memset(deck, 0, sizeof *deck);
    if (f == OL_FORMAT_SNAP) {
        if ((rc = get_idlist(d, v, l, "monsters", 1, &deck->monsters)) ||
            (rc = get_idlist(d, v, l, "supports", 1, &deck->supports)) ||
            (rc = get_idlist(d, v, l, "reserve", 0, &deck->reserve)))
            return rc;
        return OL_OK;
    }
    return get_idlist(d, v, l, "main", 1, &deck->main);
}

/* json_t -> olval, in the arena.  Strings point into the tree, which must
 * outlive the values (dctx.copy makes the decoder copy what it keeps).
 * With `pos`, values take the offsets of the text in pre-order, exactly as
 * pos_walk pairs them; without, they have none. */
static int ov_from_json(olarena *a, const json_t *j, olval *out, olpos *pos)
{
    out->off = pos && pos->next_off < pos->n_offs ? pos->offs[pos->next_off++] : OV_NOPOS;
    switch (json_typeof(j)) {
    case JSON_NULL: out->kind = OV_NULL; return OL_OK;
    case JSON_TRUE: out->kind = OV_TRUE; return OL_OK;
    case JSON_FALSE: out->kind = OV_FALSE; return OL_OK;
    case JSON_INTEGER: out->kind = OV_INT; out->u.i = json_integer_value(j); return OL_OK;
    case JSON_REAL: out->kind = OV_REAL; out->u.d = json_real_value(j); return OL_OK;
    case JSON_STRING:
        out->kind = OV_STR;
        out->n = (uint32_t)json_string_length(j);
        out->u.s = json_string_value(j);
        return OL_OK;
    case JSON_ARRAY: {
        size_t n = json_array_size(j), i;
        json_t *v;
        out->kind = OV_ARR;
        out->n = (uint32_t)n;
        if (n && !(out->u.items = olarena_alloc(a, n * sizeof(olval))))
            return OL_ENOMEM;
        json_array_foreach(j, i, v)
            if (ov_from_json(a, v, &out->u.items[i], pos))
                return OL_ENOMEM;
        return OL_OK;
    }
    case JSON_OBJECT: {
        size_t n = json_object_size(j), i = 0;
        const char *k;
        json_t *v;
        out->kind = OV_MAP;
        out->n = (uint32_t)n;
        if (n && !(out->u.items = olarena_alloc(a, 2 * n * sizeof(olval))))
            return OL_ENOMEM;
        json_object_foreach((json_t *)j, k, v) {
            olval *kv = &out->u.items[2 * i++];
            kv->kind = OV_STR;
            kv->n = (uint32_t)strlen(k);
            kv->u.s = k;
            kv->off = OV_NOPOS;
            if (ov_from_json(a, v, kv + 1, pos))
                return OL_ENOMEM;
        }
        return OL_OK;
    }
    }
    return OL_ENOMEM;
}

int olcodec_deck_from_json(const json_t *j, ol_format format, const char *path,
                           olarena *arena, ol_deck *deck, olerror *err)
{
    dctx d = {err, arena, {0, 0}, NULL};
    vloc l = {NULL, path ? path : "", 0, NULL};
    olval v;
    if (ov_from_json(arena, j, &v, NULL))
        return OL_ENOMEM;
    l.node = &v;
    return get_deck(&d, &v, &l, format, deck);
}

/* ---- header fields ---- */

/* The seats: keys "p1" to "pN", 2 <= N <= OL_PLAYERS_MAX, without a gap
 * (SPEC.md 5).  A key that is not "p" and digits is an unknown key,
 * ignored as anywhere else; a seat-like key beyond p8 ("p9", "p0", "p01")
 * is malformed.  Seats are read in order, so a missing one -- a gap, or
 * p2 of a header naming only p1 -- is reported as required, by name. */
static int get_players(dctx *d, const olval *v, const vloc *l, ol_header *h)
{
    if (v->kind != OV_MAP)
        return wrong(d, l, v, "a map of the seats \"p1\" to \"pN\"");
    unsigned n = 0;
    for (uint32_t e = 0; e < v->n; e++) {
        const olval *k = &v->u.items[2 * e];
        size_t digits = k->n > 1 && k->u.s[0] == 'p' ? strspn(k->u.s + 1, "0123456789") : 0;
        if (!digits || digits + 1 < k->n)
            continue;                          /* not a seat: an unknown key */
        vloc kl = child_at(l, olarena_strndup(d->arena, k->u.s, k->n), k + 1);
        if (!kl.key)
            return OL_ENOMEM;
        if (ol_player_parsen(k->u.s, k->n) < 0)
            return dfail(d, &kl, "\"%s\" is not a seat: a match has \"p1\" to \"p%d\" at most", kl.key,
                         OL_PLAYERS_MAX);
        n++;
    }
    if (n < 2)
        n = 2;                                 /* p1 and p2 are required */
    for (unsigned i = 0; i < n; i++) {
        const char *name = ol_player_name((ol_player)i);
        vloc sl = child(l, v, name);
        const olval *seat = sl.node;
        int rc;
        if (!seat)
            return missing(d, l, name);
        if (seat->kind != OV_MAP)
            return wrong(d, &sl, seat, "a map of \"id\" and \"deck\"");
        vloc il = child(&sl, seat, "id"), dl = child(&sl, seat, "deck");
        if (!il.node)
            return missing(d, &sl, "id");
        if ((rc = get_str(d, il.node, &il, OL_STRING_MAX, &h->players[i].id)))
            return rc;
        h->players[i].has_deck = dl.node != NULL;
        if (dl.node && (rc = get_deck(d, dl.node, &dl, h->format, &h->players[i].deck)))
            return rc;
    }
    h->n_players = n;
    return OL_OK;
}

static int get_rules(dctx *d, const olval *v, const vloc *l, ol_header *h)
{
    if (v->kind != OV_MAP)
        return wrong(d, l, v, "a map of variant levers");
    size_t n = v->n, i = 0;
    h->has_rules = 1;
    if (!(h->rules = olarena_alloc(d->arena, sizeof(ol_lever) * (n ? n : 1))))
        return OL_ENOMEM;
    for (size_t e = 0; e < n; e++) {
        const olval *kv = &v->u.items[2 * e], *x = kv + 1;
        const char *k = olarena_strndup(d->arena, kv->u.s, kv->n);
        if (!k)
            return OL_ENOMEM;
        vloc kl = child_at(l, k, x);
        const ol_lever_info *info = ol_lever_find(h->format, k);
        uint64_t val = 0;
        int rc;
        if (!info)
            return dfail(d, &kl, "\"%s\" is not a variant lever of the %s format", k,
                         ol_format_name(h->format));
        if (info->words) {
            /* a word lever: one of its words, kept as its index */
            char list[96] = "";
            size_t w = 0, at = 0;
            for (; info->words[w]; w++)
                if (x->kind == OV_STR && x->n == strlen(info->words[w]) && !memcmp(x->u.s, info->words[w], x->n))
                    break;
            if (!info->words[w]) {
                for (size_t q = 0; info->words[q] && at < sizeof list; q++)
                    at += (size_t)snprintf(list + at, sizeof list - at, "%s\"%s\"", q ? " or " : "", info->words[q]);
                return wrong(d, &kl, x, list);
            }
            val = w;
        } else if (info->is_bool) {
            if (x->kind != OV_TRUE && x->kind != OV_FALSE)
                return wrong(d, &kl, x, "true or false");
            val = x->kind == OV_TRUE;
        } else {
            if ((rc = get_uint(d, x, &kl, &val)))
                return rc;
            if (val < info->min || val > info->max)
                return dfail(d, &kl, "the lever \"%s\" must be between %llu and %llu", k,
                             (unsigned long long)info->min, (unsigned long long)info->max);
        }
        h->rules[i].name = k;
        h->rules[i++].value = val;
    }
    h->n_rules = i;
    return OL_OK;
}

static int get_event_info(dctx *d, const olval *v, const vloc *l, ol_header *h)
{
    int rc;
    if (v->kind != OV_MAP)
        return wrong(d, l, v, "a map of \"tournament\", \"round\" and \"table\"");
    h->has_event = 1;
    vloc tl = child(l, v, "tournament"), rl = child(l, v, "round"), bl = child(l, v, "table");
    const olval *t = tl.node, *r = rl.node, *tb = bl.node;
    if (t && (rc = get_str(d, t, &tl, OL_STRING_MAX, &h->tournament)))
        return rc;
    if (r && (rc = get_uint(d, r, &rl, &h->round)))
        return rc;
    h->has_round = r != NULL;
    if (tb && (rc = get_str(d, tb, &bl, OL_STRING_MAX, &h->table)))
        return rc;
    return OL_OK;
}

static int get_cardset(dctx *d, const olval *v, const vloc *l, const char **out)
{
    int rc = get_str(d, v, l, OL_STRING_MAX, out);
    if (rc)
        return rc;
    const char *at = strchr(*out, '@');
    if (!at || at == *out || !at[1] || strchr(at + 1, '@'))
        return dfail(d, l, "\"%s\" must be \"<set>@<version>\"", VPATH(l));
    return OL_OK;
}

/* The keys the decoder looks for at the top of an event: an event's map
 * is indexed once (top_index) instead of searched key by key. */
enum {
    K_MATCH, K_SEQ, K_TYPE, K_BY, K_T, K_FORMAT, K_CARDS, K_HIDDEN, K_PLAYERS, K_RULES,
    K_EVENT, K_SLOTS, K_SLOT, K_CARD, K_NONCE, K_LOCK, K_SOURCE, K_ABILITY, K_TARGETS,
    K_TARGET, K_DEFEATED, K_WINNER, K_RULING, K_PLAYER, K_TEXT, K_POSITION, K_KIND, K_LP,
    K_PAY, K_ATTACK, K_CLASS, K_AT, K_PILES, K_POT, K_DRAW, K_REMEDY, K_COUNT
};

static const char *const top_keys[K_COUNT] = {
    "match", "seq", "type", "by", "t", "format", "cards", "hidden", "players", "rules",
    "event", "slots", "slot", "card", "nonce", "lock", "source", "ability", "targets",
    "target", "defeated", "winner", "ruling", "player", "text", "position", "kind", "lp",
    "pay", "attack", "class", "at", "piles", "pot", "draw", "remedy",
};

static int top_key(const char *k, size_t n)
{
    int i;
    switch (n) {   /* candidates by length, then the bytes */
    case 1: i = K_T; break;
    case 2: i = k[0] == 'b' ? K_BY : k[0] == 'a' ? K_AT : K_LP; break;
    case 3: i = k[0] == 's' ? K_SEQ : k[1] == 'o' ? K_POT : K_PAY; break;
    case 4:
        i = k[0] == 't' ? (k[1] == 'y' ? K_TYPE : K_TEXT) : k[0] == 's' ? K_SLOT
          : k[0] == 'c' ? K_CARD : k[0] == 'k' ? K_KIND : k[0] == 'd' ? K_DRAW : K_LOCK;
        break;
    case 5:
        i = k[0] == 'm' ? K_MATCH : k[0] == 'c' ? (k[2] == 'r' ? K_CARDS : K_CLASS) : k[0] == 'r' ? K_RULES
          : k[0] == 'e' ? K_EVENT : k[0] == 's' ? K_SLOTS : k[0] == 'p' ? K_PILES : K_NONCE;
        break;
    case 6:
        i = k[0] == 'f' ? K_FORMAT : k[0] == 'h' ? K_HIDDEN : k[0] == 's' ? K_SOURCE
          : k[0] == 't' ? K_TARGET : k[0] == 'w' ? K_WINNER : k[0] == 'r' ? (k[1] == 'u' ? K_RULING : K_REMEDY)
          : k[0] == 'a' ? K_ATTACK : K_PLAYER;
        break;
    case 7:
        i = k[0] == 'p' ? K_PLAYERS : k[0] == 'a' ? K_ABILITY : K_TARGETS;
        break;
    case 8: i = k[0] == 'd' ? K_DEFEATED : K_POSITION; break;
    default: return -1;
    }
    const char *w = top_keys[i];   /* n <= 8: compare inline */
    for (size_t c = 0; c < n; c++)
        if (k[c] != w[c])
            return -1;
    return w[n] ? -1 : i;
}

/* idx[K_...]: the value of each known key of map j, NULL when absent
 * (keys are unique: the scan refused repeated ones). */
static void top_index(const olval *j, const olval *idx[K_COUNT])
{
    memset(idx, 0, K_COUNT * sizeof *idx);
    for (uint32_t e = 0; e < j->n; e++) {
        const olval *k = &j->u.items[2 * e];
        int i = top_key(k->u.s, k->n);
        if (i >= 0)
            idx[i] = k + 1;
    }
}

/* ---- the field table ----
 *
 * Each event type lists its keys (openlog.md 4 and 7) in canonical order;
 * each key has a kind, and each kind one decoder and one encoder below. */
typedef enum {
    FK_FORMAT, FK_CARDSET, FK_HIDDEN, FK_PLAYERS, FK_RULES, FK_EVENT,
    FK_SLOTS, FK_SLOT, FK_HREF, FK_CARD, FK_NONCE, FK_HREFS, FK_LOCK,
    FK_SOURCE, FK_ABILITY, FK_TARGETS, FK_TARGET, FK_DEFEATED, FK_WINNER,
    FK_RULING, FK_PLAYER, FK_TEXT, FK_ATTACK_TARGET, FK_POSITION, FK_KIND, FK_LP,
    FK_PAY, FK_INDEX, FK_CLASS, FK_AT, FK_PILES, FK_POT, FK_DRAW, FK_REMEDY
} field_kind;

typedef struct {
    const char *key;
    field_kind kind;
    int required;
    int kid;                   /* K_...: the key's index in top_index() */
} field_spec;

typedef struct {
    const char *rule;          /* rulebook section of the action */
    field_spec fields[6];
} type_spec;

static const type_spec types[OL_TYPE_COUNT] = {
    [OL_MATCH] = {"openlog:4", {{"format", FK_FORMAT, 1, K_FORMAT}, {"cards", FK_CARDSET, 1, K_CARDS},
                  {"hidden", FK_HIDDEN, 1, K_HIDDEN}, {"players", FK_PLAYERS, 1, K_PLAYERS},
                  {"rules", FK_RULES, 0, K_RULES}, {"event", FK_EVENT, 0, K_EVENT}}},
    [OL_BENCH] = {"snap:8.3", {{"slots", FK_SLOTS, 0, K_SLOTS}, {"slot", FK_SLOT, 0, K_SLOT}, {"card", FK_HREF, 0, K_CARD}}},
    [OL_SELECT] = {"snap:8.5", {{"cards", FK_HREFS, 1, K_CARDS}}},
    [OL_UNLOCK] = {"snap:9.6", {{"lock", FK_LOCK, 1, K_LOCK}, {"card", FK_CARD, 1, K_CARD}, {"nonce", FK_NONCE, 0, K_NONCE}}},
    /* a Snap flip has `slot`, a classic flip `at` instead (decode_shape) */
    [OL_FLIP] = {"snap:10.3", {{"slot", FK_SLOT, 0, K_SLOT}, {"card", FK_CARD, 1, K_CARD}, {"nonce", FK_NONCE, 0, K_NONCE},
                 {"at", FK_AT, 0, K_AT}}},
    [OL_PROMOTE] = {"snap:7.1", {{"slot", FK_SLOT, 1, K_SLOT}, {"card", FK_CARD, 0, K_CARD}, {"nonce", FK_NONCE, 0, K_NONCE}}},
    [OL_TRIGGER] = {"snap:10.4", {{"source", FK_SOURCE, 1, K_SOURCE}, {"ability", FK_ABILITY, 1, K_ABILITY},
                    {"targets", FK_TARGETS, 1, K_TARGETS}}},
    [OL_SPELL] = {"snap:10.5", {{"card", FK_CARD, 1, K_CARD}, {"nonce", FK_NONCE, 0, K_NONCE},
                  {"targets", FK_TARGETS, 1, K_TARGETS}, {"pay", FK_PAY, 0, K_PAY}}},
    [OL_COUNTER] = {"snap:15", {{"card", FK_CARD, 1, K_CARD}, {"nonce", FK_NONCE, 0, K_NONCE},
                    {"targets", FK_TARGETS, 1, K_TARGETS}, {"pay", FK_PAY, 0, K_PAY}}},
    [OL_PASS] = {"snap:15", {{0}}},
    [OL_EVOLVE] = {"snap:10.6", {{"slot", FK_SLOT, 1, K_SLOT}, {"card", FK_CARD, 1, K_CARD},
                   {"nonce", FK_NONCE, 0, K_NONCE}, {"targets", FK_TARGETS, 0, K_TARGETS}, {"pay", FK_PAY, 0, K_PAY}}},
    [OL_PRIME] = {"snap:10.7", {{"card", FK_CARD, 1, K_CARD}, {"nonce", FK_NONCE, 0, K_NONCE},
                  {"slot", FK_SLOT, 0, K_SLOT}, {"targets", FK_TARGETS, 0, K_TARGETS}, {"pay", FK_PAY, 0, K_PAY}}},
    [OL_ATTACK] = {"snap:10.8.1", {{"slot", FK_SLOT, 0, K_SLOT}, {"attack", FK_INDEX, 0, K_ATTACK},
                   {"target", FK_ATTACK_TARGET, 1, K_TARGET}, {"pay", FK_PAY, 0, K_PAY}}},
    [OL_BLOCK] = {"snap:10.8.2", {{"slot", FK_SLOT, 1, K_SLOT}}},
    [OL_SWAP] = {"snap:10.9", {{"slot", FK_SLOT, 1, K_SLOT}}},
    [OL_LOCK] = {"snap:9.3", {{"cards", FK_HREFS, 1, K_CARDS}}},
    [OL_END] = {"snap:10.11", {{0}}},
    [OL_CONCEDE] = {"openlog:7", {{0}}},
    [OL_CLAIM] = {"openlog:7", {{"defeated", FK_DEFEATED, 0, K_DEFEATED}, {"winner", FK_WINNER, 0, K_WINNER},
                  {"lp", FK_LP, 0, K_LP}, {"draw", FK_DRAW, 0, K_DRAW}}},
    [OL_JUDGE] = {"snap:16.4", {{"ruling", FK_RULING, 1, K_RULING}, {"player", FK_PLAYER, 0, K_PLAYER},
                  {"remedy", FK_REMEDY, 0, K_REMEDY}, {"text", FK_TEXT, 1, K_TEXT}}},
    [OL_SUMMON] = {"advanced:summon.normal", {{"slot", FK_SLOT, 1, K_SLOT}, {"card", FK_CARD, 1, K_CARD},
                   {"nonce", FK_NONCE, 0, K_NONCE}, {"position", FK_POSITION, 1, K_POSITION},
                   {"kind", FK_KIND, 1, K_KIND}, {"pay", FK_PAY, 0, K_PAY}}},
    [OL_POSITION] = {"advanced:position.step", {{"slot", FK_SLOT, 1, K_SLOT}}},
    [OL_DISCARD] = {"advanced:end.hand_limit", {{"card", FK_CARD, 1, K_CARD}, {"nonce", FK_NONCE, 0, K_NONCE}}},
    [OL_MANA] = {"master:mana.step", {{"card", FK_HREF, 1, K_CARD}, {"class", FK_CLASS, 1, K_CLASS}}},
    [OL_MANA_REMOVE] = {"master:mana.remove", {{"card", FK_CARD, 1, K_CARD}, {"nonce", FK_NONCE, 0, K_NONCE}}},
    [OL_DEAL] = {"classic:deal.one_at_a_time", {{"player", FK_PLAYER, 1, K_PLAYER}, {"cards", FK_HREFS, 1, K_CARDS}}},
    [OL_SNAP] = {"classic:match.value", {{"at", FK_AT, 1, K_AT}}},
    [OL_SNAP_POT] = {"classic:pot.snap_pot", {{"at", FK_AT, 1, K_AT}}},
    [OL_TAKE] = {"classic:snap.first_caller", {{"player", FK_PLAYER, 1, K_PLAYER}, {"piles", FK_PILES, 0, K_PILES},
                 {"pot", FK_POT, 0, K_POT}, {"cards", FK_HREFS, 1, K_CARDS}}},
    [OL_POT] = {"classic:pot.tie", {{"piles", FK_PILES, 0, K_PILES}}},
    [OL_PENALTY] = {"classic:penalty.pay", {{"player", FK_PLAYER, 1, K_PLAYER}}},
    [OL_TURN_OVER] = {"classic:piles.turn_over", {{"player", FK_PLAYER, 1, K_PLAYER}, {"cards", FK_HREFS, 1, K_CARDS}}},
    [OL_OUT] = {"classic:out.cards", {{"player", FK_PLAYER, 1, K_PLAYER}}},
};

static int decode_field(dctx *d, field_kind k, const olval *v, const vloc *l, olevent *ev)
{
    int x = 0, rc;
    ol_header *h = &ev->header;
    switch (k) {
    case FK_FORMAT:
        rc = get_enum(d, v, l, FORMAT_NAMES, "\"snap\", \"advanced\", \"master\" or \"classic\"", &x);
        h->format = (ol_format)x;
        return rc;
    case FK_CARDSET: return get_cardset(d, v, l, &h->cards);
    case FK_HIDDEN:
        rc = get_enum(d, v, l, HIDDEN_NAMES, "\"open\", \"commit\" or \"announced\"", &x);
        h->hidden = (ol_hidden)x;
        return rc;
    case FK_PLAYERS: return get_players(d, v, l, h);
    case FK_RULES: return get_rules(d, v, l, h);
    case FK_EVENT: return get_event_info(d, v, l, h);
    case FK_SLOTS:
        if (v->kind != OV_ARR || v->n != 4)
            return dfail(d, l, "\"slots\" must be a list of 4 hidden card references");
        for (size_t i = 0; i < 4; i++) {
            vloc el = elem(l, v, i);
            if ((rc = get_href(d, el.node, &el, &ev->slots[i])))
                return rc;
        }
        ev->has_slots = 1;
        return OL_OK;
    case FK_SLOT: ev->has_slot = 1; return get_slot(d, v, l, &ev->slot);
    case FK_HREF: return get_href(d, v, l, &ev->card);
    case FK_CARD: ev->card.kind = OL_HREF_CARD; return get_card_id(d, v, l, &ev->card.card);
    case FK_NONCE: {
        if ((rc = get_str(d, v, l, 2 * OL_NONCE_MAX_BYTES, &ev->nonce)))
            return rc;
        size_t n = strlen(ev->nonce);
        uint8_t tmp[OL_NONCE_MAX_BYTES];
        if (n % 2 || n < 2 * OL_NONCE_MIN_BYTES || hex_decode(ev->nonce, tmp, n / 2))
            return dfail(d, l, "\"nonce\" must be %d to %d lower-case hex digits",
                         2 * OL_NONCE_MIN_BYTES, 2 * OL_NONCE_MAX_BYTES);
        return OL_OK;
    }
    case FK_HREFS:
        return get_list(d, v, l, sizeof(ol_href), elem_href, (void **)&ev->cards, &ev->n_cards);
    case FK_LOCK: return get_u32(d, v, l, &ev->lock);
    case FK_SOURCE: return get_monster_ref(d, v, l, &ev->source);
    case FK_ABILITY: return get_u32(d, v, l, &ev->ability);
    case FK_TARGETS:
        ev->has_targets = 1;
        return get_list(d, v, l, sizeof(ol_ref), elem_ref, (void **)&ev->targets, &ev->n_targets);
    case FK_TARGET: return get_monster_ref(d, v, l, &ev->target);
    case FK_ATTACK_TARGET: return get_attack_target(d, v, l, &ev->target);
    case FK_POSITION:
        rc = get_enum(d, v, l, POSITION_NAMES, "\"ap\" or \"dp\"", &x);
        ev->position = (ol_position)x;
        return rc;
    case FK_KIND:
        rc = get_enum(d, v, l, SUMMON_KIND_NAMES, "\"normal\", \"special\" or \"mana\"", &x);
        ev->kind = (ol_summon_kind)x;
        return rc;
    case FK_PAY: ev->has_pay = 1; return get_pay(d, v, l, ev->pay);
    case FK_INDEX: ev->has_attack = 1; return get_u32(d, v, l, &ev->attack);
    case FK_CLASS:
        rc = get_enum(d, v, l, CLASS_NAMES, "\"coreon\", \"fluxion\", \"synaphera\", \"obscura\" or \"aetherion\"", &x);
        ev->cls = (ol_class)x;
        return rc;
    case FK_LP: ev->has_lp = 1; return get_lp(d, v, l, ev->lp);
    case FK_DEFEATED:
        ev->has_defeated = 1;
        return get_list(d, v, l, sizeof(ol_ref), elem_monster_ref, (void **)&ev->defeated,
                        &ev->n_defeated);
    case FK_WINNER: ev->has_winner = 1; return get_player(d, v, l, &ev->winner);
    case FK_RULING:
        rc = get_enum(d, v, l, RULING_NAMES, "\"note\", \"warning\" or \"game_loss\"", &x);
        ev->ruling = (ol_ruling)x;
        return rc;
    case FK_REMEDY:
        ev->has_remedy = 1;
        rc = get_enum(d, v, l, REMEDY_NAMES, "\"stands\" or \"backup\"", &x);
        ev->remedy = (ol_remedy)x;
        return rc;
    case FK_PLAYER: ev->has_player = 1; return get_player(d, v, l, &ev->player);
    case FK_TEXT: return get_str(d, v, l, OL_STRING_MAX, &ev->text);
    case FK_AT: ev->has_at = 1; return get_uint(d, v, l, &ev->at);
    case FK_PILES:
        ev->has_piles = 1;
        return get_list(d, v, l, sizeof(ol_player), elem_player, (void **)&ev->piles, &ev->n_piles);
    case FK_POT: return get_bool(d, v, l, &ev->pot);
    case FK_DRAW: ev->has_draw = 1; return get_bool(d, v, l, &ev->draw);
    }
    return OL_EMALFORMED;
}

static int match_id_okn(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!id_chars[(unsigned char)s[i]])
            return 0;
    return 1;
}

static int match_id_ok(const char *s)
{
    return match_id_okn(s, strlen(s));
}

static int decode_envelope(dctx *d, const olval *const idx[K_COUNT], const vloc *root, olevent *ev)
{
    vloc ml = child_at(root, "match", idx[K_MATCH]), sl = child_at(root, "seq", idx[K_SEQ]),
         tl = child_at(root, "type", idx[K_TYPE]), bl = child_at(root, "by", idx[K_BY]),
         xl = child_at(root, "t", idx[K_T]);
    const olval *m = ml.node, *seq = sl.node, *type = tl.node, *by = bl.node, *t = xl.node;
    int rc, x;
    if (!m)
        return missing(d, root, "match");
    if ((rc = get_str(d, m, &ml, OL_MATCH_MAX, &ev->match)))
        return rc;
    if (!match_id_ok(ev->match))
        return dfail(d, &ml, "\"match\" may hold only letters, digits and . _ : -");
    if (!seq)
        return missing(d, root, "seq");
    if ((rc = get_uint(d, seq, &sl, &ev->seq)))
        return rc;
    if (!type)
        return missing(d, root, "type");
    if (type->kind != OV_STR)
        return wrong(d, &tl, type, "a string");
    if ((x = ov_enum(type, TYPE_NAMES)) < 0)
        return dfail(d, &tl, "the event type \"%.*s\" is unknown", (int)type->n, type->u.s);
    ev->type = (ol_type)x;
    if (!by)
        return missing(d, root, "by");
    if ((rc = get_enum(d, by, &bl, BY_NAMES, "the seats \"p1\" to \"p8\", \"table\" or \"judge\"", &x)))
        return rc;
    ev->by = (ol_by)x;
    if (t) {
        ev->has_t = 1;
        if ((rc = get_uint(d, t, &xl, &ev->t)))
            return rc;
    }
    if (ev->type == OL_MATCH && (ev->seq != 0 || ev->by != OL_BY_TABLE))
        return dfail(d, root, "a \"match\" header must have seq 0 and be by \"table\"");
    if (ev->type != OL_MATCH && ev->seq == 0)
        return dfail(d, &sl, "seq 0 is the \"match\" header; a \"%s\" event comes after it",
                     ol_type_name(ev->type));
    return OL_OK;
}

/* Shapes the table cannot say: bench has either slots or slot+card; a claim
 * claims something; a flip names a slot or a time. */
static int decode_shape(dctx *d, const vloc *root, olevent *ev)
{
    if (ev->type == OL_BENCH && ev->has_slots == (ev->has_slot || ev->card.kind != OL_HREF_ABSENT))
        return dfail(d, root, "a \"bench\" event has either \"slots\" (setup) or \"slot\" and "
                     "\"card\" (the fifth monster)");
    if (ev->type == OL_BENCH && !ev->has_slots && !(ev->has_slot && ev->card.kind != OL_HREF_ABSENT))
        return dfail(d, root, "a \"bench\" event for the fifth monster needs both \"slot\" and \"card\"");
    if (ev->type == OL_CLAIM && !ev->has_defeated && !ev->has_winner && !ev->has_lp && !ev->has_draw)
        return dfail(d, root, "a \"claim\" needs \"defeated\", \"winner\", \"lp\" or \"draw\"");
    /* openlog 7 requires a Snap flip's slot; a classic flip names the
     * table's time instead (SPEC.md 7.6), and only that tells them apart */
    if (ev->type == OL_FLIP && !ev->has_slot && !ev->has_at)
        return dfail(d, root, "the \"flip\" event needs \"slot\" (Snap) or \"at\" (classic Snap)");
    return OL_OK;
}

static int decode_tree(dctx *d, const olval *j, olevent *ev)
{
    vloc root = {NULL, "", 0, j};
    int rc;
    if (j->kind != OV_MAP)
        return dfail(d, &root, "an event must be a map, not %s", json_kind(j));
    const olval *idx[K_COUNT];
    top_index(j, idx);
    if ((rc = decode_envelope(d, idx, &root, ev)))
        return rc;
    const type_spec *ts = &types[ev->type];
    for (size_t i = 0; i < COUNT(ts->fields) && ts->fields[i].key; i++) {
        const field_spec *f = &ts->fields[i];
        vloc fl = child_at(&root, f->key, idx[f->kid]);
        if (!fl.node) {
            if (f->required)
                return dfail(d, &root, "the \"%s\" event needs \"%s\"", ol_type_name(ev->type), f->key);
            continue;
        }
        if ((rc = decode_field(d, f->kind, fl.node, &fl, ev)))
            return rc;
    }
    return decode_shape(d, &root, ev);
}

/* Read what can be read of the envelope, so that even a malformed event's
 * verdict can name its match and seq. */
static void peek_envelope(const olval *j, olerror *err)
{
    const olval *m = ov_get(j, "match"), *s = ov_get(j, "seq");
    if (m && m->kind == OV_STR && m->n >= 1 && m->n <= OL_MATCH_MAX && match_id_okn(m->u.s, m->n)) {
        memcpy(err->match_buf, m->u.s, m->n);
        err->match_buf[m->n] = '\0';
        err->match = err->match_buf;
    }
    if (s && s->kind == OV_INT && s->u.i >= 0) {
        err->seq = (uint64_t)s->u.i;
        err->has_seq = 1;
    }
}

static void release_json(void *tree)
{
    json_decref(tree);
}

/* What a caller reads of an error (msg, key, match, seq) starts empty;
 * the rest is written before it is read. */
static void err_init(olerror *err)
{
    err->msg[0] = '\0';
    err->key[0] = '\0';
    err->match = NULL;
    err->seq = 0;
    err->has_seq = 0;
    err->match_buf[0] = '\0';
}

/* MessagePack: one pass over the bytes checks them and builds the values
 * in the event's arena; the bytes are kept (ev->wire) so that the json_t
 * tree of a lossless conversion can be made from them when asked for.
 * `stream`: buf holds this event and maybe more (a .mlog being read);
 * *used is its size.  A fault the scan finds leaves *used at 0: the
 * structure is broken and the next event cannot be found. */
static int decode_msgpack(const uint8_t *buf, size_t len, int stream, ol_origin origin,
                          olarena **reuse, size_t *used, olevent **out, olerror *err)
{
    err_init(err);
    *out = NULL;
    *used = 0;
    olevent *ev;
    if (reuse && *reuse) {
        ev = olevent_new_in(*reuse);
        *reuse = NULL;
    } else {
        ev = olevent_new();
    }
    if (!ev)
        return OL_ENOMEM;
    olval root;
    const char *why = NULL;
    size_t n = 0;
    int rc = OL_OK;
    if (!fast_build(buf, stream && len > OL_EVENT_MAX ? OL_EVENT_MAX : len, !stream, &n, ev->arena, &root))
        rc = scan_build(buf, len, !stream, &n, origin, err, NULL, ev->arena, &root, &why, OL_EVENT_MAX);
    if (rc) {
        olevent_destroy(&ev);
        return rc;
    }
    *used = n;
    if (why) {
        olevent_destroy(&ev);
        return errf_at(err, origin, NULL, 0, "%s", why);
    }
    uint8_t *wire = olarena_alloc_raw(ev->arena, n);
    if (!wire) {
        olevent_destroy(&ev);
        return OL_ENOMEM;
    }
    memcpy(wire, buf, n);
    ev->wire = wire;
    ev->wire_len = n;
    dctx d = {err, ev->arena, origin, NULL};
    if ((rc = decode_tree(&d, &root, ev))) {
        if (rc == OL_EMALFORMED)
            peek_envelope(&root, err);
        olevent_destroy(&ev);
        return rc;
    }
    *out = ev;
    return OL_OK;
}

int olcodec_decode_msgpack(const uint8_t *buf, size_t len, ol_origin origin,
                           olevent **out, olerror *err)
{
    size_t used;
    return decode_msgpack(buf, len, 0, origin, NULL, &used, out, err);
}

int olcodec_next_msgpack(const uint8_t *buf, size_t len, ol_origin origin, olarena **reuse,
                         size_t *used, olevent **out, olerror *err)
{
    return decode_msgpack(buf, len, 1, origin, reuse, used, out, err);
}

int olcodec_decode_message(const void *buf, size_t len, olevent **out, olerror *err)
{
    olerror ignored;
    if (!err)
        err = &ignored;
    memset(err, 0, sizeof *err);
    if (len && ((const char *)buf)[0] == '{')
        return olcodec_decode_json(buf, len, (ol_origin){0, 1}, out, err);
    return olcodec_decode_msgpack(buf, len, (ol_origin){0, 0}, out, err);
}

int olcodec_decode_json(const char *text, size_t len, ol_origin origin, olevent **out,
                        olerror *err)
{
    olpos pos = {.origin = origin, .text = text};
    json_t *j = NULL;
    err_init(err);
    *out = NULL;
    int rc = json_tree(text, len, origin, &j, &pos, err);
    if (rc) {
        pos_free(&pos);
        return rc;
    }
    olevent *ev = olevent_new();
    if (!ev) {
        json_decref(j);
        pos_free(&pos);
        return OL_ENOMEM;
    }
    ev->tree = j;                /* the event owns the tree from here on */
    ev->release_tree = release_json;
    olval root;
    pos.next_off = 0;
    if ((rc = ov_from_json(ev->arena, j, &root, &pos)) == OL_OK) {
        dctx d = {err, ev->arena, origin, text};
        if ((rc = decode_tree(&d, &root, ev)) == OL_EMALFORMED)
            peek_envelope(&root, err);
    }
    pos_free(&pos);
    if (rc) {
        olevent_destroy(&ev);
        return rc;
    }
    *out = ev;
    return OL_OK;
}

/* ------------------------------------------------------------------ */
/* Typed encoding (events built in memory, not decoded)                */

static json_t *href_json(const ol_href *h)
{
    static const char hexd[] = "0123456789abcdef";
    char hex[2 * OL_COMMIT_BYTES + 1];
    switch (h->kind) {
    case OL_HREF_CARD: return json_string(h->card);
    case OL_HREF_COMMIT:
        for (size_t i = 0; i < OL_COMMIT_BYTES; i++) {
            hex[2 * i] = hexd[h->commit[i] >> 4];
            hex[2 * i + 1] = hexd[h->commit[i] & 15];
        }
        hex[2 * OL_COMMIT_BYTES] = '\0';
        return json_pack("{ss}", "c", hex);
    default: return json_null();
    }
}

static json_t *slot_json(int slot)
{
    return slot == OL_SLOT_ACTIVE ? json_string("a") : json_integer(slot);
}

static json_t *ref_json(const ol_ref *r)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    int bad = 0;
    if (r->kind == OL_REF_SEQ) {
        bad |= json_object_set_new(o, "seq", json_integer((json_int_t)r->seq));
        return bad ? (json_decref(o), NULL) : o;
    }
    bad |= json_object_set_new(o, "p", json_string(ol_player_name(r->p)));
    if (r->kind == OL_REF_MONSTER)
        bad |= json_object_set_new(o, "s", slot_json(r->slot));
    if (r->kind == OL_REF_LOCKED)
        bad |= json_object_set_new(o, "lock", json_integer(r->lock));
    return bad ? (json_decref(o), NULL) : o;
}

static json_t *refs_json(const ol_ref *r, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        if (json_array_append_new(a, ref_json(&r[i]))) {
            json_decref(a);
            return NULL;
        }
    return a;
}

static json_t *ids_json(const ol_idlist *l)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < l->n; i++)
        if (json_array_append_new(a, json_string(l->ids[i]))) {
            json_decref(a);
            return NULL;
        }
    return a;
}

json_t *olcodec_deck_to_json(const ol_deck *dk, ol_format f)
{
    if (f == OL_FORMAT_SNAP)
        return json_pack("{s:o, s:o, s:o}", "monsters", ids_json(&dk->monsters),
                         "supports", ids_json(&dk->supports), "reserve", ids_json(&dk->reserve));
    return json_pack("{s:o}", "main", ids_json(&dk->main));
}

/* {"p1": {"id", "deck"?}, ...}: the seats in order, a deck when it was there. */
static json_t *players_json(const ol_header *h)
{
    json_t *o = json_object();
    for (unsigned i = 0; o && i < h->n_players && i < OL_PLAYERS_MAX; i++) {
        json_t *seat = json_pack("{s:s}", "id", h->players[i].id);
        int bad = !seat || (h->players[i].has_deck &&
                            json_object_set_new(seat, "deck",
                                                olcodec_deck_to_json(&h->players[i].deck, h->format)));
        if (!bad) {
            bad = json_object_set_new(o, ol_player_name((ol_player)i), seat);   /* takes seat */
            seat = NULL;
        }
        if (bad) {
            json_decref(seat);
            json_decref(o);
            return NULL;
        }
    }
    return o;
}

static json_t *header_field_json(const olevent *ev, field_kind k)
{
    const ol_header *h = &ev->header;
    switch (k) {
    case FK_FORMAT: return json_string(ol_format_name(h->format));
    case FK_CARDSET: return json_string(h->cards);
    case FK_HIDDEN: return json_string(ol_hidden_name(h->hidden));
    case FK_PLAYERS: return players_json(h);
    case FK_RULES: {
        if (!h->has_rules)
            return NULL;
        json_t *o = json_object();
        for (size_t i = 0; o && i < h->n_rules; i++) {
            const ol_lever_info *info = ol_lever_find(h->format, h->rules[i].name);
            json_t *v = info && info->words ? json_string(ol_lever_word(info, h->rules[i].value))
                      : info && info->is_bool ? json_boolean(h->rules[i].value)
                                              : json_integer((json_int_t)h->rules[i].value);
            if (json_object_set_new(o, h->rules[i].name, v)) {
                json_decref(o);
                return NULL;
            }
        }
        return o;
    }
    case FK_EVENT: {
        if (!h->has_event)
            return NULL;
        json_t *o = json_object();
        if (o && h->tournament)
            json_object_set_new(o, "tournament", json_string(h->tournament));
        if (o && h->has_round)
            json_object_set_new(o, "round", json_integer((json_int_t)h->round));
        if (o && h->table)
            json_object_set_new(o, "table", json_string(h->table));
        return o;
    }
    default: return NULL;
    }
}

/* The value of one field, or NULL when the event does not carry it. */
static json_t *field_json(const olevent *ev, field_kind k)
{
    switch (k) {
    case FK_SLOTS: {
        if (!ev->has_slots)
            return NULL;
        json_t *a = json_array();
        for (size_t i = 0; a && i < 4; i++)
            json_array_append_new(a, href_json(&ev->slots[i]));
        return a;
    }
    case FK_SLOT: return ev->has_slot ? slot_json(ev->slot) : NULL;
    case FK_HREF:
    case FK_CARD: return ev->card.kind != OL_HREF_ABSENT ? href_json(&ev->card) : NULL;
    case FK_NONCE: return ev->nonce ? json_string(ev->nonce) : NULL;
    case FK_HREFS: {
        json_t *a = json_array();
        for (size_t i = 0; a && i < ev->n_cards; i++)
            json_array_append_new(a, href_json(&ev->cards[i]));
        return a;
    }
    case FK_LOCK: return json_integer(ev->lock);
    case FK_SOURCE: return ref_json(&ev->source);
    case FK_ABILITY: return json_integer(ev->ability);
    case FK_TARGETS: return ev->has_targets ? refs_json(ev->targets, ev->n_targets) : NULL;
    case FK_TARGET:
    case FK_ATTACK_TARGET: return ref_json(&ev->target);
    case FK_POSITION: return json_string(ol_position_name(ev->position));
    case FK_KIND: return json_string(ol_summon_kind_name(ev->kind));
    case FK_PAY: {
        if (!ev->has_pay)
            return NULL;
        json_t *o = json_object();
        for (int c = 0; o && c < OL_CLASS_COUNT; c++)
            if (ev->pay[c] && json_object_set_new(o, ol_class_name((ol_class)c), json_integer(ev->pay[c]))) {
                json_decref(o);
                return NULL;
            }
        return o;
    }
    case FK_INDEX: return ev->has_attack ? json_integer(ev->attack) : NULL;
    case FK_CLASS: return json_string(ol_class_name(ev->cls));
    case FK_LP: return ev->has_lp ? json_pack("{s:I, s:I}", "p1", (json_int_t)ev->lp[0], "p2", (json_int_t)ev->lp[1]) : NULL;
    case FK_DEFEATED: return ev->has_defeated ? refs_json(ev->defeated, ev->n_defeated) : NULL;
    case FK_WINNER: return ev->has_winner ? json_string(ol_player_name(ev->winner)) : NULL;
    case FK_RULING: return json_string(ol_ruling_name(ev->ruling));
    case FK_REMEDY: return ev->has_remedy ? json_string(ol_remedy_name(ev->remedy)) : NULL;
    case FK_PLAYER: return ev->has_player ? json_string(ol_player_name(ev->player)) : NULL;
    case FK_TEXT: return ev->text ? json_string(ev->text) : NULL;
    case FK_AT: return ev->has_at ? json_integer((json_int_t)ev->at) : NULL;
    case FK_PILES: {
        if (!ev->has_piles)
            return NULL;
        json_t *a = json_array();
        for (size_t i = 0; a && i < ev->n_piles; i++)
            if (json_array_append_new(a, json_string(ol_player_name(ev->piles[i])))) {
                json_decref(a);
                return NULL;
            }
        return a;
    }
    case FK_POT: return ev->pot ? json_true() : NULL;
    case FK_DRAW: return ev->has_draw ? json_boolean(ev->draw) : NULL;
    default: return header_field_json(ev, k);
    }
}

static json_t *typed_json(const olevent *ev)
{
    if ((unsigned)ev->type >= OL_TYPE_COUNT)
        return NULL;
    json_t *o = json_pack("{s:s, s:I, s:s, s:s}", "match", ev->match ? ev->match : "",
                          "seq", (json_int_t)ev->seq, "type", ol_type_name(ev->type),
                          "by", ol_by_name(ev->by));
    if (o && ev->has_t && json_object_set_new(o, "t", json_integer((json_int_t)ev->t)))
        goto fail;
    const type_spec *ts = &types[ev->type];
    for (size_t i = 0; o && i < COUNT(ts->fields) && ts->fields[i].key; i++) {
        json_t *v = field_json(ev, ts->fields[i].kind);
        if (v && json_object_set_new(o, ts->fields[i].key, v))
            goto fail;
    }
    return o;
fail:
    json_decref(o);
    return NULL;
}

json_t *olcodec_to_json(const olevent *ev)
{
    if (ev->tree)
        return json_incref(ev->tree);
    if (ev->wire) {
        /* decoded from MessagePack: the tree of those bytes, made now */
        json_t *j = NULL;
        olerror err;
        return msgpack_tree(ev->wire, ev->wire_len, OL_EVENT_MAX, (ol_origin){0, 0}, &j, NULL, &err) ? NULL : j;
    }
    return typed_json(ev);
}

json_t *olcodec_typed_json(const olevent *ev)
{
    return typed_json(ev);
}

int olcodec_encode(const olevent *ev, ol_encoding enc, char **out, size_t *len)
{
    json_t *j = olcodec_to_json(ev);
    int rc = OL_OK;
    if (!j)
        return OL_ENOMEM;
    if (enc == OL_ENC_MSGPACK) {
        rc = olcodec_json_to_msgpack(j, out, len);
    } else if (!(*out = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER))) {
        rc = OL_ENOMEM;
    } else {
        *len = strlen(*out);
    }
    json_decref(j);
    return rc;
}

const char *olcodec_type_rule(ol_type t)
{
    return (unsigned)t < OL_TYPE_COUNT ? types[t].rule : NULL;
}

/* A verdict in its wire form (olcodec.h): the codec owns the JSON side of
 * every structure, so that olverdict.h stays free of any library. */
json_t *olverdict_to_json(const olverdict *v, const olverdict *stored)
{
    json_t *o = json_object();
    int bad = !o;
    if (!bad && v->match[0])
        bad |= json_object_set_new(o, "match", json_string(v->match));
    if (!bad && v->has_seq)
        bad |= json_object_set_new(o, "seq", json_integer((json_int_t)v->seq));
    if (!bad)
        bad |= json_object_set_new(o, "status", json_string(ol_status_name(v->status)));
    if (!bad && v->rule[0])
        bad |= json_object_set_new(o, "rule", json_string(v->rule));
    if (!bad && v->msg[0])
        bad |= json_object_set_new(o, "msg", json_string(v->msg));
    if (!bad && v->has_expect)
        bad |= json_object_set_new(o, "expect", json_integer((json_int_t)v->expect));
    if (!bad && stored)
        bad |= json_object_set_new(o, "stored", olverdict_to_json(stored, NULL));
    if (!bad && v->has_remedy)
        bad |= json_object_set_new(o, "remedy", json_integer((json_int_t)v->remedy));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}
