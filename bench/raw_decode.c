/* raw_decode.c -- the floor under `arbiter verify`: MessagePack decoding and
 * nothing else.
 *
 *   raw_decode [--json] [--preload] FILE...
 *   raw_decode [--json] --codec FILE...
 *
 * What: for each file (one game, a .mlog: concatenated MessagePack maps) it
 * reads the whole file into memory, then calls msgpack_unpack_next()
 * (msgpack-c, the library under arbiter's codec) until the bytes run out,
 * counting the top-level objects: the events.  Nothing is checked, nothing
 * is converted, nothing is kept.  It prints the files (games), events and
 * bytes, the time and the rates; with --json one object on one line:
 *   {"bench":"raw_decode","games":N,"events":N,"bytes":N,"seconds":S,
 *    "events_per_s":R,"games_per_s":R,"preload":false}
 *
 * Why: bench/run_verify compares `arbiter verify -j 1 --quiet FILE...`
 * (decode + verify) with this on the same files in the same run, so the
 * ratio says what the codec, the judge and the engine cost on top of
 * merely parsing the bytes.
 *
 * Fairness: arbiter verify must open and read each file, so by default
 * this does too, in the same order and in the same one thread: open, fstat,
 * one read of the whole file into a buffer reused from file to file, close
 * -- the cheapest way to get the bytes, so that the floor is low, not
 * flattered.  Reading is thus INCLUDED in both measures.  The timer runs
 * from before the first file is opened to after the last event is decoded
 * (process start-up excluded; bench/run_verify times both commands from the
 * outside as well, start-up included for both).  --preload reads every file
 * first and times the decoding alone, to show how much of the time is the
 * reading (it is not what the ratio uses).
 *
 * --codec: arbiter's own decoder alone, the first half of `arbiter verify`:
 * each file through olreader_open / olreader_next / olreader_release (the
 * calls verify's read loop makes, typed events and all), nothing judged.
 * bench/run_verify times it beside the other two, so that verify's time
 * splits into reading+decoding (this) and judging (verify minus this), and
 * the best verify could do with a decoder as fast as msgpack-c's is
 * raw / (raw + judging): a measured estimate, not a goal.  An event the
 * codec refuses is counted apart ("malformed"); the corpora have none.
 *
 * Exit: 0; 2 bad usage or a file that cannot be read; 1 bytes that are not
 * MessagePack (the count would be meaningless).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <msgpack.h>

#include "logformat/olstream.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct {
    char *b;
    size_t n, cap;
} buf;

/* The whole file into b (grown as needed, reused). */
static int read_file(const char *path, buf *b)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) {
        fprintf(stderr, "raw_decode: %s: %s\n", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    size_t want = (size_t)st.st_size;
    if (want + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 65536;
        while (cap < want + 1)
            cap *= 2;
        char *p = realloc(b->b, cap);
        if (!p) {
            close(fd);
            return -1;
        }
        b->b = p;
        b->cap = cap;
    }
    b->n = 0;
    for (;;) {
        ssize_t got = read(fd, b->b + b->n, b->cap - b->n);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "raw_decode: %s: %s\n", path, strerror(errno));
            close(fd);
            return -1;
        }
        if (got == 0)
            break;
        b->n += (size_t)got;
        if (b->n == b->cap)   /* grew since the fstat */
        {
            char *p = realloc(b->b, b->cap * 2);
            if (!p) {
                close(fd);
                return -1;
            }
            b->b = p;
            b->cap *= 2;
        }
    }
    close(fd);
    return 0;
}

/* Count the MessagePack objects of data[0..len); -1 when it is not
 * MessagePack. */
static long long count_events(msgpack_unpacked *u, const char *data, size_t len)
{
    size_t off = 0;
    long long n = 0;
    while (off < len) {
        msgpack_unpack_return r = msgpack_unpack_next(u, data, len, &off);
        if (r != MSGPACK_UNPACK_SUCCESS)
            return -1;
        n++;
    }
    return n;
}

/* --codec: every file through arbiter's reader; 0, or 2 on a file that
 * cannot be read or memory that runs out. */
