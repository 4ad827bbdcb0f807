/* test_olcodec.c -- the open-log codec: round trips, limits, the malformed
 * corpus (fixtures/malformed/EXPECT), positions in error messages. */
#include <criterion/criterion.h>
#include <glob.h>
#include <unistd.h>
#include <string.h>

#include "logformat/olcodec.h"
#include "logformat/olstream.h"
#include "logformat/olverdict.h"
#include "tests/testutil.h"

/* Every event of a file, encoded both ways, decodes to the same tree; and
 * the typed fields alone rebuild the tree whenever it has no unknown keys. */
static void roundtrip_file(const char *path, size_t *n_events)
{
    olreader *r = NULL;
    olerror err;
    cr_assert_eq(olreader_open(path, -1, &r, &err), OL_OK, "%s: %s", path, err.msg);
    for (;;) {
        olevent *ev = NULL;
        int rc = olreader_next(r, &ev, NULL, NULL, &err);
        cr_assert_geq(rc, 0, "%s: %s", path, err.msg);
        if (rc == 0)
            break;
        char *mp = NULL, *js = NULL;
        size_t mplen = 0, jslen = 0;
        cr_assert_eq(olcodec_encode(ev, OL_ENC_MSGPACK, &mp, &mplen), OL_OK);
        cr_assert_eq(olcodec_encode(ev, OL_ENC_JSON, &js, &jslen), OL_OK);
        olevent *a = NULL, *b = NULL;
        cr_assert_eq(olcodec_decode_msgpack((uint8_t *)mp, mplen, (ol_origin){0, 0}, &a, &err),
                     OL_OK, "%s seq %llu: %s", path, (unsigned long long)ev->seq, err.msg);
        cr_assert_eq(olcodec_decode_json(js, jslen, (ol_origin){0, 1}, &b, &err), OL_OK, "%s", err.msg);
        json_t *ja = olcodec_to_json(a), *jb = olcodec_to_json(b), *j0 = olcodec_to_json(ev);
        cr_assert(json_equal(ja, j0) && json_equal(jb, j0), "%s seq %llu changed in a round trip",
                  path, (unsigned long long)ev->seq);
        if (!strstr(path, "unknown-keys")) {
            json_t *typed = olcodec_typed_json(ev);
            cr_assert(json_equal(typed, j0), "%s seq %llu: typed fields lose something", path,
                      (unsigned long long)ev->seq);
            json_decref(typed);
        }
        json_decref(ja);
        json_decref(jb);
        json_decref(j0);
        olevent_destroy(&a);
        olevent_destroy(&b);
        olevent_destroy(&ev);
        cr_assert_null(ev);
        free(mp);
        free(js);
        (*n_events)++;
    }
    olreader_destroy(&r);
}

Test(olcodec, roundtrip_every_fixture_event)
{
    glob_t g;
    size_t n = 0;
    cr_assert_eq(glob(SRC("fixtures/logs/*.jsonl"), 0, NULL, &g), 0);
    cr_assert_geq(g.gl_pathc, 6);
    for (size_t i = 0; i < g.gl_pathc; i++)
        roundtrip_file(g.gl_pathv[i], &n);
    globfree(&g);
    cr_assert_gt(n, 100);
}

Test(olcodec, fixture_logs_cover_every_event_type)
{
    int seen[OL_TYPE_COUNT] = {0};
    glob_t g;
    cr_assert_eq(glob(SRC("fixtures/logs/*.jsonl"), 0, NULL, &g), 0);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        olreader *r = NULL;
        olerror err;
        olevent *ev = NULL;
        cr_assert_eq(olreader_open(g.gl_pathv[i], -1, &r, &err), OL_OK);
        while (olreader_next(r, &ev, NULL, NULL, &err) == 1) {
            seen[ev->type] = 1;
            olevent_destroy(&ev);
        }
        olreader_destroy(&r);
    }
    globfree(&g);
    for (int t = 0; t < OL_TYPE_COUNT; t++)
        cr_expect(seen[t], "no fixture log has a \"%s\" event", ol_type_name((ol_type)t));
}

/* The first error a file gives, through the same reader the CLI uses. */
static int first_error(const char *path, olerror *err)
{
    olreader *r = NULL;
    int rc = olreader_open(path, -1, &r, err);
    if (rc)
        return rc;
    for (;;) {
        olevent *ev = NULL;
        rc = olreader_next(r, &ev, NULL, NULL, err);
        olevent_destroy(&ev);
        if (rc <= 0)
            break;
    }
    olreader_destroy(&r);
    return rc;
}

Test(olcodec, malformed_corpus_gives_its_documented_message)
{
    FILE *f = fopen(SRC("fixtures/malformed/EXPECT"), "r");
    char line[1024];
    int cases = 0;
    cr_assert_not_null(f);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\n")] = '\0';
        char *tab = strchr(line, '\t');
        cr_assert_not_null(tab);
        *tab = '\0';
        char rel[1100];
        snprintf(rel, sizeof rel, "fixtures/malformed/%s", line);
        olerror err;
        int rc = first_error(SRC(rel), &err);
        cr_expect_eq(rc, OL_EMALFORMED, "%s was accepted", line);
        cr_expect(strstr(err.msg, tab + 1) != NULL, "%s: got \"%s\", want \"%s\"", line, err.msg,
                  tab + 1);
        cases++;
    }
    fclose(f);
    cr_assert_geq(cases, 40);
}

static const uint8_t end_event[] = {
    0x84, 0xa5, 'm', 'a', 't', 'c', 'h', 0xa3, 'm', '-', '1', 0xa3, 's', 'e', 'q', 0x01,
    0xa4, 't', 'y', 'p', 'e', 0xa3, 'e', 'n', 'd', 0xa2, 'b', 'y', 0xa2, 'p', '1'};

Test(olcodec, frame_decodes_exactly_one_event)
{
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_msgpack(end_event, sizeof end_event, (ol_origin){0, 0}, &ev, &err), OL_OK,
                 "%s", err.msg);
    cr_assert_eq(ev->type, OL_END);
    cr_assert_eq(ev->by, OL_BY_P1);
    cr_assert_eq(ev->seq, 1);
    cr_assert_str_eq(ev->match, "m-1");
    olevent_destroy(&ev);
}

Test(olcodec, frame_with_trailing_bytes_is_malformed)
{
    uint8_t buf[sizeof end_event + 2];
    memcpy(buf, end_event, sizeof end_event);
    buf[sizeof end_event] = 0xc0;
    buf[sizeof end_event + 1] = 0xc0;
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_msgpack(buf, sizeof buf, (ol_origin){0, 0}, &ev, &err), OL_EMALFORMED);
    cr_assert_null(ev);
    cr_assert_str_eq(err.msg, "byte 31: 2 trailing bytes after the event.");
}

/* Found by fuzz_decode_json: jansson lets a NUL byte through after a
 * number, and the offset scan stood still there, looping for ever (the
 * daemon decodes every message starting with '{' this way). */
Test(olcodec, json_with_a_nul_after_a_number_is_answered, .timeout = 10)
{
    static const char *const texts[] = {"{\"match\":[4\0]}", "[\r\r\r\r4\0\t]",
                                        "{\"match\":\"m\",\"seq\":0\0,\"type\":\"end\",\"by\":\"p1\"}"};
    static const size_t lens[] = {14, 9, 45};
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) {
        olevent *ev = NULL;
        olerror err;
        cr_assert_eq(olcodec_decode_json(texts[k], lens[k], (ol_origin){0, 0}, &ev, &err), OL_EMALFORMED,
                     "text %zu", k);
        cr_assert(err.msg[0], "text %zu: a refusal has a sentence", k);
        cr_assert_eq(olcodec_decode_message(texts[k], lens[k], &ev, NULL), OL_EMALFORMED, "text %zu", k);
    }
}

