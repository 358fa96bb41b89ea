// max-run runs a graph on .npy inputs with the reference interpreter.
// Inputs are written by Inputs/npy.py (standard library only); expected
// values are worked out by hand in the CHECK lines.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/a.npy '<f4' 2 1 2
// RUN: %python %S/Inputs/npy.py write %t/b.npy '<f4' 2 3 4
// RUN: max-run %s --interpret --input=%t/a.npy --input=%t/b.npy --print | FileCheck %s
// CHECK: result 0 (output): !maxgraph.tensor<[2], f32>
// CHECK-NEXT: [8, 12]

// Results written as .npy read back with the independent reader.
// RUN: max-run %s --interpret --input=%t/a.npy --input=%t/b.npy --output=%t/out
// RUN: %python %S/Inputs/npy.py read %t/out/result_0.npy | FileCheck %s --check-prefix=NPY
// NPY: <f4 (2,) 8.0 12.0

// Wrong shapes, missing inputs and bad files are errors with a non-zero exit.
// RUN: %python %S/Inputs/npy.py write %t/c.npy '<f4' 3 1 2 3
// RUN: not max-run %s --interpret --input=%t/a.npy --input=%t/c.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: max-run: error: {{.*}}argument 1 (`kv.b`)
// RUN: not max-run %s --interpret --input=%t/a.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: max-run: error:
// RUN: not max-run %s --interpret 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: max-run: error: @combine takes 2 arguments: pass one --input=FILE.npy each, or --random-inputs
// RUN: not max-run %s --interpret --input=%t/missing.npy --input=%t/b.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: max-run: error: {{.*}}missing.npy: cannot open the file
// RUN: not max-run %s --interpret --input=%s --input=%t/b.npy 2>&1 | FileCheck %s --check-prefix=NOTNPY
// NOTNPY: max-run: error: {{.*}}interpret.mlir: not an .npy file (bad magic)
// RUN: not max-run %s --graph=nope --interpret 2>&1 | FileCheck %s --check-prefix=GRAPH
// GRAPH: max-run: error: no graph named @nope

// Random inputs with a bound symbolic dim, and timing.
// RUN: max-run %S/Inputs/symbolic.mlir --interpret --random-inputs --seed=7 --dims=batch=3 --print --time=3 | FileCheck %s --check-prefix=RANDOM
// RANDOM: result 0 (output): !maxgraph.tensor<[batch], f32>
// RANDOM-NEXT: [{{[^,]+}}, {{[^,]+}}, {{[^,]+}}]
// RANDOM: time over 3 runs: median {{[0-9.]+}} ms, min {{[0-9.]+}} ms
// RUN: not max-run %S/Inputs/symbolic.mlir --interpret --random-inputs 2>&1 | FileCheck %s --check-prefix=NODIMS
// NODIMS: max-run: error: argument 0 has dim `batch`: give its size with --dims=NAME=SIZE

maxgraph.graph @combine(%a: !maxgraph.tensor<[2], f32>, %b: !maxgraph.tensor<[2], f32>)
    -> !maxgraph.tensor<[2], f32>
    attributes {argument_names = ["kv.a", "kv.b"], result_names = ["output"]} {
  %0 = maxgraph.add %a, %b : !maxgraph.tensor<[2], f32>
  %1 = maxgraph.constant dense<2.0> : !maxgraph.tensor<[], f32>
  %2 = maxgraph.mul %0, %1 : (!maxgraph.tensor<[2], f32>, !maxgraph.tensor<[], f32>)
                                 -> !maxgraph.tensor<[2], f32>
  maxgraph.output %2 : !maxgraph.tensor<[2], f32>
}
