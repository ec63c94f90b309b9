//===- CUDATarget.h - The NVIDIA (sm_80 ... sm_90a) target ------*- C++ -*-===//
//
// tile dialect -> thread-level gpu/nvgpu/nvvm -> LLVM NVPTX -> PTX (in
// process) -> cubin (ptxas) -> fatbin (fatbinary) -> x86-64 object holding
// the fatbin and one driver-API launcher per kernel, plus the C header.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_CUDA_CUDATARGET_H
#define TILEC_TARGET_CUDA_CUDATARGET_H

#include "tilec/Target/Backend.h"
#include "tilec/Target/CUDA/WarpSpecialization.h"
#include "tilec/Target/GPULimits.h"

#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace tilec {

/// What a CUDA compile needs besides the module.
struct CUDATargetOptions {
  /// The architectures, in `-target=` order ("sm_80", "sm_90a", ...); more
  /// than one makes a fatbin per distinct lowering. Empty: sm_80.
  std::vector<std::string> archs;
  /// The toolkit root for ptxas and fatbinary; empty: CUDA_PATH, then
  /// /usr/local/cuda.
  std::string cudaPath;
  /// clang++ for T.import_source's code (T.call_extern); empty: LLVM's bin
  /// directory, then PATH.
  std::string clang;
  /// The default stage links a shared library instead of an object.
  bool shared = false;
  /// Where the command line of every tool run (ptxas, fatbinary, the
  /// linker) and the toolkit tools' own output go when they succeed (`-v`;
  /// null: kept quiet; the output is shown with a failure either way).
  llvm::raw_ostream *toolLog = nullptr;
  /// `--resource-usage`: one line per kernel and arch (registers, shared
  /// memory, stack, spills) goes here; null: none.
  llvm::raw_ostream *resourceLog = nullptr;
  /// `-g` / `-lineinfo`: `.file`/`.loc` in the PTX, ptxas -lineinfo, DWARF
  /// line tables in the host object.
  DebugInfoLevel debugInfo = DebugInfoLevel::None;
  /// `-Xptxas`: more options for every ptxas run, after tilec's own.
  std::vector<std::string> ptxasOptions;
  /// Size limits checked before the lowering (`--max-*`).
  GPULimits limits;
  /// `--hopper-ws`: warp specialization of the sm_90a wgmma gemm loop.
  HopperWarpSpecialization warpSpecialization = HopperWarpSpecialization::Auto;
  /// `--hopper-tma-store`: the sm_90a wgmma gemm's epilogue by TMA stores.
  bool tmaStore = false;
  /// `--hopper-persistent`: the warp-specialized wgmma gemm loops over output tiles.
  HopperPersistence persistent = HopperPersistence::Auto;
};

/// The CUDA target in the registry: `-target=sm_80` ... `sm_90a` or a comma
/// list of them; header | gpu | llvm | ptx | cubin | fatbin | asm | obj.
const TargetDescription &getCUDATargetDescription();

/// The CUDA backend under `options`.
std::unique_ptr<TargetBackend> createCUDABackend(const CUDATargetOptions &options);

} // namespace tilec

#endif // TILEC_TARGET_CUDA_CUDATARGET_H