/* Found by fuzz_decode_msgpack: MessagePack counted levels of containers,
 * JSON counted a scalar in the 16th list as a 17th level, so an event read
 * from a .mlog could not be written as JSON and read back.  Both count maps
 * and lists now: 16 levels decode in both encodings, 17 in neither. */
static void nested_event(char *json, size_t cap, int levels)
{
    /* the event map is level 1; "x" holds levels - 1 lists, the last with a 7 */
    int n = snprintf(json, cap, "{\"match\":\"m\",\"seq\":1,\"type\":\"end\",\"by\":\"p1\",\"x\":");
    for (int i = 1; i < levels; i++)
        n += snprintf(json + n, cap - (size_t)n, "[");
    n += snprintf(json + n, cap - (size_t)n, "7");
    for (int i = 1; i < levels; i++)
        n += snprintf(json + n, cap - (size_t)n, "]");
    snprintf(json + n, cap - (size_t)n, "}");
}

Test(olcodec, nesting_counts_the_same_levels_in_both_encodings)
{
    char json[512];
    for (int levels = 15; levels <= 17; levels++) {
        nested_event(json, sizeof json, levels);
        olevent *ev = NULL, *back = NULL;
        olerror err;
        int want = levels <= OL_DEPTH_MAX ? OL_OK : OL_EMALFORMED;
        cr_assert_eq(olcodec_decode_json(json, strlen(json), (ol_origin){0, 0}, &ev, &err), want, "%d levels, JSON: %s",
                     levels, err.msg);
        /* the same tree as MessagePack, packed by hand: map, then lists */
        uint8_t mp[256];
        size_t n = 0;
        static const uint8_t head[] = {0x85, 0xa5, 'm', 'a', 't', 'c', 'h', 0xa1, 'm', 0xa3, 's', 'e', 'q', 0x01,
                                       0xa4, 't', 'y', 'p', 'e', 0xa3, 'e', 'n', 'd', 0xa2, 'b', 'y', 0xa2, 'p', '1',
                                       0xa1, 'x'};
        memcpy(mp, head, sizeof head);
        n = sizeof head;
        for (int i = 1; i < levels; i++)
            mp[n++] = 0x91;
        mp[n++] = 0x07;
        cr_assert_eq(olcodec_decode_msgpack(mp, n, (ol_origin){0, 0}, &back, &err), want, "%d levels, MessagePack: %s",
                     levels, err.msg);
        if (want == OL_OK) {
            char *out = NULL;
            size_t olen = 0;
            olevent *again = NULL;
            cr_assert_eq(olcodec_encode(back, OL_ENC_JSON, &out, &olen), OL_OK);
            cr_assert_eq(olcodec_decode_json(out, olen, (ol_origin){0, 0}, &again, &err), OL_OK,
                         "%d levels: MessagePack -> JSON -> decode: %s", levels, err.msg);
            free(out);
            olevent_destroy(&again);
        }
        olevent_destroy(&ev);
        olevent_destroy(&back);
    }
}

/* Found by a review: the sentence quoting a key of 401 bytes was cut inside
 * a two-byte character, was not UTF-8, could not be written as JSON, and
 * arbiterd took that for a failed store and stopped.  Now the key's size is
 * checked before its case, and every sentence and rule cut to fit a buffer
 * is made UTF-8 again (ol_utf8_clean). */
Test(olcodec, a_sentence_cut_to_fit_stays_utf8)
{
    char text[600];
    int n = snprintf(text, sizeof text, "{\"A");
    for (int i = 0; i < 200; i++)   /* a key of 401 bytes */
        n += snprintf(text + n, sizeof text - (size_t)n, "\xc3\xa9");
    snprintf(text + n, sizeof text - (size_t)n, "\":1}");
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 0}, &ev, &err), OL_EMALFORMED);
    olverdict v;
    olverdict_malformed(&v, err.match, err.has_seq, err.seq, err.key, err.msg);
    json_t *j = olverdict_to_json(&v, NULL);
    cr_assert_not_null(j, "the verdict can be written: %s", v.msg);
    json_decref(j);

    char cut[] = "ab\xc3", bad[] = "a\xff\xc3\xa9" "b\xe2\x82", ok[] = "caf\xc3\xa9";
    ol_utf8_clean(cut);
    ol_utf8_clean(bad);
    ol_utf8_clean(ok);
    cr_assert_str_eq(cut, "ab");
    cr_assert_str_eq(bad, "a?\xc3\xa9" "b");
    cr_assert_str_eq(ok, "caf\xc3\xa9");
}

Test(olcodec, frame_over_64k_is_malformed_before_parsing)
{
    size_t n = OL_EVENT_MAX + 1;
    uint8_t *buf = calloc(1, n);
    buf[0] = 0x80;
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_msgpack(buf, n, (ol_origin){0, 0}, &ev, &err), OL_EMALFORMED);
    cr_assert_str_eq(err.msg, "byte 0: the event is 65537 bytes; an event is at most 65536 bytes.");
    free(buf);
}

Test(olcodec, every_truncation_of_a_valid_event_is_malformed)
{
    for (size_t n = 1; n < sizeof end_event; n++) {
        olevent *ev = NULL;
        olerror err;
        cr_assert_eq(olcodec_decode_msgpack(end_event, n, (ol_origin){0, 0}, &ev, &err), OL_EMALFORMED,
                     "a prefix of %zu bytes was accepted", n);
        cr_assert_null(ev);
    }
}

Test(olcodec, huge_declared_counts_are_refused_at_their_offset)
{
    static const uint8_t arr32[] = {0xdd, 0xff, 0xff, 0xff, 0xff};
    size_t used = 0;
    olerror err;
    cr_assert_eq(olcodec_scan(arr32, sizeof arr32, 1, &used, (ol_origin){100, 0}, &err), OL_EMALFORMED);
    cr_assert_str_eq(err.msg, "byte 100: an array declares 4294967295 elements but only 0 bytes follow.");
}

Test(olcodec, malformed_error_keeps_match_and_seq_when_readable)
{
    const char *text = "{\"match\":\"t-9\",\"seq\":4,\"type\":\"attack\",\"by\":\"p1\"}";
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_EMALFORMED);
    cr_assert_str_eq(err.match, "t-9");
    cr_assert(err.has_seq);
    cr_assert_eq(err.seq, 4);
    cr_assert_str_eq(err.key, "");
    cr_assert_str_eq(err.msg, "line 1, column 1: the \"attack\" event needs \"target\".");
}

Test(olcodec, nested_error_names_its_path_and_position)
{
    const char *text =
        "{\"match\":\"x\",\"seq\":0,\"type\":\"match\",\"by\":\"table\",\"format\":\"snap\","
        "\"cards\":\"core@1.1.0\",\"hidden\":\"open\",\"players\":{\"p1\":{\"id\":\"a\",\"deck\":"
        "{\"monsters\":[\"m1\",7],\"supports\":[]}},\"p2\":{\"id\":\"b\",\"deck\":{\"monsters\":[],"
        "\"supports\":[]}}}}";
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 3}, &ev, &err), OL_EMALFORMED);
    cr_assert_str_eq(err.key, "players.p1.deck.monsters[1]");
    cr_assert_str_eq(err.msg,
                     "line 3, column 154: \"players.p1.deck.monsters[1]\" must be a card id, not an integer.");
}

Test(olcodec, unknown_keys_are_ignored_and_kept)
{
    const char *text = "{\"match\":\"m\",\"seq\":2,\"type\":\"end\",\"by\":\"p2\",\"future\":{\"a\":[1,-2,3.5]}}";
    olevent *ev = NULL;
    olerror err;
    char *out = NULL;
    size_t len = 0;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s", err.msg);
    cr_assert_eq(olcodec_encode(ev, OL_ENC_JSON, &out, &len), OL_OK);
    cr_assert_str_eq(out, text);
    free(out);
    olevent_destroy(&ev);
}

