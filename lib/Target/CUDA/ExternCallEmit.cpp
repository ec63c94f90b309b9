//===- ExternCallEmit.cpp - T.call_extern as a call of its wrapper --------===//
//
// CUDATargetInfo::emitExternCall: one extern "C" wrapper per distinct call
// signature (extern, C++ argument types, result type) in the gpu.module, an
// llvm.func declaration carrying what compileExterns (ExternCode.cpp) needs
// to write it; pointer arguments as generic pointers to the element (shared
// and global addresses cast from their address spaces).
//
//===----------------------------------------------------------------------===//
#include "ExternCode.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Target/CUDA/CUDATargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace tilec;

/// NVPTX's address space of a thread-level memref (private memory: generic).
static unsigned addressSpaceOf(MemRefType type) {
  if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace())) {
    switch (gpuSpace.getValue()) {
    case gpu::AddressSpace::Global:
      return static_cast<unsigned>(NVVM::NVVMMemorySpace::Global);
    case gpu::AddressSpace::Workgroup:
      return static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared);
    case gpu::AddressSpace::Private:
      return 0;
    }
  }
  if (auto n = dyn_cast_or_null<IntegerAttr>(type.getMemorySpace()))
    return n.getInt();
  return 0;
}

/// A generic pointer to `buffer[indices]`: the aligned base in its address
/// space (inttoptr of extract_aligned_pointer_as_index, which LLVM folds back
/// to the pointer), a byte GEP, an addrspacecast.
static Value elementPointer(OpBuilder &b, Location loc, Value buffer, ArrayRef<Value> indices) {
  auto type = cast<MemRefType>(buffer.getType());
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  Value linear = meta.getOffset();
  for (auto [d, index] : llvm::enumerate(indices))
    linear = arith::AddIOp::create(b, loc, linear, arith::MulIOp::create(b, loc, index, meta.getStrides()[d]));
  int64_t bytes = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  Value byteOffset = arith::MulIOp::create(b, loc, linear, arith::ConstantIndexOp::create(b, loc, bytes));
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  Type i64 = b.getI64Type();
  unsigned space = addressSpaceOf(type);
  auto spacePtr = LLVM::LLVMPointerType::get(b.getContext(), space);
  Value base64 = arith::IndexCastOp::create(b, loc, i64, base);
  Value offset64 = arith::IndexCastOp::create(b, loc, i64, byteOffset);
  Value p = LLVM::IntToPtrOp::create(b, loc, spacePtr, base64);
  p = LLVM::GEPOp::create(b, loc, spacePtr, b.getI8Type(), p, ValueRange{offset64});
  if (space != 0)
    p = LLVM::AddrSpaceCastOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), p);
  return p;
}

/// The wrapper's name: `__tilec_extern_<callee>_<n>` (callee's identifier characters).
static std::string wrapperName(llvm::StringRef callee, unsigned n) {
  std::string name = "__tilec_extern_";
  for (char c : callee)
    name += llvm::isAlnum(c) || c == '_' ? c : '_';
  return name + "_" + std::to_string(n);
}

FailureOr<Value> CUDATargetInfo::emitExternCall(OpBuilder &b, tile::CallExternOp call,
                                                ArrayRef<ExternCallArg> args) const {
  Location loc = call.getLoc();
  MLIRContext *ctx = b.getContext();
  auto gpuModule = b.getInsertionBlock()->getParentOp()->getParentOfType<gpu::GPUModuleOp>();
  if (!gpuModule)
    return call.emitOpError("is not inside a gpu.module");
  llvm::SmallVector<Type> params;
  llvm::SmallVector<Value> operands;
  for (auto [a, ctype] : llvm::zip(args, call.getArgCtypes())) {
    if (a.buffer) {
      operands.push_back(elementPointer(b, loc, a.buffer, a.indices));
      params.push_back(operands.back().getType());
      continue;
    }
    Value v = a.value;
    if (v.getType().isIndex())
      v = arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
    if (isa<Float8E4M3FNType, Float8E5M2Type>(v.getType()) || !v.getType().isIntOrFloat())
      return call.emitError() << "T.call_extern of '" << call.getCallee() << "' takes a "
                              << cast<StringAttr>(ctype).getValue() << " by value, which tilec cannot pass yet; "
                              << "pass a pointer to it (T.address_of)";
    params.push_back(v.getType());
    operands.push_back(v);
  }
  Type result = call.getResult() ? call.getResult().getType() : Type();
  if (result && isa<Float8E4M3FNType, Float8E5M2Type>(result))
    return call.emitError() << "T.call_extern of '" << call.getCallee()
                            << "' returns an fp8 value, which tilec cannot take yet; let it write through a pointer";

  // One wrapper per signature; a second kernel's call adds its sources.
  LLVM::LLVMFuncOp wrapper;
  unsigned count = 0;
  for (auto fn : gpuModule.getOps<LLVM::LLVMFuncOp>()) {
    auto info = fn->getAttrOfType<DictionaryAttr>(kExternWrapperAttr);
    if (!info)
      continue;
    ++count;
    if (info.get("callee") == call.getCalleeAttr() && info.get("params") == call.getArgCtypesAttr() &&
        info.get("result") == call.getResultCtypeAttr())
      wrapper = fn;
  }
  llvm::SmallVector<Attribute> sources(call.getSources().begin(), call.getSources().end());
  llvm::SmallVector<Attribute> sourceLocs(call.getSourceLocs().begin(), call.getSourceLocs().end());
  if (wrapper) {
    auto info = wrapper->getAttrOfType<DictionaryAttr>(kExternWrapperAttr);
    auto have = cast<ArrayAttr>(info.get("sources"));
    auto haveLocs = cast<ArrayAttr>(info.get("source_locs"));
    llvm::SmallVector<Attribute> merged(have.begin(), have.end()), mergedLocs(haveLocs.begin(), haveLocs.end());
    for (auto [s, l] : llvm::zip(sources, sourceLocs))
      if (!llvm::is_contained(merged, s)) {
        merged.push_back(s);
        mergedLocs.push_back(l);
      }
    sources = std::move(merged);
    sourceLocs = std::move(mergedLocs);
  } else {
    Type ret = result ? result : LLVM::LLVMVoidType::get(ctx);
    OpBuilder detached(ctx);
    wrapper = LLVM::LLVMFuncOp::create(detached, loc, wrapperName(call.getCallee(), count),
                                       LLVM::LLVMFunctionType::get(ret, params));
    SymbolTable(gpuModule).insert(wrapper);
  }
  NamedAttrList info;
  info.append("callee", call.getCalleeAttr());
  info.append("params", call.getArgCtypesAttr());
  info.append("result", call.getResultCtypeAttr());
  info.append("sources", ArrayAttr::get(ctx, sources));
  info.append("source_locs", ArrayAttr::get(ctx, sourceLocs));
  wrapper->setAttr(kExternWrapperAttr, info.getDictionary(ctx));
  auto callOp = LLVM::CallOp::create(b, loc, wrapper, operands);
  return result ? callOp.getResult() : Value();
}
