/* durable.c -- fsync of a folder, so that the names it holds are durable
 * (durable.h says why). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/core/durable.h"

int durable_sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY), rc;
    if (fd < 0)
        return -1;
    rc = fsync(fd);
    if (close(fd))
        rc = -1;
    return rc ? -1 : 0;
}

int durable_sync_parent(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (!slash)
        return durable_sync_dir(".");
    if (n >= sizeof dir) {
        errno = ENAMETOOLONG;
        return -1;
    }
    snprintf(dir, sizeof dir, "%.*s", (int)(n ? n : 1), n ? path : "/");
    return durable_sync_dir(dir);
}

/* The mode a replacement gets: the old file's, else 0666 less the umask. */
static mode_t mode_for(const char *path)
{
    struct stat st;
    mode_t mask;

    if (!stat(path, &st))
        return st.st_mode & 07777;
    mask = umask(022);
    umask(mask);
    return 0666 & ~mask;
}

int durable_replace(const char *path, const void *buf, size_t len, char *err, size_t errlen)
{
    const char *slash = strrchr(path, '/'), *what = path;
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    char *tmp = malloc(strlen(path) + 16);
    const char *p = buf;
    int fd = -1, rc = -1, saved, renamed = 0;

    if (!tmp) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    snprintf(tmp, strlen(path) + 16, "%.*s.%s.XXXXXX", (int)dirlen, path, path + dirlen);
    if ((fd = mkstemp(tmp)) < 0) {
        what = tmp;
        goto done;
    }
    what = tmp;
    for (size_t off = 0; off < len;) {
        ssize_t k = write(fd, p + off, len - off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            goto done;
        off += (size_t)k;
    }
    if (fchmod(fd, mode_for(path)) || fsync(fd))
        goto done;
    saved = close(fd);
    fd = -1;
    if (saved)
        goto done;
    what = path;
    if (rename(tmp, path))
        goto done;
    renamed = 1;
    if (durable_sync_parent(path))
        goto done;
    rc = 0;
done:
    saved = errno;
    if (rc)
        snprintf(err, errlen, "%s cannot be written: %s", what, strerror(saved));
    if (fd >= 0)
        close(fd);
    if (rc && !renamed)
        unlink(tmp);
    free(tmp);
    errno = saved;
    return rc;
}
