/* test_snap_rulings.c -- the Snap engine, the project's rulings R1-R12.
 *
 * One or more tests per ruling R1-R12 of snap-rulings.md (restated with
 * their reasoning in verifiers/snap/RULINGS.md), named snap_<id>_<what> as
 * its **Tests:** line lists them.  A ruling that forbids something is
 * broken and the verdict must cite it; a ruling that decides an outcome is
 * checked on the state after legal events.  Arbiter's own rulings A1-A31
 * are in test_snap_arbiter.c; the scripted game and helpers in
 * tests/snapscript.c.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "tests/snapscript.h"
#include "verifiers/snap/snap.h"
