//===- CollectiveLowering.cpp - in-process collectives and transfers ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Collectives between `cpu:N` devices run in-process: every device shares
// host memory, so allreduce is one elementwise reduction whose value every
// result takes, allgather a `tensor.concat`, reduce_scatter a reduction then
// one `tensor.extract_slice` per device, broadcast the root's operand.
// Signal buffers are ignored. Transfers between host devices are the
// identity.
//
// The SPMD collectives (`maxgraph.spmd_*`, one process's part) call the MPI
// layer of the runtime (MaxGraph/Runtime/MPI.h): `func.call` of the C entry
// `maxgraphMpi<Op>` with the aligned pointers of an identity-layout input
// buffer and a fresh result buffer, the sizes, the dtype and reduction codes
// and a constant list of the devices (world ranks) taking part, all i64. The
// entry returns a non-zero i32 after an MPI failure, which becomes a runtime
// check of the op.
//
// On a GPU (a part of a graph over several GPUs, each run by a host thread)
// the same calls go to the NCCL layer of the CUDA runtime
// (`maxgraphGpu<Op>`, MaxGraph/Runtime/CUDARuntime.h), which enqueues the
// collective on the stream: the declaration is marked `maxgraph.enqueues`
// (maxgraph-gpu-stream passes the host function's stream first) and the
// call lists in `maxgraph.device_pointers` which operands are device
// buffers' pointers, so that the buffers behind them are device memory. The
// list of devices stays a host constant.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "MaxGraph/Dialect/MaxGraph/IR/DTypeConversion.h"
#include "MaxGraph/Support/DType.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

/// The elementwise `kind` reduction of `inputs` (all of one type), in
/// operand order like the interpreter.
static Value reduceOperands(OpBuilder &b, Location loc, ValueRange inputs,
                            ReduceKind kind, Type original) {
  if (inputs.size() == 1)
    return inputs.front();
  auto type = cast<RankedTensorType>(inputs.front().getType());
  bool isFloat = isa<FloatType>(original), isSigned = isSignedInt(original);
  int64_t rank = type.getRank();
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              AffineMap::getMultiDimIdentityMap(rank, context));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value init =
      createEmpty(b, loc, type, dynamicSizesOf(b, loc, inputs.front()));
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, inputs, ValueRange{init}, maps, iterators,
             [&](OpBuilder &nb, Location at, ValueRange args) {
               Value total = args[0];
               for (Value x : args.drop_front().drop_back()) {
                 switch (kind) {
                 case ReduceKind::sum:
                   total =
                       isFloat
                           ? arith::AddFOp::create(nb, at, total, x).getResult()
                           : arith::AddIOp::create(nb, at, total, x)
                                 .getResult();
                   break;
                 case ReduceKind::prod:
                   total =
                       isFloat
                           ? arith::MulFOp::create(nb, at, total, x).getResult()
                           : arith::MulIOp::create(nb, at, total, x)
                                 .getResult();
                   break;
                 case ReduceKind::max:
                   total = isFloat ? arith::MaximumFOp::create(nb, at, total, x)
                                         .getResult()
                           : isSigned ? arith::MaxSIOp::create(nb, at, total, x)
                                            .getResult()
                                      : arith::MaxUIOp::create(nb, at, total, x)
                                            .getResult();
                   break;
                 case ReduceKind::min:
                   total = isFloat ? arith::MinimumFOp::create(nb, at, total, x)
                                         .getResult()
                           : isSigned ? arith::MinSIOp::create(nb, at, total, x)
                                            .getResult()
                                      : arith::MinUIOp::create(nb, at, total, x)
                                            .getResult();
                   break;
                 }
               }
               linalg::YieldOp::create(nb, at, total);
             })
      .getResult(0);
}

/// The maxgraph element type of operand 0 of `op`.
static Type originalElement(Operation *op) {
  return layoutOf(op->getOperand(0)).getElementType();
}

namespace {
/// A transfer between host devices is the identity.
struct TransferLowering : OpConversionPattern<TransferOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TransferOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

/// allreduce between host devices: one reduction that every result takes.
struct AllReduceLowering : OpConversionPattern<AllReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AllReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value total = reduceOperands(rewriter, op.getLoc(), adaptor.getInputs(),
                                 op.getKind(), originalElement(op));
    rewriter.replaceOp(op, SmallVector<Value>(op.getNumResults(), total));
    return success();
  }
};

/// allgather between host devices: one concatenation that every result
/// takes.
struct AllGatherLowering : OpConversionPattern<AllGatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AllGatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t rank = layoutOf(op.getResult(0)).getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    Value gathered = tensor::ConcatOp::create(
        rewriter, op.getLoc(), convertTensorType(layoutOf(op.getResult(0))),
        static_cast<uint64_t>(axis), adaptor.getInputs());
    rewriter.replaceOp(op, SmallVector<Value>(op.getNumResults(), gathered));
    return success();
  }
};

