// MAXGRAPH_COMPILE_TIMING=1: a compile that generates code prints, to
// stderr, how long each phase took, MLIR's passes nested under theirs, and
// the results are unchanged; code from the cache, and the variable set to
// 0 or unset, print no report.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/x.npy '<f4' 4 1 -2 3 -4
// RUN: env MAXGRAPH_COMPILE_TIMING=1 MAXGRAPH_CACHE_DIR=%t/cache max-run %s --input=%t/x.npy --print 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT: Execution time report
// REPORT: Preparation (inlining, partition)
// REPORT-NEXT: MLIR passes
// REPORT: {{^ +[0-9.]+ +\([ 0-9.]+%\) +[0-9.]+ +\([ 0-9.]+%\)     OneShotBufferizePass$}}
// REPORT: ConvertToLLVMPass
// REPORT: {{^ +[0-9.]+ +\([ 0-9.]+%\) +[0-9.]+ +\([ 0-9.]+%\)   Translation to LLVM IR$}}
// REPORT-NEXT: {{  LLVM optimizer$}}
// REPORT-NEXT: {{  Code generation( \([0-9]+ threads\))?$}}
// REPORT: Total
// REPORT: result 0: !maxgraph.tensor<[4], f32>
// REPORT-NEXT: [1, 0, 3, 0]

// RUN: env MAXGRAPH_COMPILE_TIMING=1 MAXGRAPH_CACHE_DIR=%t/cache max-run %s --input=%t/x.npy --print 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env MAXGRAPH_COMPILE_TIMING=0 MAXGRAPH_CACHE_DIR=%t/other max-run %s --input=%t/x.npy --print 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env MAXGRAPH_CACHE_DIR=%t/third max-run %s --input=%t/x.npy --print 2>&1 | FileCheck %s --check-prefix=QUIET
// QUIET-NOT: Execution time report
// QUIET: result 0: !maxgraph.tensor<[4], f32>
// QUIET-NEXT: [1, 0, 3, 0]
// QUIET-NOT: Execution time report
maxgraph.graph @relu(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  %0 = maxgraph.relu %x : !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
