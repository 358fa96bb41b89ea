//===- Passes.td - passes of the CPU strategy --------------*- tablegen -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_CODEGEN_LLVMCPU_PASSES_TD
#define MAXGRAPH_CODEGEN_LLVMCPU_PASSES_TD

include "mlir/Pass/PassBase.td"

// The target a pass compiles for; 0 takes the field from the host.
defvar CPUTargetOptions = [
  Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"0",
         "Width of a vector register in bits (0: the host's)">,
  Option<"vectorRegisters", "vector-registers", "unsigned", /*default=*/"0",
         "Number of vector registers (0: the host's)">,
  Option<"l1CacheBytes", "l1-cache-bytes", "uint64_t", /*default=*/"0",
         "Size of a core's L1 data cache in bytes (0: the host's)">,
  Option<"l2CacheBytes", "l2-cache-bytes", "uint64_t", /*default=*/"0",
         "Size of a core's L2 cache in bytes (0: the host's)">,
  Option<"cores", "cores", "unsigned", /*default=*/"0",
         "Number of cores to spread large ops over (0: the host's)">
];

def TileAndVectorize
    : Pass<"maxgraph-tile-and-vectorize", "mlir::func::FuncOp"> {
  let summary = "Tiles linalg ops on tensors for threads, caches and "
                "registers and vectorizes the static tiles";
  let description = [{
    Runs on linalg on tensors, before bufferization, in
    `maxgraph-lower-to-cpu`. The tile sizes follow the target CPU (the
    host's, or the one the options pin; see `chooseCPUTileSizes` in
    `MaxGraph/Codegen/LLVMCPU/TileSizes.h`); the sizes below are those of
    an AVX-512 host. Matmuls are tiled into 192x512 blocks per thread (an
    outer `scf.forall`, later an OpenMP loop), K panels of 256 and 12x32
    register tiles (fewer rows that divide M where 12 would leave a
    sixteenth of M or more: 8x32 for 128 rows); each register tile becomes
    a `vector.contract` per K step with the accumulator held in registers.
    A thread takes its blocks a column of blocks at a time when they are
    wider than tall (a row at a time otherwise), so that consecutive blocks
    share their strip of B (of A) in cache. B is packed per K panel
    into contiguous 32-column panels when that pays (from W directly, in
    16x16 squares transposed by shuffles, for `x @ transpose(W)`); a C
    that starts as zeros is not filled first, each register tile zeroes
    itself in the first K panel. A `linalg.batch_matmul` is a loop over its
    matmuls, an `scf.forall` giving each thread whole matmuls when there
    are enough (attention's heads). Row groups come first:
    an elementwise op that consumes reductions over the innermost dim (as
    softmax, log_softmax, layer_norm and rms_norm decompose to) is tiled to
    one row per iteration (an `scf.forall` when large) with the
    reductions and the ops between fused into the row (operands a row
    shares with others, as attention's mask, included), so that each row is
    read from memory once and stays in L1 between its passes. Other linalg
    ops, and the ops of a row, are tiled to rows of up to 64 lanes; row
    reductions add lane by lane and reduce once per row. Large ops, and ops with a dynamic dim, get the outer
    `scf.forall`. Partial tiles are peeled, so odd and dynamic sizes work;
    tiles of static shape are vectorized, the rest stay scalar. Ops with
    `i1` operands stay scalar: LLVM packs `vector<Nxi1>` into bits while an
    `i1` memref uses a byte per element. Every `scf.for` of the function
    carries `loop_annotation = #llvm.loop_annotation<unroll =
    #llvm.loop_unroll<disable = true>>` (scf-to-cf moves it to the loop's
    latch): an iteration is already a tile's vector work, which LLVM's
    unroller would copy into more code that runs no faster.

    With 256-bit vectors and 16 registers (AVX2) the register tile is 4x16
    and rows are 32 lanes:
    `--maxgraph-tile-and-vectorize="vector-bits=256 vector-registers=16"`.
    `maxgraph-lower-to-cpu` takes the same options and passes them on.
  }];
  let options = CPUTargetOptions;
  let dependentDialects = [
    "mlir::affine::AffineDialect", "mlir::arith::ArithDialect",
    "mlir::LLVM::LLVMDialect", "mlir::math::MathDialect",
    "mlir::scf::SCFDialect", "mlir::tensor::TensorDialect",
    "mlir::vector::VectorDialect"
  ];
}

def PackWeights : Pass<"maxgraph-pack-weights", "mlir::ModuleOp"> {
  let summary = "Gives weights that matmuls read as B the layout of B's "
                "packed panels, for the runtime to pack once";
  let description = [{
    Runs on linalg on tensors, right before `maxgraph-tile-and-vectorize`,
    in `maxgraph-lower-to-cpu`. A weight argument (`maxgraph.weight`) of
    static shape that is read only as B by matmuls whose B fits the
    tiling's panels (see `rhsFitsPanels`; whatever M is: a matmul of a few
    rows then streams whole panels instead of reading B's rows at their
    stride), either directly (B, [K, N]) or through a
    `linalg.transpose` [1, 0] (W of `x @ W^T`, [N, K]: torch.nn.Linear's
    weight), or that is passed to such arguments of called bodies, becomes
    `tensor<N/Nr x K x Nr>`: the panels of Nr columns that packing makes,
    each contiguous. The function unpacks it for the matmuls
    (`collapse_shape(linalg.transpose(P, [1, 0, 2]))`), and the tiling
    slices the panels instead of packing B again; nothing is copied per
    call. Arguments that calls join (a shared layer's weight and the
    weights passed to it) are packed together or not at all.

    The entry's packed arguments are listed in the global
    `@"<entry>.packed_weights"` (`[1, count, (argument, Nr, transposed) x
    count]`), which the runtime reads from the object code to pack bound
    weights once (`Executable::prepareBoundArgument`).
  }];
  let options = CPUTargetOptions;
  let dependentDialects = [
    "mlir::LLVM::LLVMDialect", "mlir::linalg::LinalgDialect",
    "mlir::tensor::TensorDialect"
  ];
}

def FoldUnitDims : Pass<"maxgraph-fold-unit-dims", "mlir::func::FuncOp"> {
  let summary = "Drops the unit dims of the function's top-level linalg ops";
  let description = [{
    Runs on linalg on tensors, before `maxgraph-tile-and-vectorize`, in
    `maxgraph-lower-to-cpu`. Reductions with `keep_dims` reach linalg as
    ops over a unit dim between `tensor.expand_shape`s; dropping the unit
    dims of the linalg.generics (linalg's `dropUnitDims`, which leaves
    reshapes that the canonicalizer folds) makes a
    reduction and the elementwise ops that consume it meet directly, which
    the row groups of `maxgraph-tile-and-vectorize` need. Ops inside loops
    (the serial steps of cumsum) keep their dims: reshaping them would make
    the values a loop carries differ from what it yields.
  }];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect"
  ];
}