/* Found by fuzz_decode_json: msgpack-c gives an empty string a NULL
 * pointer, which jansson refused, so an event with an empty key (or an
 * empty string under an unknown key) lost its tree after MessagePack. */
Test(olcodec, empty_key_and_empty_string_survive_messagepack)
{
    const char *text = "{\"\":[\"x\"],\"match\":\"m\",\"seq\":2,\"type\":\"end\",\"by\":\"p2\",\"note\":\"\"}";
    olevent *ev = NULL, *back = NULL;
    olerror err;
    char *mp = NULL, *out = NULL;
    size_t mplen = 0, len = 0;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s", err.msg);
    cr_assert_eq(olcodec_encode(ev, OL_ENC_MSGPACK, &mp, &mplen), OL_OK);
    cr_assert_eq(olcodec_decode_msgpack((const uint8_t *)mp, mplen, (ol_origin){0, 0}, &back, &err), OL_OK, "%s",
                 err.msg);
    cr_assert_eq(olcodec_encode(back, OL_ENC_JSON, &out, &len), OL_OK);
    cr_assert_str_eq(out, text);
    free(mp);
    free(out);
    olevent_destroy(&ev);
    olevent_destroy(&back);
}

Test(olcodec, built_event_encodes_canonically)
{
    olevent *ev = olevent_new();
    cr_assert_not_null(ev);
    ev->match = olevent_strdup(ev, "built-1");
    ev->seq = 7;
    ev->type = OL_ATTACK;
    ev->by = OL_BY_P2;
    ev->target = (ol_ref){.kind = OL_REF_MONSTER, .p = OL_P1, .slot = OL_SLOT_ACTIVE};
    char *out = NULL;
    size_t len = 0;
    cr_assert_eq(olcodec_encode(ev, OL_ENC_JSON, &out, &len), OL_OK);
    cr_assert_str_eq(out, "{\"match\":\"built-1\",\"seq\":7,\"type\":\"attack\",\"by\":\"p2\","
                          "\"target\":{\"p\":\"p1\",\"s\":\"a\"}}");
    free(out);
    olevent_destroy(&ev);
}

Test(olcodec, header_levers_and_defaults)
{
    const char *text =
        "{\"match\":\"x\",\"seq\":0,\"type\":\"match\",\"by\":\"table\",\"format\":\"snap\","
        "\"cards\":\"core@1.1.0\",\"hidden\":\"commit\",\"rules\":{\"chain_cap\":2,\"p1_opening_lock\":false},"
        "\"players\":{\"p1\":{\"id\":\"a\",\"deck\":{\"monsters\":[],\"supports\":[]}},"
        "\"p2\":{\"id\":\"b\",\"deck\":{\"monsters\":[],\"supports\":[]}}}}";
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s", err.msg);
    cr_assert_eq(ev->header.hidden, OL_HIDDEN_COMMIT);
    cr_assert_eq(ol_header_lever(&ev->header, "chain_cap", 3), 2);
    cr_assert_eq(ol_header_lever(&ev->header, "p1_opening_lock", 1), 0);
    cr_assert_eq(ol_header_lever(&ev->header, "swaps_per_game", 1), 1);
    const ol_lever_info *li = ol_lever_find(OL_FORMAT_SNAP, "chain_cap");
    cr_assert_not_null(li);
    cr_assert_eq(li->dflt, 3);
    cr_assert_null(ol_lever_find(OL_FORMAT_SNAP, "mana_rate"));
    olevent_destroy(&ev);
}

Test(olverdict, wire_form_has_contract_key_order)
{
    olverdict v, stored;
    olverdict_set(&v, "m-1", 3, OL_V_DUPLICATE, NULL, NULL);
    olverdict_set(&stored, "m-1", 3, OL_V_ILLEGAL, "snap:9.4",
                  "p1 locked a Support in Round 2; no Support may be locked in Rounds 2-3.");
    json_t *j = olverdict_to_json(&v, &stored);
    char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    cr_assert_str_eq(s, "{\"match\":\"m-1\",\"seq\":3,\"status\":\"duplicate\",\"stored\":{\"match\":\"m-1\","
                        "\"seq\":3,\"status\":\"illegal\",\"rule\":\"snap:9.4\",\"msg\":\"p1 locked a Support "
                        "in Round 2; no Support may be locked in Rounds 2-3.\"}}");
    free(s);
    json_decref(j);
    for (int st = 0; st < OL_V_COUNT; st++)
        cr_assert_eq(ol_status_parse(ol_status_name((ol_status)st)), st);
}

Test(olevent, names_round_trip)
{
    for (int t = 0; t < OL_TYPE_COUNT; t++) {
        cr_assert_not_null(ol_type_name((ol_type)t));
        cr_assert_eq(ol_type_parse(ol_type_name((ol_type)t)), t);
        cr_assert_not_null(olcodec_type_rule((ol_type)t));
    }
    cr_assert_null(ol_type_name(OL_TYPE_COUNT));
    cr_assert_eq(ol_type_parse("teleport"), -1);
}

/* A line longer than the reader's window is one malformed event; the reader
 * skips to its end and the next line is read normally, in bounded memory. */
Test(olstream, overlong_json_line_is_skipped_and_reading_goes_on)
{
    char path[] = "/tmp/arbiter-longline-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs("{\"match\":\"m\",\"seq\":1,\"type\":\"end\",\"by\":\"p1\",\"x\":\"", f);
    for (int i = 0; i < 1000000; i++)
        fputc('a', f);
    fputs("\"}\n{\"match\":\"m\",\"seq\":2,\"type\":\"end\",\"by\":\"p2\"}\n", f);
    fclose(f);
    olreader *r = NULL;
    olerror err;
    olevent *ev = NULL;
    cr_assert_eq(olreader_open(path, OL_ENC_JSON, &r, &err), OL_OK);
    cr_assert_eq(olreader_next(r, &ev, NULL, NULL, &err), OL_EMALFORMED);
    cr_assert(strstr(err.msg, "line 1, column 1: the line is longer than") != NULL, "%s", err.msg);
    cr_assert_eq(olreader_next(r, &ev, NULL, NULL, &err), 1, "%s", err.msg);
    cr_assert_eq(ev->seq, 2);
    olevent_destroy(&ev);
    cr_assert_eq(olreader_next(r, &ev, NULL, NULL, &err), 0);
    olreader_destroy(&r);
    unlink(path);
}

/* A structurally broken .mlog stops the reader: the next event's start
 * cannot be known.  A sound but invalid event is skipped. */
Test(olstream, mlog_invalid_event_is_skipped_broken_structure_stops)
{
    static const uint8_t bad_by[] = {0x84, 0xa5, 'm', 'a', 't', 'c', 'h', 0xa1, 'm', 0xa3, 's', 'e', 'q',
                                     0x01, 0xa4, 't', 'y', 'p', 'e', 0xa3, 'e', 'n', 'd', 0xa2, 'b', 'y', 0x07};
    size_t n = sizeof bad_by + sizeof end_event + 1;
    char *buf = malloc(n);
    memcpy(buf, bad_by, sizeof bad_by);
    memcpy(buf + sizeof bad_by, end_event, sizeof end_event);
    buf[n - 1] = (char)0xc1;
    olreader *r = olreader_new(buf, n, OL_ENC_MSGPACK);
    olerror err;
    olevent *ev = NULL;
    cr_assert_eq(olreader_next(r, &ev, NULL, NULL, &err), OL_EMALFORMED);
    cr_assert(strstr(err.msg, "byte 26: \"by\" must be one of") != NULL, "%s", err.msg);
    cr_assert_eq(olreader_next(r, &ev, NULL, NULL, &err), 1);
    cr_assert_eq(ev->type, OL_END);
    olevent_destroy(&ev);
    cr_assert_eq(olreader_next(r, &ev, NULL, NULL, &err), OL_EMALFORMED);
    cr_assert_str_eq(err.msg, "byte 58: the byte 0xc1, which MessagePack never uses.");
    cr_assert_eq(olreader_next(r, &ev, NULL, NULL, &err), 0);
    olreader_destroy(&r);
}

