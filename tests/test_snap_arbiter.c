/* test_snap_arbiter.c -- the Snap engine, arbiter's own rulings (A1-A31).
 *
 * One or more tests per ruling A1-A31 of verifiers/snap/RULINGS.md (the
 * rulings arbiter made where snap.md is silent or contradicts itself),
 * named snap_<id>_<what> as its **Tests:** line lists them.  A ruling
 * that forbids something is broken and the verdict must cite it; a ruling
 * that decides an outcome is checked on the state after legal events.
 * R1-R12 (the project's rulings of snap-rulings.md) are in
 * test_snap_rulings.c; the scripted game and helpers in tests/snapscript.c.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "tests/snapscript.h"
#include "verifiers/snap/snap.h"

/* ---- A24: the order of setup events ---------------------------------- */

Test(snap, snap_a24_bench_before_select_and_players_interleave)
{
    start(NULL);
    /* snap A24: "bench (8.3) before select (8.5)" for each player */
    illegal(BASE[2], "snap:A24");
    ok(BASE[1]);          /* p2 benches first: the players interleave */
    ok(BASE[3]);          /* and selects before p1 has done anything */
    illegal(BASE[2], "snap:A24");
    ok(BASE[0]);
    ok(BASE[2]);
    for (size_t i = 4; i < 8; i++)
        ok(BASE[i]);
}
