/* olcodec.c -- the open-log codec: bytes to typed events and back.
 *
 * What: decode one event from a MessagePack frame or a JSON object text into
 * an olevent, and encode events back (logformat/SPEC.md).
 *
 * Why this shape: the two encodings carry the same maps, so both are first
 * turned into one generic tree (jansson's json_t), and one typed decoder
 * reads that tree.  The tree is kept with the event and re-encoded as is,
 * which makes conversion lossless even for keys this version does not know.
 *
 * How, for MessagePack: input is hostile.  msgpack-c allocates for the
 * element count an array or map *declares* before reading the elements, so
 * five bytes (dd ff ff ff ff) would ask for ~96 GB.  olcodec_scan() therefore
 * walks the whole object first without allocating, with every limit of the
 * contract: counts no larger than the bytes left, depth, string sizes, UTF-8,
 * no binary or extension values, string keys only, event size.  Only then
 * does msgpack_unpack_next() build objects, which we copy into json_t.
 *
 * Errors say where: while scanning we note the offset of every value in
 * pre-order; the conversion pairs the n-th value with the n-th json_t it
 * creates, so a typed-decode error about a value can name its byte.  For
 * JSON, a small pass over the (already valid) text finds the same offsets,
 * reported as line and column.
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
    if (origin.line == 0 || !text) {
        snprintf(buf, n, "byte %zu", origin.base + off);
        return;
    }
    unsigned col = 1;
    for (size_t i = 0; i < off; i++)
        if (((unsigned char)text[i] & 0xC0) != 0x80)
            col++;
    snprintf(buf, n, "line %u, column %u", origin.line, col);
}

static int set_err(olerror *err, const char *path, const char *loc, const char *fmt, va_list ap)
{
    char what[320];
    vsnprintf(what, sizeof what, fmt, ap);
    if (err) {
        snprintf(err->msg, sizeof err->msg, "%s%s%s.", loc, loc[0] ? ": " : "", what);
        snprintf(err->key, sizeof err->key, "%s", path ? path : "");
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
/* UTF-8                                                               */

/* Offset of the first byte that is not well-formed UTF-8 (RFC 3629: no
 * overlongs, no surrogates, nothing above U+10FFFF) or a NUL, or len. */
static size_t utf8_bad(const uint8_t *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        uint8_t c = s[i];
        size_t n;
        uint32_t cp, min;
        if (c == 0)
            return i;
        if (c < 0x80) { i++; continue; }
        if ((c & 0xE0) == 0xC0) { n = 1; cp = c & 0x1F; min = 0x80; }
        else if ((c & 0xF0) == 0xE0) { n = 2; cp = c & 0x0F; min = 0x800; }
        else if ((c & 0xF8) == 0xF0) { n = 3; cp = c & 0x07; min = 0x10000; }
        else return i;
        if (len - i <= n)
            return i;
        for (size_t k = 1; k <= n; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return i;
        i += n + 1;
    }
    return len;
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
        return scan_fail(s, at, "the event is larger than %d bytes", OL_EVENT_MAX);
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

static int scan_value(scanner *s, int depth, int is_key);

static int scan_str(scanner *s, size_t start, size_t hdr, uint64_t n, int is_key)
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
    size_t bad = utf8_bad(p, (size_t)n);
    if (bad < n)
        return scan_fail(s, start + hdr + bad, p[bad] ? "invalid UTF-8 in a string"
                                                       : "a NUL character in a string");
    for (size_t i = 0; is_key && i < n; i++)
        if (p[i] >= 'A' && p[i] <= 'Z')
            return scan_fail(s, start, "the key \"%.*s\" is not lower-case", (int)n, (const char *)p);
    s->off = start + hdr + (size_t)n;
    return OL_OK;
}

static int scan_container(scanner *s, size_t start, size_t hdr, uint64_t count,
                          int is_map, int depth)
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
            return scan_fail(s, start, "the event is larger than %d bytes", OL_EVENT_MAX);
        return scan_fail(s, start, "%s declares %llu %s but only %llu bytes follow",
                         is_map ? "a map" : "an array", (unsigned long long)count,
                         is_map ? "entries" : "elements", (unsigned long long)left);
    }
    s->off = start + hdr;
    for (uint64_t i = 0; i < count; i++) {
        if (is_map && (rc = scan_value(s, depth + 1, 1)))
            return rc;
        if ((rc = scan_value(s, depth + 1, 0)))
            return rc;
    }
    return OL_OK;
}

