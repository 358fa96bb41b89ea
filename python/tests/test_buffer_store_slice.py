"""Stores into a window of a BufferLayout argument (`buffer[key] = value`,
F.buffer_store_slice) and buffers read as values, against numpy."""

import numpy as np
import pytest

import maxgraph
import maxgraph.functional as F
from maxgraph import compilation
from maxgraph.dtype import DType
from maxgraph.sharding import BufferLayout, TensorLayout

SCALAR = TensorLayout(DType.int64, [])


def test_kv_cache_is_written_at_run_time_positions():
    # One graph for every step: the window moves with `pos`, the number of
    # new rows is symbolic.
    def step(cache, kv, pos, end):
        cache[pos:end, :] = kv
        return cache[0:4]

    compiled = compilation.compile(step)(
        BufferLayout(DType.float32, [8, 3]),
        TensorLayout(DType.float32, ["seq", 3]), SCALAR, SCALAR)
    cache = np.zeros((8, 3), np.float32)
    expected = cache.copy()
    rng = np.random.default_rng(0)
    pos = 0
    for rows in (3, 1, 1, 2):
        kv = rng.standard_normal((rows, 3)).astype(np.float32)
        head = compiled(cache, kv, np.array(pos, np.int64), np.array(pos + rows, np.int64))
        expected[pos:pos + rows] = kv
        np.testing.assert_array_equal(cache, expected)
        # The load after the store sees it.
        np.testing.assert_array_equal(head.to_numpy(), expected[0:4])
        pos += rows


def test_indices_steps_ellipsis_and_negative_bounds_follow_numpy():
    def store(buf, row, column, strided, pos):
        buf[1] = row                # an int drops its dim
        buf[..., -1] = column       # so does a negative one
        buf[0:4:3, 0:3:2] = strided
        F.buffer_store_slice(buf, row[0:2], [pos, slice(None, 2)])

    compiled = compilation.compile(store)(
        BufferLayout(DType.int32, [4, 4]), TensorLayout(DType.int32, [4]),
        TensorLayout(DType.int32, [4]), TensorLayout(DType.int32, [2, 2]),
        SCALAR)
    buf = np.arange(16, dtype=np.int32).reshape(4, 4)
    row = np.array([10, 11, 12, 13], np.int32)
    column = np.array([20, 21, 22, 23], np.int32)
    strided = np.array([[30, 31], [32, 33]], np.int32)
    for pos in (2, -1):
        got = buf.copy()
        compiled(got, row, column, strided, np.array(pos, np.int64))
        expected = buf.copy()
        expected[1] = row
        expected[..., -1] = column
        expected[0:4:3, 0:3:2] = strided
        expected[pos, :2] = row[0:2]
        np.testing.assert_array_equal(got, expected)


def test_a_buffer_reads_as_its_current_contents():
    def fn(buf, x):
        before = buf + x
        buf[0:2] = x[0:2] * 10
        return [before, x * buf, -buf, buf[1:], F.buffer_load(buf) - x]

    compiled = compilation.compile(fn)(BufferLayout(DType.float32, [3]),
                                       TensorLayout(DType.float32, [3]))
    buf = np.array([1, 2, 3], np.float32)
    x = np.array([4, 5, 6], np.float32)
    results = [r.to_numpy() for r in compiled(buf, x)]
    stored = np.array([40, 50, 3], np.float32)
    np.testing.assert_array_equal(buf, stored)
    np.testing.assert_array_equal(results[0], [5, 7, 9])
    np.testing.assert_array_equal(results[1], x * stored)
    np.testing.assert_array_equal(results[2], -stored)
    np.testing.assert_array_equal(results[3], stored[1:])
    np.testing.assert_array_equal(results[4], stored - x)


def test_a_window_that_does_not_fit_fails_the_call_and_stores_nothing():
    def step(cache, kv, pos, end):
        cache[pos:end] = kv

    compiled = compilation.compile(step)(
        BufferLayout(DType.float32, [4]), TensorLayout(DType.float32, [2]),
        SCALAR, SCALAR)
    cache = np.zeros(4, np.float32)
    kv = np.ones(2, np.float32)
    # 3:6 clamps to 3:4, one element for two.
    with pytest.raises(maxgraph.RuntimeError,
                       match="maxgraph.buffer_store_slice: the range of dim 0 "
                       "selects another number of elements than the value's "
                       "dim 0 holds"):
        compiled(cache, kv, np.array(3, np.int64), np.array(6, np.int64))
    np.testing.assert_array_equal(cache, np.zeros(4))


