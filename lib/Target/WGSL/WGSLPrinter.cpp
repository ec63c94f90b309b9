//===- WGSLPrinter.cpp - A validated spirv.module printed as WGSL ----------===//
//
// The WGSL of one kernel, read off the spirv dialect module the Vulkan path
// made and spirv-val accepted (structured control flow, logical addressing,
// one entry point):
// 1. Globals: storage buffers become `var<storage>` arrays named after their
//    tensors (element `atomic<i32>` where an atomic touches them), the
//    push-constant block the parameter uniform buffer (`array<vec4<i32>>`,
//    uniform arrays need a 16-byte stride), workgroup variables `var<workgroup>`
//    arrays; built-in inputs become the entry point's parameters.
// 2. Values: every result is a `let`; constants print inline; pointers
//    (addressof, access chains, variables) print as the place they name, at
//    their loads, stores and atomics. WGSL's integers carry a signedness that
//    SPIR-V's do not: every integer is i32, unsigned operations bitcast.
//    Shifts clamp as PTX's do, constant zero divisors go through a `let`,
//    NaN/infinity tests read the bits (docs/webgpu.md).
// 3. Control flow: spirv.mlir.selection becomes if/else, spirv.mlir.loop a
//    `loop` whose header branch out is a `break`; block arguments (loop-carried
//    values) and construct results are function `var`s assigned on the edges.
// Anything else is a diagnostic on the op. Nothing validates the output here:
// Tint does in the tests (test/Target/WGSL/examples.test).
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/WGSL/WebGPUTarget.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

#include <cmath>

using namespace mlir;
using namespace tilec;

namespace {

/// WGSL's keywords and reserved words: a tensor named like one gets a `_`.
bool isReservedWord(llvm::StringRef name) {
  static const char *const words[] = {
      "alias", "break", "case", "const", "const_assert", "continue", "continuing", "default", "diagnostic",
      "discard", "else", "enable", "false", "fn", "for", "if", "let", "loop", "override", "requires", "return",
      "struct", "switch", "true", "var", "while", "array", "atomic", "bool", "f16", "f32", "i32", "u32", "mat2x2",
      "mat3x3", "mat4x4", "ptr", "sampler", "texture_2d", "vec2", "vec3", "vec4", "NULL", "Self", "abstract",
      "active", "alignas", "alignof", "as", "asm", "asm_fragment", "async", "attribute", "auto", "await", "become",
      "cast", "catch", "class", "co_await", "co_return", "co_yield", "coherent", "column_major", "common",
      "compile", "compile_fragment", "concept", "const_cast", "consteval", "constexpr", "constinit", "crate",
      "debugger", "decltype", "delete", "demote", "demote_to_helper", "do", "dynamic_cast", "enum", "explicit",
      "export", "extends", "extern", "external", "fallthrough", "filter", "final", "finally", "friend", "from",
      "fxgroup", "get", "goto", "groupshared", "highp", "impl", "implements", "import", "inline", "instanceof",
      "interface", "layout", "lowp", "macro", "macro_rules", "match", "mediump", "meta", "mod", "module", "move",
      "mut", "mutable", "namespace", "new", "nil", "noexcept", "noinline", "nointerpolation", "non_coherent",
      "noncoherent", "noperspective", "null", "nullptr", "of", "operator", "package", "packoffset", "partition",
      "pass", "patch", "pixelfragment", "precise", "precision", "premerge", "priv", "protected", "pub", "public",
      "readonly", "ref", "regardless", "register", "reinterpret_cast", "require", "resource", "restrict", "self",
      "set", "shared", "sizeof", "smooth", "snorm", "static", "static_assert", "static_cast", "std", "subroutine",
      "super", "target", "template", "this", "thread_local", "throw", "trait", "try", "type", "typedef", "typeid",
      "typename", "typeof", "union", "unless", "unorm", "unsafe", "unsized", "use", "using", "varying", "virtual",
      "volatile", "wgsl", "where", "with", "writeonly", "yield"};
  // Builtin functions: a module-scope variable of the same name would shadow them.
  static const char *const functions[] = {
      "abs", "acos", "all", "any", "arrayLength", "asin", "atan", "atan2", "atomicAdd", "atomicLoad", "atomicStore",
      "bitcast", "ceil", "clamp", "cos", "cosh", "exp", "exp2", "floor", "fma", "fract", "inverseSqrt", "log", "log2",
      "max", "min", "mix", "pow", "round", "select", "sign", "sin", "sinh", "sqrt", "storageBarrier", "tan", "tanh",
      "trunc", "workgroupBarrier", "workgroupUniformLoad"};
  return llvm::is_contained(words, name) || llvm::is_contained(functions, name);
}

/// A WGSL identifier for a user name: letters, digits and `_`, not starting
/// with `__` or a digit, not a reserved word, not one of the generated names
/// (those start with `tilec_` or are a letter and digits). Two user names may
/// map to the same identifier (`__x`, `_x`): Printer::uniqueName tells them
/// apart.
std::string identifier(llvm::StringRef name) {
  std::string s;
  for (char c : name)
    s += llvm::isAlnum(c) || c == '_' ? c : '_';
  while (llvm::StringRef(s).starts_with("__"))
    s.erase(0, 1);
  if (s.empty() || llvm::isDigit(s[0]) || s == "_")
    s = "t_" + s;
  if (isReservedWord(s) || llvm::StringRef(s).starts_with("tilec_") ||
      (s.size() > 1 && llvm::is_contained(llvm::StringRef("vhsp"), s[0]) &&
       llvm::all_of(llvm::StringRef(s).drop_front(), llvm::isDigit)))
    s += "_";
  return s;
}

/// The WGSL built-in value and its type for a SPIR-V BuiltIn.
struct BuiltinInfo {
  const char *wgsl;
  bool vector;
};
std::optional<BuiltinInfo> builtinInfo(llvm::StringRef spirvName) {
  if (spirvName == "WorkgroupId")
    return BuiltinInfo{"workgroup_id", true};
  if (spirvName == "LocalInvocationId")
    return BuiltinInfo{"local_invocation_id", true};
  if (spirvName == "GlobalInvocationId")
    return BuiltinInfo{"global_invocation_id", true};
  if (spirvName == "NumWorkgroups")
    return BuiltinInfo{"num_workgroups", true};
  if (spirvName == "LocalInvocationIndex")
    return BuiltinInfo{"local_invocation_index", false};
  return std::nullopt;
}

/// A module-scope variable as the WGSL names it.
struct Global {
  std::string name;
  spirv::StorageClass storage;
  bool atomic = false;       ///< its elements are atomic<i32>
  bool uniformParams = false; ///< the push-constant block, printed as the uniform buffer
  int64_t binding = -1;      ///< storage buffers: the tensor binding
};

class Printer {
public:
  Printer(spirv::ModuleOp module, const WebGPUTargetOptions &options, WebGPUKernel &out)
      : module(module), options(options), out(out), r(out.vulkan.reflection) {}

