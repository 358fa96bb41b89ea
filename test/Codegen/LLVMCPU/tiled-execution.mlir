// Compiled (tiled, vectorized, partly OpenMP-parallel) against the reference
// interpreter on the same random inputs, at sizes that are no multiple of the
// tiles (on an AVX-512 host 8x32 register tiles, 128-deep K panels, 64-lane
// rows; max-run compiles for the host), including a symbolic dim bound to an
// odd size.
// RUN: rm -rf %t && mkdir -p %t
// RUN: max-run %s --graph=matmul --random-inputs --seed=1 --output=%t/mm-c
// RUN: max-run %s --graph=matmul --random-inputs --seed=1 --output=%t/mm-i --interpret
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/compare.py %t/mm-c %t/mm-i --rtol 1e-4 --atol 1e-4 | FileCheck %s --check-prefix=MATCH1
// MATCH1: match 1
// B packed into panels of 32 columns (96 and 1536 columns; K panels of 128
// and a partial one of 44; symbolic rows, threads over blocks of 512
// columns).
// RUN: max-run %s --graph=packed --random-inputs --seed=4 --dims=m=131 --output=%t/packed-c
// RUN: max-run %s --graph=packed --random-inputs --seed=4 --dims=m=131 --output=%t/packed-i --interpret
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/compare.py %t/packed-c %t/packed-i --rtol 1e-4 --atol 1e-4 | FileCheck %s --check-prefix=MATCH2
// MATCH2: match 2
// x @ transpose(w) (torch.nn.Linear's layout): B packed from w directly, the
// transpose dropped; a K panel of 44 and symbolic rows.
// RUN: max-run %s --graph=linear --random-inputs --seed=5 --dims=m=77 --output=%t/linear-c
// RUN: max-run %s --graph=linear --random-inputs --seed=5 --dims=m=77 --output=%t/linear-i --interpret
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/compare.py %t/linear-c %t/linear-i --rtol 1e-4 --atol 1e-4 | FileCheck %s --check-prefix=MATCH3
// MATCH3: match 2
// RUN: max-run %s --graph=rows --random-inputs --seed=2 --dims=n=131 --output=%t/rows-c
// RUN: max-run %s --graph=rows --random-inputs --seed=2 --dims=n=131 --output=%t/rows-i --interpret
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/compare.py %t/rows-c %t/rows-i --rtol 1e-5 --atol 1e-5 | FileCheck %s --check-prefix=MATCH4
// MATCH4: match 4
// Row groups large enough for threads (a row per OpenMP iteration), both
// dims symbolic: 257 rows of 300 = 4 * 64 + 44.
// RUN: max-run %s --graph=row_groups --random-inputs --seed=3 --dims=m=257,n=300 --output=%t/groups-c
// RUN: max-run %s --graph=row_groups --random-inputs --seed=3 --dims=m=257,n=300 --output=%t/groups-i --interpret
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/compare.py %t/groups-c %t/groups-i --rtol 1e-5 --atol 1e-5 | FileCheck %s --check-prefix=MATCH5
// MATCH5: match 5
// Attention: batches of matmuls (2 x 3 heads, a matmul per thread; a
// static batch of one large one, spread over the threads) and a
// softmax with the scale and a [batch, seq] mask fused into its rows;
// seq = 77 = 2 * 32 + 13 columns of register tiles, 64 + 13 lanes.
// RUN: max-run %s --graph=attention --random-inputs --seed=6 --dims=b=2,s=77 --output=%t/attention-c
// RUN: max-run %s --graph=attention --random-inputs --seed=6 --dims=b=2,s=77 --output=%t/attention-i --interpret
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/compare.py %t/attention-c %t/attention-i --rtol 1e-4 --atol 1e-5 | FileCheck %s --check-prefix=MATCH6
// MATCH6: match 4
// Row groups cut where a producer has a use outside the group (a norm
// returned and read by a matmul) or would be copied too often (a chain of
// six norms: a group ends inside a norm, reading its centred input whole),
// rows symbolic and 300 = 4 * 64 + 44 wide.
// RUN: max-run %s --graph=norm_chains --random-inputs --seed=7 --dims=m=67 --output=%t/chains-c
// RUN: max-run %s --graph=norm_chains --random-inputs --seed=7 --dims=m=67 --output=%t/chains-i --interpret
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/compare.py %t/chains-c %t/chains-i --rtol 1e-4 --atol 1e-4 | FileCheck %s --check-prefix=MATCH7
// MATCH7: match 3

// 37 = 4 * 8 + 5 rows, 300 = 2 * 128 + 44 deep, 70 = 2 * 32 + 6 columns.
maxgraph.graph @matmul(%a: !maxgraph.tensor<[37, 300], f32>, %b: !maxgraph.tensor<[300, 70], f32>) -> !maxgraph.tensor<[37, 70], f32> {
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[37, 300], f32>, !maxgraph.tensor<[300, 70], f32>) -> !maxgraph.tensor<[37, 70], f32>
  maxgraph.output %0 : !maxgraph.tensor<[37, 70], f32>
}

