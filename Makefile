# openloop: `make demo` and `make test` are the whole quick start; each installs what is missing first.
PRESET ?= release
BUILD_DIR := build/$(PRESET)
WERROR ?= OFF
JOBS ?= $(shell nproc)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps configure build binary test unit-test e2e-test demo bench format clean

all: build

deps:
	@$(SUDO) scripts/install-deps

configure: deps
	@cmake --preset $(PRESET) -DOPENLOOP_WERROR=$(WERROR) >/dev/null

build: configure
	@cmake --build --preset $(PRESET) -j $(JOBS)

binary: configure
	@cmake --build --preset $(PRESET) -j $(JOBS) --target openloop

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) --timeout 300

unit-test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) -L unit

e2e-test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -L e2e

demo: binary
	@scripts/demo $(BUILD_DIR)/src/cli/openloop

bench: build
	@bench/run-all $(BUILD_DIR)

format: deps
	@git ls-files '*.cpp' '*.h' ':!third_party' | xargs clang-format -i

clean:
	rm -rf build
