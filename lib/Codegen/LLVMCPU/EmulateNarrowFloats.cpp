//===- EmulateNarrowFloats.cpp - maxgraph-emulate-narrow-floats -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// CPUs without AVX512-BF16 have no bf16 arithmetic, and LLVM legalizes each
// lane of a bf16 vector op into a call of __truncsfbf2: a bf16 matmul ran
// 230x slower than its f32 one. LLVM has no 8-bit float types at all (it
// holds f8E4M3FN and f8E5M2 as i8). Here every op that computes on bf16 or
// an 8-bit float (arith, math, and vector's contractions, reductions and
// FMAs) computes in f32 and rounds its result back to its type; data moves
// stay narrow. A result
// that only feeds another such op may stay in f32 (upstream marks the
// truncation and extension between them `contract`, and they fold), which
// docs/Spec.md's tolerances for compiled code allow; a value that is
// compared is rounded, so that it compares as its stored copy does. The
// conversions left (and those of the graph's casts) become inline integer
// code on vectors, rounding to nearest even. Named linalg ops that compute
// on a narrow float become generics first, whose bodies may change.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/Common/NarrowFloatEmulation.h"
#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace maxgraph {
#define GEN_PASS_DEF_EMULATENARROWFLOATS
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// Whether the pass computes on `type`'s elements in f32.
bool isEmulated(Type type) {
  return isa<BFloat16Type>(getElementTypeOrSelf(type)) ||
         maxgraph::isFloat8(type);
}

struct EmulateNarrowFloatsPass
    : maxgraph::impl::EmulateNarrowFloatsBase<EmulateNarrowFloatsPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // Integers that f32 does not hold exactly round once, through f64, and
    // f64 to bf16 once, by integer code (LLVM's own conversions of i32 to
    // bf16 go through f32, and of f64 call a function per lane).
    maxgraph::convertWideIntegersToNarrowFloats(getOperation());
    if (failed(maxgraph::expandTruncationsFromF64(getOperation())))
      return signalPassFailure();
    // A named linalg op that computes on narrow float buffers (a matmul tile
    // whose sizes are known only at run time, not vectorized) must keep its
    // named body; as a generic it may compute in f32 like the rest. Ops that
    // only move data (fill, copy, transpose) stay as they are.
    SmallVector<linalg::LinalgOp> named;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isa<linalg::GenericOp>(op) || op->getNumRegions() != 1 ||
          op->getRegion(0).empty())
        return;
      bool computesOnNarrowFloats =
          llvm::any_of(op->getRegion(0).front(), [](Operation &inner) {
            return llvm::any_of(inner.getOperandTypes(), isEmulated) &&
                   !isa<linalg::YieldOp>(inner);
          });
      if (computesOnNarrowFloats)
        named.push_back(op);
    });
    IRRewriter rewriter(context);
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      if (failed(linalg::generalizeNamedOp(rewriter, op)))
        return signalPassFailure();
    }
    TypeConverter converter;
    arith::populateEmulateUnsupportedFloatsConversions(
        converter,
        {BFloat16Type::get(context), Float8E4M3FNType::get(context),
         Float8E5M2Type::get(context)},
        Float32Type::get(context));
    // Buffers stay narrow: the values computed on are widened, not the memory
    // (an scf.if that picks one of two narrow buffers, as a run-time broadcast
    // does, would otherwise get f32 buffers and casts of whole buffers).
    converter.addConversion([](BaseMemRefType type) -> Type { return type; });
    converter.addSourceMaterialization([](OpBuilder &builder, Type type,
                                          ValueRange inputs, Location loc) {
      return arith::TruncFOp::create(builder, loc, type, inputs[0]).getResult();
    });
    RewritePatternSet patterns(context);
    arith::populateEmulateUnsupportedFloatsPatterns(patterns, converter);
    ConversionTarget target(*context);
    arith::populateEmulateUnsupportedFloatsLegality(target, converter);
    // Values that loops carry (a register tile's accumulator over K, a
    // row's partial sums) are carried in f32: LLVM would keep a bf16 value
    // in an f32 register and round it by a call on every iteration.
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    // Upstream's legality covers arith and vector's arithmetic; math too.
    target.addDynamicallyLegalDialect<math::MathDialect>(
        [&](Operation *op) -> std::optional<bool> {
          return converter.isLegal(op);
        });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    // A value that is compared is rounded to bf16 first, as the interpreter
    // rounds it. Upstream marks the truncation and extension between two
    // emulated ops `contract` so that they fold, and a value kept in f32
    // then differs from the same value stored and read back: a running
    // max compared its fresh f32 candidate with its own rounded copy, and
    // argmax broke ties the other way. Other values (a loop's accumulator)
    // may stay in f32.
    // An 8-bit float has so few digits that keeping a result in f32
    // between two ops would change results visibly: each op's result is
    // rounded to its type, as the interpreter rounds it.
    getOperation()->walk([](arith::ExtFOp extend) {
      if (!maxgraph::isFloat8(extend.getIn().getType()) &&
          llvm::none_of(extend->getUsers(), [](Operation *user) {
            return isa<arith::CmpFOp>(user);
          }))
        return;
      extend.setFastmath(arith::FastMathFlags::none);
      if (auto truncate = extend.getIn().getDefiningOp<arith::TruncFOp>())
        truncate.setFastmath(arith::FastMathFlags::none);
    });

    RewritePatternSet expand(context);
    arith::populateExpandBFloat16Patterns(expand);
    if (failed(applyPatternsGreedily(getOperation(), std::move(expand))) ||
        failed(maxgraph::expandFloat8Conversions(getOperation())))
      signalPassFailure();
  }
};
} // namespace
