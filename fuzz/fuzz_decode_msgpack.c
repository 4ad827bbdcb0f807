/* fuzz_decode_msgpack.c -- one open-log event decoded from MessagePack.
 *
 * Feeds: the input's bytes as one ZeroMQ frame, to olcodec_decode_msgpack()
 * (logformat/olcodec.h) -- the first thing the daemon does with every
 * message a table sends, and what `arbiter convert`/`verify` do with each
 * event of a .mlog.  Also olcodec_decode_message() (the daemon's entry:
 * JSON when the first byte is '{') and the stream reader's
 * olcodec_next_msgpack() over the same bytes, which must agree with the
 * frame decoder on whether the first event is valid.
 *
 * Why: this is the one parser every byte from the network goes through
 * first, with hand-written limit checks (declared counts, depth, UTF-8,
 * sizes) in front of the allocations.  When an event decodes, it is encoded
 * back in both encodings and decoded again (fuzz_check_roundtrip): the two
 * decodes must agree and the encodings must be a fixed point, since
 * `arbiter convert` promises a lossless conversion and the record's hash
 * chain is over exact bytes.  A disagreement abort()s: that is a finding.
 *
 * The same bytes also go to olcodec_msgpack_text(), which writes the JSON
 * text arbiterd --replicate ships as an event's public view without making
 * the tree: it must refuse what olcodec_msgpack_to_json() refuses, and
 * otherwise give json_dumps(JSON_COMPACT)'s bytes of that tree exactly:
 * as it is, and without a top-level "nonce" and with the strings of the
 * fields that hold hidden cards null, as a view writes them.
 *
 * Seeds: every event of the fixture logs as a .mlog frame, the malformed
 * corpus (fuzz/seed.sh).  Dictionary: fuzz/openlog.dict.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz/harness.h"

/* The masks a view puts on the fields of the open log that hold hidden
 * cards (olcodec_null), made on the tree as view.c makes them. */
static const olcodec_null masks[] = {{"card", 0, 0}, {"cards", 1, 2}, {"slots", 1, SIZE_MAX}};

static void mask_tree(json_t *tree)
{
    for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
        json_t *f = json_object_get(tree, masks[i].key);
        if (!masks[i].list && json_is_string(f))
            json_object_set_new(tree, masks[i].key, json_null());
        for (size_t k = 0; masks[i].list && k < json_array_size(f) && k < masks[i].first; k++)
            if (json_is_string(json_array_get(f, k)))
                json_array_set_new(f, k, json_null());
    }
}

/* olcodec_msgpack_text against the tree's dump, less `drop`, masked or not. */
static void check_text(const uint8_t *data, size_t size, const char *drop, int masked)
{
    json_t *tree = NULL;
    jtext t = {0};
    int trc = olcodec_msgpack_to_json(data, size, (ol_origin){0, 0}, &tree, NULL);
    int xrc = olcodec_msgpack_text(data, size, drop, masked ? masks : NULL, masked ? sizeof masks / sizeof masks[0] : 0,
                                   NULL, 0, &t);
    if ((trc == OL_OK) != (xrc == OL_OK) && trc != OL_ENOMEM && xrc != OL_ENOMEM)
        fuzz_fail("the tree (%d) and the text (%d) disagree on %zu bytes", trc, xrc, size);
    if (trc == OL_OK && xrc == OL_OK) {
        if (drop && json_is_object(tree))
            json_object_del(tree, drop);
        if (masked && json_is_object(tree))
            mask_tree(tree);
        char *d = json_dumps(tree, JSON_COMPACT | JSON_ENCODE_ANY);
        if (d && (strlen(d) != t.len || memcmp(d, t.buf, t.len)))
            fuzz_fail("the text %.200s is not the tree's dump %.200s", t.buf, d);
        free(d);
    }
    json_decref(tree);
    jtext_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    olevent *ev = NULL, *next = NULL;
    olerror err, serr;
    size_t used = 0;
    int rc = olcodec_decode_msgpack(data, size, (ol_origin){0, 0}, &ev, &err);

    if (rc == OL_OK)
        fuzz_check_roundtrip(ev);
    else if (rc != OL_EMALFORMED)
        fuzz_fail("olcodec_decode_msgpack returned %d", rc);
    else if (!err.msg[0])
        fuzz_fail("a refusal without a sentence");

    /* the stream reader: an event that decodes as a frame decodes at the
     * start of a stream too, with the frame's size */
    int src = olcodec_next_msgpack(data, size, (ol_origin){0, 0}, NULL, &used, &next, &serr);
    if (rc == OL_OK && (src != OL_OK || used != size))
        fuzz_fail("a valid frame of %zu bytes is refused by the stream reader (%d, used %zu): %s", size, src, used,
                  src == OL_EMALFORMED ? serr.msg : "");
    if (src == OL_OK && used == size && rc != OL_OK)
        fuzz_fail("the stream reader accepts a %zu-byte event that the frame decoder refuses: %s", size, err.msg);
    if (src == OL_OK && used > size)
        fuzz_fail("the stream reader used %zu bytes of %zu", used, size);
    olevent_destroy(&next);

    /* the daemon's entry point: the same verdict for a frame not starting with '{' */
    if (size && data[0] != '{') {
        int mrc = olcodec_decode_message(data, size, &next, NULL);
        if ((mrc == OL_OK) != (rc == OL_OK))
            fuzz_fail("olcodec_decode_message (%d) and olcodec_decode_msgpack (%d) disagree", mrc, rc);
        olevent_destroy(&next);
    }
    olevent_destroy(&ev);
    check_text(data, size, NULL, 0);
    check_text(data, size, "nonce", 1);
    return 0;
}
