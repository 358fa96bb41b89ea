// A graph of a custom kernel, for compile-cache.mlir: the cache key covers
// the kernel library's contents.
maxgraph.graph @bumped(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
    attributes {kernel_libraries = ["kernels.mlir"]} {
  %0 = maxgraph.custom "add_one"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
