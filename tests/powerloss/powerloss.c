/* powerloss.c -- libpowerloss.so, an LD_PRELOAD library that writes down
 * what a power cut could take back from a process's files
 * (tests/powerloss/README.md, issue 20).
 *
 * What: a killed process loses nothing the kernel already has; a machine
 * that loses power loses whatever reached the page cache but not the disk
 * -- every write since the file's last fsync -- and may keep some sectors
 * of a write and not others.  arbiterd promises that a verdict it has sent
 * is never lost: it sends one only after the LMDB transaction holding it
 * has committed, which LMDB makes durable with fdatasync on the data file
 * and a meta page written through a second descriptor opened O_DSYNC.
 * This library lets a test hold the daemon to that promise the way
 * SQLite's crash tests hold SQLite to its own: it journals, before each
 * write to a watched file, the bytes that write overwrites, and marks
 * writes durable when the process syncs them.  When the process has been
 * killed, powercut (powercut.c) reads the journal and puts the power cut
 * into the files: each write not durable yet is kept, dropped (its old
 * bytes put back) or torn (some of its 512-byte sectors put back, others
 * kept), at random from a seed.
 *
 * Why a preload and not a patched LMDB: the daemon under test is the real
 * binary with the real liblmdb.so; only libc's file calls are wrapped.
 * What LMDB 0.9.24 calls on its data file (strace -f -e trace=desc on
 * arbiterd): open (twice: O_RDWR, and O_WRONLY|O_DSYNC for the meta
 * pages), pwrite (a single page, the meta pages), lseek + writev (a run of
 * dirty pages), fdatasync, close; it maps the file read-only.  Its lock
 * file is mapped shared and written through the map; it is not watched
 * (what it holds -- the reader table -- is rebuilt by the first process
 * that opens the environment after a reboot).
 *
 * How:
 *   - POWERLOSS_JOURNAL names the journal (appended; unset: the library
 *     does nothing), POWERLOSS_FILES the watched files, colon-separated.
 *     A file is watched when an open of any path gives a descriptor to the
 *     same device and inode as one of them (the file may not exist before).
 *   - A table of descriptors says which are watched, and whether they were
 *     opened O_DSYNC/O_SYNC (a write through them is durable on return)
 *     or O_APPEND; close and dup/dup2/dup3 keep it true.
 *   - write, pwrite, writev, pwritev, pwritev2 (and their 64 names) on a
 *     watched descriptor: under one lock, number the write, read the bytes
 *     it will overwrite through a descriptor of our own, append PL_WRITE
 *     with them to the journal, then write.  On an O_DSYNC descriptor, or
 *     with RWF_DSYNC, a write that returned is then marked PL_DONE.
 *   - fsync and fdatasync of a watched file append PL_SYNC with the number
 *     of the last write that had returned when they began; msync(MS_SYNC)
 *     over a mapping of one appends PL_RANGE for the bytes it covers;
 *     sync and syncfs, PL_SYNC for every watched file (on that device).
 *   - What the journal cannot model is refused in it (PL_REFUSE), and
 *     powercut then refuses to cut: a writable shared mapping of a
 *     watched file (its writes never pass through here; checked at the
 *     first sync), ftruncate, fallocate, an open with O_TRUNC, a watched
 *     descriptor past the table.
 *   - The journal is written with raw system calls, outside the wrappers
 *     and outside any sanitizer's interceptors.  It is not part of the
 *     simulation: a SIGKILL leaves in it everything written before.
 *   - POWERLOSS_CRASH_AT=N kills the process (SIGKILL, from inside) at
 *     its N-th write or sync of a watched file: just after the write
 *     returned, before it is marked durable, or just before the sync.  A
 *     kill from outside at a random moment mostly lands between two
 *     commits, when nothing is pending; this one lands inside a commit,
 *     where the power cut has something to take.  The kill is journaled
 *     (PL_KILL) for powercut to report.
 *   - POWERLOSS_LMDB_UNSAFE makes the self-test's broken daemons, which
 *     acknowledge verdicts before they are durable: "nometasync" adds
 *     MDB_NOMETASYNC to mdb_env_open (LMDB writes its meta page through
 *     the ordinary descriptor and does not sync it: the last commit is not
 *     durable until the next), "nosync" MDB_NOSYNC (no commit is ever
 *     synced).  The simulation must then find acknowledged verdicts lost
 *     or the store broken (tests/e2e_powerloss.sh).  The switch exists
 *     only here, in the test library, never in the product.
 *
 * Not modelled (README.md says why that is enough): writes reordered
 * within one fsync interval beyond what keeping and dropping each write
 * independently gives (it gives every subset, which covers any order);
 * the directory entry of a file created since the last sync of its
 * directory; a sector corrupted rather than old or new; a disk that lies
 * about fsync.  fcntl(F_DUPFD) and fork are not followed (arbiterd and
 * LMDB use neither on the store).
 */
