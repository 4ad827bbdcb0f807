/* rules.h -- the catalogue of every rule id the Advanced engine may cite.
 *
 * A verdict names the rule it rests on (advanced:attack.once,
 * advanced:combat.ap_vs_dp; openlog.md 8).  This module is the one table of
 * those ids: for each, the decisive sentence of the rulebook (advanced.md)
 * and a one-line summary in the project's words.  The engine cites only ids
 * listed here; tests walk the table.  See rules.c for the conventions.
 *
 * Pure: data and one function, no I/O, no allocation.  The returned pointers
 * point into static storage and stay valid for the life of the program.
 */
#ifndef ARBITER_ADVANCED_RULES_H
#define ARBITER_ADVANCED_RULES_H

#include <stddef.h>

#include "verifiers/rules.h"

/* The whole catalogue, in rulebook order (the order of the quotes in
 * advanced.md).  Writes the number of entries to *n (n may be NULL).
 * Looked up by id through verifier_rule_find() (verifiers/verifier.h). */
const verifier_rule *advanced_rules(size_t *n);

#endif
