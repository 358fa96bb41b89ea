// The compile cache across processes: two max-run compiling the same graph
// at once both get the right results and leave one entry that verifies (a
// third run loads it); a corrupt entry is rebuilt; MAXGRAPH_CACHE=0 writes
// nothing.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/a.npy '<f4' 2 1 2
// RUN: %python %S/Inputs/npy.py write %t/b.npy '<f4' 2 3 4
// RUN: sh -c 'export MAXGRAPH_CACHE_DIR=%t/cache; max-run %S/interpret.mlir --input=%t/a.npy --input=%t/b.npy --print > %t/one.txt & max-run %S/interpret.mlir --input=%t/a.npy --input=%t/b.npy --print > %t/two.txt & wait'
// RUN: FileCheck %s --check-prefix=SEED < %t/one.txt
// RUN: FileCheck %s --check-prefix=SEED < %t/two.txt
// SEED: [8, 12]
// RUN: ls %t/cache | FileCheck %s --check-prefix=ONE
// ONE: {{^[0-9a-f]{32}\.mgobj$}}
// ONE-NOT: {{.}}
// RUN: env MAXGRAPH_CACHE_DIR=%t/cache max-run %S/interpret.mlir --input=%t/a.npy --input=%t/b.npy --print --cache-info 2>&1 | FileCheck %s --check-prefix=HIT
// HIT: compile: loaded from the cache in
// HIT: [8, 12]

// A flipped byte in the payload: detected, rebuilt, right results.
// RUN: %python -c "import glob; p = glob.glob('%t/cache/*.mgobj')[0]; b = bytearray(open(p, 'rb').read()); b[len(b) // 2] ^= 0x5a; open(p, 'wb').write(b)"
// RUN: env MAXGRAPH_CACHE_DIR=%t/cache max-run %S/interpret.mlir --input=%t/a.npy --input=%t/b.npy --print --cache-info 2>&1 | FileCheck %s --check-prefix=MISS
// MISS: compile: compiled in
// MISS: [8, 12]
// RUN: env MAXGRAPH_CACHE_DIR=%t/cache max-run %S/interpret.mlir --input=%t/a.npy --input=%t/b.npy --print --cache-info 2>&1 | FileCheck %s --check-prefix=HIT

// RUN: env MAXGRAPH_CACHE=0 MAXGRAPH_CACHE_DIR=%t/off max-run %S/interpret.mlir --input=%t/a.npy --input=%t/b.npy --print --cache-info 2>&1 | FileCheck %s --check-prefix=MISS
// RUN: not ls %t/off
