//===- QuantizedLowering.cpp - dequantize and qmatmul to linalg -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// maxgraph.dequantize becomes a linalg.generic that decodes each value from
// its block's bytes (Quantization.h has the layout). maxgraph.qmatmul is a
// matmul of the lhs with the decoded rhs, transposed: on a GPU, and on the
// CPU for more than a few rows, the rhs is decoded into a [k, n] temporary
// that a linalg.matmul reads. A few rows (a decoder's step) read every
// weight byte once per row, so on the CPU they take a kernel that decodes
// each block in registers and multiplies it there, with no temporary: an
// scf.forall over tiles of rhs rows (the threads), the blocks of a row in
// vectors of 16 values.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "MaxGraph/Dialect/MaxGraph/IR/Quantization.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
/// Rows of the lhs up to which the CPU multiplies in registers.
constexpr int64_t kRegisterKernelRows = 8;
/// Rhs rows per thread-level tile of that kernel.
constexpr int64_t kRowsPerTile = 8;
/// Values per vector of that kernel: half a block.
constexpr int64_t kLanes = kQuantBlockValues / 2;

Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// Reads the blocks of `encoding` in `bytes`, a [rows, bytes] tensor, one
/// scalar (the generic's body) or half a block (the kernel) at a time.
struct BlockDecoder {
  QuantizationEncoding encoding;
  Value bytes;

  int64_t blockBytes() const { return quantBlockBytes(encoding); }

  /// The little-endian f16 at byte `at` of row `row`, as f32.
  Value scalarHalf(OpBuilder &b, Location loc, ValueRange row, Value at) const {
    auto byteAt = [&](Value index) {
      SmallVector<Value> indices(row);
      indices.push_back(index);
      Value byte = tensor::ExtractOp::create(b, loc, bytes, indices);
      return arith::ExtUIOp::create(b, loc, b.getI16Type(), byte);
    };
    Value low = byteAt(at);
    Value high =
        byteAt(arith::AddIOp::create(b, loc, at, indexConstant(b, loc, 1)));
    Value shifted = arith::ShLIOp::create(
        b, loc, high, arith::ConstantIntOp::create(b, loc, b.getI16Type(), 8));
    Value bits = arith::OrIOp::create(b, loc, shifted, low);
    Value half = arith::BitcastOp::create(b, loc, b.getF16Type(), bits);
    return arith::ExtFOp::create(b, loc, b.getF32Type(), half);
  }

