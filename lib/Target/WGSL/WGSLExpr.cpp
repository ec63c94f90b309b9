//===- WGSLExpr.cpp - WGSL types, literals, values and ops ----------------===//
//
// The expression side of the WGSL printer: types and literals, values and the
// places pointers name, and one statement per op (docs/webgpu.md).
//
//===----------------------------------------------------------------------===//
#include "WGSLPrinter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <optional>

using namespace mlir;
using namespace tilec;
using namespace tilec::wgsl;

/// The value of an integer spirv.Constant, if `v` is one.
std::optional<int64_t> tilec::wgsl::constantInt(Value v) {
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

namespace {

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
      .Case<spirv::GLRoundEvenOp>([](auto) { return "round"; }) // WGSL's round is ties-to-even
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

} // namespace

LogicalResult Printer::printOp(Operation &op) {
  if (auto cst = dyn_cast<spirv::ConstantOp>(op))
    return printConstant(cst);
  LogicalResult result = success();
  if (printMemoryOp(op, result))
    return result;
  return printValueOp(op);
}

LogicalResult Printer::printConstant(spirv::ConstantOp cst) {
  FailureOr<std::string> lit = literal(cst.getValue(), cst.getType(), cst.getOperation());
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
  return declare(cst.getResult(), cst.getOperation(), e);
}

bool Printer::printMemoryOp(Operation &op, LogicalResult &result) {
  // Each case returns its result; none of them: not handled.
  std::optional<LogicalResult> r = [&]() -> std::optional<LogicalResult> {
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
    return std::nullopt;
  }();
  if (!r)
    return false;
  result = *r;
  return true;
}

LogicalResult Printer::printValueOp(Operation &op) {
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
