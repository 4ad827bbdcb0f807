/* seal.c -- chain links, record links, seals and heads (arbiter-records(5); seal.h explains why).
 *
 * How: everything is BLAKE2b-256 (libsodium crypto_generichash) over fixed
 * layouts, and one Ed25519 signature (crypto_sign_detached) per seal.  The
 * signed message is built in one place, seal_message(), so that signing,
 * verifying and the head can never disagree about what was signed.
 */
#include <sodium.h>
#include <string.h>

#include "src/record/seal.h"

#define SEAL_VERSION 1
#define SEAL_TAG "arbiter-seal-1"

void seal_chain_next(const uint8_t prev[32], const void *event, size_t event_len, const void *verdict,
                     size_t verdict_len, uint8_t out[32])
{
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, STORE_HASH);
    crypto_generichash_update(&st, prev, STORE_HASH);
    crypto_generichash_update(&st, event, event_len);
    crypto_generichash_update(&st, verdict, verdict_len);
    crypto_generichash_final(&st, out, STORE_HASH);
}

void seal_link_next(const uint8_t prev[32], const store_event *e, uint8_t out[32])
{
    crypto_generichash_state st;
    uint8_t t[8], plen = (uint8_t)strlen(e->peer);
    store_put_be64(t, e->received_ms);
    crypto_generichash_init(&st, NULL, 0, 32);
    crypto_generichash_update(&st, prev, 32);
    crypto_generichash_update(&st, e->chain, 32);
    crypto_generichash_update(&st, e->state, 32);
    crypto_generichash_update(&st, t, sizeof t);
    crypto_generichash_update(&st, &plen, 1);
    crypto_generichash_update(&st, (const uint8_t *)e->peer, plen);
    crypto_generichash_final(&st, out, 32);
}

void seal_summary_hash(const void *summary, size_t len, uint8_t out[32])
{
    crypto_generichash(out, 32, summary, len, NULL, 0);
}

/* The signed message: tag, 0, match id, 0, n, h, k, summary hash.  Match
 * ids are at most 64 bytes (openlog.md 3), so it fits in 256. */
static size_t seal_message(const seal *s, const char *match, uint8_t out[256])
{
    size_t m = strnlen(match, 64), k = sizeof SEAL_TAG;   /* the tag and its NUL */
    memcpy(out, SEAL_TAG, k);
    memcpy(out + k, match, m);
    k += m;
    out[k++] = 0;
    store_put_be64(out + k, s->events);
    k += 8;
    memcpy(out + k, s->chain, 32);
    memcpy(out + k + 32, s->link, 32);
    memcpy(out + k + 64, s->summary, 32);
    return k + 96;
}

void seal_sign(seal *s, const char *match, const uint8_t sign_public[32], const uint8_t sign_secret[64])
{
    uint8_t msg[256];
    size_t n = seal_message(s, match, msg);
    memcpy(s->signer, sign_public, 32);
    crypto_sign_detached(s->sig, NULL, msg, n, sign_secret);
}

int seal_signature_ok(const seal *s, const char *match)
{
    uint8_t msg[256];
    size_t n = seal_message(s, match, msg);
    return crypto_sign_verify_detached(s->sig, msg, n, s->signer) == 0;
}

void seal_head(const seal *s, const char *match, char out[SEAL_HEAD_TEXT])
{
    static const char hex[] = "0123456789abcdef";
    uint8_t msg[256], h[32];
    size_t n = seal_message(s, match, msg), k = 0;
    crypto_generichash(h, sizeof h, msg, n, NULL, 0);
    for (int i = 0; i < 10; i++) {
        if (i && i % 2 == 0)
            out[k++] = '-';
        out[k++] = hex[h[i] >> 4];
        out[k++] = hex[h[i] & 15];
    }
    out[k] = 0;
}

int seal_head_matches(const seal *s, const char *match, const char *given)
{
    char head[SEAL_HEAD_TEXT], want[SEAL_HEAD_TEXT];
    size_t k = 0, n = 0;
    seal_head(s, match, head);
    for (const char *p = head; *p; p++)
        if (*p != '-')
            want[k++] = *p;
    for (const char *p = given; *p; p++) {
        char c = *p >= 'A' && *p <= 'F' ? (char)(*p - 'A' + 'a') : *p;
        if (c == '-' || c == ' ')
            continue;
        if (n >= k || c != want[n])
            return 0;
        n++;
    }
    return n >= 8;
}

void seal_encode(const seal *s, uint8_t out[SEAL_BYTES])
{
    _Static_assert(SEAL_BYTES == 137 + 64, "seal_encode writes every byte of the seal");
    out[0] = SEAL_VERSION;
    store_put_be64(out + 1, s->events);
    memcpy(out + 9, s->chain, 32);
    memcpy(out + 41, s->link, 32);
    memcpy(out + 73, s->summary, 32);
    memcpy(out + 105, s->signer, 32);
    memcpy(out + 137, s->sig, 64);
}

int seal_decode(const void *bytes, size_t len, seal *out)
{
    const uint8_t *p = bytes;
    memset(out, 0, sizeof *out);
    if ((len != SEAL_BYTES && len != SEAL_BYTES_01) || p[0] != SEAL_VERSION)
        return -1;
    out->events = store_get_be64(p + 1);
    memcpy(out->chain, p + 9, 32);
    memcpy(out->link, p + 41, 32);
    memcpy(out->summary, p + 73, 32);
    memcpy(out->signer, p + 105, 32);
    memcpy(out->sig, p + 137, 64);
    return 0;
}

void seal_walk_init(seal_walk *w)
{
    memset(w, 0, sizeof *w);
    w->chain_broken = w->link_broken = w->hole = -1;
}

void seal_walk_event(seal_walk *w, const store_event *e)
{
    uint8_t h[32], k[32];
    if (w->hole < 0 && e->seq != w->n)
        w->hole = (int64_t)w->n;
    seal_chain_next(w->chain, e->event, e->event_len, e->verdict, e->verdict_len, h);
    memcpy(w->made, h, 32);
    if (w->chain_broken < 0 && memcmp(h, e->chain, 32))
        w->chain_broken = (int64_t)e->seq;
    seal_link_next(w->link, e, k);
    if (!e->has_link)
        w->legacy = 1;
    else if (w->link_broken < 0 && memcmp(k, e->link, 32))
        w->link_broken = (int64_t)e->seq;
    memcpy(w->chain, e->chain, 32);
    memcpy(w->link, e->has_link ? e->link : k, 32);
    w->n++;
}

int seal_check(const void *stored, size_t len, const char *match, const seal_walk *w, const void *summary,
               size_t slen, const uint8_t *signer, seal *s)
{
    uint8_t sh[32];
    int found = 0;
    if (!stored)
        return SEAL_MISSING;
    if (seal_decode(stored, len, s))
        return SEAL_UNREADABLE;
    if (!seal_signature_ok(s, match))
        found |= SEAL_SIGNATURE;
    if (signer && memcmp(signer, s->signer, 32))
        found |= SEAL_SIGNER;
    if (s->events != w->n)
        found |= SEAL_EVENTS;
    if (memcmp(s->chain, w->chain, 32) || memcmp(s->link, w->link, 32))
        found |= SEAL_HEADS;
    seal_summary_hash(summary, slen, sh);
    if (memcmp(sh, s->summary, 32))
        found |= SEAL_SUMMARY;
    return found;
}
