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
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* A window over the input: bytes [start, end) of buf are unread and start at
 * file offset base + start.  The window never holds more than WINDOW bytes,
 * so memory stays bounded however large (or endless) the input is. */
#define WINDOW (LINE_MAX_BYTES + OL_EVENT_MAX)

struct olreader {
    FILE *f;           /* NULL when reading a memory buffer */
    char *buf;
    size_t cap, start, end;
    size_t base;       /* file offset of buf[0] */
    int eof;
    ol_encoding enc;
    unsigned line;     /* JSON: number of the next line */
    int broken;        /* .mlog: structure lost, nothing more to read */
    int skipping;      /* JSON: inside an over-long line, skip to '\n' */
    olarena *spare;    /* .mlog: a released event's arena, for the next */
};

olreader *olreader_new(char *buf, size_t len, ol_encoding enc)
{
    olreader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->buf = buf;
    r->cap = r->end = len;
    r->eof = 1;
    r->enc = enc;
    r->line = 1;
    return r;
}

/* A regular file smaller than the window (a match log is a few KB) is
 * read whole, at once, into a buffer of its size: what fill() would do in
 * the window, without the stdio buffer and the window-sized allocation.
 * 0 when it is not such a file or anything goes wrong: the caller then
 * takes the streaming path, which reports whatever is wrong. */
static int slurp(const char *path, olreader *r)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0)
        return 0;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < 0 || (size_t)st.st_size >= WINDOW) {
        close(fd);
        return 0;
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        close(fd);
        return 0;
    }
    for (;;) {
        ssize_t k = read(fd, buf + n, cap - n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 || (k > 0 && (n += (size_t)k) == cap)) {   /* an error, or it grew */
            free(buf);
            close(fd);
            return 0;
        }
        if (k == 0)
            break;
    }
    close(fd);
    r->buf = buf;
    r->cap = cap;
    r->end = n;
    r->eof = 1;
    return 1;
}

int olreader_open(const char *path, int enc, olreader **out, olerror *err)
{
    memset(err, 0, sizeof *err);
    if (enc < 0)
        enc = olstream_encoding_of(path);
    if (enc < 0) {
        snprintf(err->msg, sizeof err->msg,
                 "%s: the file name must end in .mlog or .jsonl to tell its encoding.", path);
        return OL_EMALFORMED;
    }
    if (strcmp(path, "-")) {
        olreader *r = calloc(1, sizeof *r);
        if (!r)
            return OL_ENOMEM;
        if (slurp(path, r)) {
            r->enc = (ol_encoding)enc;
            r->line = 1;
            *out = r;
            return OL_OK;
        }
        free(r);
    }
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "cannot open %s: %s.", path, strerror(errno));
        return OL_EIO;
    }
    olreader *r = calloc(1, sizeof *r);
    char *buf = malloc(WINDOW);
    if (!r || !buf) {
        free(r);
        free(buf);
        if (f != stdin)
            fclose(f);
        return OL_ENOMEM;
    }
    r->f = f;
    r->buf = buf;
    r->cap = WINDOW;
    r->enc = (ol_encoding)enc;
    r->line = 1;
    *out = r;
    return OL_OK;
}

void olreader_destroy(olreader **r)
{
    if (!r || !*r)
        return;
    if ((*r)->f && (*r)->f != stdin)
        fclose((*r)->f);
    olarena_destroy(&(*r)->spare);
    free((*r)->buf);
    free(*r);
    *r = NULL;
}

/* Move the unread bytes to the front and read until the window is full or
 * the input ends. */
static int fill(olreader *r, olerror *err)
{
    if (r->eof)
        return OL_OK;
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->base += r->start;
        r->end -= r->start;
        r->start = 0;
    }
    while (r->end < r->cap) {
        size_t got = fread(r->buf + r->end, 1, r->cap - r->end, r->f);
        r->end += got;
        if (got == 0) {
            if (ferror(r->f)) {
                snprintf(err->msg, sizeof err->msg, "cannot read the input: %s.", strerror(errno));
                return OL_EIO;
            }
            r->eof = 1;
            break;
        }
    }
    return OL_OK;
}

static int next_msgpack(olreader *r, olevent **ev, const char **raw, size_t *raw_len,
                        olerror *err)
{
    int rc;
    if (r->end - r->start < OL_EVENT_MAX && (rc = fill(r, err)))
        return rc;
    if (r->start >= r->end)
        return 0;
    const uint8_t *p = (const uint8_t *)r->buf + r->start;
    size_t used = 0, avail = r->end - r->start;
    ol_origin origin = {r->base + r->start, 0};
    rc = olcodec_next_msgpack(p, avail, origin, &r->spare, &used, ev, err);
    if (rc == OL_ENOMEM)
        return rc;
    if (used == 0) {
        r->broken = 1;   /* the next event's start is unknowable */
        return rc;
    }
    r->start += used;
    if (raw) {
        *raw = (const char *)p;
        *raw_len = used;
    }
    return rc ? rc : 1;
}

static int line_too_long(olerror *err, unsigned line)
{
    memset(err, 0, sizeof *err);
    snprintf(err->msg, sizeof err->msg,
             "line %u, column 1: the line is longer than %d bytes; an event is at most %d bytes.",
             line, LINE_MAX_BYTES, OL_EVENT_MAX);
    return OL_EMALFORMED;
}

static int next_json(olreader *r, olevent **ev, const char **raw, size_t *raw_len,
                     olerror *err)
{
    for (;;) {
        char *start = r->buf + r->start;
        char *nl = memchr(start, '\n', r->end - r->start);
        int rc;
        if (!nl && !r->eof) {
            if ((rc = fill(r, err)))
                return rc;
            start = r->buf + r->start;
            nl = memchr(start, '\n', r->end - r->start);
        }
        if (r->start >= r->end && r->eof)
            return 0;
        if (!nl && !r->eof) {
            /* A full window and no newline: drop what we have and skip to
             * the line's end, reporting it once. */
            int first = !r->skipping;
            r->skipping = 1;
            r->start = r->end;
            if (first)
                return line_too_long(err, r->line);
            continue;
        }
        size_t n = nl ? (size_t)(nl - start) : r->end - r->start;
        unsigned line = r->line++;
        r->start += n + (nl ? 1 : 0);
        if (r->skipping) {              /* the tail of an over-long line */
            r->skipping = 0;
            continue;
        }
        size_t k = 0;
        while (k < n && (start[k] == ' ' || start[k] == '\t' || start[k] == '\r'))
            k++;
        if (k == n)
            continue;   /* blank lines carry no event */
        if (n > LINE_MAX_BYTES)
            return line_too_long(err, line);
        if (raw) {
            *raw = start;
            *raw_len = n;
        }
        rc = olcodec_decode_json(start, n, (ol_origin){0, line}, ev, err);
        return rc ? rc : 1;
    }
}

int olreader_next(olreader *r, olevent **ev, const char **raw, size_t *raw_len, olerror *err)
{
    *ev = NULL;
    if (r->broken)
        return 0;
    return r->enc == OL_ENC_MSGPACK ? next_msgpack(r, ev, raw, raw_len, err)
                                    : next_json(r, ev, raw, raw_len, err);
}

void olreader_release(olreader *r, olevent **ev)
{
    if (!ev || !*ev)
        return;
    if (r->spare || (*ev)->tree) {
        olevent_destroy(ev);
        return;
    }
    r->spare = (*ev)->arena;   /* the event lives in it: gone with the reset */
    olarena_reset(r->spare);
    *ev = NULL;
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
