/* selftest.c -- the power-loss layer tried on a file whose every byte is
 * known (tests/powerloss/README.md; tests/e2e_powerloss.sh runs it).
 *
 *   selftest write FILE [--skip-sync]   write, sync, write more, wait to be killed
 *   selftest check FILE                 after powercut: what survived
 *
 * What `write` does, through each call the library wraps (pwrite, lseek +
 * writev, write, pwritev), with libpowerloss.so preloaded:
 *   1. blocks 0-15 (4 KiB each, generation 0) and fdatasync: durable;
 *   2. 120 bytes at offset 16 through a second descriptor opened O_DSYNC
 *      (as LMDB writes its meta page): durable when pwrite returns;
 *   3. blocks 2-5 again (generation 1) and blocks 16-23 past the end,
 *      with no sync: what a power cut may keep, drop or tear;
 * printing "synced", "dsync" and "written" after each, then waits for
 * SIGKILL.  --skip-sync is the broken writer: it skips the fdatasync and
 * opens the second descriptor without O_DSYNC, and still says "synced" --
 * a program that acknowledges what is not on disk.
 *
 * `check` reads the file after the cut: every byte written in 1 and 2 must
 * be there (else "LOST", exit 1); every 512-byte sector written in 3 must
 * hold one of its versions -- old, new, or zeros past the old end
 * (else "CORRUPT", exit 1).  It prints how many of those sectors the cut
 * kept and put back and how many of the writes of 3 it tore (some sectors
 * of one block kept, others put back): the test sums them over seeds to
 * show that the cut did cut.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define BLOCK 4096
#define SECTOR 512
#define SYNCED 16                  /* blocks 0..15, generation 0          */
#define GROWN 24                   /* blocks 16..23, generation 1          */
#define META_OFF 16
#define META_LEN 120

static uint8_t pattern(unsigned block, unsigned gen, unsigned i)
{
    return (uint8_t)(block * 31 + gen * 101 + i * 7 + (i / SECTOR) * 13 + 1);
}

static void fill(uint8_t *b, unsigned block, unsigned gen)
{
    for (unsigned i = 0; i < BLOCK; i++)
        b[i] = pattern(block, gen, i);
}

/* n blocks from `first`, generation gen, into b[0..n-1] and iov[0..n-1]. */
static void fill_iov(uint8_t (*b)[BLOCK], struct iovec *iov, unsigned first, unsigned n, unsigned gen)
{
    for (unsigned k = 0; k < n; k++) {
        fill(b[k], first + k, gen);
        iov[k] = (struct iovec){b[k], BLOCK};
    }
}

static void say(const char *what)
{
    printf("%s\n", what);
    fflush(stdout);
}

static int fail(const char *what)
{
    perror(what);
    return 2;
}

static int do_write(const char *path, int skip_sync)
{
    static uint8_t b[8][BLOCK];
    struct iovec iov[8];
    int fd = open(path, O_RDWR | O_CREAT, 0600);
    if (fd < 0)
        return fail(path);
    /* 1: blocks 0-3 by pwrite, 4-7 by lseek + writev, 8-11 by write, 12-15 by pwritev */
    for (unsigned k = 0; k < 4; k++) {
        fill(b[0], k, 0);
        if (pwrite(fd, b[0], BLOCK, (off_t)k * BLOCK) != BLOCK)
            return fail("pwrite");
    }
    fill_iov(b, iov, 4, 4, 0);
    if (lseek(fd, 4 * BLOCK, SEEK_SET) < 0 || writev(fd, iov, 4) != 4 * BLOCK)
        return fail("writev");
    for (unsigned k = 8; k < 12; k++) {
        fill(b[0], k, 0);
        if (write(fd, b[0], BLOCK) != BLOCK)
            return fail("write");
    }
    fill_iov(b, iov, 12, 4, 0);
    if (pwritev(fd, iov, 4, 12 * BLOCK) != 4 * BLOCK)
        return fail("pwritev");
    if (!skip_sync && fdatasync(fd))
        return fail("fdatasync");
    say("synced");
    /* 2: the "meta page", through an O_DSYNC descriptor */
    int mfd = open(path, O_WRONLY | O_CLOEXEC | (skip_sync ? 0 : O_DSYNC));
    if (mfd < 0)
        return fail(path);
    fill(b[0], 0, 7);
    if (pwrite(mfd, b[0] + META_OFF, META_LEN, META_OFF) != META_LEN)
        return fail("pwrite");
    say("dsync");
    /* 3: blocks 2-5 again and 16-23 past the end, never synced */
    fill(b[0], 2, 1);
    if (pwrite(fd, b[0], BLOCK, 2 * BLOCK) != BLOCK)
        return fail("pwrite");
    fill_iov(b, iov, 3, 3, 1);
    if (lseek(fd, 3 * BLOCK, SEEK_SET) < 0 || writev(fd, iov, 3) != 3 * BLOCK)
        return fail("writev");
    fill_iov(b, iov, SYNCED, 8, 1);
    if (pwritev(fd, iov, 8, SYNCED * BLOCK) != 8 * BLOCK)
        return fail("pwritev");
    say("written");
    for (;;)
        pause();
}

