# fathom: one plain Makefile.  `make` builds build/fathom; `make test` and
# `make demo` first install missing dependencies (scripts/deps.sh).
#
#   make            build/fathom and build/libfathom.a
#   make demo       set-up, build, run fathom on examples/demo.py
#   make test       set-up, build, run every test, again under ASan+UBSan, and
#                   60 s of each fuzz harness (ends "N passed, N failed";
#                   FUZZ_SECONDS=N changes the fuzzing time)
#   make asan       the same tests against an ASan+UBSan build (build-asan/)
#   make bench      benchmarks: ratios against a baseline measured in the same run
#   make bench-peers  fathom against pyright and mypy (installs them: npm, apt-get)
#   make install PREFIX=/usr/local   (fathom, libfathom.a and .so, fathom.h, fathom.pc)
#   make graphs     the typed graphs of the examples as SVG ($(BUILD)/graphs)

BUILD    ?= build
# the release, from the header (fathom.pc carries it)
VERSION  := $(shell sed -n 's/^\#define FATHOM_VERSION "\(.*\)"/\1/p' include/fathom.h)
# the shared library's soname follows the interface's version: a program
# built against another never loads this one
SONAME   := libfathom.so.$(shell sed -n 's/^\#define FATHOM_API_VERSION \([0-9]*\)/\1/p' include/fathom.h)
PREFIX   ?= /usr/local
CC       ?= cc
PKGS     := tree-sitter bdw-gc jansson
GRAMMAR  := node_modules/tree-sitter-python/src

WARN     := -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes -Wno-unused-parameter
OPT      ?= -O2 -g
# The IR verifier runs between phases in debug builds only (make asan).
DEBUG    ?= -DNDEBUG
CFLAGS_ALL = -std=c17 $(OPT) $(DEBUG) $(WARN) $(EXTRA_CFLAGS) -D_POSIX_C_SOURCE=200809L \
             $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS_ALL = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lunistring -lm

