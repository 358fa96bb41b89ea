"""Prints a graph that sums N [n, 64] f32 inputs on gpu:0 with a chain of adds.

Usage: wide_sum.py N
"""

import sys

count = int(sys.argv[1])
tensor = "!maxgraph.tensor<[n, 64], f32, gpu:0>"
arguments = ", ".join(f"%a{i}: {tensor}" for i in range(count))
print(f"maxgraph.graph @wide<n>({arguments}) -> {tensor} {{")
previous = "%a0"
for i in range(1, count):
    print(f"  %s{i} = maxgraph.add {previous}, %a{i} : ({tensor}, {tensor}) -> {tensor}")
    previous = f"%s{i}"
print(f"  maxgraph.output {previous} : {tensor}")
print("}")
