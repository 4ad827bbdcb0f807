/* dlog.h -- the daemon's log: one line per thing worth saying, on stderr.
 *
 * arbiterd runs under a service manager that keeps stderr (journald), so a
 * line is "arbiterd: LEVEL: sentence".  The level is the one piece of
 * global state the daemon's modules share: set once from --log-level.
 */
#ifndef ARBITER_DLOG_H
#define ARBITER_DLOG_H

enum { DLOG_ERROR, DLOG_WARN, DLOG_INFO, DLOG_DEBUG };

/* The program named at the start of each line (default "arbiterd"; the
 * command line says "arbiter"): a static string. */
void dlog_set_program(const char *name);

/* The level above which nothing is printed (default DLOG_INFO). */
void dlog_set_level(int level);

/* "error", "warn", "info", "debug" -> 0..3; -1 for another name. */
int dlog_parse_level(const char *name);

/* 1 when a line of `level` would be printed. */
int dlog_enabled(int level);

void dlog(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