/* SPEC.md is the project's statement of the contract: it must list every
 * lever the codec accepts and show an example of every event type. */
Test(olcodec, spec_documents_every_lever_and_event_type)
{
    char *spec = NULL;
    size_t len = 0;
    olerror err;
    cr_assert_eq(olstream_read_file(SRC("logformat/SPEC.md"), 1 << 20, &spec, &len, &err), OL_OK);
    size_t n = 0;
    const ol_lever_info *l = ol_levers(&n);
    for (size_t i = 0; i < n; i++) {
        char row[128];
        snprintf(row, sizeof row, "| %s | `%s` |", ol_format_name(l[i].format), l[i].name);
        cr_expect(strstr(spec, row) != NULL, "SPEC.md has no row for the lever %s", row);
    }
    for (int t = 0; t < OL_TYPE_COUNT; t++) {
        char head[64];
        snprintf(head, sizeof head, "#### `%s`", ol_type_name((ol_type)t));
        cr_expect(strstr(spec, head) != NULL, "SPEC.md has no example of \"%s\"", ol_type_name((ol_type)t));
    }
    free(spec);
}

Test(olverdict, malformed_verdict_from_a_codec_error)
{
    const char *text = "{\"match\":\"t-1\",\"seq\":5,\"type\":\"flip\",\"by\":\"p1\",\"slot\":9,\"card\":\"x\"}";
    olevent *ev = NULL;
    olerror err;
    olverdict v;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 2}, &ev, &err), OL_EMALFORMED);
    olverdict_malformed(&v, err.match, err.has_seq, err.seq, err.key, err.msg);
    json_t *j = olverdict_to_json(&v, NULL);
    char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    cr_assert_str_eq(s, "{\"match\":\"t-1\",\"seq\":5,\"status\":\"malformed\",\"rule\":\"openlog:slot\","
                        "\"msg\":\"line 2, column 55: \\\"slot\\\" must be \\\"a\\\" (Snap's active slot) or a "
                        "slot number 0 to 6.\"}");
    free(s);
    json_decref(j);
    /* Nothing readable: no match, no seq, no rule. */
    olverdict_malformed(&v, NULL, 0, 0, "", "byte 0: an array declares 4294967295 elements but only 0 bytes follow.");
    j = olverdict_to_json(&v, NULL);
    s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    cr_assert_str_eq(s, "{\"status\":\"malformed\",\"msg\":\"byte 0: an array declares 4294967295 elements "
                        "but only 0 bytes follow.\"}");
    free(s);
    json_decref(j);
}

/* ---- the decoder's two paths (logformat/olcodec.c) --------------------
 * Small events go through a fast path that handles the common MessagePack
 * shapes and gives up on anything else; the full scan then decodes them.
 * Non-minimal encodings of the same values take the full path: the event
 * must come out the same. */
/* The typed fields of a frame (tree 0), or the tree kept for conversion
 * (tree 1), as JSON text; NULL when it does not decode. */
static char *dump_of(const uint8_t *buf, size_t n, int tree, olerror *err)
{
    olevent *ev = NULL;
    if (olcodec_decode_msgpack(buf, n, (ol_origin){0, 0}, &ev, err) != OL_OK)
        return NULL;
    json_t *j = tree ? olcodec_to_json(ev) : olcodec_typed_json(ev);
    char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(j);
    olevent_destroy(&ev);
    return s;
}

Test(olcodec, fast_path_and_full_scan_decode_alike)
{
    /* {"match":"m-1","seq":3,"type":"end","by":"p1"}, minimal */
    static const uint8_t base[] = {0x84, 0xa5, 'm', 'a', 't', 'c', 'h', 0xa3, 'm', '-', '1', 0xa3, 's', 'e', 'q',
                                   0x03, 0xa4, 't', 'y', 'p', 'e', 0xa3, 'e', 'n', 'd', 0xa2, 'b', 'y', 0xa2, 'p', '1'};
    /* the same with a map16 header, a str16 match id, a uint64 seq, a str32 key */
    static const uint8_t wide[] = {0xde, 0x00, 0x04, 0xdb, 0x00, 0x00, 0x00, 0x05, 'm', 'a', 't', 'c', 'h', 0xda, 0x00,
                                   0x03, 'm', '-', '1', 0xa3, 's', 'e', 'q', 0xcf, 0, 0, 0, 0, 0, 0, 0, 0x03, 0xa4,
                                   't', 'y', 'p', 'e', 0xa3, 'e', 'n', 'd', 0xa2, 'b', 'y', 0xa2, 'p', '1'};
    /* ... and with an unknown key holding a float, an int64 and non-ASCII */
    static const uint8_t extra[] = {0x85, 0xa5, 'm', 'a', 't', 'c', 'h', 0xa3, 'm', '-', '1', 0xa3, 's', 'e', 'q',
                                    0xd3, 0, 0, 0, 0, 0, 0, 0, 0x03, 0xa4, 't', 'y', 'p', 'e', 0xa3, 'e', 'n', 'd',
                                    0xa2, 'b', 'y', 0xa2, 'p', '1', 0xa4, 'n', 'o', 't', 'e', 0x93, 0xcb, 0x3f, 0xf8,
                                    0, 0, 0, 0, 0, 0, 0xd0, 0xff, 0xa2, 0xc3, 0xa9};
    olerror err;
    char *a = dump_of(base, sizeof base, 0, &err), *b = dump_of(wide, sizeof wide, 0, &err),
         *c = dump_of(extra, sizeof extra, 0, &err);
    char *ta = dump_of(base, sizeof base, 1, &err), *tb = dump_of(wide, sizeof wide, 1, &err),
         *tc = dump_of(extra, sizeof extra, 1, &err);
    cr_assert(a && b && c && ta && tb && tc, "%s", err.msg);
    cr_assert_str_eq(a, b);
    cr_assert_str_eq(a, c);
    cr_assert_str_eq(ta, tb);
    cr_assert_str_eq(tc, "{\"match\":\"m-1\",\"seq\":3,\"type\":\"end\",\"by\":\"p1\",\"note\":[1.5,-1,\"\u00e9\"]}");
    free(a);
    free(b);
    free(c);
    free(ta);
    free(tb);
    free(tc);
}

/* msgpack-c hands back some empty strings as a NULL pointer, which the
 * codec once turned into "out of memory" (exit 3); an empty string is a
 * string like any other, as in JSON. */
Test(olcodec, empty_strings_in_messagepack_are_strings)
{
    /* {"match":"m-1","seq":3,"type":"end","by":"p1","":""} */
    static const uint8_t ok[] = {0x85, 0xa5, 'm', 'a', 't', 'c', 'h', 0xa3, 'm', '-', '1', 0xa3, 's', 'e', 'q',
                                 0x03, 0xa4, 't', 'y', 'p', 'e', 0xa3, 'e', 'n', 'd', 0xa2, 'b', 'y', 0xa2, 'p', '1',
                                 0xa0, 0xa0};
    /* {"match":"","seq":3,...} */
    static const uint8_t bad[] = {0x84, 0xa5, 'm', 'a', 't', 'c', 'h', 0xa0, 0xa3, 's', 'e', 'q',
                                  0x03, 0xa4, 't', 'y', 'p', 'e', 0xa3, 'e', 'n', 'd', 0xa2, 'b', 'y', 0xa2, 'p', '1'};
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_msgpack(ok, sizeof ok, (ol_origin){0, 0}, &ev, &err), OL_OK, "%s", err.msg);
    olevent_destroy(&ev);
    cr_assert_eq(olcodec_decode_msgpack(bad, sizeof bad, (ol_origin){0, 0}, &ev, &err), OL_EMALFORMED);
    cr_assert_str_eq(err.msg, "byte 7: \"match\" must be 1 to 64 bytes long.");
}

