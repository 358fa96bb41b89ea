// The GPU kernel strategies executed through OpenCL (PoCL on the CPU)
// against the interpreter: shared-memory tiled matmuls (tiles of 64 cut by
// the edges, K not a multiple of 16, a batch, integers), block reductions
// (softmax, layer_norm, a full sum, max and min over rows, rows shorter
// and longer than a block, no rows), argmax, which stays a thread per
// row, and elementwise groups of points.
// REQUIRES: opencl
// RUN: rm -rf %t && mkdir -p %t
// RUN: max-run %s --graph=matmuls --gpu-runtime=opencl --random-inputs --seed=1 --dims=batch=70 --output=%t/mm-g
// RUN: max-run %s --graph=matmuls --random-inputs --seed=1 --dims=batch=70 --output=%t/mm-i --interpret
// RUN: %python %S/Inputs/compare.py %t/mm-g %t/mm-i | FileCheck %s --check-prefix=MATMULS
// RUN: max-run %s --graph=matmuls --gpu-runtime=opencl --random-inputs --seed=2 --dims=batch=1 --output=%t/mm1-g
// RUN: max-run %s --graph=matmuls --random-inputs --seed=2 --dims=batch=1 --output=%t/mm1-i --interpret
// RUN: %python %S/Inputs/compare.py %t/mm1-g %t/mm1-i | FileCheck %s --check-prefix=MATMULS
// MATMULS: match 3
// RUN: max-run %s --graph=rows --gpu-runtime=opencl --random-inputs --seed=3 --dims=batch=70,n=777 --output=%t/rows-g
// RUN: max-run %s --graph=rows --random-inputs --seed=3 --dims=batch=70,n=777 --output=%t/rows-i --interpret
// RUN: %python %S/Inputs/compare.py %t/rows-g %t/rows-i | FileCheck %s --check-prefix=ROWS
// RUN: max-run %s --graph=rows --gpu-runtime=opencl --random-inputs --seed=4 --dims=batch=1,n=1 --output=%t/rows1-g
// RUN: max-run %s --graph=rows --random-inputs --seed=4 --dims=batch=1,n=1 --output=%t/rows1-i --interpret
// RUN: %python %S/Inputs/compare.py %t/rows1-g %t/rows1-i | FileCheck %s --check-prefix=ROWS
// RUN: max-run %s --graph=rows --gpu-runtime=opencl --random-inputs --seed=5 --dims=batch=2,n=5000 --output=%t/rows2-g
// RUN: max-run %s --graph=rows --random-inputs --seed=5 --dims=batch=2,n=5000 --output=%t/rows2-i --interpret
// RUN: %python %S/Inputs/compare.py %t/rows2-g %t/rows2-i | FileCheck %s --check-prefix=ROWS
// ROWS: match 6
// No rows: the reductions to [batch] launch nothing, the full sum is 0.
// RUN: max-run %s --graph=rows --gpu-runtime=opencl --random-inputs --seed=6 --dims=batch=0,n=3 --output=%t/rows0-g
// RUN: max-run %s --graph=rows --random-inputs --seed=6 --dims=batch=0,n=3 --output=%t/rows0-i --interpret
// RUN: %python %S/Inputs/compare.py %t/rows0-g %t/rows0-i | FileCheck %s --check-prefix=ROWS
// Groups of points with vector accesses, aligned (n = 8) and not (n = 6, 5:
// each group's points one by one), a slice whose offset is never aligned,
// and f64 results in groups of 2.
// RUN: max-run %s --graph=groups --gpu-runtime=opencl --random-inputs --seed=7 --dims=rows=3,n=8 --output=%t/g8-g
// RUN: max-run %s --graph=groups --random-inputs --seed=7 --dims=rows=3,n=8 --output=%t/g8-i --interpret
// RUN: %python %S/Inputs/compare.py %t/g8-g %t/g8-i | FileCheck %s --check-prefix=GROUPS
// RUN: max-run %s --graph=groups --gpu-runtime=opencl --random-inputs --seed=8 --dims=rows=3,n=6 --output=%t/g6-g
// RUN: max-run %s --graph=groups --random-inputs --seed=8 --dims=rows=3,n=6 --output=%t/g6-i --interpret
// RUN: %python %S/Inputs/compare.py %t/g6-g %t/g6-i | FileCheck %s --check-prefix=GROUPS
// RUN: max-run %s --graph=groups --gpu-runtime=opencl --random-inputs --seed=9 --dims=rows=5,n=5 --output=%t/g5-g
// RUN: max-run %s --graph=groups --random-inputs --seed=9 --dims=rows=5,n=5 --output=%t/g5-i --interpret
// RUN: %python %S/Inputs/compare.py %t/g5-g %t/g5-i | FileCheck %s --check-prefix=GROUPS
// GROUPS: match 3
// Row groups (one kernel a row for the ops of softmax, rms_norm and
// layer_norm, their reductions by shuffles): rows over two dims, symbolic
// rows shorter than a warp, longer than a block and of one element, static
// short rows (a group of lanes each, several rows to a block), and a
// softmax over a middle axis, whose elementwise ops read across rows and
// keep kernels of their own.
// RUN: max-run %s --graph=fused_rows --gpu-runtime=opencl --random-inputs --seed=10 --dims=a=3,b=5,n=700 --output=%t/f700-g
// RUN: max-run %s --graph=fused_rows --random-inputs --seed=10 --dims=a=3,b=5,n=700 --output=%t/f700-i --interpret
// RUN: %python %S/Inputs/compare.py %t/f700-g %t/f700-i | FileCheck %s --check-prefix=FUSED
// RUN: max-run %s --graph=fused_rows --gpu-runtime=opencl --random-inputs --seed=11 --dims=a=2,b=1,n=7 --output=%t/f7-g
// RUN: max-run %s --graph=fused_rows --random-inputs --seed=11 --dims=a=2,b=1,n=7 --output=%t/f7-i --interpret
// RUN: %python %S/Inputs/compare.py %t/f7-g %t/f7-i | FileCheck %s --check-prefix=FUSED
// RUN: max-run %s --graph=fused_rows --gpu-runtime=opencl --random-inputs --seed=12 --dims=a=1,b=3,n=1 --output=%t/f1-g
// RUN: max-run %s --graph=fused_rows --random-inputs --seed=12 --dims=a=1,b=3,n=1 --output=%t/f1-i --interpret
// RUN: %python %S/Inputs/compare.py %t/f1-g %t/f1-i | FileCheck %s --check-prefix=FUSED
// Many rows: 63 of the static short rows (12 points: 16 lanes each, 16
// to a block; 20: a warp each, 8 to a block; 3: 4 lanes each, 64 to a
// block), the last block partly past the last row.
// RUN: max-run %s --graph=fused_rows --gpu-runtime=opencl --random-inputs --seed=16 --dims=a=7,b=9,n=20 --output=%t/f20-g
// RUN: max-run %s --graph=fused_rows --random-inputs --seed=16 --dims=a=7,b=9,n=20 --output=%t/f20-i --interpret
// RUN: %python %S/Inputs/compare.py %t/f20-g %t/f20-i | FileCheck %s --check-prefix=FUSED
// FUSED: match 7
// Reductions of few long rows, split over many blocks and combined by a
// second launch: long rows and rows shorter than the splits.
// RUN: max-run %s --graph=split --gpu-runtime=opencl --random-inputs --seed=13 --dims=n=70001 --output=%t/s-g
// RUN: max-run %s --graph=split --random-inputs --seed=13 --dims=n=70001 --output=%t/s-i --interpret
// RUN: %python %S/Inputs/compare.py %t/s-g %t/s-i --rtol 1e-4 | FileCheck %s --check-prefix=SPLIT
// RUN: max-run %s --graph=split --gpu-runtime=opencl --random-inputs --seed=14 --dims=n=3 --output=%t/s3-g
// RUN: max-run %s --graph=split --random-inputs --seed=14 --dims=n=3 --output=%t/s3-i --interpret
// RUN: %python %S/Inputs/compare.py %t/s3-g %t/s3-i | FileCheck %s --check-prefix=SPLIT
// SPLIT: match 4
// Batched attention: its softmax one row group, its rows' sizes read
// through the matmuls' batch reshapes; rows longer and shorter than a warp.
// RUN: max-run %s --graph=attention --gpu-runtime=opencl --random-inputs --seed=17 --dims=b=2,s=37 --output=%t/a-g
// RUN: max-run %s --graph=attention --random-inputs --seed=17 --dims=b=2,s=37 --output=%t/a-i --interpret
// RUN: %python %S/Inputs/compare.py %t/a-g %t/a-i | FileCheck %s --check-prefix=ATTENTION
// RUN: max-run %s --graph=attention --gpu-runtime=opencl --random-inputs --seed=18 --dims=b=3,s=5 --output=%t/a5-g
// RUN: max-run %s --graph=attention --random-inputs --seed=18 --dims=b=3,s=5 --output=%t/a5-i --interpret
// RUN: %python %S/Inputs/compare.py %t/a5-g %t/a5-i | FileCheck %s --check-prefix=ATTENTION
// ATTENTION: match 1
// One value broadcast to a group of lanes (a vector of it, which
// llvm-spirv 15 crashed on as an OpCompositeConstruct), for 32- and 64-bit
// integers and floats:
// RUN: max-run %s --graph=broadcasts --gpu-runtime=opencl --random-inputs --seed=15 --output=%t/b-g
// RUN: max-run %s --graph=broadcasts --random-inputs --seed=15 --output=%t/b-i --interpret
// RUN: %python %S/Inputs/compare.py %t/b-g %t/b-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=BROADCASTS
// BROADCASTS: match 3

