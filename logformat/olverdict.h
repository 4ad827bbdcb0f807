/* olverdict.h -- the verdict every event gets (openlog.md 8).
 *
 * { "match", "seq", "status", "rule"?, "msg"?, "expect"?, "stored"?, "remedy"? }
 * A verdict is a small value struct (no allocation), so that the pure
 * engines can return one; this header includes no library for that reason.
 * Its wire form, keys in the order above, is olverdict_to_json() in
 * olcodec.h.
 */
#ifndef ARBITER_OLVERDICT_H
#define ARBITER_OLVERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "logformat/olevent.h"

typedef enum {
    OL_V_OK, OL_V_WARNING, OL_V_ILLEGAL, OL_V_MISMATCH,
    OL_V_DUPLICATE, OL_V_CONFLICT, OL_V_GAP, OL_V_MALFORMED,
    /* A table whose `on_illegal` lever is "judge" (SPEC.md 8.1): an event
     * after an illegal action, stored and judged once a judge's remedy
     * comes (held); an event a `backup` remedy made void (void: only ever
     * a later verdict of an event answered held, never a reply). */
    OL_V_HELD, OL_V_VOID,
    OL_V_COUNT
} ol_status;

/* A map of counts by status lists every status below OL_V_LISTED always,
 * and those from it (held, void) only when not zero: so that a summary or
 * report of a table without remedies is byte for byte what it always was. */
#define OL_V_LISTED OL_V_HELD
#define OL_RULE_MAX 48
#define OL_MSG_MAX 400

typedef struct {
    char match[OL_MATCH_MAX + 1];  /* "" when it could not be read (malformed) */
    uint64_t seq;
    int has_seq;                   /* 0 only for malformed input without a seq */
    ol_status status;
    char rule[OL_RULE_MAX];        /* "" when none                            */
    char msg[OL_MSG_MAX];          /* "" when none                            */
    uint64_t expect;               /* gap                                     */
    int has_expect;
    uint64_t remedy;               /* the seq of the judge's remedy after     */
    int has_remedy;                /* which an event answered held was judged
                                      (its later verdict, SPEC.md 8.1)        */
} olverdict;

const char *ol_status_name(ol_status s);
int ol_status_parse(const char *s);     /* -1 when unknown */

/* printf-style formatting into buf (always NUL-terminated, cut short when
 * it does not fit), so that pure engines can write sentences without
 * including stdio themselves. */
#include <stdarg.h>
void olverdict_vformat(char *buf, size_t n, const char *fmt, va_list ap);
void olverdict_format(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Fill v; rule and msg may be NULL; msg is printf-style. */
void olverdict_set(olverdict *v, const char *match, uint64_t seq, ol_status st,
                   const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* The `malformed` verdict for input the codec refused: match and seq when
 * the codec could read them (olerror.match, .has_seq), the codec's sentence
 * as msg, and the rule `openlog:<top-level key>` when one key is at fault
 * ("openlog:seq"), else none. */
void olverdict_malformed(olverdict *v, const char *match, int has_seq, uint64_t seq,
                         const char *key, const char *msg);

#endif