/// reduce_scatter between host devices: the reduction, then device `i`
/// takes slice `i` of the axis.
struct ReduceScatterLowering : OpConversionPattern<ReduceScatterOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReduceScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value total = reduceOperands(rewriter, loc, adaptor.getInputs(),
                                 op.getKind(), originalElement(op));
    auto totalType = cast<RankedTensorType>(total.getType());
    int64_t rank = totalType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    int64_t devices = op.getNumResults();
    RankedTensorType type = convertTensorType(layoutOf(op.getResult(0)));
    Value piece;
    Value count = arith::ConstantIndexOp::create(rewriter, loc, devices);
    if (type.isDynamicDim(axis))
      piece = arith::FloorDivSIOp::create(
          rewriter, loc, tensor::DimOp::create(rewriter, loc, total, axis),
          count);
    else
      piece =
          arith::ConstantIndexOp::create(rewriter, loc, type.getDimSize(axis));
    // An axis the verifier could not divide among the devices.
    Value ok = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
    if (totalType.isDynamicDim(axis)) {
      ok = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq,
          tensor::DimOp::create(rewriter, loc, total, axis),
          arith::MulIOp::create(rewriter, loc, piece, count));
      emitRuntimeCheck(rewriter, loc, ok, op,
                       "the axis does not split evenly into " + Twine(devices) +
                           " equal pieces");
    }
    SmallVector<Value> results;
    for (int64_t device = 0; device < devices; ++device) {
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
      offsets[axis] = arith::MulIOp::create(
                          rewriter, loc, piece,
                          arith::ConstantIndexOp::create(rewriter, loc, device))
                          .getResult();
      for (int64_t d = 0; d < rank; ++d) {
        if (!type.isDynamicDim(d))
          sizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
        else if (d == axis)
          sizes.push_back(piece);
        else
          sizes.push_back(
              tensor::DimOp::create(rewriter, loc, total, d).getResult());
      }
      results.push_back(guardedExtractSlice(rewriter, loc, ok, type, total,
                                            offsets, sizes, strides));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// broadcast between host devices: every result is the root's operand.
struct BroadcastLowering : OpConversionPattern<BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value root = adaptor.getInputs()[op.getRoot()];
    rewriter.replaceOp(op, SmallVector<Value>(op.getNumResults(), root));
    return success();
  }
};

/// The maxgraph::DType code of maxgraph element type `type` (-1: none).
int64_t dtypeCode(Type type) {
  std::optional<DType> dtype = tryFromMLIRType(type);
  return dtype ? static_cast<int64_t>(*dtype) : -1;
}

/// MaxGraph/Runtime/MPI.h's ReduceKind.
int64_t reduceCode(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::sum:
    return 0;
  case ReduceKind::max:
    return 1;
  case ReduceKind::min:
    return 2;
  case ReduceKind::prod:
    return 3;
  }
  return 0;
}

