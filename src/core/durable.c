/* durable.c -- fsync of a folder, so that the names it holds are durable
 * (durable.h says why). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
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
