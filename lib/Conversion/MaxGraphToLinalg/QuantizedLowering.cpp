//===- QuantizedLowering.cpp - dequantize and qmatmul to linalg -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// maxgraph.dequantize becomes a linalg.generic that decodes each value from
// its block's bytes (Quantization.h has the layout), or on the CPU, for
// rows of static length, an scf.forall that decodes them in vectors (the
// decode that qmatmul's temporary uses). maxgraph.qmatmul is a
// matmul of the lhs with the decoded rhs, transposed: on a GPU the generic
// decodes the rhs into a [k, n] temporary that a linalg.matmul reads; on
// the CPU, for more than a few rows, an scf.forall decodes it in vectors
// (then linalg.transpose). A few rows (a decoder's step) would decode
// every weight for little arithmetic, so on the CPU they take a kernel
// that decodes each block in registers and multiplies it there, with no
// temporary: an scf.forall over tiles of rhs rows (the threads), each rhs
// row read whole before the next, its blocks in vectors of 16 values
// (q4_1's minimum term against the blocks' sums of x, taken once per
// call). The kernels are emitted here,
// not in a CPU codegen pass, because they replace the op rather than
// schedule linalg; the `registerKernels` flag keeps them off GPUs.
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

  /// Block `block` of row `row` as the kernel reads it: the scale `d`,
  /// q4_1's minimum `m` (else null) and the 32 codes as two vectors of 16
  /// f32, q4_0's already less 8, so that value `j` is `d * c_j (+ m)`.
  struct VectorBlock {
    Value scale, minimum, low, high;
  };
  VectorBlock vectorBlock(OpBuilder &b, Location loc, Value row,
                          Value block) const {
    Value base = arith::MulIOp::create(b, loc, block,
                                       indexConstant(b, loc, blockBytes()));
    auto vectorType = VectorType::get({kLanes}, b.getF32Type());
    auto bytesType = VectorType::get({kLanes}, b.getI8Type());
    auto bytesAt = [&](int64_t offset) {
      Value at =
          arith::AddIOp::create(b, loc, base, indexConstant(b, loc, offset));
      return transferRead(b, loc, bytesType, {row, at});
    };
    VectorBlock result;
    int64_t codes = quantCodesOffset(encoding);
    if (encoding == QuantizationEncoding::q4_1) {
      // `d` and `m` are adjacent: one read, one conversion.
      Value pairs = transferRead(b, loc, VectorType::get({4}, b.getI8Type()),
                                 {row, base});
      Value halves = arith::ExtFOp::create(
          b, loc, VectorType::get({2}, b.getF32Type()),
          vector::BitCastOp::create(b, loc,
                                    VectorType::get({2}, b.getF16Type()), pairs)
              .getResult());
      result.scale =
          vector::ExtractOp::create(b, loc, halves, ArrayRef<int64_t>{0});
      result.minimum =
          vector::ExtractOp::create(b, loc, halves, ArrayRef<int64_t>{1});
    } else {
      result.scale = vectorHalf(b, loc, row, base);
    }
    if (!isFourBit(encoding)) {
      result.low = arith::SIToFPOp::create(b, loc, vectorType, bytesAt(codes));
      result.high =
          arith::SIToFPOp::create(b, loc, vectorType, bytesAt(codes + kLanes));
      return result;
    }
    // Nibbles split in 32-bit lanes: the widening folds into the load.
    auto wordsType = VectorType::get({kLanes}, b.getI32Type());
    Value packed = arith::ExtUIOp::create(b, loc, wordsType, bytesAt(codes));
    auto wordsSplat = [&](int64_t value) -> Value {
      return arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(wordsType, b.getI32IntegerAttr(value)));
    };
    Value nibbles[] = {arith::AndIOp::create(b, loc, packed, wordsSplat(0xF)),
                       arith::ShRUIOp::create(b, loc, packed, wordsSplat(4))};
    Value *halves[] = {&result.low, &result.high};
    for (int half = 0; half < 2; ++half) {
      Value code = nibbles[half];
      if (encoding == QuantizationEncoding::q4_0)
        code = arith::SubIOp::create(b, loc, code, wordsSplat(8));
      *halves[half] = arith::SIToFPOp::create(b, loc, vectorType, code);
    }
    return result;
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

/// An scf.forall over tiles of kRowsPerTile of the weight's `n` rows (the
/// threads' work) into `init`, with the builder left in its body: the
/// tile's first row and row count, and the shared output.
struct RowTiles {
  scf::ForallOp forall;
  Value first, count, shared;