maxgraph.graph @matmuls<batch>(%x: !maxgraph.tensor<[batch, 70], f32, gpu:0>,
    %w: !maxgraph.tensor<[70, 130], f32, gpu:0>,
    %a: !maxgraph.tensor<[3, batch, 20], f32, gpu:0>,
    %b: !maxgraph.tensor<[3, 20, 66], f32, gpu:0>,
    %i: !maxgraph.tensor<[batch, 17], si32, gpu:0>,
    %j: !maxgraph.tensor<[17, 65], si32, gpu:0>)
    -> (!maxgraph.tensor<[batch, 130], f32, gpu:0>, !maxgraph.tensor<[3, batch, 66], f32, gpu:0>,
        !maxgraph.tensor<[batch, 65], si32, gpu:0>) {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[batch, 70], f32, gpu:0>, !maxgraph.tensor<[70, 130], f32, gpu:0>) -> !maxgraph.tensor<[batch, 130], f32, gpu:0>
  %1 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[3, batch, 20], f32, gpu:0>, !maxgraph.tensor<[3, 20, 66], f32, gpu:0>) -> !maxgraph.tensor<[3, batch, 66], f32, gpu:0>
  %2 = maxgraph.matmul %i, %j : (!maxgraph.tensor<[batch, 17], si32, gpu:0>, !maxgraph.tensor<[17, 65], si32, gpu:0>) -> !maxgraph.tensor<[batch, 65], si32, gpu:0>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[batch, 130], f32, gpu:0>, !maxgraph.tensor<[3, batch, 66], f32, gpu:0>, !maxgraph.tensor<[batch, 65], si32, gpu:0>
}

