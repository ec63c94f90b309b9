//===- TileGenViews.cpp - Reinterpreting views of buffers ----------------===//
//
// `T.Tensor(shape, dtype, buf.data)` inside a kernel body, `T.view(buf,
// shape, dtype)` and `T.reshape(buf, shape)`: the same elements in row-major
// order under another shape (spec §5), built as a memref.reinterpret_cast of
// the buffer. A view of a fragment holds the fragment's registers: the GPU
// layout inference gives it the fragment's layout reshaped.
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;

namespace {
const BuiltinParam pTensorView[] = {{"shape", ArgKind::Shape, {}},
                                    {"dtype", ArgKind::DType, {ArgDefault::Str, 0, "float32"}},
                                    {"data", ArgKind::Any, {ArgDefault::None, 0, ""}}};
const BuiltinInfo tensorView{BuiltinID::Tensor, "T.Tensor", BuiltinContext::Expr, pTensorView};

std::string shapeText(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t d = 0; d < shape.size(); ++d)
    s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + "]";
}
} // namespace

bool KernelGen::isTensorView(const CallExpr *call) {
  if (call->getArgs().size() >= 3)
    return true;
  return llvm::any_of(call->getKeywords(), [](const Keyword &k) { return k.name == "data"; });
}

TValue KernelGen::genTensorView(const CallExpr *e) {
  BoundCall call;
  if (!bindCall(tensorView, e, diags, call))
    return TValue();
  // The data argument is `buf.data` (or the buffer itself).
  const Expr *data = call.get("data");
  if (auto *a = llvm::dyn_cast<AttributeExpr>(data); a && a->getAttr() == "data")
    data = a->getValue();
  TValue base = eval(data);
  if (!base.isValid())
    return TValue();
  if (!base.isBuffer() || base.buffer->isVar) {
    diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("data"), "data", "T.Tensor", "a buffer's '.data'",
               base.describe());
    return TValue();
  }
  argFailed = false;
  std::optional<llvm::SmallVector<int64_t, 4>> shape = shapeArg(call, "shape");
  std::optional<DType> t = dtypeArg(call, "dtype");
  if (argFailed || !shape || !t)
    return TValue();
  return makeView(base.buffer, *shape, *t, e->getRange());
}

TValue KernelGen::genViewBuiltin(const BoundCall &call) {
  argFailed = false;
  BufferInfo *src = bufferArg(call, "src");
  if (!src)
    return TValue();
  llvm::SmallVector<int64_t, 4> shape(src->shape.begin(), src->shape.end());
  if (call.get("shape")) {
    std::optional<llvm::SmallVector<int64_t, 4>> s = shapeArg(call, "shape");
    if (!s)
      return TValue();
    shape = *s;
  }
  DType t = src->dtype;
  if (call.info->id == BuiltinID::View && call.get("dtype")) {
    std::optional<DType> d = dtypeArg(call, "dtype");
    if (!d)
      return TValue();
    t = *d;
  }
  return makeView(src, shape, t, call.call->getRange());
}

TValue KernelGen::makeView(BufferInfo *base, llvm::ArrayRef<int64_t> shape, DType t, llvm::SMRange range) {
  if (t != base->dtype) {
    // tile-lang reuses the bytes (a float32 accumulator staged in a bfloat16
    // shared tile); tilec's buffers keep one dtype, so say what to write.
    std::string what = (dtypeName(base->dtype) + " " + base->shapeStr()).str();
    std::string where =
        base->scope == tile::Scope::Global ? "tensor" : (tile::stringifyScope(base->scope) + " buffer").str();
    std::string instead =
        base->scope == tile::Scope::Global
            ? "a tensor parameter or T.alloc_global"
            : ("T.alloc_" + tile::stringifyScope(base->scope) + "(" + shapeText(shape) + ", T." + dtypeName(t) + ")")
                  .str();
    diags.emit(DiagID::sema_view_dtype, range, dtypeName(t), where + " '" + base->name + "' (" + what + ")",
               shapeText(shape), instead);
    return TValue();
  }
  int64_t viewElems = 1, baseElems = 1;
  for (int64_t d : shape)
    viewElems *= d;
  for (int64_t d : base->shape) {
    if (mlir::ShapedType::isDynamic(d)) {
      diags.emit(DiagID::not_supported_yet, range,
                 "a view of '" + base->name + "', which has a runtime dimension (shape " + base->shapeStr() + ")");
      return TValue();
    }
    baseElems *= d;
  }
  if (viewElems != baseElems) {
    diags.emit(DiagID::sema_view_size, range, shapeText(shape), viewElems, base->name, base->shapeStr(), baseElems);
    return TValue();
  }
  if (base->scope != tile::Scope::Global && base->scope != tile::Scope::Fragment) {
    diags.emit(DiagID::not_supported_yet, range,
               ("a view of " + tile::stringifyScope(base->scope) + " buffer '" + base->name +
                "' (views of global tensors and of fragments are)")
                   .str());
    return TValue();
  }
  // Row-major strides of the view; offset 0.
  llvm::SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * shape[d];
  auto baseType = llvm::cast<mlir::MemRefType>(base->value.getType());
  auto type = mlir::MemRefType::get(shape, baseType.getElementType(), mlir::MemRefLayoutAttrInterface(),
                                    baseType.getMemorySpace());
  mlir::Value view =
      mlir::memref::ReinterpretCastOp::create(b, loc(range), type, base->value, 0, shape, strides).getResult();
  BufferInfo *buf = newBuffer();
  buf->name = "view of '" + base->name + "'";
  buf->value = view;
  buf->dtype = t;
  buf->scope = base->scope;
  buf->shape.assign(shape.begin(), shape.end());
  buf->dimNames.assign(shape.size(), "");
  buf->declRange = range;
  return TValue::ofBuffer(buf);
}
