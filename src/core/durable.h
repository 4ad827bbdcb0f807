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

#include <stddef.h>

/* fsync() the folder `dir`.  0, or -1 with errno. */
int durable_sync_dir(const char *dir);

/* fsync() the folder holding `path` (its parent folder, "." for a bare
 * name).  0, or -1 with errno. */
int durable_sync_parent(const char *path);

/* Replace the file `path` by buf[0..len) whole or not at all: written to a
 * temporary beside it (".NAME.XXXXXX", made by mkstemp), fsync'd, given
 * the mode of the file it replaces (a new file: 0666 less the umask),
 * renamed over path, and the folder fsync'd.  A reader sees the old bytes
 * or the new, never a part; after a power cut, one or the other.  0, or -1
 * with errno and a sentence naming the file in err (errlen bytes); the
 * temporary is removed on failure. */
int durable_replace(const char *path, const void *buf, size_t len, char *err, size_t errlen);

#endif
