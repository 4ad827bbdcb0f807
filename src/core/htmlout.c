/* htmlout.c -- escaping and saving for arbiter's HTML pages.
 *
 * What: the writers both pages share (the tournament's, src/tournament/tourhtml.c,
 * and a match's audit, src/cli/auditpage.c) -- raw text, HTML-escaped text,
 * percent-encoded path segments, formatted numbers -- and the function
 * that puts a finished page on stdout or into its file.
 *
 * Why one module: escaping is the one thing a page can get dangerously
 * wrong (a player's name that is markup, a card name with a quote), and
 * a page half written is what a screen in the hall must never show.  Each
 * is written once, here, and tested through both pages.
 *
 * How: every writer appends to a jtext; its errors are sticky, so a page
 * is written without a check per call and checked once at the end.
 * htmlout_save() writes FILE.tmp beside FILE and renames it over FILE:
 * rename() within one folder is atomic, so a reader sees the old page or
 * the new one, never a mixture.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/core/htmlout.h"

void htmlout_str(jtext *o, const char *s)
{
    if (s)
        jtext_raw(o, s, strlen(s));
}

void htmlout_esc(jtext *o, const char *s)
{
    const char *run = s;

    if (!s)
        return;
    for (; *s; s++) {
        const char *ent = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;"
                        : *s == '"' ? "&quot;" : *s == '\'' ? "&#39;" : NULL;
        if (!ent)
            continue;
        jtext_raw(o, run, (size_t)(s - run));
        htmlout_str(o, ent);
        run = s + 1;
    }
    jtext_raw(o, run, (size_t)(s - run));
}

void htmlout_url(jtext *o, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";

    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
            c == '.' || c == '_' || c == '~') {
            jtext_raw(o, (const char *)&c, 1);
        } else {
            char e[3] = {'%', hex[c >> 4], hex[c & 15]};
            jtext_raw(o, e, 3);
        }
    }
}

void htmlout_fmt(jtext *o, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof buf)
        o->bad = 1;
    else
        jtext_raw(o, buf, (size_t)n);
}

static int save_error(char *err, size_t errlen, const char *what, int rc)
{
    if (errlen)
        snprintf(err, errlen, "%s: %s", what, strerror(errno));
    return rc;
}

int htmlout_save(const char *path, const jtext *text, char *err, size_t errlen)
{
    char *tmp = NULL;
    FILE *f = NULL;
    int rc = HTMLOUT_EWRITE;

    if (errlen)
        err[0] = 0;
    if (!strcmp(path, "-")) {
        if (fwrite(text->buf, 1, text->len, stdout) != text->len || fflush(stdout) != 0)
            return save_error(err, errlen, "stdout", HTMLOUT_EWRITE);
        return HTMLOUT_OK;
    }
    if (!(tmp = malloc(strlen(path) + 5))) {
        if (errlen)
            snprintf(err, errlen, "out of memory");
        return HTMLOUT_ENOMEM;
    }
    strcpy(tmp, path);
    strcat(tmp, ".tmp");
    if (!(f = fopen(tmp, "w"))) {
        save_error(err, errlen, tmp, rc);
        goto done;
    }
    if (fwrite(text->buf, 1, text->len, f) != text->len || fflush(f) != 0 || ferror(f)) {
        save_error(err, errlen, tmp, rc);
        goto done;
    }
    int closed = fclose(f);
    f = NULL;
    if (closed != 0) {
        save_error(err, errlen, tmp, rc);
        goto done;
    }
    if (rename(tmp, path) != 0) {
        save_error(err, errlen, path, rc);
        goto done;
    }
    rc = HTMLOUT_OK;
done:
    if (f)
        fclose(f);
    if (rc != HTMLOUT_OK)
        unlink(tmp);
    free(tmp);
    return rc;
}