maxgraph.graph @packed<m>(%a: !maxgraph.tensor<[37, 300], f32>, %b: !maxgraph.tensor<[300, 96], f32>, %c: !maxgraph.tensor<[m, 300], f32>, %d: !maxgraph.tensor<[300, 1536], f32>) -> (!maxgraph.tensor<[37, 96], f32>, !maxgraph.tensor<[m, 1536], f32>) {
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[37, 300], f32>, !maxgraph.tensor<[300, 96], f32>) -> !maxgraph.tensor<[37, 96], f32>
  %1 = maxgraph.matmul %c, %d : (!maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[300, 1536], f32>) -> !maxgraph.tensor<[m, 1536], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[37, 96], f32>, !maxgraph.tensor<[m, 1536], f32>
}

maxgraph.graph @linear<m>(%x: !maxgraph.tensor<[m, 300], f32>, %w: !maxgraph.tensor<[96, 300], f32>, %v: !maxgraph.tensor<[1536, 300], f32>) -> (!maxgraph.tensor<[m, 96], f32>, !maxgraph.tensor<[m, 1536], f32>) {
  %t = maxgraph.transpose %w perm = [1, 0] : !maxgraph.tensor<[96, 300], f32> -> !maxgraph.tensor<[300, 96], f32>
  %0 = maxgraph.matmul %x, %t : (!maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[300, 96], f32>) -> !maxgraph.tensor<[m, 96], f32>
  %u = maxgraph.transpose %v perm = [1, 0] : !maxgraph.tensor<[1536, 300], f32> -> !maxgraph.tensor<[300, 1536], f32>
  %1 = maxgraph.matmul %x, %u : (!maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[300, 1536], f32>) -> !maxgraph.tensor<[m, 1536], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[m, 96], f32>, !maxgraph.tensor<[m, 1536], f32>
}

