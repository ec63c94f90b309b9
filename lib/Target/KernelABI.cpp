//===- KernelABI.cpp - Kernel signatures and the generated C header -------===//
//
// 1. getKernelSignature reads a tile.kernel's arguments and their `tile.*`
//    attributes, and decides which tensors are read-only from the memory
//    effects of their users.
// 2. writeCHeader prints the header through a small structured writer.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/KernelABI.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Target/CWriter.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace tilec;

/// Whether any op reached from `value` (through view-like results, and
/// into the kernels a launch sequence calls) may write it.
static bool mayBeWritten(mlir::Value value) {
  for (mlir::OpOperand &use : value.getUses()) {
    mlir::Operation *user = use.getOwner();
    if (auto call = llvm::dyn_cast<tile::CallOp>(user)) {
      tile::KernelOp callee = call.getCalleeKernel();
      if (!callee || callee.getBody().empty() ||
          mayBeWritten(callee.getBody().front().getArgument(use.getOperandNumber())))
        return true;
      continue;
    }
    auto effects = llvm::dyn_cast<mlir::MemoryEffectOpInterface>(user);
    if (!effects)
      return true; // unknown op: assume it writes
    llvm::SmallVector<mlir::SideEffects::EffectInstance<mlir::MemoryEffects::Effect>> list;
    effects.getEffectsOnValue(value, list);
    for (auto &e : list)
      if (llvm::isa<mlir::MemoryEffects::Write>(e.getEffect()))
        return true;
    // A view of the tensor: follow it.
    for (mlir::Value result : user->getResults())
      if (llvm::isa<mlir::MemRefType>(result.getType()) && mayBeWritten(result))
        return true;
  }
  return false;
}

/// The steps and workspace of a launch sequence (tile-outline-launches).
static mlir::LogicalResult getLaunchSteps(tile::KernelOp kernel, KernelSignature &sig) {
  llvm::DenseMap<mlir::Value, int> buffers;
  for (mlir::Operation &op : kernel.getBody().front()) {
    if (auto g = llvm::dyn_cast<tile::AllocGlobalOp>(op)) {
      buffers[g.getResult()] = sig.workspaceBuffers++;
      continue;
    }
    auto call = llvm::dyn_cast<tile::CallOp>(op);
    if (!call)
      continue;
    LaunchStep step;
    step.kernel = call.getCallee().str();
    for (mlir::Value v : call.getOperands()) {
      if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(v); arg && arg.getOwner() == &kernel.getBody().front())
        step.args.push_back(arg.getArgNumber());
      else if (auto it = buffers.find(v); it != buffers.end())
        step.args.push_back(-1 - it->second);
      else
        return call.emitOpError("passes a value that is neither an argument nor a global buffer of the sequence");
    }
    if (sig.steps.empty())
      if (tile::KernelOp callee = call.getCalleeKernel())
        if (tile::LaunchOp launch = callee.getLaunchOp())
          sig.threads.assign(launch.getThreads().begin(), launch.getThreads().end());
    sig.steps.push_back(std::move(step));
  }
  if (sig.hasWorkspace())
    sig.workspaceFunction = tile::workspaceFunctionName(sig.name);
  return mlir::success();
}

namespace {
/// A recursive-descent parser of a dimension's text (the frontend's
/// SizeExpr::str(): `+ - * // %`, parentheses, `min(a, b)`, `max(a, b)`).
struct DimParser {
  llvm::StringRef text;
  const KernelSignature &sig;

