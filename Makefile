# sbx build. Two commands matter (see README): `make demo` and `make test`.
#
# Layout: every src/*/*.c goes into build/libsbx.a; cli/*.c links into build/sbx;
# worker/*.c into build/sbx-pyworker; each tests/<module>/test_*.c is its own test
# program. The same tree is built twice: build/ (-O2) and build-asan/ (ASan+UBSan),
# so adding a source file never needs an edit here.

CC       ?= gcc
PKGS     := sqlite3 jansson libedit libpcre2-8 zlib libarchive libcrypto fuse3 libseccomp yaml-0.1 libzstd libmagic
PY       := /usr/bin/python3
# Debian's libpython3.11, never a python3.11-config found first on PATH (pyenv).
PYCFG    := /usr/bin/python3.11-config
WARN     := -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow -Wstrict-prototypes -Wvla
BASEFLAGS = -std=c11 -D_GNU_SOURCE -fPIC -g $(WARN) -Iinclude -Isrc -Ibuild/gen \
            $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LIBS      = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lpthread -lm

B        ?= build
ifeq ($(B),build-asan)
  OPT    := -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
else
  OPT    := -O2
endif
CFLAGS   += $(BASEFLAGS) $(OPT)
LDFLAGS  += $(OPT)

LIB_SRCS  := $(sort $(wildcard src/*.c src/*/*.c src/cmd/*/*.c))
CLI_SRCS  := $(sort $(wildcard cli/*.c))
WRK_SRCS  := $(sort $(wildcard worker/*.c))
WEXT_SRCS := $(sort $(wildcard worker/ext/*.c))
TEST_SRCS := $(sort $(wildcard tests/*/test_*.c))
TEST_UTIL := $(sort $(wildcard tests/util/*.c))
CMD_SRCS  := $(sort $(wildcard src/cmd/*.c src/cmd/*/*.c))

LIB_OBJS  := $(LIB_SRCS:%.c=$(B)/%.o) $(B)/gen/cmd_table.o
CLI_OBJS  := $(CLI_SRCS:%.c=$(B)/%.o)
TEST_BINS := $(TEST_SRCS:%.c=$(B)/%)
TEST_UTIL_OBJS := $(TEST_UTIL:%.c=$(B)/%.o)

.PHONY: FORCE all deps lib demo test python-package test-c test-asan test-py test-cmd conformance conformance-gate \
        fuzz fuzz-gate bench clean format asan test-dates test-cpython-files

all: deps
	@$(MAKE) --no-print-directory B=build binaries

asan: deps
	@$(MAKE) --no-print-directory B=build-asan binaries