  RowTiles(OpBuilder &b, Location loc, Value n, Value init) {
    Value tile = indexConstant(b, loc, kRowsPerTile);
    Value tiles = arith::CeilDivUIOp::create(b, loc, n, tile);
    forall = scf::ForallOp::create(b, loc, ArrayRef<OpFoldResult>{tiles},
                                   ValueRange{init}, std::nullopt);
    b.setInsertionPointToStart(forall.getBody());
    first = arith::MulIOp::create(b, loc, forall.getInductionVar(0), tile);
    count = arith::MinUIOp::create(b, loc, tile,
                                   arith::SubIOp::create(b, loc, n, first));
    shared = forall.getRegionOutArgs()[0];
  }

  /// Ends the body: `tile` goes to its window of the shared output.
  void insert(OpBuilder &b, Location loc, Value tile,
              ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes) {
    SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(b, loc, tile, shared, offsets, sizes,
                                          strides);
  }
};

/// The rows of `bytes` [n, kb] decoded in vectors into an [n, k] tensor of
/// `rowsType` (k static): an scf.forall over tiles of rows (the threads'
/// work), each row's blocks decoded half a block at a time.
Value vectorDecodeRows(OpBuilder &b, Location loc,
                       QuantizationEncoding encoding, Value bytes,
                       RankedTensorType rowsType) {
  Value zeroIndex = indexConstant(b, loc, 0), one = indexConstant(b, loc, 1);
  Value n = dimOf(b, loc, bytes, 0);
  int64_t k = rowsType.getDimSize(1);
  SmallVector<Value> sizes;
  if (rowsType.isDynamicDim(0))
    sizes.push_back(n);
  Value init = createEmpty(b, loc, rowsType, sizes);
  Value decodedRows;
  {
    OpBuilder::InsertionGuard guard(b);
    RowTiles tiles(b, loc, n, init);
    Value first = tiles.first, count = tiles.count;
    SmallVector<OpFoldResult> offsets = {first, b.getIndexAttr(0)};
    SmallVector<OpFoldResult> tileSizes = {count, b.getIndexAttr(k)};
    SmallVector<OpFoldResult> strides = {b.getIndexAttr(1), b.getIndexAttr(1)};
    auto tileType = RankedTensorType::get({ShapedType::kDynamic, k},
                                          rowsType.getElementType());
    Value outTile = tensor::ExtractSliceOp::create(
        b, loc, tileType, tiles.shared, offsets, tileSizes, strides);
    BlockDecoder decoder{encoding, bytes};
    auto vectorType = VectorType::get({kLanes}, b.getF32Type());
    auto perRow = scf::ForOp::create(
        b, loc, zeroIndex, count, one, ValueRange{outTile},
        [&](OpBuilder &rb, Location at, Value j, ValueRange rowArgs) {
          Value row = arith::AddIOp::create(rb, at, first, j);
          auto perBlock = scf::ForOp::create(
              rb, at, zeroIndex, indexConstant(rb, at, k / kQuantBlockValues),
              one, ValueRange{rowArgs[0]},
              [&](OpBuilder &kb, Location at2, Value block, ValueRange args) {
                BlockDecoder::VectorBlock codes =
                    decoder.vectorBlock(kb, at2, row, block);
                auto splat = [&](Value scalar) -> Value {
                  return vector::BroadcastOp::create(kb, at2, vectorType,
                                                     scalar);
                };
                Value into = args[0];
                Value column = arith::MulIOp::create(
                    kb, at2, block, indexConstant(kb, at2, kQuantBlockValues));
                for (Value half : {codes.low, codes.high}) {
                  // As the interpreter decodes: one multiply, one add.
                  Value value =
                      arith::MulFOp::create(kb, at2, half, splat(codes.scale));
                  if (codes.minimum)
                    value = arith::AddFOp::create(kb, at2, value,
                                                  splat(codes.minimum));
                  into = vector::TransferWriteOp::create(kb, at2, value, into,
                                                         ValueRange{j, column},
                                                         ArrayRef<bool>{true})
                             .getResult();
                  column = arith::AddIOp::create(
                      kb, at2, column, indexConstant(kb, at2, kLanes));
                }
                scf::YieldOp::create(kb, at2, into);
              });
          scf::YieldOp::create(rb, at, perBlock.getResult(0));
        });
    tiles.insert(b, loc, perRow.getResult(0), offsets, tileSizes);
    decodedRows = tiles.forall.getResult(0);
  }
  return decodedRows;
}

