//===- PackWeights.cpp - weights in the layout the matmuls read -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `maxgraph-pack-weights` gives each weight argument that only matmuls
// read as B (directly, through a transpose, or through calls to bodies
// that do) the layout of B's packed panels, [N / Nr, K, Nr], so that the
// runtime packs it once, when it is bound, instead of every call packing
// it again. Which arguments it packed, and how, goes into the object code
// as the global `<entry>.packed_weights` for the runtime to read:
//
//   [1 (the format), count, then per argument: its index, Nr,
//    1 if the weight is W of B = W^T ([N, K]) else 0 (B itself, [K, N])]
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "MaxGraph/Codegen/LLVMCPU/TileSizes.h"
#include "MaxGraph/Dialect/MaxGraph/IR/WeightAttr.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"

namespace maxgraph {
#define GEN_PASS_DEF_PACKWEIGHTS
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;
using namespace maxgraph;

namespace {
/// A function argument that may be packed.
using Argument = std::pair<func::FuncOp, unsigned>;

/// How a weight argument is read: as B, or as W of B = W^T.
enum class Reading { AsB, AsTransposedW };

/// Whether `op` is a matmul with the default maps that reads `value` as B
/// and whose B fits tileMatmulToRegisterTiles' panels (whatever its M: a
/// weight is packed once, when it is bound).
bool readsAsPackedRhs(Operation *op, Value value,
                      const MatmulTileSizes &sizes) {
  auto matmul = dyn_cast<linalg::MatmulOp>(op);
  return matmul && matmul.hasPureTensorSemantics() &&
         matmul.getIndexingMapsArray() ==
             matmul.getDefaultIndexingMaps(op->getContext()) &&
         matmul.getDpsInputs()[1] == value &&
         matmul.getDpsInputs()[0] != value &&
         rhsFitsPanels(matmul.getStaticLoopRanges(), sizes);
}

struct PackWeightsPass : maxgraph::impl::PackWeightsBase<PackWeightsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *) override {
    CPUTarget pinned;
    pinned.vectorBits = vectorBits;
    pinned.vectorRegisters = vectorRegisters;
    pinned.l1CacheBytes = static_cast<int64_t>(l1CacheBytes);
    pinned.l2CacheBytes = static_cast<int64_t>(l2CacheBytes);
    pinned.cores = cores;
    sizes =
        chooseCPUTileSizes(pinned.withDefaultsFrom(getHostCPUTarget())).matmul;
    return success();
  }

