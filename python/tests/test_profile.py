"""The time a compiled graph spends in each of its loop nests, labelled by
the staging lines (CompiledGraph.profile, MAXGRAPH_PROFILE=1)."""

import inspect

import numpy as np

import maxgraph.functional as F
from maxgraph import compilation
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout

LAYOUTS = (TensorLayout(DType.float32, [64, 96]),
           TensorLayout(DType.float32, [96, 48]))


def scores(x, w):
    hidden = x @ w
    return F.softmax(hidden)


def lines_of(fn, *texts):
    source, first = inspect.getsourcelines(fn)
    return [first + next(i for i, line in enumerate(source) if text in line)
            for text in texts]


def test_profile_names_the_staging_lines(monkeypatch, rng):
    monkeypatch.setenv("MAXGRAPH_PROFILE", "1")
    run = compilation.compile(scores)(*LAYOUTS)
    x = rng.standard_normal((64, 96)).astype(np.float32)
    w = rng.standard_normal((96, 48)).astype(np.float32)
    expected = run(x, w).to_numpy()
    for _ in range(2):
        np.testing.assert_array_equal(run(x, w).to_numpy(), expected)
    rows = run.profile()
    matmul, softmax = lines_of(scores, "x @ w", "F.softmax")
    labels = [label for label, _, _ in rows]
    # Each nest is labelled with the line that staged its op and the graph.
    assert all(label.startswith("test_profile.py:") and
               label.endswith(" in @scores") for label in labels), labels
    lines = {int(label.split(":")[1]) for label in labels}
    assert {matmul, softmax} <= lines, (labels, matmul, softmax)
    # Every nest ran in each of the three calls and took some time.
    assert all(calls == 3 for _, calls, _ in rows), rows
    assert all(seconds > 0 for _, _, seconds in rows), rows
    run.reset_profile()
    assert [(calls, seconds) for _, calls, seconds in run.profile()] == \
        [(0, 0.0)] * len(rows)
    run(x, w)
    assert all(calls == 1 for _, calls, _ in run.profile())


def test_no_profile_without_the_variable(monkeypatch, rng):
    # The same graph compiled without MAXGRAPH_PROFILE is other code (not
    # the profiled code the test above cached): no timers, no rows.
    monkeypatch.delenv("MAXGRAPH_PROFILE", raising=False)
    run = compilation.compile(scores)(*LAYOUTS)
    run(rng.standard_normal((64, 96)).astype(np.float32),
        rng.standard_normal((96, 48)).astype(np.float32))
    assert run.profile() == []
    monkeypatch.setenv("MAXGRAPH_PROFILE", "0")
    assert compilation.compile(scores)(*LAYOUTS).profile() == []