/* A reader hands the memory of a released event to the next one: every
 * event of a stream decodes as it does alone. */
Test(olstream, released_events_lend_their_memory_to_the_next)
{
    olreader *in = NULL;
    olerror err;
    cr_assert_eq(olreader_open(SRC("fixtures/logs/snap-commit-every-event.jsonl"), -1, &in, &err), OL_OK, "%s",
                 err.msg);
    char *buf = NULL;
    size_t len = 0, n = 0;
    json_t *want = json_array();
    olevent *ev = NULL;
    while (olreader_next(in, &ev, NULL, NULL, &err) == 1) {
        char *mp = NULL;
        size_t mplen = 0;
        cr_assert_eq(olcodec_encode(ev, OL_ENC_MSGPACK, &mp, &mplen), OL_OK);
        buf = realloc(buf, len + mplen);
        memcpy(buf + len, mp, mplen);
        len += mplen;
        free(mp);
        json_array_append_new(want, olcodec_typed_json(ev));
        olevent_destroy(&ev);
    }
    olreader_destroy(&in);
    olreader *r = olreader_new(buf, len, OL_ENC_MSGPACK);
    while (olreader_next(r, &ev, NULL, NULL, &err) == 1) {
        json_t *got = olcodec_typed_json(ev);
        cr_assert(json_equal(got, json_array_get(want, n)), "event %zu differs", n);
        json_decref(got);
        olreader_release(r, &ev);
        cr_assert_null(ev);
        n++;
    }
    cr_assert_eq(n, json_array_size(want));
    cr_assert_gt(n, 10);
    json_decref(want);
    olreader_destroy(&r);
}

/* An event body and the sentence its malformed verdict must hold. */
typedef struct {
    const char *body, *msg;
} bad_body;

/* Each body, in the envelope `fmt` (a printf format with one %s), is
 * malformed with its sentence. */
static void expect_malformed_bodies(const char *fmt, const bad_body *bad, size_t n)
{
    char text[512];
    for (size_t i = 0; i < n; i++) {
        olevent *ev = NULL;
        olerror err;
        snprintf(text, sizeof text, fmt, bad[i].body);
        cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_EMALFORMED, "%s", text);
        cr_assert(strstr(err.msg, bad[i].msg), "%s: %s", text, err.msg);
    }
}

/* SPEC.md 7.4: a Master payment names classes and counts; a mana card its
 * class; an attack its index.  Each malformed shape is a sentence. */
Test(olcodec, master_pay_class_and_attack_index)
{
    static const bad_body bad[] = {
        {"\"type\":\"spell\",\"card\":\"x\",\"targets\":[],\"pay\":{\"purple\":1}",
         "\"pay\" names classes only (coreon, fluxion, synaphera, obscura, aetherion)"},
        {"\"type\":\"spell\",\"card\":\"x\",\"targets\":[],\"pay\":{\"coreon\":21}",
         "\"pay.coreon\" is 21; a payment holds at most 20 mana of a class"},
        {"\"type\":\"spell\",\"card\":\"x\",\"targets\":[],\"pay\":[1]", "\"pay\" must be a map"},
        {"\"type\":\"mana\",\"card\":null,\"class\":\"red\"", "\"class\" must be one of \"coreon\""},
        {"\"type\":\"mana\",\"card\":null", "the \"mana\" event needs \"class\""},
        {"\"type\":\"attack\",\"slot\":0,\"attack\":-1,\"target\":{\"p\":\"p2\"}", "\"attack\" must be an unsigned integer"},
    };
    expect_malformed_bodies("{\"match\":\"m\",\"seq\":3,\"by\":\"p1\",%s}", bad, sizeof bad / sizeof bad[0]);
    const char *ok = "{\"match\":\"m\",\"seq\":3,\"type\":\"attack\",\"by\":\"p1\",\"slot\":2,\"attack\":3,"
                     "\"target\":{\"p\":\"p2\"},\"pay\":{\"fluxion\":2,\"coreon\":1}}";
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(ok, strlen(ok), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s", err.msg);
    cr_assert(ev->has_attack && ev->attack == 3 && ev->has_pay);
    cr_assert_eq(ev->pay[OL_CLASS_COREON], 1);
    cr_assert_eq(ev->pay[OL_CLASS_FLUXION], 2);
    cr_assert_eq(ev->pay[OL_CLASS_OBSCURA], 0);
    /* the typed fields write the payment in class order */
    json_t *j = olcodec_typed_json(ev);
    char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    cr_assert(strstr(s, "\"pay\":{\"coreon\":1,\"fluxion\":2}"), "%s", s);
    free(s);
    json_decref(j);
    olevent_destroy(&ev);
}

/* SPEC.md 5: the header's seats are "p1" to "pN", 2 <= N <= 8, without a
 * gap; each seat's deck is optional in the codec.  Both encodings go
 * through the same typed decoder: each case is decoded as JSON and, converted,
 * as MessagePack, and must give the same answer. */
static int decode_players(const char *players, olevent **out, olerror *err)
{
    char text[2048];
    snprintf(text, sizeof text,
             "{\"match\":\"np\",\"seq\":0,\"type\":\"match\",\"by\":\"table\",\"format\":\"snap\","
             "\"cards\":\"core@1.1.0\",\"hidden\":\"open\",\"players\":%s}", players);
    olevent *j = NULL, *m = NULL;
    olerror jerr, merr;
    int rj = olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &j, &jerr);
    json_error_t jerror;
    json_t *tree = json_loads(text, 0, &jerror);
    cr_assert_not_null(tree, "%s", jerror.text);
    char *mp = NULL;
    size_t mplen = 0;
    cr_assert_eq(olcodec_json_to_msgpack(tree, &mp, &mplen), OL_OK);
    json_decref(tree);
    int rm = olcodec_decode_msgpack((uint8_t *)mp, mplen, (ol_origin){0, 0}, &m, &merr);
    free(mp);
    cr_assert_eq(rj, rm, "%s: JSON %d, MessagePack %d", players, rj, rm);
    if (rj == OL_OK) {
        cr_assert_eq(j->header.n_players, m->header.n_players);
        olevent_destroy(&m);
        *out = j;
    } else {
        cr_assert_str_eq(jerr.key, merr.key);
        *err = jerr;
    }
    return rj;
}

#define SEAT(n) "\"p" #n "\":{\"id\":\"player" #n "\"}"

Test(olcodec, header_seats_p1_to_p8)
{
    static const struct {
        const char *players;
        unsigned n;
    } ok[] = {
        {"{" SEAT(1) "," SEAT(2) "}", 2},
        {"{" SEAT(2) "," SEAT(3) "," SEAT(1) "}", 3},   /* map order is not seat order */
        {"{" SEAT(1) "," SEAT(2) "," SEAT(3) "," SEAT(4) "}", 4},
        {"{" SEAT(1) "," SEAT(2) "," SEAT(3) "," SEAT(4) "," SEAT(5) "," SEAT(6) "," SEAT(7) "," SEAT(8) "}", 8},
        {"{" SEAT(1) "," SEAT(2) ",\"note\":\"a key that is no seat is ignored\"}", 2},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        olevent *ev = NULL;
        olerror err;
        cr_assert_eq(decode_players(ok[i].players, &ev, &err), OL_OK, "%s: %s", ok[i].players, err.msg);
        cr_assert_eq(ev->header.n_players, ok[i].n, "%s", ok[i].players);
        for (unsigned p = 0; p < ok[i].n; p++) {
            char id[16];
            snprintf(id, sizeof id, "player%u", p + 1);
            cr_assert_str_eq(ev->header.players[p].id, id);
            cr_assert_eq(ev->header.players[p].has_deck, 0);
        }
        /* re-encoded from the typed fields alone: the seats, no deck */
        json_t *typed = olcodec_typed_json(ev), *seats = json_object_get(typed, "players");
        cr_assert_eq(json_object_size(seats), ok[i].n);
        cr_assert_null(json_object_get(json_object_get(seats, "p1"), "deck"));
        json_decref(typed);
        olevent_destroy(&ev);
    }
}

