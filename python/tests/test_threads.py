"""maxgraph.set_num_threads: one thread count for compiled CPU code, whichever
Python thread calls it, as torch.set_num_threads. OpenMP keeps its count per
thread, so the test reads what a call gave the calling thread from the
OpenMP runtime that compiled code runs on."""

import ctypes
import threading
import time

import numpy as np
import pytest

import maxgraph
from maxgraph import compilation, ops
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor


def openmp_threads():
    """The calling thread's OpenMP thread count (omp_get_max_threads)."""
    return ctypes.CDLL("libomp.so.5").omp_get_max_threads()


@pytest.fixture
def large_add():
    """A compiled add large enough for threads, and its numpy inputs."""
    layout = TensorLayout(DType.float32, [1024, 1024])
    graph = compilation.stage(lambda a, b: ops.exp(a) + b, name="add")(
        layout, layout)
    rng = np.random.default_rng(0)
    a = rng.standard_normal((1024, 1024), np.float32)
    b = rng.standard_normal((1024, 1024), np.float32)
    yield graph.compile(), a, b
    maxgraph.set_num_threads(0)


def test_the_count_set_holds_for_every_calling_thread(large_add):
    run, a, b = large_add
    default = maxgraph.get_num_threads()
    assert default >= 1
    expected = np.exp(a) + b
    for count in [1, 3]:
        maxgraph.set_num_threads(count)
        assert maxgraph.get_num_threads() == count
        np.testing.assert_allclose(run(a, b).to_numpy(), expected, rtol=1e-5,
                                   atol=1e-6)
        assert openmp_threads() == count
        seen = []

        def call():
            np.testing.assert_allclose(run(a, b).to_numpy(), expected,
                                       rtol=1e-5, atol=1e-6)
            seen.append(openmp_threads())

        worker = threading.Thread(target=call)
        worker.start()
        worker.join()
        assert seen == [count]
    maxgraph.set_num_threads(0)
    assert maxgraph.get_num_threads() == default
    run(a, b)
    assert openmp_threads() == default


def test_a_negative_count_is_refused():
    with pytest.raises(maxgraph.RuntimeError,
                       match=r"setThreadCount: -1 threads; expected at least "
                             r"1, or 0 for OpenMP's default"):
        maxgraph.set_num_threads(-1)


def openmp_blocktime():
    """The calling thread's OpenMP blocktime in ms (libomp's
    kmp_get_blocktime)."""
    return ctypes.CDLL("libomp.so.5").kmp_get_blocktime()


def test_the_spin_time_holds_for_every_calling_thread(large_add):
    run, a, b = large_add
    assert maxgraph.get_spin_time() == 1  # no KMP_BLOCKTIME in the tests
    try:
        for spin in [0, 7, 1]:
            maxgraph.set_spin_time(spin)
            assert maxgraph.get_spin_time() == spin
            run(a, b)
            assert openmp_blocktime() == spin
            seen = []

            def call():
                run(a, b)
                seen.append(openmp_blocktime())

            worker = threading.Thread(target=call)
            worker.start()
            worker.join()
            assert seen == [spin]
    finally:
        maxgraph.set_spin_time(1)
    with pytest.raises(maxgraph.RuntimeError, match="-1 ms; expected 0"):
        maxgraph.set_spin_time(-1)


def test_a_call_leaves_no_thread_spinning(large_add):
    """After a call on two threads, OpenMP's other thread sleeps within the
    spin time (1 ms) instead of libomp's 200 ms: the process uses next to
    no CPU while its caller sleeps."""
    run, a, b = large_add
    maxgraph.set_num_threads(2)
    for _ in range(3):
        run(a, b)
    spent = []
    for _ in range(5):
        run(a, b)
        start = time.process_time()
        time.sleep(0.3)
        spent.append(time.process_time() - start)
    assert max(spent) < 0.03, spent


def test_other_python_threads_run_while_a_graph_compiles(monkeypatch):
    # compile() lets go of the GIL while it compiles (seconds for a model):
    # the main thread keeps running.
    monkeypatch.setenv("MAXGRAPH_CACHE", "0")

    def chain(x, *weights):
        for w in weights:
            x = ops.relu(x @ w)
        return x

    widths = [96 + 32 * i for i in range(7)]
    layouts = [TensorLayout(DType.float32, [64, widths[0]])] + [
        TensorLayout(DType.float32, [widths[i], widths[i + 1]])
        for i in range(len(widths) - 1)]
    graph = compilation.stage(chain, name="compiled_beside_python")(*layouts)
    span = {}

    def compile_it():
        span["start"] = time.perf_counter()
        span["run"] = graph.compile()
        span["end"] = time.perf_counter()

    worker = threading.Thread(target=compile_it)
    ticks = []
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    assert "run" in span
    seconds = span["end"] - span["start"]
    assert seconds > 0.05, "too quick a compile to tell"
    inside = [t for t in ticks if span["start"] <= t <= span["end"]]
    edges = [span["start"]] + inside + [span["end"]]
    longest = max(b - a for a, b in zip(edges, edges[1:]))
    assert longest < seconds / 2, (longest, seconds, len(inside))
    rng = np.random.default_rng(1)
    x = rng.standard_normal((64, widths[0]), np.float32)
    ws = [rng.standard_normal((widths[i], widths[i + 1]), np.float32) / 8
          for i in range(len(widths) - 1)]
    expected = x
    for w in ws:
        expected = np.maximum(expected @ w, 0)
    np.testing.assert_allclose(span["run"](x, *ws).to_numpy(), expected,
                               rtol=1e-4, atol=1e-5)
