#!/usr/bin/env python3
"""tests/ mirrors src/: every unit test file sits where the source it tests sits, under the same name.

Checked:
  1. each tests/<module>/<rooms>/NAME_test.cpp has a src/<module>/<rooms>/NAME.h or NAME.cpp, or NAME is
     SOURCE_<aspect> for such a SOURCE (a second file of tests for one source, e.g.
     codec_legacy_and_errors_test beside codec_test), or it is one of EXCEPTIONS (with the reason it is named after a behaviour);
  2. every folder directly under tests/ is a module of src/ or one of NOT_MODULES;
  3. every EXCEPTIONS entry still exists and still needs to be one (a stale exception is an error too).
Usage: tests_mirror_test.py ROOT              check the tree at ROOT
       tests_mirror_test.py ROOT --self-test  check that the checks fail on a misplaced and a misnamed test
Exit 0 when tests/ mirrors src/, 1 with one line per test file out of place otherwise.
"""
import os
import shutil
import sys
import tempfile

# Folders under tests/ that are not a module's unit tests.
NOT_MODULES = {
    "architecture": "checks of the source tree itself (this file, the module diagram, the rooms)",
    "e2e": "whole-process scripts, by command and area (tests/e2e/CMakeLists.txt)",
    "interop": "histogram files checked by HdrHistogram's own Java implementation",
}

# Unit tests named after a behaviour, or testing several sources together: path under tests/ -> why.
EXCEPTIONS = {
    "engine/allocation_test.cpp": "heap allocations per request of the real Worker (worker, exchange, codec)",
    "engine/virtual_time_test.cpp": "the engine's logic on the simulator's virtual time, across its files",
    "engine/check_feasible_test.cpp": "run_plan.h's check_feasible (run_plan's own tests are elsewhere)",
    "engine/shard_parts_test.cpp": "run_plan.h's shard part of a plan",
    "http/retry_after_test.cpp": "response_parser.h's Retry-After capture",
    "lab/config_test.cpp": "the lab's settings: config_fields, control_endpoint and responses together",
    "lab/parts_test.cpp": "the lab's parts: service time, stalls, LRU cache, deadline header, ring deque",
    "observe/sources_test.cpp": "the /proc and /sys sources (host_source, process_source) on fake trees",
    "sim/compare_power_test.cpp": "compare's false alarms and detection on simulated runs, on virtual time",
    "sim/coverage_test.cpp": "the percentile intervals' coverage, on virtual time",
    "sim/ramp_intervals_test.cpp": "a ramp's per-step intervals, on virtual time",
    "sim/ramp_repeats_test.cpp": "ramp --fresh --repeat, on virtual time",
    "sim/ramp_step_until_test.cpp": "ramp --step-until, on virtual time",
    "sim/scenarios_test.cpp": "a scenario file's scenarios at once (simulate.h's simulate_all)",
    "sim/server_timing_test.cpp": "Server-Timing's split of the response time, on virtual time",
    "sim/theory_test.cpp": "the simulator against queueing theory",
    "workload/constant_arrivals_test.cpp": "arrival_schedule.h's constant arrivals",
    "workload/poisson_arrivals_test.cpp": "arrival_schedule.h's Poisson arrivals",
    "workload/examples_test.cpp": "every plan in examples/ loads",
    "workload/plan_inputs_test.cpp": "what the command line adds to a plan (scenario_file, target_override)",
}

SUFFIX = "_test.cpp"


def modules(root):
    src = os.path.join(root, "src")
    return {d for d in os.listdir(src) if os.path.isfile(os.path.join(src, d, "CMakeLists.txt"))}


def sources(folder):
    """The names (without extension) of the .h and .cpp files in a src/ folder."""
    if not os.path.isdir(folder):
        return set()
    return {os.path.splitext(f)[0] for f in os.listdir(folder) if f.endswith((".h", ".cpp"))}


def tests_for(name, names):
    """Whether a test named NAME mirrors one of `names`: NAME itself or NAME = SOURCE_<aspect>."""
    return name in names or any(name.startswith(s + "_") for s in names)


def check(root):
    problems = []
    mods = modules(root)
    tests = os.path.join(root, "tests")
    used = set()
    for top in sorted(os.listdir(tests)):
        if not os.path.isdir(os.path.join(tests, top)):
            continue
        if top in NOT_MODULES:
            continue
        if top not in mods:
            problems.append(f"tests/{top}/: not a module of src/ (no src/{top}/CMakeLists.txt) and not in "
                            f"NOT_MODULES")
            continue
        for dirpath, _, files in sorted(os.walk(os.path.join(tests, top))):
            rel_dir = os.path.relpath(dirpath, tests).replace(os.sep, "/")
            names = sources(os.path.join(root, "src", rel_dir))
            for f in sorted(files):
                if not f.endswith(SUFFIX):
                    continue
                rel = f"{rel_dir}/{f}"
                name = f[: -len(SUFFIX)]
                if tests_for(name, names):
                    if rel in EXCEPTIONS:
                        problems.append(f"tests/{rel}: mirrors src/{rel_dir}/ now: drop it from EXCEPTIONS")
                    used.add(rel)
                    continue
                if rel in EXCEPTIONS:
                    used.add(rel)
                    continue
                problems.append(f"tests/{rel}: no src/{rel_dir}/{name}.h or .cpp (nor a SOURCE with {name} = "
                                f"SOURCE_<aspect>): move or rename it to mirror what it tests, or list it in "
                                f"EXCEPTIONS with the reason")
    for rel in sorted(set(EXCEPTIONS) - used):
        problems.append(f"tests/{rel}: in EXCEPTIONS but no such test file: drop it")
    return problems


def self_test(root):
    """Each mutation of a copy of the tree must make check() fail; the tree itself must pass."""
    failures = []
    if check(root):
        failures.append("the tree itself does not pass")

    def with_copy(mutate, expect, what):
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "tree")
            shutil.copytree(os.path.join(root, "src"), os.path.join(copy, "src"))
            shutil.copytree(os.path.join(root, "tests"), os.path.join(copy, "tests"),
                            ignore=shutil.ignore_patterns("e2e", "interop"))
            mutate(copy)
            if not any(expect in p for p in check(copy)):
                failures.append(f"{what}: the check passed")

    def misplaced(copy):  # a room's test at the module's top
        os.rename(os.path.join(copy, "tests", "results", "recording", "recorder_test.cpp"),
                  os.path.join(copy, "tests", "results", "recorder_test.cpp"))

    def misnamed(copy):
        open(os.path.join(copy, "tests", "hdr", "histogramme_test.cpp"), "w").close()

    def stale_exception(copy):
        os.remove(os.path.join(copy, "tests", "sim", "theory_test.cpp"))

    def unknown_folder(copy):
        os.makedirs(os.path.join(copy, "tests", "attic"))

    with_copy(misplaced, "tests/results/recorder_test.cpp", "a test outside its source's room")
    with_copy(misnamed, "histogramme_test.cpp", "a test named after no source")
    with_copy(stale_exception, "sim/theory_test.cpp", "an exception whose file is gone")
    with_copy(unknown_folder, "tests/attic/", "a folder that is no module")
    return failures


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1])
    problems = self_test(root) if "--self-test" in argv[2:] else check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"tests_mirror_test: {len(problems)} test file(s) out of place", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
