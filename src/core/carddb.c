/* carddb.c -- load a card database from JSON (fixtures/cards/README.md).
 *
 * The loader's job is to turn a file a person edited into `card` structs,
 * and, when the file is wrong, to say everything that is wrong with it at
 * once, one sentence per problem, each naming the card and the JSON path
 * ("snap.triggers[0].effects[1].op").  Fixing a database by rerunning the
 * loader once per typo would be miserable.
 *
 * The work is split with verifiers/cards.c.  Here: what only the JSON can
 * tell -- syntax, types, unknown or misspelt names, members present or
 * absent for the card's kind, numbers that fit their fields, duplicate ids.
 * There: what the structs can tell -- whether an effect's primitive, target
 * and amount fit each other and where they sit, the evolution lines,
 * duplicate names.  A card with a problem here is not handed over (its
 * struct would be half-filled); every other card is, and cards_finish()'s
 * problems are appended, so a run reports both kinds.  A card skipped here
 * can make its evolutions dangle; that is reported too, and is true.
 *
 * The members a format gives a card ("snap": {"imp": ...}) are not listed
 * here: each engine owns them as a table (verifiers/cards.h card_schema,
 * verifier_ops.cards), and this file reads any format's member by that
 * table -- names, kinds, types, ranges, where each value is stored -- so a
 * new format's cards need no change here.  Inside one element of a list
 * (a Master attack, a Snap trigger) the members are read in the table's
 * order, each reported missing or read in turn.
 *
 * The content hash is BLAKE2b-256 of the exact bytes given, so the identity
 * of a database does not depend on how jansson reads it.
 *
 * A judge handed a log should not have to know which database it names:
 * the command line holds a small shelf (the databases this project ships,
 * carddb_default_paths()) and each log is judged with the one its header
 * names.  Nothing is guessed: a name no database on the shelf has is judged
 * with the first, whose name differs, so the header is openlog:cards as
 * before.  The daemon's cardset (src/record) names databases the same way,
 * through carddb_is_named().
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <sodium.h>

#include "src/core/carddb.h"
#include "verifiers/verifier.h"

#ifndef ARBITER_DATADIR
#define ARBITER_DATADIR "/usr/local/share/arbiter"
#endif

#define MSG_MAX 512
#define TRAILER_RESERVE 96   /* room kept for "N more problems not shown" */
#define PATH_LEN 128

/* ---- Collecting problems ------------------------------------------------ */

typedef struct {
    const char *source;
    char *err;
    size_t errlen, used;
    size_t problems, omitted;
    char who[CARD_ID_MAX + 16];   /* card "cor-x", or cards[7] without an id */
    int kind;                     /* the current card's kind, -1 if unknown  */
} loader;

/* Append one line, or count it as omitted when the buffer is full.  The
 * first line is always written, truncated if need be, so a caller with a
 * small buffer still learns what went wrong first. */
static void emit(loader *ld, const char *line)
{
    size_t len = strlen(line);
    ld->problems++;
    if (!ld->err || !ld->errlen)
        return;
    if (ld->used == 0) {
        snprintf(ld->err, ld->errlen, "%s", line);
        ld->used = strlen(ld->err);
        return;
    }
    if (ld->used + 1 + len + 1 + TRAILER_RESERVE > ld->errlen) {
        ld->omitted++;
        return;
    }
    ld->err[ld->used++] = '\n';
    memcpy(ld->err + ld->used, line, len + 1);
    ld->used += len;
}

static void vproblem(loader *ld, int with_who, const char *fmt, va_list ap)
{
    char msg[MSG_MAX], line[MSG_MAX + 256];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (with_who == 2)
        snprintf(line, sizeof line, "%s: %s %s", ld->source, ld->who, msg);
    else if (with_who)
        snprintf(line, sizeof line, "%s: %s: %s", ld->source, ld->who, msg);
    else
        snprintf(line, sizeof line, "%s: %s", ld->source, msg);
    emit(ld, line);
}

/* A problem of the database as a whole. */
static void __attribute__((format(printf, 2, 3))) top_problem(loader *ld, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vproblem(ld, 0, fmt, ap);
    va_end(ap);
}

/* A problem of the current card: prefixed with `card "id"`. */
static void __attribute__((format(printf, 2, 3))) problem(loader *ld, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vproblem(ld, 1, fmt, ap);
    va_end(ap);
}