  void skip() { text = text.ltrim(); }
  bool eat(llvm::StringRef tok) {
    skip();
    if (!text.consume_front(tok))
      return false;
    return true;
  }
  static DimExprRef make(DimExpr::Op op, DimExprRef l, DimExprRef r) {
    auto e = std::make_shared<DimExpr>();
    e->op = op;
    e->lhs = std::move(l);
    e->rhs = std::move(r);
    return e;
  }
  // The grammar nests through parentheses and min/max: recursive descent over a dimension
  // text of a kernel signature, as deep as its parentheses.
  // NOLINTNEXTLINE(misc-no-recursion)
  DimExprRef primary() {
    skip();
    if (eat("(")) {
      DimExprRef e = sum();
      return e && eat(")") ? e : nullptr;
    }
    bool negative = eat("-");
    skip();
    size_t n = 0;
    while (n < text.size() && llvm::isDigit(text[n]))
      ++n;
    if (n) {
      auto e = std::make_shared<DimExpr>();
      if (text.take_front(n).getAsInteger(10, e->value))
        return nullptr;
      e->value = negative ? -e->value : e->value;
      text = text.drop_front(n);
      return e;
    }
    if (negative)
      return nullptr;
    while (n < text.size() && (llvm::isAlnum(text[n]) || text[n] == '_'))
      ++n;
    if (!n)
      return nullptr;
    llvm::StringRef name = text.take_front(n);
    text = text.drop_front(n);
    if (name == "min" || name == "max") {
      if (!eat("("))
        return nullptr;
      DimExprRef a = sum();
      if (!a || !eat(","))
        return nullptr;
      DimExprRef b = sum();
      if (!b || !eat(")"))
        return nullptr;
      return make(name == "min" ? DimExpr::Op::Min : DimExpr::Op::Max, a, b);
    }
    for (unsigned j = 0; j < sig.args.size(); ++j)
      if (sig.args[j].kind == KernelArg::Kind::DynamicDim && sig.args[j].name == name) {
        auto e = std::make_shared<DimExpr>();
        e->op = DimExpr::Op::Arg;
        e->arg = j;
        return e;
      }
    return nullptr;
  }
  // The grammar nests through parentheses and min/max: recursive descent over a dimension
  // text of a kernel signature, as deep as its parentheses.
  // NOLINTNEXTLINE(misc-no-recursion)
  DimExprRef product() {
    DimExprRef e = primary();
    while (e) {
      DimExpr::Op op;
      if (eat("//"))
        op = DimExpr::Op::FloorDiv;
      else if (eat("*"))
        op = DimExpr::Op::Mul;
      else if (eat("%"))
        op = DimExpr::Op::Mod;
      else
        break;
      DimExprRef r = primary();
      // Floored division by a positive constant only (the frontend's rule).
      if (!r || (op != DimExpr::Op::Mul && (!r->isConstant() || r->value <= 0)))
        return nullptr;
      e = make(op, e, r);
    }
    return e;
  }
  // The grammar nests through parentheses and min/max: recursive descent over a dimension
  // text of a kernel signature, as deep as its parentheses.
  // NOLINTNEXTLINE(misc-no-recursion)
  DimExprRef sum() {
    DimExprRef e = product();
    while (e) {
      DimExpr::Op op;
      if (eat("+"))
        op = DimExpr::Op::Add;
      else if (eat("-"))
        op = DimExpr::Op::Sub;
      else
        break;
      DimExprRef r = product();
      if (!r)
        return nullptr;
      e = make(op, e, r);
    }
    return e;
  }
};
} // namespace

std::optional<DimExprRef> tilec::parseDimExpr(llvm::StringRef text, const KernelSignature &sig) {
  DimParser p{text, sig};
  DimExprRef e = p.sum();
  p.skip();
  if (!e || !p.text.empty())
    return std::nullopt;
  return e;
}

std::vector<std::pair<unsigned, unsigned>> tilec::derivedDimensions(const KernelSignature &sig) {
  std::vector<std::pair<unsigned, unsigned>> out;
  for (auto [i, a] : llvm::enumerate(sig.args))
    for (auto [d, e] : llvm::enumerate(a.dims))
      if (e && e->isDerived())
        out.push_back({unsigned(i), unsigned(d)});
  return out;
}

