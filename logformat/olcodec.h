/* olcodec.h -- decode and encode open-log events (logformat/SPEC.md).
 *
 * Two encodings carry the same events (openlog.md 2): MessagePack (one map
 * per event; a ZeroMQ frame or a concatenated .mlog stream) and JSON (one
 * object per line of a .jsonl file).  Both meet in one small tree of
 * decoded values, which one typed decoder reads:
 *
 *     msgpack bytes --scan, building values---------------> values --typed--> olevent
 *     JSON text ----json_loadb--> json_t --limits, convert--> values --typed--> olevent
 *
 * Encoding goes through jansson's json_t: the tree a JSON text was parsed
 * into, kept with the event, or for MessagePack the json_t made from the
 * event's bytes (kept with it) when it is asked for; keys come out in the
 * order they were read (events built in memory: one canonical order), so a
 * conversion in either direction is lossless.
 *
 * Untrusted input: one pass over a MessagePack object checks every byte
 * before anything is built from it: an array or map may not declare more
 * elements than bytes remain (nothing is allocated for a declared count
 * first), nesting deeper than OL_DEPTH_MAX, strings over OL_STRING_MAX,
 * invalid UTF-8, binary and extension values, non-string keys, a repeated
 * key, a float that is not finite, and anything over OL_EVENT_MAX bytes
 * are refused.  A frame must parse exactly, with no trailing bytes.
 *
 * Every rejection is a sentence in olerror.msg saying what is wrong and
 * where: "byte 17" for MessagePack (offset within the frame or file),
 * "line 4, column 12" for JSON Lines.  The caller turns it into a
 * `malformed` verdict (olverdict.h).
 */
#ifndef ARBITER_OLCODEC_H
#define ARBITER_OLCODEC_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "logformat/jtext.h"
#include "logformat/olarena.h"
#include "logformat/olevent.h"
#include "logformat/olverdict.h"

enum {
    OL_OK = 0,
    OL_EMALFORMED = -1,   /* not a valid event: olerror says why and where */
    OL_ENOMEM = -2,
    OL_EIO = -3           /* a file could not be read or written           */
};

typedef enum { OL_ENC_MSGPACK, OL_ENC_JSON } ol_encoding;

typedef struct {
    char msg[400];        /* one sentence including the location           */
    char key[80];         /* the key path concerned ("seq", "players.p1.deck.monsters[2]"), "" if none */
    const char *match;    /* set when the envelope's match could be read   */
    uint64_t seq;         /* valid when has_seq                            */
    int has_seq;
    char match_buf[OL_MATCH_MAX + 1];
} olerror;

/* Where the bytes came from, so that errors can say where they are:
 * `base` is added to MessagePack offsets (the position of a frame inside a
 * .mlog file); `line` > 0 switches to "line L, column C" for JSON. */
typedef struct {
    size_t base;
    unsigned line;
} ol_origin;

/* Walk one MessagePack object at buf[0..len) without allocating.  On success
 * returns OL_OK and its size in *used (<= len).  With `exact`, trailing
 * bytes after the object are an error.  A truncated object is an error
 * naming the offset where bytes ran out. */
int olcodec_scan(const uint8_t *buf, size_t len, int exact, size_t *used,
                 ol_origin origin, olerror *err);

/* Decode exactly one event from a MessagePack frame.  On success *out owns a
 * new event (olevent_destroy).  Errors: OL_EMALFORMED, OL_ENOMEM; *err is
 * filled on an error only. */
int olcodec_decode_msgpack(const uint8_t *buf, size_t len, ol_origin origin,
                           olevent **out, olerror *err);

/* The two above in one pass, for a reader of a .mlog stream: decode the
 * event at the start of buf[0..len), which may hold more events after it.
 * OL_OK: *out and its size in *used.  OL_EMALFORMED with *used == 0: what
 * olcodec_scan() refuses, the structure is broken and the next event's
 * start is unknowable; with *used > 0: this event only is invalid, the
 * next one starts at buf + *used.  The messages are those of the two
 * functions above.  OL_ENOMEM.  `reuse` (may be NULL): an empty arena
 * (olarena_reset) to build the event in, taken over when *reuse is not
 * NULL (*reuse is then NULL). */
int olcodec_next_msgpack(const uint8_t *buf, size_t len, ol_origin origin, olarena **reuse,
                         size_t *used, olevent **out, olerror *err);

/* Decode exactly one event from one JSON object text (no newline needed). */
int olcodec_decode_json(const char *text, size_t len, ol_origin origin,
                        olevent **out, olerror *err);

/* One event as a message carries it (arbiterd(8), SOCKETS: "arbiterd also accepts one
 * JSON object"): JSON when its first byte is '{', else MessagePack; origin
 * counts from the message's start; err may be NULL.  As the two decoders
 * above. */