MODULES  := util diag anf parser abstract cache evaluators controlflow specialize lsp api
LIB_SRC  := $(foreach d,$(MODULES),$(wildcard $(d)/*.c))
CLI_SRC  := $(wildcard cli/*.c)
UNIT_SRC := $(wildcard tests/unit/*.c)
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
UNIT_OBJ := $(UNIT_SRC:%.c=$(BUILD)/%.o)
TS_OBJ   := $(BUILD)/grammar/parser.o $(BUILD)/grammar/scanner.o
HEADERS  := $(wildcard */*.h */*.def include/*.h)

.PHONY: all deps demo test check-tests asan bench bench-peers install clean unit graphs
all: $(BUILD)/fathom

deps:
	@./scripts/deps.sh

# a fresh clone has no grammar yet: fetching it makes both files
$(GRAMMAR)/parser.c $(GRAMMAR)/scanner.c &:
	@./scripts/deps.sh

$(BUILD)/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

# The grammar is third-party generated code: compile it without our warnings.
$(BUILD)/grammar/%.o: $(GRAMMAR)/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(OPT) $(EXTRA_CFLAGS) -w -I$(GRAMMAR) -c $< -o $@

$(BUILD)/libfathom.a: $(LIB_OBJ) $(TS_OBJ)
	@rm -f $@
	ar rcs $@ $^

# The shared library: the same sources compiled position-independent (in
# $(BUILD)/pic/, only when it is asked for: make install, the specialize
# suite), exporting only the fathom_ functions of fathom.h (include/fathom.map).
PIC_OBJ  := $(LIB_SRC:%.c=$(BUILD)/pic/%.o) $(BUILD)/pic/grammar/parser.o $(BUILD)/pic/grammar/scanner.o

$(BUILD)/pic/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -fPIC -c $< -o $@

$(BUILD)/pic/grammar/%.o: $(GRAMMAR)/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(OPT) $(EXTRA_CFLAGS) -fPIC -w -I$(GRAMMAR) -c $< -o $@

$(BUILD)/libfathom.so: $(PIC_OBJ) include/fathom.map
	$(CC) $(CFLAGS_ALL) -shared -Wl,--version-script=include/fathom.map \
	  -Wl,-soname,$(SONAME) $(PIC_OBJ) $(LDLIBS_ALL) -lpthread -o $@

$(BUILD)/fathom: $(CLI_OBJ) $(BUILD)/libfathom.a
	$(CC) $(CFLAGS_ALL) $(CLI_OBJ) $(BUILD)/libfathom.a $(LDLIBS_ALL) -o $@

$(BUILD)/unit_tests: $(UNIT_OBJ) $(BUILD)/libfathom.a
	$(CC) $(CFLAGS_ALL) $(UNIT_OBJ) $(BUILD)/libfathom.a $(LDLIBS_ALL) \
	  $(shell pkg-config --libs cmocka) -o $@

demo: deps
	@$(MAKE) --no-print-directory all
	@echo "== fathom anf examples/demo.py =="
	@$(BUILD)/fathom anf examples/demo.py
	@echo "== fathom infer examples/demo.py =="
	@$(BUILD)/fathom infer examples/demo.py
	@echo "== fathom check examples/demo_bad.py =="
	@$(BUILD)/fathom check examples/demo_bad.py || true

# Every suite against $(BUILD), again against the ASan+UBSan build, then each
# fuzz harness for FUZZ_SECONDS (scripts/test-all.sh: one combined total).
test: deps
	@$(MAKE) --no-print-directory all $(BUILD)/unit_tests
	@$(MAKE) --no-print-directory asan-build fuzz-build
	@./scripts/test-all.sh $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(FUZZ_SECONDS)

# ASan+UBSan with tiny initial tables, so growth paths run in every test.
ASAN_BUILD ?= build-asan
asan: asan-build
	@ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=0 ./tests/run.sh $(ASAN_BUILD)

asan-build: deps
	@$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) OPT="-O1 -g -fno-omit-frame-pointer" DEBUG= \
	  EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -DFX_TINY_TABLES" \
	  $(ASAN_BUILD)/fathom $(ASAN_BUILD)/unit_tests

# tree-sitter parse, parse + ANF and `fathom check` on 1k/10k/100k lines (~1 min)
bench: deps
	@$(MAKE) --no-print-directory all $(BUILD)/bench_parse
	@./bench/run.sh $(BUILD)

# fathom against pyright (npm ci in bench/peers) and mypy (python3-mypy): speed
# and planted-error accuracy (~5-10 min)
bench-peers: deps
	@$(MAKE) --no-print-directory all
	@./bench/peers.sh $(BUILD)

$(BUILD)/bench_parse: bench/bench_parse.c $(BUILD)/libfathom.a
	$(CC) $(CFLAGS_ALL) bench/bench_parse.c $(BUILD)/libfathom.a $(LDLIBS_ALL) -o $@

install: all $(BUILD)/libfathom.so
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include
	install -m 755 $(BUILD)/fathom $(DESTDIR)$(PREFIX)/bin/fathom
	install -m 644 $(BUILD)/libfathom.a $(DESTDIR)$(PREFIX)/lib/libfathom.a
	install -m 755 $(BUILD)/libfathom.so $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libfathom.so
	@if [ -f include/fathom.h ]; then install -m 644 include/fathom.h $(DESTDIR)$(PREFIX)/include/; fi
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' include/fathom.pc.in \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/fathom.pc

# The typed graphs of examples/*.py and tests/specialize/*.py as SVG
# (Graphviz), in $(BUILD)/graphs.
graphs: all
	@./scripts/graphs.sh $(BUILD)

clean:
	rm -rf build build-asan build-fuzz

# ---- reliability (docs/reliability.md): fuzzing and stress ----
#   make fuzz FUZZ_SECONDS=N   build the libFuzzer harnesses (clang, ASan+UBSan)
#                              into $(FUZZ_BUILD) and run each for N seconds
#   make stress [STRESS_PROGRAMS=N]  random DSL programs: no crash, no hang,
#                              and CPython's results inside the inferred values
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZERS      := $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
STRESS_PROGRAMS ?= 10000

.PHONY: fuzz fuzz-build stress asan-build
fuzz-build: deps
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang OPT="-O1 -g" DEBUG= \
	  EXTRA_CFLAGS="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" \
	  $(FUZZERS:%=$(FUZZ_BUILD)/fuzz_%)

$(BUILD)/fuzz_%: fuzz/fuzz_%.c fuzz/common.c $(BUILD)/libfathom.a
	$(CC) $(CFLAGS_ALL) -fsanitize=fuzzer fuzz/fuzz_$*.c \
	  $(BUILD)/libfathom.a $(LDLIBS_ALL) -lpthread -o $@

fuzz: fuzz-build
	@./scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

stress: deps
	@$(MAKE) --no-print-directory all
	@/usr/bin/python3 tests/stress/stress.py $(BUILD) --programs $(STRESS_PROGRAMS)