static int scan_value(scanner *s, int depth, int is_key)
{
    size_t at = s->off;
    int rc = need(s, at, 1);
    if (rc)
        return rc;
    if (!is_key && (rc = push_off(s->pos, at)))
        return rc;
    uint8_t b = s->buf[at];
    const uint8_t *p = s->buf + at + 1;

    if (is_key && !((b >= 0xa0 && b <= 0xbf) || (b >= 0xd9 && b <= 0xdb)))
        return scan_fail(s, at, "a map key that is not a string");
    if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3) {
        s->off = at + 1;
        return OL_OK;
    }
    if (b >= 0x80 && b <= 0x8f)
        return scan_container(s, at, 1, b & 0x0f, 1, depth);
    if (b >= 0x90 && b <= 0x9f)
        return scan_container(s, at, 1, b & 0x0f, 0, depth);
    if (b >= 0xa0 && b <= 0xbf)
        return scan_str(s, at, 1, b & 0x1f, is_key);
    switch (b) {
    case 0xcc: case 0xd0: return (rc = need(s, at, 2)) ? rc : (s->off = at + 2, OL_OK);
    case 0xcd: case 0xd1: return (rc = need(s, at, 3)) ? rc : (s->off = at + 3, OL_OK);
    case 0xca: case 0xce: case 0xd2: return (rc = need(s, at, 5)) ? rc : (s->off = at + 5, OL_OK);
    case 0xcb: case 0xd3: return (rc = need(s, at, 9)) ? rc : (s->off = at + 9, OL_OK);
    case 0xcf:
        if ((rc = need(s, at, 9)))
            return rc;
        if (be(p, 8) > (uint64_t)INT64_MAX)
            return scan_fail(s, at, "an integer larger than %lld", (long long)INT64_MAX);
        s->off = at + 9;
        return OL_OK;
    case 0xd9: return (rc = need(s, at, 2)) ? rc : scan_str(s, at, 2, be(p, 1), is_key);
    case 0xda: return (rc = need(s, at, 3)) ? rc : scan_str(s, at, 3, be(p, 2), is_key);
    case 0xdb: return (rc = need(s, at, 5)) ? rc : scan_str(s, at, 5, be(p, 4), is_key);
    case 0xdc: return (rc = need(s, at, 3)) ? rc : scan_container(s, at, 3, be(p, 2), 0, depth);
    case 0xdd: return (rc = need(s, at, 5)) ? rc : scan_container(s, at, 5, be(p, 4), 0, depth);
    case 0xde: return (rc = need(s, at, 3)) ? rc : scan_container(s, at, 3, be(p, 2), 1, depth);
    case 0xdf: return (rc = need(s, at, 5)) ? rc : scan_container(s, at, 5, be(p, 4), 1, depth);
    case 0xc1:
        return scan_fail(s, at, "the byte 0xc1, which MessagePack never uses");
    default:
        /* c4-c6 bin, c7-c9 ext, d4-d8 fixext: no JSON equivalent. */
        return scan_fail(s, at, "a MessagePack %s value; the open log uses none",
                         (b >= 0xc4 && b <= 0xc6) ? "binary" : "extension");
    }
}

static int scan(const uint8_t *buf, size_t len, int exact, size_t *used,
                ol_origin origin, olerror *err, olpos *pos)
{
    scanner s = {buf, len, len, 0, origin, err, pos};
    if (len == 0)
        return scan_fail(&s, 0, "an empty message; an event is a MessagePack map");
    if (exact && len > OL_EVENT_MAX)
        return scan_fail(&s, 0, "the event is %zu bytes; an event is at most %d bytes",
                         len, OL_EVENT_MAX);
    if (s.len > OL_EVENT_MAX)
        s.len = OL_EVENT_MAX;
    int rc = scan_value(&s, 0, 0);
    if (rc)
        return rc;
    if (exact && s.off != len)
        return scan_fail(&s, s.off, "%zu trailing byte%s after the event", len - s.off,
                         len - s.off == 1 ? "" : "s");
    *used = s.off;
    return OL_OK;
}