#undef _FORTIFY_SOURCE
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <lmdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

#include "tests/powerloss/pljournal.h"

#define FD_MAX 4096                /* descriptors the table follows        */
#define PATH_CAP 4096

typedef struct {
    char path[PATH_CAP];           /* as POWERLOSS_FILES names it          */
    int rfd;                       /* our own read-only descriptor, or -1  */
    int named;                     /* PL_OPEN written                      */
    dev_t dev;                     /* when rfd >= 0                        */
    ino_t ino;
} watched_file;

typedef struct {
    uint8_t file;                  /* 1 + index into files; 0: not watched */
    uint8_t dsync;                 /* opened O_DSYNC or O_SYNC             */
    uint8_t append;                /* opened O_APPEND                      */
} fd_state;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int jfd = -1;               /* the journal; -1: the library is off  */
static unsigned unsafe_flags;      /* POWERLOSS_LMDB_UNSAFE's LMDB flags   */
static uint64_t crash_at;          /* POWERLOSS_CRASH_AT; 0: never         */
static uint64_t io_events;         /* writes and syncs of watched files    */
static int maps_checked;           /* the writable-mapping check was made  */
static watched_file files[PL_FILES];
static int n_files;
static fd_state fds[FD_MAX];
static uint64_t last_seq;          /* the number of the last write begun   */
static uint64_t done_seq;          /* ... and of the last that returned     */
static uint8_t copybuf[1 << 16];   /* old bytes on their way to the journal */

/* ---- raw system calls: the journal and our own reads go round the wrappers ---------- */

static long sys_pread(int fd, void *buf, size_t n, off_t off)
{
    return syscall(SYS_pread64, fd, buf, n, off);
}

static int sys_fstat(int fd, struct stat *st)
{
    return (int)syscall(SYS_fstat, fd, st);
}

/* The simulation cannot go on: a journal with a hole would make the cut
 * lie.  "libpowerloss: WHAT: DETAIL" on stderr, and abort. */
static void die(const char *what, const char *detail)
{
    static const char pre[] = "libpowerloss: ";
    syscall(SYS_write, 2, pre, sizeof pre - 1);
    syscall(SYS_write, 2, what, strlen(what));
    syscall(SYS_write, 2, ": ", 2);
    syscall(SYS_write, 2, detail, strlen(detail));
    syscall(SYS_write, 2, "\n", 1);
    abort();
}

