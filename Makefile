# openloop: `make demo` and `make test` are the whole quick start; each installs what is missing first.
PRESET ?= release
BUILD_DIR := build/$(PRESET)
WERROR ?= OFF
JOBS ?= $(shell nproc)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# ccache (installed by scripts/install-deps) keeps compiled objects between clones of the repository: the base
# directory makes its keys independent of where the clone lives, so a fresh clone rebuilds only what changed.
# Expanded when a recipe runs (`=`, not `:=`), after `deps` has installed ccache on a fresh machine.
LAUNCHER = $(if $(shell command -v ccache),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

.PHONY: all deps configure build binary test unit-test e2e-test test-sanitize fuzz demo bench format clean cli-docs

all: build

deps:
	@$(SUDO) scripts/install-deps

configure: deps
	@cmake --preset $(PRESET) $(LAUNCHER) -DOPENLOOP_WERROR=$(WERROR) >/dev/null

build: configure
	@cmake --build --preset $(PRESET) -j $(JOBS)

binary: configure
	@cmake --build --preset $(PRESET) -j $(JOBS) --target openloop

# The resource spec gives CTest two "cpu" slots: a script marked "# e2e: light" takes one, so two light scripts may
# run at once (tests/e2e/CMakeLists.txt).
E2E_RESOURCES := $(CURDIR)/tests/e2e/resources.json

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) --timeout 300 --resource-spec-file $(E2E_RESOURCES)

unit-test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) -L unit

e2e-test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -L e2e

# test-sanitize: the unit tests (but SANITIZE_SKIP) and the functional e2e tests below under ASan+UBSan (preset
# asan-ubsan), then the engine, net and results unit tests under TSan (preset tsan; only those targets are built).
# Any report fails the test that made it (-fno-sanitize-recover, halt_on_error). Only the e2e tests that check function
# run here: bad input, reports, merging, conservation, signals and lab behaviour at low rates. The others judge
# timing (send lateness, VALID verdicts at hundreds or thousands of requests/s, capacity, ramps and probes that
# read latency) and a Debug ASan binary is several times slower, so they would fail for being slow, not for a
# bug. The light ones among them (tests/e2e/CMakeLists.txt) run one at a time here: they were checked paired with
# another light script in the release build, not beside anything in a Debug ASan one. See docs/reliability.md.
SANITIZE_E2E := run.bad_input run.dropped run.sigint run.tls \
  lab.bad_requests lab.cache lab.client_gone lab.config lab.deadline lab.flags lab.pipeline lab.shed \
  report.formats report.merge report.hlog_java retry.flags retry.retry_after retry.same_bytes retry.users \
  models.sessions_conservation scenarios.examples scenarios.report_breakdown \
  ramp.usage slo.usage slo.scenarios slo.fail \
  hostile.http2 lab.http2 http2.window_log \
  flows.cookie_jar flows.lab_login flows.setup replay.plan replay.trace audit.formats audit.bad_input
# The unit tests run as whole executables in chunks (scripts/run-gtests), not one process per test: under ASan each
# process's start and leak check cost about half a second, 650 of 1,650 CPU-seconds. Left out: sim_test's Monte Carlo
# checks of statistics (hundreds of simulated runs each, 560 CPU-seconds under ASan for what takes 10 in release);
# they run in `make test`, and the code they drive is run under ASan by the simulator's and compare's other tests.
SANITIZE_SKIP := ComparePower.*:PercentileIntervals.*:QueueingTheory.*
SANITIZE_ENV := ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=0 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
TSAN_TESTS := engine_test net_test results_test
empty :=
space := $(empty) $(empty)

test-sanitize: deps
	@cmake --preset asan-ubsan $(LAUNCHER) -DOPENLOOP_BENCH=OFF -DOPENLOOP_WERROR=$(WERROR) >/dev/null
	@cmake --build --preset asan-ubsan -j $(JOBS)
	@$(SANITIZE_ENV) scripts/run-gtests build/asan-ubsan $(JOBS) '$(SANITIZE_SKIP)'
	@cd build/asan-ubsan && $(SANITIZE_ENV) ctest --output-on-failure -j $(JOBS) -LE e2e-light \
	  -R '^e2e\.($(subst $(space),|,$(SANITIZE_E2E)))$$'
	@cd build/asan-ubsan && $(SANITIZE_ENV) ctest --output-on-failure -j 1 -L e2e-light \
	  -R '^e2e\.($(subst $(space),|,$(SANITIZE_E2E)))$$'
	@cmake --preset tsan $(LAUNCHER) -DOPENLOOP_BENCH=OFF -DOPENLOOP_WERROR=$(WERROR) >/dev/null
	@cmake --build --preset tsan -j $(JOBS) --target $(TSAN_TESTS)
	@set -e; for t in $(TSAN_TESTS); do echo "tsan: $$t"; $(SANITIZE_ENV) build/tsan/tests/$$t --gtest_brief=1; done

# fuzz: builds the libFuzzer targets (clang, preset fuzz) and runs each for FUZZ_SECONDS (default 60); fails on
# any crash, leak or timeout (fuzz/run; docs/reliability.md).
FUZZ_SECONDS ?= 60
fuzz: deps
	@cmake --preset fuzz $(LAUNCHER) >/dev/null
	@cmake --build --preset fuzz -j $(JOBS)
	@FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz/run build/fuzz

# cli-docs: docs/cli.md, the complete option reference, written from the registrations --help prints (e2e.cli.docs
# fails when the committed file differs).
cli-docs: binary
	@$(BUILD_DIR)/src/cli/openloop help --markdown > docs/cli.md.tmp && mv docs/cli.md.tmp docs/cli.md
	@echo "docs/cli.md written"

demo: binary
	@scripts/demo $(BUILD_DIR)/src/cli/openloop

bench: build
	@bench/run-all $(BUILD_DIR)

format: deps
	@git ls-files '*.cpp' '*.h' ':!third_party' | xargs clang-format -i

clean:
	rm -rf build
