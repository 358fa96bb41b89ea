//===- EmulateBFloat16.cpp - maxgraph-emulate-bf16 ------------------------===//
//
// CPUs without AVX512-BF16 have no bf16 arithmetic, and LLVM legalizes each
// lane of a bf16 vector op into a call of __truncsfbf2: a bf16 matmul ran
// 230x slower than its f32 one. Here every op that computes on bf16
// (arith, math, and vector's contractions, reductions and FMAs) computes in
// f32 and rounds its result back to bf16; data moves stay bf16. A result
// that only feeds another such op may stay in f32 (upstream marks the
// truncation and extension between them `contract`, and they fold), which
// docs/Spec.md's tolerances for compiled code allow. The conversions left
// (and those of the graph's casts) become inline integer code on vectors,
// rounding to nearest even.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace maxgraph {
#define GEN_PASS_DEF_EMULATEBFLOAT16
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
struct EmulateBFloat16Pass
    : maxgraph::impl::EmulateBFloat16Base<EmulateBFloat16Pass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    TypeConverter converter;
    arith::populateEmulateUnsupportedFloatsConversions(
        converter, {BFloat16Type::get(context)}, Float32Type::get(context));
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

    RewritePatternSet expand(context);
    arith::populateExpandBFloat16Patterns(expand);
    if (failed(applyPatternsGreedily(getOperation(), std::move(expand))))
      signalPassFailure();
  }
};
} // namespace
