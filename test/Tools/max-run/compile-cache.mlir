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

// A rebuilt compiler is another key, also when it runs from PATH (dladdr
// then names it as invoked, with no path): a byte appended to a copy of
// max-run, run as `copied-run`, is a miss.
// RUN: rm -rf %t/bin %t/rebuilt && mkdir -p %t/bin
// RUN: cp max-run %t/bin/copied-run
// RUN: sh -c 'cd %t && PATH=%t/bin:$PATH MAXGRAPH_CACHE_DIR=%t/rebuilt copied-run %S/interpret.mlir --input=%t/a.npy --input=%t/b.npy --print --cache-info' 2>&1 | FileCheck %s --check-prefix=MISS
// RUN: sh -c 'cd %t && PATH=%t/bin:$PATH MAXGRAPH_CACHE_DIR=%t/rebuilt copied-run %S/interpret.mlir --input=%t/a.npy --input=%t/b.npy --print --cache-info' 2>&1 | FileCheck %s --check-prefix=HIT
// RUN: sh -c 'printf x >> %t/bin/copied-run'
// RUN: sh -c 'cd %t && PATH=%t/bin:$PATH MAXGRAPH_CACHE_DIR=%t/rebuilt copied-run %S/interpret.mlir --input=%t/a.npy --input=%t/b.npy --print --cache-info' 2>&1 | FileCheck %s --check-prefix=MISS

// The key covers the kernel libraries a graph links: another library is a
// miss.
// RUN: cp %S/Inputs/cached-kernel.mlir %S/Inputs/kernels.mlir %t/
// RUN: %python %S/Inputs/npy.py write %t/x.npy '<f4' 4 1 2 3 4
// RUN: env MAXGRAPH_CACHE_DIR=%t/cache max-run %t/cached-kernel.mlir --input=%t/x.npy --print --cache-info 2>&1 | FileCheck %s --check-prefix=KMISS1
// KMISS1: compile: compiled in
// KMISS1: [2, 3, 4, 5]
// RUN: env MAXGRAPH_CACHE_DIR=%t/cache max-run %t/cached-kernel.mlir --input=%t/x.npy --print --cache-info 2>&1 | FileCheck %s --check-prefix=KHIT
// KHIT: compile: loaded from the cache in
// KHIT: [2, 3, 4, 5]
// RUN: %python -c "p = '%t/kernels.mlir'; t = open(p).read(); open(p, 'w').write(t.replace('dense<1.0>', 'dense<5.0>', 1))"
// RUN: env MAXGRAPH_CACHE_DIR=%t/cache max-run %t/cached-kernel.mlir --input=%t/x.npy --print --cache-info 2>&1 | FileCheck %s --check-prefix=KMISS5
// KMISS5: compile: compiled in
// KMISS5: [6, 7, 8, 9]

// Run-time errors name the op's line in the module being run, also when its
// code comes from the cache entry of the same graph at other lines: the
// key leaves locations out.
// RUN: %python -c "import sys; open('%t/lines.mlir', 'w').write(open(sys.argv[1]).read())" %S/Inputs/gather-error.mlir
// RUN: %python -c "import sys; open('%t/shifted.mlir', 'w').write('\n\n\n' + open(sys.argv[1]).read())" %S/Inputs/gather-error.mlir
// RUN: %python %S/Inputs/npy.py write %t/table.npy '<f4' 3 1 2 3
// RUN: %python %S/Inputs/npy.py write %t/index.npy '<i4' 1 3
// RUN: env MAXGRAPH_CACHE_DIR=%t/sites not max-run %t/lines.mlir --input=%t/table.npy --input=%t/index.npy --cache-info 2>&1 | FileCheck %s --check-prefix=SITE-MISS
// SITE-MISS: compile: compiled in
// SITE-MISS: error: run @gather: {{.*}}lines.mlir:3:8: maxgraph.gather: an index is out of range of the axis
// RUN: env MAXGRAPH_CACHE_DIR=%t/sites not max-run %t/shifted.mlir --input=%t/table.npy --input=%t/index.npy --cache-info 2>&1 | FileCheck %s --check-prefix=SITE-HIT
// SITE-HIT: compile: loaded from the cache in
// SITE-HIT: error: run @gather: {{.*}}shifted.mlir:6:8: maxgraph.gather: an index is out of range of the axis