binaries: $(B)/libsbx.a $(if $(CLI_SRCS),$(B)/sbx) $(if $(wildcard src/store/*.c),$(B)/sbx-run) $(B)/sbx-nons $(TEST_BINS) \
          $(if $(WRK_SRCS),$(B)/sbx-pyworker) $(if $(filter build,$(B)),python-package)

deps:
	@scripts/deps.sh

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# The list of library sources, rewritten only when it changes, so that adding or
# removing a source file regenerates the command table and the archive.
$(B)/gen/sources.txt: FORCE
	@mkdir -p $(dir $@)
	@echo $(LIB_SRCS) > $@.tmp; cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
FORCE:

# The command table is generated from the CMD_DEFINE lines of src/cmd/*.c.
$(B)/gen/cmd_table.c: $(CMD_SRCS) scripts/gen-cmd-table.sh $(B)/gen/sources.txt
	@mkdir -p $(dir $@)
	scripts/gen-cmd-table.sh $(CMD_SRCS) > $@.tmp && mv $@.tmp $@

$(B)/gen/cmd_table.o: $(B)/gen/cmd_table.c
	$(CC) $(CFLAGS) -c $< -o $@

$(B)/libsbx.a: $(LIB_OBJS) $(B)/gen/sources.txt
	@rm -f $@
	ar rcs $@ $(LIB_OBJS)

$(B)/sbx: $(CLI_OBJS) $(B)/libsbx.a
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(B)/libsbx.a $(LIBS)

# sbx-run: runs one table command in a fresh in-memory sandbox (tests, debugging).
$(B)/sbx-run: $(B)/tools/sbx-run.o $(B)/libsbx.a
	$(CC) $(LDFLAGS) -o $@ $< $(B)/libsbx.a $(LIBS)

# The Python jail in real containers (podman over a debootstrapped Debian 12;
# not part of `make test`): scripts/container-test.sh, docs/deploy.md.
.PHONY: container-test seccomp-profile
container-test: binaries deploy/seccomp-sbx.json
	scripts/container-test.sh

# The seccomp profile for containers: Debian's default container profile
# (containers-common, installed with podman by scripts/deps.sh) plus the calls
# the full jail needs. Generated, not kept in the tree: it is that package's data.
seccomp-profile: deploy/seccomp-sbx.json
deploy/seccomp-sbx.json: deploy/gen-seccomp.py /usr/share/containers/seccomp.json
	$(PY) deploy/gen-seccomp.py /usr/share/containers/seccomp.json > $@.tmp && mv $@.tmp $@

# sbx-nons: a program under a default container's denial of namespaces and
# mounts (tests of the reduced jail tier, scripts/suites/py-reduced.sh).
$(B)/sbx-nons: $(B)/tools/sbx-nons.o
	$(CC) $(LDFLAGS) -o $@ $< -lseccomp

# The worker shares the jail and protocol code of libsbx.a (only the objects it uses).
# It runs in the jail under RLIMIT_AS, which AddressSanitizer's terabytes of shadow
# memory cannot live with, so build-asan gets a copy of the optimized worker: the
# ASan tests check the library, the worker is the same binary as in production.
ifeq ($(B),build-asan)
$(B)/sbx-pyworker: FORCE
	@$(MAKE) --no-print-directory B=build build/sbx-pyworker
	@mkdir -p $(dir $@) && cmp -s build/sbx-pyworker $@ || cp build/sbx-pyworker $@
else
# W execs Debian's /usr/bin/python3.11 (PGO+LTO: user code at python3's speed;
# the libpython3.11.a Debian ships for embedding lacks LTO and ran up to 1.4x
# slower). W's C half is the extension module _sbxw (worker/ext/*.c), carried
# inside sbx-pyworker with .incbin (worker/main.c), so nothing else is installed.
$(B)/sbx-pyworker: $(WRK_SRCS:%.c=$(B)/%.o) $(B)/libsbx.a
	$(CC) $(LDFLAGS) -o $@ $(WRK_SRCS:%.c=$(B)/%.o) $(B)/libsbx.a -Wl,--as-needed $(LIBS)
endif

$(B)/worker/_sbxw.so: $(WEXT_SRCS:%.c=$(B)/%.o) $(B)/libsbx.a
	$(CC) -shared $(LDFLAGS) -o $@ $(WEXT_SRCS:%.c=$(B)/%.o) $(B)/libsbx.a \
	  -Wl,--exclude-libs,ALL -Wl,--as-needed $(LIBS)
$(B)/worker/main.o: $(B)/worker/_sbxw.so worker/forkserver.py
$(B)/worker/main.o: private CFLAGS += -DSBXW_EXT_SO='"$(B)/worker/_sbxw.so"'

# bootstrap.py is linked into _sbxw.so with .incbin.
$(B)/worker/ext/sbxw.o: worker/bootstrap.py

$(B)/worker/%.o: worker/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(shell $(PYCFG) --includes) -MMD -MP -c $< -o $@

$(B)/tests/%: tests/%.c $(B)/libsbx.a $(TEST_UTIL_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(TEST_UTIL_OBJS) $(B)/libsbx.a $(LIBS)

# ---- the Python package localsandbox (build/ only: an ASan extension would need
# libasan preloaded into the interpreter). build/python/localsandbox/ holds the
# .py files and the extension, so PYTHONPATH=build/python imports it. The shell
# and Python bindings compile in when their functions are declared in sbx.h.
# pip builds the same target into build/pip (python/build_backend) with PY and
# PY_INC set for the interpreter that runs it.
PY_EXT    := $(shell $(PY) -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))" 2>/dev/null)
PY_PKG    := $(B)/python/localsandbox
PY_INC    ?= $(shell $(PYCFG) --includes)
PY_FILES  := $(patsubst python/localsandbox/%,$(PY_PKG)/%,$(sort $(wildcard python/localsandbox/*.py \
               python/localsandbox/*.pyi python/localsandbox/py.typed)))

python-package: $(PY_PKG)/_sbx$(PY_EXT) $(PY_FILES) $(if $(WRK_SRCS),$(PY_PKG)/sbx-pyworker)

$(PY_PKG)/sbx-pyworker: $(B)/sbx-pyworker
	@mkdir -p $(dir $@)
	cp $< $@

$(B)/pyext/_sbx.o: python/localsandbox/_sbx.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Ipython/localsandbox $(PY_INC) -MMD -MP -c $< -o $@

$(PY_PKG)/_sbx$(PY_EXT): $(B)/pyext/_sbx.o $(B)/libsbx.a
	@mkdir -p $(dir $@)
	$(CC) -shared $(LDFLAGS) -o $@ $< $(B)/libsbx.a -Wl,--exclude-libs,ALL $(LIBS)

$(PY_PKG)/%: python/localsandbox/%
	@mkdir -p $(dir $@)
	cp $< $@

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# ---- the two README commands -------------------------------------------------

demo: all
	@scripts/demo.sh

test: deps
	@$(MAKE) --no-print-directory B=build binaries
	@$(MAKE) --no-print-directory B=build-asan binaries
	@scripts/run-tests.sh

# ---- long suites and tools ------------------------------------------------------

conformance: all
	@scripts/conformance.sh full

# The suites that print times, with the clock at dates chosen to break a case that
# depends on the day it was written (make test runs them 400 days ahead only).
test-dates: all
	@SBX_CLOCK_DATES=$$'+400d\n2028-02-29 12:00:00\n2027-12-31 23:59:00\n2039-03-01 08:00:00' \
	  bash scripts/suites/shifted-clock.sh

# CPython's own file and OS test modules (libpython3.11-testsuite) in the jail,
# all of them (make test runs the gate list, scripts/suites/cpython-files.sh).
test-cpython-files: all
	@PYTHONPATH=build/python /usr/bin/python3 scripts/suites/cpython_files.py --list

fuzz: deps
	@scripts/fuzz.sh 300

bench: all
	@scripts/bench.sh

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build build-asan
