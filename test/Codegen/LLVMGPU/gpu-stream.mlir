// RUN: max-opt %s --maxgraph-gpu-stream --split-input-file -verify-diagnostics | FileCheck %s

// The host function takes the stream first; launches, temporaries and
// calls are enqueued on it, and temporaries are freed before the return.
// CHECK-LABEL: func.func @host
// CHECK-SAME:    (%[[S:.*]]: !gpu.async.token, %[[A:.*]]: memref<4xf32>, %[[B:.*]]: memref<4xf32>)
// CHECK:         %[[T:.*]], %{{.*}} = gpu.alloc async [%[[S]]] () : memref<4xf32>
// CHECK:         gpu.launch_func async [%[[S]]] @k::@scale {{.*}} args(%[[A]] : memref<4xf32>, %[[T]] : memref<4xf32>)
// CHECK:         call @callee(%[[S]], %[[T]], %[[B]])
// CHECK:         gpu.dealloc async [%[[S]]] %[[T]] : memref<4xf32>
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @callee
// CHECK-SAME:    (%{{.*}}: !gpu.async.token,
module attributes {gpu.container_module} {
  func.func @host(%a: memref<4xf32>, %b: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t = memref.alloc() : memref<4xf32>
    gpu.launch_func @k::@scale blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>, %t : memref<4xf32>)
    call @callee(%t, %b) : (memref<4xf32>, memref<4xf32>) -> ()
    return
  }
  func.func private @callee(%x: memref<4xf32>, %y: memref<4xf32>) {
    return
  }
  gpu.module @k {
    gpu.func @scale(%a: memref<4xf32>, %o: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// The host neither reads nor writes device memory: that would wait for the
// stream (checks on device data run on the device,
// maxgraph-gpu-device-checks).
func.func @host_read(%a: memref<4xf32>) -> f32 {
  %c2 = arith.constant 2 : index
  // expected-error @below {{'memref.load' reads or writes device buffer data on the host; on a GPU only kernels can}}
  %v = memref.load %a[%c2] : memref<4xf32>
  return %v : f32
}

// -----

func.func @host_write(%a: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  // expected-error @below {{'memref.store' reads or writes device buffer data on the host; on a GPU only kernels can}}
  memref.store %v, %a[%c0] : memref<4xf32>
  return
}

// -----

// Host memory stays host memory: a shape operand of memref.reshape.
// CHECK-LABEL: func.func @shape_buffer
// CHECK:         %[[SHAPE:.*]] = memref.alloc() : memref<1xindex>
// CHECK:         memref.store %{{.*}}, %[[SHAPE]]
// CHECK:         memref.reshape %{{.*}}(%[[SHAPE]])
// CHECK:         memref.dealloc %[[SHAPE]] : memref<1xindex>
// CHECK-NEXT:    return
func.func @shape_buffer(%a: memref<2x2xf32>, %n: index) {
  %shape = memref.alloc() : memref<1xindex>
  %c0 = arith.constant 0 : index
  memref.store %n, %shape[%c0] : memref<1xindex>
  %flat = memref.reshape %a(%shape) : (memref<2x2xf32>, memref<1xindex>) -> memref<?xf32>
  return
}

// -----

func.func @returns_buffer() -> memref<4xf32> {
  %t = memref.alloc() : memref<4xf32>
  // expected-error @below {{a host function returns a buffer; the GPU lowering needs results as arguments (buffer-results-to-out-params)}}
  return %t : memref<4xf32>
}

// -----

module attributes {gpu.container_module} {
  func.func @alloc_in_loop(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @below {{a device buffer allocated inside control flow has no GPU lowering yet}}
      %t = memref.alloc() : memref<4xf32>
      gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<4xf32>)
    }
    return
  }
  gpu.module @k {
    gpu.func @fill(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// Constants are host memory: kernels read a device copy made at the start.
// CHECK-LABEL: func.func @constant
// CHECK-SAME:    (%[[S:.*]]: !gpu.async.token)
// CHECK:         %[[COPY:.*]], %{{.*}} = gpu.alloc async [%[[S]]] () : memref<4xf32>
// CHECK:         %[[HOST:.*]] = memref.get_global @table : memref<4xf32>
// CHECK:         gpu.memcpy async [%[[S]]] %[[COPY]], %[[HOST]] : memref<4xf32>, memref<4xf32>
// CHECK:         gpu.launch_func async [%[[S]]] @k::@read {{.*}} args(%[[COPY]] : memref<4xf32>)
// CHECK:         gpu.dealloc async [%[[S]]] %[[COPY]] : memref<4xf32>
module attributes {gpu.container_module} {
  memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
  func.func @constant() {
    %c1 = arith.constant 1 : index
    %t = memref.get_global @table : memref<4xf32>
    gpu.launch_func @k::@read blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<4xf32>)
    return
  }
  gpu.module @k {
    gpu.func @read(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

func.func private @external(memref<4xf32>)
func.func @calls_external(%a: memref<4xf32>) {
  // expected-error @below {{calls 'external', which has no body to compile for the GPU}}
  call @external(%a) : (memref<4xf32>) -> ()
  return
}

// -----

// A buffer allocated in a branch (a run-time check's fresh tensor) is
// allocated before the branch, with its size, and freed at the return.
// CHECK-LABEL: func.func @branch_alloc
// CHECK-SAME:    (%[[S:.*]]: !gpu.async.token, %[[OK:.*]]: i1, %[[N:.*]]: index
// CHECK:         %[[SIZE:.*]] = arith.addi %[[N]], %[[N]] : index
// CHECK:         %[[FRESH:.*]], %{{.*}} = gpu.alloc async [%[[S]]] (%[[SIZE]]) : memref<?xf32>
// CHECK:         scf.if %[[OK]]
// CHECK:         gpu.dealloc async [%[[S]]] %[[FRESH]] : memref<?xf32>
// CHECK-NEXT:    return
module attributes {gpu.container_module} {
  func.func @branch_alloc(%ok: i1, %n: index, %a: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %r = scf.if %ok -> (memref<?xf32>) {
      scf.yield %a : memref<?xf32>
    } else {
      %size = arith.addi %n, %n : index
      %fresh = memref.alloc(%size) : memref<?xf32>
      gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%fresh : memref<?xf32>)
      scf.yield %fresh : memref<?xf32>
    }
    return
  }
  gpu.module @k {
    gpu.func @fill(%a: memref<?xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// A runtime entry that enqueues on the stream (maxgraph.enqueues: the NCCL
// collectives) takes the stream first. The buffers whose pointers the call
// lists in maxgraph.device_pointers are device memory (gpu.alloc, freed on
// the stream); the list of devices stays a host constant.
// CHECK-LABEL: func.func private @maxgraphGpuAllreduce
// CHECK-SAME:    (!gpu.async.token, i64, i64, i64, i64, i64, i64, i64) -> i32
// CHECK-SAME:    maxgraph.enqueues
// CHECK-LABEL: func.func @collective
// CHECK-SAME:    (%[[S:.*]]: !gpu.async.token, %[[A:.*]]: memref<4xf32>)
// CHECK:         %[[OUT:.*]], %{{.*}} = gpu.alloc async [%[[S]]] () : memref<4xf32>
// CHECK:         %[[RANKS:.*]] = memref.get_global @ranks : memref<2xi64>
// CHECK-NOT:     gpu.memcpy
// CHECK:         %[[STATUS:.*]] = call @maxgraphGpuAllreduce(%[[S]],
// CHECK-NOT:     maxgraph.device_pointers
// CHECK:         gpu.launch_func async [%[[S]]] @k::@use {{.*}} args(%[[A]] : memref<4xf32>)
// CHECK:         gpu.dealloc async [%[[S]]] %[[OUT]] : memref<4xf32>
module attributes {gpu.container_module} {
  memref.global "private" constant @ranks : memref<2xi64> = dense<[0, 1]>
  func.func private @maxgraphGpuAllreduce(i64, i64, i64, i64, i64, i64, i64) -> i32 attributes {maxgraph.enqueues}
  func.func @collective(%a: memref<4xf32>) -> i32 {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %n = arith.constant 4 : i64
    %dtype = arith.constant 2 : i64
    %kind = arith.constant 0 : i64
    %two = arith.constant 2 : i64
    %out = memref.alloc() : memref<4xf32>
    %ranks = memref.get_global @ranks : memref<2xi64>
    %pa = memref.extract_aligned_pointer_as_index %a : memref<4xf32> -> index
    %pi = arith.index_cast %pa : index to i64
    %po = memref.extract_aligned_pointer_as_index %out : memref<4xf32> -> index
    %pot = arith.index_cast %po : index to i64
    %pr = memref.extract_aligned_pointer_as_index %ranks : memref<2xi64> -> index
    %prt = arith.index_cast %pr : index to i64
    %status = call @maxgraphGpuAllreduce(%pi, %pot, %n, %dtype, %kind, %prt, %two) {maxgraph.device_pointers = array<i64: 0, 1>} : (i64, i64, i64, i64, i64, i64, i64) -> i32
    gpu.launch_func @k::@use blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
    memref.dealloc %out : memref<4xf32>
    return %status : i32
  }
  gpu.module @k {
    gpu.func @use(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
