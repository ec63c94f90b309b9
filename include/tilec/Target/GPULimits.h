//===- GPULimits.h - Kernel size limits of the GPU lowering -----*- C++ -*-===//
//
// What a kernel may ask of one thread before the GPU lowering refuses it
// with a diagnostic (lib/Conversion/TileToGPU/Limits.cpp); the driver's
// `--max-*` flags raise them, the GPU targets' options carry them.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_GPULIMITS_H
#define TILEC_TARGET_GPULIMITS_H

#include <cstdint>

namespace tilec {

/// Size limits checked on each kernel before anything is emitted (the
/// emitter unrolls fragments' elements and T.Parallel iterations per thread,
/// so a huge tile or a tiny thread count would take LLVM, ptxas or
/// SPIRV-Cross minutes and gigabytes). Each is raised by `--max-<name>`.
struct GPULimits {
  /// Elements one thread holds of one fragment (at least its elements over
  /// the block's threads) or of one local buffer: about 4x the 255 registers
  /// a CUDA thread has, the headroom for spilling.
  int64_t maxFragmentElements = 1024; ///< --max-fragment-elements
  /// Elements one thread holds of all its fragments together, in their
  /// layouts: LLVM's promotion of per-thread arrays to registers grows faster
  /// than linearly in them (a one-warp FlashAttention, 1,616 elements per
  /// thread, took 21 s in PromoteMemToReg; 808 elements, 6 s).
  int64_t maxThreadElements = 1280; ///< --max-thread-elements
  /// Operations one thread runs of a T.Parallel unrolled: its iterations per
  /// thread times the operations of its body.
  int64_t maxUnrolledOps = 65536; ///< --max-unrolled-ops
};

} // namespace tilec

#endif // TILEC_TARGET_GPULIMITS_H