static void jwrite(const void *p, size_t n)
{
    const uint8_t *b = p;
    while (n) {
        long w = syscall(SYS_write, jfd, b, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            die("cannot write the journal", strerror(errno));
        b += w;
        n -= (size_t)w;
    }
}

static void jrec(uint8_t kind, int file, uint64_t seq, uint64_t off, uint64_t len, uint64_t size)
{
    pl_rec r = {PL_MAGIC, kind, (uint8_t)file, 0, seq, off, len, size};
    jwrite(&r, sizeof r);
}

/* PL_REFUSE with a sentence (lock held). */
static void refuse(int file, const char *why)
{
    jrec(PL_REFUSE, file, last_seq, 0, strlen(why), 0);
    jwrite(why, strlen(why));
}

/* One more write (is_sync 0, just after it returned) or sync (1, just
 * before it) of a watched file: at the crash point, journal it and die as
 * the power does (lock held). */
static void io_event(int is_sync)
{
    if (!crash_at || ++io_events != crash_at)
        return;
    jrec(PL_KILL, 0, io_events, (uint64_t)is_sync, 0, 0);
    syscall(SYS_kill, syscall(SYS_getpid), SIGKILL);
    for (;;)
        pause();
}

/* ---- setup -------------------------------------------------------------------------------- */

__attribute__((constructor)) static void powerloss_init(void)
{
    const char *j = getenv("POWERLOSS_JOURNAL"), *list = getenv("POWERLOSS_FILES");
    const char *unsafe = getenv("POWERLOSS_LMDB_UNSAFE"), *at = getenv("POWERLOSS_CRASH_AT");
    if (unsafe && !strcmp(unsafe, "nosync"))
        unsafe_flags = MDB_NOSYNC;
    else if (unsafe && !strcmp(unsafe, "nometasync"))
        unsafe_flags = MDB_NOMETASYNC;
    else if (unsafe)
        die("POWERLOSS_LMDB_UNSAFE", "nosync or nometasync");
    crash_at = at ? strtoull(at, NULL, 10) : 0;
    if (!j || !*j || !list)
        return;
    for (const char *p = list; *p && n_files < PL_FILES;) {
        size_t n = strcspn(p, ":");
        if (n && n < PATH_CAP) {
            memcpy(files[n_files].path, p, n);
            files[n_files].path[n] = 0;
            files[n_files].rfd = -1;
            n_files++;
        }
        p += n + (p[n] == ':');
    }
    jfd = (int)syscall(SYS_openat, AT_FDCWD, j, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (jfd < 0)
        die(j, strerror(errno));
}

#define REAL(name)                                                   \
    static __typeof__(name) *real_##name;                            \
    if (!real_##name)                                                \
        real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

/* The watched file an open descriptor is, or -1. */
static int which_file(int fd)
{
    struct stat st, t;
    if (sys_fstat(fd, &st) || !S_ISREG(st.st_mode))
        return -1;
    for (int i = 0; i < n_files; i++)
        if (!stat(files[i].path, &t) && t.st_dev == st.st_dev && t.st_ino == st.st_ino)
            return i;
    return -1;
}

/* After an open that gave fd (or failed: fd < 0): follow it if it is a
 * watched file.  Keeps errno. */
static int opened(int fd, int flags)
{
    if (fd < 0 || jfd < 0)
        return fd;
    int saved = errno, f = which_file(fd);
    pthread_mutex_lock(&lock);
    if (fd < FD_MAX)
        fds[fd] = (fd_state){0, 0, 0};
    if (f >= 0) {
        watched_file *w = &files[f];
        if (w->rfd < 0) {
            struct stat st;
            w->rfd = (int)syscall(SYS_openat, AT_FDCWD, w->path, O_RDONLY | O_CLOEXEC);
            if (w->rfd < 0 || sys_fstat(w->rfd, &st))
                die(w->path, strerror(errno));
            w->dev = st.st_dev;
            w->ino = st.st_ino;
        }
        if (!w->named) {
            jrec(PL_OPEN, f, last_seq, 0, strlen(w->path), 0);
            jwrite(w->path, strlen(w->path));
            w->named = 1;
        }
        if (fd >= FD_MAX)
            refuse(f, "a watched file was opened as a descriptor past the library's table");
        else
            fds[fd] = (fd_state){(uint8_t)(f + 1), (flags & O_DSYNC) == O_DSYNC, (flags & O_APPEND) != 0};
        if (flags & O_TRUNC)
            refuse(f, "a watched file was opened with O_TRUNC");
    }
    pthread_mutex_unlock(&lock);
    errno = saved;
    return fd;
}

static mode_t mode_arg(int flags, va_list ap)
{
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, unsigned) : 0;
}

/* Each open call: open, then follow the descriptor if it is a watched
 * file.  NAME, its parameters, the arguments it passes on (`mode` read
 * from the variadic ones when O_CREAT or O_TMPFILE asks for it). */
#define WRAP_OPEN(NAME, PARAMS, ARGS)               \
    int NAME PARAMS                                 \
    {                                               \
        va_list ap;                                 \
        va_start(ap, flags);                        \
        mode_t mode = mode_arg(flags, ap);          \
        va_end(ap);                                 \
        REAL(NAME);                                 \
        return opened(real_##NAME ARGS, flags);     \
    }

WRAP_OPEN(open, (const char *path, int flags, ...), (path, flags, mode))
WRAP_OPEN(open64, (const char *path, int flags, ...), (path, flags, mode))
WRAP_OPEN(openat, (int dir, const char *path, int flags, ...), (dir, path, flags, mode))
WRAP_OPEN(openat64, (int dir, const char *path, int flags, ...), (dir, path, flags, mode))

/* _FORTIFY_SOURCE's checked opens (no mode). */
#define WRAP_OPEN_2(NAME, PARAMS, ARGS)             \
    int NAME PARAMS;                                \
    int NAME PARAMS                                 \
    {                                               \
        REAL(NAME);                                 \
        return opened(real_##NAME ARGS, flags);     \
    }

WRAP_OPEN_2(__open_2, (const char *path, int flags), (path, flags))
WRAP_OPEN_2(__open64_2, (const char *path, int flags), (path, flags))
WRAP_OPEN_2(__openat_2, (int dir, const char *path, int flags), (dir, path, flags))
WRAP_OPEN_2(__openat64_2, (int dir, const char *path, int flags), (dir, path, flags))

int creat(const char *path, mode_t mode)
{
    REAL(creat);
    return opened(real_creat(path, mode), O_CREAT | O_WRONLY | O_TRUNC);
}

int creat64(const char *path, mode_t mode)
{
    REAL(creat64);
    return opened(real_creat64(path, mode), O_CREAT | O_WRONLY | O_TRUNC);
}

int close(int fd)
{
    REAL(close);
    if (jfd >= 0 && fd >= 0 && fd < FD_MAX) {
        pthread_mutex_lock(&lock);
        fds[fd] = (fd_state){0, 0, 0};
        pthread_mutex_unlock(&lock);
    }
    return real_close(fd);
}

/* After a dup that made `to` a copy of `from`. */
static int duped(int from, int to)
{
    if (to < 0 || jfd < 0 || to >= FD_MAX)
        return to;
    pthread_mutex_lock(&lock);
    fds[to] = from >= 0 && from < FD_MAX ? fds[from] : (fd_state){0, 0, 0};
    pthread_mutex_unlock(&lock);
    return to;
}

int dup(int fd)
{
    REAL(dup);
    return duped(fd, real_dup(fd));
}

int dup2(int fd, int to)
{
    REAL(dup2);
    return duped(fd, real_dup2(fd, to));
}

int dup3(int fd, int to, int flags)
{
    REAL(dup3);
    return duped(fd, real_dup3(fd, to, flags));
}

/* ---- writes ------------------------------------------------------------------------------- */

/* A write under way: file -1 when the descriptor is not watched (then the
 * lock is not held). */
typedef struct {
    int file;
    int dsync;
    uint64_t seq;
    int saved_errno;
} pending;

/* Before a write of n bytes at `off` (-1: the descriptor's position) to fd:
 * when fd is watched, take the lock and journal what the write overwrites.
 * `flags`: pwritev2's RWF_* (0 otherwise). */
static pending begin(int fd, int64_t off, size_t n, int flags)
{
    pending p = {-1, 0, 0, 0};
    if (jfd < 0 || fd < 0 || fd >= FD_MAX)
        return p;
    p.saved_errno = errno;
    pthread_mutex_lock(&lock);
    if (!fds[fd].file) {
        pthread_mutex_unlock(&lock);
        return p;
    }
    watched_file *w = &files[fds[fd].file - 1];
    struct stat st;
    /* a descriptor closed where we could not see it (fclose, close_range)
     * and its number given to something else is not the file any more */
    if (sys_fstat(fd, &st) || st.st_dev != w->dev || st.st_ino != w->ino) {
        fds[fd] = (fd_state){0, 0, 0};
        pthread_mutex_unlock(&lock);
        return p;
    }
    p.file = fds[fd].file - 1;
    p.dsync = fds[fd].dsync || (flags & (RWF_DSYNC | RWF_SYNC));
    uint64_t size = (uint64_t)st.st_size;
    if (fds[fd].append || (flags & RWF_APPEND))
        off = (int64_t)size;
    else if (off < 0 && (off = (int64_t)syscall(SYS_lseek, fd, 0, SEEK_CUR)) < 0)
        die("lseek", strerror(errno));
    p.seq = ++last_seq;
    jrec(PL_WRITE, p.file, p.seq, (uint64_t)off, n, size);
    for (size_t done = 0; done < n;) {
        size_t k = n - done < sizeof copybuf ? n - done : sizeof copybuf;
        long r = (uint64_t)off + done < size ? sys_pread(w->rfd, copybuf, k, off + (off_t)done) : 0;
        if (r < 0)
            die(w->path, strerror(errno));
        memset(copybuf + r, 0, k - (size_t)r);   /* past the end: a hole reads zeros */
        jwrite(copybuf, k);
        done += k;
    }
    errno = p.saved_errno;
    return p;
}

/* After the write returned r: mark it durable if it went through an
 * O_DSYNC descriptor, release the lock.  Keeps the write's errno. */
static void end(pending *p, ssize_t r)
{
    if (p->file < 0)
        return;
    int e = errno;
    done_seq = p->seq;
    io_event(0);
    if (r >= 0 && p->dsync)
        jrec(PL_DONE, p->file, p->seq, 0, 0, 0);
    pthread_mutex_unlock(&lock);
    errno = e;
}

static size_t iov_bytes(const struct iovec *iov, int n)
{
    size_t t = 0;
    for (int i = 0; i < n; i++)
        t += iov[i].iov_len;
    return t;
}

/* Each write call: journal (begin), write, mark (end).  NAME, its
 * parameters, the offset it writes at (-1: the descriptor's position), its
 * length in bytes, its RWF_* flags, and the arguments it passes on. */
#define WRAP_WRITE(NAME, PARAMS, OFF, LEN, FLAGS, ARGS)   \
    ssize_t NAME PARAMS                                   \
    {                                                     \
        REAL(NAME);                                       \
        pending p = begin(fd, OFF, LEN, FLAGS);           \
        ssize_t r = real_##NAME ARGS;                     \
        end(&p, r);                                       \
        return r;                                         \
    }

WRAP_WRITE(write, (int fd, const void *buf, size_t n), -1, n, 0, (fd, buf, n))
WRAP_WRITE(pwrite, (int fd, const void *buf, size_t n, off_t off), off, n, 0, (fd, buf, n, off))
WRAP_WRITE(pwrite64, (int fd, const void *buf, size_t n, off64_t off), off, n, 0, (fd, buf, n, off))
WRAP_WRITE(writev, (int fd, const struct iovec *iov, int cnt), -1, iov_bytes(iov, cnt), 0, (fd, iov, cnt))
WRAP_WRITE(pwritev, (int fd, const struct iovec *iov, int cnt, off_t off), off, iov_bytes(iov, cnt), 0,
           (fd, iov, cnt, off))
WRAP_WRITE(pwritev64, (int fd, const struct iovec *iov, int cnt, off64_t off), off, iov_bytes(iov, cnt), 0,
           (fd, iov, cnt, off))
WRAP_WRITE(pwritev2, (int fd, const struct iovec *iov, int cnt, off_t off, int flags), off, iov_bytes(iov, cnt), flags,
           (fd, iov, cnt, off, flags))
WRAP_WRITE(pwritev64v2, (int fd, const struct iovec *iov, int cnt, off64_t off, int flags), off, iov_bytes(iov, cnt),
           flags, (fd, iov, cnt, off, flags))

/* ---- what the journal cannot model -------------------------------------------------------- */

static void refuse_fd(int fd, const char *why)
{
    if (jfd < 0 || fd < 0 || fd >= FD_MAX)
        return;
    pthread_mutex_lock(&lock);
    if (fds[fd].file)
        refuse(fds[fd].file - 1, why);
    pthread_mutex_unlock(&lock);
}

int ftruncate(int fd, off_t len)
{
    REAL(ftruncate);
    refuse_fd(fd, "ftruncate of a watched file (its size change is not journaled)");
    return real_ftruncate(fd, len);
}

int ftruncate64(int fd, off64_t len)
{
    REAL(ftruncate64);
    refuse_fd(fd, "ftruncate of a watched file (its size change is not journaled)");
    return real_ftruncate64(fd, len);
}

int fallocate(int fd, int mode, off_t off, off_t len)
{
    REAL(fallocate);
    refuse_fd(fd, "fallocate on a watched file (not journaled)");
    return real_fallocate(fd, mode, off, len);
}

/* ---- syncs -------------------------------------------------------------------------------- */

/* Each mapping of a watched file in /proc/self/maps overlapping
 * [lo, hi) (lo == hi == 0: every mapping), given to fn with the file, the
 * file offset the overlap starts at, its length, and whether the mapping
 * is shared and writable.  Lock held. */
static void each_mapping(uintptr_t lo, uintptr_t hi, void (*fn)(int file, uint64_t off, uint64_t len, int rw_shared,
                                                               void *ctx), void *ctx)
{
    char buf[8192];
    size_t have = 0;
    int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        die("/proc/self/maps", strerror(errno));
    for (;;) {
        long r = syscall(SYS_read, fd, buf + have, sizeof buf - 1 - have);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            die("/proc/self/maps", strerror(errno));
        have += (size_t)r;
        buf[have] = 0;
        char *line = buf, *nl;
        while ((nl = strchr(line, '\n'))) {
            *nl = 0;
            unsigned long start, stop, moff, maj, min, ino;
            char perms[8];
            if (sscanf(line, "%lx-%lx %7s %lx %lx:%lx %lu", &start, &stop, perms, &moff, &maj, &min, &ino) == 7 && ino) {
                for (int f = 0; f < n_files; f++) {
                    if (files[f].rfd < 0 || files[f].ino != ino || files[f].dev != makedev(maj, min))
                        continue;
                    uintptr_t a = lo || hi ? (lo > start ? lo : start) : start;
                    uintptr_t b = lo || hi ? (hi < stop ? hi : stop) : stop;
                    if (a < b)
                        fn(f, moff + (a - start), b - a, perms[1] == 'w' && perms[3] == 's', ctx);
                }
            }
            line = nl + 1;
        }
        have -= (size_t)(line - buf);
        memmove(buf, line, have);
        if (r == 0 || have >= sizeof buf - 1)
            break;
    }
    syscall(SYS_close, fd);
}

static void refuse_writable(int file, uint64_t off, uint64_t len, int rw_shared, void *ctx)
{
    if (rw_shared)
        refuse(file, "a watched file is mapped shared and writable: writes through the map are not journaled");
}

/* Once per process, at the first sync: a writable shared mapping of a
 * watched file (LMDB's MDB_WRITEMAP) would write behind our back. */
static void check_maps(void)
{
    if (!maps_checked) {
        maps_checked = 1;
        each_mapping(0, 0, refuse_writable, NULL);
    }
}

/* fsync and fdatasync: the writes to a watched file that had returned
 * when the sync began are durable once it returns 0. */
static int file_sync(int fd, int (*real)(int))
{
    if (jfd < 0 || fd < 0 || fd >= FD_MAX)
        return real(fd);
    pthread_mutex_lock(&lock);
    int f = fds[fd].file - 1;
    uint64_t upto = done_seq;
    if (f >= 0) {
        check_maps();
        io_event(1);
    }
    pthread_mutex_unlock(&lock);
    int r = real(fd);
    if (!r && f >= 0) {
        int e = errno;
        pthread_mutex_lock(&lock);
        jrec(PL_SYNC, f, upto, 0, 0, 0);
        pthread_mutex_unlock(&lock);
        errno = e;
    }
    return r;
}

int fsync(int fd)
{
    REAL(fsync);
    return file_sync(fd, real_fsync);
}

int fdatasync(int fd)
{
    REAL(fdatasync);
    return file_sync(fd, real_fdatasync);
}

typedef struct {
    uint64_t upto;
    int n;
    struct {
        int file;
        uint64_t off, len;
    } hit[16];
} msync_hits;

static void note_range(int file, uint64_t off, uint64_t len, int rw_shared, void *ctx)
{
    msync_hits *h = ctx;
    if (rw_shared)
        refuse(file, "a watched file is mapped shared and writable: writes through the map are not journaled");
    if (h->n < 16) {
        h->hit[h->n].file = file;
        h->hit[h->n].off = off;
        h->hit[h->n].len = len;
        h->n++;
    }
}

int msync(void *addr, size_t len, int flags)
{
    REAL(msync);
    msync_hits h = {0, 0, {{0, 0, 0}}};
    if (jfd >= 0 && (flags & MS_SYNC)) {
        pthread_mutex_lock(&lock);
        h.upto = done_seq;
        each_mapping((uintptr_t)addr, (uintptr_t)addr + len, note_range, &h);
        pthread_mutex_unlock(&lock);
    }
    int r = real_msync(addr, len, flags);
    if (!r && h.n) {
        int e = errno;
        pthread_mutex_lock(&lock);
        for (int i = 0; i < h.n; i++)
            jrec(PL_RANGE, h.hit[i].file, h.upto, h.hit[i].off, h.hit[i].len, 0);
        pthread_mutex_unlock(&lock);
        errno = e;
    }
    return r;
}

/* Every watched file (on device dev; 0: any) is durable up to what had
 * returned before: sync(2), syncfs(2). */
static uint64_t sync_begin(void)
{
    pthread_mutex_lock(&lock);
    uint64_t upto = done_seq;
    pthread_mutex_unlock(&lock);
    return upto;
}

static void sync_all(uint64_t upto, int any, dev_t dev)
{
    pthread_mutex_lock(&lock);
    for (int f = 0; f < n_files; f++)
        if (files[f].rfd >= 0 && (any || files[f].dev == dev))
            jrec(PL_SYNC, f, upto, 0, 0, 0);
    pthread_mutex_unlock(&lock);
}

void sync(void)
{
    REAL(sync);
    if (jfd < 0) {
        real_sync();
        return;
    }
    uint64_t upto = sync_begin();
    real_sync();
    sync_all(upto, 1, 0);
}

int syncfs(int fd)
{
    REAL(syncfs);
    struct stat st;
    if (jfd < 0 || sys_fstat(fd, &st))
        return real_syncfs(fd);
    uint64_t upto = sync_begin();
    int r = real_syncfs(fd);
    if (!r)
        sync_all(upto, 0, st.st_dev);
    return r;
}

/* ---- the self-test's broken daemons -------------------------------------------------------- */

int mdb_env_open(MDB_env *env, const char *path, unsigned int flags, mdb_mode_t mode)
{
    REAL(mdb_env_open);
    if (!(flags & MDB_RDONLY))
        flags |= unsafe_flags;
    return real_mdb_env_open(env, path, flags, mode);
}
