//===- Passes.td - passes of the GPU strategy --------------*- tablegen -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_CODEGEN_LLVMGPU_PASSES_TD
#define MAXGRAPH_CODEGEN_LLVMGPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def MapToGPU : Pass<"maxgraph-map-to-gpu", "mlir::func::FuncOp"> {
  let summary = "Maps each linalg op on buffers to a GPU kernel launch";
  let description = [{
    The GPU strategies of `maxgraph-lower-to-gpu`, after bufferization:
    the linalg ops (and `memref.copy`, as a `linalg.copy`) of a host
    function become `gpu.launch`es on a 1-D grid. First, row groups: the
    ops of a softmax, layer_norm or rms_norm (fills, row reductions and
    the elementwise ops over the same rows, next to each other) become one
    launch with a block per row, which runs them in order with a barrier
    between them (threads striding over the row's points, reductions as
    below); an op joins only where no block can reach another block's row
    of a buffer the group writes, and an elementwise op only with at most
    16384 points per row where they are static. Rows of at most 32 points
    (static) take a group of lanes each (the next power of two), several
    rows to a block of `block-size` threads, reduced by shuffles among a
    row's lanes without shared memory; short rows read with a stride (a
    reduction over an outer dim) stay with the strategies below, as do a
    single row and rows too few to fill the GPU. Then every other op
    becomes one launch, by a strategy chosen per op family:

    - With `tensor-cores` (NVVM, or OpenCL where `maxgraph-lower-to-gpu`
      emulates mma.sync: `emulate-tensor-cores`), matmuls of f16 (or bf16)
      operands into their type or f32
      with a multiply-add body: a block of four warps per 64x64 tile of C,
      each warp a 32x32 quarter as 2 x 4 `nvgpu.mma.sync` m16n8k16 tiles
      (PTX `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`: f32
      accumulators, an f16 result rounded once when stored), K in steps of
      16 staged in shared memory with zeros past the operands' ends. With
      `allow-tf32`, f32 matmuls into f32 too: m16n8k8 with `tf32Enabled`
      (the operands read as TF32), K in steps of 8, one element per
      fragment register.
    - Matmuls (linalg's contraction dims: one m, n and k loop, any batch
      loops, two inputs, one output): a block of 256 threads per 64x64 tile
      of C, for every matmul of the batch. Each thread keeps a 4x4 tile of
      results in registers; K advances in steps of 16, the block staging
      A's 64x16 and B's 16x64 slices in workgroup (shared) memory between
      barriers. Each result sees its k in order through the op's body,
      whose float multiplies and adds may contract into fused
      multiply-adds.
    - Reductions whose rows (the product of the reduction dims) are dynamic
      or at least 32 long, with one associative and commutative combiner
      that has a neutral element per output (`arith.addf`, `maximumf`,
      `minsi`, ...): a block per point of the parallel space, of the
      smallest power of two of threads covering a static row (at most
      `block-size`). Each thread folds every `blockDim`-th element into a
      partial from the neutral element; each warp combines its lanes'
      partials by a butterfly of `gpu.shuffle xor` (32-bit words: narrower
      values widened, 64-bit ones in halves), lane 0 of each warp leaves
      the warp's total in workgroup memory, and after a barrier every warp
      combines those by shuffles again; thread 0 folds the total into the
      output. Static rows too few to fill the GPU (fewer than 132, half of
      the 264 blocks that give an H100's or H200's 132 SMs two each) are
      split: each row over up to 264 / rows blocks (each thread folding 8
      elements at the least), whose totals a second launch, a block per
      row, combines into the output; a full reduction is one such row.
    - Everything else: a thread per point of the parallel space on blocks
      of `block-size` threads (an op smaller than a block gets one block of
      its size). A thread splits its linear id, row-major, into the op's
      parallel indices and runs the reduction dims as sequential `scf.for`
      loops with the outputs in registers, then stores them. Without
      reduction dims, a thread takes a group of 2 or 4 consecutive points
      along the innermost loop where its outputs are contiguous there and
      the operands accessed contiguously have 32- or 64-bit elements (with
      `sixteen-bit-groups`, 16-bit ones too, in groups of up to 8): one
      `vector.load` / `vector.store` of at most `vector-bytes` per such
      operand and group, aligned to its size. The host checks that the
      views keep every group aligned (offsets and outer strides multiples
      of the group, innermost stride 1, innermost size a multiple of the
      group); where that is not known statically, a group that is not
      aligned takes its points one by one.

    An op with a dynamic iteration space is launched only when its grid is
    not empty; a static empty one launches nothing.

    Kernels use memrefs flat: each memref of the host that a kernel reads or
    writes is passed as a 1-D identity memref over its base buffer
    (`memref.extract_strided_metadata` + `memref.reinterpret_cast`), and the
    view's offset and strides become index values, so that kernel arguments
    are pointers and integers for every target, SPIR-V's included.

    ```mlir
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%a : memref<999xf32>) outs(%b : memref<999xf32>) { ... }
    ```
    (an odd size: a thread per point) becomes
    ```mlir
    gpu.launch blocks(%bx, ...) in (%gx = %c4, ...)
               threads(%tx, ...) in (%sx = %c256, ...) {
      %id = %bx * 256 + %tx
      scf.if %id < 999 { ... memref.load %flat_a[%id] ...
                         memref.store ..., %flat_b[%id] }
      gpu.terminator
    }
    ```
    and with 1000 elements, a thread per group of four:
    ```mlir
    gpu.launch blocks(%bx, ...) in (%gx = %c1, ...)
               threads(%tx, ...) in (%sx = %c250, ...) {
      %first = %tx * 4
      %v = vector.load %a[%first] {alignment = 16 : i64}
          : memref<1000xf32>, vector<4xf32>
      ... the body on each of the 4 lanes ...
      vector.store %r, %b[%first] {alignment = 16 : i64}
          : memref<1000xf32>, vector<4xf32>
      gpu.terminator
    }
    ```
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block of the thread-per-point and reduction "
           "strategies, in [1, 1024]">,
    Option<"vectorBytes", "vector-bytes", "int64_t", /*default=*/"16",
           "Widest vector access of the thread-per-point strategy's groups "
           "of points, in bytes (0: a thread per point)">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"false",
           "Map f16 matmuls to NVIDIA tensor cores (nvgpu.mma.sync)">,
    Option<"allowTf32", "allow-tf32", "bool", /*default=*/"false",
           "With tensor-cores, f32 matmuls too, their operands read as TF32 "
           "(nvgpu.mma.sync m16n8k8 with tf32Enabled)">,
    Option<"sixteenBitGroups", "sixteen-bit-groups", "bool",
           /*default=*/"false",
           "Groups of points with 16-bit elements too, of up to 8 lanes "
           "(NVVM: 16-byte accesses of f16 and bf16; OpenCL holds them as "
           "i16 emulations and has no vectors of 8 without Vector16)">
  ];
  let dependentDialects = [
    "mlir::affine::AffineDialect", "mlir::arith::ArithDialect",
    "mlir::gpu::GPUDialect", "mlir::memref::MemRefDialect",
    "mlir::nvgpu::NVGPUDialect", "mlir::scf::SCFDialect",
    "mlir::ub::UBDialect", "mlir::vector::VectorDialect"
  ];
}

