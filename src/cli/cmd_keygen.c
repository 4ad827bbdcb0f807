/* cmd_keygen.c -- `arbiter keygen`: a key for the daemon, a table, a judge.
 *
 * What: writes NAME.key (mode 0600: both CURVE halves and both signing
 * halves) and NAME.pub (the public halves), the formats of arbiter-keyring(5),
 * and prints the line that lists the key in a keyring.  The daemon's own
 * key is made the same way (`--key`), or on its first start.
 *
 * Why a command of its own: CURVE keys are easy to get subtly wrong (a
 * public key pasted beside another's secret), and a venue administrator
 * should not need libzmq's tools to make them.
 */
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/core/keys.h"

static const char usage_text[] =
    "usage: arbiter keygen NAME [--out PREFIX] [--role ROLE]\n"
    "\n"
    "Make a key pair for arbiterd's CURVE sockets and its seals: PREFIX.key\n"
    "(secret, mode 0600) and PREFIX.pub (public), the files of\n"
    "arbiter-keyring(5); PREFIX defaults to NAME in the current directory, and\n"
    "neither file may exist.  NAME is 1-64 of [A-Za-z0-9._:-].  Prints the\n"
    "public key and the keyring line for it (ROLE: table, judge, organiser,\n"
    "viewer or broadcast; default table).\n";

int cmd_keygen(int argc, char **argv)
{
    const char *name = NULL, *prefix = NULL, *role = "table";
    char err[512], z85[KEYS_Z85 + 1];
    keys_pair k;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(usage_text, stdout);
            return CLI_OK;
        }
        if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            prefix = argv[++i];
        } else if (!strcmp(argv[i], "--role") && i + 1 < argc) {
            role = argv[++i];
        } else if (argv[i][0] != '-' && !name) {
            name = argv[i];
        } else {
            fputs(usage_text, stderr);
            return CLI_BADINPUT;
        }
    }
    if (!name) {
        fputs(usage_text, stderr);
        return CLI_BADINPUT;
    }
    if (strcmp(role, "table") && strcmp(role, "judge") && strcmp(role, "organiser") && strcmp(role, "viewer") &&
        strcmp(role, "broadcast")) {
        cli_error("unknown role '%s' (table, judge, organiser, viewer or broadcast)", role);
        return CLI_BADINPUT;
    }
    if (keys_generate(name, &k)) {
        cli_error("'%s' is not a key name: 1-64 of [A-Za-z0-9._:-]", name);
        return CLI_BADINPUT;
    }
    if (keys_write(&k, prefix ? prefix : name, err, sizeof err)) {
        sodium_memzero(&k, sizeof k);
        cli_error("%s", err);
        return CLI_BADINPUT;
    }
    keys_z85(k.curve_public, z85);
    sodium_memzero(&k, sizeof k);
    printf("wrote %s.key (secret: keep it where only %s can read it) and %s.pub\n", prefix ? prefix : name, name,
           prefix ? prefix : name);
    printf("curve public key: %s\n", z85);
    printf("keyring line:     %s %s %s\n", role, name, z85);
    return CLI_OK;
}