mlir::LogicalResult tilec::getKernelSignature(mlir::Operation *op, KernelSignature &sig) {
  auto fn = llvm::dyn_cast<mlir::FunctionOpInterface>(op);
  if (!fn || fn.isExternal())
    return op->emitError("expected a kernel with a body");
  sig.name = mlir::SymbolTable::getSymbolName(op).str();
  mlir::Block &entry = fn.getFunctionBody().front();
  for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
    KernelArg arg;
    mlir::Type type = fn.getArgumentTypes()[i];
    mlir::StringAttr nameAttr = tile::getArgName(fn, i);
    mlir::StringAttr dtypeAttr = tile::getArgDtype(fn, i);
    arg.name = nameAttr ? nameAttr.str() : ("arg" + llvm::Twine(i)).str();
    arg.dtype = dtypeAttr ? dtypeAttr.str() : "";
    if (auto memref = llvm::dyn_cast<mlir::MemRefType>(type)) {
      arg.kind = KernelArg::Kind::Tensor;
      mlir::ArrayAttr shapeAttr = tile::getArgShape(fn, i);
      for (int64_t d = 0; d < memref.getRank(); ++d) {
        if (shapeAttr && d < (int64_t)shapeAttr.size() && llvm::isa<mlir::StringAttr>(shapeAttr[d]))
          arg.shape.push_back(llvm::cast<mlir::StringAttr>(shapeAttr[d]).str());
        else if (memref.isDynamicDim(d))
          arg.shape.push_back("?");
        else
          arg.shape.push_back(std::to_string(memref.getDimSize(d)));
      }
      arg.readOnly = !mayBeWritten(entry.getArgument(i));
    } else if (tile::isArgDynamic(fn, i)) {
      arg.kind = KernelArg::Kind::DynamicDim;
      arg.dtype = "int64";
    } else {
      arg.kind = KernelArg::Kind::Scalar;
    }
    if (arg.dtype.empty())
      return op->emitError() << "kernel argument #" << i << " has no 'tile.dtype'";
    sig.args.push_back(std::move(arg));
  }
  // Each tensor dimension as an expression over the dynamic dimensions.
  for (KernelArg &arg : sig.args) {
    if (arg.kind != KernelArg::Kind::Tensor)
      continue;
    for (const std::string &d : arg.shape) {
      if (d == "?") {
        arg.dims.push_back(nullptr); // no tile.shape: resolved by the launcher (the only dynamic dimension)
        continue;
      }
      std::optional<DimExprRef> e = parseDimExpr(d, sig);
      if (!e)
        return op->emitError() << "tensor '" << arg.name << "' has dimension '" << d
                               << "', which is neither a constant, a dynamic dimension nor an expression over them";
      arg.dims.push_back(*e);
    }
  }
  sig.threads = {1, 1, 1};
  op->walk([&](tile::LaunchOp launch) {
    llvm::ArrayRef<int64_t> threads = launch.getThreads();
    sig.threads.assign(threads.begin(), threads.end());
    if (std::optional<llvm::ArrayRef<int64_t>> c = launch.getCluster();
        c && c->size() == 3 && (*c)[0] * (*c)[1] * (*c)[2] > 1)
      sig.cluster.assign(c->begin(), c->end());
  });
  if (auto kernel = llvm::dyn_cast<tile::KernelOp>(op)) {
    sig.exported = !kernel.isPrivate();
    if (kernel.isLaunchSequence() && mlir::failed(getLaunchSteps(kernel, sig)))
      return mlir::failure();
  }
  return mlir::success();
}

mlir::LogicalResult tilec::rejectDerivedDimensions(mlir::ModuleOp module, llvm::ArrayRef<KernelSignature> sigs,
                                                   llvm::StringRef target) {
  for (const KernelSignature &sig : sigs) {
    std::vector<std::pair<unsigned, unsigned>> derived = derivedDimensions(sig);
    if (derived.empty())
      continue;
    auto [i, d] = derived.front();
    mlir::Location loc = module.getLoc();
    if (auto kernel = module.lookupSymbol<tile::KernelOp>(sig.name)) {
      loc = kernel.getLoc();
      if (!kernel.getBody().empty() && i < kernel.getBody().front().getNumArguments())
        loc = kernel.getBody().front().getArgument(i).getLoc();
    }
    const KernelArg &a = sig.args[i];
    return mlir::emitError(loc) << "tensor '" << a.name << "' has the derived dimension '" << a.shape[d]
                                << "' (dimension " << d << "), which the " << target
                                << " target does not support; give the tensor a T.dynamic dimension of its own";
  }
  return mlir::success();
}

mlir::LogicalResult tilec::getKernelSignatures(mlir::ModuleOp module, std::vector<KernelSignature> &sigs) {
  sigs.clear();
  for (tile::KernelOp kernel : module.getOps<tile::KernelOp>()) {
    KernelSignature sig;
    if (mlir::failed(getKernelSignature(kernel, sig)))
      return mlir::failure();
    sigs.push_back(std::move(sig));
  }
  return mlir::success();
}

