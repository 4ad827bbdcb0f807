/* olstream.h -- read and write whole open logs: .mlog and .jsonl files.
 *
 * A reader yields the events of a file one at a time.  A malformed event
 * does not end a .jsonl file (each line stands alone) but does end a .mlog
 * file when its structure is broken, because the next event's start cannot
 * be known; a structurally sound but invalid event (wrong type, unknown
 * key value) is reported and skipped.  The encoding is chosen by the file
 * extension (olstream_encoding_of) or given explicitly; "-" is stdin/stdout.
 */
#ifndef ARBITER_OLSTREAM_H
#define ARBITER_OLSTREAM_H

#include <stddef.h>
#include <stdio.h>

#include "logformat/olcodec.h"

#define OL_FILE_MAX ((size_t)1 << 30)   /* a log file of at most 1 GiB */

/* OL_ENC_MSGPACK for ".mlog", OL_ENC_JSON for ".jsonl"/".json"; -1 else. */
int olstream_encoding_of(const char *path);

/* Read a whole file (or stdin for "-") into a new malloc'd buffer, NUL-
 * terminated, at most `max` bytes.  Errors: OL_EIO (errno kept), OL_ENOMEM,
 * OL_EMALFORMED when the file is larger than max (msg in err). */
int olstream_read_file(const char *path, size_t max, char **buf, size_t *len,
                       olerror *err);

typedef struct olreader olreader;

/* A reader over a memory buffer it takes ownership of (free()d on destroy). */
olreader *olreader_new(char *buf, size_t len, ol_encoding enc);
/* Open a file ("-": stdin) for streaming; enc < 0 picks it by extension. */
int olreader_open(const char *path, int enc, olreader **out, olerror *err);
void olreader_destroy(olreader **r);

/* Next event.  Returns 1 and *ev (owned by the caller) on an event, 0 at the
 * end, OL_EMALFORMED with err filled for a bad event (call again to go on;
 * after a structural .mlog error the next call returns 0), OL_ENOMEM.
 * raw and raw_len (may be NULL) point at the event's bytes, valid until
 * the next call.  Memory stays bounded (a window of a few event sizes)
 * however long the input is. */
int olreader_next(olreader *r, olevent **ev, const char **raw, size_t *raw_len,
                  olerror *err);

/* Destroy an event this reader returned, keeping its memory for the next
 * one (olevent_destroy() does the same without that); *ev becomes NULL. */
void olreader_release(olreader *r, olevent **ev);

/* Write one event to a stream in an encoding (JSON gets a '\n'). */
int olstream_write(FILE *f, const olevent *ev, ol_encoding enc);

#endif
