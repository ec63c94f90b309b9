//===- KernelLayouts.cpp - A buffer's description for --emit=layout -------===//
#include "tilec/Target/KernelLayouts.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace tilec;

BufferLayout tilec::describeBuffer(Operation *alloc) {
  BufferLayout b;
  b.name = "buffer";
  Location loc = alloc->getLoc();
  if (auto named = dyn_cast<NameLoc>(loc)) {
    b.name = named.getName().str();
    loc = named.getChildLoc();
  }
  if (auto file = dyn_cast<FileLineColRange>(loc))
    b.where = (llvm::sys::path::filename(file.getFilename().getValue()) + ":" + llvm::Twine(file.getStartLine())).str();
  auto type = cast<MemRefType>(alloc->getResult(0).getType());
  b.shape.assign(type.getShape().begin(), type.getShape().end());
  llvm::raw_string_ostream os(b.elementType);
  type.getElementType().print(os);
  b.elementBits = std::max<int64_t>(8, type.getElementTypeBitWidth());
  return b;
}
