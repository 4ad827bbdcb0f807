/* powercut.c -- put a power cut into files, from the undo journal that
 * libpowerloss.so wrote while a process used them (tests/powerloss/README.md).
 *
 *   powercut JOURNAL SEED [--weights KEEP:DROP:TEAR] [-v]
 *
 * What: run once the process that wrote JOURNAL is dead (killed with
 * SIGKILL: the kernel still holds all it wrote).  Every write the journal
 * does not show durable -- after the last fsync/fdatasync of its file, not
 * through an O_DSYNC descriptor, not covered by an msync -- is, at random
 * from SEED, kept as the page cache has it, dropped (the bytes it
 * overwrote put back; past the file's old end, zeros, as a hole reads), or
 * torn (some of the 512-byte sectors it touched put back, the others
 * kept; at least one of each).  The odds are KEEP:DROP:TEAR (1:1:1).  The
 * same journal and seed give the same cut.
 *
 * Why "undo" rather than "redo": the files are left as the dead process
 * left them, which is what a disk with a perfect cache would hold; the cut
 * only takes away.  Undoing the newest write first leaves each sector
 * holding one of the versions it had since its last sync -- for a sector
 * written several times, the one before the oldest dropped write over it,
 * or the newest if none was dropped -- which is what a disk that wrote
 * back its cache in any order and stopped anywhere could hold.
 *
 * The file's size: what it was before its first write that is not
 * durable, grown to the end of the last byte kept after it (a write
 * dropped past that end leaves a hole of zeros inside it, as an extent
 * allocated but never written would read).
 *
 * Output: one sentence, "powercut: seed S: W writes, Y syncs journaled[;
 * killed at its write or sync #N (after a write|before a sync)]; P not
 * durable: K kept, D dropped, T torn (B of N sectors put back)"; with -v,
 * one line per write not durable first.  Exit 0 cut (or nothing to cut);
 * 1 the journal refuses (the process did to a watched file what the
 * simulation cannot model: nothing is cut, the sentence is printed);
 * 2 usage, or the journal or a file cannot be read or written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/powerloss/pljournal.h"

typedef struct {
    uint64_t seq, off, len, size;
    int file;
    const uint8_t *old;            /* len bytes, in the journal            */
    int durable;
    char fate;                     /* 'k' kept, 'd' dropped, 't' torn      */
    uint8_t *back;                 /* torn: 1 per sector piece put back    */
    size_t pieces;
} jwrite;

typedef struct {
    int file;
    uint64_t upto, off, len;
} jrange;

typedef struct {
    uint8_t *bytes;
    size_t len;
    char *path[PL_FILES];
    uint64_t sync_upto[PL_FILES];
    jwrite *w;
    size_t n_w, cap_w;
    jrange *r;
    size_t n_r, cap_r;
    size_t syncs;
    int refused;
    int64_t killed_at;             /* PL_KILL's event, or -1               */
    int killed_before_sync;
} journal;

/* splitmix64: small, and the same everywhere for a seed. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int read_all(const char *path, uint8_t **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 1 << 20, n = 0;
    uint8_t *b = malloc(cap);
    if (!f || !b) {
        if (f)
            fclose(f);
        free(b);
        return -1;
    }
    for (;;) {
        if (n == cap) {
            uint8_t *g = realloc(b, cap *= 2);
            if (!g) {
                free(b);
                fclose(f);
                return -1;
            }
            b = g;
        }
        size_t k = fread(b + n, 1, cap - n, f);
        n += k;
        if (k == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(b);
        return -1;
    }
    *out = b;
    *len = n;
    return 0;
}

static jwrite *find_write(journal *j, uint64_t seq)
{
    size_t lo = 0, hi = j->n_w;   /* seqs are written in increasing order */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (j->w[mid].seq < seq)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < j->n_w && j->w[lo].seq == seq ? &j->w[lo] : NULL;
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    *cap = *cap ? *cap * 2 : 256;
    return realloc(p, *cap * size);
}

/* Read the records; a record cut short at the end (the process was
 * killed while appending it) is ignored.  0, or -1 with a sentence. */