static void finish_report(loader *ld)
{
    if (ld->omitted && ld->err && ld->errlen > ld->used + 1)
        snprintf(ld->err + ld->used, ld->errlen - ld->used, "\n%s: %zu more problems not shown",
                 ld->source, ld->omitted);
}

/* A problem said of the card itself: `card "id" has no ...`. */
static void __attribute__((format(printf, 2, 3))) card_problem(loader *ld, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vproblem(ld, 2, fmt, ap);
    va_end(ap);
}

/* ---- Reading JSON values ------------------------------------------------ */

/* Build a JSON path ("snap.effects[0].amount").  Paths are short; one that
 * does not fit is cut, which only shortens a message. */
static void __attribute__((format(printf, 3, 4))) path_of(char *dst, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, cap, fmt, ap);
    va_end(ap);
}

/* [a-z0-9-], 1..max bytes: ids, lines, set names. */
static int slug_valid(const char *s, size_t len, size_t max)
{
    if (len == 0 || len > max)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
            return 0;
    return 1;
}

/* A string of 1..max bytes into dst (max + 1 bytes); 0 on success. */
static int read_string(loader *ld, json_t *j, const char *path, char *dst, size_t max)
{
    if (!json_is_string(j)) {
        problem(ld, "%s must be a string", path);
        return -1;
    }
    size_t len = json_string_length(j);
    if (len == 0 || len > max) {
        problem(ld, "%s must be 1 to %zu bytes long", path, max);
        return -1;
    }
    memcpy(dst, json_string_value(j), len + 1);
    return 0;
}

/* A slug ([a-z0-9-]) of 1..max bytes into dst (max + 1 bytes). */
static int read_slug(loader *ld, json_t *j, const char *path, char *dst, size_t max)
{
    if (read_string(ld, j, path, dst, max) < 0)
        return -1;
    if (!slug_valid(dst, strlen(dst), max)) {
        problem(ld, "%s \"%s\" must use only [a-z0-9-]", path, dst);
        return -1;
    }
    return 0;
}