def GPUDeviceChecks : Pass<"maxgraph-gpu-device-checks", "mlir::ModuleOp"> {
  let summary = "Runs the run-time checks on device data on the device";
  let description = [{
    Before `maxgraph-map-to-gpu`, on bufferized host code: a `cf.assert`
    whose condition is computed, in its block and without other side
    effects, from `memref.load`s (device data: gather's indices against
    their axis) becomes a one-thread `gpu.launch` that computes the
    condition and, where it fails, stores the address of the check's
    message (a private string constant, named as
    `maxgraph-assertions-to-status` names its own) into the device status
    word unless that holds one already. The host never reads device data,
    so it never waits for the stream (a CUDA graph can capture the call).
    i1 values the condition takes from the host travel as i8.

    The status word is a trailing `memref<1xi64>` argument,
    `maxgraph.device_status`, of every entry point (`llvm.emit_c_interface`),
    of every function that checks, and of their callers; calls pass theirs
    on. The runtime zeroes it before a call and raises its message after
    the call's wait. Kernels on one stream run in order: the first failure
    wins. Checks on host values stay `cf.assert`s for
    `maxgraph-assertions-to-status`.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::LLVM::LLVMDialect",
                           "mlir::scf::SCFDialect"];
}

def GPUMergeKernelModules
    : Pass<"maxgraph-gpu-merge-kernel-modules", "mlir::ModuleOp"> {
  let summary = "Moves every outlined kernel into one gpu.module";
  let description = [{
    Kernel outlining gives each kernel a `gpu.module` of its own, and each
    module becomes a binary of its own: a compile of LLVM's GPU back end, a
    link of libdevice and a ptxas run per kernel at compile time, and a
    module load per kernel when the host code starts. This pass moves the
    kernels of all the modules into the first, so that a graph compiles to
    one binary. Symbols of the same name (the outliner names kernels of
    different modules alike, and copies a constant or device function into
    each module that uses it) are kept once when they are the same and
    renamed when they differ; launches follow.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def GPUAlignWorkgroupBuffers
    : Pass<"maxgraph-gpu-align-workgroup-buffers", "mlir::gpu::GPUModuleOp"> {
  let summary = "Aligns every kernel's shared-memory buffers to 16 bytes";
  let description = [{
    Gives each workgroup attribution of the module's kernels an
    `llvm.align` of 16 bytes (a larger one already there stays), which the
    lowering to NVVM gives the shared-memory global. Without it the global
    has its element's alignment (`.shared .align 2` for f16) while the
    kernels read it in wider words: the tensor-core kernel loads pairs of
    f16 as 32-bit words, and 16-byte vector accesses, `ldmatrix` and
    `cp.async` need 16-byte alignment. LLVM may assume more than the PTX
    declares, so such code works only by the buffers' placement.
  }];
}

def GPUCheckLibdeviceCalls
    : Pass<"maxgraph-gpu-check-libdevice-calls", "mlir::gpu::GPUModuleOp"> {
  let summary = "Refuses calls of libdevice's functions in kernels that "
                "will not be linked with it";
  let description = [{
    Math on NVIDIA GPUs lowers to calls of libdevice's `__nv_*` functions
    (`__nv_expf`), which the CUDA toolkit's libdevice defines. Where no
    toolkit is linked (`maxgraph-lower-to-gpu` with `toolkit=none`, or none
    found at configure time), the PTX would call functions that nothing
    defines, and the driver would fail to load it. This pass, run on the
    kernels once they are in the LLVM dialect, reports each such call at
    the op it came from, naming the function; modules without math pass.
  }];
}

def GPUStream : Pass<"maxgraph-gpu-stream", "mlir::ModuleOp"> {
  let summary = "Makes host functions enqueue their GPU work on a stream "
                "they take as their first argument";
  let description = [{
    Runs after kernel outlining in `maxgraph-lower-to-gpu`. Every host
    function gets a leading `!gpu.async.token` argument, the stream, which
    gpu-to-llvm lowers to the stream handle; its kernel launches become
    `gpu.launch_func async [%stream]`, its temporaries
    `gpu.alloc async [%stream]`, freed by `gpu.dealloc async [%stream]`
    before each return, and calls pass the stream on. Everything is enqueued
    in program order on the one stream and nothing waits: the caller
    synchronizes, and a call can be captured into a CUDA graph.

    Buffers that kernels or callees use are device memory: constants among
    them are copied to the device first; the others (shape operands of
    `memref.reshape`) stay host memory. Allocations inside `scf.if`
    branches move before the branch with their sizes. Reading or writing
    device memory from the host is an error (checks on device data run on
    the device: `maxgraph-gpu-device-checks`), as are a device buffer
    allocated inside a loop, a call of a function without a body and a
    function that returns a buffer (results are caller buffers after
    `buffer-results-to-out-params`).
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def GPUBf16MmaSyncToNVVM
    : Pass<"maxgraph-gpu-bf16-mma-sync-to-nvvm", "mlir::gpu::GPUModuleOp"> {
  let summary = "Lowers nvgpu.mma.sync of bf16 operands to nvvm.mma.sync";
  let description = [{
    Upstream's `convert-nvgpu-to-nvvm` lowers `nvgpu.mma.sync` of f16 and
    other types but not of bf16 (LLVM 22). This pass, run before it, makes
    each bf16 m16n8k16 one with an f32 accumulator an `nvvm.mma.sync`
    (`mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`): A's four and
    B's two registers are their pairs of bf16 packed into i32 (the first
    element in the low half, as PTX reads them), C's and D's four f32 are
    nvgpu's vector<2x2xf32> in order. Other bf16 shapes are an error at the
    op.
  }];
  let dependentDialects = [
    "mlir::LLVM::LLVMDialect", "mlir::NVVM::NVVMDialect",
    "mlir::vector::VectorDialect"
  ];
}

def GPUEmulateMmaSync
    : Pass<"maxgraph-gpu-emulate-mma-sync", "mlir::gpu::GPUModuleOp"> {
  let summary = "Computes the kernels' nvgpu.mma.sync through workgroup "
                "memory, for back ends without tensor cores";
  let description = [{
    A numeric test of the tensor-core kernels on any device (OpenCL: PoCL
    on the CPU): each `nvgpu.mma.sync` of shape m16n8k16 with f16 or bf16
    operands and an f32 accumulator (or m16n8k8 with TF32 operands, each
    register one f32 of which the 13 low mantissa bits are dropped, as the
    tensor cores read them: A's register i at row g + 8 (i % 2), column
    t + 4 (i / 2), B's at row t + 4 i, column g) becomes what the
    instruction does, written from
    PTX's definition of its fragments, with g = lane / 4 and t = lane % 4:
    every lane of the warp stores its fragments of A (register i, element j
    at row g + 8 (i % 2), column 2t + j + 8 (i / 2)) and of B (row
    2t + j + 8 i, column g), in f32, into its warp's part of a workgroup
    buffer the pass adds to the kernel; after a barrier each lane computes
    its elements of C (row g + 8 i, column 2t + j) from the whole 16x16 and
    16x8 tiles; a second barrier frees the buffer for the next one. So a
    kernel that gathers its fragments in another layout than PTX's gives
    wrong results here, as it would on a GPU. Lanes are the threads of a
    one-dimensional block in warps of 32, and every thread of the block
    reaches each mma.sync (as in the tensor-core kernels). Then the n-D
    vectors that the fragments and accumulators were, which SPIR-V lacks,
    are flattened (upstream's vector linearization, through `scf.for`).
    Other shapes and types are an error at the op.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::gpu::GPUDialect",
    "mlir::memref::MemRefDialect", "mlir::vector::VectorDialect"
  ];
}

def GPUEmulateShuffles
    : Pass<"maxgraph-gpu-emulate-shuffles", "mlir::gpu::GPUModuleOp"> {
  let summary = "Exchanges the kernels' gpu.shuffle xor values through "
                "workgroup memory, for back ends without warp shuffles";
  let description = [{
    OpenCL devices need not have subgroups (PoCL's are not warps of 32), so
    on `target=opencl` the block reductions' warp shuffles run as what they
    compute: each thread stores its 32-bit value at its own slot of a
    workgroup buffer of one word per thread (the pass adds it to the
    kernel), and after a barrier reads lane `lane ^ offset` of its group of
    `width` lanes; a second barrier frees the buffer for the next shuffle.
    The kernels' lane arithmetic is thus checked by their results. Every
    thread of the block must reach each shuffle, as in the reductions the
    GPU mapping builds; the kernel needs a known one-dimensional block.
    Other modes than `xor`, and values other than i32 and f32, are an error
    at the op.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::gpu::GPUDialect",
    "mlir::memref::MemRefDialect"
  ];
}

def GPUEmulateNarrowFloats
    : Pass<"maxgraph-gpu-emulate-narrow-floats", "mlir::gpu::GPUModuleOp"> {
  let summary = "Holds the f16, bf16 and 8-bit float data of GPU kernels as "
                "i16 and i8 and computes in f32";
  let description = [{
    For back ends without 16-bit floats (SPIR-V 1.0 has no bf16, and OpenCL
    devices such as PoCL lack cl_khr_fp16) and without 8-bit ones;
    `maxgraph-gpu-kernels-to-spirv` runs it on the kernels it converts.
    Arithmetic and math ops on f16, bf16, f8E4M3FN or f8E5M2 compute in f32
    and round their results back, so each op still rounds once to its type
    (f32 has more than twice the precision of each); integers convert
    through f32 or f64 where those hold them exactly, 64-bit ones through an
    f64 rounded to odd, so that they round once too. The conversions
    (`arith.extf` from and `arith.truncf` to the narrow types, from f32 or
    directly from f64) become integer code on the bits: exact extension,
    round to nearest even with subnormal results and overflow to infinity
    (to NaN for f8E4M3FN, which has no infinity), NaN kept quiet with the
    top of its payload. Then every value, memref and function signature
    holds i16 or i8 in place of the narrow type: what is left on it only
    moves data.

    Kernel signatures change (`memref<?xf16>` becomes `memref<?xi16>`, the
    same bytes), so launches outside the module no longer match them: the
    OpenCL back end keeps host stubs with the old signatures. A narrow
    float in a type attribute (a `memref.global`) is an error.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def GPUEmulateFloat8
    : Pass<"maxgraph-gpu-emulate-float8", "mlir::gpu::GPUModuleOp"> {
  let summary = "Computes the 8-bit float arithmetic of GPU kernels in f32, "
                "for NVVM";
  let description = [{
    NVVM has f16 and bf16 but no 8-bit floats (LLVM holds f8E4M3FN and
    f8E5M2 as i8, and cannot convert or compute on them). Arithmetic and
    math ops on them compute in f32 and round each result back to its type,
    as the interpreter does; integers too wide for f32's mantissa convert
    through f64; the conversions and constants become integer code on the
    bits, as in `maxgraph-gpu-emulate-narrow-floats`. Values, memrefs and
    signatures keep their types: what is left on 8-bit floats only moves
    data, which the conversion to NVVM does on i8.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def GPUKernelsToSPIRV
    : Pass<"maxgraph-gpu-kernels-to-spirv", "mlir::ModuleOp"> {
  let summary = "Converts outlined GPU kernels to SPIR-V kernels for OpenCL";
  let description = [{
    The OpenCL back end of `maxgraph-lower-to-gpu`: gives every `gpu.module`
    an OpenCL SPIR-V target (SPIR-V 1.0 with the Kernel, Addresses, Int8,
    Int16, Int64 and Float64 capabilities), its kernels an entry point ABI
    with their block size as the work-group size, and converts each into a
    `spirv.module` of the physical 64-bit addressing model inside the
    `gpu.module` (math through the OpenCL extended instructions, index as
    i64), leaving an empty `func.func` stub per kernel with the kernel's
    signature for the launches, as upstream `convert-gpu-to-spirv` does for
    kernels. `maxgraph-gpu-module-to-opencl-binary` serializes the result.

    Two things upstream's conversions get wrong for these kernels are
    mended first: workgroup attributions (the strategies' shared memory),
    which the `gpu.func` lowering drops, become `memref.alloc`s of
    workgroup memory, i.e. Workgroup global variables; and an `scf.for`
    that carries values and may run no iteration is put under an `scf.if`
    on its trip count, since the SPIR-V loop keeps its results in
    variables that only its body writes.
  }];
  let dependentDialects = ["mlir::spirv::SPIRVDialect",
                           "mlir::func::FuncDialect"];
}

def GPUModuleToOpenCLBinary
    : Pass<"maxgraph-gpu-module-to-opencl-binary", "mlir::ModuleOp"> {
  let summary = "Serializes SPIR-V kernel modules to OpenCL binaries for the "
                "OpenCL runtime";
  let description = [{
    Replaces every `gpu.module` holding a `spirv.module` (from
    `maxgraph-gpu-kernels-to-spirv`) with a `gpu.binary` whose object is a
    MaxGraph OpenCL binary (`MaxGraph/Support/GpuBinary.h`): the kernels'
    names and argument kinds, which the runtime needs to set OpenCL kernel
    arguments from the host's launch parameters, and the module as SPIR 1.2
    LLVM bitcode, translated from SPIR-V by `llvm-spirv` (PoCL and other
    OpenCL 1.2 drivers build SPIR, not SPIR-V).
  }];
  let options = [
    Option<"llvmSpirv", "llvm-spirv", "std::string", /*default=*/"\"\"",
           "The llvm-spirv tool (default: the one found at configure time)">
  ];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

#endif // MAXGRAPH_CODEGEN_LLVMGPU_PASSES_TD