maxgraph.graph @rows<batch, n>(%x: !maxgraph.tensor<[batch, 300], f32, gpu:0>,
    %g: !maxgraph.tensor<[300], f32, gpu:0>,
    %y: !maxgraph.tensor<[batch, n], f32, gpu:0>,
    %k: !maxgraph.tensor<[batch, 1000], si32, gpu:0>)
    -> (!maxgraph.tensor<[batch, 300], f32, gpu:0>, !maxgraph.tensor<[batch, 300], f32, gpu:0>,
        !maxgraph.tensor<[], f32, gpu:0>, !maxgraph.tensor<[batch], f32, gpu:0>,
        !maxgraph.tensor<[batch], si32, gpu:0>, !maxgraph.tensor<[batch], si64, gpu:0>) {
  %0 = maxgraph.softmax %x axis = -1 : !maxgraph.tensor<[batch, 300], f32, gpu:0>
  %1 = maxgraph.layer_norm %x, %g, %g epsilon = 1.0e-05 : !maxgraph.tensor<[batch, 300], f32, gpu:0>, !maxgraph.tensor<[300], f32, gpu:0>, !maxgraph.tensor<[300], f32, gpu:0>
  %2 = maxgraph.reduce_sum %y axes = [0, 1] : !maxgraph.tensor<[batch, n], f32, gpu:0> -> !maxgraph.tensor<[], f32, gpu:0>
  %3 = maxgraph.reduce_max %y axes = [1] : !maxgraph.tensor<[batch, n], f32, gpu:0> -> !maxgraph.tensor<[batch], f32, gpu:0>
  %4 = maxgraph.reduce_min %k axes = [1] : !maxgraph.tensor<[batch, 1000], si32, gpu:0> -> !maxgraph.tensor<[batch], si32, gpu:0>
  %5 = maxgraph.argmax %x axis = 1 : !maxgraph.tensor<[batch, 300], f32, gpu:0> -> !maxgraph.tensor<[batch], si64, gpu:0>
  maxgraph.output %0, %1, %2, %3, %4, %5 : !maxgraph.tensor<[batch, 300], f32, gpu:0>, !maxgraph.tensor<[batch, 300], f32, gpu:0>, !maxgraph.tensor<[], f32, gpu:0>, !maxgraph.tensor<[batch], f32, gpu:0>, !maxgraph.tensor<[batch], si32, gpu:0>, !maxgraph.tensor<[batch], si64, gpu:0>
}

