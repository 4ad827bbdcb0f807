/* rules.h -- the catalogue of every rule id the Snap engine may cite.
 *
 * A verdict names the rule it rests on (snap:9.4, snap:10.8.2, snap:R4,
 * snap:A2; openlog.md 8).  This module is the one table of
 * those ids: for each, the decisive sentence of the rulebook (snap.md) or of
 * the rulings (snap-rulings.md, verifiers/snap/RULINGS.md) and a one-line
 * summary in the project's words.  The engine cites only ids listed here;
 * tests walk the table.  See rules.c for the conventions.
 *
 * Pure: data and one function, no I/O, no allocation.  The returned pointers
 * point into static storage and stay valid for the life of the program.
 */
#ifndef ARBITER_SNAP_RULES_H
#define ARBITER_SNAP_RULES_H

#include <stddef.h>

#include "verifiers/rules.h"

/* The whole catalogue, in rulebook order (sections, then R1-R12, then
 * A1...).  Writes the number of entries to *n (n may be NULL).  Looked up
 * by id through verifier_rule_find() (verifiers/verifier.h). */
const verifier_rule *snap_rules(size_t *n);

#endif
