#!/usr/bin/env python3
"""The rooms inside a module against their include rule (docs/architecture.md): fails on a forbidden include.

A module split into rooms (sub-folders of src/<module>/) has a direction: a room includes only the rooms
RULES lets it include, plus itself and the module's top-level files. The top-level files (a module's central
types, e.g. results/run_results.h) include only what RULES gives the top (""). Checked, for every module in
RULES:
  1. every `#include "<module>/<room>/..."` from a file under src/<module>/ is allowed by RULES;
  2. every sub-folder of src/<module>/ is a room RULES names (a new room needs its rule written down).
Usage: rooms_test.py ROOT              check the tree at ROOT
       rooms_test.py ROOT --self-test  check that the checks fail on a forbidden include and an unknown room
Exit 0 when every include keeps to the rules, 1 with one line per breach otherwise.
"""
import os
import re
import shutil
import sys
import tempfile

# module -> {room: the other rooms it may include}; "" is the module's top-level files.
RULES = {
    "results": {
        "": {"recording", "judging"},  # run_results.h holds the recorded intervals and the judged checks/SLOs
        "recording": set(),  # what was measured: needs nothing judged, written or merged
        "judging": {"recording"},
        "files": {"recording", "judging"},
        "merging": {"recording", "judging", "files"},
    },
}


def room_of(rel):
    """The room of a path relative to src/<module>/ ("" for a top-level file)."""
    parts = rel.split("/")
    return parts[0] if len(parts) > 1 else ""


def check(root):
    problems = []
    for module, rules in sorted(RULES.items()):
        base = os.path.join(root, "src", module)
        if not os.path.isdir(base):
            problems.append(f"src/{module}: no such module (rooms_test.py RULES names it)")
            continue
        for entry in sorted(os.listdir(base)):
            if os.path.isdir(os.path.join(base, entry)) and entry not in rules:
                problems.append(f"src/{module}/{entry}/: a room without a rule (add it to RULES in "
                                f"tests/architecture/rooms_test.py and to docs/architecture.md)")
        include = re.compile(r'\s*#\s*include\s+"' + re.escape(module) + r'/([^"]+)"')
        for dirpath, _, files in sorted(os.walk(base)):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, base).replace(os.sep, "/")
                room = room_of(rel)
                if room not in rules:
                    continue  # reported above
                with open(path, encoding="utf-8", errors="replace") as f:
                    for n, line in enumerate(f, 1):
                        m = include.match(line)
                        if not m:
                            continue
                        target = room_of(m.group(1))
                        if target in ("", room) or target in rules[room]:
                            continue
                        what = f"{module}/{room}/" if room else f"{module}/ (top)"
                        problems.append(f"src/{module}/{rel}:{n}: {what} includes {module}/{target}/, "
                                        f"which its rule does not allow (it may include: "
                                        f"{', '.join(sorted(rules[room])) or 'no other room'})")
    return problems


def self_test(root):
    """Each mutation of a copy of src/ must make check() fail; the tree itself must pass."""
    failures = []
    if check(root):
        failures.append("the tree itself does not pass")

    def with_copy(mutate, expect, what):
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "tree")
            shutil.copytree(os.path.join(root, "src"), os.path.join(copy, "src"))
            mutate(copy)
            if not any(expect in p for p in check(copy)):
                failures.append(f"{what}: the check passed")

    def stray_include(copy):  # recording must not include files
        path = os.path.join(copy, "src", "results", "recording", "stray_include.h")
        with open(path, "w", encoding="utf-8") as f:
            f.write('#include "results/files/results_json.h"\n')

    def unknown_room(copy):
        os.makedirs(os.path.join(copy, "src", "results", "lounge"))

    with_copy(stray_include, "stray_include.h", "recording/ including files/")
    with_copy(unknown_room, "lounge", "a room without a rule")
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
        print(f"rooms_test: {len(problems)} breach(es)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