maxgraph.graph @groups<rows, n>(%x: !maxgraph.tensor<[rows, n], f32, gpu:0>,
    %r: !maxgraph.tensor<[rows, 1], f32, gpu:0>,
    %c: !maxgraph.tensor<[n], f32, gpu:0>,
    %t: !maxgraph.tensor<[n, rows], f32, gpu:0>,
    %w: !maxgraph.tensor<[rows, 12], f32, gpu:0>)
    -> (!maxgraph.tensor<[rows, n], f32, gpu:0>, !maxgraph.tensor<[rows, n], f64, gpu:0>,
        !maxgraph.tensor<[rows, 8], f32, gpu:0>) {
  %0 = maxgraph.add %x, %r : (!maxgraph.tensor<[rows, n], f32, gpu:0>, !maxgraph.tensor<[rows, 1], f32, gpu:0>) -> !maxgraph.tensor<[rows, n], f32, gpu:0>
  %1 = maxgraph.mul %0, %c : (!maxgraph.tensor<[rows, n], f32, gpu:0>, !maxgraph.tensor<[n], f32, gpu:0>) -> !maxgraph.tensor<[rows, n], f32, gpu:0>
  %2 = maxgraph.transpose %t perm = [1, 0] : !maxgraph.tensor<[n, rows], f32, gpu:0> -> !maxgraph.tensor<[rows, n], f32, gpu:0>
  %3 = maxgraph.add %1, %2 : (!maxgraph.tensor<[rows, n], f32, gpu:0>, !maxgraph.tensor<[rows, n], f32, gpu:0>) -> !maxgraph.tensor<[rows, n], f32, gpu:0>
  %4 = maxgraph.cast %3 : !maxgraph.tensor<[rows, n], f32, gpu:0> to !maxgraph.tensor<[rows, n], f64, gpu:0>
  %5 = maxgraph.slice %w [:, 3:11] : !maxgraph.tensor<[rows, 12], f32, gpu:0> -> !maxgraph.tensor<[rows, 8], f32, gpu:0>
  %6 = maxgraph.exp %5 : !maxgraph.tensor<[rows, 8], f32, gpu:0>
  maxgraph.output %3, %4, %6 : !maxgraph.tensor<[rows, n], f32, gpu:0>, !maxgraph.tensor<[rows, n], f64, gpu:0>, !maxgraph.tensor<[rows, 8], f32, gpu:0>
}

