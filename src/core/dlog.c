/* dlog.c -- the daemon's log lines (dlog.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "src/core/dlog.h"

static const char *const names[] = {"error", "warn", "info", "debug"};
static int log_level = DLOG_INFO;
static const char *program = "arbiterd";

void dlog_set_program(const char *name)
{
    program = name;
}

void dlog_set_level(int level)
{
    log_level = level;
}

int dlog_parse_level(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (!strcmp(name, names[i]))
            return i;
    return -1;
}

int dlog_enabled(int level)
{
    return level <= log_level;
}

void dlog(int level, const char *fmt, ...)
{
    va_list ap;
    if (level > log_level)
        return;
    flockfile(stderr);   /* one line, whole: the standings worker logs too */
    fprintf(stderr, "%s: %s: ", program, names[level]);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    funlockfile(stderr);
}