int olcodec_decode_message(const void *buf, size_t len, olevent **out, olerror *err);

/* Encode an event.  *out is a new malloc'd buffer of *len bytes (JSON: no
 * trailing newline, not NUL-terminated counted in len but NUL-terminated).
 * Keys appear in canonical order: envelope, the type's fields in table
 * order, then unknown keys in the order they were read. */
int olcodec_encode(const olevent *ev, ol_encoding enc, char **out, size_t *len);

/* The event as a new json_t object (caller json_decref's); NULL on ENOMEM. */
json_t *olcodec_to_json(const olevent *ev);

/* The event built from its typed fields alone (ignoring the decoded tree):
 * what olcodec_encode gives for an event made in memory.  Tests compare it
 * with the decoded tree to prove the typed decoder missed nothing. */
json_t *olcodec_typed_json(const olevent *ev);

/* The rulebook section of an event type's action ("snap:10.8.1"). */
const char *olcodec_type_rule(ol_type t);

/* Decode a decklist object (openlog.md 5) of `format` from `j` into *deck;
 * strings are allocated in `arena`.  `path` names j in messages ("deck").
 * Unknown keys are ignored.  Errors: OL_EMALFORMED with err->msg, OL_ENOMEM. */
int olcodec_deck_from_json(const json_t *j, ol_format format, const char *path,
                           olarena *arena, ol_deck *deck, olerror *err);

/* A decklist as the JSON object of openlog.md 5, the lists `format`
 * reads (snap: monsters, supports, reserve; the others: main).  A new
 * json_t, or NULL out of memory. */
json_t *olcodec_deck_to_json(const ol_deck *deck, ol_format format);

/* A verdict's wire form: a new json_t object, keys in the contract's order;
 * `stored` (may be NULL) is embedded as "stored".  NULL when out of memory. */
json_t *olverdict_to_json(const olverdict *v, const olverdict *stored);

/* Same-shape JSON (json_t) <-> MessagePack bytes, for verdicts and query
 * replies.  olcodec_json_to_msgpack: *out malloc'd.  olcodec_msgpack_to_json:
 * the input is scanned first with the limits above. */
int olcodec_json_to_msgpack(const json_t *j, char **out, size_t *len);
int olcodec_msgpack_to_json(const uint8_t *buf, size_t len, ol_origin origin,
                            json_t **out, olerror *err);
/* olcodec_msgpack_to_json with every limit above but the size: at most
 * `max` bytes (a query, which may carry a whole log to verify, is larger
 * than an event). */
int olcodec_msgpack_to_json_max(const uint8_t *buf, size_t len, size_t max, ol_origin origin,
                                json_t **out, olerror *err);

/* One member of a top-level map that olcodec_msgpack_text reads on its
 * way (a verdict's status and rule, without a tree). */
typedef struct {
    const char *key;    /* in                                               */
    int present;        /* out: the map has it (whatever its value)         */
    const char *s;      /* out: its value when a string, else NULL; it is in
                           the input bytes and lives as long as they do    */
    size_t n;           /* out: the string's length (it may hold a NUL)     */
} olcodec_pick;

/* A top-level member whose strings olcodec_msgpack_text writes as null
 * (a card a view may not see): its value when a string (list 0), or the
 * items before `first` of its value that are strings (list 1; SIZE_MAX:
 * all).  A member named by no mask, or whose value is of another shape, is
 * written as it is. */
typedef struct {
    const char *key;
    int list;
    size_t first;
} olcodec_null;

/* The JSON text of one MessagePack object of exactly len bytes, appended
 * to out: byte for byte what json_dumps(JSON_COMPACT) writes of the tree
 * olcodec_msgpack_to_json makes of the same bytes, less the top-level
 * member `drop` (NULL: none) as json_object_del() leaves it, with the
 * strings of nulls[0..n_nulls) set to null as json_object_set_new() and
 * json_array_set_new() leave them -- without making the tree (arbiterd
 * --replicate writes every event's public text; the tree and its dump
 * were most of that work).  picks[0..n_picks) are filled from the
 * top-level map (n_picks may be 0), as the bytes have them.
 *
 * Returns OL_OK; or OL_EMALFORMED for whatever olcodec_msgpack_to_json
 * refuses, OL_ENOMEM: out then holds what it held before (its sticky
 * error cleared), and the picks are not to be read.  Nothing is said of
 * why: the caller that wants the sentence asks olcodec_msgpack_to_json. */
int olcodec_msgpack_text(const uint8_t *buf, size_t len, const char *drop, const olcodec_null *nulls, size_t n_nulls,
                         olcodec_pick *picks, size_t n_picks, jtext *out);

#endif
