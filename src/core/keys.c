/* keys.c -- key files, the keyring, CURVE for client sockets.
 *
 * What: `arbiter keygen` makes a key file; arbiterd reads its own and the
 * venue's keyring; every client command (`send`, `query`, `audit`, `list`)
 * turns its socket into a CURVE client with keys_client_secure().
 *
 * Why these formats: a venue administrator edits the keyring by hand, so it
 * is text with one key per line (as an ssh authorized_keys file is), and
 * libzmq's own Z85 text is the form CURVE keys travel in everywhere else.
 * The Ed25519 pair beside the CURVE pair is for signing: CURVE keys are for
 * key agreement and cannot sign.
 *
 * How: libzmq makes and encodes CURVE keys (zmq_curve_keypair,
 * zmq_z85_decode), libsodium makes the signing pair and reads hex.  A
 * keyring is an array sorted by public key, searched by bisection: lookups
 * happen at every handshake and for every message (a key may have been
 * revoked since its connection opened).
 */
#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#include "src/core/durable.h"
#include "src/core/keys.h"

#define LINE_MAX_BYTES 512

struct keyring {
    keys_entry *entries;           /* sorted by key                       */
    size_t n;
};

static const char *const role_names[KEYS_ROLE_COUNT] = {"table", "judge", "organiser", "viewer", "broadcast"};

const char *keys_role_name(keys_role r)
{
    return r < KEYS_ROLE_COUNT ? role_names[r] : "?";
}

int keys_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n < 1 || n > KEYS_NAME_MAX)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
              c == '_' || c == ':' || c == '-'))
            return 0;
    }
    return 1;
}

void keys_z85(const uint8_t key[32], char out[KEYS_Z85 + 1])
{
    zmq_z85_encode(out, key, 32);
}

int keys_from_z85(const char *z85, uint8_t out[32])
{
    return strlen(z85) == KEYS_Z85 && zmq_z85_decode(out, z85) ? 0 : -1;
}

int keys_generate(const char *name, keys_pair *out)
{
    char pub[KEYS_Z85 + 1], sec[KEYS_Z85 + 1];
    memset(out, 0, sizeof *out);
    if (!keys_name_ok(name) || zmq_curve_keypair(pub, sec) || keys_from_z85(pub, out->curve_public) ||
        keys_from_z85(sec, out->curve_secret))
        return -1;
    crypto_sign_keypair(out->sign_public, out->sign_secret);
    snprintf(out->name, sizeof out->name, "%s", name);
    out->has_secret = 1;
    return 0;
}

/* Write one file that must not exist yet, with `mode`. */
static int write_new(const char *path, int mode, const char *text, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode);
    size_t n = strlen(text);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        return -1;
    }
    /* the folder too: a name lost in a power cut would be a new key next
     * time, and the seals of this one no longer trusted (durable.h) */
    if (write(fd, text, n) != (ssize_t)n || fsync(fd) || close(fd) || durable_sync_parent(path)) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        unlink(path);
        return -1;
    }
    return 0;
}

int keys_write(const keys_pair *k, const char *prefix, char *err, size_t errlen)
{
    char cp[KEYS_Z85 + 1], cs[KEYS_Z85 + 1], sp[65], ss[129];
    char path[4096], text[1024];
    int rc = -1;

    keys_z85(k->curve_public, cp);
    keys_z85(k->curve_secret, cs);
    sodium_bin2hex(sp, sizeof sp, k->sign_public, 32);
    sodium_bin2hex(ss, sizeof ss, k->sign_secret, 64);
    snprintf(path, sizeof path, "%s.key", prefix);
    snprintf(text, sizeof text,
             "# arbiter key %s (arbiter keygen): keep this file secret\n"
             "name = %s\ncurve-public = %s\ncurve-secret = %s\nsign-public = %s\nsign-secret = %s\n",
             k->name, k->name, cp, cs, sp, ss);
    if (write_new(path, 0600, text, err, errlen))
        goto out;
    snprintf(path, sizeof path, "%s.pub", prefix);
    snprintf(text, sizeof text, "# arbiter public key %s (arbiter keygen)\nname = %s\ncurve-public = %s\nsign-public = %s\n",
             k->name, k->name, cp, sp);
    if (write_new(path, 0644, text, err, errlen)) {
        snprintf(path, sizeof path, "%s.key", prefix);
        unlink(path);
        goto out;
    }
    rc = 0;
out:
    sodium_memzero(text, sizeof text);
    sodium_memzero(cs, sizeof cs);
    sodium_memzero(ss, sizeof ss);
    return rc;
}

