// RUN: max-opt %s -split-input-file | FileCheck %s
// RUN: max-opt %s -split-input-file -canonicalize | FileCheck %s --check-prefix=CANON

// The forms round-trip; a rebind to the input's own type folds away, and
// canonicalization keeps print (its write effect) though nothing uses it.
// CHECK-LABEL: maxgraph.graph @forms
// CHECK: maxgraph.rebind %{{.*}} {message = "rows"} : !maxgraph.tensor<[?, 4], f32> -> !maxgraph.tensor<[n, 4], f32>
// CHECK: maxgraph.print "value" %{{.*}} : !maxgraph.tensor<[n, 4], f32>
// CHECK: maxgraph.print "done"
// CANON-LABEL: maxgraph.graph @forms
// CANON-NOT: maxgraph.rebind %arg0 : !maxgraph.tensor<[?, 4], f32> -> !maxgraph.tensor<[?, 4], f32>
// CANON: maxgraph.rebind %arg0 {message = "rows"}
// CANON: maxgraph.print "value"
// CANON: maxgraph.print "done"
maxgraph.graph @forms<n>(%x: !maxgraph.tensor<[?, 4], f32>, %y: !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[n, 4], f32> {
  %same = maxgraph.rebind %x : !maxgraph.tensor<[?, 4], f32> -> !maxgraph.tensor<[?, 4], f32>
  %0 = maxgraph.rebind %same {message = "rows"} : !maxgraph.tensor<[?, 4], f32> -> !maxgraph.tensor<[n, 4], f32>
  maxgraph.print "value" %0 : !maxgraph.tensor<[n, 4], f32>
  maxgraph.print "done"
  maxgraph.output %0 : !maxgraph.tensor<[n, 4], f32>
}