  /// How every use of `argument` inside its function reads it, when all
  /// read it the same packable way: matmuls as B, transposes [1, 0] that
  /// only such matmuls read, and calls (whose callees are checked later).
  std::optional<Reading> localReading(Argument argument) {
    auto [function, index] = argument;
    Value value = function.getArgument(index);
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || type.getRank() != 2 || !type.hasStaticShape() ||
        !type.getElementType().isIntOrFloat() ||
        type.getElementTypeBitWidth() % 8 != 0)
      return std::nullopt;
    std::optional<Reading> reading;
    auto agree = [&](Reading each) {
      if (reading && *reading != each)
        return false;
      reading = each;
      return true;
    };
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isa<func::CallOp>(user))
        continue;
      if (readsAsPackedRhs(user, value, sizes)) {
        if (!agree(Reading::AsB))
          return std::nullopt;
        continue;
      }
      auto transpose = dyn_cast<linalg::TransposeOp>(user);
      if (!transpose || !transpose.hasPureTensorSemantics() ||
          transpose.getInput() != value ||
          transpose.getPermutation() != ArrayRef<int64_t>{1, 0} ||
          !agree(Reading::AsTransposedW))
        return std::nullopt;
      Value transposed = transpose->getResult(0);
      if (transposed.use_empty() ||
          llvm::any_of(transposed.getUsers(), [&](Operation *each) {
            return !readsAsPackedRhs(each, transposed, sizes);
          }))
        return std::nullopt;
    }
    // Only calls: the callees decide (a body may be all calls).
    return reading;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    func::FuncOp entry;
    for (auto function : module.getOps<func::FuncOp>())
      if (function->hasAttr("llvm.emit_c_interface") && !function.isExternal())
        entry = entry ? func::FuncOp() : function;
    if (!entry)
      return;

    // The calls of each function; a function referred to otherwise than by
    // calls is not changed.
    llvm::DenseMap<func::FuncOp, SmallVector<func::CallOp>> callsOf;
    llvm::DenseSet<func::FuncOp> unknownUses;
    for (auto function : module.getOps<func::FuncOp>()) {
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(function, module);
      if (!uses) {
        unknownUses.insert(function);
        continue;
      }
      for (const SymbolTable::SymbolUse &use : *uses) {
        auto call = dyn_cast<func::CallOp>(use.getUser());
        if (!call || call.getCallee() != function.getSymName())
          unknownUses.insert(function);
        else
          callsOf[function].push_back(call);
      }
    }

    // The candidates: weight arguments whose local uses agree, with their
    // reading (unknown while a function passes it on only).
    llvm::MapVector<Argument, std::optional<Reading>> candidates;
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isExternal() || unknownUses.contains(function) ||
          (function != entry && !callsOf.count(function)))
        continue;
      for (unsigned index = 0; index < function.getNumArguments(); ++index) {
        if (!function.getArgAttr(index, kWeightAttrName))
          continue;
        Argument argument{function, index};
        std::optional<Reading> reading = localReading(argument);
        bool onlyCalls = llvm::all_of(
            function.getArgument(index).getUsers(),
            [](Operation *user) { return isa<func::CallOp>(user); });
        if (reading || onlyCalls)
          candidates[argument] = reading;
      }
    }

    // Arguments that meet across calls must all be packed, and alike:
    // drop, until nothing changes, every candidate passed to a callee's
    // argument that is not one (or reads it otherwise), and every callee
    // argument some caller passes a non-candidate.
    auto calleeArgument = [&](func::CallOp call, unsigned operand) {
      return Argument{symbols.lookupNearestSymbolFrom<func::FuncOp>(
                          call, call.getCalleeAttr()),
                      operand};
    };
    bool changed = true;
    while (changed) {
      changed = false;
      for (auto &[argument, reading] : candidates) {
        auto [function, index] = argument;
        bool keep = true;
        auto meet = [&](Argument other) {
          auto found = candidates.find(other);
          if (found == candidates.end()) {
            keep = false;
            return;
          }
          if (!reading && found->second) {
            reading = found->second;
            changed = true;
          } else if (reading && found->second && *reading != *found->second) {
            keep = false;
          }
        };
        for (OpOperand &use : function.getArgument(index).getUses())
          if (auto call = dyn_cast<func::CallOp>(use.getOwner()))
            meet(calleeArgument(call, use.getOperandNumber()));
        if (function != entry)
          for (func::CallOp call : callsOf[function]) {
            auto passed = dyn_cast<BlockArgument>(call.getOperand(index));
            auto caller =
                passed
                    ? dyn_cast<func::FuncOp>(passed.getOwner()->getParentOp())
                    : func::FuncOp();
            if (!caller) {
              keep = false;
              break;
            }
            meet(Argument{caller, passed.getArgNumber()});
          }
        if (!keep) {
          candidates.erase(argument);
          changed = true;
          break;
        }
      }
    }
    // A chain of calls that no matmul reads learns no reading: left as is.
    candidates.remove_if([](const auto &each) { return !each.second; });
    if (candidates.empty())
      return;

    SmallVector<int64_t> record = {1, 0};
    for (auto &[argument, reading] : candidates) {
      pack(argument, *reading);
      if (argument.first == entry) {
        record.append({static_cast<int64_t>(argument.second), sizes.nr,
                       *reading == Reading::AsTransposedW ? 1 : 0});
        ++record[1];
      }
    }
    // The calls now pass panels: their function types follow the bodies'.
    for (auto function : module.getOps<func::FuncOp>())
      if (!function.isExternal())
        function.setType(FunctionType::get(
            &getContext(), function.getBody().getArgumentTypes(),
            function.getResultTypes()));
    if (record[1] == 0)
      return;
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    auto type = LLVM::LLVMArrayType::get(builder.getI64Type(), record.size());
    LLVM::GlobalOp::create(builder, entry.getLoc(), type, /*isConstant=*/true,
                           LLVM::Linkage::External,
                           (entry.getSymName() + ".packed_weights").str(),
                           builder.getI64TensorAttr(record));
  }

  /// Gives `argument` the type of B's panels and unpacks it at the top of
  /// its function for the matmuls (which slice the panels instead when
  /// they pack B: MatmulTiling.cpp); calls pass the panels on.
  void pack(Argument argument, Reading reading) {
    auto [function, index] = argument;
    BlockArgument value = function.getArgument(index);
    auto type = cast<RankedTensorType>(value.getType());
    bool transposed = reading == Reading::AsTransposedW;
    int64_t k = type.getDimSize(transposed ? 1 : 0),
            n = type.getDimSize(transposed ? 0 : 1), nr = sizes.nr;
    Type element = type.getElementType();
    Location loc = value.getLoc();
    value.setType(RankedTensorType::get({n / nr, k, nr}, element));
    // Passed on by calls alone: nothing to unpack here.
    if (llvm::all_of(value.getUsers(),
                     [](Operation *user) { return isa<func::CallOp>(user); }))
      return;
    OpBuilder builder(&getContext());
    builder.setInsertionPointToStart(&function.getBody().front());
    Value empty = tensor::EmptyOp::create(
        builder, loc, ArrayRef<int64_t>{k, n / nr, nr}, element);
    auto byColumns = linalg::TransposeOp::create(builder, loc, value, empty,
                                                 ArrayRef<int64_t>{1, 0, 2});
    Value b = tensor::CollapseShapeOp::create(
        builder, loc, RankedTensorType::get({k, n}, element),
        byColumns->getResult(0), ArrayRef<ReassociationIndices>{{0}, {1, 2}});
    for (OpOperand &use : llvm::make_early_inc_range(value.getUses())) {
      Operation *user = use.getOwner();
      if (user == byColumns || isa<func::CallOp>(user))
        continue;
      if (!transposed) {
        use.set(b);
        continue;
      }
      auto transpose = cast<linalg::TransposeOp>(user);
      transpose->getResult(0).replaceAllUsesWith(b);
      transpose->erase();
    }
  }

  MatmulTileSizes sizes;
};
} // namespace