// Row ops over n = 131 = 2 * 64 + 3 lanes: softmax (exp as a polynomial),
// layer_norm (rsqrt), column sums (a reduction over the outer dim) and an
// elementwise chain.
maxgraph.graph @rows<n>(%x: !maxgraph.tensor<[67, n], f32>, %g: !maxgraph.tensor<[n], f32>, %b: !maxgraph.tensor<[n], f32>)
    -> (!maxgraph.tensor<[67, n], f32>, !maxgraph.tensor<[67, n], f32>, !maxgraph.tensor<[n], f32>, !maxgraph.tensor<[67, n], f32>) {
  %0 = maxgraph.softmax %x axis = -1 : !maxgraph.tensor<[67, n], f32>
  %1 = maxgraph.layer_norm %x, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[67, n], f32>, !maxgraph.tensor<[n], f32>, !maxgraph.tensor<[n], f32>
  %2 = maxgraph.reduce_sum %x axes = [0] : !maxgraph.tensor<[67, n], f32> -> !maxgraph.tensor<[n], f32>
  %3 = maxgraph.mul %x, %g : (!maxgraph.tensor<[67, n], f32>, !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[67, n], f32>
  %4 = maxgraph.tanh %3 : !maxgraph.tensor<[67, n], f32>
  %5 = maxgraph.add %4, %b : (!maxgraph.tensor<[67, n], f32>, !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[67, n], f32>
  maxgraph.output %0, %1, %2, %5 : !maxgraph.tensor<[67, n], f32>, !maxgraph.tensor<[67, n], f32>, !maxgraph.tensor<[n], f32>, !maxgraph.tensor<[67, n], f32>
}

// Softmax feeding layer_norm is one row group; log_softmax, rms_norm and a
// static softmax are groups of their own.
maxgraph.graph @row_groups<m, n>(%x: !maxgraph.tensor<[m, n], f32>, %g: !maxgraph.tensor<[n], f32>, %b: !maxgraph.tensor<[n], f32>, %s: !maxgraph.tensor<[300, 257], f32>)
    -> (!maxgraph.tensor<[m, n], f32>, !maxgraph.tensor<[m, n], f32>, !maxgraph.tensor<[m, n], f32>, !maxgraph.tensor<[m, n], f32>, !maxgraph.tensor<[300, 257], f32>) {
  %0 = maxgraph.softmax %x axis = -1 : !maxgraph.tensor<[m, n], f32>
  %1 = maxgraph.layer_norm %0, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[m, n], f32>, !maxgraph.tensor<[n], f32>, !maxgraph.tensor<[n], f32>
  %2 = maxgraph.log_softmax %x axis = -1 : !maxgraph.tensor<[m, n], f32>
  %3 = maxgraph.rms_norm %x, %g epsilon = 1.0e-05 : !maxgraph.tensor<[m, n], f32>, !maxgraph.tensor<[n], f32>
  %4 = maxgraph.softmax %s axis = 1 : !maxgraph.tensor<[300, 257], f32>
  maxgraph.output %0, %1, %2, %3, %4 : !maxgraph.tensor<[m, n], f32>, !maxgraph.tensor<[m, n], f32>, !maxgraph.tensor<[m, n], f32>, !maxgraph.tensor<[m, n], f32>, !maxgraph.tensor<[300, 257], f32>
}

maxgraph.graph @attention<b, s>(%q: !maxgraph.tensor<[b, 3, s, 40], f32>, %k: !maxgraph.tensor<[b, 3, s, 40], f32>, %v: !maxgraph.tensor<[b, 3, s, 40], f32>, %m: !maxgraph.tensor<[b, 1, 1, s], f32>, %x: !maxgraph.tensor<[1, 300, 200], f32>, %y: !maxgraph.tensor<[1, 200, 130], f32>)
    -> (!maxgraph.tensor<[b, 3, s, s], f32>, !maxgraph.tensor<[b, 3, s, s], f32>, !maxgraph.tensor<[b, 3, s, 40], f32>, !maxgraph.tensor<[1, 300, 130], f32>) {
  %kt = maxgraph.transpose %k perm = [0, 1, 3, 2] : !maxgraph.tensor<[b, 3, s, 40], f32> -> !maxgraph.tensor<[b, 3, 40, s], f32>
  %0 = maxgraph.matmul %q, %kt : (!maxgraph.tensor<[b, 3, s, 40], f32>, !maxgraph.tensor<[b, 3, 40, s], f32>) -> !maxgraph.tensor<[b, 3, s, s], f32>
  %c = maxgraph.constant dense<0.158113882> : !maxgraph.tensor<[], f32>
  %1 = maxgraph.mul %0, %c : (!maxgraph.tensor<[b, 3, s, s], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[b, 3, s, s], f32>
  %2 = maxgraph.add %1, %m : (!maxgraph.tensor<[b, 3, s, s], f32>, !maxgraph.tensor<[b, 1, 1, s], f32>) -> !maxgraph.tensor<[b, 3, s, s], f32>
  %3 = maxgraph.softmax %2 axis = -1 : !maxgraph.tensor<[b, 3, s, s], f32>
  %4 = maxgraph.matmul %3, %v : (!maxgraph.tensor<[b, 3, s, s], f32>, !maxgraph.tensor<[b, 3, s, 40], f32>) -> !maxgraph.tensor<[b, 3, s, 40], f32>
  %5 = maxgraph.matmul %x, %y : (!maxgraph.tensor<[1, 300, 200], f32>, !maxgraph.tensor<[1, 200, 130], f32>) -> !maxgraph.tensor<[1, 300, 130], f32>
  maxgraph.output %0, %3, %4, %5 : !maxgraph.tensor<[b, 3, s, s], f32>, !maxgraph.tensor<[b, 3, s, s], f32>, !maxgraph.tensor<[b, 3, s, 40], f32>, !maxgraph.tensor<[1, 300, 130], f32>
}

maxgraph.graph @norm_chains<m>(%x: !maxgraph.tensor<[m, 300], f32>, %w: !maxgraph.tensor<[300, 300], f32>, %g: !maxgraph.tensor<[300], f32>, %b: !maxgraph.tensor<[300], f32>) -> (!maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[m, 300], f32>) {
  %n0 = maxgraph.layer_norm %x, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[300], f32>, !maxgraph.tensor<[300], f32>
  %n1 = maxgraph.layer_norm %n0, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[300], f32>, !maxgraph.tensor<[300], f32>
  %n2 = maxgraph.layer_norm %n1, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[300], f32>, !maxgraph.tensor<[300], f32>
  %n3 = maxgraph.layer_norm %n2, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[300], f32>, !maxgraph.tensor<[300], f32>
  %n4 = maxgraph.layer_norm %n3, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[300], f32>, !maxgraph.tensor<[300], f32>
  %n5 = maxgraph.layer_norm %n4, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[300], f32>, !maxgraph.tensor<[300], f32>
  %m = maxgraph.matmul %n1, %w : (!maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[300, 300], f32>) -> !maxgraph.tensor<[m, 300], f32>
  %r = maxgraph.add %n1, %m : (!maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[m, 300], f32>) -> !maxgraph.tensor<[m, 300], f32>
  %h = maxgraph.layer_norm %r, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[300], f32>, !maxgraph.tensor<[300], f32>
  %a = maxgraph.gelu %h : !maxgraph.tensor<[m, 300], f32>
  %s = maxgraph.add %h, %a : (!maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[m, 300], f32>) -> !maxgraph.tensor<[m, 300], f32>
  %y = maxgraph.layer_norm %s, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[300], f32>, !maxgraph.tensor<[300], f32>
  maxgraph.output %n5, %n1, %y : !maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[m, 300], f32>
}
