/* cli.h -- the subcommands of the `arbiter` program.
 *
 * Each subcommand is a function taking its own argv (argv[0] is the
 * subcommand name) and returning the process exit code.  The table in
 * arbiter.c maps names to these functions; `arbiter SUB --help` is handled
 * by each command.  Exit codes are the same for every command (arbiter(1), EXIT STATUS):
 */
#ifndef ARBITER_CLI_H
#define ARBITER_CLI_H

enum {
    CLI_OK = 0,        /* success; for checks: everything legal            */
    CLI_ILLEGAL = 1,   /* a check found something illegal                  */
    CLI_BADINPUT = 2,  /* bad usage, unreadable or malformed input         */
    CLI_INTERNAL = 3,  /* out of memory or another internal failure        */
    CLI_DAMAGED = 4    /* arbiter store: the store cannot be read whole    */
};

int cmd_cards(int argc, char **argv);
int cmd_deck(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_send(int argc, char **argv);
int cmd_audit(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_tournament(int argc, char **argv);
int cmd_keygen(int argc, char **argv);
int cmd_store(int argc, char **argv);
int cmd_pg(int argc, char **argv);

/* Load the card database at `path` (NULL: carddb_default_path()) into *db
 * for a command; on failure print "arbiter: card database ..." with every
 * problem and return CLI_BADINPUT, else CLI_OK. */
struct cards;
int cli_load_cards(const char *path, struct cards **db);

/* The databases of a command that judges logs, each log with the one its
 * header names: the one at `path` alone, or with NULL the default shelf
 * (carddb_default_paths(): $ARBITER_CARDS alone, else core, standard and
 * core-1.0.0).  Reported and returned as cli_load_cards(). */
struct carddb_shelf;
int cli_load_shelf(const char *path, struct carddb_shelf **shelf);

/* Print a JSON value compactly on one line of stdout (keys in insertion
 * order) and release it; NULL (out of memory) is reported.  Returns
 * CLI_OK or CLI_INTERNAL. */
typedef struct json_t json_t;
int cli_print_json(json_t *j);

/* "arbiter: " + message + newline on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
