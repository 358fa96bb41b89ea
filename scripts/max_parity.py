#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Counts and checks docs/MaxParity.md, the table of MAX's public names.

  scripts/max_parity.py count            the Summary table the page holds
  scripts/max_parity.py count --check    exit 1 if the page's Summary differs
  scripts/max_parity.py names            every name marked ✓ or ~ must exist
                                         in its maxgraph module (needs
                                         build/python on PYTHONPATH)
  scripts/max_parity.py missing MAX_SRC  the names of MAX's __all__ lists (in
                                         a checkout of modular/modular's
                                         max/python/max) that the page lacks

A row counts when its first cell starts with a `name`; each `name` of the
cell is one name. A status followed by "(src)" marks a name found only in
MAX's sources, counted apart.
"""

import argparse
import ast
import importlib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "MaxParity.md"
STATUSES = ("✓", "~", "✗")

# The page's "## `max.X` → `maxgraph.Y`" sections: the maxgraph module and
# the label of the Summary row; the dtype section's second table is DType's
# members.
SECTIONS = {
    "max.dtype": ("maxgraph.dtype", "dtype"),
    "max.driver": ("maxgraph.driver", "driver"),
    "max.experimental.compilation": ("maxgraph.compilation", "compilation"),
    "max.experimental.sharding": ("maxgraph.sharding", "sharding"),
    "max.experimental.tensor": ("maxgraph.tensor", "tensor"),
    "max.experimental.functional": ("maxgraph.functional", "functional"),
    "max.experimental": ("maxgraph", "top level"),
}
MAX_SOURCES = {
    "driver/__init__.py": "max.driver",
    "dtype/__init__.py": "max.dtype",
    "experimental/compilation.py": "max.experimental.compilation",
    "experimental/sharding/__init__.py": "max.experimental.sharding",
    "experimental/tensor.py": "max.experimental.tensor",
    "experimental/functional/__init__.py": "max.experimental.functional",
    "experimental/__init__.py": "max.experimental",
}


class Row:
    def __init__(self, section, table, names, status, src, line):
        self.section, self.table = section, table
        self.names, self.status, self.src, self.line = \
            names, status, src, line


def rows(text):
    """The counted rows of the page, in order."""
    section = table = None
    result = []
    for number, line in enumerate(text.splitlines(), 1):
        heading = re.match(r"## `([\w.]+)`", line)
        if heading:
            section = heading.group(1)
            if section not in SECTIONS:
                raise SystemExit(f"{PAGE}:{number}: an unknown section "
                                 f"{section}")
            table = SECTIONS[section][1]
            continue
        if line.startswith("## "):
            section = table = None
            continue
        if section == "max.dtype" and line.startswith("`DType` members"):
            table = "DType members"
            continue
        if section is None or not line.startswith("| `"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) < 2 or not cells[1] or cells[1][0] not in STATUSES:
            raise SystemExit(f"{PAGE}:{number}: a row without a status "
                             f"(✓, ~ or ✗): {line[:80]}")
        names = re.findall(r"`([^`]+)`", cells[0])
        result.append(Row(section, table, names, cells[1][0],
                          "(src)" in cells[1], number))
    return result


def counts(all_rows):
    """{label: {"26.7": [✓, ~, ✗], "src": [✓, ~, ✗]}}, in page order."""
    table = {}
    for row in all_rows:
        entry = table.setdefault(row.table, {"26.7": [0, 0, 0],
                                             "src": [0, 0, 0]})
        entry["src" if row.src else "26.7"][STATUSES.index(row.status)] += \
            len(row.names)
    return table


def summary_table(table):
    lines = ["| module | ✓ | ~ | ✗ | (src) ✓ | (src) ~ | (src) ✗ |",
             "|---|---|---|---|---|---|---|"]
    for label, entry in table.items():
        lines.append(f"| {label} | " + " | ".join(
            str(n) for n in entry["26.7"] + entry["src"]) + " |")
    return "\n".join(lines)


def page_summary(text):
    """The table under the page's "## Summary"."""
    part = text.split("\n## Summary\n", 1)
    if len(part) != 2:
        raise SystemExit(f"{PAGE}: no '## Summary' section")
    table = [line for line in part[1].splitlines() if line.startswith("|")]
    return "\n".join(table)


def resolve(module, name, prefix):
    """The object `name` names in `module`: `Tensor.T`, `.argmax` after a
    `Tensor.` name, `is_float()`; None where it is missing."""
    name = name.rstrip("()")
    if name.startswith("."):
        name = prefix + name
    value = module
    for part in name.split("."):
        if not hasattr(value, part):
            # A submodule that `from maxgraph import random` imports.
            try:
                value = importlib.import_module(f"{value.__name__}.{part}")
                continue
            except (AttributeError, ImportError):
                return None
        value = getattr(value, part)
    return value


def check_names(all_rows):
    """The ✓ and ~ names that their maxgraph module lacks."""
    missing = []
    for row in all_rows:
        if row.status == "✗":
            continue
        module = importlib.import_module(SECTIONS[row.section][0])
        scope = module.DType if row.table == "DType members" else module
        prefix = ""
        for name in row.names:
            # Only identifiers and dotted members name things; the rest of
            # the cell's code (`get/set_...`, signatures) describes them.
            if not re.fullmatch(r"\.?[A-Za-z_][\w.]*(\(\))?", name):
                continue
            if "." in name.lstrip("."):
                prefix = name.lstrip(".").rsplit(".", 1)[0]
            if resolve(scope, name, prefix) is None:
                missing.append(f"{PAGE.name}:{row.line}: {name} "
                               f"({SECTIONS[row.section][0]})")
    return missing


def max_all(source):
    tree = ast.parse(source.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__"
                for t in node.targets):
            return [ast.literal_eval(e) for e in node.value.elts]
    return []


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    count = commands.add_parser("count")
    count.add_argument("--check", action="store_true")
    commands.add_parser("names")
    missing = commands.add_parser("missing")
    missing.add_argument("max_src", type=pathlib.Path)
    args = parser.parse_args()
    text = PAGE.read_text()
    all_rows = rows(text)
    if args.command == "count":
        table = summary_table(counts(all_rows))
        if args.check and table != page_summary(text):
            print(f"{PAGE}: the Summary differs from the rows; it should "
                  f"be:\n{table}", file=sys.stderr)
            return 1
        print(table)
        return 0
    if args.command == "names":
        absent = check_names(all_rows)
        for line in absent:
            print(f"marked ✓ or ~ but missing: {line}", file=sys.stderr)
        return 1 if absent else 0
    listed = {(row.section, name) for row in all_rows for name in row.names}
    unlisted = 0
    for path, section in MAX_SOURCES.items():
        source = args.max_src / path
        if not source.exists():
            print(f"{source}: not found", file=sys.stderr)
            continue
        for name in max_all(source):
            if (section, name) not in listed:
                print(f"{section}.{name}: not in {PAGE.name}")
                unlisted += 1
    return 1 if unlisted else 0


if __name__ == "__main__":
    sys.exit(main())
