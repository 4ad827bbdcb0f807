/* notify.h -- arbiterd telling its service manager how it is (sd_notify(3)).
 *
 * Under systemd (`Type=notify`, src/daemon/arbiterd.service.in) arbiterd says
 * READY=1 once its store is open, every stored match checked and its
 * sockets bound -- not before, so that `systemctl start` returns only when
 * tables can connect -- RELOADING=1 and READY=1 around a SIGHUP reload,
 * STOPPING=1 on SIGTERM, and WATCHDOG=1 from its event loop at half the
 * interval the unit's WatchdogSec gives, so a loop that stops turning is
 * restarted.  Outside systemd (no $NOTIFY_SOCKET) every call does nothing.
 *
 * A failure to notify is never arbiterd's failure: the tables are served
 * whatever the manager hears.  It is logged once, as a warning.
 */
#ifndef ARBITER_NOTIFY_H
#define ARBITER_NOTIFY_H

#include <stdint.h>

/* READY=1 with STATUS=status (one line for `systemctl status`). */
void notify_ready(const char *status);

/* RELOADING=1 with MONOTONIC_USEC=now, before a reload; notify_ready()
 * after it. */
void notify_reloading(void);

/* STOPPING=1, when a stop signal was taken. */
void notify_stopping(void);

/* While the store is checked at start (every record judged again: a large
 * store takes a while): STATUS with how far, EXTEND_TIMEOUT_USEC so that
 * the start does not time out while it moves, and WATCHDOG=1.  Call every
 * few seconds of the check. */
#define NOTIFY_START_EXTEND_US 30000000
void notify_starting(uint64_t done, uint64_t total);

/* The watchdog of one event loop. */
typedef struct {
    uint64_t interval_us;       /* 0: no watchdog asked for              */
    uint64_t last_us;           /* when WATCHDOG=1 was last sent          */
} notify_watchdog;

/* Read the interval the manager asks for (sd_watchdog_enabled: half of
 * WATCHDOG_USEC, for this process only); now_us is daemon_mono_us(). */
void notify_watchdog_init(notify_watchdog *w, uint64_t now_us);

/* Send WATCHDOG=1 when it is due.  Call once per turn of the loop. */
void notify_watchdog_tick(notify_watchdog *w, uint64_t now_us);

/* How long the loop may wait in poll (ms) and still keep the watchdog:
 * wait_ms, or less. */
int notify_watchdog_wait(const notify_watchdog *w, int wait_ms);

#endif
