/* rules.h -- the type of a rule catalogue, shared by every engine.
 *
 * A verdict names the rule it rests on (openlog.md 8).  Each engine keeps
 * the one table of the ids it may cite (verifiers/<format>/rules.c), and
 * the wire contract keeps its own (openlog_rules(), verifiers/openlog.c):
 * for each id the decisive sentence, verbatim, and a summary in the
 * project's words.  verifier_rule_find() (verifier.h) looks an id up in
 * all of them; tests/e2e_rule_coverage.sh FORMAT checks, per format, that
 * every id an engine cites is listed and has a test that makes it cite it.
 *
 * Rows point into static storage, valid for the life of the program.
 */
#ifndef ARBITER_RULES_H
#define ARBITER_RULES_H

#include <stddef.h>

typedef struct {
    const char *id;           /* snap:10.8.2, snap:R4, advanced:combat.ap_vs_dp, openlog:6 */
    const char *quote;        /* the decisive sentence(s), verbatim, UTF-8      */
    const char *summary;      /* one plain sentence in the project's words      */
} verifier_rule;

/* The accessor every catalogue gives, written once: `fn` returns `table`
 * (a static array of verifier_rule) and its count in *n (n may be NULL). */
#define RULE_CATALOGUE(fn, table)                                                                      \
    const verifier_rule *fn(size_t *n)                                                                 \
    {                                                                                                  \
        if (n)                                                                                         \
            *n = sizeof table / sizeof table[0];                                                       \
        return table;                                                                                  \
    }

#endif
