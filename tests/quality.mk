# quality.mk -- how strong the engine's tests are (issue 11), included by Makefile.am.
#
#   make coverage     line and branch coverage of verifiers/ by the engine
#                     suites and the engines' end-to-end scripts, per file
#                     (tests/coverage.sh), in its own build directory
#                     COVERAGE_DIR built with gcc --coverage -O0
#   make mutate       MUTATE_N seeded single-point mutants of MUTATE_FILE,
#                     each compiled in MUTATE_DIR and run against the engine
#                     suites; writes tests/MUTATION-<name>.md (tests/mutate.sh:
#                     snap for verifiers/snap/snap.c, classic-board for
#                     verifiers/classic/board.c)
#
# Both configure a second build of the tree from $(abs_top_srcdir) the first
# time, and leave this build and the sources untouched.  Neither is part of
# `all` or `check`.  `make coverage` fails below COVERAGE_MIN_BRANCHES (95)
# percent of branches (issue 11); COVERAGE_MIN_BRANCHES=0 only reports.

# (included after Makefile.am sets EXTRA_DIST)
EXTRA_DIST += tests/coverage.sh tests/mutate.sh tests/mutants.py tests/MUTATION-snap.md tests/MUTATION-snap.notes \
	tests/MUTATION-advanced.md tests/MUTATION-advanced.notes \
	tests/MUTATION-duel.md tests/MUTATION-duel.notes tests/MUTATION-master.md tests/MUTATION-master.notes \
	tests/MUTATION-classic.md tests/MUTATION-classic.notes tests/MUTATION-classic-board.md tests/MUTATION-classic-board.notes

COVERAGE_DIR = build-coverage
COVERAGE_MIN_BRANCHES = 95
MUTATE_DIR = build-mutate
MUTATE_FILE = verifiers/snap/snap.c
MUTATE_N = 80
MUTATE_SEED = 11
MUTATE_TIMEOUT = 60

coverage:
	COVERAGE_MIN_BRANCHES=$(COVERAGE_MIN_BRANCHES) $(BASH) $(abs_top_srcdir)/tests/coverage.sh $(abs_top_srcdir) $(COVERAGE_DIR)

mutate:
	MUTATE_DIR=$(MUTATE_DIR) MUTATE_TIMEOUT=$(MUTATE_TIMEOUT) \
	$(BASH) $(abs_top_srcdir)/tests/mutate.sh $(abs_top_srcdir) $(MUTATE_FILE) $(MUTATE_N) $(MUTATE_SEED)

quality-clean:
	rm -rf $(COVERAGE_DIR) $(MUTATE_DIR)

clean-local: quality-clean

.PHONY: coverage mutate quality-clean
