/* olstream.c -- whole open logs: .mlog (concatenated MessagePack maps) and
 * .jsonl (one JSON object per line).
 *
 * A log file is read into memory once (a match log is small; the cap keeps
 * a hostile file from exhausting memory) and events are decoded from it one
 * at a time.  The two encodings differ in how far an error reaches: a bad
 * JSON line is one bad event and the next line starts afresh, while a .mlog
 * whose structure is broken has no next event that can be found, so the
 * reader stops after saying where it broke.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "logformat/olstream.h"

#define LINE_MAX_BYTES (4 * OL_EVENT_MAX)  /* a JSON line may escape a lot */

int olstream_encoding_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot)
        return -1;
    if (!strcmp(dot, ".mlog"))
        return OL_ENC_MSGPACK;
    if (!strcmp(dot, ".jsonl") || !strcmp(dot, ".json"))
        return OL_ENC_JSON;
    return -1;
}

int olstream_read_file(const char *path, size_t max, char **buf, size_t *len, olerror *err)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    char *data = NULL;
    size_t n = 0, cap = 0;
    int rc = OL_OK;
    memset(err, 0, sizeof *err);
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "cannot open %s: %s.", path, strerror(errno));
        return OL_EIO;
    }
    for (;;) {
        if (cap - n < 65536 + 1) {
            size_t ncap = cap ? cap * 2 : 65536 * 2;
            char *p = realloc(data, ncap);
            if (!p) {
                rc = OL_ENOMEM;
                break;
            }
            data = p;
            cap = ncap;
        }
        size_t got = fread(data + n, 1, cap - n - 1, f);
        n += got;
        if (n > max) {
            snprintf(err->msg, sizeof err->msg, "%s is larger than %zu bytes.", path, max);
            rc = OL_EMALFORMED;
            break;
        }
        if (got == 0) {
            if (ferror(f)) {
                snprintf(err->msg, sizeof err->msg, "cannot read %s: %s.", path, strerror(errno));
                rc = OL_EIO;
            }
            break;
        }
    }
    if (f != stdin)
        fclose(f);
    if (rc) {
        free(data);
        return rc;
    }
    data[n] = '\0';
    *buf = data;
    *len = n;
    return OL_OK;
}

struct olreader {
    char *buf;
    size_t len, off;
    ol_encoding enc;
    unsigned line;     /* JSON: number of the line at off */
    int broken;        /* .mlog: structure lost, nothing more to read */
};

olreader *olreader_new(char *buf, size_t len, ol_encoding enc)
{
    olreader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->buf = buf;
    r->len = len;
    r->enc = enc;
    r->line = 1;
    return r;
}

int olreader_open(const char *path, int enc, olreader **out, olerror *err)
{
    char *buf = NULL;
    size_t len = 0;
    if (enc < 0)
        enc = olstream_encoding_of(path);
    if (enc < 0) {
        memset(err, 0, sizeof *err);
        snprintf(err->msg, sizeof err->msg,
                 "%s: the file name must end in .mlog or .jsonl to tell its encoding.", path);
        return OL_EMALFORMED;
    }
    int rc = olstream_read_file(path, OL_FILE_MAX, &buf, &len, err);
    if (rc)
        return rc;
    if (!(*out = olreader_new(buf, len, (ol_encoding)enc))) {
        free(buf);
        return OL_ENOMEM;
    }
    return OL_OK;
}

void olreader_destroy(olreader **r)
{
    if (!r || !*r)
        return;
    free((*r)->buf);
    free(*r);
    *r = NULL;
}

static int next_msgpack(olreader *r, olevent **ev, const char **raw, size_t *raw_len,
                        olerror *err)
{
    const uint8_t *p = (const uint8_t *)r->buf + r->off;
    size_t used = 0, start = r->off;
    ol_origin origin = {start, 0};
    int rc = olcodec_scan(p, r->len - start, 0, &used, origin, err);
    if (rc) {
        r->broken = 1;   /* the next event's start is unknowable */
        return rc;
    }
    r->off += used;
    if (raw) {
        *raw = r->buf + start;
        *raw_len = used;
    }
    rc = olcodec_decode_msgpack(p, used, origin, ev, err);
    return rc ? rc : 1;
}

static int next_json(olreader *r, olevent **ev, const char **raw, size_t *raw_len,
                     olerror *err)
{
    for (;;) {
        if (r->off >= r->len)
            return 0;
        char *start = r->buf + r->off;
        char *nl = memchr(start, '\n', r->len - r->off);
        size_t n = nl ? (size_t)(nl - start) : r->len - r->off;
        unsigned line = r->line++;
        r->off += n + (nl ? 1 : 0);
        size_t k = 0;
        while (k < n && (start[k] == ' ' || start[k] == '\t' || start[k] == '\r'))
            k++;
        if (k == n)
            continue;   /* blank lines carry no event */
        if (raw) {
            *raw = start;
            *raw_len = n;
        }
        ol_origin origin = {0, line};
        if (n > LINE_MAX_BYTES) {
            memset(err, 0, sizeof *err);
            snprintf(err->msg, sizeof err->msg,
                     "line %u, column 1: a line of %zu bytes; an event is at most %d bytes.",
                     line, n, OL_EVENT_MAX);
            return OL_EMALFORMED;
        }
        int rc = olcodec_decode_json(start, n, origin, ev, err);
        return rc ? rc : 1;
    }
}

int olreader_next(olreader *r, olevent **ev, const char **raw, size_t *raw_len, olerror *err)
{
    *ev = NULL;
    if (r->broken || r->off >= r->len)
        return 0;
    return r->enc == OL_ENC_MSGPACK ? next_msgpack(r, ev, raw, raw_len, err)
                                    : next_json(r, ev, raw, raw_len, err);
}

int olstream_write(FILE *f, const olevent *ev, ol_encoding enc)
{
    char *out = NULL;
    size_t len = 0;
    int rc = olcodec_encode(ev, enc, &out, &len);
    if (rc)
        return rc;
    if (fwrite(out, 1, len, f) != len || (enc == OL_ENC_JSON && fputc('\n', f) == EOF))
        rc = OL_EIO;
    free(out);
    return rc;
}