/* Cut leading and trailing blanks (in place); the start. */
static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = 0;
    return s;
}

/* 1 when only blanks lie from s up to end. */
static int trim_end(const char *s, const char *end)
{
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    return s == end;
}

static int hex_exact(const char *hex, uint8_t *out, size_t n)
{
    size_t got = 0;
    return strlen(hex) == 2 * n && !sodium_hex2bin(out, n, hex, 2 * n, NULL, &got, NULL) && got == n ? 0 : -1;
}

int keys_read(const char *path, keys_pair *out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char line[LINE_MAX_BYTES];
    int lineno = 0, have = 0, rc = -1;
    enum { NAME = 1, CP = 2, CS = 4, SP = 8, SS = 16 };

    memset(out, 0, sizeof *out);
    if (!f) {
        snprintf(err, errlen, "cannot read the key file %s: %s", path, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        char *s = trim(line), *eq, *val;
        lineno++;
        if (!*s || *s == '#')
            continue;
        if (!(eq = strchr(s, '='))) {
            snprintf(err, errlen, "%s, line %d: not \"name = value\"", path, lineno);
            goto out;
        }
        *eq = 0;
        val = trim(eq + 1);
        s = trim(s);
        int bad = 0;
        if (!strcmp(s, "name")) {
            bad = !keys_name_ok(val);
            if (!bad)
                snprintf(out->name, sizeof out->name, "%s", val);
            have |= NAME;
        } else if (!strcmp(s, "curve-public")) {
            bad = keys_from_z85(val, out->curve_public);
            have |= CP;
        } else if (!strcmp(s, "curve-secret")) {
            bad = keys_from_z85(val, out->curve_secret);
            have |= CS;
        } else if (!strcmp(s, "sign-public")) {
            bad = hex_exact(val, out->sign_public, 32);
            have |= SP;
        } else if (!strcmp(s, "sign-secret")) {
            bad = hex_exact(val, out->sign_secret, 64);
            have |= SS;
        }   /* other names: left for later versions */
        if (bad) {
            snprintf(err, errlen, "%s, line %d: %s is not a valid value", path, lineno, s);
            goto out;
        }
    }
    if (!(have & CP) || !(have & SP) || !(have & NAME)) {
        snprintf(err, errlen, "%s is not an arbiter key file (it needs name, curve-public and sign-public)", path);
        goto out;
    }
    if (((have & CS) != 0) != ((have & SS) != 0)) {
        snprintf(err, errlen, "%s has one secret key but not the other", path);
        goto out;
    }
    out->has_secret = (have & CS) != 0;
    if (out->has_secret) {
        /* the halves must belong together: a pasted line from another file
         * would make a daemon nobody can reach, or seals nobody can check */
        uint8_t pk[32];
        if (crypto_scalarmult_base(pk, out->curve_secret) || memcmp(pk, out->curve_public, 32) ||
            memcmp(out->sign_secret + 32, out->sign_public, 32)) {
            snprintf(err, errlen, "%s: a secret key does not match its public key", path);
            goto out;
        }
    }
    rc = 0;
out:
    sodium_memzero(line, sizeof line);
    if (rc)
        sodium_memzero(out, sizeof *out);
    fclose(f);
    return rc;
}

/* ---- a client's key ------------------------------------------------------- */

/* Which key a line names: a NAME = VALUE line of an arbiter key file
 * (curve-public, curve-secret) or of a ZeroMQ certificate (public-key,
 * secret-key, the value quoted), or a heading of curve_keygen's output
 * that names the key on the next line. */
enum { CURVE_NONE, CURVE_PUB, CURVE_SEC };

static const struct {
    const char *text;
    int which, heading;
} curve_names[] = {
    {"curve-public", CURVE_PUB, 0}, {"curve-secret", CURVE_SEC, 0},
    {"public-key", CURVE_PUB, 0},   {"secret-key", CURVE_SEC, 0},
    {"== CURVE PUBLIC KEY ==", CURVE_PUB, 1}, {"== CURVE SECRET KEY ==", CURVE_SEC, 1},
};

/* 1 when the public key pub belongs to the secret key sec. */
static int curve_pair(const uint8_t pub[32], const uint8_t sec[32])
{
    uint8_t pk[32];
    return !crypto_scalarmult_base(pk, sec) && !memcmp(pk, pub, 32);
}

int keys_read_curve(const char *path, uint8_t pub[32], uint8_t sec[32], int *has_secret, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char line[LINE_MAX_BYTES];
    uint8_t got[2][32], bare[3][32];
    int have[2] = {0, 0}, nbare = 0, next = CURVE_NONE, lineno = 0, rc = -1;

    *has_secret = 0;
    if (!f) {
        snprintf(err, errlen, "cannot read the key file %s: %s", path, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        char *s = trim(line), *eq;
        int which = CURVE_NONE, heading = 0;
        uint8_t key[32];
        lineno++;
        if (!*s || *s == '#')
            continue;
        if (!keys_from_z85(s, key)) {   /* a key alone on its line */
            if (next != CURVE_NONE) {
                memcpy(got[next - 1], key, 32);
                have[next - 1] = 1;
            } else if (nbare < 3) {
                memcpy(bare[nbare++], key, 32);
            }
            next = CURVE_NONE;
            continue;
        }
        next = CURVE_NONE;
        eq = strchr(s, '=');
        for (size_t i = 0; i < sizeof curve_names / sizeof curve_names[0]; i++) {
            size_t n = strlen(curve_names[i].text);
            if (curve_names[i].heading ? !strcmp(s, curve_names[i].text)
                                       : eq && !strncmp(s, curve_names[i].text, n) && trim_end(s + n, eq)) {
                which = curve_names[i].which;
                heading = curve_names[i].heading;
            }
        }
        if (heading) {
            next = which;
            continue;
        }
        if (which == CURVE_NONE)
            continue;   /* the rest: a name, signing keys, prose, a certificate's sections */
        char *val = trim(eq + 1);
        size_t vn = strlen(val);
        if (vn >= 2 && val[0] == '"' && val[vn - 1] == '"') {
            val[vn - 1] = 0;
            val++;
        }
        if (keys_from_z85(val, got[which - 1])) {
            snprintf(err, errlen, "%s, line %d: not a CURVE key of 40 Z85 characters", path, lineno);
            goto out;
        }
        have[which - 1] = 1;
    }
    if (nbare > 2 || (nbare && (have[0] || have[1]))) {
        snprintf(err, errlen, "%s holds more CURVE keys than one pair", path);
        goto out;
    }
    if (nbare == 2) {   /* the two keys alone: the secret is the one the other derives from */
        int sec_first = curve_pair(bare[1], bare[0]);
        if (!sec_first && !curve_pair(bare[0], bare[1])) {
            snprintf(err, errlen, "%s: its two keys are not a CURVE key pair", path);
            goto out;
        }
        memcpy(got[0], bare[sec_first ? 1 : 0], 32);
        memcpy(got[1], bare[sec_first ? 0 : 1], 32);
        have[0] = have[1] = 1;
    } else if (nbare == 1) {   /* one key alone: a public key (a server's) */
        memcpy(got[0], bare[0], 32);
        have[0] = 1;
    }
    if (have[1] && !have[0] && !crypto_scalarmult_base(got[0], got[1]))
        have[0] = 1;   /* a secret key alone gives its public key */
    if (!have[0]) {
        snprintf(err, errlen, "%s holds no CURVE key (an arbiter key file, curve_keygen's output, a ZeroMQ "
                              "certificate, or the two keys in Z85)", path);
        goto out;
    }
    if (have[1] && !curve_pair(got[0], got[1])) {
        snprintf(err, errlen, "%s: its secret key does not match its public key", path);
        goto out;
    }
    memcpy(pub, got[0], 32);
    if (have[1])
        memcpy(sec, got[1], 32);
    *has_secret = have[1];
    rc = 0;
out:
    sodium_memzero(line, sizeof line);
    sodium_memzero(got, sizeof got);
    sodium_memzero(bare, sizeof bare);
    fclose(f);
    return rc;
}

int keys_server_public(const char *text, uint8_t out[32], char *err, size_t errlen)
{
    uint8_t sec[32];
    int has_secret;
    if (strlen(text) == KEYS_Z85 && !keys_from_z85(text, out))
        return 0;
    int rc = keys_read_curve(text, out, sec, &has_secret, err, errlen);
    sodium_memzero(sec, sizeof sec);
    return rc;
}

int keys_client_secure(void *sock, const char *keyfile, const char *server_key, char *err, size_t errlen)
{
    uint8_t pub[32], sec[32], server[32];
    int has_secret = 0, rc = -1;

    if (!keyfile && !server_key)
        return 0;
    if (!keyfile || !server_key) {
        snprintf(err, errlen, "CURVE needs both --key (your key file) and --server-key (the daemon's public key)");
        return -1;
    }
    if (keys_read_curve(keyfile, pub, sec, &has_secret, err, errlen) ||
        keys_server_public(server_key, server, err, errlen))
        goto out;
    if (!has_secret) {
        snprintf(err, errlen, "%s holds no secret key (give the .key file, not the .pub)", keyfile);
        goto out;
    }
    if (zmq_setsockopt(sock, ZMQ_CURVE_SERVERKEY, server, 32) || zmq_setsockopt(sock, ZMQ_CURVE_PUBLICKEY, pub, 32) ||
        zmq_setsockopt(sock, ZMQ_CURVE_SECRETKEY, sec, 32)) {
        snprintf(err, errlen, "this libzmq cannot speak CURVE: %s", zmq_strerror(errno));
        goto out;
    }
    rc = 0;
out:
    sodium_memzero(sec, sizeof sec);
    return rc;
}

/* ---- the keyring ------------------------------------------------------- */

static int by_key(const void *a, const void *b)
{
    return memcmp(((const keys_entry *)a)->key, ((const keys_entry *)b)->key, 32);
}

/* Parse one keyring line into e: 0, or -1 with the reason in why. */
static int parse_entry(char *s, keys_entry *e, const char **why)
{
    char *fields[4];
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(s, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        if (n == 3) {
            *why = "more than three fields (ROLE NAME KEY)";
            return -1;
        }
        fields[n++] = tok;
    }
    if (n != 3) {
        *why = "not three fields (ROLE NAME KEY)";
        return -1;
    }
    memset(e, 0, sizeof *e);
    int r = -1;
    for (int i = 0; i < KEYS_ROLE_COUNT; i++)
        if (!strcmp(fields[0], role_names[i]))
            r = i;
    if (r < 0) {
        *why = "an unknown role (table, judge, organiser or viewer)";
        return -1;
    }
    e->role = (keys_role)r;
    if (!keys_name_ok(fields[1])) {
        *why = "a name that is not 1-64 of [A-Za-z0-9._:-]";
        return -1;
    }
    snprintf(e->name, sizeof e->name, "%s", fields[1]);
    if (keys_from_z85(fields[2], e->key)) {
        *why = "a key that is not 40 Z85 characters";
        return -1;
    }
    keys_z85(e->key, e->z85);
    return 0;
}

int keyring_load(const char *path, keyring **out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    keyring *r = calloc(1, sizeof *r);
    char line[LINE_MAX_BYTES];
    size_t cap = 0;
    int lineno = 0;

    *out = NULL;
    if (!f || !r) {
        snprintf(err, errlen, "cannot read the keyring %s: %s", path, f ? "out of memory" : strerror(errno));
        goto fail;
    }
    while (fgets(line, sizeof line, f)) {
        const char *why = NULL;
        keys_entry e;
        lineno++;
        /* before trim(), which would hide the cut: the rest of a long line
         * must not be read as a line of its own (fail closed) */
        if (strlen(line) == sizeof line - 1 && line[sizeof line - 2] != '\n' && !feof(f)) {
            snprintf(err, errlen, "%s, line %d: a line longer than %d bytes", path, lineno, LINE_MAX_BYTES - 2);
            goto fail;
        }
        char *s = trim(line);
        if (!*s || *s == '#')
            continue;
        if (parse_entry(s, &e, &why)) {
            snprintf(err, errlen, "%s, line %d: %s", path, lineno, why);
            goto fail;
        }
        for (size_t i = 0; i < r->n; i++)
            if (!strcmp(r->entries[i].name, e.name) || !memcmp(r->entries[i].key, e.key, 32)) {
                snprintf(err, errlen, "%s, line %d: the %s %s is listed twice", path, lineno,
                         strcmp(r->entries[i].name, e.name) ? "key of" : "name", e.name);
                goto fail;
            }
        if (r->n == KEYS_RING_MAX) {
            snprintf(err, errlen, "%s, line %d: more than %d keys", path, lineno, KEYS_RING_MAX);
            goto fail;
        }
        if (r->n == cap) {
            size_t c = cap ? cap * 2 : 16;
            keys_entry *t = realloc(r->entries, c * sizeof *t);
            if (!t) {
                snprintf(err, errlen, "%s: out of memory", path);
                goto fail;
            }
            r->entries = t;
            cap = c;
        }
        r->entries[r->n++] = e;
    }
    if (ferror(f)) {
        snprintf(err, errlen, "cannot read the keyring %s", path);
        goto fail;
    }
    fclose(f);
    if (r->n)
        qsort(r->entries, r->n, sizeof *r->entries, by_key);
    *out = r;
    return 0;
fail:
    if (f)
        fclose(f);
    keyring_destroy(&r);
    return -1;
}

const keys_entry *keyring_find(const keyring *r, const uint8_t key[32])
{
    keys_entry probe;
    if (!r || !r->n)
        return NULL;
    memcpy(probe.key, key, 32);
    return bsearch(&probe, r->entries, r->n, sizeof *r->entries, by_key);
}

const keys_entry *keyring_find_z85(const keyring *r, const char *z85)
{
    uint8_t key[32];
    return z85 && !keys_from_z85(z85, key) ? keyring_find(r, key) : NULL;
}

size_t keyring_size(const keyring *r)
{
    return r ? r->n : 0;
}

void keyring_destroy(keyring **r)
{
    if (!r || !*r)
        return;
    free((*r)->entries);
    free(*r);
    *r = NULL;
}

/* ---- trusted seals ---------------------------------------------------- */

int keys_trusted_load(const char *path, keys_trusted_fn fn, void *ctx, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char line[LINE_MAX_BYTES], name[KEYS_NAME_MAX + 1] = "";
    uint8_t pub_key[32];
    int lineno = 0, rc = 0, pub = 0;   /* pub: a .pub file's sign-public, named at the end */

    if (!f) {
        snprintf(err, errlen, "cannot read the trusted-seals file %s: %s", path, strerror(errno));
        return -1;
    }
    while (!rc && fgets(line, sizeof line, f)) {
        char *s = trim(line), *eq = strchr(s, '=');
        uint8_t key[32];
        lineno++;
        if (!*s || *s == '#')
            continue;
        if (eq) {   /* a .pub file's line */
            *eq = 0;
            char *k = trim(s), *val = trim(eq + 1);
            if (!strcmp(k, "sign-public") && !pub && !hex_exact(val, pub_key, 32))
                pub = 1;
            else if (!strcmp(k, "sign-public"))
                rc = -2;
            else if (!strcmp(k, "name") && keys_name_ok(val))
                snprintf(name, sizeof name, "%s", val);
            else if (!strcmp(k, "name"))
                rc = -2;
            continue;
        }
        char *sp = s + strcspn(s, " \t"), *nm = trim(sp);
        if (*sp)
            *sp = 0;
        if (hex_exact(s, key, 32) || (*nm && !keys_name_ok(nm)))
            rc = -2;
        else
            rc = fn(ctx, key, nm);
    }
    if (!rc && pub)
        rc = fn(ctx, pub_key, name);
    if (rc == -2)
        snprintf(err, errlen, "%s, line %d: not a trusted key (64 hex digits of an Ed25519 public key, then "
                 "optionally a name; or a .pub file's sign-public line)", path, lineno);
    else if (!rc && ferror(f))
        snprintf(err, errlen, "cannot read the trusted-seals file %s: %s", path, strerror(errno)), rc = -1;
    else if (rc)
        snprintf(err, errlen, "%s, line %d: too many trusted keys", path, lineno);
    fclose(f);
    return rc ? -1 : 0;
}