maxgraph.graph @fused_rows<a, b, n>(%x: !maxgraph.tensor<[a, b, n], f32, gpu:0>,
    %w: !maxgraph.tensor<[n], f32, gpu:0>,
    %y: !maxgraph.tensor<[a, b, 40], f32, gpu:0>,
    %z: !maxgraph.tensor<[a, b, 12], f32, gpu:0>,
    %u: !maxgraph.tensor<[a, b, 20], f32, gpu:0>, %wu: !maxgraph.tensor<[20], f32, gpu:0>,
    %t: !maxgraph.tensor<[a, b, 3], f32, gpu:0>)
    -> (!maxgraph.tensor<[a, b, n], f32, gpu:0>, !maxgraph.tensor<[a, b, n], f32, gpu:0>,
        !maxgraph.tensor<[a, b, n], f32, gpu:0>, !maxgraph.tensor<[a, b, 40], f32, gpu:0>,
        !maxgraph.tensor<[a, b, 12], f32, gpu:0>, !maxgraph.tensor<[a, b, 20], f32, gpu:0>,
        !maxgraph.tensor<[a, b], f32, gpu:0>) {
  %0 = maxgraph.rms_norm %x, %w epsilon = 1.0e-06 : !maxgraph.tensor<[a, b, n], f32, gpu:0>, !maxgraph.tensor<[n], f32, gpu:0>
  %1 = maxgraph.softmax %x axis = -1 : !maxgraph.tensor<[a, b, n], f32, gpu:0>
  %2 = maxgraph.layer_norm %x, %w, %w epsilon = 1.0e-05 : !maxgraph.tensor<[a, b, n], f32, gpu:0>, !maxgraph.tensor<[n], f32, gpu:0>, !maxgraph.tensor<[n], f32, gpu:0>
  %3 = maxgraph.softmax %y axis = 1 : !maxgraph.tensor<[a, b, 40], f32, gpu:0>
  %4 = maxgraph.softmax %z axis = -1 : !maxgraph.tensor<[a, b, 12], f32, gpu:0>
  %5 = maxgraph.layer_norm %u, %wu, %wu epsilon = 1.0e-05 : !maxgraph.tensor<[a, b, 20], f32, gpu:0>, !maxgraph.tensor<[20], f32, gpu:0>, !maxgraph.tensor<[20], f32, gpu:0>
  %6 = maxgraph.reduce_sum %t axes = [2] : !maxgraph.tensor<[a, b, 3], f32, gpu:0> -> !maxgraph.tensor<[a, b], f32, gpu:0>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6 : !maxgraph.tensor<[a, b, n], f32, gpu:0>, !maxgraph.tensor<[a, b, n], f32, gpu:0>, !maxgraph.tensor<[a, b, n], f32, gpu:0>, !maxgraph.tensor<[a, b, 40], f32, gpu:0>, !maxgraph.tensor<[a, b, 12], f32, gpu:0>, !maxgraph.tensor<[a, b, 20], f32, gpu:0>, !maxgraph.tensor<[a, b], f32, gpu:0>
}

