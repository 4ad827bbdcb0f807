/* durable.h -- making a new file's name survive a power cut.
 *
 * fsync() of a file makes its bytes durable, not the directory entry that
 * names it: after a power cut a file fsync'd a moment after it was created
 * may be gone, as if never made.  The daemon's key and its store are files
 * whose loss would matter -- a daemon that finds no key makes a new one,
 * and every record sealed by the lost one is then no longer trusted -- so
 * the folder that holds them is fsync'd once they are made.
 */
#ifndef ARBITER_DURABLE_H
#define ARBITER_DURABLE_H

/* fsync() the folder `dir`.  0, or -1 with errno. */
int durable_sync_dir(const char *dir);

/* fsync() the folder holding `path` (its parent folder, "." for a bare
 * name).  0, or -1 with errno. */
int durable_sync_parent(const char *path);

#endif
