/* olarena.h -- a bump allocator that owns everything one decoded object
 * points to (an event's strings and lists, a deck file's ids).
 *
 * Why: a decoded event is a tree of small strings and arrays; freeing them
 * one by one is error-prone.  Everything is allocated from the arena and
 * freed at once by olarena_destroy().  Pointers returned by olarena_alloc()
 * and olarena_strndup() stay valid until then.  Not thread-safe.
 */
#ifndef ARBITER_OLARENA_H
#define ARBITER_OLARENA_H

#include <stddef.h>

typedef struct olarena olarena;

/* New arena; NULL when out of memory. */
olarena *olarena_new(void);
/* Forget everything handed out, keeping the arena and its first block for
 * reuse (a reader decoding event after event). */
void olarena_reset(olarena *a);
/* Free the arena and every block it handed out; sets *a to NULL. NULL-safe. */
void olarena_destroy(olarena **a);
/* n zeroed bytes aligned for any type; NULL when out of memory. */
void *olarena_alloc(olarena *a, size_t n);
/* n bytes aligned for any type, not zeroed; NULL when out of memory. */
void *olarena_alloc_raw(olarena *a, size_t n);
/* A NUL-terminated copy of the first n bytes of s; NULL when out of memory. */
char *olarena_strndup(olarena *a, const char *s, size_t n);

#endif
