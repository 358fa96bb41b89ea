// c = a + b over 1024 f32 in work-groups of 64, for OpenCLRuntimeTest's SPIR
// module: CMake lowers it to SPIR-V (gpu-module-to-binary), takes the object
// out of the gpu.binary (gpu-binary-object.py) and turns it into SPIR 1.2
// bitcode (llvm-spirv -r), what the OpenCL runtime's format 0 holds.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add(%a: memref<1024xf32>, %b: memref<1024xf32>,
                  %c: memref<1024xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>,
                    spirv.entry_point_abi = #spirv.entry_point_abi<
                        workgroup_size = [64, 1, 1]>} {
      %block = gpu.block_id x
      %thread = gpu.thread_id x
      %size = gpu.block_dim x
      %first = arith.muli %block, %size : index
      %i = arith.addi %first, %thread : index
      %x = memref.load %a[%i] : memref<1024xf32>
      %y = memref.load %b[%i] : memref<1024xf32>
      %sum = arith.addf %x, %y : f32
      memref.store %sum, %c[%i] : memref<1024xf32>
      gpu.return
    }
  }
}
