/* live.c -- the table of live matches (live.h has the states).
 *
 * Lookups happen for every event, so the table is open addressing with
 * linear probing on an FNV-1a hash of the id.  live_lru() walks the whole
 * table: it runs only when the table is full and a match needs room,
 * which a venue's sizes make rare.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/daemon/live.h"

#define TABLE_START 256

struct live_table {
    live *slots;
    size_t cap;                    /* a power of two                        */
    size_t used;                   /* slots with an id: live, gone, damaged */
    size_t n_live, n_damaged, max;
    live_hold_fn hook;
    void *hook_ctx;
};

static size_t hash_id(const char *s)
{
    size_t h = 1469598103934665603ull;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ull;
    return h;
}

int live_table_new(size_t max, live_table **out)
{
    live_table *t = calloc(1, sizeof *t);
    *out = NULL;
    if (!t || !(t->slots = calloc(TABLE_START, sizeof *t->slots))) {
        free(t);
        return -1;
    }
    t->cap = TABLE_START;
    t->max = max;
    *out = t;
    return 0;
}

void live_table_hook(live_table *t, live_hold_fn fn, void *ctx)
{
    t->hook = fn;
    t->hook_ctx = ctx;
}

void live_table_destroy(live_table **t)
{
    if (!t || !*t)
        return;
    for (size_t i = 0; i < (*t)->cap; i++)
        verify_session_destroy(&(*t)->slots[i].sess);
    free((*t)->slots);
    free(*t);
    *t = NULL;
}

/* The slot holding `id` (any state but FREE), or the FREE one ending its
 * probe. */
static live *probe(live_table *t, const char *id)
{
    for (size_t i = hash_id(id) & (t->cap - 1);; i = (i + 1) & (t->cap - 1))
        if (!t->slots[i].id[0] || !strcmp(t->slots[i].id, id))
            return &t->slots[i];
}

live *live_find(live_table *t, const char *id)
{
    live *l = probe(t, id);
    return l->id[0] && (l->sess || l->damaged) ? l : NULL;
}

/* Carry LIVE and DAMAGED slots into a table of `cap` slots. */
static int rehash(live_table *t, size_t cap)
{
    live *old = t->slots;
    size_t old_cap = t->cap;
    live *fresh = calloc(cap, sizeof *fresh);
    if (!fresh)
        return -1;
    t->slots = fresh;
    t->cap = cap;
    t->used = 0;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].id[0] && (old[i].sess || old[i].damaged)) {
            *probe(t, old[i].id) = old[i];
            t->used++;
        }
    free(old);
    return 0;
}

live *live_slot(live_table *t, const char *id)
{
    live *l = probe(t, id);
    if (!l->id[0]) {
        if ((t->used + 1) * 2 > t->cap) {
            size_t cap = TABLE_START;
            while (cap < 4 * (t->n_live + t->n_damaged + 1))
                cap *= 2;
            if (rehash(t, cap))
                return NULL;
            l = probe(t, id);
        }
        t->used++;
    } else if (l->sess || l->damaged) {
        return NULL;   /* a programming mistake: the slot is in use */
    }
    memset(l, 0, sizeof *l);
    memcpy(l->id, id, strnlen(id, OL_MATCH_MAX));
    return l;
}

void live_attach(live_table *t, live *l, verify_session *s)
{
    if (!l->sess)
        t->n_live++;
    else
        verify_session_destroy(&l->sess);
    l->sess = s;
}

void live_clear(live_table *t, live *l)
{
    if (l->sess) {
        t->n_live--;
        if (l->holder[0] && t->hook)
            t->hook(t->hook_ctx, l->holder, -1);
    }
    l->holder[0] = 0;
    verify_session_destroy(&l->sess);
}

void live_hold(live_table *t, live *l, const char *holder)
{
    if (!l->sess || l->holder[0] || !holder || !holder[0])
        return;
    snprintf(l->holder, sizeof l->holder, "%s", holder);
    if (t->hook)
        t->hook(t->hook_ctx, l->holder, +1);
}

size_t live_release(live_table *t, const char *holder)
{
    size_t n = 0;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].sess && !strcmp(t->slots[i].holder, holder)) {
            live_clear(t, &t->slots[i]);
            n++;
        }
    return n;
}

int live_damage(live_table *t, const char *id)
{
    live *l = live_find(t, id);
    if (l && l->damaged)
        return 0;
    if (l)
        live_clear(t, l);
    if (!(l = live_slot(t, id)))
        return -1;
    l->damaged = 1;
    t->n_damaged++;
    return 0;
}

live *live_lru(live_table *t, uint64_t busy)
{
    live *best = NULL;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].sess && t->slots[i].batch != busy && (!best || t->slots[i].used_ms < best->used_ms))
            best = &t->slots[i];
    return best;
}

size_t live_count(const live_table *t)
{
    return t->n_live;
}

size_t live_damaged(const live_table *t)
{
    return t->n_damaged;
}

size_t live_max(const live_table *t)
{
    return t->max;
}

void live_each(live_table *t, void (*fn)(void *ctx, live *l), void *ctx)
{
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].sess)
            fn(ctx, &t->slots[i]);
}