/* An integer in lo..hi; 0 on success. */
static int read_int(loader *ld, json_t *j, const char *path, long long lo, long long hi,
                    long long *out)
{
    if (!json_is_integer(j)) {
        problem(ld, "%s must be an integer", path);
        return -1;
    }
    long long v = json_integer_value(j);
    if (v < lo || v > hi) {
        problem(ld, "%s %lld is out of range %lld..%lld", path, v, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

/* An array of lo..hi elements; 0 on success. */
static int read_array(loader *ld, json_t *j, const char *path, size_t lo, size_t hi,
                      const char *what)
{
    if (!json_is_array(j)) {
        problem(ld, "%s must be an array", path);
        return -1;
    }
    size_t n = json_array_size(j);
    if (n < lo || n > hi) {
        problem(ld, "%s must hold %zu to %zu %s, not %zu", path, lo, hi, what, n);
        return -1;
    }
    return 0;
}

static int read_object(loader *ld, json_t *j, const char *path)
{
    if (json_is_object(j))
        return 0;
    problem(ld, "%s must be an object", path);
    return -1;
}

/* Report members of `obj` not in the NULL-terminated `names`; `path` is
 * NULL for the card's own members. */
static void reject_unknown(loader *ld, json_t *obj, const char *path, const char *const *names)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        size_t i = 0;
        while (names[i] && strcmp(names[i], key))
            i++;
        if (!names[i] && path)
            problem(ld, "%s: unknown member \"%s\"", path, key);
        else if (!names[i])
            problem(ld, "unknown member \"%s\"", key);
    }
}

/* ---- Effects, conditions, costs ----------------------------------------- */

static int parse_effect(loader *ld, json_t *j, const char *path, card_effect *e)
{
    static const char *const members[] = {"op", "target", "amount", NULL};
    char at[PATH_LEN];
    long long amount = 0;
    int before = (int)ld->problems;
    if (read_object(ld, j, path) < 0)
        return -1;
    reject_unknown(ld, j, path, members);
    json_t *op = json_object_get(j, "op"), *tg = json_object_get(j, "target");
    json_t *am = json_object_get(j, "amount");
    int o = -1, t = -1;
    if (!op || !json_is_string(op))
        problem(ld, "%s.op must be a string", path);
    else if ((o = fx_op_parse(json_string_value(op))) < 0)
        problem(ld, "%s.op: unknown effect primitive \"%s\"", path, json_string_value(op));
    if (!tg || !json_is_string(tg))
        problem(ld, "%s.target must be a string", path);
    else if ((t = fx_target_parse(json_string_value(tg))) < 0)
        problem(ld, "%s.target: unknown target \"%s\"", path, json_string_value(tg));
    if (o >= 0) {
        const fx_op_info *oi = fx_op_describe((fx_op)o);
        path_of(at, sizeof at, "%s.amount", path);
        if (oi->takes_amount && !am)
            problem(ld, "%s: effect primitive \"%s\" needs an amount", path, oi->name);
        else if (!oi->takes_amount && am)
            problem(ld, "%s: effect primitive \"%s\" takes no amount", path, oi->name);
        else if (am)
            read_int(ld, am, at, oi->amount_min, oi->amount_max, &amount);
    } else if (am) {
        path_of(at, sizeof at, "%s.amount", path);
        read_int(ld, am, at, INT32_MIN, INT32_MAX, &amount);
    }
    *e = (card_effect){(fx_op)(o < 0 ? 0 : o), (fx_target)(t < 0 ? 0 : t), (int32_t)amount};
    return (int)ld->problems == before ? 0 : -1;
}

/* An effect list: 1..CARD_MAX_EFFECTS effects. */
static void parse_effects(loader *ld, json_t *j, const char *path, card_effect *fx, uint8_t *n)
{
    char at[PATH_LEN];
    if (read_array(ld, j, path, 1, CARD_MAX_EFFECTS, "effects") < 0)
        return;
    *n = (uint8_t)json_array_size(j);
    for (size_t i = 0; i < *n; i++) {
        path_of(at, sizeof at, "%s[%zu]", path, i);
        parse_effect(ld, json_array_get(j, i), at, &fx[i]);
    }
}

static void parse_condition(loader *ld, json_t *j, const char *path, card_condition *cd)
{
    static const char *const members[] = {"kind", "amount", NULL};
    char at[PATH_LEN];
    long long amount = 0;
    if (read_object(ld, j, path) < 0)
        return;
    reject_unknown(ld, j, path, members);
    json_t *kind = json_object_get(j, "kind"), *am = json_object_get(j, "amount");
    int k = -1;
    if (!kind || !json_is_string(kind))
        problem(ld, "%s.kind must be a string", path);
    else if ((k = cond_kind_parse(json_string_value(kind))) < 0)
        problem(ld, "%s.kind: unknown condition \"%s\"", path, json_string_value(kind));
    if (k < 0)
        return;
    const cond_info *ci = cond_describe((cond_kind)k);
    path_of(at, sizeof at, "%s.amount", path);
    if (ci->takes_amount && !am)
        problem(ld, "%s: condition \"%s\" needs an amount", path, ci->name);
    else if (!ci->takes_amount && am)
        problem(ld, "%s: condition \"%s\" takes no amount", path, ci->name);
    else if (am)
        read_int(ld, am, at, ci->amount_min, ci->amount_max, &amount);
    cd->kind = (cond_kind)k;
    cd->amount = (int32_t)amount;
}

static void parse_cost(loader *ld, json_t *j, const char *path, mana_cost *m)
{
    char at[PATH_LEN];
    const char *key;
    json_t *v;
    long long n;
    if (read_object(ld, j, path) < 0)
        return;
    json_object_foreach(j, key, v) {
        int cls = card_class_parse(key);
        path_of(at, sizeof at, "%s.%s", path, key);
        if (cls < 0 && strcmp(key, "any")) {
            problem(ld, "%s: unknown class \"%s\"", path, key);
            continue;
        }
        if (read_int(ld, v, at, 0, CARD_COST_MAX, &n) < 0)
            continue;
        if (cls < 0)
            m->any = (uint8_t)n;
        else
            m->by_class[cls] = (uint8_t)n;
    }
}

/* ---- A format's members, as its engine's table says ---------------------
 * verifier_ops.cards (verifiers/cards.h card_schema): the members a format
 * gives a card, read here by type without knowing the format. */

/* Unknown members always; members allowed or required for the kind when
 * the kind is known. */
static void check_members(loader *ld, json_t *obj, const char *fmt, const card_field *fields)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        const card_field *r = fields;
        while (r->name && strcmp(r->name, key))
            r++;
        if (!r->name)
            problem(ld, "%s: unknown member \"%s\"", fmt, key);
        else if (ld->kind >= 0 && !(r->allowed & (1u << ld->kind)))
            problem(ld, "%s.%s is not allowed on kind \"%s\"", fmt, key,
                    card_kind_name((card_kind)ld->kind));
    }
    if (ld->kind < 0)
        return;
    for (const card_field *r = fields; r->name; r++)
        if ((r->required & (1u << ld->kind)) && !json_object_get(obj, r->name))
            problem(ld, "%s.%s is required for kind \"%s\"", fmt, r->name,
                    card_kind_name((card_kind)ld->kind));
}

