# Part of the MaxGraph project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Block encodings of quantized weights, with MAX's names
(``max.graph.quantization``).

GGUF's ``Q4_0``, ``Q4_1`` and ``Q8_0``: 32 values per block, a little-endian
f16 scale first (and for ``Q4_1`` an f16 minimum), then the codes. A weight
of ``n`` rows of ``k`` values is a ``uint8`` array of shape
``[n, k // 32 * block_nbytes]``, as ``gguf.GGUFReader`` returns it.
"""

from __future__ import annotations

import enum

__all__ = ["QuantizationConfig", "QuantizationEncoding"]


class QuantizationEncoding(enum.Enum):
    """A block encoding that ``F.dequantize`` and ``F.qmatmul`` read."""

    Q4_0 = "q4_0"
    Q4_1 = "q4_1"
    Q8_0 = "q8_0"

    @property
    def block_size(self) -> int:
        """Values per block."""
        return 32

    @property
    def block_nbytes(self) -> int:
        """Bytes per block."""
        return {"q4_0": 18, "q4_1": 20, "q8_0": 34}[self.value]

    def __str__(self) -> str:
        return self.value


class QuantizationConfig:
    """MAX's configuration of GPTQ weights. MaxGraph has no GPTQ encoding:
    ``F.qmatmul`` takes ``None`` in its place."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            "QuantizationConfig describes GPTQ weights, which maxgraph does "
            "not have; pass None as qmatmul's config")