/// The rows of `bytes` [n, kb] decoded in vectors into a [k, n] tensor of
/// `type` (transposed for linalg.matmul's B): vectorDecodeRows, then a
/// transpose that the tiled code makes.
Value vectorDecodeTransposed(OpBuilder &b, Location loc,
                             QuantizationEncoding encoding, Value bytes,
                             RankedTensorType type) {
  auto rowsType = RankedTensorType::get(
      {type.getDimSize(1), type.getDimSize(0)}, type.getElementType());
  Value decodedRows = vectorDecodeRows(b, loc, encoding, bytes, rowsType);
  SmallVector<Value> transposedSizes;
  if (type.isDynamicDim(1))
    transposedSizes.push_back(dimOf(b, loc, bytes, 0));
  Value transposed = createEmpty(b, loc, type, transposedSizes);
  return linalg::TransposeOp::create(b, loc, decodedRows, transposed,
                                     ArrayRef<int64_t>{1, 0})
      .getResult()[0];
}

/// The sums of each block of 32 values of `lhs` [rows, blocks * 32], as a
/// [rows, blocks] tensor: a reduction over the block's values.
Value sumBlocks(OpBuilder &b, Location loc, Value lhs, Value rows,
                int64_t blocks) {
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  int64_t staticRows = lhsType.getDimSize(0);
  Type f32 = b.getF32Type();
  auto expandedType =
      RankedTensorType::get({staticRows, blocks, kQuantBlockValues}, f32);
  OpFoldResult rowCount = rows;
  if (!ShapedType::isDynamic(staticRows))
    rowCount = b.getIndexAttr(staticRows);
  SmallVector<OpFoldResult> shape = {rowCount, b.getIndexAttr(blocks),
                                     b.getIndexAttr(kQuantBlockValues)};
  Value expanded = tensor::ExpandShapeOp::create(
      b, loc, expandedType, lhs, ArrayRef<ReassociationIndices>{{0}, {1, 2}},
      shape);
  auto sumsType = RankedTensorType::get({staticRows, blocks}, f32);
  SmallVector<Value> sizes;
  if (sumsType.isDynamicDim(0))
    sizes.push_back(rows);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  Value init = createFilled(b, loc, sumsType, sizes, zero);
  MLIRContext *context = b.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(3, context);
  AffineMap rowsAndBlocks = AffineMap::get(
      3, 0, {b.getAffineDimExpr(0), b.getAffineDimExpr(1)}, context);
  return linalg::GenericOp::create(
             b, loc, sumsType, ValueRange{expanded}, ValueRange{init},
             ArrayRef<AffineMap>{identity, rowsAndBlocks},
             ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                           utils::IteratorType::parallel,
                                           utils::IteratorType::reduction},
             [](OpBuilder &nested, Location at, ValueRange args) {
               linalg::YieldOp::create(
                   nested, at,
                   arith::AddFOp::create(nested, at, args[0], args[1])
                       .getResult());
             })
      .getResult(0);
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
  OpBuilder::InsertionGuard guard(b);
  RowTiles tiles(b, loc, n, init);
  Value first = tiles.first, count = tiles.count;
  auto tileType = RankedTensorType::get(
      {type.getDimSize(0), ShapedType::kDynamic}, type.getElementType());
  SmallVector<OpFoldResult> offsets = {b.getIndexAttr(0), first};
  OpFoldResult tileRows = rows;
  if (!type.isDynamicDim(0))
    tileRows = b.getIndexAttr(type.getDimSize(0));
  SmallVector<OpFoldResult> tileSizes = {tileRows, count};
  SmallVector<OpFoldResult> strides = {b.getIndexAttr(1), b.getIndexAttr(1)};
  Value outTile = tensor::ExtractSliceOp::create(b, loc, tileType, tiles.shared,
                                                 offsets, tileSizes, strides);
  auto vectorType = VectorType::get({kLanes}, b.getF32Type());
  BlockDecoder decoder{encoding, bytes};
  Value zeros = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(vectorType, b.getF32FloatAttr(0)));
  Value numBlocks = indexConstant(b, loc, blocks);
  // q4_1's minimum term needs each block's sum of x, the same for every
  // rhs row: [rows, blocks], summed once here.
  bool hasMinimum = encoding == QuantizationEncoding::q4_1;
  Value blockSums;
  if (hasMinimum) {
    OpBuilder::InsertionGuard outside(b);
    b.setInsertionPoint(tiles.forall);
    blockSums = sumBlocks(b, loc, lhs, rows, blocks);
  }
  // The dot product of lhs row `m` with rhs row `row`: per block,
  // `d * (x . c)` into a vector accumulator and, for q4_1, `m * sum(x)`
  // into a scalar one.
  auto dot = [&](OpBuilder &rb, Location at, Value m, Value row) {
    SmallVector<Value> inits = {zeros};
    if (hasMinimum)
      inits.push_back(arith::ConstantOp::create(rb, at, rb.getF32FloatAttr(0)));
    auto loop = scf::ForOp::create(
        rb, at, zeroIndex, numBlocks, one, inits,
        [&](OpBuilder &kb, Location at2, Value block, ValueRange sums) {
          Value k = arith::MulIOp::create(
              kb, at2, block, indexConstant(kb, at2, kQuantBlockValues));
          Value kHigh =
              arith::AddIOp::create(kb, at2, k, indexConstant(kb, at2, kLanes));
          Value xLow =
              BlockDecoder::transferRead(kb, at2, vectorType, lhs, {m, k});
          Value xHigh =
              BlockDecoder::transferRead(kb, at2, vectorType, lhs, {m, kHigh});
          BlockDecoder::VectorBlock codes =
              decoder.vectorBlock(kb, at2, row, block);
          Value products = vector::FMAOp::create(
              kb, at2, xHigh, codes.high,
              arith::MulFOp::create(kb, at2, xLow, codes.low));
          Value scale =
              vector::BroadcastOp::create(kb, at2, vectorType, codes.scale);
          SmallVector<Value> updated = {
              vector::FMAOp::create(kb, at2, scale, products, sums[0])};
          if (hasMinimum) {
            Value sum = tensor::ExtractOp::create(kb, at2, blockSums,
                                                  ValueRange{m, block});
            updated.push_back(arith::AddFOp::create(
                kb, at2, sums[1],
                arith::MulFOp::create(kb, at2, codes.minimum, sum)));
          }
          scf::YieldOp::create(kb, at2, updated);
        });
    Value total = vector::ReductionOp::create(
        rb, at, vector::CombiningKind::ADD, loop.getResult(0));
    if (hasMinimum)
      total = arith::AddFOp::create(rb, at, total, loop.getResult(1));
    return total;
  };
  // Each rhs row is read whole before the next, so that the weights stream
  // through memory in order: dot products of several rows interleaved read
  // as many streams, each a few cache lines long, which the hardware
  // prefetchers follow badly (4 rows at once read a Q8_0 [49152, 576]
  // matrix at a fifth of the speed).
  auto perRow = scf::ForOp::create(
      b, loc, zeroIndex, rows, one, ValueRange{outTile},
      [&](OpBuilder &rb, Location at, Value m, ValueRange rowArgs) {
        auto perColumn = scf::ForOp::create(
            rb, at, zeroIndex, count, one, ValueRange{rowArgs[0]},
            [&](OpBuilder &cb, Location at2, Value j, ValueRange args) {
              Value row = arith::AddIOp::create(cb, at2, first, j);
              Value into = tensor::InsertOp::create(
                  cb, at2, dot(cb, at2, m, row), args[0], ValueRange{m, j});
              scf::YieldOp::create(cb, at2, into);
            });
        scf::YieldOp::create(rb, at, perColumn.getResult(0));
      });
  tiles.insert(b, loc, perRow.getResult(0), offsets, tileSizes);
  return tiles.forall.getResult(0);
}