Test(olcodec, header_seats_with_a_gap_past_p8_or_alone_are_malformed)
{
    static const struct {
        const char *players, *key, *phrase;
    } bad[] = {
        {"{" SEAT(1) "}", "players", "\"players.p2\" is required"},
        {"{" SEAT(2) "}", "players", "\"players.p1\" is required"},
        {"{" SEAT(1) "," SEAT(3) "}", "players", "\"players.p2\" is required"},
        {"{" SEAT(1) "," SEAT(2) "," SEAT(4) "}", "players", "\"players.p3\" is required"},
        {"{" SEAT(1) "," SEAT(2) "," SEAT(3) "," SEAT(4) "," SEAT(5) "," SEAT(6) "," SEAT(7) "," SEAT(8) ","
         SEAT(9) "}", "players.p9", "\"p9\" is not a seat: a match has \"p1\" to \"p8\" at most"},
        {"{" SEAT(0) "," SEAT(1) "," SEAT(2) "}", "players.p0", "\"p0\" is not a seat"},
        {"{\"p01\":{\"id\":\"x\"}," SEAT(1) "," SEAT(2) "}", "players.p01", "\"p01\" is not a seat"},
        {"{}", "players", "\"players.p1\" is required"},
        {"[]", "players", "must be a map of the seats"},
        {"{" SEAT(1) ",\"p2\":{\"deck\":{\"monsters\":[],\"supports\":[]}}}", "players.p2", "\"players.p2.id\" is required"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        olevent *ev = NULL;
        olerror err;
        cr_assert_eq(decode_players(bad[i].players, &ev, &err), OL_EMALFORMED, "%s", bad[i].players);
        cr_assert_str_eq(err.key, bad[i].key, "%s", bad[i].players);
        cr_assert(strstr(err.msg, bad[i].phrase), "%s: %s", bad[i].players, err.msg);
    }
}

/* A deck, when a seat has one, is still read and checked for its shape. */
Test(olcodec, header_seat_deck_is_optional_but_checked)
{
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(decode_players("{\"p1\":{\"id\":\"a\",\"deck\":{\"monsters\":[\"m\"],\"supports\":[]}}," SEAT(2) "}",
                                &ev, &err), OL_OK, "%s", err.msg);
    cr_assert_eq(ev->header.players[0].has_deck, 1);
    cr_assert_eq(ev->header.players[0].deck.monsters.n, 1);
    cr_assert_eq(ev->header.players[1].has_deck, 0);
    olevent_destroy(&ev);
    cr_assert_eq(decode_players("{\"p1\":{\"id\":\"a\",\"deck\":{\"monsters\":[7],\"supports\":[]}}," SEAT(2) "}",
                                &ev, &err), OL_EMALFORMED);
    cr_assert_str_eq(err.key, "players.p1.deck.monsters[0]");
}

/* `by` and every seat an event names may be p1 to p8 on the wire; whether
 * the match has that seat is the verifier's verdict, not the codec's. */
Test(olcodec, seats_p3_to_p8_parse_and_p9_does_not)
{
    for (int p = 1; p <= 9; p++) {
        char text[256];
        snprintf(text, sizeof text,
                 "{\"match\":\"m\",\"seq\":3,\"type\":\"judge\",\"by\":\"p%d\",\"ruling\":\"note\",\"player\":\"p%d\","
                 "\"text\":\"x\"}", p, p);
        olevent *ev = NULL;
        olerror err;
        int rc = olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err);
        if (p == 9) {
            cr_assert_eq(rc, OL_EMALFORMED);
            cr_assert(strstr(err.msg, "\"by\" must be one of the seats \"p1\" to \"p8\", \"table\" or \"judge\""),
                      "%s", err.msg);
            continue;
        }
        cr_assert_eq(rc, OL_OK, "%s", err.msg);
        cr_assert_eq((int)ev->by, p - 1);
        cr_assert_eq((int)ev->player, p - 1);
        cr_assert_str_eq(ol_by_name(ev->by), ol_player_name(ev->player));
        olevent_destroy(&ev);
    }
    cr_assert_eq(ol_by_parse("table"), OL_BY_TABLE);
    cr_assert_eq(ol_by_parse("judge"), OL_BY_JUDGE);
    cr_assert_eq(ol_by_parse("p8"), OL_BY_P8);
    cr_assert_eq(ol_player_parse("p8"), OL_P8);
    cr_assert_eq(ol_player_parse("p9"), -1);
    cr_assert_null(ol_player_name((ol_player)OL_PLAYERS_MAX));
}

/* SPEC.md 7.6: the classic Snap vocabulary.  Each event is decoded from
 * JSON and, converted, from MessagePack, and both give the same fields. */
static olevent *decode_both(const char *text)
{
    olevent *j = NULL, *m = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &j, &err), OL_OK, "%s: %s", text, err.msg);
    json_error_t jerror;
    json_t *tree = json_loads(text, 0, &jerror);
    cr_assert_not_null(tree, "%s", jerror.text);
    char *mp = NULL;
    size_t mplen = 0;
    cr_assert_eq(olcodec_json_to_msgpack(tree, &mp, &mplen), OL_OK);
    cr_assert_eq(olcodec_decode_msgpack((uint8_t *)mp, mplen, (ol_origin){0, 0}, &m, &err), OL_OK, "%s", err.msg);
    json_t *ta = olcodec_typed_json(j), *tb = olcodec_typed_json(m);
    cr_assert(json_equal(ta, tree) && json_equal(tb, tree), "%s: the typed fields differ", text);
    json_decref(ta);
    json_decref(tb);
    json_decref(tree);
    free(mp);
    olevent_destroy(&m);
    return j;
}