static void parse_keywords(loader *ld, json_t *j, const char *path, uint32_t *out)
{
    char at[PATH_LEN];
    if (read_array(ld, j, path, 0, 8, "keywords") < 0)
        return;
    for (size_t i = 0; i < json_array_size(j); i++) {
        json_t *k = json_array_get(j, i);
        uint32_t bit;
        path_of(at, sizeof at, "%s[%zu]", path, i);
        if (!json_is_string(k))
            problem(ld, "%s must be a string", at);
        else if (!(bit = card_keyword_parse(json_string_value(k))))
            problem(ld, "%s: unknown keyword \"%s\"", at, json_string_value(k));
        else if (*out & bit)
            problem(ld, "%s: \"%s\" is listed twice", at, json_string_value(k));
        else
            *out |= bit;
    }
}

static void read_field(loader *ld, json_t *v, const char *path, const card_field *f, char *base);

/* One element of a LIST: an object of the `sub` fields, each read in table
 * order (a missing one reported when every element must have it). */
static void read_element(loader *ld, json_t *j, const char *path, const card_field *sub, char *base)
{
    char at[PATH_LEN];
    const char *key;
    json_t *v;
    if (read_object(ld, j, path) < 0)
        return;
    json_object_foreach(j, key, v) {
        const card_field *f = sub;
        while (f->name && strcmp(f->name, key))
            f++;
        if (!f->name)
            problem(ld, "%s: unknown member \"%s\"", path, key);
    }
    for (const card_field *f = sub; f->name; f++) {
        path_of(at, sizeof at, "%s.%s", path, f->name);
        if ((v = json_object_get(j, f->name)))
            read_field(ld, v, at, f, base);
        else if (f->required)
            problem(ld, f->type == CARD_FIELD_ENUM ? "%s must be a string" : "%s is required", at);
    }
}

static void read_field(loader *ld, json_t *v, const char *path, const card_field *f, char *base)
{
    char at[PATH_LEN];
    long long n;
    int e;
    switch (f->type) {
    case CARD_FIELD_INT:
        if (read_int(ld, v, path, f->lo, f->hi, &n))
            break;
        if (f->size == 1)
            *(uint8_t *)(base + f->at) = (uint8_t)n;
        else
            *(int32_t *)(base + f->at) = (int32_t)n;
        break;
    case CARD_FIELD_BOOL:
        if (!json_is_boolean(v))
            problem(ld, "%s must be true or false", path);
        else
            *(uint8_t *)(base + f->at) = json_is_true(v);
        break;
    case CARD_FIELD_STRING:
        read_string(ld, v, path, base + f->at, f->size);
        break;
    case CARD_FIELD_KEYWORDS:
        parse_keywords(ld, v, path, (uint32_t *)(base + f->at));
        break;
    case CARD_FIELD_ENUM:
        if (!json_is_string(v))
            problem(ld, "%s must be a string", path);
        else if ((e = f->parse(json_string_value(v))) < 0)
            problem(ld, "%s: unknown %s \"%s\"", path, f->what, json_string_value(v));
        else
            *(int *)(base + f->at) = e;
        break;
    case CARD_FIELD_EFFECTS:
        parse_effects(ld, v, path, (card_effect *)(base + f->at), (uint8_t *)(base + f->count_at));
        break;
    case CARD_FIELD_CONDITION:
        parse_condition(ld, v, path, (card_condition *)(base + f->at));
        break;
    case CARD_FIELD_COST:
        parse_cost(ld, v, path, (mana_cost *)(base + f->at));
        break;
    case CARD_FIELD_LIST:
        if (read_array(ld, v, path, (size_t)f->lo, (size_t)f->hi, f->what) < 0)
            break;
        *(uint8_t *)(base + f->count_at) = (uint8_t)json_array_size(v);
        for (size_t i = 0; i < json_array_size(v); i++) {
            path_of(at, sizeof at, "%s[%zu]", path, i);
            read_element(ld, json_array_get(v, i), at, f->sub, base + f->at + i * f->size);
        }
        break;
    }
}

