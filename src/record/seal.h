/* seal.h -- what makes a stored record tamper-evident (arbiter-records(5)).
 *
 * The chain of openlog.md 10 covers each event's bytes and its verdict:
 *
 *   h(n)   BLAKE2b-256(h(n-1) || event bytes || verdict bytes), h(-1) = 32
 *          zero bytes, the same in every record of a match (seal_chain_next).
 *
 * A judge relies on more: when an event came and who sent it, how many
 * events the record holds, what its summary says.  Three things cover them:
 *
 *   k(n)   the record link, stored with each event:
 *          BLAKE2b-256(k(n-1) || h(n) || s(n) || t(n) BE64 || len p(n) || p(n))
 *          (h the chain link, s the state hash, t the receive time, p the
 *          sender; k(-1) = 32 zero bytes);
 *   seal   per match, after every batch that wrote it: the number of events,
 *          the chain and record heads, the hash of the summary's bytes,
 *          signed with the daemon's Ed25519 key;
 *   head   the first 10 bytes of BLAKE2b-256(the signed message), in five
 *          groups of four hex digits: what a judge writes on a match slip.
 *
 * A record rewritten and rechained by somebody without the daemon's secret
 * key keeps consistent links but cannot carry a valid seal over its new
 * heads; a summary rewritten, events deleted, a receive time or a sender
 * altered each break one named part.  seal_walk_*() walks a stored record
 * once and seal_check() compares it with its seal; the daemon (at start)
 * and `arbiter audit` both use them, so they find the same things.
 *
 * Pure: no I/O; every buffer is the caller's.
 */
#ifndef ARBITER_SEAL_H
#define ARBITER_SEAL_H

#include <stddef.h>
#include <stdint.h>

#include "src/record/store.h"

#define SEAL_BYTES (1 + 8 + 4 * 32 + 64)   /* version, n, h, k, summary hash, signer, signature */
#define SEAL_BYTES_01 (SEAL_BYTES + 32)    /* arbiter 0.1 stored 32 bytes more, never written: ignored */
#define SEAL_HEAD_TEXT 25                  /* "3fa2-9c1b-77e0-d4a8-51f2" + NUL */

typedef struct {
    uint64_t events;               /* n: seqs 0..n-1 are stored             */
    uint8_t chain[32];             /* h(n-1) (zeros when n is 0)            */
    uint8_t link[32];              /* k(n-1)                                 */
    uint8_t summary[32];           /* BLAKE2b-256 of the summary's bytes    */
    uint8_t signer[32];            /* the Ed25519 public key that signed    */
    uint8_t sig[64];
} seal;

/* h(n) from h(n-1) and the event's and verdict's bytes (openlog.md 10). */
void seal_chain_next(const uint8_t prev[32], const void *event, size_t event_len, const void *verdict,
                     size_t verdict_len, uint8_t out[32]);

/* k(n) from k(n-1) and the stored event (its chain, state, time, peer). */
void seal_link_next(const uint8_t prev[32], const store_event *e, uint8_t out[32]);

/* BLAKE2b-256 of a summary's bytes. */
void seal_summary_hash(const void *summary, size_t len, uint8_t out[32]);

/* Sign s (its events, chain, link and summary set) for match `match` with
 * the Ed25519 pair: fills signer and sig. */
void seal_sign(seal *s, const char *match, const uint8_t sign_public[32], const uint8_t sign_secret[64]);

/* 1 when s's signature holds for `match` under s->signer. */
int seal_signature_ok(const seal *s, const char *match);

/* The record head of s for `match` ("3fa2-9c1b-77e0-d4a8-51f2"). */
void seal_head(const seal *s, const char *match, char out[SEAL_HEAD_TEXT]);

/* 1 when `given` (hex digits, dashes and spaces ignored, case-insensitive,
 * at least 8 digits) is the start of s's head. */
int seal_head_matches(const seal *s, const char *match, const char *given);

/* The stored form (SEAL_BYTES, every byte written) and back; decode also
 * reads the SEAL_BYTES_01 of arbiter 0.1 (its last 32 bytes were never
 * written: they are not read).  decode: 0, or -1 (not a seal). */
void seal_encode(const seal *s, uint8_t out[SEAL_BYTES]);
int seal_decode(const void *bytes, size_t len, seal *out);

/* ---- checking a stored record ------------------------------------------ */

/* Walk a record's events in seq order.  Each link is recomputed from the
 * stored previous one, so that one altered event is found at that event,
 * not at every event after it. */
typedef struct {
    uint64_t n;                    /* events walked                         */
    uint8_t chain[32], link[32];   /* the last stored h and k (k computed
                                      for an event stored without one)      */
    uint8_t made[32];              /* the last h as its bytes make it        */
    int64_t chain_broken;          /* first seq whose h is not its bytes'   */
    int64_t link_broken;           /* first seq whose k is not its fields'  */
    int64_t hole;                  /* first seq missing, or -1              */
    int legacy;                    /* an event was stored without its k     */
} seal_walk;

void seal_walk_init(seal_walk *w);
void seal_walk_event(seal_walk *w, const store_event *e);

/* What seal_check() found: 0 when the seal covers exactly this record. */
enum {
    SEAL_MISSING = 1 << 0,         /* no seal stored                         */
    SEAL_UNREADABLE = 1 << 1,      /* the stored seal is not a seal          */
    SEAL_SIGNATURE = 1 << 2,       /* the signature does not hold            */
    SEAL_SIGNER = 1 << 3,          /* signed by another key than expected   */
    SEAL_EVENTS = 1 << 4,          /* it covers another number of events    */
    SEAL_HEADS = 1 << 5,           /* another chain or record head          */
    SEAL_SUMMARY = 1 << 6          /* another summary                        */
};

/* Compare a walked record with its seal: `stored`/`len` the seal's stored
 * bytes (NULL: none), `summary`/`slen` the stored summary's bytes,
 * `signer` the key it must be signed with (NULL: any).  The findings,
 * OR'ed; *s gets the decoded seal when it could be read. */
int seal_check(const void *stored, size_t len, const char *match, const seal_walk *w, const void *summary,
               size_t slen, const uint8_t *signer, seal *s);

#endif
