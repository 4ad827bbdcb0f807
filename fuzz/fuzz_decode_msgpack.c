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
 * otherwise give json_dumps(JSON_COMPACT)'s bytes of that tree exactly,
 * with and without a top-level "nonce".
 *
 * Seeds: every event of the fixture logs as a .mlog frame, the malformed
 * corpus (fuzz/seed.sh).  Dictionary: fuzz/openlog.dict.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz/harness.h"

/* olcodec_msgpack_text against the tree's dump, less `drop`. */
static void check_text(const uint8_t *data, size_t size, const char *drop)
{
    json_t *tree = NULL;
    jtext t = {0};
    int trc = olcodec_msgpack_to_json(data, size, (ol_origin){0, 0}, &tree, NULL);
    int xrc = olcodec_msgpack_text(data, size, drop, NULL, 0, &t);
    if ((trc == OL_OK) != (xrc == OL_OK) && trc != OL_ENOMEM && xrc != OL_ENOMEM)
        fuzz_fail("the tree (%d) and the text (%d) disagree on %zu bytes", trc, xrc, size);
    if (trc == OL_OK && xrc == OL_OK) {
        if (drop && json_is_object(tree))
            json_object_del(tree, drop);
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
    check_text(data, size, NULL);
    check_text(data, size, "nonce");
    return 0;
}
