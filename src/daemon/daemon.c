/* daemon.c -- small helpers the daemon's modules share (daemon.h). */
#include <string.h>
#include <time.h>

#include "src/daemon/daemon.h"

uint64_t daemon_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

uint64_t daemon_mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

int daemon_who(const daemon_ctx *d, void *msg, gate_peer *out)
{
    if (d->gate)
        return gate_who(d->gate, msg, out);
    memset(out, 0, sizeof *out);
    out->role = KEYS_JUDGE;
    out->anonymous = 1;
    out->fd = -1;
    return 0;
}

const tournament *daemon_tournament(const daemon_ctx *d, const char *id)
{
    return tournament_by_id(d->tournaments, d->n_tournaments, id);
}