struct DequantizeLowering : OpConversionPattern<DequantizeOp> {
  DequantizeLowering(const TypeConverter &converter, MLIRContext *context,
                     bool registerKernels)
      : OpConversionPattern(converter, context),
        registerKernels(registerKernels) {}

  LogicalResult
  matchAndRewrite(DequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = convertedResultType(op);
    Value input = adaptor.getInput();
    // On the CPU, rows of static length decode half a block per vector:
    // the scalar generic reads each value's scale again (SmolLM2's Q4_1
    // [1536, 576] weight: 0.81 ms that way, 0.04 ms in vectors).
    if (registerKernels && type.getRank() == 2 && !type.isDynamicDim(1)) {
      rewriter.replaceOp(op, vectorDecodeRows(rewriter, op.getLoc(),
                                              op.getEncoding(), input, type));
      return success();
    }
    rewriter.replaceOp(op, decodeAll(rewriter, op.getLoc(), op.getEncoding(),
                                     input, type, /*transposed=*/false));
    return success();
  }

  bool registerKernels;
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
    Value matrix =
        reshapeUnlessSameRank(rewriter, loc, lhs, matrixType, {rows, lhsK});
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
          registerKernels
              ? vectorDecodeTransposed(b, at, op.getEncoding(), bytes,
                                       decodedType)
              : decodeAll(b, at, op.getEncoding(), bytes, decodedType, true);
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
    rewriter.replaceOp(
        op, reshapeUnlessSameRank(rewriter, loc, product, type, resultSizes));
    return success();
  }

  bool registerKernels;
};
} // namespace

void maxgraph::populateMaxGraphQuantizedToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    bool registerKernels) {
  patterns.add<DequantizeLowering>(converter, patterns.getContext(),
                                   registerKernels);
  patterns.add<QMatmulLowering>(converter, patterns.getContext(),
                                registerKernels);
}