/* A format's member of the card ("snap": {...}) by its engine's table. */
static void parse_format(loader *ld, json_t *j, const char *fmt, const card_field *fields, card *c)
{
    char at[PATH_LEN];
    json_t *v;
    check_members(ld, j, fmt, fields);
    for (const card_field *f = fields; f->name; f++)
        if ((v = json_object_get(j, f->name))) {
            path_of(at, sizeof at, "%s.%s", fmt, f->name);
            read_field(ld, v, at, f, (char *)c);
        }
}

/* ---- One card ----------------------------------------------------------- */

/* 1 when the card (JSON) carries only members of standalone formats
 * (card_schema.standalone: a playing card of classic Snap), which need no
 * Mintayn identity and no other format's member. */
static int json_standalone(json_t *j)
{
    const verifier_ops *ops;
    int alone = 0;
    for (size_t i = 0; (ops = verifier_engine_at(i)); i++)
        if (ops->cards && json_object_get(j, ol_format_name(ops->format))) {
            if (!ops->cards->standalone)
                return 0;
            alone = 1;
        }
    return alone;
}

/* id, name, kind, class, line, stage; kind and class are not required of
 * a standalone card. */
static void parse_identity(loader *ld, json_t *j, card *c)
{
    json_t *v;
    long long n;
    static const char *const required[] = {"id", "name", "kind", "class", NULL};
    int alone = json_standalone(j);
    for (size_t i = 0; required[i]; i++)
        if ((!alone || i < 2) && !json_object_get(j, required[i]))
            problem(ld, "\"%s\" is required", required[i]);
    if ((v = json_object_get(j, "id")))
        read_slug(ld, v, "id", c->id, CARD_ID_MAX);
    if ((v = json_object_get(j, "name")))
        read_string(ld, v, "name", c->name, CARD_NAME_MAX);
    if ((v = json_object_get(j, "kind")) && !json_is_string(v))
        problem(ld, "kind must be a string");
    else if (v && (ld->kind = card_kind_parse(json_string_value(v))) < 0)
        problem(ld, "unknown kind \"%s\"", json_string_value(v));
    c->kind = (card_kind)(ld->kind < 0 ? 0 : ld->kind);
    int cls = -1;
    if ((v = json_object_get(j, "class")) && !json_is_string(v))
        problem(ld, "class must be a string");
    else if (v && (cls = card_class_parse(json_string_value(v))) < 0)
        problem(ld, "unknown class \"%s\"", json_string_value(v));
    c->cls = (card_class)(cls < 0 ? 0 : cls);
    json_t *line = json_object_get(j, "line"), *stage = json_object_get(j, "stage");
    if (line)
        read_slug(ld, line, "line", c->line, CARD_LINE_MAX);
    if (stage && !read_int(ld, stage, "stage", 1, 3, &n))
        c->stage = (uint8_t)n;
    if (!line != !stage)
        problem(ld, "\"line\" and \"stage\" go together: give both or neither");
}

/* Every format whose engine gives cards members (the registry,
 * verifiers/registry.c): each card has the member of every format that is
 * not standalone, unless it is a standalone card (a playing card), which
 * has only its own formats' members. */
static void parse_formats(loader *ld, json_t *j, card *c)
{
    const verifier_ops *ops;
    int alone = json_standalone(j);
    for (size_t i = 0; (ops = verifier_engine_at(i)); i++) {
        if (!ops->cards)
            continue;
        const char *name = ol_format_name(ops->format);
        json_t *v = json_object_get(j, name);
        if (!v) {
            if (!alone && !ops->cards->standalone)
                card_problem(ld, "has no \"%s\" properties", name);
            continue;
        }
        c->members |= 1u << ops->format;
        if (read_object(ld, v, name) < 0)
            continue;
        parse_format(ld, v, name, ops->cards->fields, c);
    }
}

