//===- LayoutSVG.h - Pictures of the layouts a kernel's buffers take -*- C++ -*-===//
//
// `--emit=layout` writes one SVG document: a panel per buffer of every
// kernel (KernelLayouts), fragments as which thread / register holds each
// element, shared buffers as the bank group each 16-byte chunk lands in.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DRIVER_LAYOUTSVG_H
#define TILEC_DRIVER_LAYOUTSVG_H

#include "tilec/Target/KernelLayouts.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

namespace tilec {

/// Writes the SVG document of `kernels` (a note when no kernel has a
/// buffer with a layout) to `os`; `source` names the input in its title.
void renderLayoutSVG(llvm::ArrayRef<KernelLayouts> kernels, llvm::StringRef source, llvm::raw_ostream &os);

/// Worst bank conflict of reading one 16-byte column of a shared buffer
/// with 8 consecutive rows (as ldmatrix and 16-byte vector loads do): how
/// many of the 8 chunks share one 16-byte bank group (1: conflict-free).
int64_t sharedColumnReadWays(const BufferLayout &buffer);

} // namespace tilec

#endif // TILEC_DRIVER_LAYOUTSVG_H
