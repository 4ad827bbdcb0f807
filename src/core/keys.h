/* keys.h -- who is who: key files, the keyring, and CURVE for clients.
 *
 * Every party at a venue has a key made by `arbiter keygen`: a CURVE pair
 * (libzmq, Z85 text) that the daemon's ZAP handler checks at every
 * handshake, and an Ed25519 pair (libsodium) with which the daemon signs
 * the seals of its records (seal.h).  The daemon knows its clients by a
 * keyring: one line per public key, with a name and a role.
 * arbiter-keyring(5) is the format of both files; this header is their manual.
 *
 * Nothing here keeps global state; a keyring is immutable once loaded (a
 * reload makes a new one), so a pointer into it stays valid until
 * keyring_destroy().
 */
#ifndef ARBITER_KEYS_H
#define ARBITER_KEYS_H

#include <stddef.h>
#include <stdint.h>

#define KEYS_NAME_MAX 64
#define KEYS_Z85 40                /* a 32-byte key in Z85 characters      */
#define KEYS_RING_MAX 10000        /* keys a keyring may hold (arbiterd(8)) */

typedef enum { KEYS_TABLE, KEYS_JUDGE, KEYS_ORGANISER, KEYS_VIEWER, KEYS_BROADCAST, KEYS_ROLE_COUNT } keys_role;

/* A key file's contents.  has_secret: the secret halves were read (a .key
 * file); a .pub file gives the public halves only. */
typedef struct {
    char name[KEYS_NAME_MAX + 1];
    uint8_t curve_public[32], curve_secret[32];
    uint8_t sign_public[32], sign_secret[64];
    int has_secret;
} keys_pair;

/* "table", "judge", "organiser", "viewer". */
const char *keys_role_name(keys_role r);

/* 1 when `name` is a valid key name: 1-64 of [A-Za-z0-9._:-]. */
int keys_name_ok(const char *name);

/* A new pair named `name` (keys_name_ok).  0, or -1 (bad name). */
int keys_generate(const char *name, keys_pair *out);

/* Write PREFIX.key (mode 0600, secrets included) and PREFIX.pub (0644);
 * neither may exist already.  0, or -1 with one sentence in err. */
int keys_write(const keys_pair *k, const char *prefix, char *err, size_t errlen);

/* Read a .key or .pub file.  0, or -1 with one sentence in err (naming the
 * file and line). */
int keys_read(const char *path, keys_pair *out, char *err, size_t errlen);

/* A CURVE key pair, or a public key, from a file in any of the forms a
 * client may have (arbiter-keyring(5)): an arbiter key file (its curve-public and
 * curve-secret lines; its name and signing keys are not needed); the
 * output of libzmq's curve_keygen ("== CURVE PUBLIC KEY ==", the key on
 * the next line, the same for the secret key; its other lines are
 * skipped); a ZeroMQ certificate as czmq's zcert and pyzmq's zmq.auth
 * write it (public-key = "...", secret-key = "..."); or the keys alone in
 * Z85, one a line, as zmq_curve_keypair() gives them (in either order).
 * A secret key alone gives its public key.  0 with *has_secret (sec is
 * set only then), or -1 with one sentence in err: no key, a key that is
 * not Z85, more keys than a pair, halves that do not belong together. */
int keys_read_curve(const char *path, uint8_t pub[32], uint8_t sec[32], int *has_secret, char *err, size_t errlen);

/* A server's CURVE public key given on a command line: 40 Z85 characters,
 * or the path of a file holding it (keys_read_curve).  0, or -1 with err. */
int keys_server_public(const char *text, uint8_t out[32], char *err, size_t errlen);

/* Z85 text of a 32-byte key (41 bytes with the NUL); hex of 32 bytes (65). */
void keys_z85(const uint8_t key[32], char out[KEYS_Z85 + 1]);
int keys_from_z85(const char *z85, uint8_t out[32]);   /* 0, or -1 */

/* Make `sock` (a ZeroMQ client socket) speak CURVE: its own pair from the
 * key file `keyfile` (keys_read_curve: a client needs its CURVE pair only;
 * signing keys are the daemon's), the server's public key from
 * `server_key` (keys_server_public).  Both NULL: nothing to do (a plain socket).  One
 * without the other is an error.  Call before zmq_connect.  0, or -1 with
 * err. */
int keys_client_secure(void *sock, const char *keyfile, const char *server_key, char *err, size_t errlen);

/* ---- the keyring ---------------------------------------------------- */

typedef struct {
    uint8_t key[32];               /* the CURVE public key                */
    char z85[KEYS_Z85 + 1];
    char name[KEYS_NAME_MAX + 1];
    keys_role role;
} keys_entry;

typedef struct keyring keyring;

/* Load `path` (arbiter-keyring(5)).  0 and *out, or -1 and *out NULL with one
 * sentence in err naming the file and the line at fault: a missing file,
 * an unknown role, a bad name or key, a name or key listed twice, more
 * than KEYS_RING_MAX keys. */
int keyring_load(const char *path, keyring **out, char *err, size_t errlen);

/* The entry for a public key (32 bytes, or Z85 text), or NULL.  Valid
 * until keyring_destroy(). */
const keys_entry *keyring_find(const keyring *r, const uint8_t key[32]);
const keys_entry *keyring_find_z85(const keyring *r, const char *z85);

size_t keyring_size(const keyring *r);

/* NULL-safe; sets *r to NULL. */
void keyring_destroy(keyring **r);

/* ---- trusted seals ---------------------------------------------------- */

/* Read a trusted-seals file (arbiterd --trusted-seals; arbiter-keyring(5)):
 * the Ed25519 public keys whose seals a daemon or an audit accepts beside
 * the daemon's own, e.g. the keys a venue's daemon had before a key
 * change.  One key a line: 64 hex digits, optionally followed by blanks
 * and a name (keys_name_ok); or the lines of an arbiter .pub file
 * (`sign-public = HEX`, with `name = NAME` naming it; other `x = y` lines
 * are skipped), so that a .pub file is itself a trusted-seals file of one
 * key.  Blank lines and lines starting with `#` are skipped.  fn is called
 * for each key with its name ("" when unnamed); its non-zero stops the
 * reading and is returned.  0, or -1 with one sentence in err naming the
 * file and line. */
typedef int (*keys_trusted_fn)(void *ctx, const uint8_t key[32], const char *name);
int keys_trusted_load(const char *path, keys_trusted_fn fn, void *ctx, char *err, size_t errlen);

#endif
