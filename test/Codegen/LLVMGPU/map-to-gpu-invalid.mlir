// RUN: max-opt %s --maxgraph-map-to-gpu --split-input-file -verify-diagnostics

// The mapping runs after bufferization.
func.func @tensors(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @below {{'linalg.copy' works on tensors; the GPU mapping runs after bufferization}}
  %0 = linalg.copy ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// RUN: not max-opt %s --maxgraph-map-to-gpu="block-size=2048" 2>&1 | FileCheck %s --check-prefix=BLOCK
// BLOCK: error: maxgraph-map-to-gpu: block-size must be in [1, 1024], got 2048
// RUN: not max-opt %s --maxgraph-map-to-gpu="vector-bytes=12" 2>&1 | FileCheck %s --check-prefix=BYTES
// BYTES: error: maxgraph-map-to-gpu: vector-bytes must be 0 or a power of two up to 64, got 12
