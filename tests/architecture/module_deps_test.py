#!/usr/bin/env python3
"""docs/architecture.md's module diagram against the build: fails when they disagree.

The diagram (the code block under "## Module dependencies") has one line per module, `module ─► dep, dep`, the
modules a module depends on being the openloop::* targets its CMake `DEPS` name (src/<module>/CMakeLists.txt;
for cli, the executable's target_link_libraries). Checked:
  1. the diagram's edges are exactly the DEPS, module by module (an edge missing on either side is named);
  2. every module under src/ has a line, and every line names a module;
  3. the diagram is drawn top-down: every module a line names appears on a later line (so the DAG reads as
     layers, and no cycle can be drawn);
  4. every `#include "X/..."` of a module X from a file under src/M/ is of a module that M's DEPS reach,
     directly or through other modules' DEPS (what PUBLIC linking makes available): an include of a module
     DEPS do not reach is an edge the build does not know about;
  5. the top-level CMakeLists.txt adds the modules in an order where each comes after what it depends on.
Usage: module_deps_test.py ROOT            check the tree at ROOT
       module_deps_test.py ROOT --self-test   check that the checks fail on a wrong diagram and a stray include
Exit 0 when everything agrees, 1 with one line per disagreement otherwise.
"""
import os
import re
import shutil
import sys
import tempfile

ARROW = "─►"
HEADING = "## Module dependencies"


def module_dirs(root):
    src = os.path.join(root, "src")
    return sorted(d for d in os.listdir(src) if os.path.isfile(os.path.join(src, d, "CMakeLists.txt")))


def cmake_deps(root, modules):
    """Each module's openloop::* DEPS (cli: the executable's link libraries)."""
    deps = {}
    for m in modules:
        with open(os.path.join(root, "src", m, "CMakeLists.txt"), encoding="utf-8") as f:
            text = re.sub(r"#[^\n]*", "", f.read())
        if m == "cli":
            call = re.search(r"target_link_libraries\(\s*openloop\s+PRIVATE([^)]*)\)", text)
        else:
            call = re.search(r"openloop_module\(\s*" + m + r"\b[^)]*?\bDEPS\b([^)]*)\)", text, re.S)
        deps[m] = set(re.findall(r"openloop::(\w+)", call.group(1))) if call else None
    return deps


def doc_diagram(doc_path):
    """The diagram's lines as (line number, module, [deps]), or an error string."""
    with open(doc_path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        start = lines.index(HEADING)
    except ValueError:
        return f"{doc_path}: no '{HEADING}' section"
    fence = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("```")), None)
    if fence is None:
        return f"{doc_path}: no code block under '{HEADING}'"
    out = []
    for i in range(fence + 1, len(lines)):
        line = lines[i]
        if line.startswith("```"):
            return out
        body = re.sub(r"\s{2,}\(.*\)\s*$", "", line).strip()  # a trailing "(what it is)" is a caption
        if not body:
            continue
        match = re.fullmatch(r"(\w+)(?:\s+" + ARROW + r"\s+([\w, ]+))?", body)
        if not match:
            out.append((i + 1, None, line))
            continue
        names = [d.strip() for d in (match.group(2) or "").split(",") if d.strip()]
        out.append((i + 1, match.group(1), names))
    return f"{doc_path}: the code block under '{HEADING}' is not closed"


def includes(root, module, modules):
    """{included module: first 'file:line' that includes it} for the files under src/<module>/."""
    found = {}
    base = os.path.join(root, "src", module)
    for dirpath, _, files in sorted(os.walk(base)):
        for name in sorted(files):
            if not name.endswith((".h", ".cpp")):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                for n, line in enumerate(f, 1):
                    m = re.match(r'\s*#\s*include\s+"(\w+)/', line)
                    if m and m.group(1) in modules and m.group(1) != module:
                        found.setdefault(m.group(1), f"{os.path.relpath(path, root)}:{n}")
    return found


def reach(deps, module):
    seen, todo = set(), list(deps.get(module) or ())
    while todo:
        d = todo.pop()
        if d not in seen:
            seen.add(d)
            todo.extend(deps.get(d) or ())
    return seen