def test_a_static_window_that_does_not_fit_is_refused_while_staging():
    with pytest.raises(ValueError, match=r"'maxgraph.buffer_store_slice' op "
                       r"the range of dim 0 selects `2` elements but the "
                       r"value has `3` there"):
        compilation.stage(lambda buf, x: buf.__setitem__(slice(1, 3), x))(
            BufferLayout(DType.float32, [4]),
            TensorLayout(DType.float32, [3]))


def test_bad_keys_and_values_are_refused_with_what_is_wrong():
    def stage(fn, *specs):
        return compilation.stage(fn)(BufferLayout(DType.float32, [4, 2]),
                                     *specs)

    with pytest.raises(ValueError, match=r"Buffer.__setitem__: the key "
                       r"selects 1 of the buffer's 2 dims, but the value "
                       r".* has rank 2"):
        stage(lambda buf, x: buf.__setitem__(0, x),
              TensorLayout(DType.float32, [1, 2]))
    with pytest.raises(TypeError, match="a slice start"):
        stage(lambda buf, x: buf.__setitem__(slice(0.5, 2), x),
              TensorLayout(DType.float32, [2, 2]))
    with pytest.raises(ValueError, match="a run-time bound of "
                       "'maxgraph.buffer_store_slice' must be a rank-0 "
                       "integer tensor"):
        stage(lambda buf, x, p: buf.__setitem__(slice(p, None), x),
              TensorLayout(DType.float32, [4, 2]),
              TensorLayout(DType.float32, []))


def test_a_tensor_argument_refuses_a_store_with_maxs_message():
    with pytest.raises(TypeError, match="cannot mutate a tensor argument "
                       "that was staged as a tensor"):
        compilation.stage(lambda t: t.__setitem__(0, t[1]))(
            TensorLayout(DType.float32, [4]))


def test_run_time_bounds_of_other_integer_types_are_read_as_int64():
    def step(cache, kv, pos):
        cache[pos:pos + 2] = kv

    compiled = compilation.compile(step)(
        BufferLayout(DType.float32, [5]), TensorLayout(DType.float32, [2]),
        TensorLayout(DType.uint8, []))
    cache = np.zeros(5, np.float32)
    compiled(cache, np.array([7, 8], np.float32), np.array(2, np.uint8))
    np.testing.assert_array_equal(cache, [0, 0, 7, 8, 0])


def test_slices_at_run_time_bounds_read_what_numpy_reads():
    # What a decoder step reads: the cache up to its new length and the
    # position table from the current position.
    def step(cache, table, kv, pos, end):
        cache[pos:end] = kv
        keys = cache[0:end]
        return [keys, table[pos:end, ::2], keys[-1:]]

    compiled = compilation.compile(step)(
        BufferLayout(DType.float32, [6, 2]), TensorLayout(DType.float32, [8, 4]),
        TensorLayout(DType.float32, ["seq", 2]), SCALAR, SCALAR)
    cache = np.zeros((6, 2), np.float32)
    table = np.arange(32, dtype=np.float32).reshape(8, 4)
    expected = cache.copy()
    pos = 0
    for rows in (2, 1, 3):
        kv = np.full((rows, 2), pos + 1, np.float32)
        keys, angles, last = compiled(cache, table, kv, np.array(pos, np.int64),
                                      np.array(pos + rows, np.int64))
        expected[pos:pos + rows] = kv
        np.testing.assert_array_equal(keys.to_numpy(), expected[0:pos + rows])
        np.testing.assert_array_equal(angles.to_numpy(),
                                      table[pos:pos + rows, ::2])
        np.testing.assert_array_equal(last.to_numpy(), expected[pos + rows - 1:
                                                                pos + rows])
        pos += rows
    # Bounds past the end clamp as numpy's do.
    keys, angles, _ = compiled(cache, table, np.zeros((0, 2), np.float32),
                               np.array(9, np.int64), np.array(9, np.int64))
    np.testing.assert_array_equal(keys.to_numpy(), expected)
    np.testing.assert_array_equal(angles.to_numpy(), table[9:9, ::2])