  /// Value `k` of row `row` (the leading indices of `bytes`), as f32.
  Value scalarValue(OpBuilder &b, Location loc, ValueRange row, Value k) const {
    Value values = indexConstant(b, loc, kQuantBlockValues);
    Value block = arith::DivUIOp::create(b, loc, k, values);
    Value j = arith::RemUIOp::create(b, loc, k, values);
    Value base = arith::MulIOp::create(b, loc, block,
                                       indexConstant(b, loc, blockBytes()));
    Value d = scalarHalf(b, loc, row, base);
    Value codes = arith::AddIOp::create(
        b, loc, base, indexConstant(b, loc, quantCodesOffset(encoding)));
    auto byteAt = [&](Value index) {
      SmallVector<Value> indices(row);
      indices.push_back(arith::AddIOp::create(b, loc, codes, index));
      return tensor::ExtractOp::create(b, loc, bytes, indices).getResult();
    };
    Type f32 = b.getF32Type(), i8 = b.getI8Type();
    if (!isFourBit(encoding)) {
      Value code = arith::SIToFPOp::create(b, loc, f32, byteAt(j));
      return arith::MulFOp::create(b, loc, code, d);
    }
    Value half = indexConstant(b, loc, kLanes);
    Value byte = byteAt(arith::RemUIOp::create(b, loc, j, half));
    Value low = arith::AndIOp::create(
        b, loc, byte, arith::ConstantIntOp::create(b, loc, i8, 0xF));
    Value high = arith::ShRUIOp::create(
        b, loc, byte, arith::ConstantIntOp::create(b, loc, i8, 4));
    Value isLow =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, j, half);
    Value nibble = arith::SelectOp::create(b, loc, isLow, low, high);
    if (encoding == QuantizationEncoding::q4_0) {
      Value centered = arith::SubIOp::create(
          b, loc, nibble, arith::ConstantIntOp::create(b, loc, i8, 8));
      return arith::MulFOp::create(
          b, loc, arith::SIToFPOp::create(b, loc, f32, centered), d);
    }
    Value scaled = arith::MulFOp::create(
        b, loc, arith::UIToFPOp::create(b, loc, f32, nibble), d);
    Value minimum = scalarHalf(
        b, loc, row,
        arith::AddIOp::create(b, loc, base, indexConstant(b, loc, 2)));
    return arith::AddFOp::create(b, loc, scaled, minimum);
  }

  /// The f16 at byte `at` of row `row` of a [rows, bytes] tensor, as f32.
  Value vectorHalf(OpBuilder &b, Location loc, Value row, Value at) const {
    Value pair =
        transferRead(b, loc, VectorType::get({2}, b.getI8Type()), {row, at});
    Value half = vector::BitCastOp::create(
        b, loc, VectorType::get({1}, b.getF16Type()), pair);
    Value scalar =
        vector::ExtractOp::create(b, loc, half, ArrayRef<int64_t>{0});
    return arith::ExtFOp::create(b, loc, b.getF32Type(), scalar);
  }

  /// The 32 values of block `block` of row `row` as two vectors of 16.
  std::pair<Value, Value> vectorBlock(OpBuilder &b, Location loc, Value row,
                                      Value block) const {
    Value base = arith::MulIOp::create(b, loc, block,
                                       indexConstant(b, loc, blockBytes()));
    auto vectorType = VectorType::get({kLanes}, b.getF32Type());
    auto bytesType = VectorType::get({kLanes}, b.getI8Type());
    auto splat = [&](Value scalar) -> Value {
      return vector::BroadcastOp::create(b, loc, vectorType, scalar);
    };
    auto bytesAt = [&](int64_t offset) {
      Value at =
          arith::AddIOp::create(b, loc, base, indexConstant(b, loc, offset));
      return transferRead(b, loc, bytesType, {row, at});
    };
    Value d = splat(vectorHalf(b, loc, row, base));
    int64_t codes = quantCodesOffset(encoding);
    if (!isFourBit(encoding)) {
      auto decode = [&](int64_t offset) -> Value {
        Value code =
            arith::SIToFPOp::create(b, loc, vectorType, bytesAt(offset));
        return arith::MulFOp::create(b, loc, code, d);
      };
      return {decode(codes), decode(codes + kLanes)};
    }
    Value packed = bytesAt(codes);
    auto bytesSplat = [&](int64_t value) -> Value {
      return arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(bytesType, b.getI8IntegerAttr(value)));
    };
    Value nibbles[] = {arith::AndIOp::create(b, loc, packed, bytesSplat(0xF)),
                       arith::ShRUIOp::create(b, loc, packed, bytesSplat(4))};
    std::pair<Value, Value> values;
    Value minimum;
    if (encoding == QuantizationEncoding::q4_1)
      minimum = splat(vectorHalf(
          b, loc, row,
          arith::AddIOp::create(b, loc, base, indexConstant(b, loc, 2))));
    for (int half = 0; half < 2; ++half) {
      Value value;
      if (encoding == QuantizationEncoding::q4_0) {
        Value centered =
            arith::SubIOp::create(b, loc, nibbles[half], bytesSplat(8));
        value = arith::MulFOp::create(
            b, loc, arith::SIToFPOp::create(b, loc, vectorType, centered), d);
      } else {
        value = arith::AddFOp::create(
            b, loc,
            arith::MulFOp::create(
                b, loc,
                arith::UIToFPOp::create(b, loc, vectorType, nibbles[half]), d),
            minimum);
      }
      (half == 0 ? values.first : values.second) = value;
    }
    return values;
  }

  /// An in-bounds vector read of `source` at `indices`.
  static Value transferRead(OpBuilder &b, Location loc, VectorType type,
                            Value source, ValueRange indices) {
    Value padding =
        arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
    return vector::TransferReadOp::create(b, loc, type, source, indices,
                                          padding, ArrayRef<bool>{true});
  }
  Value transferRead(OpBuilder &b, Location loc, VectorType type,
                     ValueRange indices) const {
    return transferRead(b, loc, type, bytes, indices);
  }
};

/// `bytes` decoded to f32 as a tensor of `type`: [..., k] as the bytes'
/// rows, or, with `transposed` (a [rows, bytes] operand), [k, rows].
Value decodeAll(OpBuilder &b, Location loc, QuantizationEncoding encoding,
                Value bytes, RankedTensorType type, bool transposed) {
  // Only the rows' dims can be dynamic: the values of a row are not.
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      sizes.push_back(dimOf(b, loc, bytes, transposed ? 0 : d));
  Value init = createEmpty(b, loc, type, sizes);
  int64_t rank = type.getRank();
  auto map = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  BlockDecoder decoder{encoding, bytes};
  auto generic = linalg::GenericOp::create(
      b, loc, type, ValueRange{}, ValueRange{init}, ArrayRef<AffineMap>{map},
      iterators, [&](OpBuilder &nested, Location at, ValueRange) {
        SmallVector<Value> indices;
        for (int64_t d = 0; d < rank; ++d)
          indices.push_back(linalg::IndexOp::create(nested, at, d));
        if (transposed)
          std::swap(indices[0], indices[1]);
        Value k = indices.pop_back_val();
        linalg::YieldOp::create(nested, at,
                                decoder.scalarValue(nested, at, indices, k));
      });
  return generic.getResult(0);
}