  LogicalResult run();

private:
  // Types and literals.
  FailureOr<std::string> typeName(Type t, Operation *where, bool atomic = false);
  /// The single-member structs the SPIR-V conversion wraps arrays in print as their member.
  static Type unwrap(Type t);
  /// The byte size WGSL gives a (workgroup) variable of type `t`.
  static uint64_t wgslSize(Type t);
  FailureOr<std::string> literal(Attribute value, Type type, Operation *where);
  // Values.
  FailureOr<std::string> value(Value v);
  FailureOr<std::string> place(Value ptr);
  bool isAtomicPlace(Value ptr);
  // Statements.
  void line(const llvm::Twine &text) {
    body.indent(indent * 2) << text << "\n";
  }
  std::string fresh(char prefix) { return std::string(1, prefix) + std::to_string(counter++); }
  LogicalResult declare(Value v, Operation *op, const llvm::Twine &expr);
  LogicalResult printOp(Operation &op);
  LogicalResult printShift(Operation &op, const std::string &x, const std::string &amount);
  LogicalResult printBlockOps(Block &block);
  LogicalResult assignArgs(Block *target, OperandRange args, Operation *where);
  LogicalResult printEdge(Block *from, Block *target, OperandRange args, Operation *where, bool nested);
  LogicalResult printChain(Block *block, bool nested);
  LogicalResult printConstruct(Operation *op, Region &region, bool isLoop);
  LogicalResult declareBlockArgs(Region &region, Operation *where);

