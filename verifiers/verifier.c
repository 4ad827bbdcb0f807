/* verifier.c -- one interface, one engine per format.
 *
 * The daemon and the command line hold a `verifier` and never a format's
 * state directly; this file picks the engine by the header's format and
 * forwards.  Formats without an engine yet (Advanced, Master) are refused
 * with VERIFIER_ENOENGINE rather than half-judged.
 */
#include <stdlib.h>

#include "verifiers/snap/snap.h"
#include "verifiers/verifier.h"

struct verifier {
    ol_format format;
    snap_state snap;
};

int verifier_new(const cards *db, const olevent *header, verifier **out, olverdict *v)
{
    *out = NULL;
    if (header->header.format != OL_FORMAT_SNAP) {
        olverdict_set(v, header->match, header->seq, OL_V_MALFORMED, NULL,
                      "arbiter has no rules engine for the %s format yet.", ol_format_name(header->header.format));
        return VERIFIER_ENOENGINE;
    }
    verifier *vf = calloc(1, sizeof *vf);
    if (!vf)
        return VERIFIER_ENOMEM;
    vf->format = header->header.format;
    snap_start(&vf->snap, db, header, v);
    *out = vf;
    return VERIFIER_OK;
}

void verifier_apply(verifier *vf, const olevent *ev, olverdict *v)
{
    snap_apply(&vf->snap, ev, v);
}

void verifier_log_ended(verifier *vf)
{
    snap_silence(&vf->snap);
}

int verifier_finished(const verifier *vf, int *winner)
{
    if (winner)
        *winner = vf->snap.over ? vf->snap.winner : -1;
    return vf->snap.over && vf->snap.setup_done;
}

void verifier_unverified(const verifier *vf, unsigned out[2])
{
    snap_unverified u[2];
    snap_unverifiable(&vf->snap, u);
    for (int p = 0; p < 2; p++)
        out[p] = (unsigned)u[p].bench + u[p].hand + u[p].locked + u[p].fifth + u[p].grave;
}

unsigned verifier_round(const verifier *vf)
{
    return vf->snap.setup_done ? vf->snap.round : 0;
}

const char *verifier_engine(const verifier *vf)
{
    (void)vf;
    return SNAP_ENGINE;
}

const snap_state *snap_of(const verifier *vf)
{
    return vf && vf->format == OL_FORMAT_SNAP ? &vf->snap : NULL;
}

void verifier_destroy(verifier **vf)
{
    if (!vf || !*vf)
        return;
    free(*vf);
    *vf = NULL;
}