/* A card's own members, and one per format with card members. */
static int card_member(const char *key)
{
    static const char *const own[] = {"id", "name", "kind", "class", "line", "stage"};
    const verifier_ops *ops;
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (!strcmp(own[i], key))
            return 1;
    for (size_t i = 0; (ops = verifier_engine_at(i)); i++)
        if (ops->cards && !strcmp(ol_format_name(ops->format), key))
            return 1;
    return 0;
}

static void set_who(loader *ld, json_t *j, size_t index)
{
    json_t *id = json_is_object(j) ? json_object_get(j, "id") : NULL;
    const char *s = json_is_string(id) ? json_string_value(id) : NULL;
    if (s && slug_valid(s, strlen(s), CARD_ID_MAX))
        snprintf(ld->who, sizeof ld->who, "card \"%s\"", s);
    else
        snprintf(ld->who, sizeof ld->who, "cards[%zu]", index);
}

/* Parse one card and add it when it has no problem.  Returns a CARDS_E*
 * code only for failures that stop the load (out of memory). */
static int load_card(loader *ld, cards *db, json_t *j, size_t index, int duplicate)
{
    size_t before = ld->problems;
    card *c = calloc(1, sizeof *c);   /* ~4 KiB: keep it off the stack */
    int rc = CARDS_OK;
    if (!c)
        return CARDS_ENOMEM;
    set_who(ld, j, index);
    ld->kind = -1;
    if (!json_is_object(j)) {
        problem(ld, "must be an object");
        goto done;
    }
    const char *key;
    json_t *member;
    json_object_foreach(j, key, member)
        if (!card_member(key))
            problem(ld, "unknown member \"%s\"", key);
    parse_identity(ld, j, c);
    parse_formats(ld, j, c);
    if (ld->problems != before || duplicate)
        goto done;
    rc = cards_add(db, c);
    if (rc == CARDS_EDUPLICATE || rc == CARDS_EARG) {
        problem(ld, rc == CARDS_EDUPLICATE ? "duplicate id" : "invalid card");
        rc = CARDS_OK;
    }
done:
    free(c);
    return rc;
}

/* ---- Duplicate ids ------------------------------------------------------
 *
 * Found before any card is added, over the raw JSON, so that a repeated id
 * is reported even when the first card with it has problems of its own.
 */
typedef struct {
    const char *id;
    size_t index;
} id_entry;

static int by_id(const void *a, const void *b)
{
    const id_entry *x = a, *y = b;
    int d = strcmp(x->id, y->id);
    return d ? d : (x->index < y->index ? -1 : x->index > y->index);
}

/* Marks dup[i] for every card that repeats an earlier card's id. */
static int find_duplicates(loader *ld, json_t *arr, unsigned char *dup)
{
    size_t n = json_array_size(arr), k = 0;
    id_entry *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return CARDS_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        json_t *id = json_object_get(json_array_get(arr, i), "id");
        if (json_is_string(id))
            v[k++] = (id_entry){json_string_value(id), i};
    }
    qsort(v, k, sizeof *v, by_id);
    for (size_t i = 1; i < k; i++) {
        size_t first = i;
        while (first > 0 && !strcmp(v[first - 1].id, v[i].id))
            first--;
        if (first == i)
            continue;
        dup[v[i].index] = 1;
        snprintf(ld->who, sizeof ld->who, "card \"%s\"", v[i].id);
        problem(ld, "duplicate id: cards[%zu] repeats cards[%zu]", v[i].index, v[first].index);
    }
    free(v);
    return CARDS_OK;
}

/* ---- The database ------------------------------------------------------- */

static int load_cards(loader *ld, cards *db, json_t *arr)
{
    size_t n = json_array_size(arr);
    unsigned char *dup = calloc(n ? n : 1, 1);
    int rc = CARDS_ENOMEM;
    if (!dup)
        return rc;
    rc = find_duplicates(ld, arr, dup);
    for (size_t i = 0; rc == CARDS_OK && i < n; i++)
        rc = load_card(ld, db, json_array_get(arr, i), i, dup[i]);
    free(dup);
    return rc;
}