  spirv::ModuleOp module;
  const WebGPUTargetOptions &options;
  WebGPUKernel &out;
  const vk::Reflection &r;
  llvm::StringMap<Global> globals;
  /// Every module-scope name the WGSL declares (entry point, globals, the
  /// parameter struct), generated ones included: each is declared once.
  llvm::StringSet<> moduleNames;
  std::string uniqueName(std::string name) {
    while (!moduleNames.insert(name).second)
      name += "_";
    return name;
  }
  llvm::DenseMap<Value, std::string> names;
  std::string bodyText;
  llvm::raw_string_ostream body{bodyText};
  unsigned indent = 1;
  unsigned counter = 0;
  bool usesF16 = false;
  /// The innermost construct being printed: its merge block and, for a loop,
  /// its header (branches there are the back edge).
  struct Construct {
    Block *merge = nullptr;
    Block *header = nullptr;
    Operation *op = nullptr;
  } construct;
  // Uniformity (WGSL requires barriers in uniform control flow).
  void analyzeUniformity(spirv::FuncOp fn);
  FailureOr<std::string> branchCondition(Value cond);
  /// Values WGSL's uniformity analysis may see as differing between the
  /// invocations of a workgroup.
  llvm::DenseSet<Value> nonUniform;
  /// Whether the workgroup variable that broadcasts invocation 0's branch
  /// conditions (`tilec_uniform`, one for every branch) is declared.
  bool usesUniformVar = false;
  bool needsLocalIndex = false;
  /// Entry-point parameters for the built-ins used, in first-use order.
  llvm::SmallVector<std::string> builtinParams;
  llvm::StringMap<std::string> builtinExpr;
};

/// The value of an integer spirv.Constant, if `v` is one.
std::optional<int64_t> constantInt(Value v) {
  if (auto cst = v.getDefiningOp<spirv::ConstantOp>())
    if (auto i = dyn_cast<IntegerAttr>(cst.getValue()); i && i.getType().isInteger(32))
      return i.getValue().getSExtValue();
  return std::nullopt;
}

Type Printer::unwrap(Type t) {
  if (auto s = dyn_cast<spirv::StructType>(t); s && s.getNumElements() == 1)
    return s.getElementType(0);
  return t;
}

uint64_t Printer::wgslSize(Type t) {
  t = unwrap(t);
  if (auto a = dyn_cast<spirv::ArrayType>(t)) {
    Type e = unwrap(a.getElementType());
    uint64_t align = 4;
    if (auto v = dyn_cast<VectorType>(e))
      align = (v.getNumElements() == 2 ? 2 : 4) * (v.getElementType().isF16() ? 2 : 4);
    else if (e.isF16())
      align = 2;
    return a.getNumElements() * llvm::alignTo(wgslSize(e), align);
  }
  if (auto v = dyn_cast<VectorType>(t))
    return v.getNumElements() * wgslSize(v.getElementType());
  if (t.isF16())
    return 2;
  return 4; // i32, f32, bool, atomic<i32>
}

FailureOr<std::string> Printer::typeName(Type t, Operation *where, bool atomic) {
  t = unwrap(t);
  if (auto it = dyn_cast<IntegerType>(t)) {
    if (it.getWidth() == 1 && !atomic)
      return std::string("bool");
    if (it.getWidth() == 32)
      return std::string(atomic ? "atomic<i32>" : "i32");
  } else if (t.isF32() && !atomic) {
    return std::string("f32");
  } else if (t.isF16() && !atomic) {
    usesF16 = true;
    return std::string("f16");
  } else if (auto v = dyn_cast<VectorType>(t); v && !atomic && v.getRank() == 1 && v.getNumElements() >= 2 &&
                                                 v.getNumElements() <= 4) {
    FailureOr<std::string> e = typeName(v.getElementType(), where);
    if (failed(e))
      return failure();
    return "vec" + std::to_string(v.getNumElements()) + "<" + *e + ">";
  } else if (auto a = dyn_cast<spirv::ArrayType>(t)) {
    FailureOr<std::string> e = typeName(a.getElementType(), where, atomic);
    if (failed(e))
      return failure();
    return "array<" + *e + ", " + std::to_string(a.getNumElements()) + ">";
  } else if (auto a = dyn_cast<spirv::RuntimeArrayType>(t)) {
    FailureOr<std::string> e = typeName(a.getElementType(), where, atomic);
    if (failed(e))
      return failure();
    return "array<" + *e + ">";
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << t;
  return where->emitError() << "the webgpu target has no WGSL type for " << (atomic ? "an atomic " : "") << text
                            << " (WGSL has bool, i32, u32, f32 and f16; atomics on i32 and u32)";
}

FailureOr<std::string> Printer::literal(Attribute value, Type type, Operation *where) {
  if (auto b = dyn_cast<BoolAttr>(value))
    return std::string(b.getValue() ? "true" : "false");
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    if (type.isInteger(1))
      return std::string(i.getValue().isZero() ? "false" : "true");
    if (!type.isInteger(32))
      return where->emitError() << "the webgpu target has no WGSL literal of type " << type;
    int64_t v = i.getValue().getSExtValue();
    if (v == INT32_MIN)
      return std::string("bitcast<i32>(0x80000000u)");
    return v < 0 ? "(" + std::to_string(v) + "i)" : std::to_string(v) + "i";
  }
  if (auto f = dyn_cast<FloatAttr>(value)) {
    double d = f.getValueAsDouble();
    bool half = type.isF16();
    if (half)
      usesF16 = true;
    if (!std::isfinite(d))
      return std::string(); // printed as a let of bits by the caller
    std::string s;
    llvm::raw_string_ostream os(s);
    os << llvm::format(half ? "%.5g" : "%.9g", d);
    if (s.find_first_of(".en") == std::string::npos)
      s += ".0";
    s += half ? "h" : "f";
    return d < 0 ? "(" + s + ")" : s;
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(value); dense && dense.isSplat()) {
    auto vt = cast<VectorType>(type);
    FailureOr<std::string> t = typeName(vt, where);
    FailureOr<std::string> e = literal(dense.getSplatValue<Attribute>(), vt.getElementType(), where);
    if (failed(t) || failed(e) || e->empty())
      return failure();
    return *t + "(" + *e + ")";
  }
  return where->emitError() << "the webgpu target cannot print the constant " << value << " as WGSL";
}

FailureOr<std::string> Printer::value(Value v) {
  auto it = names.find(v);
  if (it != names.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  if (auto cst = dyn_cast_or_null<spirv::ConstantOp>(def)) {
    FailureOr<std::string> lit = literal(cst.getValue(), cst.getType(), def);
    if (succeeded(lit) && !lit->empty())
      return lit;
  }
  if (def)
    return def->emitError() << "the webgpu target printed a use of this value before its definition";
  return emitError(v.getLoc()) << "the webgpu target printed a use of a block argument it did not declare";
}

bool Printer::isAtomicPlace(Value ptr) {
  while (auto chain = ptr.getDefiningOp<spirv::AccessChainOp>())
    ptr = chain.getBasePtr();
  if (auto addr = ptr.getDefiningOp<spirv::AddressOfOp>()) {
    auto it = globals.find(addr.getVariable());
    return it != globals.end() && it->second.atomic;
  }
  return false;
}

FailureOr<std::string> Printer::place(Value ptr) {
  Operation *def = ptr.getDefiningOp();
  if (auto addr = dyn_cast_or_null<spirv::AddressOfOp>(def)) {
    auto it = globals.find(addr.getVariable());
    if (it == globals.end())
      return def->emitError() << "the webgpu target does not know the variable @" << addr.getVariable();
    auto bit = builtinExpr.find(addr.getVariable());
    if (bit != builtinExpr.end())
      return bit->second;
    return it->second.name;
  }
  if (isa_and_nonnull<spirv::VariableOp>(def)) {
    auto it = names.find(ptr);
    if (it != names.end())
      return it->second;
  }
  auto chain = dyn_cast_or_null<spirv::AccessChainOp>(def);
  if (!chain) {
    if (def)
      return def->emitError() << "the webgpu target cannot take '" << def->getName() << "' as a WGSL memory reference";
    return emitError(ptr.getLoc()) << "the webgpu target cannot take a pointer argument as a WGSL memory reference";
  }
  // The uniform parameter block: word k is w[k / 4][k % 4].
  bool params = false;
  if (auto addr = chain.getBasePtr().getDefiningOp<spirv::AddressOfOp>()) {
    auto it = globals.find(addr.getVariable());
    params = it != globals.end() && it->second.uniformParams;
  }
  FailureOr<std::string> base = place(chain.getBasePtr());
  if (failed(base))
    return failure();
  std::string text = *base;
  Type t = cast<spirv::PointerType>(chain.getBasePtr().getType()).getPointeeType();
  for (Value index : chain.getIndices()) {
    if (auto s = dyn_cast<spirv::StructType>(t)) {
      std::optional<int64_t> k;
      if (auto cst = index.getDefiningOp<spirv::ConstantOp>())
        if (auto ia = dyn_cast<IntegerAttr>(cst.getValue()))
          k = ia.getInt();
      if (s.getNumElements() != 1 || k != 0)
        return chain.emitError("the webgpu target only takes structs of one member (the arrays the SPIR-V "
                               "conversion wraps)");
      t = s.getElementType(0);
      continue;
    }
    FailureOr<std::string> idx = value(index);
    if (failed(idx))
      return failure();
    if (params) {
      std::optional<int64_t> k;
      if (auto cst = index.getDefiningOp<spirv::ConstantOp>())
        if (auto ia = dyn_cast<IntegerAttr>(cst.getValue()))
          k = ia.getInt();
      if (k)
        text += ".w[" + std::to_string(*k / 4) + "][" + std::to_string(*k % 4) + "]";
      else
        text += ".w[(" + *idx + ") / 4][(" + *idx + ") % 4]";
      params = false;
    } else {
      text += "[" + *idx + "]";
    }
    if (auto a = dyn_cast<spirv::ArrayType>(t))
      t = a.getElementType();
    else if (auto ra = dyn_cast<spirv::RuntimeArrayType>(t))
      t = ra.getElementType();
    else if (auto v = dyn_cast<VectorType>(t))
      t = v.getElementType();
    else
      return chain.emitError() << "the webgpu target cannot index " << t << " in WGSL";
  }
  return text;
}

LogicalResult Printer::declare(Value v, Operation *op, const llvm::Twine &expr) {
  FailureOr<std::string> t = typeName(v.getType(), op);
  if (failed(t))
    return failure();
  std::string name = fresh('v');
  line("let " + name + ": " + *t + " = " + expr + ";");
  names[v] = name;
  return success();
}

/// The WGSL infix operator of a SPIR-V binary op whose WGSL form is `a op b`
/// on i32, f32/f16 or bool; nullptr for the others.
const char *infixOperator(Operation &op) {
  return llvm::TypeSwitch<Operation *, const char *>(&op)
      .Case<spirv::IAddOp, spirv::FAddOp>([](auto) { return "+"; })
      .Case<spirv::ISubOp, spirv::FSubOp>([](auto) { return "-"; })
      .Case<spirv::IMulOp, spirv::FMulOp>([](auto) { return "*"; })
      .Case<spirv::SDivOp, spirv::FDivOp>([](auto) { return "/"; })
      .Case<spirv::SRemOp, spirv::FRemOp>([](auto) { return "%"; })
      .Case<spirv::BitwiseAndOp>([](auto) { return "&"; })
      .Case<spirv::BitwiseOrOp>([](auto) { return "|"; })
      .Case<spirv::BitwiseXorOp>([](auto) { return "^"; })
      .Case<spirv::LogicalAndOp>([](auto) { return "&&"; })
      .Case<spirv::LogicalOrOp>([](auto) { return "||"; })
      .Case<spirv::IEqualOp, spirv::FOrdEqualOp, spirv::LogicalEqualOp>([](auto) { return "=="; })
      .Case<spirv::INotEqualOp, spirv::FUnordNotEqualOp, spirv::LogicalNotEqualOp>([](auto) { return "!="; })
      .Case<spirv::SLessThanOp, spirv::FOrdLessThanOp>([](auto) { return "<"; })
      .Case<spirv::SLessThanEqualOp, spirv::FOrdLessThanEqualOp>([](auto) { return "<="; })
      .Case<spirv::SGreaterThanOp, spirv::FOrdGreaterThanOp>([](auto) { return ">"; })
      .Case<spirv::SGreaterThanEqualOp, spirv::FOrdGreaterThanEqualOp>([](auto) { return ">="; })
      .Default([](Operation *) { return nullptr; });
}

/// Unsigned integer ops: the operator on the operands read as u32.
const char *unsignedOperator(Operation &op, bool &comparison) {
  comparison = isa<spirv::ULessThanOp, spirv::ULessThanEqualOp, spirv::UGreaterThanOp, spirv::UGreaterThanEqualOp>(op);
  return llvm::TypeSwitch<Operation *, const char *>(&op)
      .Case<spirv::UDivOp>([](auto) { return "/"; })
      .Case<spirv::UModOp>([](auto) { return "%"; })
      .Case<spirv::ULessThanOp>([](auto) { return "<"; })
      .Case<spirv::ULessThanEqualOp>([](auto) { return "<="; })
      .Case<spirv::UGreaterThanOp>([](auto) { return ">"; })
      .Case<spirv::UGreaterThanEqualOp>([](auto) { return ">="; })
      .Default([](Operation *) { return nullptr; });
}

/// Float comparisons that are true when an operand is NaN: the negation of
/// the ordered opposite.
const char *unorderedOpposite(Operation &op) {
  return llvm::TypeSwitch<Operation *, const char *>(&op)
      .Case<spirv::FUnordLessThanOp>([](auto) { return ">="; })
      .Case<spirv::FUnordLessThanEqualOp>([](auto) { return ">"; })
      .Case<spirv::FUnordGreaterThanOp>([](auto) { return "<="; })
      .Case<spirv::FUnordGreaterThanEqualOp>([](auto) { return "<"; })
      .Default([](Operation *) { return nullptr; });
}

/// GLSL.std.450 instructions with a WGSL builtin of the same meaning.
const char *builtinFunction(Operation &op) {
  return llvm::TypeSwitch<Operation *, const char *>(&op)
      .Case<spirv::GLExpOp>([](auto) { return "exp"; })
      .Case<spirv::GLExp2Op>([](auto) { return "exp2"; })
      .Case<spirv::GLLogOp>([](auto) { return "log"; })
      .Case<spirv::GLLog2Op>([](auto) { return "log2"; })
      .Case<spirv::GLSqrtOp>([](auto) { return "sqrt"; })
      .Case<spirv::GLInverseSqrtOp>([](auto) { return "inverseSqrt"; })
      .Case<spirv::GLTanhOp>([](auto) { return "tanh"; })
      .Case<spirv::GLSinhOp>([](auto) { return "sinh"; })
      .Case<spirv::GLCoshOp>([](auto) { return "cosh"; })
      .Case<spirv::GLSinOp>([](auto) { return "sin"; })
      .Case<spirv::GLCosOp>([](auto) { return "cos"; })
      .Case<spirv::GLTanOp>([](auto) { return "tan"; })
      .Case<spirv::GLAsinOp>([](auto) { return "asin"; })
      .Case<spirv::GLAcosOp>([](auto) { return "acos"; })
      .Case<spirv::GLAtanOp>([](auto) { return "atan"; })
      .Case<spirv::GLFAbsOp, spirv::GLSAbsOp>([](auto) { return "abs"; })
      .Case<spirv::GLFloorOp>([](auto) { return "floor"; })
      .Case<spirv::GLCeilOp>([](auto) { return "ceil"; })
      .Case<spirv::GLFractOp>([](auto) { return "fract"; })
      .Case<spirv::GLFSignOp, spirv::GLSSignOp>([](auto) { return "sign"; })
      .Case<spirv::GLPowOp>([](auto) { return "pow"; })
      .Case<spirv::GLFMaxOp, spirv::GLSMaxOp>([](auto) { return "max"; })
      .Case<spirv::GLFMinOp, spirv::GLSMinOp>([](auto) { return "min"; })
      .Case<spirv::GLFClampOp, spirv::GLSClampOp>([](auto) { return "clamp"; })
      .Case<spirv::GLFmaOp>([](auto) { return "fma"; })
      .Case<spirv::GLFMixOp>([](auto) { return "mix"; })
      .Default([](Operation *) { return nullptr; });
}

LogicalResult Printer::printOp(Operation &op) {
  // Operands of value ops, printed.
  llvm::SmallVector<std::string> a;
  auto operands = [&]() -> LogicalResult {
    for (Value v : op.getOperands()) {
      FailureOr<std::string> s = value(v);
      if (failed(s))
        return failure();
      a.push_back(*s);
    }
    return success();
  };
  auto typeOf = [&](Type t) -> std::string {
    FailureOr<std::string> s = typeName(t, &op);
    return succeeded(s) ? *s : std::string("?");
  };
  auto u32 = [](const std::string &s) { return "bitcast<u32>(" + s + ")"; };

  if (auto cst = dyn_cast<spirv::ConstantOp>(op)) {
    FailureOr<std::string> lit = literal(cst.getValue(), cst.getType(), &op);
    if (failed(lit))
      return failure();
    if (!lit->empty())
      return success(); // printed inline at its uses
    // Infinities and NaNs: WGSL rejects them in constant expressions; a let
    // of the bits keeps them a runtime value.
    auto f = cast<FloatAttr>(cst.getValue());
    uint64_t bits = f.getValue().bitcastToAPInt().getZExtValue();
    if (cst.getType().isF16()) {
      APFloat wide = f.getValue();
      bool lost;
      wide.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
      bits = wide.bitcastToAPInt().getZExtValue();
    }
    std::string b = fresh('v');
    std::string hex;
    llvm::raw_string_ostream hs(hex);
    hs << llvm::format("0x%08xu", static_cast<uint32_t>(bits));
    line("let " + b + " = " + hex + ";");
    std::string e = "bitcast<f32>(" + b + ")";
    if (cst.getType().isF16())
      e = "f16(" + e + ")";
    return declare(cst.getResult(), &op, e);
  }
  if (auto addr = dyn_cast<spirv::AddressOfOp>(op)) {
    (void)addr;
    return success(); // a place, printed where it is used
  }
  if (isa<spirv::AccessChainOp>(op))
    return success(); // a place, printed where it is used
  if (auto var = dyn_cast<spirv::VariableOp>(op)) {
    if (var.getStorageClass() != spirv::StorageClass::Function)
      return op.emitError("the webgpu target only takes Function variables in a function");
    FailureOr<std::string> t = typeName(cast<spirv::PointerType>(var.getType()).getPointeeType(), &op);
    if (failed(t))
      return failure();
    std::string name = fresh('p');
    names[var.getResult()] = name;
    line("var " + name + ": " + *t + ";");
    if (var.getInitializer()) {
      FailureOr<std::string> init = value(var.getInitializer());
      if (failed(init))
        return failure();
      line(name + " = " + *init + ";");
    }
    return success();
  }
  if (auto load = dyn_cast<spirv::LoadOp>(op)) {
    FailureOr<std::string> p = place(load.getPtr());
    if (failed(p))
      return failure();
    return declare(load.getResult(), &op, isAtomicPlace(load.getPtr()) ? "atomicLoad(&" + *p + ")" : *p);
  }
  if (auto store = dyn_cast<spirv::StoreOp>(op)) {
    FailureOr<std::string> p = place(store.getPtr());
    FailureOr<std::string> v = value(store.getValue());
    if (failed(p) || failed(v))
      return failure();
    if (isAtomicPlace(store.getPtr()))
      line("atomicStore(&" + *p + ", " + *v + ");");
    else
      line(*p + " = " + *v + ";");
    return success();
  }
  if (auto add = dyn_cast<spirv::AtomicIAddOp>(op)) {
    FailureOr<std::string> p = place(add.getPointer());
    FailureOr<std::string> v = value(add.getValue());
    if (failed(p) || failed(v))
      return failure();
    if (!isAtomicPlace(add.getPointer()))
      return op.emitError("the webgpu target cannot find the atomic variable of this atomic add");
    return declare(add.getResult(), &op, "atomicAdd(&" + *p + ", " + *v + ")");
  }
  if (auto barrier = dyn_cast<spirv::ControlBarrierOp>(op)) {
    if (barrier.getExecutionScope() != spirv::Scope::Workgroup)
      return op.emitError("the webgpu target only takes workgroup-scope control barriers");
    if (spirv::bitEnumContainsAny(barrier.getMemorySemantics(), spirv::MemorySemantics::UniformMemory))
      line("storageBarrier();");
    line("workgroupBarrier();");
    return success();
  }
  if (isa<spirv::ReturnOp>(op)) {
    line("return;");
    return success();
  }
  if (isa<spirv::UndefOp>(op))
    return declare(op.getResult(0), &op, typeOf(op.getResult(0).getType()) + "()");

  if (failed(operands()))
    return failure();
  if (op.getNumResults() != 1)
    return op.emitError() << "the webgpu target cannot print '" << op.getName() << "' as WGSL";
  Value res = op.getResult(0);
  Type rt = res.getType();
  // An integer division or remainder by a constant 0 is a shader-creation
  // error in WGSL ("integer division by zero is invalid"); through a `let` it
  // is a runtime division, which WGSL defines (x / 0 = x, x % 0 = 0).
  if (isa<spirv::SDivOp, spirv::SRemOp, spirv::SModOp, spirv::UDivOp, spirv::UModOp>(op) &&
      constantInt(op.getOperand(1)) == 0) {
    std::string zero = fresh('v');
    line("let " + zero + ": i32 = " + a[1] + ";");
    a[1] = zero;
  }
  // NaN and infinity tests on the bits: WGSL implementations may assume
  // floats are finite and fold `x != x` or `abs(x) > max` away.
  auto magnitudeBits = [&](unsigned i) {
    if (getElementTypeOrSelf(op.getOperand(i).getType()).isF16())
      return "(bitcast<u32>(vec2<f16>(" + a[i] + ", " + a[i] + ")) & 0x7fffu)";
    return "(bitcast<u32>(" + a[i] + ") & 0x7fffffffu)";
  };
  auto infBits = [&](unsigned i) -> std::string {
    return getElementTypeOrSelf(op.getOperand(i).getType()).isF16() ? "0x7c00u" : "0x7f800000u";
  };
  auto isNan = [&](unsigned i) { return "(" + magnitudeBits(i) + " > " + infBits(i) + ")"; };
  if (const char *infix = infixOperator(op))
    return declare(res, &op, a[0] + " " + infix + " " + a[1]);
  bool comparison = false;
  if (const char *uop = unsignedOperator(op, comparison)) {
    std::string e = u32(a[0]) + " " + uop + " " + u32(a[1]);
    return declare(res, &op, comparison ? e : "bitcast<i32>(" + e + ")");
  }
  if (const char *opp = unorderedOpposite(op))
    return declare(res, &op, "!(" + a[0] + " " + opp + " " + a[1] + ")");
  if (const char *fn = builtinFunction(op))
    return declare(res, &op, std::string(fn) + "(" + llvm::join(a, ", ") + ")");
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case<spirv::SModOp>([&](auto) {
        // Remainder with the divisor's sign.
        std::string rem = fresh('v');
        line("let " + rem + ": i32 = " + a[0] + " % " + a[1] + ";");
        return declare(res, &op,
                       "select(" + rem + ", " + rem + " + " + a[1] + ", " + rem + " != 0i && ((" + rem + " < 0i) != (" +
                           a[1] + " < 0i)))");
      })
      .Case<spirv::FModOp>(
          [&](auto) { return declare(res, &op, a[0] + " - " + a[1] + " * floor(" + a[0] + " / " + a[1] + ")"); })
      .Case<spirv::FOrdNotEqualOp>([&](auto) {
        return declare(res, &op, "(" + a[0] + " != " + a[1] + ") && !" + isNan(0) + " && !" + isNan(1));
      })
      .Case<spirv::FUnordEqualOp>([&](auto) {
        return declare(res, &op, "(" + a[0] + " == " + a[1] + ") || " + isNan(0) + " || " + isNan(1));
      })
      .Case<spirv::IsNanOp>([&](auto) { return declare(res, &op, isNan(0)); })
      .Case<spirv::IsInfOp>([&](auto) { return declare(res, &op, magnitudeBits(0) + " == " + infBits(0)); })
      .Case<spirv::FNegateOp, spirv::SNegateOp>([&](auto) { return declare(res, &op, "-(" + a[0] + ")"); })
      .Case<spirv::NotOp>([&](auto) { return declare(res, &op, "~(" + a[0] + ")"); })
      .Case<spirv::LogicalNotOp>([&](auto) { return declare(res, &op, "!(" + a[0] + ")"); })
      .Case<spirv::ShiftLeftLogicalOp, spirv::ShiftRightArithmeticOp, spirv::ShiftRightLogicalOp>(
          [&](auto) { return printShift(op, a[0], a[1]); })
      .Case<spirv::GLUMaxOp, spirv::GLUMinOp>([&](auto) {
        const char *fn = isa<spirv::GLUMaxOp>(op) ? "max" : "min";
        return declare(res, &op, "bitcast<i32>(" + std::string(fn) + "(" + u32(a[0]) + ", " + u32(a[1]) + "))");
      })
      .Case<spirv::SelectOp>([&](auto) { return declare(res, &op, "select(" + a[2] + ", " + a[1] + ", " + a[0] + ")"); })
      .Case<spirv::ConvertFToSOp, spirv::ConvertSToFOp, spirv::FConvertOp>(
          [&](auto) { return declare(res, &op, typeOf(rt) + "(" + a[0] + ")"); })
      .Case<spirv::ConvertUToFOp>([&](auto) { return declare(res, &op, typeOf(rt) + "(" + u32(a[0]) + ")"); })
      .Case<spirv::ConvertFToUOp>([&](auto) { return declare(res, &op, "bitcast<i32>(u32(" + a[0] + "))"); })
      .Case<spirv::BitcastOp>([&](auto) {
        if (op.getOperand(0).getType() == rt)
          return declare(res, &op, a[0]);
        return declare(res, &op, "bitcast<" + typeOf(rt) + ">(" + a[0] + ")");
      })
      .Case<spirv::CompositeExtractOp>([&](spirv::CompositeExtractOp x) -> LogicalResult {
        std::string e = a[0];
        for (Attribute i : x.getIndices())
          e += "[" + std::to_string(cast<IntegerAttr>(i).getInt()) + "]";
        return declare(res, &op, e);
      })
      .Case<spirv::CompositeConstructOp>(
          [&](auto) { return declare(res, &op, typeOf(rt) + "(" + llvm::join(a, ", ") + ")"); })
      .Default([&](Operation *) -> LogicalResult {
        if (isa<spirv::GroupNonUniformShuffleXorOp, spirv::GroupNonUniformShuffleOp>(op) ||
            op.getName().getStringRef().starts_with("spirv.GroupNonUniform"))
          return op.emitError() << "the webgpu target cannot print '" << op.getName()
                                << "': core WGSL has no subgroup operations";
        return op.emitError() << "the webgpu target cannot print '" << op.getName() << "' as WGSL";
      });
}

/// Shifts as PTX's shl/shr do them (the CUDA target's instructions): the
/// amount is unsigned and clamped to 32, so an amount of 32 or more gives 0
/// (`<<`, logical `>>`) or the sign (arithmetic `>>`). WGSL takes the amount
/// modulo 32 at run time and rejects a constant one of 32 or more, so:
/// constants print as the result or as a u32 literal below 32, run-time
/// amounts as a select on `s >= 32u` or a min with 31.
LogicalResult Printer::printShift(Operation &op, const std::string &x, const std::string &amount) {
  Value res = op.getResult(0);
  bool left = isa<spirv::ShiftLeftLogicalOp>(op), arithmetic = isa<spirv::ShiftRightArithmeticOp>(op);
  auto shifted = [&](const std::string &s) {
    if (left)
      return x + " << " + s;
    if (arithmetic)
      return x + " >> " + s;
    return "bitcast<i32>(bitcast<u32>(" + x + ") >> " + s + ")";
  };
  if (std::optional<int64_t> c = constantInt(op.getOperand(1))) {
    uint32_t s = static_cast<uint32_t>(*c);
    if (s >= 32 && !arithmetic)
      return declare(res, &op, "0i");
    return declare(res, &op, shifted(std::to_string(std::min<uint32_t>(s, 31)) + "u"));
  }
  std::string s = "bitcast<u32>(" + amount + ")";
  if (arithmetic)
    return declare(res, &op, shifted("min(" + s + ", 31u)"));
  return declare(res, &op, "select(" + shifted("(" + s + " & 31u)") + ", 0i, " + s + " >= 32u)");
}

LogicalResult Printer::printBlockOps(Block &block) {
  for (Operation &op : block.without_terminator()) {
    if (auto sel = dyn_cast<spirv::SelectionOp>(op)) {
      if (failed(printConstruct(&op, sel.getBody(), /*isLoop=*/false)))
        return failure();
      continue;
    }
    if (auto loop = dyn_cast<spirv::LoopOp>(op)) {
      if (failed(printConstruct(&op, loop.getBody(), /*isLoop=*/true)))
        return failure();
      continue;
    }
    if (failed(printOp(op)))
      return failure();
  }
  return success();
}

LogicalResult Printer::declareBlockArgs(Region &region, Operation *where) {
  for (Block &block : region)
    for (BlockArgument arg : block.getArguments()) {
      FailureOr<std::string> t = typeName(arg.getType(), where);
      if (failed(t))
        return failure();
      std::string name = fresh('h');
      line("var " + name + ": " + *t + ";");
      names[arg] = name;
    }
  return success();
}

LogicalResult Printer::assignArgs(Block *target, OperandRange args, Operation *where) {
  if (args.empty())
    return success();
  // Through temporaries: an argument may read another one this edge sets.
  llvm::SmallVector<std::string> temps;
  for (Value v : args) {
    FailureOr<std::string> s = value(v);
    if (failed(s))
      return failure();
    if (args.size() == 1) {
      temps.push_back(*s);
      continue;
    }
    FailureOr<std::string> t = typeName(v.getType(), where);
    if (failed(t))
      return failure();
    std::string tmp = fresh('v');
    line("let " + tmp + ": " + *t + " = " + *s + ";");
    temps.push_back(tmp);
  }
  for (auto [arg, v] : llvm::zip(target->getArguments(), temps))
    line(names[arg] + " = " + v + ";");
  return success();
}

LogicalResult Printer::printEdge(Block *from, Block *target, OperandRange args, Operation *where, bool nested) {
  (void)from;
  if (failed(assignArgs(target, args, where)))
    return failure();
  if (target == construct.merge) {
    if (construct.header)
      line("break;");
    return success();
  }
  if (target == construct.header) {
    if (nested)
      line("continue;");
    return success();
  }
  return printChain(target, nested);
}

LogicalResult Printer::printChain(Block *block, bool nested) {
  if (failed(printBlockOps(*block)))
    return failure();
  Operation *term = block->getTerminator();
  if (auto br = dyn_cast<spirv::BranchOp>(term))
    return printEdge(block, br.getTarget(), br.getTargetOperands(), term, nested);
  if (auto cbr = dyn_cast<spirv::BranchConditionalOp>(term)) {
    FailureOr<std::string> c = branchCondition(cbr.getCondition());
    if (failed(c))
      return failure();
    Block *t = cbr.getTrueBlock(), *f = cbr.getFalseBlock();
    // A loop's exit test: break, then go on in the loop.
    if (construct.header && (t == construct.merge || f == construct.merge) && t != f) {
      bool exitOnTrue = t == construct.merge;
      line("if (" + (exitOnTrue ? *c : "!(" + *c + ")") + ") {");
      ++indent;
      if (failed(assignArgs(exitOnTrue ? t : f, exitOnTrue ? cbr.getTrueTargetOperands() : cbr.getFalseTargetOperands(),
                            term)))
        return failure();
      line("break;");
      --indent;
      line("}");
      return exitOnTrue ? printEdge(block, f, cbr.getFalseTargetOperands(), term, nested)
                        : printEdge(block, t, cbr.getTrueTargetOperands(), term, nested);
    }
    line("if (" + *c + ") {");
    ++indent;
    if (failed(printEdge(block, t, cbr.getTrueTargetOperands(), term, /*nested=*/true)))
      return failure();
    --indent;
    if (f != construct.merge || !cbr.getFalseTargetOperands().empty() || construct.header) {
      line("} else {");
      ++indent;
      if (failed(printEdge(block, f, cbr.getFalseTargetOperands(), term, /*nested=*/true)))
        return failure();
      --indent;
    }
    line("}");
    return success();
  }
  if (isa<spirv::MergeOp>(term))
    return success();
  if (isa<spirv::ReturnOp>(term)) {
    line("return;");
    return success();
  }
  return term->emitError() << "the webgpu target cannot print the terminator '" << term->getName() << "' as WGSL";
}

LogicalResult Printer::printConstruct(Operation *op, Region &region, bool isLoop) {
  // Results of the construct: vars the merge assigns.
  llvm::SmallVector<std::string> results;
  for (Value res : op->getResults()) {
    FailureOr<std::string> t = typeName(res.getType(), op);
    if (failed(t))
      return failure();
    std::string name = fresh('s');
    line("var " + name + ": " + *t + ";");
    results.push_back(name);
  }
  if (failed(declareBlockArgs(region, op)))
    return failure();
  Block *merge = nullptr;
  for (Block &b : region)
    if (isa<spirv::MergeOp>(b.getTerminator()))
      merge = &b;
  if (!merge)
    return op->emitError("the webgpu target expects a structured construct with a merge block");
  Construct saved = construct;
  Block *entry = &region.front();
  if (isLoop) {
    auto br = dyn_cast<spirv::BranchOp>(entry->getTerminator());
    if (!br || failed(printBlockOps(*entry)))
      return failure(!br ? (op->emitError("the webgpu target expects a loop entry that branches to its header"), true)
                         : true);
    if (failed(assignArgs(br.getTarget(), br.getTargetOperands(), op)))
      return failure();
    construct = {merge, br.getTarget(), op};
    line("loop {");
    ++indent;
    if (failed(printChain(br.getTarget(), /*nested=*/false)))
      return failure();
    --indent;
    line("}");
  } else {
    construct = {merge, nullptr, op};
    if (failed(printChain(entry, /*nested=*/false)))
      return failure();
  }
  construct = saved;
  if (failed(printBlockOps(*merge)))
    return failure();
  auto mergeOp = cast<spirv::MergeOp>(merge->getTerminator());
  for (auto [name, v, res] : llvm::zip(results, mergeOp.getOperands(), op->getResults())) {
    FailureOr<std::string> s = value(v);
    if (failed(s))
      return failure();
    line(name + " = " + *s + ";");
    names[res] = name;
  }
  return success();
}

/// 1. Seeds: loads of the invocation-indexed built-ins, of storage buffers the
///    kernel writes (and of atomics), of workgroup memory; atomic results.
/// 2. Propagation to a fixed point: results of ops with a non-uniform operand;
///    loop-carried block arguments and construct results fed a non-uniform
///    value; function variables stored a non-uniform value or stored under a
///    non-uniform condition, and their loads.
/// The analysis is at least as conservative as WGSL's for the code the
/// printer writes (read-only storage and uniform buffers are uniform there too).
void Printer::analyzeUniformity(spirv::FuncOp fn) {
  auto baseOf = [](Value ptr) {
    while (auto chain = ptr.getDefiningOp<spirv::AccessChainOp>())
      ptr = chain.getBasePtr();
    return ptr;
  };
  auto uniformPlace = [&](Value ptr) {
    Value base = baseOf(ptr);
    auto addr = base.getDefiningOp<spirv::AddressOfOp>();
    if (!addr)
      return false; // function variables: decided by their stores
    auto var = module.lookupSymbol<spirv::GlobalVariableOp>(addr.getVariable());
    if (!var)
      return false;
    if (std::optional<StringRef> builtIn = var.getBuiltIn())
      return *builtIn == "WorkgroupId" || *builtIn == "NumWorkgroups";
    auto it = globals.find(addr.getVariable());
    if (it == globals.end())
      return false;
    const Global &g = it->second;
    if (g.uniformParams)
      return true;
    return g.storage == spirv::StorageClass::StorageBuffer && !g.atomic && g.binding >= 0 &&
           r.bindings[g.binding].readOnly;
  };
  llvm::DenseSet<Operation *> nonUniformVars;
  // Constructs whose branch conditions are non-uniform.
  auto underNonUniform = [&](Operation *op) {
    for (Operation *p = op->getParentOp(); p && !isa<spirv::FuncOp>(p); p = p->getParentOp()) {
      if (!isa<spirv::SelectionOp, spirv::LoopOp>(p))
        continue;
      bool bad = false;
      p->walk([&](spirv::BranchConditionalOp br) {
        if (br->getParentOp() == p && nonUniform.contains(br.getCondition()))
          bad = true;
      });
      if (bad)
        return true;
    }
    return false;
  };
  bool changed = true;
  auto mark = [&](Value v) {
    if (nonUniform.insert(v).second)
      changed = true;
  };
  while (changed) {
    changed = false;
    fn.walk([&](Operation *op) {
      if (auto load = dyn_cast<spirv::LoadOp>(op)) {
        Value base = baseOf(load.getPtr());
        bool bad = base.getDefiningOp<spirv::VariableOp>() ? nonUniformVars.contains(base.getDefiningOp())
                                                           : !uniformPlace(load.getPtr());
        if (auto chain = load.getPtr().getDefiningOp<spirv::AccessChainOp>())
          bad |= llvm::any_of(chain.getIndices(), [&](Value idx) { return nonUniform.contains(idx); });
        if (bad)
          mark(load.getResult());
        return;
      }
      if (auto store = dyn_cast<spirv::StoreOp>(op)) {
        if (auto var = baseOf(store.getPtr()).getDefiningOp<spirv::VariableOp>())
          if ((nonUniform.contains(store.getValue()) || underNonUniform(op)) && nonUniformVars.insert(var).second)
            changed = true;
        return;
      }
      if (isa<spirv::AtomicIAddOp>(op)) {
        mark(op->getResult(0));
        return;
      }
      if (auto br = dyn_cast<spirv::BranchOp>(op)) {
        for (auto [arg, v] : llvm::zip(br.getTarget()->getArguments(), br.getTargetOperands()))
          if (nonUniform.contains(v))
            mark(arg);
        return;
      }
      if (auto cbr = dyn_cast<spirv::BranchConditionalOp>(op)) {
        for (auto [arg, v] : llvm::zip(cbr.getTrueBlock()->getArguments(), cbr.getTrueTargetOperands()))
          if (nonUniform.contains(v) || nonUniform.contains(cbr.getCondition()))
            mark(arg);
        for (auto [arg, v] : llvm::zip(cbr.getFalseBlock()->getArguments(), cbr.getFalseTargetOperands()))
          if (nonUniform.contains(v) || nonUniform.contains(cbr.getCondition()))
            mark(arg);
        return;
      }
      if (auto merge = dyn_cast<spirv::MergeOp>(op)) {
        Operation *construct = op->getParentOp();
        for (auto [res, v] : llvm::zip(construct->getResults(), merge.getOperands()))
          if (nonUniform.contains(v) || underNonUniform(op))
            mark(res);
        return;
      }
      if (isa<spirv::SelectionOp, spirv::LoopOp, spirv::AccessChainOp>(op))
        return;
      for (Value v : op->getOperands())
        if (nonUniform.contains(v)) {
          for (Value res : op->getResults())
            mark(res);
          break;
        }
    });
  }
}

/// The condition of a branch: as it is, unless it may differ between
/// invocations and the construct it steers holds a barrier, which WGSL only
/// allows in uniform control flow. Then invocation 0's value is broadcast
/// through workgroup memory with workgroupUniformLoad (a .tile condition is
/// one value per block: the body runs once per block), and a barrier keeps
/// the next write of the variable after every invocation's read.
FailureOr<std::string> Printer::branchCondition(Value cond) {
  FailureOr<std::string> c = value(cond);
  if (failed(c) || !construct.op || !nonUniform.contains(cond))
    return c;
  bool barrier = false;
  construct.op->walk([&](spirv::ControlBarrierOp) { barrier = true; });
  if (!barrier)
    return c;
  // One variable serves every branch: the barrier after each read orders it
  // before the next write.
  std::string var = "tilec_uniform";
  usesUniformVar = true;
  needsLocalIndex = true;
  line("if (tilec_local_invocation_index == 0u) {");
  line("  " + var + " = select(0u, 1u, " + *c + ");");
  line("}");
  std::string name = fresh('v');
  line("let " + name + ": bool = workgroupUniformLoad(&" + var + ") != 0u;");
  line("workgroupBarrier();");
  return name;
}

LogicalResult Printer::run() {
  // The entry point.
  spirv::EntryPointOp entry;
  for (auto ep : module.getOps<spirv::EntryPointOp>()) {
    if (entry)
      return ep.emitError("the webgpu target expects one entry point per module");
    entry = ep;
  }
  if (!entry || entry.getExecutionModel() != spirv::ExecutionModel::GLCompute)
    return module.emitError("the webgpu target expects one GLCompute entry point");
  auto fn = module.lookupSymbol<spirv::FuncOp>(entry.getFn());
  if (!fn)
    return entry.emitError("the entry point's function is missing");
  for (auto other : module.getOps<spirv::FuncOp>())
    if (other != fn)
      return other.emitError("the webgpu target prints modules of one function (the kernel) only");
  // The generated module-scope names first, so that user names yield to them.
  for (const char *generated : {"TilecParams", "tilec_params", "tilec_uniform"})
    moduleNames.insert(generated);
  out.entryPoint = uniqueName(identifier(r.kernelName));

  // 1. Globals. Which variables atomics touch (their elements become atomic<i32>).
  llvm::StringSet<> atomicVars;
  WalkResult atomics = fn.walk([&](Operation *op) -> WalkResult {
    if (!isa<spirv::AtomicIAddOp>(op) && !op->getName().getStringRef().starts_with("spirv.Atomic"))
      return WalkResult::advance();
    if (!isa<spirv::AtomicIAddOp>(op)) {
      op->emitError() << "the webgpu target cannot print '" << op->getName() << "' as WGSL";
      return WalkResult::interrupt();
    }
    Value ptr = op->getOperand(0);
    while (auto chain = ptr.getDefiningOp<spirv::AccessChainOp>())
      ptr = chain.getBasePtr();
    auto addr = ptr.getDefiningOp<spirv::AddressOfOp>();
    if (!addr) {
      op->emitError("the webgpu target takes atomics on buffers and workgroup variables only");
      return WalkResult::interrupt();
    }
    atomicVars.insert(addr.getVariable());
    return WalkResult::advance();
  });
  if (atomics.wasInterrupted())
    return failure();

  std::string declText;
  llvm::raw_string_ostream decls(declText);
  out.uniformBinding = static_cast<uint32_t>(r.bindings.size());
  out.bufferUsed.assign(r.bindings.size(), false);
  out.bufferAtomic.assign(r.bindings.size(), false);
  unsigned workgroupVars = 0;
  // Workgroup storage as WebGPU counts it: each variable rounded up to 16 bytes.
  uint64_t workgroupBytes = 0;
  for (auto var : module.getOps<spirv::GlobalVariableOp>()) {
    Global g;
    auto ptrType = cast<spirv::PointerType>(var.getType());
    g.storage = ptrType.getStorageClass();
    g.atomic = atomicVars.contains(var.getSymName());
    Type pointee = ptrType.getPointeeType();
    if (std::optional<StringRef> builtIn = var.getBuiltIn()) {
      std::optional<BuiltinInfo> info = builtinInfo(*builtIn);
      if (!info)
        return var.emitError() << "the webgpu target has no WGSL built-in value for SPIR-V's " << *builtIn;
      std::string param = uniqueName(std::string("tilec_") + info->wgsl);
      builtinParams.push_back(std::string("@builtin(") + info->wgsl + ") " + param + ": " +
                              (info->vector ? "vec3<u32>" : "u32"));
      FailureOr<std::string> t = typeName(pointee, var);
      if (failed(t))
        return failure();
      builtinExpr[var.getSymName()] = "bitcast<" + *t + ">(" + param + ")";
      g.name = param;
      globals[var.getSymName()] = g;
      continue;
    }
    switch (g.storage) {
    case spirv::StorageClass::StorageBuffer: {
      std::optional<uint32_t> binding = var.getBinding();
      if (!binding || *binding >= r.bindings.size())
        return var.emitError("the webgpu target expects each storage buffer bound to one tensor");
      const vk::Binding &b = r.bindings[*binding];
      g.binding = *binding;
      g.name = uniqueName(identifier(r.params[b.param].name));
      FailureOr<std::string> t = typeName(pointee, var, g.atomic);
      if (failed(t))
        return failure();
      out.bufferUsed[*binding] = true;
      out.bufferAtomic[*binding] = g.atomic;
      decls << "@group(0) @binding(" << *binding << ") var<storage, " << (b.readOnly && !g.atomic ? "read" : "read_write")
            << "> " << g.name << ": " << *t << ";\n";
      break;
    }
    case spirv::StorageClass::PushConstant: {
      g.uniformParams = true;
      g.name = "tilec_params";
      out.uniformSize = static_cast<uint32_t>(llvm::alignTo(std::max<uint32_t>(r.pushConstantSize, 4), 16));
      decls << "struct TilecParams {\n  w: array<vec4<i32>, " << out.uniformSize / 16 << ">,\n};\n";
      decls << "@group(0) @binding(" << out.uniformBinding << ") var<uniform> tilec_params: TilecParams;\n";
      break;
    }
    case spirv::StorageClass::Workgroup: {
      g.name = uniqueName("tilec_wg" + std::to_string(workgroupVars++));
      FailureOr<std::string> t = typeName(pointee, var, g.atomic);
      if (failed(t))
        return failure();
      workgroupBytes += llvm::alignTo(wgslSize(pointee), 16);
      decls << "var<workgroup> " << g.name << ": " << *t << ";\n";
      break;
    }
    default:
      return var.emitError() << "the webgpu target cannot place a variable in " << stringifyStorageClass(g.storage)
                             << " storage";
    }
    globals[var.getSymName()] = g;
  }

  // 2-3. The function body, after the uniformity analysis its barriers need.
  analyzeUniformity(fn);
  if (failed(printChain(&fn.getBody().front(), /*nested=*/false)))
    return failure();
  if (needsLocalIndex && !llvm::any_of(builtinParams, [](const std::string &p) {
        return llvm::StringRef(p).starts_with("@builtin(local_invocation_index)");
      }))
    builtinParams.push_back("@builtin(local_invocation_index) tilec_local_invocation_index: u32");
  // The broadcast variable is workgroup storage too (the Vulkan check before
  // the printer does not know it).
  if (usesUniformVar)
    workgroupBytes += 16;
  if (workgroupBytes > static_cast<uint64_t>(options.maxWorkgroupStorageBytes))
    return fn.emitError() << "kernel '" << r.kernelName << "' needs " << workgroupBytes
                          << " bytes of workgroup storage as WGSL declares it (each variable rounded up to 16 bytes"
                          << (usesUniformVar ? "; 16 of them broadcast a branch condition WGSL cannot prove uniform" : "")
                          << "); webgpu allows at most " << options.maxWorkgroupStorageBytes
                          << " (maxComputeWorkgroupStorageSize)";

  std::string text;
  llvm::raw_string_ostream os(text);
  os << "// Generated by tilec for webgpu: kernel '" << r.kernelName << "'. Do not edit.\n";
  if (usesF16 && !options.float16)
    return module.emitError() << "kernel '" << r.kernelName
                              << "' needs float16, which needs the 'shader-f16' feature (--webgpu-f16=0 turned it off)";
  out.usesFloat16 = usesF16;
  if (usesF16)
    os << "enable f16;\n";
  os << "\n" << declText << (usesUniformVar ? "var<workgroup> tilec_uniform: u32;\n" : "") << "\n";
  os << "@compute @workgroup_size(" << r.workgroupSize[0] << ", " << r.workgroupSize[1] << ", " << r.workgroupSize[2]
     << ")\n";
  os << "fn " << out.entryPoint << "(" << llvm::join(builtinParams, ", ") << ") {\n";
  os << bodyText << "}\n";
  out.wgsl = std::move(text);
  return success();
}

} // namespace

LogicalResult tilec::printWGSL(Operation *spirvModule, const WebGPUTargetOptions &options, WebGPUKernel &out) {
  auto module = dyn_cast<spirv::ModuleOp>(spirvModule);
  if (!module)
    return spirvModule->emitError("expected a spirv.module");
  Printer printer(module, options, out);
  return printer.run();
}