Test(olcodec, classic_events_decode_in_both_encodings)
{
    olevent *ev = decode_both("{\"match\":\"c\",\"seq\":0,\"type\":\"match\",\"by\":\"table\",\"format\":\"classic\","
                              "\"cards\":\"standard@1\",\"hidden\":\"commit\",\"players\":{\"p1\":{\"id\":\"ann\"},"
                              "\"p2\":{\"id\":\"ben\"},\"p3\":{\"id\":\"mia\"}},\"rules\":{\"decks\":2,\"dealer\":3,"
                              "\"first\":2,\"common_pile\":true,\"snap_pot\":false,\"prop\":true,\"tie_window\":250}}");
    cr_assert_eq(ev->header.format, OL_FORMAT_CLASSIC);
    cr_assert_eq(ev->header.n_players, 3);
    cr_assert_not(ev->header.players[2].has_deck);
    cr_assert_eq(ol_header_lever(&ev->header, "tie_window", 0), 250);
    cr_assert_eq(ol_header_lever(&ev->header, "common_pile", 0), 1);
    olevent_destroy(&ev);

    ev = decode_both("{\"match\":\"c\",\"seq\":1,\"type\":\"deal\",\"by\":\"table\",\"player\":\"p3\","
                     "\"cards\":[null,null,null]}");
    cr_assert_eq(ev->type, OL_DEAL);
    cr_assert(ev->has_player && ev->player == OL_P3 && ev->n_cards == 3);
    olevent_destroy(&ev);

    ev = decode_both("{\"match\":\"c\",\"seq\":2,\"type\":\"flip\",\"by\":\"p2\",\"card\":\"4-clubs\",\"at\":1250}");
    cr_assert(ev->has_at && ev->at == 1250 && !ev->has_slot);
    olevent_destroy(&ev);

    ev = decode_both("{\"match\":\"c\",\"seq\":3,\"type\":\"snap\",\"by\":\"p3\",\"at\":1390}");
    cr_assert(ev->type == OL_SNAP && ev->at == 1390);
    olevent_destroy(&ev);
    ev = decode_both("{\"match\":\"c\",\"seq\":4,\"type\":\"snap_pot\",\"by\":\"p1\",\"at\":9007199254740993}");
    cr_assert(ev->type == OL_SNAP_POT && ev->at == 9007199254740993ull);
    olevent_destroy(&ev);

    ev = decode_both("{\"match\":\"c\",\"seq\":5,\"type\":\"take\",\"by\":\"table\",\"player\":\"p1\","
                     "\"piles\":[\"p8\",\"p2\"],\"pot\":true,\"cards\":[\"4-clubs\",\"4-hearts\"]}");
    cr_assert(ev->type == OL_TAKE && ev->pot && ev->has_piles && ev->n_piles == 2);
    cr_assert(ev->piles[0] == OL_P8 && ev->piles[1] == OL_P2);
    olevent_destroy(&ev);
    ev = decode_both("{\"match\":\"c\",\"seq\":6,\"type\":\"take\",\"by\":\"table\",\"player\":\"p1\",\"cards\":[]}");
    cr_assert(!ev->has_piles && !ev->pot);
    olevent_destroy(&ev);

    static const char *const simple[] = {
        "{\"match\":\"c\",\"seq\":7,\"type\":\"pot\",\"by\":\"table\",\"piles\":[\"p1\",\"p2\"]}",
        "{\"match\":\"c\",\"seq\":8,\"type\":\"pot\",\"by\":\"table\"}",
        "{\"match\":\"c\",\"seq\":9,\"type\":\"penalty\",\"by\":\"table\",\"player\":\"p4\"}",
        "{\"match\":\"c\",\"seq\":10,\"type\":\"turn_over\",\"by\":\"table\",\"player\":\"p2\",\"cards\":[null]}",
        "{\"match\":\"c\",\"seq\":11,\"type\":\"out\",\"by\":\"table\",\"player\":\"p5\"}",
        "{\"match\":\"c\",\"seq\":12,\"type\":\"claim\",\"by\":\"table\",\"draw\":true}",
    };
    static const ol_type want[] = {OL_POT, OL_POT, OL_PENALTY, OL_TURN_OVER, OL_OUT, OL_CLAIM};
    for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++) {
        ev = decode_both(simple[i]);
        cr_assert_eq(ev->type, want[i], "%s", simple[i]);
        olevent_destroy(&ev);
    }
}

/* The new keys go through the same length-and-letter index as the old:
 * "at" beside "by" and "lp", "pot" beside "pay", "draw", "piles"; a key of
 * the same length and first letter that is none of them is unknown. */
Test(olcodec, classic_malformed_shapes_are_sentences)
{
    static const bad_body bad[] = {
        {"\"type\":\"flip\",\"by\":\"p1\",\"card\":\"x\"", "the \"flip\" event needs \"slot\" (Snap) or \"at\""},
        {"\"type\":\"flip\",\"by\":\"p1\",\"card\":\"x\",\"ax\":5", "the \"flip\" event needs \"slot\" (Snap) or \"at\""},
        {"\"type\":\"snap\",\"by\":\"p1\"", "the \"snap\" event needs \"at\""},
        {"\"type\":\"snap\",\"by\":\"p1\",\"at\":-5", "\"at\" must be"},
        {"\"type\":\"snap_pot\",\"by\":\"p1\",\"at\":\"soon\"", "\"at\" must be"},
        {"\"type\":\"deal\",\"by\":\"table\",\"cards\":[]", "the \"deal\" event needs \"player\""},
        {"\"type\":\"take\",\"by\":\"table\",\"player\":\"p1\",\"piles\":[\"p9\"],\"cards\":[]",
         "\"piles[0]\" must be one of the seats"},
        {"\"type\":\"take\",\"by\":\"table\",\"player\":\"p1\",\"pot\":1,\"cards\":[]", "\"pot\" must be true or false"},
        {"\"type\":\"take\",\"by\":\"table\",\"player\":\"p1\",\"pit\":true", "the \"take\" event needs \"cards\""},
        {"\"type\":\"pot\",\"by\":\"table\",\"piles\":\"p1\"", "\"piles\" must be a list"},
        {"\"type\":\"claim\",\"by\":\"table\",\"drew\":true", "a \"claim\" needs"},
        {"\"type\":\"claim\",\"by\":\"table\",\"draw\":\"yes\"", "\"draw\" must be true or false"},
    };
    expect_malformed_bodies("{\"match\":\"m\",\"seq\":3,%s}", bad, sizeof bad / sizeof bad[0]);
    /* "pay" still decodes as pay beside "pot" */
    const char *ok = "{\"match\":\"m\",\"seq\":3,\"type\":\"spell\",\"by\":\"p1\",\"card\":\"x\",\"targets\":[],"
                     "\"pay\":{\"coreon\":1},\"pot\":true,\"at\":4}";
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(ok, strlen(ok), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s", err.msg);
    cr_assert(ev->has_pay && ev->pay[OL_CLASS_COREON] == 1);
    cr_assert_not(ev->has_at);   /* a spell has no "at": an unknown key there */
    olevent_destroy(&ev);
}

Test(olcodec, classic_levers_are_checked)
{
    static const char *const bad[] = {"\"decks\":0", "\"decks\":9", "\"dealer\":9", "\"first\":9",
                                      "\"tie_window\":1001", "\"prop\":1", "\"chain_cap\":2"};
    char text[512];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        olevent *ev = NULL;
        olerror err;
        snprintf(text, sizeof text,
                 "{\"match\":\"c\",\"seq\":0,\"type\":\"match\",\"by\":\"table\",\"format\":\"classic\","
                 "\"cards\":\"standard@1\",\"hidden\":\"open\",\"players\":{\"p1\":{\"id\":\"a\"},"
                 "\"p2\":{\"id\":\"b\"}},\"rules\":{%s}}", bad[i]);
        cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_EMALFORMED, "%s", text);
    }
    cr_assert_eq(ol_lever_find(OL_FORMAT_CLASSIC, "tie_window")->dflt, 100);
    cr_assert_eq(ol_format_parse("classic"), OL_FORMAT_CLASSIC);
}

/* ---- olcodec_msgpack_text: json_dumps's bytes without the tree ---------- */

/* The text of mp (less `drop`) is json_dumps(JSON_COMPACT) of the tree
 * olcodec_msgpack_to_json makes of it, or both refuse the bytes; the picks
 * say what the tree's top level says.  1 when the bytes were accepted. */
static int same_text(const uint8_t *mp, size_t len, const char *drop)
{
    json_t *j = NULL;
    jtext t = {0};
    jtext_lit(&t, "before:");
    olcodec_pick pick[] = {{.key = "type"}, {.key = "seq"}, {.key = "nonce"}};
    int trc = olcodec_msgpack_to_json(mp, len, (ol_origin){0, 0}, &j, NULL);
    int xrc = olcodec_msgpack_text(mp, len, drop, NULL, 0, pick, 3, &t);
    cr_assert_eq(xrc == OL_OK, trc == OL_OK, "the text (%d) and the tree (%d) disagree on %zu bytes", xrc, trc, len);
    if (trc != OL_OK) {
        cr_assert_str_eq(t.buf, "before:", "a refused text leaves what was there: %s", t.buf);
        jtext_free(&t);
        return 0;
    }
    for (size_t i = 0; i < 3; i++) {
        json_t *v = json_object_get(j, pick[i].key);
        cr_assert_eq(pick[i].present, v != NULL, "pick %s", pick[i].key);
        cr_assert_eq(pick[i].s != NULL, json_is_string(v), "pick %s", pick[i].key);
        if (json_is_string(v)) {
            cr_assert_eq(pick[i].n, json_string_length(v));
            cr_assert(!memcmp(pick[i].s, json_string_value(v), pick[i].n));
        }
    }
    if (drop && json_is_object(j))
        json_object_del(j, drop);
    char *d = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
    cr_assert_not_null(d);
    cr_assert_eq(t.len, strlen("before:") + strlen(d));
    cr_assert_str_eq(t.buf + strlen("before:"), d);
    free(d);
    json_decref(j);
    jtext_free(&t);
    return 1;
}