maxgraph.graph @split<n>(%x: !maxgraph.tensor<[2, n], f32, gpu:0>,
    %k: !maxgraph.tensor<[3, n], si32, gpu:0>)
    -> (!maxgraph.tensor<[2], f32, gpu:0>, !maxgraph.tensor<[2], f32, gpu:0>,
        !maxgraph.tensor<[], f32, gpu:0>, !maxgraph.tensor<[3], si32, gpu:0>) {
  %0 = maxgraph.reduce_sum %x axes = [1] : !maxgraph.tensor<[2, n], f32, gpu:0> -> !maxgraph.tensor<[2], f32, gpu:0>
  %1 = maxgraph.reduce_max %x axes = [1] : !maxgraph.tensor<[2, n], f32, gpu:0> -> !maxgraph.tensor<[2], f32, gpu:0>
  %2 = maxgraph.reduce_sum %x axes = [0, 1] : !maxgraph.tensor<[2, n], f32, gpu:0> -> !maxgraph.tensor<[], f32, gpu:0>
  %3 = maxgraph.reduce_min %k axes = [1] : !maxgraph.tensor<[3, n], si32, gpu:0> -> !maxgraph.tensor<[3], si32, gpu:0>
  maxgraph.output %0, %1, %2, %3 : !maxgraph.tensor<[2], f32, gpu:0>, !maxgraph.tensor<[2], f32, gpu:0>, !maxgraph.tensor<[], f32, gpu:0>, !maxgraph.tensor<[3], si32, gpu:0>
}

maxgraph.graph @broadcasts(%a: !maxgraph.tensor<[2, 3, 1], si64, gpu:0>,
    %b: !maxgraph.tensor<[2, 1], f64, gpu:0>, %c: !maxgraph.tensor<[5, 1], si32, gpu:0>)
    -> (!maxgraph.tensor<[2, 3, 2], si64, gpu:0>, !maxgraph.tensor<[2, 6], f64, gpu:0>,
        !maxgraph.tensor<[5, 8], si32, gpu:0>) {
  %0 = maxgraph.broadcast_to %a : !maxgraph.tensor<[2, 3, 1], si64, gpu:0> -> !maxgraph.tensor<[2, 3, 2], si64, gpu:0>
  %1 = maxgraph.broadcast_to %b : !maxgraph.tensor<[2, 1], f64, gpu:0> -> !maxgraph.tensor<[2, 6], f64, gpu:0>
  %2 = maxgraph.broadcast_to %c : !maxgraph.tensor<[5, 1], si32, gpu:0> -> !maxgraph.tensor<[5, 8], si32, gpu:0>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[2, 3, 2], si64, gpu:0>, !maxgraph.tensor<[2, 6], f64, gpu:0>, !maxgraph.tensor<[5, 8], si32, gpu:0>
}

maxgraph.graph @attention<b, s>(%q: !maxgraph.tensor<[b, 2, s, 16], f32, gpu:0>, %k: !maxgraph.tensor<[b, 2, s, 16], f32, gpu:0>, %v: !maxgraph.tensor<[b, 2, s, 16], f32, gpu:0>) -> !maxgraph.tensor<[b, 2, s, 16], f32, gpu:0> {
  %kt = maxgraph.transpose %k perm = [0, 1, 3, 2] : !maxgraph.tensor<[b, 2, s, 16], f32, gpu:0> -> !maxgraph.tensor<[b, 2, 16, s], f32, gpu:0>
  %s0 = maxgraph.matmul %q, %kt : (!maxgraph.tensor<[b, 2, s, 16], f32, gpu:0>, !maxgraph.tensor<[b, 2, 16, s], f32, gpu:0>) -> !maxgraph.tensor<[b, 2, s, s], f32, gpu:0>
  %p = maxgraph.softmax %s0 axis = -1 : !maxgraph.tensor<[b, 2, s, s], f32, gpu:0>
  %o = maxgraph.matmul %p, %v : (!maxgraph.tensor<[b, 2, s, s], f32, gpu:0>, !maxgraph.tensor<[b, 2, s, 16], f32, gpu:0>) -> !maxgraph.tensor<[b, 2, s, 16], f32, gpu:0>
  maxgraph.output %o : !maxgraph.tensor<[b, 2, s, 16], f32, gpu:0>
}
