"""Shared fixtures of the maxgraph pytest suite."""

import os

import numpy as np
import pytest

# Every pass of compile()'s lowering is verified, not only the last.
os.environ.setdefault("MAXGRAPH_VERIFY_EACH_PASS", "1")


@pytest.fixture
def rng():
    return np.random.default_rng(20261129)
