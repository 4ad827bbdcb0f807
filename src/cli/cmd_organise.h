/* cmd_organise.h -- the organiser's commands of `arbiter tournament`
 * (src/cli/cmd_organise.c), and what they borrow from cmd_tournament.c.
 *
 * cmd_tournament() hands argv to cmd_organise() when argv[1] is one of
 * organise_commands, and adds organise_usage to its --help.
 */
#ifndef ARBITER_CMD_ORGANISE_H
#define ARBITER_CMD_ORGANISE_H

#include "src/tournament/tourrec.h"

/* 1 when `name` is an organiser's command (new, add, drop, late-entry,
 * publish, result, time-call, close, undo, status). */
int organise_is_command(const char *name);

/* The organiser's part of `arbiter tournament --help`. */
extern const char organise_usage[];

/* `arbiter tournament CMD ...` for an organiser's command; argv[1] is CMD.
 * The exit code (organise_usage says which). */
int cmd_organise(int argc, char **argv);

/* Round `round`'s clock as one sentence for people, as at now (ms since
 * the epoch), in the event's time zone (which it sets for the process):
 * "Round 2 started at 14:05 and ends at 14:55 (Europe/Paris); 12 minutes
 * left."  Into buf (n bytes); 1, or 0 (buf empty) when the round has no
 * start, the file no round_minutes, or the zone is unknown. */
int organise_clock_line(const tournament *t, uint32_t round, uint64_t now, char *buf, size_t n);

/* cmd_tournament.c: judge the records of LOG... (paths[0..n_paths)) or of
 * the store at db into rs, exactly as `tournament pair` does, cards_path as its
 * --cards.  CLI_OK, or an exit code (reported). */
int tournament_judge_records(tourrec_set *rs, const char *db, const char *cards_path, char **paths, int n_paths);

#endif