def ExpandStridedCopies
    : Pass<"maxgraph-expand-strided-copies", "mlir::func::FuncOp"> {
  let summary = "Copies between strided memrefs as compiled loops";
  let description = [{
    Runs after bufferization in `maxgraph-lower-to-cpu`. A `memref.copy`
    whose source or target has a layout other than the identity becomes a
    loop nest: the LLVM lowering of `memref.copy` would call the runtime's
    generic strided copy, which walks any rank element by element. Where the
    trailing dims are static and contiguous in both memrefs and hold more
    than 64 elements of whole bytes, the nest runs over the leading dims and
    copies each such block with a `memref.copy` of contiguous views (a
    `memcpy`); where only the innermost dims are, of 2 to 64 elements of a
    32- or 64-bit float or an integer, it moves each row with one vector
    read and write; otherwise the copy becomes a `linalg.copy`, which
    `convert-linalg-to-loops` lowers element by element. Copies between
    identity layouts stay `memref.copy` (a `memcpy`).
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::vector::VectorDialect"];
}

def CopyCallSlicesOnce
    : Pass<"maxgraph-copy-call-slices-once", "mlir::func::FuncOp"> {
  let summary = "Copies a slice that several calls take once, where it is "
                "made";
  let description = [{
    Runs before one-shot bufferization in `maxgraph-lower-to-cpu`. A
    function takes its tensors as buffers of the identity layout, so
    bufferization copies a `tensor.extract_slice` (a strided view once
    bufferized) into a new buffer at each call that takes it: SmolLM2
    copied its RoPE tables' rows twice before each of its 30 layer calls.
    A slice that two calls or more take (directly or cast to a body's
    dynamic dims) is copied once, after the slice, by a
    `bufferization.alloc_tensor` with `copy`, which every use of the slice
    takes instead.

    ```mlir
    %s = tensor.extract_slice %table[%pos, 0] [%n, 32] [1, 1]
        : tensor<2048x32xf32> to tensor<?x32xf32>
    %a = call @layer(%x, %s) : (tensor<?x64xf32>, tensor<?x32xf32>) -> tensor<?x64xf32>
    %b = call @layer(%a, %s) : (tensor<?x64xf32>, tensor<?x32xf32>) -> tensor<?x64xf32>
    ```
    becomes
    ```mlir
    %s = tensor.extract_slice %table[%pos, 0] [%n, 32] [1, 1]
        : tensor<2048x32xf32> to tensor<?x32xf32>
    %c = bufferization.alloc_tensor() copy(%s) : tensor<?x32xf32>
    %a = call @layer(%x, %c) : (tensor<?x64xf32>, tensor<?x32xf32>) -> tensor<?x64xf32>
    %b = call @layer(%a, %c) : (tensor<?x64xf32>, tensor<?x32xf32>) -> tensor<?x64xf32>
    ```
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect"];
}

def SplitCallResultDeallocs
    : Pass<"maxgraph-split-call-result-deallocs", "mlir::ModuleOp"> {
  let summary = "Frees call results in bufferization.dealloc ops of their own "
                "where nothing the dealloc retains may alias them";
  let description = [{
    Runs in `maxgraph-lower-to-cpu` after `buffer-deallocation-simplification`
    and before `bufferization-lower-deallocations`. A `bufferization.dealloc`
    frees a buffer only where no retained value aliases it; where upstream's
    analysis cannot tell, its lowering compares every listed buffer's
    pointer with every retained one's at run time (a `dealloc_helper`
    function and a branch per buffer). It cannot tell for results of
    calls, though after ownership-based deallocation a function with a body
    returns buffers it made (a result that would alias an argument is
    returned as a clone): two calls' results are two buffers, and neither
    is an argument nor an allocation of the caller.

    Where every value a dealloc lists or retains views (through view-like
    ops) a `memref.alloc`, `memref.alloca`, a function argument or such a
    call result, each call result that no other of them views moves to a
    `bufferization.dealloc` of its own with no retained values, which
    lowers to a plain `memref.dealloc` under its condition.

    ```mlir
    %a = call @layer(%x) : (memref<8xf32>) -> memref<8xf32>
    %b = call @layer(%a) : (memref<8xf32>) -> memref<8xf32>
    %r = bufferization.dealloc (%a : memref<8xf32>) if (%true) retain (%b : memref<8xf32>)
    ```
    becomes
    ```mlir
    bufferization.dealloc (%a : memref<8xf32>) if (%true)
    %r = bufferization.dealloc retain (%b : memref<8xf32>)
    ```
    A 32-layer entry that calls a shared layer body freed its 31 layer
    outputs through the helper.
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect"];
}

def FreeBuffersEarly
    : Pass<"maxgraph-free-buffers-early", "mlir::func::FuncOp"> {
  let summary = "Moves each memref.dealloc to just after the last use of its "
                "buffer";
  let description = [{
    Runs in `maxgraph-lower-to-cpu` after `convert-bufferization-to-memref`.
    Ownership-based deallocation frees a block's buffers at the block's
    end: every temporary of a layer, and every layer's output in an entry
    that calls a shared layer body, lived until the function returned. A
    `memref.dealloc` moves up in its block to just after the last op that
    uses its buffer or a value that may view it: results of view-like ops
    and of any op with memref results that uses one (loops, branches),
    except calls to functions with a body, which return buffers of their
    own; and, from an `extract_aligned_pointer_as_index` of one, every
    value computed from the address. A use outside the dealloc's block
    leaves it where it is. The allocator then hands a freed block, still in
    the caches, to the next buffer of its size, and a model's peak memory
    is its largest layer's, not the sum of its layers'.

    ```mlir
    %t = memref.alloc() : memref<64xf32>
    linalg.fill ins(%c : f32) outs(%t : memref<64xf32>)
    linalg.copy ins(%t : memref<64xf32>) outs(%out : memref<64xf32>)
    %u = memref.alloc() : memref<64xf32>
    ...
    memref.dealloc %t : memref<64xf32>
    memref.dealloc %u : memref<64xf32>
    ```
    frees `%t` right after the `linalg.copy`, before `%u` is allocated.
  }];
}

def HoistLoopAllocations
    : Pass<"maxgraph-hoist-loop-allocations", "mlir::func::FuncOp"> {
  let summary = "Allocates the buffers that each iteration of a loop frees "
                "once per loop (per thread of an OpenMP loop)";
  let description = [{
    Runs after `convert-scf-to-openmp` in `maxgraph-lower-to-cpu`. A
    `memref.alloc` in the body of an `scf.for`, or of the `omp.loop_nest`
    of an `omp.wsloop` directly in an `omp.parallel`, whose
    `memref.dealloc` is in the same block after it and whose sizes are
    defined outside the loop, moves in front of the loop (the `omp.wsloop`:
    into each thread's part of the `omp.parallel` region) and its dealloc
    after it, and on out of the loops around while that holds. The
    temporaries of a row group (a softmax row has six) then cost one
    allocation per thread instead of one per row: each was freed in its
    iteration, and a fresh buffer's contents are undefined, so one buffer
    serves every iteration of a thread.

    ```mlir
    omp.parallel {
      omp.wsloop {
        omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
          %row = memref.alloc(%s) : memref<?xf32>
          ...
          memref.dealloc %row : memref<?xf32>
          omp.yield
        }
      }
      omp.terminator
    }
    ```
    becomes
    ```mlir
    omp.parallel {
      %row = memref.alloc(%s) : memref<?xf32>
      omp.wsloop {
        omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
          ...
          omp.yield
        }
      }
      memref.dealloc %row : memref<?xf32>
      omp.terminator
    }
    ```
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def ForkOnlyForSeveralIterations
    : Pass<"maxgraph-fork-only-for-several-iterations", "mlir::func::FuncOp"> {
  let summary = "Runs a parallel loop of one iteration on the calling "
                "thread, without forking";
  let description = [{
    Runs after `scf` loops become OpenMP in `maxgraph-lower-to-cpu`. An
    `omp.parallel` whose region is one `omp.wsloop` with a trip count known
    only at run time (an op of symbolic size, cut into as many chunks as its
    run-time work pays for, which may be one) gets `if(trip count > 1)`:
    OpenMP runs a region whose `if` is false on the calling thread alone,
    without waking the other threads and waiting for them. Loops with a
    static trip count, and parallel regions that already have an `if` or a
    `num_threads`, are left as they are.

    ```mlir
    omp.parallel {
      omp.wsloop {
        omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) { ... }
      }
      omp.terminator
    }
    ```
    becomes
    ```mlir
    %trips = ... ceil((%n - %c0) / %c1), at least 0
    %several = arith.cmpi sgt, %trips, %c1 : index
    omp.parallel if(%several) { ... }
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def PartitionLoopsStatically
    : Pass<"maxgraph-partition-loops-statically", "mlir::ModuleOp"> {
  let summary = "Gives each thread its share of an OpenMP loop without "
                "libomp's loop scheduling call";
  let description = [{
    Runs after `maxgraph-fork-only-for-several-iterations` in
    `maxgraph-lower-to-cpu`. An `omp.wsloop` directly in an `omp.parallel`
    region, with no clause but `nowait` (the static schedule without a
    chunk), around an `omp.loop_nest` of exclusive bounds, becomes the
    calling thread's share of the iterations: the nest's trip counts
    multiplied into one index space and divided as that schedule divides
    it (`trips / threads` iterations each, one more for the first
    `trips % threads` threads, contiguous, in thread order), from
    `omp_get_thread_num()` and `omp_get_num_threads()`, walked by an
    `scf.for` that recovers each dim's induction variable (the innermost
    fastest); a loop without `nowait` is followed by an `omp.barrier`.
    libomp's `__kmpc_for_static_init`, which the translation would call
    per thread and per loop, formats a trace message with `vsnprintf` in
    the libomp that LLVM's packages ship, traced or not.

    ```mlir
    omp.parallel {
      omp.wsloop nowait {
        omp.loop_nest (%i) : index = (%lb) to (%ub) step (%s) { ... }
      }
      omp.terminator
    }
    ```
    becomes
    ```mlir
    omp.parallel {
      %t = func.call @omp_get_thread_num() : () -> i32
      %n = func.call @omp_get_num_threads() : () -> i32
      ... %begin, %end: thread %t's share of ceil((%ub - %lb) / %s)
      scf.for %k = %begin to %end step %c1 {
        %i = %lb + %k * %s
        ...
      }
      omp.terminator
    }
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
                           "mlir::scf::SCFDialect"];
}

def OmitLoopBarriers
    : Pass<"maxgraph-omit-loop-barriers", "mlir::func::FuncOp"> {
  let summary = "Drops the barrier of an OpenMP loop that ends its parallel "
                "region";
  let description = [{
    Runs after `maxgraph-hoist-loop-allocations` in `maxgraph-lower-to-cpu`.
    An `omp.wsloop` directly in an `omp.parallel` region, without
    reductions, that is followed there only by `memref.dealloc`s of
    buffers allocated in that region (each thread's own, hoisted out of the
    loop) and the terminator, gets `nowait`: the threads meet at the end of
    the parallel region anyway, so the loop's own barrier is a second
    synchronization of every thread per parallel loop, with nothing between
    the two that another thread could see.

    ```mlir
    omp.parallel {
      %row = memref.alloc(%s) : memref<?xf32>
      omp.wsloop {
        omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) { ... }
      }
      memref.dealloc %row : memref<?xf32>
      omp.terminator
    }
    ```
    becomes the same with `omp.wsloop nowait`.
  }];
  let dependentDialects = ["mlir::omp::OpenMPDialect"];
}

def ProfileLoopNests : Pass<"maxgraph-profile-loop-nests", "mlir::ModuleOp"> {
  let summary = "Times each loop nest at the top of a function, for the "
                "runtime's profile";
  let description = [{
    Runs after bufferization in `maxgraph-lower-to-cpu` when its `profile`
    option is set (`MAXGRAPH_PROFILE=1` at compile time). Each loop nest
    directly in a function's body (`scf.for`, `scf.forall`, `scf.parallel`,
    `scf.while`, a linalg op or `memref.copy`: the code of one op of the
    graph, or of several fused) gets a call of the runtime's clock
    (`maxgraphProfileClock`, nanoseconds) before and after it, and adds the
    difference and 1 atomically to its pair of counters. The module gets
    two public globals named after its entry (the first function with
    `llvm.emit_c_interface`): `<entry>.profile_counters`, `memref<2N x i64>`
    (nanoseconds and calls of each nest), and `<entry>.profile_labels`, the
    nests' labels, one line each, NUL-terminated: the location of the op
    that made the nest (its innermost `file:line:col`, the file's base name;
    a name location's name; else `<function> #<n>`), then ` in @` and the
    function's name. A subgraph's nests count under their own labels at each call; the
    calls themselves are not timed. Without an entry the pass does nothing.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
}

def PrefetchMatmulRows
    : Pass<"maxgraph-prefetch-matmul-rows", "mlir::func::FuncOp"> {
  let summary = "Prefetches the rows of B that a matmul's register tile "
                "reads some steps ahead";
  let description = [{
    Runs after bufferization in `maxgraph-lower-to-cpu`. In the K loop of a
    vectorized register tile (an `scf.for` of step 1 holding a
    `vector.contract` whose rhs is a `vector.transfer_read` of
    `memref.subview %B[%k, 0] [1, n]`, %k its induction variable), each
    step prefetches row `%k + rows-ahead` of %B, one `memref.prefetch` per
    cache line of the columns the tile reads, indexed in the memref that %B
    views through unit-stride subviews. A tile of a few rows of A (a few
    tokens through a layer's weights) waits on B's loads from memory: the
    hardware's prefetchers start over at each 4 KB page of a stream, and
    the tiles read a K panel of B at a time. A B of static size under 256
    KB is not prefetched (it is in cache after its first rows).

    Past the rows the loop reads (its last `rows-ahead` steps), the row
    prefetched is, where %B is a window of one panel among several (a K
    panel of B's packed panels, `memref.subview %packed[%j, %k0, 0] [1,
    128, 32]`) that the loop reads to its end, in a contiguous memref, the
    same row of the next panel's window (`%j + 1`, the last panel at most;
    the memref's panels and rows are then indexed as one dim): the register
    tile after this one reads it, and starts with its first rows already on
    their way. Elsewhere it is the row read. The index is `%k` plus one of
    two loop-invariant distances, so that LLVM makes it a compare, a select
    and the prefetches off the row's address: an AVX2 tile of 12
    multiply-adds a step has no issue slots for bounds computed at each
    step.

    ```mlir
    scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %zero) {
      %row = memref.subview %B[%k, 0] [1, 32] [1, 1]
      %b = vector.transfer_read %row[%c0, %c0], %pad
      %c = vector.contract ... %a, %b, %acc
    ```
    gets, before the read (16 rows ahead, f32, %B a [128, 32] memref):
    ```mlir
      %past = arith.cmpi uge, (%k + 16), %c128
      %distance = arith.select %past, %c0, %c16
      %next = arith.addi %k, %distance
      memref.prefetch %B[%next, %c0], read, locality<3>, data
      memref.prefetch %B[%next, %c16], read, locality<3>, data
    ```
  }];
  let options = [
    Option<"rowsAhead", "rows-ahead", "int64_t", /*default=*/"16",
           "How many rows of B ahead of the one read to prefetch (0: none)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def StreamResultStores
    : Pass<"maxgraph-stream-result-stores", "mlir::func::FuncOp"> {
  let summary = "Writes large results that an entry only writes with "
                "non-temporal (streaming) vector stores";
  let description = [{
    Runs after bufferization in `maxgraph-lower-to-cpu`, where the host is
    x86-64. A result of an entry (a function with `llvm.emit_c_interface`)
    is a `memref.alloc` that the function returns. When it has a static
    size of at least `min-bytes`, is aligned to 64 bytes and is only
    written in the function (views of it reach nothing but
    `vector.transfer_write`s and the return), each in-bounds, contiguous
    write of one row (a 1-D vector, or `1 x ... x N`) of a multiple of 64
    bytes to it whose position is known to be a multiple of 64 bytes
    becomes a `vector.store` with `nontemporal` and `alignment = 64`
    (x86's `vmovntps`).

    An ordinary store first reads the line it writes (read for ownership):
    a result larger than the caches costs its size three times in memory
    traffic, once to read, once to evict, once to write back, where a
    streaming store writes it once. On this machine a 5-op chain over 16M
    floats ran at 0.6 of memcpy's speed with ordinary stores and above it
    with streaming ones. Streaming stores are not ordered with other
    stores: `maxgraph-fence-streaming-stores` orders them later.
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"8 << 20",
           "The smallest result, in bytes, written with streaming stores">
  ];
  let dependentDialects = [
    "mlir::LLVM::LLVMDialect", "mlir::vector::VectorDialect"
  ];
}

def FenceStreamingStores
    : Pass<"maxgraph-fence-streaming-stores", "mlir::func::FuncOp"> {
  let summary = "Orders non-temporal vector stores with an sfence where a "
                "thread's work ends";
  let description = [{
    Runs after `maxgraph-omit-loop-barriers` in `maxgraph-lower-to-cpu`,
    where the host is x86-64. Non-temporal stores (those of
    `maxgraph-stream-result-stores`) are not ordered with other stores:
    another thread, or the caller, could read the result before they
    reach memory. An `llvm.x86.sse.sfence` goes before the end of each
    `omp.parallel` region holding such a store (each thread fences its own
    stores before the threads join), or, outside parallel regions, after
    the outermost op of the function around the store.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def OutlineParallelRegions
    : Pass<"maxgraph-outline-parallel-regions", "mlir::ModuleOp"> {
  let summary = "Moves each OpenMP parallel region of a function that has "
                "several into a function of its own";
  let description = [{
    Runs after `maxgraph-fence-streaming-stores` in `maxgraph-lower-to-cpu`.
    In a function with more than one outermost `omp.parallel`, each of them
    moves into a new private function (internal linkage, never inlined)
    that takes the values the region uses from outside, and its operands,
    as arguments (constants are cloned in instead), and the function calls
    it.

    Translating to LLVM IR outlines every parallel region again, into the
    function that `__kmpc_fork_call` runs, and each outlining scans the
    whole function that holds the region: in one function, that is
    quadratic. An inlined 32-layer model has 384 parallel regions in its
    entry: translating it took 4.6 s, against 0.95 s at 16 layers. One
    region per function keeps each scan to that region's function, and
    LLVM's optimizer and code generator then work on small functions too.

    Regions that are the same code (equivalent operations, constants
    included, over arguments of the same types) call one function, in one
    function and across functions: all-MiniLM-L6-v2's query, key, value
    and output projections are one matmul function, generated once (its
    LLVM IR 25.4k to 21.1k lines, LLVM's optimizer and code generator
    0.79-0.91 to 0.69 s on two threads).

    ```mlir
    func.func @model(%a: memref<128x256xf32>, %b: memref<128x256xf32>) {
      omp.parallel { ... %a ... }
      omp.parallel { ... %b ... }
      return
    }
    ```
    becomes
    ```mlir
    func.func @model(%a: memref<128x256xf32>, %b: memref<128x256xf32>) {
      call @model_parallel_0(%a) : (memref<128x256xf32>) -> ()
      call @model_parallel_1(%b) : (memref<128x256xf32>) -> ()
      return
    }
    func.func private @model_parallel_0(%a: memref<128x256xf32>)
        attributes {llvm.linkage = #llvm.linkage<internal>,
                    passthrough = ["noinline"]} {
      omp.parallel { ... %a ... }
      return
    }
    ...
    ```
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def HoistParallelCaptures
    : Pass<"maxgraph-hoist-parallel-captures", "mlir::LLVM::LLVMFuncOp"> {
  let summary = "Reads memref descriptors' fields before OpenMP parallel "
                "regions, so that the outlined regions capture the fields "
                "they use";
  let description = [{
    Runs last in `maxgraph-lower-to-cpu`, on the LLVM dialect. An
    `llvm.extractvalue` inside an `omp.parallel` region whose struct (a
    memref descriptor) is defined outside it moves before the region.
    OpenMP's outlining passes the region every value it uses from outside;
    with the extraction inside, that is the whole descriptor (pointers,
    offset, sizes and strides), stored into the region's argument struct
    on every entry, and it keeps every field of the function's memref
    arguments alive. A function whose static shapes make sizes and strides
    constants then still takes them, and its callers still pass them: an
    entry calling a shared layer 32 times passed 45 values per call.
    Moved out, the region captures the pointer it reads, and a function
    with internal linkage (a shared body, `llvm.linkage` from
    `convert-maxgraph-to-linalg`) loses the arguments it no longer reads
    (LLVM's dead argument elimination).

    ```mlir
    omp.parallel {
      ... %p = llvm.extractvalue %descriptor[1] ...
    }
    ```
    becomes
    ```mlir
    %p = llvm.extractvalue %descriptor[1]
    omp.parallel { ... }
    ```
  }];
  let dependentDialects = ["mlir::omp::OpenMPDialect"];
}

def LowerVectorOps : Pass<"maxgraph-lower-vector-ops", "mlir::func::FuncOp"> {
  let summary = "Lowers vector reductions and math ops ahead of the "
                "conversions to LLVM and libm";
  let description = [{
    Runs after bufferization in `maxgraph-lower-to-cpu`: lowers
    `vector.multi_reduction` to 1-D reductions and transfer permutation maps,
    turns 0-d transfers and 1-D gathers on memrefs whose innermost stride
    is not 1 (which neither VectorToSCF nor vector-to-llvm lowers) into
    scalar loads and stores, expands `math.rsqrt` (libm has no `rsqrtf`), and approximates
    `math.exp` with a polynomial on whole vectors (a few ulp in f32) instead
    of a libm call per lane.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::math::MathDialect",
    "mlir::memref::MemRefDialect", "mlir::scf::SCFDialect",
    "mlir::vector::VectorDialect"
  ];
}

def EmulateNarrowFloats
    : Pass<"maxgraph-emulate-narrow-floats", "mlir::func::FuncOp"> {
  let summary = "Computes bf16 and 8-bit float arithmetic in f32 and "
                "expands their conversions to integer code";
  let description = [{
    Runs on vector code, before it is lowered to LLVM, in
    `maxgraph-lower-to-cpu`. Each arith or math op, vector contraction,
    reduction, outer product or FMA on bf16, f8E4M3FN or f8E5M2 (scalars or
    vectors) extends its operands to f32, computes in f32 and truncates its
    results to the narrow type (upstream's float emulation); loads, stores
    and shuffles keep the narrow type, which LLVM holds as i16 or i8.
    Values that `scf` loops carry (a register tile's accumulator over K)
    are carried in f32 and rounded once after the loop, while a value that
    is compared is rounded to its type first (as the interpreter rounds it,
    so that it compares as its stored copy does); buffers (memrefs) stay
    narrow, also where an `scf.if` chooses between them. A named linalg
    op that computes on a narrow float (a matmul tile of run-time sizes that
    was not vectorized) becomes a `linalg.generic` first, so that its body
    may compute in f32 too.
    Then `arith.extf` from bf16 and `arith.truncf` from f32 to bf16 become
    shifts and integer rounding to nearest even (upstream's bf16
    expansion), vectorized, instead of LLVM's per-lane `__truncsfbf2`
    calls on CPUs without AVX512-BF16; those from and to the 8-bit floats,
    which LLVM has no types for, become integer code on their bits
    (Codegen/Common's narrow-float emulation: subnormals, f8E5M2's
    infinities, f8E4M3FN's overflow to NaN).
    Conversions to f16 and bf16 round once, as docs/Spec.md says, with the
    OpenCL kernels' rules (Codegen/Common's narrow-float emulation): an
    integer wider than 24 bits goes through f64 (an i64 through an f64
    rounded to odd), and `arith.truncf` from f64 becomes integer code on
    the f64's bits; LLVM would convert an i32 to bf16 through f32, rounding
    twice.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::vector::VectorDialect",
  ];
}

#endif // MAXGRAPH_CODEGEN_LLVMCPU_PASSES_TD