static int parse(journal *j)
{
    size_t at = 0;
    while (at + sizeof(pl_rec) <= j->len) {
        pl_rec h;
        memcpy(&h, j->bytes + at, sizeof h);
        if (h.magic != PL_MAGIC || h.file >= PL_FILES) {
            fprintf(stderr, "powercut: the journal is not one libpowerloss.so wrote (at byte %zu)\n", at);
            return -1;
        }
        size_t body = h.kind == PL_RANGE ? 0 : (size_t)h.len;
        if (j->len - at - sizeof h < body)
            break;   /* the tail of a killed append */
        const uint8_t *data = j->bytes + at + sizeof h;
        at += sizeof h + body;
        switch (h.kind) {
        case PL_OPEN:
            free(j->path[h.file]);
            if (!(j->path[h.file] = strndup((const char *)data, body)))
                return -1;
            break;
        case PL_WRITE:
            if (!(j->w = grow(j->w, &j->cap_w, j->n_w, sizeof *j->w)))
                return -1;
            j->w[j->n_w++] = (jwrite){h.seq, h.off, h.len, h.size, h.file, data, 0, 'k', NULL, 0};
            break;
        case PL_DONE: {
            jwrite *w = find_write(j, h.seq);
            if (w)
                w->durable = 1;
            break;
        }
        case PL_SYNC:
            j->syncs++;
            if (h.seq > j->sync_upto[h.file])
                j->sync_upto[h.file] = h.seq;
            break;
        case PL_RANGE:
            if (!(j->r = grow(j->r, &j->cap_r, j->n_r, sizeof *j->r)))
                return -1;
            j->r[j->n_r++] = (jrange){h.file, h.seq, h.off, h.len};
            break;
        case PL_KILL:
            j->killed_at = (int64_t)h.seq;
            j->killed_before_sync = h.off == 1;
            break;
        case PL_REFUSE:
            printf("powercut: the journal refuses: %.*s\n", (int)body, (const char *)data);
            j->refused = 1;
            break;
        default:
            fprintf(stderr, "powercut: unknown record '%c' in the journal\n", h.kind);
            return -1;
        }
    }
    return 0;
}

/* Durable: synced, written O_DSYNC, or inside a range msync'd after it. */
static void mark_durable(journal *j)
{
    for (size_t i = 0; i < j->n_w; i++) {
        jwrite *w = &j->w[i];
        if (w->seq <= j->sync_upto[w->file])
            w->durable = 1;
        for (size_t k = 0; k < j->n_r && !w->durable; k++) {
            const jrange *r = &j->r[k];
            if (r->file == w->file && w->seq <= r->upto && w->off >= r->off && w->off + w->len <= r->off + r->len)
                w->durable = 1;
        }
    }
}

/* The sector pieces of a write: [off, off+len) cut at multiples of PL_SECTOR. */
static size_t pieces_of(const jwrite *w)
{
    if (!w->len)
        return 0;
    return (size_t)((w->off + w->len - 1) / PL_SECTOR - w->off / PL_SECTOR + 1);
}

/* Piece i of w: [*a, *b). */
static void piece(const jwrite *w, size_t i, uint64_t *a, uint64_t *b)
{
    uint64_t first = w->off / PL_SECTOR + i;
    *a = i ? first * PL_SECTOR : w->off;
    *b = (first + 1) * PL_SECTOR;
    if (*b > w->off + w->len)
        *b = w->off + w->len;
}

static int put_back(int fd, const jwrite *w, uint64_t a, uint64_t b)
{
    const uint8_t *p = w->old + (a - w->off);
    size_t n = (size_t)(b - a);
    while (n) {
        ssize_t k = pwrite(fd, p, n, (off_t)a);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        a += (uint64_t)k;
        n -= (size_t)k;
    }
    return 0;
}