/* Run cards_finish() and turn its problems into lines. */
static int seal(loader *ld, cards *db)
{
    size_t n = 0;
    cards_problem *p = NULL;
    int rc = cards_finish(db, NULL, 0, &n);
    if (rc != CARDS_EINVALID)
        return rc;
    p = calloc(n, sizeof *p);
    if (!p)
        return CARDS_ENOMEM;
    rc = cards_finish(db, p, n, &n);
    for (size_t i = 0; rc == CARDS_EINVALID && i < n; i++) {
        if (p[i].id[0]) {
            snprintf(ld->who, sizeof ld->who, "card \"%s\"", p[i].id);
            problem(ld, "%s", p[i].msg);
        } else {
            top_problem(ld, "%s", p[i].msg);
        }
    }
    free(p);
    return rc;
}

static int check_header(loader *ld, json_t *root, char *set, char *version)
{
    static const char *const members[] = {"set", "version", "cards", NULL};
    json_t *s = json_object_get(root, "set"), *v = json_object_get(root, "version");
    json_t *c = json_object_get(root, "cards");
    size_t before = ld->problems;
    const char *key;
    json_t *val;
    json_object_foreach(root, key, val) {
        size_t i = 0;
        while (members[i] && strcmp(members[i], key))
            i++;
        if (!members[i])
            top_problem(ld, "unknown top-level member \"%s\"", key);
    }
    if (!json_is_string(s) || !slug_valid(json_string_value(s), json_string_length(s), CARDS_SET_MAX))
        top_problem(ld, "\"set\" must be a string of 1 to %d characters [a-z0-9-]", CARDS_SET_MAX);
    else
        strcpy(set, json_string_value(s));
    if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) > CARDS_VERSION_MAX)
        top_problem(ld, "\"version\" must be a string of 1 to %d bytes", CARDS_VERSION_MAX);
    else
        strcpy(version, json_string_value(v));
    if (!json_is_array(c) || json_array_size(c) == 0)
        top_problem(ld, "\"cards\" must be a non-empty array");
    return ld->problems == before ? 0 : -1;
}

static int load_root(loader *ld, json_t *root, const uint8_t hash[32], cards **out)
{
    char set[CARDS_SET_MAX + 1] = "", version[CARDS_VERSION_MAX + 1] = "";
    cards *db = NULL;
    int rc = CARDS_EINVALID;
    if (!json_is_object(root)) {
        top_problem(ld, "the database must be a JSON object");
        goto done;
    }
    if (check_header(ld, root, set, version) < 0 && !json_is_array(json_object_get(root, "cards")))
        goto done;
    rc = CARDS_ENOMEM;
    if (!(db = cards_new(set, version)))
        goto done;
    cards_set_hash(db, hash);
    if ((rc = load_cards(ld, db, json_object_get(root, "cards"))) < 0)
        goto done;
    /* With no card left there is nothing to cross-check, and every card
     * that was given has already been reported. */
    if (cards_count(db) && (rc = seal(ld, db)) < 0)
        goto done;
    rc = ld->problems ? CARDS_EINVALID : CARDS_OK;
done:
    if (rc == CARDS_OK)
        *out = db;
    else
        cards_destroy(&db);
    return rc;
}

int carddb_load_buffer(const char *buf, size_t len, const char *source, cards **out, char *err,
                       size_t errlen)
{
    loader ld = {.source = source ? source : "<buffer>", .err = err, .errlen = errlen, .kind = -1};
    uint8_t hash[crypto_generichash_BYTES];
    json_t *root = NULL;
    json_error_t jerr;
    int rc;
    assert(out);
    *out = NULL;
    if (err && errlen)
        err[0] = '\0';
    if (sodium_init() < 0) {
        top_problem(&ld, "libsodium failed to initialise");
        rc = CARDS_ENOMEM;
        goto done;
    }
    if (len > CARDDB_FILE_MAX) {
        top_problem(&ld, "larger than %zu MiB", CARDDB_FILE_MAX >> 20);
        rc = CARDS_EARG;
        goto done;
    }
    crypto_generichash(hash, sizeof hash, (const unsigned char *)(buf ? buf : ""), len, NULL, 0);
    root = json_loadb(buf ? buf : "", len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        char line[MSG_MAX + 64];
        snprintf(line, sizeof line, "%s:%d:%d: JSON syntax error: %s", ld.source, jerr.line,
                 jerr.column, jerr.text);
        emit(&ld, line);
        rc = CARDS_EINVALID;
        goto done;
    }
    rc = load_root(&ld, root, hash, out);
    if (rc == CARDS_ENOMEM)
        top_problem(&ld, "out of memory");
done:
    finish_report(&ld);
    json_decref(root);
    return rc;
}