static int codec_files(char **files, int n_files, long long *events, long long *malformed)
{
    for (int i = 0; i < n_files; i++) {
        olreader *r = NULL;
        olerror err;
        if (olreader_open(files[i], -1, &r, &err) != 0) {
            fprintf(stderr, "raw_decode: %s: %s\n", files[i], err.msg);
            return 2;
        }
        for (;;) {
            olevent *ev = NULL;
            int got = olreader_next(r, &ev, NULL, NULL, &err);
            if (got == 0)
                break;
            if (got == 1)
                (*events)++;
            else if (got == OL_EMALFORMED)
                (*malformed)++;
            else {
                fprintf(stderr, "raw_decode: %s: %s\n", files[i], got == OL_ENOMEM ? "out of memory" : err.msg);
                olreader_destroy(&r);
                return 2;
            }
            olreader_release(r, &ev);
        }
        olreader_destroy(&r);
    }
    return 0;
}

int main(int argc, char **argv)
{
    int json = 0, preload = 0, codec = 0, first = 1;
    for (; first < argc && argv[first][0] == '-' && argv[first][1]; first++) {
        if (!strcmp(argv[first], "--json"))
            json = 1;
        else if (!strcmp(argv[first], "--preload"))
            preload = 1;
        else if (!strcmp(argv[first], "--codec"))
            codec = 1;
        else if (!strcmp(argv[first], "--")) {
            first++;
            break;
        } else {
            fprintf(stderr, "usage: raw_decode [--json] [--preload | --codec] FILE...\n");
            return strcmp(argv[first], "--help") ? 2 : 0;
        }
    }
    int n_files = argc - first;
    if (n_files < 1) {
        fprintf(stderr, "usage: raw_decode [--json] [--preload | --codec] FILE...\n");
        return 2;
    }
    if (codec && preload) {
        fprintf(stderr, "raw_decode: --codec reads as verify does: no --preload\n");
        return 2;
    }
    if (codec) {
        long long events = 0, malformed = 0;
        double t0 = now_s();
        if (codec_files(argv + first, n_files, &events, &malformed))
            return 2;
        double secs = now_s() - t0;
        if (secs <= 0)
            secs = 1e-9;
        if (json)
            printf("{\"bench\":\"codec_decode\",\"games\":%d,\"events\":%lld,\"malformed\":%lld,\"seconds\":%.6f,"
                   "\"events_per_s\":%.0f,\"games_per_s\":%.0f}\n",
                   n_files, events, malformed, secs, (double)events / secs, (double)n_files / secs);
        else
            printf("raw_decode --codec: %d games, %lld events (%lld malformed) in %.3f s: %.0f events/s, %.0f games/s\n",
                   n_files, events, malformed, secs, (double)events / secs, (double)n_files / secs);
        return 0;
    }
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    long long events = 0, bytes = 0;
    buf b = {0};
    buf *pre = NULL;
    double t0;
    if (preload) {
        pre = calloc((size_t)n_files, sizeof *pre);
        if (!pre)
            return 2;
        for (int i = 0; i < n_files; i++)
            if (read_file(argv[first + i], &pre[i]))
                return 2;
    }
    t0 = now_s();
    for (int i = 0; i < n_files; i++) {
        buf *f = preload ? &pre[i] : &b;
        if (!preload && read_file(argv[first + i], &b))
            return 2;
        long long n = count_events(&u, f->b, f->n);
        if (n < 0) {
            fprintf(stderr, "raw_decode: %s: not MessagePack\n", argv[first + i]);
            return 1;
        }
        events += n;
        bytes += (long long)f->n;
    }
    double secs = now_s() - t0;
    msgpack_unpacked_destroy(&u);
    if (secs <= 0)
        secs = 1e-9;
    if (json)
        printf("{\"bench\":\"raw_decode\",\"games\":%d,\"events\":%lld,\"bytes\":%lld,\"seconds\":%.6f,"
               "\"events_per_s\":%.0f,\"games_per_s\":%.0f,\"preload\":%s}\n",
               n_files, events, bytes, secs, (double)events / secs, (double)n_files / secs,
               preload ? "true" : "false");
    else
        printf("raw_decode: %d games, %lld events, %lld bytes in %.3f s%s: %.0f events/s, %.0f games/s\n", n_files,
               events, bytes, secs, preload ? " (files read beforehand)" : " (reading included)",
               (double)events / secs, (double)n_files / secs);
    free(b.b);
    if (pre) {
        for (int i = 0; i < n_files; i++)
            free(pre[i].b);
        free(pre);
    }
    return 0;
}
