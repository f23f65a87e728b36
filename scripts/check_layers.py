#!/usr/bin/env python3
"""Checks every #include and CMake link edge against the layer matrix.

    scripts/check_layers.py [--root DIR]

The matrix is the table between the `layer-matrix` markers of
docs/architecture.md: one row per folder (a component) and the components it
may use. The script reads every C++ file under modules/ and platform/ and every
target_link_libraries() of their CMakeLists.txt, and reports, with file and
line:

- an #include "<folder>/..." of a component the row does not list;
- a link to a ptovp_* library of a component the row does not list;
- SystemC (<systemc>, <tlm>, sc_common/, a *_sc library) outside a SystemC
  file: sc_common/, a unit's *_module.* pair and *_transaction.hpp TLM
  extension, platform/systemc/ and the files
  the matrix names as SystemC entry points.

Exit 0 when clean, 1 with one line per violation, 2 on a malformed matrix.
"""

import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')
LINK = re.compile(r"target_link_libraries\s*\(([^)]*)\)", re.S)
LIBRARY = re.compile(r"(?:add_library|add_executable|pybind11_add_module)\s*\(\s*(\w+)([^)]*)\)",
                     re.S)
SYSTEMC_HEADERS = ("systemc", "systemc.h", "tlm", "tlm.h")
SOURCE_SUFFIXES = (".cpp", ".hpp", ".h")


def read_matrix(path):
    """{component: (folder, set of allowed components)}, SystemC entry files."""
    text = open(path, encoding="utf-8").read()
    match = re.search(r"<!-- layer-matrix -->(.*?)<!-- /layer-matrix -->", text, re.S)
    if not match:
        sys.exit(f"{path}: no <!-- layer-matrix --> table")
    matrix = {}
    systemc_files = set()
    for number, line in enumerate(match.group(1).splitlines()):
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0] or cells[0] in ("component",) or set(cells[0]) <= set("-: "):
            continue
        component, folder, allowed = cells[0], cells[1], cells[2]
        uses = {a.strip().strip("`") for a in allowed.split(",")} - {"", "-"}
        matrix[component] = (folder, uses)
        if len(cells) > 3:
            systemc_files |= {f.strip().strip("`") for f in cells[3].split(",")} - {"", "-"}
    for component, (_, uses) in matrix.items():
        unknown = uses - set(matrix)
        if unknown:
            print(f"{path}: {component} lists unknown component(s) {sorted(unknown)}", file=sys.stderr)
            sys.exit(2)
    return matrix, systemc_files


def component_of(rel, matrix):
    for component, (folder, _) in matrix.items():
        if rel.startswith(folder.rstrip("/") + "/"):
            return component
    return None


def is_systemc_file(rel, component, systemc_files):
    name = os.path.basename(rel)
    stem = os.path.splitext(name)[0]
    return (component in ("sc_common", "systemc") or stem.endswith(("_module", "_transaction")) or
            rel in systemc_files)


def library_components(root, matrix):
    """{target: component} for every add_library/add_executable, by the folder
    of its first source (ptovp_cube_sc -> cube, ptovp_json_file -> config)."""
    libraries = {}
    for top in ("modules", "platform"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            if "CMakeLists.txt" not in files:
                continue
            text = open(os.path.join(folder, "CMakeLists.txt"), encoding="utf-8").read()
            for match in LIBRARY.finditer(text):
                sources = [w for w in match.group(2).split() if w.endswith(".cpp")]
                if sources:
                    rel = os.path.relpath(os.path.join(folder, sources[0]), root)
                    libraries[match.group(1)] = component_of(rel, matrix)
    return libraries


def library_component(target, libraries):
    """(component, is a SystemC library) of a ptovp_* target; (None, False) otherwise."""
    component = libraries.get(target)
    systemc = component == "sc_common" or target.endswith(("_sc", "_systemc"))
    return component, systemc


def check_includes(root, matrix, systemc_files):
    problems = []
    for top in ("modules", "platform"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                rel = os.path.relpath(os.path.join(folder, name), root)
                component = component_of(rel, matrix)
                if component is None:
                    problems.append(f"{rel}: the layer matrix has no row for its folder")
                    continue
                allowed = matrix[component][1] | {component}
                systemc_ok = is_systemc_file(rel, component, systemc_files)
                with open(os.path.join(root, rel), encoding="utf-8") as source:
                    for number, line in enumerate(source, 1):
                        match = INCLUDE.match(line)
                        if not match:
                            continue
                        angle, header = match.group(1) == "<", match.group(2)
                        where = f"{rel}:{number}"
                        if angle:
                            if header in SYSTEMC_HEADERS or header.startswith("tlm_utils/"):
                                if not systemc_ok:
                                    problems.append(f"{where}: SystemC header <{header}> outside a SystemC file")
                            continue
                        used = header.split("/")[0] if "/" in header else component
                        if used not in matrix:
                            continue
                        if used not in allowed:
                            problems.append(f"{where}: {component} includes {header} ({used} is not in its row)")
                        elif used == "sc_common" and not systemc_ok:
                            problems.append(f"{where}: {header} (SystemC) outside a SystemC file")
    return problems


def check_links(root, matrix, systemc_files):
    # A component with SystemC entry files may link SystemC libraries.
    systemc_components = {"systemc", "cli"} | {component_of(f, matrix) for f in systemc_files}
    libraries = library_components(root, matrix)
    problems = []
    for top in ("modules", "platform"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            if "CMakeLists.txt" not in files:
                continue
            rel = os.path.relpath(os.path.join(folder, "CMakeLists.txt"), root)
            text = open(os.path.join(root, rel), encoding="utf-8").read()
            for match in LINK.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                words = match.group(1).split()
                target = words[0]
                component, target_systemc = library_component(target, libraries)
                if component is None:
                    if target.startswith("ptovp"):
                        problems.append(f"{rel}:{line}: {target} has no sources in a matrix folder")
                    continue
                allowed = matrix[component][1] | {component}
                for word in words[1:]:
                    systemc_ok = target_systemc or component in systemc_components
                    if word == "PkgConfig::SYSTEMC" and not systemc_ok:
                        problems.append(f"{rel}:{line}: {target} links SystemC but is not a SystemC library")
                    used, used_systemc = library_component(word, libraries)
                    if used is None:
                        continue
                    if used not in allowed:
                        problems.append(f"{rel}:{line}: {target} links {word} ({used} is not in the row of {component})")
                    elif used_systemc and not systemc_ok:
                        problems.append(f"{rel}:{line}: {target} links the SystemC library {word}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    matrix, systemc_files = read_matrix(os.path.join(root, "docs", "architecture.md"))
    problems = check_includes(root, matrix, systemc_files) + check_links(root, matrix, systemc_files)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} edge(s) the layer matrix (docs/architecture.md) does not allow",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
