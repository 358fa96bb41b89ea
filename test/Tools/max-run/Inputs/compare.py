#!/usr/bin/env python3
"""Compares two directories of .npy results within a tolerance.

  compare.py DIR_A DIR_B [--rtol R] [--atol A]

Prints `match N` when every result_K.npy in DIR_A equals the one in DIR_B
within |a - b| <= atol + rtol * |b| (NaN equal to NaN), else the first
mismatch. Standard library only.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import npy  # noqa: E402


def main():
    a, b = sys.argv[1], sys.argv[2]
    rtol = float(sys.argv[sys.argv.index("--rtol") + 1]) if "--rtol" in sys.argv else 1e-5
    atol = float(sys.argv[sys.argv.index("--atol") + 1]) if "--atol" in sys.argv else 1e-6
    names = sorted(n for n in os.listdir(a) if n.endswith(".npy"))
    for name in names:
        da, sa, va = npy.load(os.path.join(a, name))
        db, sb, vb = npy.load(os.path.join(b, name))
        if (da, sa) != (db, sb):
            print("mismatch %s: %s %s vs %s %s" % (name, da, sa, db, sb))
            return 1
        for i, (x, y) in enumerate(zip(va, vb)):
            if math.isnan(x) and math.isnan(y):
                continue
            if not abs(x - y) <= atol + rtol * abs(y):
                print("mismatch %s[%d]: %r vs %r" % (name, i, x, y))
                return 1
    print("match", len(names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