/* ---- Files -------------------------------------------------------------- */

/* Read a whole file (or pipe) into a malloc'd buffer, at most `max` bytes. */
static int read_all(int fd, size_t max, char **out, size_t *len)
{
    size_t cap = 64 * 1024, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        return ENOMEM;
    for (;;) {
        if (n == cap) {
            if (cap > max) {
                free(buf);
                return EFBIG;
            }
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                return ENOMEM;
            }
            buf = bigger;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            free(buf);
            return e;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    if (n > max) {
        free(buf);
        return EFBIG;
    }
    *out = buf;
    *len = n;
    return 0;
}

int carddb_load_file(const char *path, cards **out, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    int rc, e = 0, fd;
    assert(path && out);
    *out = NULL;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        e = errno;
    else {
        e = read_all(fd, CARDDB_FILE_MAX, &buf, &len);
        close(fd);
    }
    if (e == ENOMEM)
        rc = CARDS_ENOMEM;
    else
        rc = e ? CARDS_EARG : CARDS_OK;
    if (e) {
        if (err && errlen)
            snprintf(err, errlen, "%s: cannot read the card database: %s", path,
                     e == EFBIG ? "larger than 64 MiB" : strerror(e));
        goto done;
    }
    rc = carddb_load_buffer(buf, len, path, out, err, errlen);
done:
    free(buf);
    return rc;
}

/* The shelf's files, in the order a header's name is looked up (the first
 * is the fallback), under a directory. */
#define SHELF_FILES(dir) {dir "/core.json", dir "/standard.json", dir "/core-1.0.0.json"}

int carddb_default_paths(const char *const **paths)
{
    static const char *const local[] = SHELF_FILES("fixtures/cards");
    static const char *const installed[] = SHELF_FILES(ARBITER_DATADIR);
    static const char *env_path;
    const char *env = getenv("ARBITER_CARDS");
    _Static_assert(sizeof local / sizeof *local <= CARDDB_SHELF_MAX, "the default shelf fits a shelf");

    if (env && *env) {   /* one file, named by the judge: nothing else */
        env_path = env;
        *paths = &env_path;
        return 1;
    }
    *paths = access(local[0], R_OK) == 0 ? local : installed;
    return (int)(sizeof local / sizeof *local);
}

const char *carddb_default_path(void)
{
    const char *const *paths;
    carddb_default_paths(&paths);
    return paths[0];
}

int carddb_is_named(const cards *db, const char *named)
{
    const char *set = cards_set(db);
    size_t k = strlen(set);
    return named && !strncmp(named, set, k) && named[k] == '@' && !strcmp(named + k + 1, cards_version(db));
}

struct carddb_shelf {
    cards *dbs[CARDDB_SHELF_MAX];
    int n;
};

int carddb_shelf_load(const char *const *paths, int n, carddb_shelf **out, char *err, size_t errlen)
{
    int rc = CARDS_OK;

    *out = NULL;
    if (n < 1 || n > CARDDB_SHELF_MAX) {
        snprintf(err, errlen, "a shelf holds from 1 to %d card databases, not %d", CARDDB_SHELF_MAX, n);
        return CARDS_EARG;
    }
    carddb_shelf *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return CARDS_ENOMEM;
    }
    for (int i = 0; i < n && rc == CARDS_OK; i++)
        if ((rc = carddb_load_file(paths[i], &s->dbs[i], err, errlen)) == CARDS_OK)
            s->n++;
    if (rc != CARDS_OK)
        carddb_shelf_destroy(&s);   /* all or nothing */
    *out = s;
    return rc;
}

const cards *carddb_shelf_pick(const carddb_shelf *s, const char *named)
{
    for (int i = 0; i < s->n; i++)
        if (carddb_is_named(s->dbs[i], named))
            return s->dbs[i];
    return s->dbs[0];
}

void carddb_shelf_destroy(carddb_shelf **s)
{
    if (!s || !*s)
        return;
    for (int i = 0; i < (*s)->n; i++)
        cards_destroy(&(*s)->dbs[i]);
    free(*s);
    *s = NULL;
}

void carddb_hash_hex(const uint8_t hash[32], char out[65])
{
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < 32; i++) {
        out[2 * i] = hex[hash[i] >> 4];
        out[2 * i + 1] = hex[hash[i] & 15];
    }
    out[64] = '\0';
}
