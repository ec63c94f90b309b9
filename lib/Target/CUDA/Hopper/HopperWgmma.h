//===- HopperWgmma.h - wgmma on descriptors of either major order -*- C++ -*-===//
//
// The 16-bit gemms that build their own descriptors (HopperPlan.h,
// ownDescriptors): wgmma.mma_async from shared memory with each operand K-major
// or MN-major, the order in the descriptor's strides and the instruction's
// transpose immediate; the accumulator an LLVM struct per 64-row block.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_TARGET_CUDA_HOPPER_HOPPERWGMMA_H
#define TILEC_LIB_TARGET_CUDA_HOPPER_HOPPERWGMMA_H

#include "HopperPlan.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace tilec::hopper {

/// A warpgroup's accumulator of `wgRows` x `blockN` f32: one struct of
/// blockN / 2 registers per 64-row block (wgmma's m64 fragment), in a struct.
mlir::LLVM::LLVMStructType accBlocksType(mlir::MLIRContext *ctx, int64_t wgRows, int64_t blockN);

/// The wgmma shared-memory matrix descriptor (i64) of a swizzled operand
/// tile at 32-bit shared address `addr` (aligned to its swizzle atom, plus
/// the K offset of a step): K-major (rows of `rowBytes` = 32, 64 or 128
/// bytes along K, swizzled as wide, 8-row groups 8 rows apart) or, with
/// `mnMajor`, MN-major (128-byte swizzle; boxes of 64 elements along M or N
/// and `kRows` rows along K, `kRows` x 128 bytes apart).
mlir::Value wgmmaDescriptor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value addr, bool mnMajor, int64_t kRows,
                            int64_t rowBytes);

/// One stage of the layout forms: `acc` (accBlocksType) += this warpgroup's
/// A rows at shared address `aAddr` times the B tile at `bAddr`, as one
/// wgmma.mma_async m64nNk16 per 16-deep K step and 64-row block, between a
/// fence and a commit, then a wait that leaves `wait` groups in flight.
mlir::Value wgmma16Stage(mlir::OpBuilder &b, mlir::Location loc, const HopperGemmPlan &p, mlir::Value acc,
                         mlir::Value aAddr, mlir::Value bAddr, int64_t wgRows, int64_t wait);

/// The epilogue of the layout forms: each thread's accumulator registers
/// (tid = the block's thread index) into the f32 scratch tile (blockM rows),
/// warpgroup w's rows at w * wgRows.
void storeAccBlocks(mlir::OpBuilder &b, mlir::Location loc, mlir::Value acc, mlir::Value scratch, mlir::Value tid,
                    int64_t wgRows, int64_t blockN);

} // namespace tilec::hopper

#endif // TILEC_LIB_TARGET_CUDA_HOPPER_HOPPERWGMMA_H
