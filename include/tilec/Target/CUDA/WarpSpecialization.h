//===- WarpSpecialization.h - --hopper-ws: the wgmma loop's roles -*- C++ -*-===//
//
// Whether the sm_90a wgmma gemm loop is warp-specialized (a producer
// warpgroup issuing the TMA loads, consumer warpgroups running wgmma), as
// `tilec --hopper-ws=` asks; hopper::matchGemmKernel decides and records why.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_CUDA_WARPSPECIALIZATION_H
#define TILEC_TARGET_CUDA_WARPSPECIALIZATION_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace tilec {

/// `--hopper-ws=auto|on|off`.
enum class HopperWarpSpecialization {
  Auto, ///< the compiler's choice (HopperMatch.cpp, decideWarpSpecialization)
  On,   ///< every loop the producer/consumer form covers
  Off,  ///< never: one role per thread (the producer is an elected lane)
};

/// The mode spelled `text` ("auto", "on", "off"); nullopt for anything else.
inline std::optional<HopperWarpSpecialization> parseHopperWarpSpecialization(llvm::StringRef text) {
  if (text == "auto")
    return HopperWarpSpecialization::Auto;
  if (text == "on")
    return HopperWarpSpecialization::On;
  if (text == "off")
    return HopperWarpSpecialization::Off;
  return std::nullopt;
}

/// `--hopper-persistent=auto|on|off|pingpong`.
enum class HopperPersistence {
  Auto,        ///< the compiler's choice (HopperMatch.cpp, decidePersistence)
  On,          ///< the warp-specialized loop over output tiles (cooperative consumers)
  Off,         ///< one output tile per block
  Pingpong,    ///< two consumer warpgroups on alternate output tiles (HopperPersistent.cpp)
  OnRegisters, ///< On, the epilogue storing from registers (no f32 shared tile; 16-bit operands)
};

/// The mode spelled `text`; nullopt for anything else.
inline std::optional<HopperPersistence> parseHopperPersistence(llvm::StringRef text) {
  if (text == "auto")
    return HopperPersistence::Auto;
  if (text == "on")
    return HopperPersistence::On;
  if (text == "off")
    return HopperPersistence::Off;
  if (text == "pingpong")
    return HopperPersistence::Pingpong;
  if (text == "on-registers")
    return HopperPersistence::OnRegisters;
  return std::nullopt;
}

} // namespace tilec

#endif // TILEC_TARGET_CUDA_WARPSPECIALIZATION_H
