/* pljournal.h -- the undo journal of the power-loss simulation: what
 * libpowerloss.so (powerloss.c) writes while the process under test runs,
 * and what powercut (powercut.c) reads once it has been killed
 * (tests/powerloss/README.md).
 *
 * The journal is a file of records, appended in the order they happened
 * (one process writes it, under one lock).  Each record is a fixed header,
 * pl_rec, followed by `len` bytes for the kinds that carry bytes:
 *
 *   PL_OPEN    file `file` is the path that follows (len bytes, no NUL):
 *              written once per watched file, before its first write.
 *   PL_WRITE   write number `seq` is about to put `len` bytes at `off` of
 *              file `file`, whose size is `size` now; the `len` bytes that
 *              follow are what those bytes are before it (zeros past the
 *              end of the file).  Written before the write itself: a kill
 *              between the two leaves a record whose undo restores bytes
 *              that were never changed, which is harmless.
 *   PL_DONE    write `seq` returned, through a descriptor opened O_DSYNC
 *              or O_SYNC (or with RWF_DSYNC): it is durable.
 *   PL_SYNC    fsync or fdatasync of file `file` returned 0: every write
 *              to it numbered `seq` or lower is durable.  (`seq` is the
 *              number of the last write that had returned when the sync
 *              began: a write that overlaps the sync is not covered.)
 *   PL_RANGE   msync(MS_SYNC) returned 0 over bytes [off, off + len) of
 *              file `file`: every write to it numbered `seq` or lower that
 *              lies wholly inside the range is durable.  No bytes follow.
 *   PL_KILL    the library killed the process at its crash point
 *              (POWERLOSS_CRASH_AT): its `seq`-th write or sync of a
 *              watched file, `off` 0 just after a write returned (before
 *              it is marked durable), 1 just before a sync.
 *   PL_REFUSE  the process did something to a watched file that this
 *              simulation does not model (a writable shared mapping,
 *              ftruncate, fallocate, O_TRUNC, a descriptor past the table);
 *              the sentence that follows (len bytes) says what.  powercut
 *              then refuses to cut: a simulation that cannot see a write
 *              cannot vouch for it.
 *
 * A journal may end in the middle of a record (the process was killed
 * while appending it): the reader ignores that tail.  The journal is on
 * the machine's real file system, outside the simulation: it stands for
 * what the disk had been told, not for what it kept.  Integers are in the
 * machine's order (the journal is read on the machine that wrote it).
 */
#ifndef ARBITER_PLJOURNAL_H
#define ARBITER_PLJOURNAL_H

#include <stdint.h>

#define PL_MAGIC 0x504c4a31u       /* "PLJ1" */
#define PL_FILES 8                 /* watched files a journal can name    */
#define PL_SECTOR 512              /* the unit a torn write tears at       */

enum pl_kind { PL_OPEN = 'O', PL_WRITE = 'W', PL_DONE = 'D', PL_SYNC = 'S', PL_RANGE = 'R', PL_KILL = 'K',
              PL_REFUSE = 'X' };

typedef struct {
    uint32_t magic;                /* PL_MAGIC                             */
    uint8_t kind;                  /* enum pl_kind                         */
    uint8_t file;                  /* 0 .. PL_FILES-1                      */
    uint16_t pad;                  /* zero                                 */
    uint64_t seq;                  /* write number, from 1                 */
    uint64_t off;                  /* PL_WRITE, PL_RANGE: byte offset      */
    uint64_t len;                  /* bytes that follow (PL_RANGE: length) */
    uint64_t size;                 /* PL_WRITE: the file's size before it  */
} pl_rec;

#endif
