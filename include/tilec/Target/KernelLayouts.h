//===- KernelLayouts.h - The layouts the GPU lowering chose for a kernel -*- C++ -*-===//
//
// What `--emit=layout` draws: for every fragment of a kernel the element ->
// (thread, register) map, for every shared buffer its placement and XOR
// swizzle. Filled by collectKernelLayouts (the generic lowering's plans) or
// by a target's own path (TargetInfo::describeKernelLayouts).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_KERNELLAYOUTS_H
#define TILEC_TARGET_KERNELLAYOUTS_H

#include "tilec/Dialect/Tile/IR/FragmentLayout.h"

#include "llvm/ADT/SmallVector.h"

namespace mlir {
class Operation;
} // namespace mlir

#include <cstdint>
#include <string>
#include <vector>

namespace tilec {

/// One buffer of a kernel and where the lowering puts its elements.
struct BufferLayout {
  enum class Kind { Fragment, Shared };
  Kind kind = Kind::Fragment;
  std::string name;  ///< the source's name ("C_f"), or "buffer" when unknown
  std::string where; ///< "gemm.tile:17" (empty when unknown)
  llvm::SmallVector<int64_t> shape;
  std::string elementType; ///< "f16", "f32", ...
  int64_t elementBits = 32;
  std::string origin; ///< what chose the layout ("mma.sync m16n8 accumulator, 2 x 2 warps")
  /// Fragment: which thread and register hold each element.
  tile::FragmentLayout fragment;
  /// Shared: 16-byte chunks XOR-swizzled over `swizzleBytes` (0: none),
  /// rows wider than 128 bytes stored as boxes of `boxCols` columns (0:
  /// none), `stages` copies from byte `offset` of the shared window.
  int64_t swizzleBytes = 0, boxCols = 0, stages = 1, offset = 0;
};

/// The buffers of one kernel on one target.
struct KernelLayouts {
  std::string kernel;  ///< the kernel's symbol
  std::string target;  ///< "sm_90a", "vulkan1.1"
  std::string path;    ///< which lowering ("thread-level lowering", "TMA + wgmma")
  int64_t threads = 1; ///< threads per block
  int64_t warpSize = 32;
  std::vector<BufferLayout> buffers;
};

/// The name (its location's NameLoc), source place, shape and element type
/// of the buffer `alloc` allocates (a tile.alloc); the layout is the
/// caller's to fill.
BufferLayout describeBuffer(mlir::Operation *alloc);

} // namespace tilec

#endif // TILEC_TARGET_KERNELLAYOUTS_H