int olcodec_scan(const uint8_t *buf, size_t len, int exact, size_t *used,
                 ol_origin origin, olerror *err)
{
    return scan(buf, len, exact, used, origin, err, NULL);
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
    case MSGPACK_OBJECT_STR: j = json_stringn(o->via.str.ptr, o->via.str.size); break;
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
            json_t *v = NULL;
            if (json_object_getn(j, k->ptr, k->size)) {
                *why = "a key that appears twice in one map";
                rc = OL_EMALFORMED;
            } else if (!(rc = from_object(&o->via.map.ptr[i].val, &v, why)) &&
                       json_object_setn_new(j, k->ptr, k->size, v)) {
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

/* Scan, unpack and convert one MessagePack object of exactly len bytes. */
static int msgpack_tree(const uint8_t *buf, size_t len, ol_origin origin,
                        json_t **out, olpos *pos, olerror *err)
{
    size_t used = 0, off = 0;
    int rc = scan(buf, len, 1, &used, origin, err, pos);
    if (rc)
        return rc;
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    msgpack_unpack_return r = msgpack_unpack_next(&u, (const char *)buf, len, &off);
    if (r == MSGPACK_UNPACK_NOMEM_ERROR) {
        rc = OL_ENOMEM;
    } else if (r != MSGPACK_UNPACK_SUCCESS || off != len) {
        /* The scan accepts only what msgpack-c parses; reaching this is a
         * disagreement between the two, reported rather than trusted. */
        rc = errf_at(err, origin, NULL, 0, "MessagePack that could not be unpacked (%d)", (int)r);
    } else {
        const char *why = NULL;
        rc = from_object(&u.data, out, &why);
        if (rc == OL_EMALFORMED)
            rc = errf_at(err, origin, NULL, 0, "%s", why);
    }
    msgpack_unpacked_destroy(&u);
    return rc;
}

int olcodec_msgpack_to_json(const uint8_t *buf, size_t len, ol_origin origin,
                            json_t **out, olerror *err)
{
    return msgpack_tree(buf, len, origin, out, NULL, err);
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

/* Record the offset of every value of a text jansson has already parsed. */
static int json_offsets(const char *t, size_t n, size_t *i, olpos *pos, int depth)
{
    int rc;
    *i = skip_ws(t, *i, n);
    if ((rc = push_off(pos, *i)))
        return rc;
    if (*i >= n || depth > 64)
        return OL_OK;
    char open = t[*i];
    if (open == '"') {
        *i = skip_string(t, *i, n);
        return OL_OK;
    }
    if (open != '{' && open != '[') {
        while (*i < n && !strchr(",]} \t\r\n", t[*i]))
            (*i)++;
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

static int json_depth_ok(const json_t *j, int depth)
{
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
            for (size_t c = 0; c < n; c++)
                if (k[c] >= 'A' && k[c] <= 'Z')
                    return errf_at(err, pos->origin, pos->text, off,
                                   "the key \"%s\" is not lower-case", k);
            if (n > OL_STRING_MAX)
                return errf_at(err, pos->origin, pos->text, off,
                               "a key of %zu bytes; strings are at most %d bytes", n, OL_STRING_MAX);
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
    json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!j) {
        /* jansson counts columns in characters from 1, like we do. */
        snprintf(err->msg, sizeof err->msg, "line %u, column %d: invalid JSON: %s.",
                 origin.line ? origin.line : (unsigned)je.line, je.column > 0 ? je.column : 1,
                 je.text);
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

/* Where a value sits: its parent and key (or index), and its path for
 * people ("players.p1.deck.monsters[2]"). */
typedef struct {
    const json_t *parent;
    const char *key;
    size_t idx;
    char path[PATH_MAX_LEN];
} vloc;

typedef struct {
    olpos *pos;
    olerror *err;
    olarena *arena;
} dctx;

static int dfail(dctx *d, const vloc *l, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int dfail(dctx *d, const vloc *l, const char *fmt, ...)
{
    size_t off = 0;
    char loc[64] = "";
    va_list ap;
    if (pos_find(d->pos, l->parent, l->key, l->idx, &off))
        where(loc, sizeof loc, d->pos->origin, d->pos->text, off);
    va_start(ap, fmt);
    set_err(d->err, l->path, loc, fmt, ap);
    va_end(ap);
    return OL_EMALFORMED;
}

/* Paths are for people; a path too long for its buffer is cut short. */
static void path_join(char *dst, size_t cap, const char *a, const char *sep, const char *b)
{
    size_t n = 0;
    for (const char *parts[3] = {a, sep, b}, **p = parts; p < parts + 3; p++)
        for (const char *c = *p; *c && n + 1 < cap; c++)
            dst[n++] = *c;
    dst[n] = '\0';
}

static vloc child(const vloc *l, const json_t *obj, const char *key)
{
    vloc c = {obj, key, 0, ""};
    path_join(c.path, sizeof c.path, l->path, l->path[0] ? "." : "", key);
    return c;
}

static vloc elem(const vloc *l, const json_t *arr, size_t i)
{
    vloc c = {arr, NULL, i, ""};
    char idx[24];
    snprintf(idx, sizeof idx, "[%zu]", i);
    path_join(c.path, sizeof c.path, l->path, "", idx);
    return c;
}

static const char *json_kind(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "a map";
    case JSON_ARRAY: return "a list";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return json_integer_value(v) < 0 ? "a negative integer" : "an integer";
    case JSON_REAL: return "a fractional number";
    case JSON_TRUE: case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "an unknown value";
}

static int wrong(dctx *d, const vloc *l, const json_t *v, const char *want)
{
    return dfail(d, l, "\"%s\" must be %s, not %s", l->path, want, json_kind(v));
}

static int missing(dctx *d, const vloc *l, const char *key)
{
    return dfail(d, l, "\"%s%s%s\" is required", l->path, l->path[0] ? "." : "", key);
}

static int get_uint(dctx *d, const json_t *v, const vloc *l, uint64_t *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return wrong(d, l, v, "an unsigned integer");
    *out = (uint64_t)json_integer_value(v);
    return OL_OK;
}

static int get_u32(dctx *d, const json_t *v, const vloc *l, uint32_t *out)
{
    uint64_t u = 0;
    int rc = get_uint(d, v, l, &u);
    if (rc)
        return rc;
    if (u > UINT32_MAX)
        return dfail(d, l, "\"%s\" is %llu, larger than %u", l->path, (unsigned long long)u,
                     (unsigned)UINT32_MAX);
    *out = (uint32_t)u;
    return OL_OK;
}

static int get_str(dctx *d, const json_t *v, const vloc *l, size_t maxlen, const char **out)
{
    if (!json_is_string(v))
        return wrong(d, l, v, "a string");
    size_t n = json_string_length(v);
    if (n == 0 || n > maxlen)
        return dfail(d, l, "\"%s\" must be 1 to %zu bytes long", l->path, maxlen);
    if (!(*out = olarena_strndup(d->arena, json_string_value(v), n)))
        return OL_ENOMEM;
    return OL_OK;
}

/* A name from a fixed list (enum); parse returns -1 when unknown. */
static int get_enum(dctx *d, const json_t *v, const vloc *l, int (*parse)(const char *),
                    const char *choices, int *out)
{
    if (!json_is_string(v) || (*out = parse(json_string_value(v))) < 0)
        return dfail(d, l, "\"%s\" must be one of %s", l->path, choices);
    return OL_OK;
}

static int card_id_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 64)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

static int get_card_id(dctx *d, const json_t *v, const vloc *l, const char **out)
{
    if (!json_is_string(v))
        return wrong(d, l, v, "a card id");
    if (!card_id_ok(json_string_value(v)))
        return dfail(d, l, "\"%s\" must be a card id of 1 to 64 letters, digits, '.', '_' or '-'",
                     l->path);
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

static int get_href(dctx *d, const json_t *v, const vloc *l, ol_href *h)
{
    if (json_is_null(v)) {
        h->kind = OL_HREF_NULL;
        return OL_OK;
    }
    if (json_is_string(v)) {
        h->kind = OL_HREF_CARD;
        return get_card_id(d, v, l, &h->card);
    }
    const json_t *c = json_is_object(v) ? json_object_get(v, "c") : NULL;
    vloc cl = child(l, v, "c");
    if (!c)
        return dfail(d, l, "\"%s\" must be a card id, null or {\"c\": hex}", l->path);
    if (!json_is_string(c) || json_string_length(c) != 2 * OL_COMMIT_BYTES ||
        hex_decode(json_string_value(c), h->commit, OL_COMMIT_BYTES))
        return dfail(d, &cl, "\"%s\" must be %d lower-case hex digits (BLAKE2b-256)", cl.path,
                     2 * OL_COMMIT_BYTES);
    h->kind = OL_HREF_COMMIT;
    return OL_OK;
}

static int get_slot(dctx *d, const json_t *v, const vloc *l, int *slot)
{
    if (json_is_string(v) && !strcmp(json_string_value(v), "a")) {
        *slot = OL_SLOT_ACTIVE;
        return OL_OK;
    }
    if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= 3) {
        *slot = (int)json_integer_value(v);
        return OL_OK;
    }
    return dfail(d, l, "\"%s\" must be \"a\" (the active slot) or a bench slot 0 to 3", l->path);
}

static int get_player(dctx *d, const json_t *v, const vloc *l, ol_player *p)
{
    int x = 0;
    int rc = get_enum(d, v, l, ol_player_parse, "\"p1\" or \"p2\"", &x);
    *p = (ol_player)x;
    return rc;
}

/* A target reference: {"p","s"} monster, {"seq"} chain link or trigger,
 * {"p"} player, {"p","lock"} locked support (openlog.md 7). */
static int get_ref(dctx *d, const json_t *v, const vloc *l, ol_ref *r)
{
    if (!json_is_object(v))
        return wrong(d, l, v, "a reference map");
    const json_t *p = json_object_get(v, "p"), *s = json_object_get(v, "s");
    const json_t *seq = json_object_get(v, "seq"), *lock = json_object_get(v, "lock");
    vloc pl = child(l, v, "p"), sl = child(l, v, "s"), ql = child(l, v, "seq"),
         ll = child(l, v, "lock");
    int rc;
    if (seq) {
        if (p || s || lock)
            return dfail(d, l, "\"%s\" mixes \"seq\" with \"p\", \"s\" or \"lock\"", l->path);
        r->kind = OL_REF_SEQ;
        return get_uint(d, seq, &ql, &r->seq);
    }
    if (!p)
        return dfail(d, l, "\"%s\" must name a monster {p,s}, a chain link {seq}, a player {p} "
                     "or a locked support {p,lock}", l->path);
    if ((rc = get_player(d, p, &pl, &r->p)))
        return rc;
    if (s && lock)
        return dfail(d, l, "\"%s\" has both \"s\" and \"lock\"", l->path);
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

static int get_monster_ref(dctx *d, const json_t *v, const vloc *l, ol_ref *r)
{
    int rc = get_ref(d, v, l, r);
    if (!rc && r->kind != OL_REF_MONSTER)
        return dfail(d, l, "\"%s\" must be a monster reference {\"p\", \"s\"}", l->path);
    return rc;
}

/* A list decoded element by element into arena memory. */
typedef int (*elem_fn)(dctx *d, const json_t *v, const vloc *l, void *out);

static int get_list(dctx *d, const json_t *v, const vloc *l, size_t size, elem_fn fn,
                    void **out, size_t *n)
{
    if (!json_is_array(v))
        return wrong(d, l, v, "a list");
    size_t len = json_array_size(v);
    if (len > LIST_MAX)
        return dfail(d, l, "\"%s\" has %zu entries; a list has at most %d", l->path, len, LIST_MAX);
    char *a = olarena_alloc(d->arena, size * (len ? len : 1));
    if (!a)
        return OL_ENOMEM;
    for (size_t i = 0; i < len; i++) {
        vloc el = elem(l, v, i);
        int rc = fn(d, json_array_get(v, i), &el, a + i * size);
        if (rc)
            return rc;
    }
    *out = a;
    *n = len;
    return OL_OK;
}

static int elem_href(dctx *d, const json_t *v, const vloc *l, void *out)
{
    return get_href(d, v, l, out);
}
static int elem_ref(dctx *d, const json_t *v, const vloc *l, void *out)
{
    return get_ref(d, v, l, out);
}
static int elem_monster_ref(dctx *d, const json_t *v, const vloc *l, void *out)
{
    return get_monster_ref(d, v, l, out);
}
static int elem_card_id(dctx *d, const json_t *v, const vloc *l, void *out)
{
    return get_card_id(d, v, l, out);
}

static int get_idlist(dctx *d, const json_t *obj, const vloc *l, const char *key,
                      int required, ol_idlist *out)
{
    const json_t *v = json_object_get(obj, key);
    vloc cl = child(l, obj, key);
    if (!v)
        return required ? missing(d, l, key) : OL_OK;
    return get_list(d, v, &cl, sizeof(char *), elem_card_id, (void **)&out->ids, &out->n);
}

static int get_deck(dctx *d, const json_t *v, const vloc *l, ol_format f, ol_deck *deck)
{
    int rc;
    if (!json_is_object(v))
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

int olcodec_deck_from_json(const json_t *j, ol_format format, const char *path,
                           olarena *arena, ol_deck *deck, olerror *err)
{
    dctx d = {NULL, err, arena};
    vloc l = {NULL, NULL, 0, ""};
    snprintf(l.path, sizeof l.path, "%s", path ? path : "");
    return get_deck(&d, j, &l, format, deck);
}

/* ---- header fields ---- */

static int get_players(dctx *d, const json_t *v, const vloc *l, ol_header *h)
{
    static const char *const seats[2] = {"p1", "p2"};
    if (!json_is_object(v))
        return wrong(d, l, v, "a map of \"p1\" and \"p2\"");
    for (int i = 0; i < 2; i++) {
        const json_t *seat = json_object_get(v, seats[i]);
        vloc sl = child(l, v, seats[i]);
        int rc;
        if (!seat)
            return missing(d, l, seats[i]);
        if (!json_is_object(seat))
            return wrong(d, &sl, seat, "a map of \"id\" and \"deck\"");
        const json_t *id = json_object_get(seat, "id"), *deck = json_object_get(seat, "deck");
        vloc il = child(&sl, seat, "id"), dl = child(&sl, seat, "deck");
        if (!id)
            return missing(d, &sl, "id");
        if (!deck)
            return missing(d, &sl, "deck");
        if ((rc = get_str(d, id, &il, OL_STRING_MAX, &h->players[i].id)) ||
            (rc = get_deck(d, deck, &dl, h->format, &h->players[i].deck)))
            return rc;
    }
    return OL_OK;
}

static int get_rules(dctx *d, const json_t *v, const vloc *l, ol_header *h)
{
    if (!json_is_object(v))
        return wrong(d, l, v, "a map of variant levers");
    size_t n = json_object_size(v), i = 0;
    h->has_rules = 1;
    if (!(h->rules = olarena_alloc(d->arena, sizeof(ol_lever) * (n ? n : 1))))
        return OL_ENOMEM;
    const char *k;
    json_t *x;
    json_object_foreach((json_t *)v, k, x) {
        vloc kl = child(l, v, k);
        const ol_lever_info *info = ol_lever_find(h->format, k);
        uint64_t val = 0;
        int rc;
        if (!info)
            return dfail(d, &kl, "\"%s\" is not a variant lever of the %s format", k,
                         ol_format_name(h->format));
        if (info->is_bool) {
            if (!json_is_boolean(x))
                return wrong(d, &kl, x, "true or false");
            val = json_is_true(x);
        } else {
            if ((rc = get_uint(d, x, &kl, &val)))
                return rc;
            if (val < info->min || val > info->max)
                return dfail(d, &kl, "the lever \"%s\" must be between %llu and %llu", k,
                             (unsigned long long)info->min, (unsigned long long)info->max);
        }
        if (!(h->rules[i].name = olarena_strndup(d->arena, k, strlen(k))))
            return OL_ENOMEM;
        h->rules[i++].value = val;
    }
    h->n_rules = i;
    return OL_OK;
}

static int get_event_info(dctx *d, const json_t *v, const vloc *l, ol_header *h)
{
    int rc;
    if (!json_is_object(v))
        return wrong(d, l, v, "a map of \"tournament\", \"round\" and \"table\"");
    h->has_event = 1;
    const json_t *t = json_object_get(v, "tournament"), *r = json_object_get(v, "round"),
                 *tb = json_object_get(v, "table");
    vloc tl = child(l, v, "tournament"), rl = child(l, v, "round"), bl = child(l, v, "table");
    if (t && (rc = get_str(d, t, &tl, OL_STRING_MAX, &h->tournament)))
        return rc;
    if (r && (rc = get_uint(d, r, &rl, &h->round)))
        return rc;
    h->has_round = r != NULL;
    if (tb && (rc = get_str(d, tb, &bl, OL_STRING_MAX, &h->table)))
        return rc;
    return OL_OK;
}

static int get_cardset(dctx *d, const json_t *v, const vloc *l, const char **out)
{
    int rc = get_str(d, v, l, OL_STRING_MAX, out);
    if (rc)
        return rc;
    const char *at = strchr(*out, '@');
    if (!at || at == *out || !at[1] || strchr(at + 1, '@'))
        return dfail(d, l, "\"%s\" must be \"<set>@<version>\"", l->path);
    return OL_OK;
}

/* ---- the field table ----
 *
 * Each event type lists its keys (openlog.md 4 and 7) in canonical order;
 * each key has a kind, and each kind one decoder and one encoder below. */
typedef enum {
    FK_FORMAT, FK_CARDSET, FK_HIDDEN, FK_PLAYERS, FK_RULES, FK_EVENT,
    FK_SLOTS, FK_SLOT, FK_HREF, FK_CARD, FK_NONCE, FK_HREFS, FK_LOCK,
    FK_SOURCE, FK_ABILITY, FK_TARGETS, FK_TARGET, FK_DEFEATED, FK_WINNER,
    FK_RULING, FK_PLAYER, FK_TEXT
} field_kind;

typedef struct {
    const char *key;
    field_kind kind;
    int required;
} field_spec;

typedef struct {
    const char *rule;          /* rulebook section of the action */
    field_spec fields[6];
} type_spec;

static const type_spec types[OL_TYPE_COUNT] = {
    [OL_MATCH] = {"openlog:4", {{"format", FK_FORMAT, 1}, {"cards", FK_CARDSET, 1},
                  {"hidden", FK_HIDDEN, 1}, {"players", FK_PLAYERS, 1},
                  {"rules", FK_RULES, 0}, {"event", FK_EVENT, 0}}},
    [OL_BENCH] = {"snap:8.3", {{"slots", FK_SLOTS, 0}, {"slot", FK_SLOT, 0}, {"card", FK_HREF, 0}}},
    [OL_SELECT] = {"snap:8.5", {{"cards", FK_HREFS, 1}}},
    [OL_UNLOCK] = {"snap:9.6", {{"lock", FK_LOCK, 1}, {"card", FK_CARD, 1}, {"nonce", FK_NONCE, 0}}},
    [OL_FLIP] = {"snap:10.3", {{"slot", FK_SLOT, 1}, {"card", FK_CARD, 1}, {"nonce", FK_NONCE, 0}}},
    [OL_PROMOTE] = {"snap:7.1", {{"slot", FK_SLOT, 1}, {"card", FK_CARD, 0}, {"nonce", FK_NONCE, 0}}},
    [OL_TRIGGER] = {"snap:10.4", {{"source", FK_SOURCE, 1}, {"ability", FK_ABILITY, 1},
                    {"targets", FK_TARGETS, 1}}},
    [OL_SPELL] = {"snap:10.5", {{"card", FK_CARD, 1}, {"nonce", FK_NONCE, 0},
                  {"targets", FK_TARGETS, 1}}},
    [OL_COUNTER] = {"snap:15", {{"card", FK_CARD, 1}, {"nonce", FK_NONCE, 0},
                    {"targets", FK_TARGETS, 1}}},
    [OL_PASS] = {"snap:15", {{0}}},
    [OL_EVOLVE] = {"snap:10.6", {{"slot", FK_SLOT, 1}, {"card", FK_CARD, 1}}},
    [OL_PRIME] = {"snap:10.7", {{"card", FK_CARD, 1}}},
    [OL_ATTACK] = {"snap:10.8.1", {{"target", FK_TARGET, 1}}},
    [OL_BLOCK] = {"snap:10.8.2", {{"slot", FK_SLOT, 1}}},
    [OL_SWAP] = {"snap:10.9", {{"slot", FK_SLOT, 1}}},
    [OL_LOCK] = {"snap:9.3", {{"cards", FK_HREFS, 1}}},
    [OL_END] = {"snap:10.11", {{0}}},
    [OL_CONCEDE] = {"openlog:7", {{0}}},
    [OL_CLAIM] = {"openlog:7", {{"defeated", FK_DEFEATED, 0}, {"winner", FK_WINNER, 0}}},
    [OL_JUDGE] = {"snap:16.4", {{"ruling", FK_RULING, 1}, {"player", FK_PLAYER, 0},
                  {"text", FK_TEXT, 1}}},
};

static int decode_field(dctx *d, field_kind k, const json_t *v, const vloc *l, olevent *ev)
{
    int x = 0, rc;
    ol_header *h = &ev->header;
    switch (k) {
    case FK_FORMAT:
        rc = get_enum(d, v, l, ol_format_parse, "\"snap\", \"advanced\" or \"master\"", &x);
        h->format = (ol_format)x;
        return rc;
    case FK_CARDSET: return get_cardset(d, v, l, &h->cards);
    case FK_HIDDEN:
        rc = get_enum(d, v, l, ol_hidden_parse, "\"open\", \"commit\" or \"announced\"", &x);
        h->hidden = (ol_hidden)x;
        return rc;
    case FK_PLAYERS: return get_players(d, v, l, h);
    case FK_RULES: return get_rules(d, v, l, h);
    case FK_EVENT: return get_event_info(d, v, l, h);
    case FK_SLOTS:
        if (!json_is_array(v) || json_array_size(v) != 4)
            return dfail(d, l, "\"slots\" must be a list of 4 hidden card references");
        for (size_t i = 0; i < 4; i++) {
            vloc el = elem(l, v, i);
            if ((rc = get_href(d, json_array_get(v, i), &el, &ev->slots[i])))
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
        return get_list(d, v, l, sizeof(ol_ref), elem_ref, (void **)&ev->targets, &ev->n_targets);
    case FK_TARGET: return get_monster_ref(d, v, l, &ev->target);
    case FK_DEFEATED:
        ev->has_defeated = 1;
        return get_list(d, v, l, sizeof(ol_ref), elem_monster_ref, (void **)&ev->defeated,
                        &ev->n_defeated);
    case FK_WINNER: ev->has_winner = 1; return get_player(d, v, l, &ev->winner);
    case FK_RULING:
        rc = get_enum(d, v, l, ol_ruling_parse, "\"note\", \"warning\" or \"game_loss\"", &x);
        ev->ruling = (ol_ruling)x;
        return rc;
    case FK_PLAYER: ev->has_player = 1; return get_player(d, v, l, &ev->player);
    case FK_TEXT: return get_str(d, v, l, OL_STRING_MAX, &ev->text);
    }
    return OL_EMALFORMED;
}

static int match_id_ok(const char *s)
{
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '.' || *s == '_' || *s == ':' || *s == '-'))
            return 0;
    return 1;
}

static int decode_envelope(dctx *d, const json_t *j, const vloc *root, olevent *ev)
{
    const json_t *m = json_object_get(j, "match"), *seq = json_object_get(j, "seq"),
                 *type = json_object_get(j, "type"), *by = json_object_get(j, "by"),
                 *t = json_object_get(j, "t");
    vloc ml = child(root, j, "match"), sl = child(root, j, "seq"), tl = child(root, j, "type"),
         bl = child(root, j, "by"), xl = child(root, j, "t");
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
    if (!json_is_string(type))
        return wrong(d, &tl, type, "a string");
    if ((x = ol_type_parse(json_string_value(type))) < 0)
        return dfail(d, &tl, "the event type \"%s\" is unknown", json_string_value(type));
    ev->type = (ol_type)x;
    if (!by)
        return missing(d, root, "by");
    if ((rc = get_enum(d, by, &bl, ol_by_parse, "\"p1\", \"p2\", \"table\" or \"judge\"", &x)))
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
 * claims something. */
static int decode_shape(dctx *d, const vloc *root, olevent *ev)
{
    if (ev->type == OL_BENCH && ev->has_slots == (ev->has_slot || ev->card.kind != OL_HREF_ABSENT))
        return dfail(d, root, "a \"bench\" event has either \"slots\" (setup) or \"slot\" and "
                     "\"card\" (the fifth monster)");
    if (ev->type == OL_BENCH && !ev->has_slots && !(ev->has_slot && ev->card.kind != OL_HREF_ABSENT))
        return dfail(d, root, "a \"bench\" event for the fifth monster needs both \"slot\" and \"card\"");
    if (ev->type == OL_CLAIM && !ev->has_defeated && !ev->has_winner)
        return dfail(d, root, "a \"claim\" needs \"defeated\", \"winner\" or both");
    return OL_OK;
}

static int decode_tree(dctx *d, const json_t *j, olevent *ev)
{
    vloc root = {NULL, NULL, 0, ""};
    int rc;
    if (!json_is_object(j))
        return dfail(d, &root, "an event must be a map, not %s", json_kind(j));
    if ((rc = decode_envelope(d, j, &root, ev)))
        return rc;
    const type_spec *ts = &types[ev->type];
    for (size_t i = 0; i < COUNT(ts->fields) && ts->fields[i].key; i++) {
        const field_spec *f = &ts->fields[i];
        const json_t *v = json_object_get(j, f->key);
        vloc fl = child(&root, j, f->key);
        if (!v) {
            if (f->required)
                return dfail(d, &root, "the \"%s\" event needs \"%s\"", ol_type_name(ev->type), f->key);
            continue;
        }
        if ((rc = decode_field(d, f->kind, v, &fl, ev)))
            return rc;
    }
    return decode_shape(d, &root, ev);
}

/* Read what can be read of the envelope, so that even a malformed event's
 * verdict can name its match and seq. */
static void peek_envelope(const json_t *j, olerror *err)
{
    const json_t *m = json_object_get(j, "match"), *s = json_object_get(j, "seq");
    if (json_is_string(m) && json_string_length(m) >= 1 && json_string_length(m) <= OL_MATCH_MAX &&
        match_id_ok(json_string_value(m))) {
        snprintf(err->match_buf, sizeof err->match_buf, "%s", json_string_value(m));
        err->match = err->match_buf;
    }
    if (json_is_integer(s) && json_integer_value(s) >= 0) {
        err->seq = (uint64_t)json_integer_value(s);
        err->has_seq = 1;
    }
}

static void release_json(void *tree)
{
    json_decref(tree);
}

static int decode(json_t *j, olpos *pos, olevent **out, olerror *err)
{
    olevent *ev = olevent_new();
    if (!ev) {
        json_decref(j);
        return OL_ENOMEM;
    }
    ev->tree = j;                /* the event owns the tree from here on */
    ev->release_tree = release_json;
    peek_envelope(j, err);
    dctx d = {pos, err, ev->arena};
    int rc = decode_tree(&d, j, ev);
    if (rc) {
        olevent_destroy(&ev);
        return rc;
    }
    *out = ev;
    return OL_OK;
}

static void err_init(olerror *err)
{
    memset(err, 0, sizeof *err);
}

int olcodec_decode_msgpack(const uint8_t *buf, size_t len, ol_origin origin,
                           olevent **out, olerror *err)
{
    olpos pos = {.origin = origin};
    json_t *j = NULL;
    err_init(err);
    *out = NULL;
    int rc = msgpack_tree(buf, len, origin, &j, &pos, err);
    if (!rc && !(rc = pos_walk(&pos, j, NULL, NULL, 0)))
        rc = decode(j, &pos, out, err);
    else
        json_decref(j);
    pos_free(&pos);
    return rc;
}

int olcodec_decode_json(const char *text, size_t len, ol_origin origin, olevent **out,
                        olerror *err)
{
    olpos pos = {.origin = origin, .text = text};
    json_t *j = NULL;
    err_init(err);
    *out = NULL;
    int rc = json_tree(text, len, origin, &j, &pos, err);
    if (!rc)
        rc = decode(j, &pos, out, err);
    pos_free(&pos);
    return rc;
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

static json_t *deck_json(const ol_deck *dk, ol_format f)
{
    if (f == OL_FORMAT_SNAP)
        return json_pack("{s:o, s:o, s:o}", "monsters", ids_json(&dk->monsters),
                         "supports", ids_json(&dk->supports), "reserve", ids_json(&dk->reserve));
    return json_pack("{s:o}", "main", ids_json(&dk->main));
}

static json_t *header_field_json(const olevent *ev, field_kind k)
{
    const ol_header *h = &ev->header;
    switch (k) {
    case FK_FORMAT: return json_string(ol_format_name(h->format));
    case FK_CARDSET: return json_string(h->cards);
    case FK_HIDDEN: return json_string(ol_hidden_name(h->hidden));
    case FK_PLAYERS:
        return json_pack("{s:{s:s, s:o}, s:{s:s, s:o}}",
                         "p1", "id", h->players[0].id, "deck", deck_json(&h->players[0].deck, h->format),
                         "p2", "id", h->players[1].id, "deck", deck_json(&h->players[1].deck, h->format));
    case FK_RULES: {
        if (!h->has_rules)
            return NULL;
        json_t *o = json_object();
        for (size_t i = 0; o && i < h->n_rules; i++) {
            const ol_lever_info *info = ol_lever_find(h->format, h->rules[i].name);
            json_t *v = info && info->is_bool ? json_boolean(h->rules[i].value)
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
    case FK_TARGETS: return refs_json(ev->targets, ev->n_targets);
    case FK_TARGET: return ref_json(&ev->target);
    case FK_DEFEATED: return ev->has_defeated ? refs_json(ev->defeated, ev->n_defeated) : NULL;
    case FK_WINNER: return ev->has_winner ? json_string(ol_player_name(ev->winner)) : NULL;
    case FK_RULING: return json_string(ol_ruling_name(ev->ruling));
    case FK_PLAYER: return ev->has_player ? json_string(ol_player_name(ev->player)) : NULL;
    case FK_TEXT: return ev->text ? json_string(ev->text) : NULL;
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
