/* olarena.c -- a bump allocator for decoded objects.
 *
 * A decoded event is a tree of short strings and small arrays that all die
 * together.  Allocating them from one arena makes the decoder's error paths
 * trivial (destroy the arena) and the event's lifetime obvious.  Blocks are
 * chained; a request larger than a block gets a block of its own.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "logformat/olarena.h"

#define BLOCK_SIZE 4096
#define ALIGN (sizeof(max_align_t))

typedef struct block {
    struct block *next;
    size_t used, size;
    max_align_t data[];
} block;

struct olarena {
    block *head;
};

static block *block_new(size_t size)
{
    block *b = malloc(sizeof(block) + size);
    if (!b)
        return NULL;
    b->next = NULL;
    b->used = 0;
    b->size = size;
    return b;
}

/* The arena lives at the start of its first block: one allocation for an
 * arena and its first few KB (a decoded event needs no more). */
olarena *olarena_new(void)
{
    block *b = block_new(BLOCK_SIZE);
    if (!b)
        return NULL;
    olarena *a = (olarena *)(void *)b->data;
    b->used = (sizeof *a + ALIGN - 1) / ALIGN * ALIGN;
    a->head = b;
    return a;
}

void olarena_reset(olarena *a)
{
    block *b = a->head, *home = NULL;
    while (b) {
        block *next = b->next;
        if ((void *)b->data == (void *)a)
            home = b;   /* the block the arena lives in stays */
        else
            free(b);
        b = next;
    }
    home->next = NULL;
    home->used = (sizeof *a + ALIGN - 1) / ALIGN * ALIGN;
    a->head = home;
}

void olarena_destroy(olarena **a)
{
    if (!a || !*a)
        return;
    block *b = (*a)->head;   /* the arena itself is in one of the blocks */
    *a = NULL;
    while (b) {
        block *next = b->next;
        free(b);
        b = next;
    }
}

void *olarena_alloc(olarena *a, size_t n)
{
    void *p = olarena_alloc_raw(a, n);
    if (p)
        memset(p, 0, n);
    return p;
}

void *olarena_alloc_raw(olarena *a, size_t n)
{
    if (n == 0)
        n = 1;
    if (n > SIZE_MAX - ALIGN)
        return NULL;
    n = (n + ALIGN - 1) / ALIGN * ALIGN;
    block *b = a->head;
    if (!b || b->size - b->used < n) {
        b = block_new(n > BLOCK_SIZE ? n : BLOCK_SIZE);
        if (!b)
            return NULL;
        /* A big block goes second so the current small block keeps filling. */
        if (n > BLOCK_SIZE && a->head) {
            b->next = a->head->next;
            a->head->next = b;
        } else {
            b->next = a->head;
            a->head = b;
        }
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    return p;
}

char *olarena_strndup(olarena *a, const char *s, size_t n)
{
    char *p = olarena_alloc_raw(a, n + 1);
    if (!p)
        return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}