def test_a_run_time_index_picks_one_element_from_either_end():
    def pick(x, i):
        return x[i]

    compiled = compilation.compile(pick)(TensorLayout(DType.int32, [4, 2]),
                                         SCALAR)
    x = np.arange(8, dtype=np.int32).reshape(4, 2)
    for i in (0, 3, -1, -4):
        np.testing.assert_array_equal(
            compiled(x, np.array(i, np.int64)).to_numpy(), x[i])


def test_dims_enter_arithmetic_as_their_run_time_sizes():
    # pos + kv.shape[0]: the end of the window the new rows fill.
    def step(cache, kv, pos):
        end = pos + kv.shape[0]
        cache[pos:end] = kv
        return [cache[0:kv.shape[0] + pos],
                F.shape_to_tensor([kv.shape[0], kv.shape[0] * 2 + 1, 4])]

    compiled = compilation.compile(step)(
        BufferLayout(DType.float32, [6, 2]),
        TensorLayout(DType.float32, ["seq", 2]), SCALAR)
    cache = np.zeros((6, 2), np.float32)
    kv = np.ones((2, 2), np.float32)
    keys, sizes = compiled(cache, kv, np.array(3, np.int64))
    expected = np.zeros((6, 2), np.float32)
    expected[3:5] = 1
    np.testing.assert_array_equal(cache, expected)
    np.testing.assert_array_equal(keys.to_numpy(), expected[:5])
    np.testing.assert_array_equal(sizes.to_numpy(), [2, 5, 4])


def test_dims_are_slice_bounds():
    # A static dim is an int; a symbolic one is read when the graph runs.
    def fn(table, x):
        return [table[0:x.shape[0]], table[x.shape[1]:]]

    compiled = compilation.compile(fn)(TensorLayout(DType.float32, [6]),
                                       TensorLayout(DType.float32, ["n", 2]))
    table = np.arange(6, dtype=np.float32)
    for n in (0, 4, 9):
        head, tail = compiled(table, np.zeros((n, 2), np.float32))
        np.testing.assert_array_equal(head.to_numpy(), table[0:n])
        np.testing.assert_array_equal(tail.to_numpy(), table[2:])


def test_numpy_scalars_are_rank_0_inputs():
    def step(cache, kv, pos):
        cache[pos:pos + 1] = kv

    compiled = compilation.compile(step)(
        BufferLayout(DType.float32, [3]), TensorLayout(DType.float32, [1]),
        SCALAR)
    cache = np.zeros(3, np.float32)
    compiled(cache, np.array([5], np.float32), np.int64(1))
    np.testing.assert_array_equal(cache, [0, 5, 0])
    # A buffer needs storage it can write: a numpy scalar is refused.
    compiled = compilation.compile(lambda b: b.store(b + 1))(
        BufferLayout(DType.float32, []))
    with pytest.raises(TypeError, match="call with a live Tensor"):
        compiled(np.float32(1))


def test_indices_outside_a_static_dim_and_iteration_follow_numpy():
    def fn(x, n):
        with pytest.raises(IndexError, match="index 3 is out of range for "
                           "dim 0 of size 3"):
            x[3]
        with pytest.raises(IndexError, match="index -4 is out of range"):
            x[-4, 0]
        with pytest.raises(TypeError, match="iteration over dim 0 of size "
                           "`n`"):
            iter(n)
        rows = list(x)
        assert len(rows) == 3
        sums = [a + b for a, b in zip(rows, reversed(list(x)))]
        return sums[:2]

    compiled = compilation.compile(fn)(TensorLayout(DType.float32, [3, 2]),
                                       TensorLayout(DType.float32, ["n"]))
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    first, second = compiled(x, np.zeros(4, np.float32))
    np.testing.assert_array_equal(first.to_numpy(), x[0] + x[2])
    np.testing.assert_array_equal(second.to_numpy(), x[1] + x[1])