static int do_check(const char *path)
{
    static uint8_t file[GROWN * BLOCK];
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st))
        return fail(path);
    size_t size = (size_t)st.st_size;
    if (size > sizeof file || size % SECTOR || read(fd, file, size) != (ssize_t)size) {
        printf("CORRUPT: the file is %zu bytes: not a whole number of sectors between 0 and %d\n", size, GROWN * BLOCK);
        return 1;
    }
    close(fd);
    int lost = 0, corrupt = 0;
    unsigned kept = 0, back = 0, torn = 0;
    if (size < SYNCED * BLOCK) {
        printf("LOST: the file is %zu bytes: the synced %d blocks are not all there\n", size, SYNCED);
        return 1;
    }
    for (unsigned blk = 0; blk < GROWN; blk++) {
        unsigned blk_kept = 0, blk_back = 0;
        for (unsigned s = 0; s < BLOCK / SECTOR; s++) {
            size_t at = (size_t)blk * BLOCK + s * SECTOR;
            if (at >= size) {   /* past the end: the cut took it back */
                blk_back++;
                continue;
            }
            int is_old = 1, is_new = 1, is_zero = 1;
            for (unsigned i = s * SECTOR; i < (s + 1) * SECTOR; i++) {
                uint8_t c = file[(size_t)blk * BLOCK + i];
                uint8_t old = blk == 0 && i >= META_OFF && i < META_OFF + META_LEN ? pattern(0, 7, i) : pattern(blk, 0, i);
                is_old &= c == old;
                is_new &= c == pattern(blk, 1, i);
                is_zero &= c == 0;
            }
            if (blk < 2 || (blk >= 6 && blk < SYNCED)) {   /* written in 1 (and 2), durable */
                if (!is_old) {
                    printf("LOST: block %u sector %u is not what was synced\n", blk, s);
                    lost = 1;
                }
            } else if (is_new)
                blk_kept++;
            else if ((blk < SYNCED && is_old) || (blk >= SYNCED && is_zero))
                blk_back++;
            else {
                printf("CORRUPT: block %u sector %u holds none of its versions\n", blk, s);
                corrupt = 1;
            }
        }
        kept += blk_kept;
        back += blk_back;
        torn += blk_kept && blk_back;
    }
    printf("%s: %s; after the last sync, %u sectors kept, %u put back, %u blocks torn; %zu bytes\n",
           lost || corrupt ? "selftest" : "OK", lost ? "synced data LOST" : "every synced byte is there", kept, back,
           torn, size);
    return lost || corrupt;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "write"))
        return do_write(argv[2], argc == 4 && !strcmp(argv[3], "--skip-sync"));
    if (argc == 3 && !strcmp(argv[1], "check"))
        return do_check(argv[2]);
    fprintf(stderr, "usage: selftest write FILE [--skip-sync] | selftest check FILE\n");
    return 2;
}
