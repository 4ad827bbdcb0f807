/* quarantine.c -- bounded quarantine (quarantine.h).
 *
 * A source's n-th message (counting from 1) is kept when n is at most
 * QUARANTINE_PER_SOURCE, or when n - QUARANTINE_PER_SOURCE is a multiple
 * of QUARANTINE_SAMPLE; and only while the store holds fewer than `max`.
 * Each source row counts what it sent (`seen`) and what was skipped since
 * its last kept entry, both committed and pending; pending moves into
 * committed at quarantine_commit().
 */
#include <errno.h>
#include <jansson.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "logformat/olcodec.h"
#include "src/core/dlog.h"
#include "src/record/quarantine.h"

#define SOURCE_NAME_MAX 160
#define TOUCHED_MAX 4096

typedef struct {
    char name[SOURCE_NAME_MAX];    /* "" : a free row                      */
    uint64_t seen, skipped;        /* committed                            */
    uint64_t p_seen, p_skipped;    /* pending, this batch                  */
    int p_reset;                   /* an entry was kept: skipped restarts  */
    int touched;
} source;

struct quarantine {
    store *st;
    source rows[QUARANTINE_SOURCES + 1];   /* the last one is "others"     */
    size_t used;
    uint64_t max, kept, dropped, last;     /* committed                    */
    uint64_t p_kept, p_dropped;            /* pending                      */
    size_t touched[TOUCHED_MAX];
    size_t n_touched;
    int warned_full;
};

int quarantine_new(store *st, MDB_txn *txn, uint64_t max, quarantine **out)
{
    size_t n = 0;
    int rc;
    quarantine *q = calloc(1, sizeof *q);
    *out = NULL;
    if (!q)
        return -ENOMEM;
    if ((rc = store_count_quarantine(st, txn, &n)) || (rc = store_last_quarantine(st, txn, &q->last))) {
        free(q);
        return rc;
    }
    q->st = st;
    q->kept = n;
    q->max = max;
    snprintf(q->rows[QUARANTINE_SOURCES].name, SOURCE_NAME_MAX, "others");
    *out = q;
    return 0;
}

void quarantine_destroy(quarantine **q)
{
    if (!q || !*q)
        return;
    free(*q);
    *q = NULL;
}

static size_t hash_name(const char *s)
{
    size_t h = 1469598103934665603ull;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ull;
    return h;
}

/* The row of `name`, made if new; "others" once the table is 3/4 full. */
static source *row_of(quarantine *q, const char *name, size_t *index)
{
    size_t i = hash_name(name) % QUARANTINE_SOURCES;
    for (;; i = (i + 1) % QUARANTINE_SOURCES) {
        if (!strncmp(q->rows[i].name, name, SOURCE_NAME_MAX - 1) && q->rows[i].name[0])
            break;
        if (!q->rows[i].name[0]) {
            if ((q->used + 1) * 4 > QUARANTINE_SOURCES * 3) {
                i = QUARANTINE_SOURCES;
                break;
            }
            snprintf(q->rows[i].name, SOURCE_NAME_MAX, "%s", name);
            q->used++;
            break;
        }
    }
    *index = i;
    return &q->rows[i];
}

static int keep_nth(uint64_t n)
{
    return n <= QUARANTINE_PER_SOURCE || (n - QUARANTINE_PER_SOURCE) % QUARANTINE_SAMPLE == 0;
}

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int quarantine_put(quarantine *q, MDB_txn *txn, const char *source_name, const char *peer, const char *reason,
                   const void *bytes, size_t len)
{
    size_t index;
    source *r = row_of(q, source_name, &index);
    uint64_t n = r->seen + r->p_seen + 1;

    if (!r->touched && q->n_touched < TOUCHED_MAX) {
        r->touched = 1;
        q->touched[q->n_touched++] = index;
    }
    r->p_seen++;
    if (!keep_nth(n) || q->kept + q->p_kept >= q->max) {
        r->p_skipped++;
        q->p_dropped++;
        return 0;
    }
    size_t shown = len > QUARANTINE_BYTES ? QUARANTINE_BYTES : len;
    char *hex = malloc(shown * 2 + 1), *text = NULL;
    json_t *o = NULL;
    int rc = -ENOMEM;
    if (!hex)
        return rc;
    sodium_bin2hex(hex, shown * 2 + 1, bytes, shown);
    /* json_pack refuses a string that is not UTF-8, and that refusal would
     * read as a store error: whatever a sentence quotes, it is made UTF-8 */
    char why[OL_MSG_MAX], who[STORE_PEER_MAX + 1];
    snprintf(why, sizeof why, "%s", reason);
    snprintf(who, sizeof who, "%s", peer);
    ol_utf8_clean(why);
    ol_utf8_clean(who);
    o = json_pack("{s:I, s:s, s:s, s:s, s:I, s:s}", "time", (json_int_t)now_ms(), "peer", who, "source",
                  r->name, "reason", why, "length", (json_int_t)len, "bytes_hex", hex);
    uint64_t skipped = (r->p_reset ? 0 : r->skipped) + r->p_skipped;
    if (o && skipped)
        json_object_set_new(o, "skipped", json_integer((json_int_t)skipped));
    if (o && (text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER))) {
        rc = store_put_quarantine(q->st, txn, q->last + q->p_kept + 1, text, strlen(text));
        if (!rc) {
            q->p_kept++;
            r->p_reset = 1;
            r->p_skipped = 0;
        }
    }
    json_decref(o);
    free(text);
    free(hex);
    return rc;
}

void quarantine_commit(quarantine *q)
{
    for (size_t i = 0; i < q->n_touched; i++) {
        source *r = &q->rows[q->touched[i]];
        r->seen += r->p_seen;
        r->skipped = (r->p_reset ? 0 : r->skipped) + r->p_skipped;
        r->p_seen = r->p_skipped = 0;
        r->p_reset = r->touched = 0;
    }
    q->n_touched = 0;
    q->kept += q->p_kept;
    q->last += q->p_kept;
    q->dropped += q->p_dropped;
    q->p_kept = q->p_dropped = 0;
    if (q->kept >= q->max && !q->warned_full) {
        q->warned_full = 1;
        dlog(DLOG_WARN, "the quarantine holds %llu entries, its limit (--quarantine-max): further refused input is "
             "only counted", (unsigned long long)q->kept);
    }
}

void quarantine_abort(quarantine *q)
{
    for (size_t i = 0; i < q->n_touched; i++) {
        source *r = &q->rows[q->touched[i]];
        r->p_seen = r->p_skipped = 0;
        r->p_reset = r->touched = 0;
    }
    q->n_touched = 0;
    q->p_kept = q->p_dropped = 0;
}

uint64_t quarantine_kept(const quarantine *q)
{
    return q->kept;
}

uint64_t quarantine_dropped(const quarantine *q)
{
    return q->dropped;
}

uint64_t quarantine_max(const quarantine *q)
{
    return q->max;
}
