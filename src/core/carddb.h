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
 * the installed copy (ARBITER_DATADIR/core.json).  Never NULL. */
const char *carddb_default_path(void);

/* Lower-case hex of the 32-byte hash into out[65]. */
void carddb_hash_hex(const uint8_t hash[32], char out[65]);

#endif
