//===- SliceSubsetsTest.cpp - tensor slices compared as subsets -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// registerSliceSubsetModels' SubsetOpInterface on tensor slices, registered
// ahead of every upstream model as the compiler does: slices with the same
// offsets, sizes and strides of one tensor are equivalent, of another
// tensor not; different slices still get the constraint solver's answers.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/Common/SliceSubsets.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Interfaces/SubsetOpInterface.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;

namespace {
class SliceSubsetsTest : public ::testing::Test {
protected:
  SliceSubsetsTest() : context(registry()) {
    context.loadAllAvailableDialects();
  }

  static DialectRegistry registry() {
    DialectRegistry registry;
    maxgraph::registerSliceSubsetModels(registry);
    registerAllDialects(registry);
    return registry;
  }

  /// The slice ops of `body`, a function of %t and %u (tensor<64x64xf32>)
  /// and %i (index), in order.
  SmallVector<SubsetOpInterface> slices(StringRef body) {
    std::string text =
        "func.func @f(%t: tensor<64x64xf32>, %u: tensor<64x64xf32>, "
        "%i: index, %x: tensor<4x8xf32>) {\n" +
        body.str() + "\n  return\n}\n";
    module = parseSourceString<ModuleOp>(text, &context);
    SmallVector<SubsetOpInterface> found;
    if (module)
      module->walk([&](SubsetOpInterface op) { found.push_back(op); });
    return found;
  }

  /// Tensors are equivalent when they are the same value.
  static bool sameTensor(Value a, Value b) { return a == b; }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(SliceSubsetsTest, SameOffsetsSizesAndStridesAreEquivalent) {
  auto ops = slices(R"(
  %c8 = arith.constant 8 : index
  %e = tensor.extract_slice %t[%i, 8] [4, 8] [1, 1]
      : tensor<64x64xf32> to tensor<4x8xf32>
  %r = tensor.insert_slice %x into %t[%i, %c8] [4, 8] [1, 1]
      : tensor<4x8xf32> into tensor<64x64xf32>)");
  ASSERT_EQ(ops.size(), 2u);
  // The same value, and a constant operand equal to a static one.
  EXPECT_TRUE(ops[1].operatesOnEquivalentSubset(ops[0], sameTensor));
  EXPECT_TRUE(ops[0].operatesOnEquivalentSubset(ops[1], sameTensor));
  auto insertion = cast<SubsetInsertionOpInterface>(ops[1].getOperation());
  EXPECT_TRUE(insertion.isEquivalentSubset(ops[0]->getResult(0), sameTensor));
}

TEST_F(SliceSubsetsTest, SameSliceOfAnotherTensorIsNotEquivalent) {
  auto ops = slices(R"(
  %e = tensor.extract_slice %u[%i, 8] [4, 8] [1, 1]
      : tensor<64x64xf32> to tensor<4x8xf32>
  %r = tensor.insert_slice %x into %t[%i, 8] [4, 8] [1, 1]
      : tensor<4x8xf32> into tensor<64x64xf32>)");
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_FALSE(ops[1].operatesOnEquivalentSubset(ops[0], sameTensor));
  // Unless the caller holds the two tensors equivalent.
  EXPECT_TRUE(ops[1].operatesOnEquivalentSubset(
      ops[0], [](Value, Value) { return true; }));
}

TEST_F(SliceSubsetsTest, OtherSlicesKeepTheSolversAnswers) {
  auto ops = slices(R"(
  %j = affine.apply affine_map<()[s0] -> (s0 + 4)>()[%i]
  %k = affine.apply affine_map<()[s0] -> (s0 + 2 + 2)>()[%i]
  %a = tensor.extract_slice %t[%i, 0] [4, 8] [1, 1]
      : tensor<64x64xf32> to tensor<4x8xf32>
  %b = tensor.insert_slice %x into %t[%j, 0] [4, 8] [1, 1]
      : tensor<4x8xf32> into tensor<64x64xf32>
  %c = tensor.extract_slice %t[%k, 0] [4, 8] [1, 1]
      : tensor<64x64xf32> to tensor<4x8xf32>)");
  ASSERT_EQ(ops.size(), 3u);
  // Rows i..i+3 and i+4..i+7: disjoint, not equivalent.
  EXPECT_FALSE(ops[1].operatesOnEquivalentSubset(ops[0], sameTensor));
  EXPECT_TRUE(ops[1].operatesOnDisjointSubset(ops[0], sameTensor));
  // i + 4 and i + 2 + 2 are other values: equal by the solver.
  EXPECT_TRUE(ops[1].operatesOnEquivalentSubset(ops[2], sameTensor));
  EXPECT_FALSE(ops[1].operatesOnDisjointSubset(ops[2], sameTensor));
}
} // namespace
