/* carddb.h -- load a card database from its JSON file
 * (format: fixtures/cards/README.md) into a sealed `cards` object.
 *
 * The database's identity is its content hash: BLAKE2b-256 (libsodium
 * crypto_generichash) of the exact file bytes, kept with cards_set_hash().
 */
#ifndef ARBITER_CARDDB_H
#define ARBITER_CARDDB_H

#include <stddef.h>
#include "verifiers/cards.h"

#define CARDDB_FILE_MAX ((size_t)64 << 20)  /* 64 MiB */

/* Parse `len` bytes of JSON.  On success returns 0 and a sealed database in
 * *out.  On failure returns a negative CARDS_E* code, *out is NULL, and
 * `err` (errlen bytes, always NUL-terminated) holds one problem per line,
 * each a sentence naming the card and what is wrong; the first line starts
 * with the source name. */
int carddb_load_buffer(const char *buf, size_t len, const char *source,
                       cards **out, char *err, size_t errlen);

/* Read and parse a file.  An unreadable file is CARDS_EARG with a message. */
int carddb_load_file(const char *path, cards **out, char *err, size_t errlen);

/* The database to use when no --cards is given: $ARBITER_CARDS if set, else
 * fixtures/cards/core.json if it exists under the current directory, else
 * the installed copy (ARBITER_DATADIR/core.json).  Never NULL.  The first
 * of carddb_default_paths(). */
const char *carddb_default_path(void);

/* The databases a command holds when no --cards is given (arbiter(1),
 * FILES): $ARBITER_CARDS alone if set; else core.json, standard.json and
 * core-1.0.0.json, in that order, from fixtures/cards/ when
 * fixtures/cards/core.json exists under the current directory, else from
 * ARBITER_DATADIR.  Sets *paths to a static array; returns its length
 * (at least 1, at most CARDDB_SHELF_MAX).  Reads the environment: call it
 * (and carddb_default_path()) before starting threads. */
int carddb_default_paths(const char *const **paths);

/* 1 when `named` ("set@version", as a header's `cards`) names db; 0 else,
 * and for NULL. */
int carddb_is_named(const cards *db, const char *named);

/* ---- a shelf: the databases a command judges logs with -----------------
 *
 * Each log is judged with the database its header names; when none on the
 * shelf has that name, with the first (the header is then judged
 * openlog:cards, as with a single database).  A shelf is read-only once
 * loaded: threads may pick from one at once. */
#define CARDDB_SHELF_MAX 8

typedef struct carddb_shelf carddb_shelf;

/* Load every file (at least 1, at most CARDDB_SHELF_MAX), all or nothing.
 * 0 and a new shelf in *out; or the negative CARDS_E* code of the first
 * file that cannot be read or loaded, with *out NULL and its problems in
 * `err` as carddb_load_file() writes them. */
int carddb_shelf_load(const char *const *paths, int n, carddb_shelf **out, char *err, size_t errlen);

/* The database `named` names ("set@version"; NULL for none); the first
 * loaded when none does.  Never NULL; valid until the shelf is destroyed. */
const cards *carddb_shelf_pick(const carddb_shelf *s, const char *named);

/* Frees every database and sets *s to NULL.  NULL-safe. */
void carddb_shelf_destroy(carddb_shelf **s);

/* Lower-case hex of the 32-byte hash into out[65]. */
void carddb_hash_hex(const uint8_t hash[32], char out[65]);

#endif
