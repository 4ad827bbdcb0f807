/* notify.c -- sd_notify(3) for arbiterd: readiness, reloads, stop, watchdog.
 *
 * libsystemd does the protocol (a datagram to $NOTIFY_SOCKET); this file
 * only decides what to say and when.  The watchdog interval is half of what
 * the manager asks for, as sd_watchdog_enabled(3) recommends, so one slow
 * turn of the loop (a batch committed on a slow disk) does not kill a
 * daemon that is working.  Nothing here can stop the daemon: a failed
 * notification is logged once and forgotten.
 */
#include "src/daemon/notify.h"

#include <stdio.h>
#include <systemd/sd-daemon.h>
#include <time.h>

#include "src/core/dlog.h"

static void say(const char *state)
{
    static int warned;
    int r = sd_notify(0, state);
    if (r < 0 && !warned) {
        warned = 1;
        dlog(DLOG_WARN, "cannot notify the service manager (%s): %d", state, r);
    }
}

void notify_ready(const char *status)
{
    char msg[512];
    snprintf(msg, sizeof msg, "READY=1\nSTATUS=%s", status ? status : "serving");
    say(msg);
}

void notify_reloading(void)
{
    struct timespec ts;
    char msg[96];
    if (clock_gettime(CLOCK_MONOTONIC, &ts))
        ts.tv_sec = 0, ts.tv_nsec = 0;
    snprintf(msg, sizeof msg, "RELOADING=1\nMONOTONIC_USEC=%llu",
             (unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000ULL);
    say(msg);
}

void notify_stopping(void)
{
    say("STOPPING=1");
}

void notify_starting(uint64_t done, uint64_t total)
{
    char msg[160];
    snprintf(msg, sizeof msg, "STATUS=checking the store: %llu of %llu matches\nEXTEND_TIMEOUT_USEC=%d\nWATCHDOG=1",
             (unsigned long long)done, (unsigned long long)total, NOTIFY_START_EXTEND_US);
    say(msg);
}

void notify_watchdog_init(notify_watchdog *w, uint64_t now_us)
{
    uint64_t usec = 0;
    w->interval_us = sd_watchdog_enabled(0, &usec) > 0 ? usec / 2 : 0;
    w->last_us = now_us;
    if (w->interval_us)
        dlog(DLOG_INFO, "watchdog: WATCHDOG=1 every %llu ms", (unsigned long long)(w->interval_us / 1000));
}

void notify_watchdog_tick(notify_watchdog *w, uint64_t now_us)
{
    if (!w->interval_us || now_us - w->last_us < w->interval_us)
        return;
    w->last_us = now_us;
    say("WATCHDOG=1");
}

int notify_watchdog_wait(const notify_watchdog *w, int wait_ms)
{
    if (!w->interval_us)
        return wait_ms;
    uint64_t half_ms = w->interval_us / 2000;   /* wake twice per interval */
    return half_ms < (uint64_t)wait_ms ? (int)(half_ms ? half_ms : 1) : wait_ms;
}
