//===- LaunchLimits.h - The sizes every launcher rejects ---------*- C++ -*-===//
//
// The dimension checks the host and CUDA launchers share: a tensor argument
// whose byte size is over kMaxTensorBytes cannot exist in any address space
// the targets have, so its dimensions are bad (TILEC_ERROR_BAD_DIMENSION);
// below it, no element count, byte size or index of the kernel overflows
// int64. Launchers check, in this order: null tensor pointers
// (NULL_POINTER), dimensions <= 0 or over the limit (BAD_DIMENSION), then
// their target's own checks (alignment, grid limits) before any driver call.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_LAUNCHLIMITS_H
#define TILEC_TARGET_LAUNCHLIMITS_H

#include "tilec/Target/KernelABI.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace tilec {

/// 256 TiB: above x86-64 and AArch64 user space (2^47, 2^48 bytes) and the
/// device memory of any GPU.
constexpr uint64_t kMaxTensorBytes = uint64_t(1) << 48;

/// Bytes per element of a tensor dtype in memory (packed int4 counts 1, an
/// upper bound).
unsigned tensorElementBytes(llvm::StringRef dtype);

/// A tensor argument's size in terms a launcher evaluates: the product of its
/// static dimensions times the element bytes, and its other dimensions
/// (dynamic dimension arguments and derived dimensions, in shape order,
/// repeats kept). A derived dimension <= 0 is bad too.
struct TensorSizeTerms {
  uint64_t staticBytes = 1;
  bool staticTooBig = false; ///< the static part alone is over the limit
  llvm::SmallVector<const DimExpr *> dims;
};
TensorSizeTerms tensorSizeTerms(const KernelSignature &sig, unsigned tensorArg);

} // namespace tilec

#endif // TILEC_TARGET_LAUNCHLIMITS_H
