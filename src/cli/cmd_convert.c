/* cmd_convert.c -- `arbiter convert IN OUT`: .mlog <-> .jsonl.
 *
 * Each encoding is chosen by the file name's extension ("-" is stdin or
 * stdout and then needs --from/--to).  Every event is decoded and
 * validated on the way through, so a converted file is also a checked one:
 * a malformed event stops the conversion with a sentence saying where,
 * and nothing is left half-written under OUT's name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "logformat/olstream.h"
#include "src/cli/cli.h"

static const char usage_text[] =
    "usage: arbiter convert [--from mlog|jsonl] [--to mlog|jsonl] IN OUT\n"
    "\n"
    "Convert an open log between MessagePack (.mlog) and JSON Lines (.jsonl).\n"
    "The encodings are taken from the extensions; '-' is stdin or stdout and\n"
    "needs --from or --to.  Every event is validated (logformat/SPEC.md);\n"
    "the conversion is lossless, unknown keys included.\n"
    "\n"
    "exit codes: 0 converted, 2 bad usage or a malformed event, 3 internal error\n";

static int parse_enc(const char *s)
{
    if (!strcmp(s, "mlog") || !strcmp(s, "msgpack"))
        return OL_ENC_MSGPACK;
    if (!strcmp(s, "jsonl") || !strcmp(s, "json"))
        return OL_ENC_JSON;
    return -1;
}

/* Write into a temporary file beside OUT, renamed over it on success. */
static int convert(const char *in, int from, const char *out, int to)
{
    olreader *r = NULL;
    olerror err;
    int rc = olreader_open(in, from, &r, &err), status = CLI_OK;
    char tmp[4096] = "";
    FILE *f = stdout;
    if (rc) {
        cli_error("%s", err.msg);
        return rc == OL_ENOMEM ? CLI_INTERNAL : CLI_BADINPUT;
    }
    if (strcmp(out, "-")) {
        snprintf(tmp, sizeof tmp, "%s.tmp.%ld", out, (long)getpid());
        if (!(f = fopen(tmp, "wb"))) {
            cli_error("cannot write %s", tmp);
            olreader_destroy(&r);
            return CLI_BADINPUT;
        }
    }
    for (;;) {
        olevent *ev = NULL;
        rc = olreader_next(r, &ev, NULL, NULL, &err);
        if (rc == 0)
            break;
        if (rc < 0) {
            cli_error("%s: %s", in, err.msg);
            status = rc == OL_ENOMEM ? CLI_INTERNAL : CLI_BADINPUT;
            break;
        }
        rc = olstream_write(f, ev, (ol_encoding)to);
        olevent_destroy(&ev);
        if (rc) {
            cli_error("cannot write %s", out);
            status = CLI_INTERNAL;
            break;
        }
    }
    olreader_destroy(&r);
    if (f == stdout ? fflush(f) != 0 : fclose(f) != 0) {
        if (status == CLI_OK)
            cli_error("cannot write %s", out);
        status = status == CLI_OK ? CLI_INTERNAL : status;
    }
    if (tmp[0]) {
        if (status == CLI_OK && rename(tmp, out) != 0) {
            cli_error("cannot rename %s to %s", tmp, out);
            status = CLI_INTERNAL;
        }
        if (status != CLI_OK)
            unlink(tmp);
    }
    return status;
}

int cmd_convert(int argc, char **argv)
{
    int from = -1, to = -1;
    const char *files[2];
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage_text, stdout);
            return CLI_OK;
        } else if ((!strcmp(argv[i], "--from") || !strcmp(argv[i], "--to")) && i + 1 < argc) {
            int e = parse_enc(argv[i + 1]);
            if (e < 0) {
                cli_error("unknown encoding '%s' (mlog or jsonl)", argv[i + 1]);
                return CLI_BADINPUT;
            }
            *(argv[i][2] == 'f' ? &from : &to) = e;
            i++;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_error("convert: unknown option '%s'", argv[i]);
            fputs(usage_text, stderr);
            return CLI_BADINPUT;
        } else if (nfiles < 2) {
            files[nfiles++] = argv[i];
        } else {
            fputs(usage_text, stderr);
            return CLI_BADINPUT;
        }
    }
    if (nfiles != 2) {
        fputs(usage_text, stderr);
        return CLI_BADINPUT;
    }
    if (from < 0)
        from = olstream_encoding_of(files[0]);
    if (to < 0)
        to = olstream_encoding_of(files[1]);
    if (from < 0 || to < 0) {
        cli_error("cannot tell the encoding of %s: name it .mlog or .jsonl, or use --%s",
                  from < 0 ? files[0] : files[1], from < 0 ? "from" : "to");
        return CLI_BADINPUT;
    }
    return convert(files[0], from, files[1], to);
}