/// Lowers one SPMD collective to a call of the MPI layer.
template <typename OpTy> struct SpmdLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    RankedTensorType resultType = convertTensorType(layoutOf(op.getResult()));
    Type original = layoutOf(op.getInput()).getElementType();
    int64_t rank = inputType.getRank();
    int64_t elementBytes =
        std::max<int64_t>(1, inputType.getElementTypeBitWidth() / 8);

    // The input, contiguous.
    Value inputBuffer = bufferization::ToBufferOp::create(
        rewriter, loc,
        MemRefType::get(inputType.getShape(), inputType.getElementType()),
        input, /*read_only=*/true);
    // The result's sizes: the input's, the axis scaled.
    ArrayRef<int64_t> devices = op.getDevices();
    auto count = static_cast<int64_t>(devices.size());
    int64_t axis = 0;
    if constexpr (std::is_same_v<OpTy, SpmdAllGatherOp> ||
                  std::is_same_v<OpTy, SpmdReduceScatterOp>)
      axis = normalizeAxis(op.getAxis(), rank);
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < rank; ++d) {
      if (!resultType.isDynamicDim(d))
        continue;
      Value size = tensor::DimOp::create(rewriter, loc, input, d);
      Value n = arith::ConstantIndexOp::create(rewriter, loc, count);
      if constexpr (std::is_same_v<OpTy, SpmdAllGatherOp>)
        if (d == axis)
          size = arith::MulIOp::create(rewriter, loc, size, n);
      if constexpr (std::is_same_v<OpTy, SpmdReduceScatterOp>)
        if (d == axis)
          size = arith::FloorDivSIOp::create(rewriter, loc, size, n);
      sizes.push_back(size);
    }
    auto resultMemref =
        MemRefType::get(resultType.getShape(), resultType.getElementType());
    Value output = memref::AllocOp::create(rewriter, loc, resultMemref, sizes,
                                           rewriter.getI64IntegerAttr(64));
    // The devices taking part, a constant.
    auto ranksType = RankedTensorType::get({count}, rewriter.getI64Type());
    Value ranks = arith::ConstantOp::create(
        rewriter, loc, DenseIntElementsAttr::get(ranksType, devices));
    Value ranksBuffer = bufferization::ToBufferOp::create(
        rewriter, loc, MemRefType::get({count}, rewriter.getI64Type()), ranks,
        /*read_only=*/true);

    bool onGpu = layoutOf(op.getInput()).getDevice().isGpu();
    Value in = alignedPointerAsI64(rewriter, loc, inputBuffer);
    Value out = alignedPointerAsI64(rewriter, loc, output);
    Value ranksPointer = alignedPointerAsI64(rewriter, loc, ranksBuffer);
    Value numRanks = i64Constant(rewriter, loc, count);
    Value dtype = i64Constant(rewriter, loc, dtypeCode(original));
    SmallVector<int64_t> all = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    // The elements of the input's dims before `axis` (an i64 count of rows)
    // and from it on (an index: a row's elements), for the collectives
    // along an axis.
    auto rowsAndRowElements = [&]() -> std::pair<Value, Value> {
      ArrayRef<int64_t> dims(all);
      return {
          indexToI64(rewriter, loc,
                     sizeProduct(rewriter, loc, input, dims.take_front(axis))),
          sizeProduct(rewriter, loc, input, dims.drop_front(axis))};
    };
    SmallVector<Value> arguments;
    StringRef callee;
    if constexpr (std::is_same_v<OpTy, SpmdAllReduceOp>) {
      callee = "maxgraphMpiAllreduce";
      arguments = {
          in,
          out,
          indexToI64(rewriter, loc, sizeProduct(rewriter, loc, input, all)),
          dtype,
          i64Constant(rewriter, loc, reduceCode(op.getKind())),
          ranksPointer,
          numRanks};
    } else if constexpr (std::is_same_v<OpTy, SpmdAllGatherOp>) {
      callee = "maxgraphMpiAllgather";
      auto [rows, rowElements] = rowsAndRowElements();
      Value rowBytes = arith::MulIOp::create(
          rewriter, loc, rowElements,
          arith::ConstantIndexOp::create(rewriter, loc, elementBytes));
      arguments = {in,           out,
                   rows,         indexToI64(rewriter, loc, rowBytes),
                   ranksPointer, numRanks};
    } else if constexpr (std::is_same_v<OpTy, SpmdReduceScatterOp>) {
      callee = "maxgraphMpiReduceScatter";
      auto [rows, rowElements] = rowsAndRowElements();
      Value block = arith::FloorDivSIOp::create(
          rewriter, loc, rowElements,
          arith::ConstantIndexOp::create(rewriter, loc, count));
      arguments = {
          in,           out,
          rows,         indexToI64(rewriter, loc, block),
          dtype,        i64Constant(rewriter, loc, reduceCode(op.getKind())),
          ranksPointer, numRanks};
    } else {
      callee = "maxgraphMpiBroadcast";
      Value bytes = arith::MulIOp::create(
          rewriter, loc, sizeProduct(rewriter, loc, input, all),
          arith::ConstantIndexOp::create(rewriter, loc, elementBytes));
      arguments = {in,
                   out,
                   indexToI64(rewriter, loc, bytes),
                   i64Constant(rewriter, loc, op.getRoot()),
                   ranksPointer,
                   numRanks};
    }

    // On a GPU, the NCCL layer's entry of the same name and arguments.
    std::string entry =
        onGpu ? ("maxgraphGpu" + callee.substr(StringRef("maxgraphMpi").size()))
                    .str()
              : callee.str();
    callee = entry;

    func::FuncOp function = declareRuntimeEntry(
        rewriter, op, callee,
        rewriter.getFunctionType(
            SmallVector<Type>(arguments.size(), rewriter.getI64Type()),
            {rewriter.getI32Type()}));
    if (onGpu)
      function->setAttr(kEnqueuesAttr, rewriter.getUnitAttr());
    auto call = func::CallOp::create(rewriter, loc, function, arguments);
    if (onGpu)
      call->setAttr(kDevicePointersAttr, rewriter.getDenseI64ArrayAttr({0, 1}));
    Value ok = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, call.getResult(0),
        arith::ConstantIntOp::create(rewriter, loc, 0, 32));
    emitRuntimeCheck(
        rewriter, loc, ok, op,
        onGpu ? "the NCCL collective failed (the runtime reports why)"
              : "the MPI collective failed (the runtime reports why)");
    Value result = bufferization::ToTensorOp::create(rewriter, loc, resultType,
                                                     output, /*restrict=*/true,
                                                     /*writable=*/true);
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void maxgraph::populateMaxGraphCollectiveToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns
      .add<TransferLowering, AllReduceLowering, AllGatherLowering,
           ReduceScatterLowering, BroadcastLowering,
           SpmdLowering<SpmdAllReduceOp>, SpmdLowering<SpmdAllGatherOp>,
           SpmdLowering<SpmdReduceScatterOp>, SpmdLowering<SpmdBroadcastOp>>(
          converter, patterns.getContext());
}
