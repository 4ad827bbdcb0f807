# fuzz.mk -- the libFuzzer targets (fuzz/README.md), included by Makefile.am.
#
#   make fuzz-build      build every target with clang (ASan + UBSan + libFuzzer)
#   make fuzz-seeds      write the seed corpora from the fixtures (fuzz/seed.sh)
#   make fuzz            run each target for FUZZ_SECONDS (default 3600: the
#                        run before a release), FUZZ_JOBS at a time (default
#                        1), from its seeds and the corpus of the runs before
#   make fuzz-smoke      the same for FUZZ_SECONDS 15 unless told
#                        (./quickstart check: 10)
#
# Either run fails on a crash, a leak, a timeout or a harness abort
# (fuzz/run.sh).  FUZZ_TARGETS=fuzz_session picks targets.
#
# The library is compiled a second time, by clang with coverage
# instrumentation, into fuzz/obj/: libFuzzer needs the code under test
# instrumented, and the plain and sanitizer builds are gcc's.  Nothing here
# is part of `all` or `check`: clang is needed only for these targets.

FUZZ_CC = clang
# Seconds per target: an hour for `make fuzz`, 15 s for `make fuzz-smoke`
# (a value given on the command line wins over both).
FUZZ_SECONDS = 3600
fuzz-smoke: FUZZ_SECONDS = 15
FUZZ_JOBS = 1
FUZZ_TARGETS = fuzz_decode_msgpack fuzz_decode_json fuzz_session fuzz_query fuzz_cards fuzz_deck
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS = -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) -pthread -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wno-unused-parameter
FUZZ_CPPFLAGS = -I$(top_srcdir) -I$(top_builddir) -DARBITER_DATADIR='"$(pkgdatadir)"' -DFUZZ_SRCDIR='"$(abs_top_srcdir)"' -DVERIFIER_UNDO_CHECK $(DEPS_CFLAGS)
FUZZ_LIB_OBJS = $(patsubst %.c,fuzz/obj/%.o,$(filter %.c,$(libarbiter_a_SOURCES)) fuzz/harness.c)
FUZZ_BINS = $(addprefix fuzz/,$(FUZZ_TARGETS))

fuzz-build: $(FUZZ_BINS)

fuzz/obj/%.o: $(top_srcdir)/%.c
	@mkdir -p $(@D)
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

# the schema's migrations are made by the build (Makefile.am)
fuzz/obj/src/pg/pgschema.o: src/pg/migrations.inc

$(FUZZ_BINS): fuzz/%: fuzz/obj/fuzz/%.o $(FUZZ_LIB_OBJS)
	$(AM_V_CCLD)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ $(DEPS_LIBS) -o $@

-include $(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_TARGETS:%=fuzz/obj/fuzz/%.d)

fuzz-seeds:
	$(SHELL) $(top_srcdir)/fuzz/seed.sh $(top_srcdir) fuzz/seeds

fuzz fuzz-smoke: fuzz-build fuzz-seeds
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) $(SHELL) $(top_srcdir)/fuzz/run.sh $(top_srcdir) fuzz $(FUZZ_TARGETS)

fuzz-clean:
	rm -rf fuzz/obj fuzz/seeds fuzz/corpus fuzz/logs
	rm -f $(FUZZ_BINS)

clean-local: fuzz-clean

.PHONY: fuzz fuzz-build fuzz-seeds fuzz-smoke fuzz-clean
