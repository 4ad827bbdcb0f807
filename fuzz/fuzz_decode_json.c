/* fuzz_decode_json.c -- one open-log event decoded from a JSON text.
 *
 * Feeds: the input's bytes as one JSON object text to olcodec_decode_json()
 * (logformat/olcodec.h) -- a line of a .jsonl log, and what the daemon
 * decodes for a message whose first byte is '{' (arbiterd(8), SOCKETS: "arbiterd also
 * accepts one JSON object"), which olcodec_decode_message() is checked to
 * agree with.
 *
 * Why: the JSON path is jansson, then the codec's own limits over the tree
 * (depth, string sizes, UTF-8, the MessagePack size), then the same typed
 * decoder as MessagePack.  When an event decodes, it is encoded back in
 * both encodings and decoded again (fuzz_check_roundtrip): the two decodes
 * must agree and the encodings must be a fixed point.  A disagreement
 * abort()s: that is a finding.
 *
 * Seeds: every event of the fixture logs as one JSON line without its
 * newline, the malformed .jsonl corpus (fuzz/seed.sh).  Dictionary:
 * fuzz/openlog.dict.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz/harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    olevent *ev = NULL, *again = NULL;
    olerror err;
    int rc = olcodec_decode_json((const char *)data, size, (ol_origin){0, 0}, &ev, &err);

    if (rc == OL_OK)
        fuzz_check_roundtrip(ev);
    else if (rc != OL_EMALFORMED)
        fuzz_fail("olcodec_decode_json returned %d", rc);
    else if (!err.msg[0])
        fuzz_fail("a refusal without a sentence");

    /* the daemon's entry point: the same verdict for a message starting with '{' */
    if (size && data[0] == '{') {
        int mrc = olcodec_decode_message(data, size, &again, NULL);
        if ((mrc == OL_OK) != (rc == OL_OK))
            fuzz_fail("olcodec_decode_message (%d) and olcodec_decode_json (%d) disagree", mrc, rc);
        olevent_destroy(&again);
    }
    olevent_destroy(&ev);
    return 0;
}