/// `lhs` [rows, k] times the decoded rows of `bytes` [n, kb], into an
/// [rows, n] tensor of `type`, decoding each block in registers.
Value registerKernel(OpBuilder &b, Location loc, QuantizationEncoding encoding,
                     Value lhs, Value bytes, RankedTensorType type) {
  Value zeroIndex = indexConstant(b, loc, 0), one = indexConstant(b, loc, 1);
  Value rows = dimOf(b, loc, lhs, 0);
  Value n = dimOf(b, loc, bytes, 0);
  int64_t blocks =
      cast<RankedTensorType>(lhs.getType()).getDimSize(1) / kQuantBlockValues;
  SmallVector<Value> sizes;
  if (type.isDynamicDim(0))
    sizes.push_back(rows);
  if (type.isDynamicDim(1))
    sizes.push_back(n);
  Value init = createEmpty(b, loc, type, sizes);
  Value tile = indexConstant(b, loc, kRowsPerTile);
  Value tiles = arith::CeilDivUIOp::create(b, loc, n, tile);
  auto forall = scf::ForallOp::create(b, loc, ArrayRef<OpFoldResult>{tiles},
                                      ValueRange{init}, std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forall.getBody());
  Value first = arith::MulIOp::create(b, loc, forall.getInductionVar(0), tile);
  Value count = arith::MinUIOp::create(b, loc, tile,
                                       arith::SubIOp::create(b, loc, n, first));
  Value shared = forall.getRegionOutArgs()[0];
  auto tileType = RankedTensorType::get(
      {type.getDimSize(0), ShapedType::kDynamic}, type.getElementType());
  SmallVector<OpFoldResult> offsets = {b.getIndexAttr(0), first};
  OpFoldResult tileRows = rows;
  if (!type.isDynamicDim(0))
    tileRows = b.getIndexAttr(type.getDimSize(0));
  SmallVector<OpFoldResult> tileSizes = {tileRows, count};
  SmallVector<OpFoldResult> strides = {b.getIndexAttr(1), b.getIndexAttr(1)};
  Value outTile = tensor::ExtractSliceOp::create(b, loc, tileType, shared,
                                                 offsets, tileSizes, strides);
  auto vectorType = VectorType::get({kLanes}, b.getF32Type());
  BlockDecoder decoder{encoding, bytes};
  Value zeros = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(vectorType, b.getF32FloatAttr(0)));
  auto perRow = scf::ForOp::create(
      b, loc, zeroIndex, rows, one, ValueRange{outTile},
      [&](OpBuilder &rb, Location at, Value m, ValueRange rowArgs) {
        auto perColumn = scf::ForOp::create(
            rb, at, zeroIndex, count, one, ValueRange{rowArgs[0]},
            [&](OpBuilder &cb, Location at2, Value j, ValueRange colArgs) {
              Value row = arith::AddIOp::create(cb, at2, first, j);
              auto dot = scf::ForOp::create(
                  cb, at2, zeroIndex, indexConstant(cb, at2, blocks), one,
                  ValueRange{zeros, zeros},
                  [&](OpBuilder &kb, Location at3, Value block,
                      ValueRange sums) {
                    auto [low, high] = decoder.vectorBlock(kb, at3, row, block);
                    Value k = arith::MulIOp::create(
                        kb, at3, block,
                        indexConstant(kb, at3, kQuantBlockValues));
                    Value kHigh = arith::AddIOp::create(
                        kb, at3, k, indexConstant(kb, at3, kLanes));
                    Value xLow = BlockDecoder::transferRead(kb, at3, vectorType,
                                                            lhs, {m, k});
                    Value xHigh = BlockDecoder::transferRead(
                        kb, at3, vectorType, lhs, {m, kHigh});
                    Value sumLow =
                        vector::FMAOp::create(kb, at3, xLow, low, sums[0]);
                    Value sumHigh =
                        vector::FMAOp::create(kb, at3, xHigh, high, sums[1]);
                    scf::YieldOp::create(kb, at3, ValueRange{sumLow, sumHigh});
                  });
              Value both = arith::AddFOp::create(cb, at2, dot.getResult(0),
                                                 dot.getResult(1));
              Value sum = vector::ReductionOp::create(
                  cb, at2, vector::CombiningKind::ADD, both);
              Value updated = tensor::InsertOp::create(cb, at2, sum, colArgs[0],
                                                       ValueRange{m, j});
              scf::YieldOp::create(cb, at2, updated);
            });
        scf::YieldOp::create(rb, at, perColumn.getResult(0));
      });
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(b, loc, perRow.getResult(0), shared,
                                        offsets, tileSizes, strides);
  return forall.getResult(0);
}