static int same_text_of_json(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
    cr_assert_not_null(j, "%s: %s", text, e.text);
    char *mp = NULL;
    size_t len = 0;
    cr_assert_eq(olcodec_json_to_msgpack(j, &mp, &len), OL_OK);
    int ok = same_text((uint8_t *)mp, len, NULL) & same_text((uint8_t *)mp, len, "nonce");
    free(mp);
    json_decref(j);
    return ok;
}

Test(olcodec, msgpack_text_is_the_trees_dump_for_every_fixture_event)
{
    glob_t g;
    size_t n = 0;
    cr_assert_eq(glob(SRC("fixtures/logs/*.jsonl"), 0, NULL, &g), 0);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        olreader *r = NULL;
        olerror err;
        olevent *ev = NULL;
        cr_assert_eq(olreader_open(g.gl_pathv[i], -1, &r, &err), OL_OK, "%s", err.msg);
        while (olreader_next(r, &ev, NULL, NULL, &err) > 0) {
            char *mp = NULL;
            size_t len = 0;
            cr_assert_eq(olcodec_encode(ev, OL_ENC_MSGPACK, &mp, &len), OL_OK);
            cr_assert(same_text((uint8_t *)mp, len, NULL), "%s seq %llu", g.gl_pathv[i], (unsigned long long)ev->seq);
            cr_assert(same_text((uint8_t *)mp, len, "nonce"));
            free(mp);
            olevent_destroy(&ev);
            n++;
        }
        olreader_destroy(&r);
    }
    globfree(&g);
    cr_assert_gt(n, 100);
}

Test(olcodec, msgpack_text_of_verdicts_with_sentences)
{
    static const char *msgs[] = {"", "plain", "quote \" backslash \\ slash /", "tab\tnewline\ncr\r\bform\f",
                                 "\x01\x1f\x7f control", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"};
    for (size_t i = 0; i < sizeof msgs / sizeof msgs[0]; i++) {
        olverdict v, stored;
        olverdict_set(&v, "m-1", 7, OL_V_ILLEGAL, "snap:13.3", "%s", msgs[i]);
        olverdict_set(&stored, "m-1", 7, OL_V_OK, "", "%s", msgs[i]);
        for (int with = 0; with < 2; with++) {
            json_t *j = olverdict_to_json(&v, with ? &stored : NULL);
            char *mp = NULL;
            size_t len = 0;
            cr_assert_eq(olcodec_json_to_msgpack(j, &mp, &len), OL_OK);
            cr_assert(same_text((uint8_t *)mp, len, NULL), "msg %zu", i);
            free(mp);
            json_decref(j);
        }
    }
}

Test(olcodec, msgpack_text_of_every_json_value)
{
    /* the open log refuses a NUL in a string: the text too */
    cr_assert_not(same_text_of_json("{\"a\":\"\\u0000 inside\"}"));
    cr_assert(same_text_of_json("{\"a\":\"\\u001f inside\",\"\":\"\",\"nonce\":\"00\",\"b\":[1,-1,0,[],{},null,true,false],"
                                "\"big\":9223372036854775807,\"small\":-9223372036854775808,"
                                "\"u\":\"\\u00e9\\u20ac\\ud83d\\ude00\\u2028\",\"k\\\"ey\\n\":{\"deep\":[[[\"x\"]]]}}"));
    cr_assert(same_text_of_json("{\"r\":1.5,\"s\":0.1,\"t\":1e300,\"u\":-2.5e-300,\"v\":100.0,\"w\":[3.0]}"));
    cr_assert(same_text_of_json("[\"nonce\",{\"nonce\":1}]"));   /* only a top-level map's member is dropped */
    cr_assert(same_text_of_json("\"a string alone\""));
    cr_assert(same_text_of_json("12"));
    /* 17 keys or more: the other way of finding a repeated one */
    cr_assert(same_text_of_json("{\"k01\":1,\"k02\":1,\"k03\":1,\"k04\":1,\"k05\":1,\"k06\":1,\"k07\":1,\"k08\":1,"
                                "\"k09\":1,\"k10\":1,\"k11\":1,\"k12\":1,\"k13\":1,\"k14\":1,\"k15\":1,\"k16\":1,\"k17\":1}"));
}

Test(olcodec, msgpack_text_refuses_what_the_tree_refuses)
{
    static const struct {
        const char *what;
        const char *bytes;
        size_t len;
    } bad[] = {
        {"a repeated key", "\x82\xa1k\x01\xa1k\x02", 7},
        {"an invalid UTF-8 string", "\x81\xa1k\xa2\xc3\x28", 7},
        {"a NaN", "\x81\xa1k\xcb\x7f\xf8\x00\x00\x00\x00\x00\x00", 12},
        {"a binary value", "\x81\xa1k\xc4\x01\x00", 7},
        {"a key that is not a string", "\x81\x01\x01", 3},
        {"a truncated map", "\x82\xa1k\x01", 4},
        {"trailing bytes", "\x81\xa1k\x01\x01", 5},
        {"an integer past int64", "\x81\xa1k\xcf\xff\xff\xff\xff\xff\xff\xff\xff", 12},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_not(same_text((const uint8_t *)bad[i].bytes, bad[i].len, NULL), "%s is accepted", bad[i].what);
    /* a repeated key among 17 or more */
    uint8_t big[256];
    size_t n = 0;
    big[n++] = 0xde, big[n++] = 0, big[n++] = 20;
    for (int k = 0; k < 20; k++) {
        big[n++] = 0xa3, big[n++] = 'k', big[n++] = (uint8_t)('a' + k % 19), big[n++] = 'x';
        big[n++] = (uint8_t)k;
    }
    cr_assert_not(same_text(big, n, NULL), "a repeated key among 20 is accepted");
    big[3 + 19 * 5 + 2] = 'z';   /* the 20th key made unique */
    cr_assert(same_text(big, n, NULL));
}

/* The strings a view may not see, written null: a string member, and a
 * list's first items that are strings; members of other shapes, and
 * nested maps, as they are. */
Test(olcodec, msgpack_text_writes_masked_strings_null)
{
    static const char in[] = "{\"card\":\"cor-a\",\"cards\":[\"x\",{\"c\":\"ab\"},\"y\",\"z\"],\"slots\":\"s\","
                             "\"other\":\"o\",\"hand\":{\"card\":\"inner\"},\"all\":[\"a\",\"b\"],\"nonce\":\"n\"}";
    static const olcodec_null nulls[] = {
        {"card", 0, 0}, {"cards", 1, 3}, {"slots", 1, 2}, {"hand", 0, 0}, {"all", 1, SIZE_MAX}, {"absent", 0, 0},
    };
    json_t *j = json_loads(in, 0, NULL);
    char *mp = NULL;
    size_t len = 0;
    cr_assert_eq(olcodec_json_to_msgpack(j, &mp, &len), OL_OK);
    jtext t = {0};
    cr_assert_eq(olcodec_msgpack_text((uint8_t *)mp, len, "nonce", nulls, sizeof nulls / sizeof nulls[0], NULL, 0, &t),
                 OL_OK);
    cr_assert_str_eq(t.buf, "{\"card\":null,\"cards\":[null,{\"c\":\"ab\"},null,\"z\"],\"slots\":\"s\",\"other\":\"o\","
                            "\"hand\":{\"card\":\"inner\"},\"all\":[null,null]}");
    jtext_free(&t);
    free(mp);
    json_decref(j);
}
