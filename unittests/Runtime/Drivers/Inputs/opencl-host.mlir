// Host code as the compiler lowers it with gpu-to-llvm: c = a + b over n
// floats on the device, one stream with a second one forked and joined (an
// event), device buffers, copies, a fill and a launch with bare pointers.
// opencl-host-module.py puts an OpenCL module blob for @kernels in place of
// the marker below; OpenCLHostCodeTest calls @run.
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, bin = "@BLOB@">]

  func.func @run(%hostA: memref<1000xf32>, %hostB: memref<1000xf32>,
                 %hostC: memref<1000xf32>, %n: i64)
      attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %minusOne = arith.constant -1.0 : f32
    %s = gpu.wait async
    %a, %t0 = gpu.alloc async [%s] () : memref<1000xf32>
    %b, %t1 = gpu.alloc async [%t0] () : memref<1000xf32>
    %c, %t2 = gpu.alloc async [%t1] () : memref<1000xf32>
    %t3 = gpu.memcpy async [%t2] %a, %hostA : memref<1000xf32>, memref<1000xf32>
    // A second stream, forked after the allocations, fills c meanwhile; the
    // launch waits for both.
    %s2 = gpu.wait async [%t2]
    %t4 = gpu.memset async [%s2] %c, %minusOne : memref<1000xf32>, f32
    %t5 = gpu.memcpy async [%t3] %b, %hostB : memref<1000xf32>, memref<1000xf32>
    %joined = gpu.wait async [%t5, %t4]
    %t6 = gpu.launch_func async [%joined] @kernels::@add
        blocks in (%c16, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : memref<1000xf32>, %b : memref<1000xf32>,
             %c : memref<1000xf32>, %n : i64)
    %t7 = gpu.memcpy async [%t6] %hostC, %c : memref<1000xf32>, memref<1000xf32>
    %t8 = gpu.dealloc async [%t7] %a : memref<1000xf32>
    %t9 = gpu.dealloc async [%t8] %b : memref<1000xf32>
    %t10 = gpu.dealloc async [%t9] %c : memref<1000xf32>
    gpu.wait [%t10]
    return
  }
}