int main(int argc, char **argv)
{
    journal j;
    unsigned wk = 1, wd = 1, wt = 1;
    int verbose = 0;
    const char *jpath = NULL, *seedtext = NULL;
    memset(&j, 0, sizeof j);
    j.killed_at = -1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v"))
            verbose = 1;
        else if (!strcmp(argv[i], "--weights") && i + 1 < argc) {
            if (sscanf(argv[++i], "%u:%u:%u", &wk, &wd, &wt) != 3 || !(wk + wd + wt)) {
                fprintf(stderr, "powercut: --weights KEEP:DROP:TEAR, three numbers, not all 0\n");
                return 2;
            }
        } else if (!jpath)
            jpath = argv[i];
        else if (!seedtext)
            seedtext = argv[i];
        else
            jpath = NULL, i = argc;
    }
    char *end = NULL;
    uint64_t seed = seedtext ? strtoull(seedtext, &end, 10) : 0;
    if (!jpath || !seedtext || !*seedtext || *end) {
        fprintf(stderr, "usage: powercut JOURNAL SEED [--weights KEEP:DROP:TEAR] [-v]\n");
        return 2;
    }
    if (read_all(jpath, &j.bytes, &j.len)) {
        fprintf(stderr, "powercut: cannot read the journal %s: %s\n", jpath, strerror(errno));
        return 2;
    }
    if (parse(&j))
        return 2;
    if (j.refused) {
        printf("powercut: nothing cut: the simulation cannot vouch for what it did not see\n");
        return 1;
    }
    mark_durable(&j);

    /* The fates, in write order, from the seed. */
    uint64_t rng = seed;
    size_t pending = 0, kept = 0, dropped = 0, torn = 0, sectors = 0, sectors_back = 0;
    for (size_t i = 0; i < j.n_w; i++) {
        jwrite *w = &j.w[i];
        if (w->durable)
            continue;
        pending++;
        uint64_t r = rng_next(&rng) % (wk + wd + wt);
        w->fate = r < wk ? 'k' : r < wk + wd ? 'd' : 't';
        w->pieces = pieces_of(w);
        if (w->fate == 't' && w->pieces < 2)   /* one sector tears no further */
            w->fate = rng_next(&rng) & 1 ? 'k' : 'd';
        if (w->fate == 't') {
            size_t back = 0;
            if (!(w->back = calloc(w->pieces, 1)))
                return 2;
            for (size_t p = 0; p < w->pieces; p++)
                back += w->back[p] = rng_next(&rng) & 1;
            if (back == 0 || back == w->pieces) {   /* torn: some of each */
                size_t p = (size_t)(rng_next(&rng) % w->pieces);
                w->back[p] ^= 1;
                back += w->back[p] ? 1 : (size_t)-1;
            }
            sectors += w->pieces;
            sectors_back += back;
        }
        kept += w->fate == 'k';
        dropped += w->fate == 'd';
        torn += w->fate == 't';
        if (verbose) {
            printf("write #%llu of %s: %llu bytes at %llu: %s", (unsigned long long)w->seq,
                   j.path[w->file] ? j.path[w->file] : "?", (unsigned long long)w->len, (unsigned long long)w->off,
                   w->fate == 'k' ? "kept" : w->fate == 'd' ? "dropped" : "torn, sectors put back:");
            for (size_t p = 0; w->fate == 't' && p < w->pieces; p++)
                if (w->back[p])
                    printf(" %zu", p);
            printf("\n");
        }
    }

    /* Undo, newest first, file by file; then the size. */
    for (int f = 0; f < PL_FILES; f++) {
        uint64_t first = 0, base = 0, size = 0;
        for (size_t i = 0; i < j.n_w; i++)
            if (j.w[i].file == f && !j.w[i].durable) {
                first = j.w[i].seq;
                base = j.w[i].size;
                break;
            }
        if (!first)
            continue;
        if (!j.path[f]) {
            fprintf(stderr, "powercut: the journal writes to file %d and never names it\n", f);
            return 2;
        }
        int fd = open(j.path[f], O_RDWR | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat(fd, &st)) {
            fprintf(stderr, "powercut: cannot open %s: %s\n", j.path[f], strerror(errno));
            return 2;
        }
        size = base;
        for (size_t i = j.n_w; i-- > 0;) {
            jwrite *w = &j.w[i];
            if (w->file != f || w->seq < first)
                continue;
            int bad = 0;
            uint64_t last_kept = 0;
            if (w->durable || w->fate == 'k')
                last_kept = w->off + w->len;
            else if (w->fate == 'd')
                bad = put_back(fd, w, w->off, w->off + w->len);
            else
                for (size_t p = 0; p < w->pieces && !bad; p++) {
                    uint64_t a, b;
                    piece(w, p, &a, &b);
                    if (w->back[p])
                        bad = put_back(fd, w, a, b);
                    else if (b > last_kept)
                        last_kept = b;
                }
            if (bad) {
                fprintf(stderr, "powercut: cannot write %s: %s\n", j.path[f], strerror(errno));
                return 2;
            }
            if (last_kept > size)
                size = last_kept;
        }
        if (size > (uint64_t)st.st_size)
            size = (uint64_t)st.st_size;   /* a write journaled, then killed before it wrote */
        if (size < (uint64_t)st.st_size && ftruncate(fd, (off_t)size)) {
            fprintf(stderr, "powercut: cannot truncate %s: %s\n", j.path[f], strerror(errno));
            return 2;
        }
        if (close(fd)) {
            fprintf(stderr, "powercut: cannot write %s: %s\n", j.path[f], strerror(errno));
            return 2;
        }
    }
    char when[96] = "";
    if (j.killed_at >= 0)
        snprintf(when, sizeof when, "; killed at its write or sync #%lld (%s)", (long long)j.killed_at,
                 j.killed_before_sync ? "before a sync" : "after a write");
    printf("powercut: seed %llu: %zu writes, %zu syncs journaled%s; %zu not durable: %zu kept, %zu dropped, %zu torn "
           "(%zu of %zu sectors put back)\n",
           (unsigned long long)seed, j.n_w, j.syncs, when, pending, kept, dropped, torn, sectors_back, sectors);
    for (size_t i = 0; i < j.n_w; i++)
        free(j.w[i].back);
    for (int f = 0; f < PL_FILES; f++)
        free(j.path[f]);
    free(j.w);
    free(j.r);
    free(j.bytes);
    return 0;
}