llvm::StringRef tilec::cElementType(llvm::StringRef dtype) {
  return llvm::StringSwitch<llvm::StringRef>(dtype)
      .Cases("float16", "bfloat16", "uint16_t")
      .Case("float32", "float")
      .Case("float64", "double")
      .Cases("float8_e4m3", "float8_e4m3fn", "float8_e5m2", "uint8_t")
      .Cases("int4", "uint4", "float4_e2m1fn", "uint8_t")
      .Case("int8", "int8_t")
      .Case("uint8", "uint8_t")
      .Case("int16", "int16_t")
      .Case("int32", "int32_t")
      .Case("int64", "int64_t")
      .Case("uint16", "uint16_t")
      .Case("uint32", "uint32_t")
      .Case("uint64", "uint64_t")
      .Case("bool", "bool")
      .Default("void");
}

namespace {
/// How elements without a C type of their own are stored.
std::string storageNote(llvm::StringRef dtype) {
  if (dtype == "float16")
    return " (IEEE binary16 bits)";
  if (dtype == "bfloat16")
    return " (bfloat16 bits)";
  if (dtype.starts_with("float8"))
    return " (" + dtype.str() + " bits, one per byte)";
  if (dtype == "int4" || dtype == "uint4" || dtype == "float4_e2m1fn")
    return " (packed: element i in byte i/2, low nibble first)";
  return "";
}

std::string describeShape(const KernelArg &arg) {
  return "(" + llvm::join(arg.shape, ", ") + (arg.shape.size() == 1 ? ",)" : ")");
}
} // namespace