def check(root):
    problems = []
    modules = module_dirs(root)
    deps = cmake_deps(root, modules)
    for m in modules:
        if deps[m] is None:
            problems.append(f"src/{m}/CMakeLists.txt: no openloop_module({m} ... DEPS ...) found")
            deps[m] = set()
    doc = os.path.join(root, "docs", "architecture.md")
    diagram = doc_diagram(doc)
    if isinstance(diagram, str):
        return problems + [diagram]
    seen_at = {}
    for line_no, name, names in diagram:
        where = f"docs/architecture.md:{line_no}"
        if name is None:
            problems.append(f"{where}: not 'module {ARROW} dep, dep': {names!r}")
            continue
        if name not in deps:
            problems.append(f"{where}: '{name}' is not a module (no src/{name}/CMakeLists.txt)")
            continue
        if name in seen_at:
            problems.append(f"{where}: '{name}' has a line already ({seen_at[name]})")
        seen_at[name] = where
        drawn = set(names)
        for d in sorted(deps[name] - drawn):
            problems.append(f"{where}: {name} {ARROW} {d} is in src/{name}/CMakeLists.txt's DEPS, not in the diagram")
        for d in sorted(drawn - deps[name]):
            problems.append(f"{where}: {name} {ARROW} {d} is drawn, but src/{name}/CMakeLists.txt's DEPS lack it")
    for m in modules:
        if m not in seen_at:
            problems.append(f"docs/architecture.md: the diagram has no line for module {m}")
    order = [name for _, name, _ in diagram if name in deps]
    for i, name in enumerate(order):
        for d in sorted(deps[name]):
            if d in order[: i + 1]:
                problems.append(f"{seen_at[name]}: {name} {ARROW} {d}, but {d} is drawn above {name} (draw it below)")
    for m in modules:
        allowed = reach(deps, m)
        for inc, where in sorted(includes(root, m, deps).items()):
            if inc not in allowed:
                problems.append(f"{where}: src/{m} includes {inc}/, which its DEPS do not reach (add openloop::{inc} "
                                f"to src/{m}/CMakeLists.txt, or do without the include)")
    with open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8") as f:
        top = re.search(r"foreach\(module ([\w ]+)\)", f.read())
    if top:
        added = top.group(1).split()
        for i, m in enumerate(added):
            for d in sorted((deps.get(m) or set()) - set(added[:i])):
                problems.append(f"CMakeLists.txt: module {m} is added before {d}, which it depends on")
    return problems


def self_test(root):
    """Each mutation of a copy of the tree must make check() fail; the tree itself must pass."""
    failures = []
    if check(root):
        failures.append("the tree itself does not pass")
    doc_rel = os.path.join("docs", "architecture.md")
    with open(os.path.join(root, doc_rel), encoding="utf-8") as f:
        doc = f.read()
    first_edge = re.search(r"^(\w+)\s+" + ARROW + r"\s+(\w+)(, )?", doc, re.M)

    def drop_edge(text):  # the first dependency of the first line with one
        a, b = first_edge.span(2)
        end = first_edge.end(3) if first_edge.group(3) else b
        return text[:a] + text[end:]

    def add_edge(text):  # core depends on nothing: draw core ─► hdr
        return re.sub(r"^core\b[^\n]*", "core        " + ARROW + " hdr", text, count=1, flags=re.M)

    mutations = {
        "an edge dropped from the diagram": lambda t: (doc_rel, drop_edge(t)),
        "an edge drawn that DEPS lack": lambda t: (doc_rel, add_edge(t)),
    }
    for what, mutate in mutations.items():
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "tree")
            shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".git", "build", "node_modules", "third_party",
                                                                      "tests", "bench", "fuzz", "examples", "deploy"))
            rel, text = mutate(doc)
            with open(os.path.join(copy, rel), "w", encoding="utf-8") as f:
                f.write(text)
            if not check(copy):
                failures.append(f"{what}: the check passed")
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "tree")
        shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".git", "build", "node_modules", "third_party",
                                                                  "tests", "bench", "fuzz", "examples", "deploy"))
        with open(os.path.join(copy, "src", "core", "stray_include.h"), "w", encoding="utf-8") as f:
            f.write('#include "engine/worker.h"\n')  # core reaches no module
        if not any("stray_include.h" in p for p in check(copy)):
            failures.append("an include of a module DEPS do not reach: the check passed")
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
        print(f"module_deps_test: {len(problems)} disagreement(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
