//===- HopperPlan.h - The parts of a gemm kernel the Hopper path lowers -*- C++ -*-===//
//
// matchGemmKernel fills a HopperGemmPlan; the emitter (HopperGemm.cpp) reads it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_TARGET_CUDA_HOPPER_HOPPERPLAN_H
#define TILEC_LIB_TARGET_CUDA_HOPPER_HOPPERPLAN_H

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Target/CUDA/WarpSpecialization.h"
#include "tilec/Target/TargetInfo.h"

#include <optional>

namespace tilec::hopper {

/// One launch body of the supported shape:
///   fill(C_f, 0); for k pipelined { copy A -> A_s; copy B -> B_s;
///   gemm(A_s, B_s, C_f) }; copy C_f -> C.
/// or, fp8 only, the promoted form (DeepGEMM-style accumulation in f32
/// registers outside the wgmma accumulator):
///   fill(C_acc, 0); for k pipelined { copy A -> A_s; copy B -> B_s;
///   gemm(A_s, B_s, C_local, clear_accum); parallel(i, j) { C_acc[i, j] +=
///   C_local[i, j] } }; copy C_acc -> C.
/// Either form may end in `atomic_add(C[...], C_f)` instead of the copy
/// (split-K: the grid's third index picks a K slice in the loads' offsets;
/// the epilogue adds into C with red.global.add.noftz.f16x2 / .bf16x2).
struct HopperGemmPlan {
  tile::UseSwizzleOp swizzle; ///< optional block rasterization
  tile::FillOp fill;
  tile::ForOp loop;
  tile::CopyOp loadA, loadB;
  tile::GemmOp gemm;
  /// tile-lang's epilogue through shared memory: the copy of the
  /// accumulator into a shared tile that `store` then copies out (the
  /// emitter writes C from its own scratch tile, rounding once as well).
  tile::CopyOp stagedStore;
  tile::CopyOp store;      ///< the epilogue's copy of the accumulator, or
  tile::AtomicAddOp atomic; ///< its atomic add into C (f16/bf16 C only)
  /// The epilogue's op (store or atomic), its global tensor and offsets.
  mlir::Operation *epilogueOp() {
    return store ? store.getOperation() : atomic.getOperation();
  }
  mlir::Value outTensor() { return store ? store.getDst() : atomic.getDst(); }
  mlir::ValueRange outOffsets() { return store ? store.getDstOffsets() : atomic.getIndices(); }
  /// The promoted form: the T.Parallel adding the k tile's product (the
  /// gemm's C, cleared by each gemm) into the total (fill's buffer, stored).
  tile::ParallelOp promote;
  int64_t blockM = 0, blockN = 0, blockK = 0;
  int64_t elemBytes = 2;
  int64_t stages = 1;
  /// Consumer warpgroups (threads / 128); each owns blockM / warpgroups rows.
  int64_t warpgroups = 1;
  /// fp8 operands (e4m3/e5m2): B is N x K (transpose_B), both operands
  /// K-major in shared memory, one k32 wgmma per 32 bytes of K.
  bool fp8 = false;
  /// int8 operands: as fp8 (K-major, byte tiles, k32 steps), int32
  /// accumulator through nvvm.wgmma.mma_async (s32 += s8 * s8), int32 C.
  bool int8 = false;
  /// The gemm's transpose flags: A stored K x M (MN-major in shared memory),
  /// B stored N x K (K-major). 16-bit operands take all four forms; 8-bit
  /// ones only transpose_B.
  bool transA = false, transB = false;
  /// Both operands K-major byte tiles (fp8 or int8).
  bool kMajor() const { return fp8 || int8; }
  /// B's shared tile is N x K (one TMA box of blockN rows), not K x N
  /// (boxes of 64 columns).
  bool bKMajor() const { return transB; }
  /// 16-bit operands in a form other than A M x K, B K x N (NT, TN, TT), or
  /// in that form with a warpgroup tile nvgpu.warpgroup.mma.store does not
  /// place (matchShapes): nvvm.wgmma.mma_async on descriptors built here,
  /// the operands' major order in its transpose immediates, on an LLVM
  /// struct of f32 registers per 64-row block (HopperWgmma.h).
  bool ownDescriptors = false;
  /// The bytes of a K row of a K-major tile, blockK x elemBytes: its swizzle
  /// (128; 16-bit ownDescriptors also 64 or 32). MN-major tiles, in boxes of
  /// 64 elements, take the 128-byte swizzle.
  int64_t kRowBytes() const { return blockK * elemBytes; }
  /// Producer/consumer warp specialization (HopperWarpSpecialized.cpp): one
  /// warpgroup more than the consumers, after them (threads 128 W ..
  /// 128 W + 127), whose first warp's elected lane issues every TMA load
  /// behind the empty mbarriers; the consumers only wait on the full ones,
  /// run wgmma and release stages; setmaxnreg moves registers from the
  /// producer (kProducerRegs) to the consumers (consumerRegs()).
  bool warpSpecialized = false;
  /// Why not, when not (recorded as tilec.ws).
  const char *notWarpSpecialized = nullptr;
  /// The epilogue by TMA (--hopper-tma-store; HopperGemm.cpp, tmaStoreEpilogue):
  /// the converted tile into an unpadded shared tile of C's type, fenced for
  /// the async proxy, then one cp.async.bulk.tensor store of the box
  /// blockN x blockM (TMA drops what lies outside C: ragged M and N).
  bool tmaStore = false;
  /// Why not, when asked and not taken (recorded as tilec.epilogue).
  const char *notTMAStore = nullptr;
  /// Persistent (--hopper-persistent=on; HopperPersistent.cpp): a
  /// warp-specialized kernel whose grid is at most one wave of blocks
  /// (`persistentBlocksPerSM` per multiprocessor; the launcher asks the
  /// device for its multiprocessor count), each block looping over the output
  /// tiles blockIdx.x, blockIdx.x + gridDim.x, ...; the mbarrier ring runs on
  /// across tiles, and the epilogue's f32 tile lies after the stages so that
  /// the producer loads the next tile while the consumers store this one.
  bool persistent = false;
  /// Ping-pong (--hopper-persistent=pingpong; HopperPersistent.cpp): a
  /// persistent kernel of two consumer warpgroups, each computing whole tiles
  /// of the kernel's one-warpgroup tile (blockM x blockN, warpgroups = 1) on
  /// alternate tiles of the block's sequence; their wgmma loops take turns
  /// (named barriers 2 and 3), so that one's epilogue (from registers, no
  /// shared tile) runs under the other's loop. 16-bit operands on own
  /// descriptors; one stage ring shared by both, each stage released by the
  /// 128 threads of the warpgroup that read it.
  bool pingpong = false;
  /// The epilogue stores the accumulator's registers into C itself (GemmEmitter::storeFromRegisters): no
  /// f32 shared tile (ping-pong, and --hopper-persistent=on-registers).
  bool registerEpilogue = false;
  /// The consumer warpgroups of the block: two ping-pong, else warpgroups.
  int64_t consumerGroups() const { return pingpong ? 2 : warpgroups; }
  /// Why not, when asked and not taken (recorded as tilec.persistent).
  const char *notPersistent = nullptr;
  int64_t persistentBlocksPerSM = 1;
  /// The rows of the epilogue's f32 tile: blockM, or (persistent, where the
  /// whole tile does not fit beside the stages) one consumer warpgroup's,
  /// the epilogue then storing the warpgroups' rows one after the other.
  int64_t scratchRows = 0;
  int64_t epilogueRows() const { return scratchRows ? scratchRows : blockM; }
  int64_t epiloguePasses() const { return blockM / epilogueRows(); }
  /// The bytes of one stage (A and B tiles) and of the epilogue's f32 tile.
  int64_t stageBytes() const { return (blockM + blockN) * blockK * elemBytes; }
  int64_t scratchBytes() const { return registerEpilogue ? 0 : epilogueRows() * (blockN + 8) * 4; }
  /// The registers per thread a warp-specialized kernel's producer keeps.
  static constexpr int64_t kProducerRegs = 40;
  /// The kernel's .minnctapersm: 2 with one consumer warpgroup of at most
  /// 128 columns (two blocks of 256 threads fit a multiprocessor's registers,
  /// as two of the one-role form's 128 would), otherwise 1: ptxas checks each
  /// wgmma's operands against the entry count (an m64n256 one, 128
  /// accumulator registers, does not compile at 128: C7602).
  int64_t minBlocksPerSM() const { return consumerGroups() == 1 && blockN <= 128 ? 2 : 1; }
  /// The registers per thread ptxas gives every thread at entry under
  /// .maxntid and .minnctapersm: 65536 / (threads x blocks), rounded down to 8,
  /// at most 240 (128 for one consumer warpgroup of 128 columns, 240 for one
  /// of more, 168 for two).
  int64_t entryRegs() const { return std::min<int64_t>(240, 65536 / (blockThreads() * minBlocksPerSM()) / 8 * 8); }
  /// The registers the consumers raise theirs to: entry plus their share of
  /// what the producer releases into the block's pool (setmaxnreg.inc blocks
  /// until the pool has them), rounded down to 8, at most 240 (216 for one
  /// consumer warpgroup of 128 columns, 240 for one of more, 232 for two).
  int64_t consumerRegs() const {
    int64_t entry = entryRegs();
    return std::min<int64_t>(240, (entry + (entry - kProducerRegs) / consumerGroups()) / 8 * 8);
  }
  /// Threads per block the kernel is launched with.
  int64_t blockThreads() const { return 128 * (consumerGroups() + (warpSpecialized ? 1 : 0)); }
  /// The accumulator is an LLVM struct of registers fed to nvvm.wgmma.mma_async
  /// (int8, and fp8 promoted) rather than nvgpu's accumulator type.
  bool structAcc() const { return int8 || promote || ownDescriptors; }
};

/// float8_e4m3 / float8_e5m2.
bool isFp8(mlir::Type t);

/// The plan when `kernel`'s launch matches and `target` has warpgroup MMA;
/// otherwise nullopt, and `*whyNot` (when given) says why.
/// `ws` is --hopper-ws (the plan's warpSpecialized, notWarpSpecialized).
std::optional<HopperGemmPlan> matchGemmKernel(tile::KernelOp kernel, tile::LaunchOp launch, const TargetInfo &target,
                                              llvm::StringRef *whyNot = nullptr,
                                              HopperWarpSpecialization ws = HopperWarpSpecialization::Auto,
                                              bool tmaStore = false,
                                              HopperPersistence persistent = HopperPersistence::Off);

/// Records on the lowered kernel `func` (a gpu.func) what the Hopper path
/// made of a launch that has a T.gemm, as the string attribute
/// `tilec.wgmma` (seen with --emit=gpu): "wgmma <layout> <type> <blockM>x
/// <blockN>x<blockK> warpgroups <W> stages <S>" with `plan`, otherwise
/// "mma.sync: <whyNot>". Launches without a gemm get nothing. With `plan`,
/// also the string attribute `tilec.ws`: "producer warpgroup <W>, setmaxnreg
/// <producer>/<consumers>, <threads> threads, <B> blocks/SM" when warp-specialized,
/// otherwise "off: <why>".
void recordWgmmaDecision(mlir::Operation *func, tile::LaunchOp launch, const HopperGemmPlan *plan,
                         llvm::StringRef whyNot);

/// The name of that attribute.
inline constexpr llvm::StringLiteral kWgmmaDecisionAttr = "tilec.wgmma";
/// The name of the TMA-store decision's attribute (only with --hopper-tma-store).
inline constexpr llvm::StringLiteral kEpilogueDecisionAttr = "tilec.epilogue";
/// The name of the warp-specialization decision's attribute.
inline constexpr llvm::StringLiteral kWarpSpecializationAttr = "tilec.ws";
/// The name of the persistence decision's attribute (only with --hopper-persistent=on).
inline constexpr llvm::StringLiteral kPersistentDecisionAttr = "tilec.persistent";
/// The blocks per multiprocessor of a persistent kernel's grid (an i64 on the
/// gpu.func, read by the launcher: grid = min(tiles, SMs x this)).
inline constexpr llvm::StringLiteral kPersistentBlocksAttr = "tilec.persistent_blocks";

} // namespace tilec::hopper

#endif // TILEC_LIB_TARGET_CUDA_HOPPER_HOPPERPLAN_H
