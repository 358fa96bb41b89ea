# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""docs/MaxParity.md stays true: every name marked ✓ or ~ exists in its
maxgraph module, and the Summary counts the rows."""

import os
import pathlib
import re
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / \
    "max_parity.py"


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args],
                          capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                              sys.path)))


def test_every_name_marked_present_exists():
    result = run("names")
    assert result.returncode == 0, result.stderr


def test_the_summary_counts_the_rows():
    result = run("count", "--check")
    assert result.returncode == 0, result.stderr


def test_a_missing_name_is_reported(tmp_path):
    # The script's own check fails when a ✓ name is absent: a page copy
    # with a made-up name.
    page = SCRIPT.parent.parent / "docs" / "MaxParity.md"
    text = page.read_text().replace(
        "| `add` | ✓ |", "| `add`, `no_such_function` | ✓ |", 1)
    assert "no_such_function" in text
    copy = tmp_path / "scripts"
    copy.mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "MaxParity.md").write_text(text)
    (copy / "max_parity.py").write_text(SCRIPT.read_text())
    result = subprocess.run(
        [sys.executable, str(copy / "max_parity.py"), "names"],
        capture_output=True, text=True,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert result.returncode == 1
    assert "no_such_function (maxgraph.functional)" in result.stderr
    counted = subprocess.run(
        [sys.executable, str(copy / "max_parity.py"), "count", "--check"],
        capture_output=True, text=True)
    assert counted.returncode == 1
    # One more ✓ than the page's own Summary says.
    summary = re.search(r"^\| functional \| (\d+) \|", page.read_text(),
                        re.MULTILINE)
    assert f"| functional | {int(summary.group(1)) + 1} |" in counted.stderr