void tilec::writeCHeader(llvm::ArrayRef<KernelSignature> kernels, const HeaderInfo &info, HeaderFlavor flavor,
                         llvm::raw_ostream &os) {
  CWriter w(os);
  std::string guard = info.guard.str();
  w.line("/* Generated by tilec from " + info.sourceName + ". Do not edit. */");
  w.line("#ifndef " + guard).line("#define " + guard).line();
  w.line("#include <stdint.h>");
  if (llvm::any_of(kernels, [](const KernelSignature &k) { return k.exported && k.hasWorkspace(); }))
    w.line("#include <stddef.h>");
  w.line("#ifndef __cplusplus").line("#include <stdbool.h>").line("#endif");
  if (flavor == HeaderFlavor::CUDA)
    w.line("#include <cuda.h>");
  w.line();
  w.line("#ifdef __cplusplus").line("extern \"C\" {").line("#endif").line();
  w.line("/* Status codes returned by every launcher. */");
  w.line("#ifndef TILEC_STATUS_CODES").line("#define TILEC_STATUS_CODES");
  w.line("#define TILEC_SUCCESS 0");
  w.line("#define TILEC_ERROR_NULL_POINTER 1");
  w.line("#define TILEC_ERROR_BAD_DIMENSION 2");
  w.line("#define TILEC_ERROR_MISALIGNED 3");
  w.line("#define TILEC_ERROR_LAUNCH_FAILED 4");
  w.line("#define TILEC_ERROR_NO_IMAGE 5 /* CUDA objects for several archs: no image fits the device */");
  w.line("#define TILEC_ERROR_NO_WORKSPACE 6 /* a kernel with T.alloc_global buffers got a null workspace */");
  w.line("/* The name of a status code, e.g. \"TILEC_ERROR_NULL_POINTER\". */");
  w.line("#if defined(__GNUC__)").line("__attribute__((unused))").line("#endif");
  w.line("static inline const char *tilec_error_string(int status) {");
  w.line("  switch (status) {");
  for (const char *name : {"SUCCESS", "ERROR_NULL_POINTER", "ERROR_BAD_DIMENSION", "ERROR_MISALIGNED",
                           "ERROR_LAUNCH_FAILED", "ERROR_NO_IMAGE", "ERROR_NO_WORKSPACE"})
    w.line(std::string("  case TILEC_") + name + ": return \"TILEC_" + name + "\";");
  w.line("  default: return \"unknown tilec status\";");
  w.line("  }").line("}");
  w.line("#endif").line();
  for (const KernelSignature &k : kernels) {
    if (!k.exported)
      continue; // a part of a launch sequence
    std::vector<std::string> argNames;
    for (const KernelArg &a : k.args)
      argNames.push_back(a.name);
    std::vector<std::string> cn = cNames(argNames);
    std::string runs = k.steps.size() > 1 ? " (the first of its " + std::to_string(k.steps.size()) +
                                                " T.Kernel blocks, which run in order)"
                                          : "";
    w.line("/* " + k.name + ": block of " + llvm::Twine(k.threads[0]) + "x" + llvm::Twine(k.threads[1]) + "x" +
           llvm::Twine(k.threads[2]) + " threads" + runs + ".");
    if (flavor == HeaderFlavor::CUDA && !k.cluster.empty())
      w.line(" *   Launched in thread-block clusters of " + llvm::Twine(k.cluster[0]) + "x" +
             llvm::Twine(k.cluster[1]) + "x" + llvm::Twine(k.cluster[2]) +
             " blocks: a grid dimension that is not a multiple of the cluster's returns TILEC_ERROR_BAD_DIMENSION.");
    for (const KernelArg &a : k.args) {
      std::string doc;
      switch (a.kind) {
      case KernelArg::Kind::Tensor:
        doc = a.name + ": " + a.dtype + " tensor of shape " + describeShape(a) + ", row-major, contiguous" +
              (a.readOnly ? ", read" : ", written") + storageNote(a.dtype);
        break;
      case KernelArg::Kind::DynamicDim:
        doc = a.name + ": dynamic dimension, must be > 0";
        break;
      case KernelArg::Kind::Scalar:
        doc = a.name + ": " + a.dtype + " scalar";
        break;
      }
      w.line(" *   " + doc);
    }
    std::vector<std::string> renamed;
    for (size_t i = 0; i < k.args.size(); ++i)
      if (cn[i] != k.args[i].name)
        renamed.push_back(k.args[i].name + " is " + cn[i]);
    if (!renamed.empty())
      w.line(" * In C, " + llvm::join(renamed, ", ") + " (a C or C++ keyword, or a name the headers declare, gets a '_').");
    std::vector<std::string> dims;
    for (auto [a, name] : llvm::zip(k.args, cn))
      if (a.kind == KernelArg::Kind::DynamicDim)
        dims.push_back(name);
    std::string sizeCall = k.name + "_workspace_size(" + llvm::join(dims, ", ") + ")";
    if (k.hasWorkspace())
      w.line(" *   workspace: " + sizeCall + " bytes of " + (flavor == HeaderFlavor::CUDA ? "device" : "host") +
             " memory for its T.alloc_global buffers, which live across its T.Kernel blocks");
    if (flavor == HeaderFlavor::CUDA)
      w.line(" *   stream: the CUDA stream to launch on (0 for the default stream)");
    w.line(" * Returns TILEC_SUCCESS or a TILEC_ERROR_* code; checks its arguments first. */");
    std::vector<std::string> params;
    for (auto [a, name] : llvm::zip(k.args, cn)) {
      if (a.kind == KernelArg::Kind::Tensor)
        params.push_back((a.readOnly ? "const " : "") + cElementType(a.dtype).str() + " *" + name);
      else if (a.kind == KernelArg::Kind::DynamicDim)
        params.push_back("int64_t " + name);
      else
        params.push_back(cElementType(a.dtype).str() + " " + name);
    }
    if (k.hasWorkspace())
      params.push_back("void *workspace");
    if (flavor == HeaderFlavor::CUDA)
      params.push_back("CUstream stream");
    if (params.empty())
      params.push_back("void");
    w.line("int " + k.name + "(" + llvm::join(params, ", ") + ");").line();
    if (!k.hasWorkspace())
      continue;
    std::vector<std::string> dimParams;
    for (const std::string &d : dims)
      dimParams.push_back("int64_t " + d);
    if (dimParams.empty())
      dimParams.push_back("void");
    w.line("/* The bytes of workspace " + k.name + " needs (" + std::to_string(k.workspaceBuffers) + " buffer" +
           (k.workspaceBuffers == 1 ? "" : "s") + ", each on a " + std::to_string(tile::kWorkspaceAlignment) +
           "-byte boundary); a null workspace is");
    w.line(" * TILEC_ERROR_NO_WORKSPACE. */");
    w.line("size_t " + k.name + "_workspace_size(" + llvm::join(dimParams, ", ") + ");").line();
  }
  w.line("#ifdef __cplusplus").line("} /* extern \"C\" */").line("#endif").line();
  w.line("#endif /* " + guard + " */");
}