/// `value` reshaped to the static or dynamic `shape` with `sizes`.
Value reshapeTo(OpBuilder &b, Location loc, Value value, RankedTensorType type,
                ArrayRef<Value> sizes) {
  Value shape = tensor::FromElementsOp::create(
      b, loc,
      RankedTensorType::get({static_cast<int64_t>(sizes.size())},
                            b.getIndexType()),
      sizes);
  return tensor::ReshapeOp::create(b, loc, type, value, shape);
}

struct DequantizeLowering : OpConversionPattern<DequantizeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op,
                       decodeAll(rewriter, op.getLoc(), op.getEncoding(),
                                 adaptor.getInput(), convertedResultType(op),
                                 /*transposed=*/false));
    return success();
  }
};

struct QMatmulLowering : OpConversionPattern<QMatmulOp> {
  QMatmulLowering(const TypeConverter &converter, MLIRContext *context,
                  bool registerKernels)
      : OpConversionPattern(converter, context),
        registerKernels(registerKernels) {}

  LogicalResult
  matchAndRewrite(QMatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = convertedResultType(op);
    Value lhs = adaptor.getLhs(), bytes = adaptor.getRhs();
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    auto bytesType = cast<RankedTensorType>(bytes.getType());
    int64_t rank = lhsType.getRank();
    int64_t k = bytesType.getDimSize(1) / quantBlockBytes(op.getEncoding()) *
                kQuantBlockValues;
    // The lhs as a matrix of rows, its k checked at run time where `?`.
    SmallVector<Value> resultSizes;
    Value rows;
    int64_t staticRows = 1;
    for (int64_t d = 0; d < rank - 1; ++d) {
      Value size = dimOf(rewriter, loc, lhs, d);
      resultSizes.push_back(size);
      rows = rows ? arith::MulIOp::create(rewriter, loc, rows, size) : size;
      staticRows = lhsType.isDynamicDim(d) || staticRows == ShapedType::kDynamic
                       ? ShapedType::kDynamic
                       : staticRows * lhsType.getDimSize(d);
    }
    Value n = dimOf(rewriter, loc, bytes, 0);
    resultSizes.push_back(n);
    Value lhsK = dimOf(rewriter, loc, lhs, rank - 1);
    auto matrixType = RankedTensorType::get(
        {staticRows, lhsType.getDimSize(rank - 1)}, lhsType.getElementType());
    Value matrix = reshapeTo(rewriter, loc, lhs, matrixType, {rows, lhsK});
    matrix = castToType(
        rewriter, loc, matrix,
        RankedTensorType::get({staticRows, k}, lhsType.getElementType()),
        "the contracted dim of operand 0");
    auto productType = RankedTensorType::get(
        {staticRows, type.getShape().back()}, type.getElementType());

    // Decoded into a temporary, then linalg.matmul's tiled code.
    auto viaTemporary = [&](OpBuilder &b, Location at) -> Value {
      auto decodedType = RankedTensorType::get({k, bytesType.getDimSize(0)},
                                               rewriter.getF32Type());
      Value decoded =
          decodeAll(b, at, op.getEncoding(), bytes, decodedType, true);
      SmallVector<Value> sizes;
      if (productType.isDynamicDim(0))
        sizes.push_back(rows);
      if (productType.isDynamicDim(1))
        sizes.push_back(n);
      Value zero =
          arith::ConstantOp::create(b, at, b.getF32FloatAttr(0)).getResult();
      Value init = createFilled(b, at, productType, sizes, zero);
      return linalg::MatmulOp::create(b, at, TypeRange{productType},
                                      ValueRange{matrix, decoded},
                                      ValueRange{init})
          .getResult(0);
    };
    Value product;
    if (!registerKernels) {
      product = viaTemporary(rewriter, loc);
    } else {
      Value few = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ule, rows,
          indexConstant(rewriter, loc, kRegisterKernelRows));
      auto choice = scf::IfOp::create(
          rewriter, loc, few,
          [&](OpBuilder &b, Location at) {
            scf::YieldOp::create(b, at,
                                 registerKernel(b, at, op.getEncoding(), matrix,
                                                bytes, productType));
          },
          [&](OpBuilder &b, Location at) {
            scf::YieldOp::create(b, at, viaTemporary(b, at));
          });
      product = choice.getResult(0);
    }
    rewriter.replaceOp(op,
                       reshapeTo(rewriter, loc, product, type, resultSizes));
    return success();
  }

  bool registerKernels;
};
} // namespace

void maxgraph::populateMaxGraphQuantizedToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    bool registerKernels) {
  patterns.add<DequantizeLowering>(converter, patterns.getContext());
  patterns.add<QMatmulLowering>(converter, patterns.getContext(),
                                registerKernels);
}
