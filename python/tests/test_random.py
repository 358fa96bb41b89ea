"""F.uniform, F.gaussian and maxgraph.random: values equal to the formula
of docs/Spec.md computed here in numpy (SplitMix64 of the seed and each
element's index), a seed that advances per call, the same values on any
thread count, and the errors."""

import numpy as np
import pytest

import maxgraph
import maxgraph.functional as F
from maxgraph import compilation, ops, random
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout

SEED = TensorLayout(DType.int64, [])
MASK = (1 << 64) - 1


def splitmix(seed: int, index: int) -> int:
    z = (seed + (index + 1) * 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def expected(seed, shape, low, high, dtype):
    """The spec's values: u from the top 53 bits, low + (high - low) * u in
    float64, rounded once; a value that rounds to high is the one below."""
    count = int(np.prod(shape))
    bits = [splitmix(seed & MASK, i) >> 11 for i in range(count)]
    u = np.array(bits, np.float64) * 2.0**-53
    values = (low + (high - low) * u).astype(dtype)
    top = np.nextafter(dtype(high), dtype(low))
    values = np.where(values.astype(np.float64) >= high, top, values)
    return values.reshape(shape)


@pytest.mark.parametrize("dtype,numpy_dtype", [
    (DType.float32, np.float32), (DType.float64, np.float64),
    (DType.float16, np.float16)])
@pytest.mark.parametrize("seed", [0, 7, -3, 2**62 + 5])
def test_random_uniform_is_the_spec_formula(dtype, numpy_dtype, seed):
    shape = [3, 5]
    compiled = compilation.compile(
        lambda s: ops.random_uniform(s, shape, -0.5, 2.0, dtype))(SEED)
    got = compiled(np.array(seed, np.int64)).to_numpy()
    np.testing.assert_array_equal(got, expected(seed, shape, -0.5, 2.0,
                                                numpy_dtype))
    assert got.min() >= -0.5 and got.max() < 2.0


def test_a_range_that_rounds_up_keeps_its_high_bound_out():
    # In float16, [0, 2^-12) holds few values: many round to the bound.
    compiled = compilation.compile(
        lambda s: ops.random_uniform(s, [4096], 0.0, 2.0**-12,
                                     DType.float16))(SEED)
    got = compiled(np.array(1, np.int64)).to_numpy().astype(np.float64)
    assert got.max() < 2.0**-12
    np.testing.assert_array_equal(
        got, expected(1, [4096], 0.0, 2.0**-12, np.float16))


def test_uniform_advances_the_graph_seed_from_set_seed():
    def fn(seed):
        random.set_seed(seed)
        first = F.uniform((4,), range=(1, 3))
        second = F.uniform((4,))
        return first, second, random.seed()

    compiled = compilation.compile(fn)(SEED)
    first, second, after = compiled(np.array(11, np.int64))
    np.testing.assert_array_equal(first.to_numpy(),
                                  expected(11, [4], 1.0, 3.0, np.float32))
    np.testing.assert_array_equal(second.to_numpy(),
                                  expected(12, [4], 0.0, 1.0, np.float32))
    assert int(after.to_numpy()) == 13


def test_the_seed_is_zero_until_set():
    compiled = compilation.compile(lambda x: x + F.uniform((2,)))(
        TensorLayout(DType.float32, [2]))
    got = compiled(np.zeros(2, np.float32)).to_numpy()
    np.testing.assert_array_equal(got, expected(0, [2], 0.0, 1.0,
                                                np.float32))


def test_values_do_not_depend_on_the_thread_count():
    compiled = compilation.compile(
        lambda s: ops.random_uniform(s, [256, 1024], 0.0, 1.0))(SEED)
    before = maxgraph.get_num_threads()
    try:
        maxgraph.set_num_threads(1)
        one = compiled(np.array(5, np.int64)).to_numpy()
        maxgraph.set_num_threads(2)
        two = compiled(np.array(5, np.int64)).to_numpy()
    finally:
        maxgraph.set_num_threads(before)
    np.testing.assert_array_equal(one, two)
    # Spread over [0, 1): each tenth holds about a tenth of the values.
    counts = np.histogram(one, bins=10, range=(0, 1))[0]
    assert counts.min() > 0.09 * one.size and counts.max() < 0.11 * one.size


def test_a_loop_body_draws_per_round_from_a_carried_counter():
    def fn(seed):
        def step(i, total):
            random.set_seed(seed + i)
            return i + 1, total + F.uniform((3,))

        zero = F.constant(np.array(0, np.int64), DType.int64)
        _, total = F.while_loop(
            [zero, F.constant(np.zeros(3, np.float32), DType.float32)],
            lambda i, total: i < 4, step)
        return total

    got = compilation.compile(fn)(SEED)(np.array(3, np.int64)).to_numpy()
    want = np.zeros(3, np.float32)
    for i in range(4):
        want = want + expected(3 + i, [3], 0.0, 1.0, np.float32)
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_gaussian_has_its_mean_and_std():
    def fn(seed):
        random.set_seed(seed)
        return F.gaussian((20000,), mean=2.0, std=0.5)

    got = compilation.compile(fn)(SEED)(np.array(1, np.int64)).to_numpy()
    assert abs(got.mean() - 2.0) < 0.02
    assert abs(got.std() - 0.5) < 0.02
    assert np.isfinite(got).all()


def test_live_random_tensors_take_the_process_seed():
    random.set_seed(40)
    first = F.uniform((3,)).to_numpy()
    assert random.seed() == 41
    second = random.uniform((3,)).to_numpy()
    np.testing.assert_array_equal(first, expected(40, [3], 0.0, 1.0,
                                                  np.float32))
    np.testing.assert_array_equal(second, expected(41, [3], 0.0, 1.0,
                                                   np.float32))
    assert random.normal((2, 2)).to_numpy().shape == (2, 2)
    assert random.seed() == 44


def test_bad_seeds_and_ranges_are_refused():
    with pytest.raises(ValueError, match="must have low below high"):
        F.uniform((2,), range=(1, 1))
    with pytest.raises(TypeError, match="set_seed: the seed must be an int"):
        random.set_seed(1.5)
    with pytest.raises(ValueError, match="set_random_seed: the seed must be "
                       "a rank-0 integer tensor on the CPU"):
        compilation.stage(lambda x: random.set_seed(x))(
            TensorLayout(DType.float32, []))
    with pytest.raises(ValueError, match="the seed of 'maxgraph.random_"
                       "uniform' must be a rank-0 int64 tensor on the CPU"):
        compilation.stage(lambda s: ops.random_uniform(s, [2]))(
            TensorLayout(DType.int32, []))
    with pytest.raises(ValueError, match="no input of the graph has the "
                       "symbolic dim `n`"):
        compilation.stage(lambda s: ops.random_uniform(s, ["n"]))(SEED)


def test_live_random_graphs_share_the_bounded_eager_cache(monkeypatch):
    import collections
    # A cache of its own: earlier tests' graphs are not this test's.
    monkeypatch.setattr(F, "_EAGER_CACHE", collections.OrderedDict())
    monkeypatch.setattr(F, "_EAGER_CACHE_SIZE", 3)
    for length in range(1, 7):
        assert F.uniform((length,)).to_numpy().shape == (length,)
    assert len(F._EAGER_CACHE) <= 3


def test_like_forms_take_the_shape_dtype_and_device_of_like():
    spec = TensorLayout(DType.float64, [3, 4])

    def draws(x):
        random.set_seed(5)
        return (F.uniform_like(x, range=(2, 3)), F.gaussian_like(spec),
                F.normal_like(x, mean=10.0, std=0.5))

    def plain(x):
        random.set_seed(5)
        return F.uniform(x.shape, (2, 3), dtype=x.dtype, device=x.device)

    zeros = np.zeros((3, 4))
    u, g, n = [t.to_numpy() for t in compilation.compile(draws)(spec)(zeros)]
    assert u.dtype == g.dtype == n.dtype == np.float64
    assert u.shape == g.shape == n.shape == (3, 4)
    assert ((u >= 2) & (u < 3)).all()
    # uniform_like is uniform of like's shape, dtype and device: the same
    # seed gives the same values.
    np.testing.assert_array_equal(
        u, compilation.compile(plain)(spec)(zeros).to_numpy())
    assert abs(n.mean() - 10.0) < 0.5 and not np.array_equal(g, u)
    # Live: a live `like` gives a live tensor from the process seed.
    live = F.uniform_like(maxgraph.Tensor.from_numpy(
        np.zeros(5, np.float32)))
    assert live.is_live and live.dtype == DType.float32
    assert live.shape == [5]
    with pytest.raises(TypeError, match="uniform_like: like is a Tensor or "
                       "TensorLayout, got list"):
        F.uniform_like([3, 4])
