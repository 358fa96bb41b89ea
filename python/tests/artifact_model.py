"""A model whose argument and result trees hold a dataclass, for the
artifact tests (test_artifacts.py): importable, so that a fresh process
that loads the artifact can rebuild the trees."""

import dataclasses

from maxgraph import functional as F
from maxgraph import ops
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout

W = TensorLayout(DType.float32, [3, 3])
B = TensorLayout(DType.float32, [3])


@dataclasses.dataclass
class Pair:
    x: object
    y: object


def model(pair, scale, *, shift):
    """`pair.x @ w * scale + b`, and both rows stacked: a symbolic (`n`)
    and an algebraic (`n * 2`) result dim."""
    h = pair.x @ ops.constant_external("w", W) * scale + \
        ops.constant_external("b", B)
    return {"h": h, "both": Pair(F.concat([h, pair.y + shift], axis=0),
                                 "tag")}


def specs():
    """The positional and keyword specs: `scale` is static."""
    spec = TensorLayout(DType.float32, ["n", 3])
    return (Pair(spec, spec), 2.0), {"shift": B}
