//===- AscendScalar.cpp - Types and scalar expressions in Ascend C ----------===//
//
// The C++ types of tile element types, literals, and arith/math ops as
// scalar-unit C++ expressions (also the grid expressions of the header).
//
//===----------------------------------------------------------------------===//
#include "AscendEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <cmath>

using namespace tilec;
using namespace tilec::ascend;


/// The C++ spelling of an element or scalar type; empty when unsupported.
std::string tilec::ascend::cxxType(Type t) {
  if (t.isIndex())
    return "int64_t";
  if (t.isF16())
    return "half";
  if (t.isF32())
    return "float";
  if (t.isF64())
    return "double";
  if (auto it = dyn_cast<IntegerType>(t)) {
    switch (it.getWidth()) {
    case 1: return "bool";
    case 8: return "int8_t";
    case 16: return "int16_t";
    case 32: return "int32_t";
    case 64: return "int64_t";
    }
  }
  return "";
}

/// Bytes of one element as the UB holds it.
int64_t tilec::ascend::elementBytes(Type t) {
  if (t.isInteger(1))
    return 1;
  return t.getIntOrFloatBitWidth() / 8;
}

bool tilec::ascend::isVectorFloat(Type t) { return t.isF16() || t.isF32(); }

/// The spec's spelling of an element type, for diagnostics.
std::string tilec::ascend::dtypeName(Type t) {
  if (t.isF64())
    return "float64";
  if (t.isBF16())
    return "bfloat16";
  if (t.isInteger(1))
    return "bool";
  if (isa<Float8E4M3FNType>(t))
    return "float8_e4m3";
  if (isa<Float8E5M2Type>(t))
    return "float8_e5m2";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

std::string tilec::ascend::floatLiteral(double v, Type t) {
  if (std::isnan(v))
    return "static_cast<" + cxxType(t) + ">(__builtin_nanf(\"\"))";
  if (std::isinf(v))
    return std::string(v < 0 ? "-" : "") + "static_cast<" + cxxType(t) + ">(__builtin_huge_valf())";
  std::string s;
  llvm::raw_string_ostream os(s);
  if (t.isF64())
    os << llvm::format("%.17g", v);
  else
    os << llvm::format("%.9g", v);
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  if (t.isF64())
    return s;
  if (t.isF32())
    return s + "f";
  return "static_cast<" + cxxType(t) + ">(" + s + "f)";
}

static std::optional<std::string> cmpiOp(arith::CmpIPredicate p, bool &isUnsigned) {
  using P = arith::CmpIPredicate;
  isUnsigned = p == P::ult || p == P::ule || p == P::ugt || p == P::uge;
  switch (p) {
  case P::eq: return "==";
  case P::ne: return "!=";
  case P::slt: case P::ult: return "<";
  case P::sle: case P::ule: return "<=";
  case P::sgt: case P::ugt: return ">";
  case P::sge: case P::uge: return ">=";
  }
  return std::nullopt;
}

static std::optional<std::string> cmpfExpr(arith::CmpFPredicate p, const std::string &a, const std::string &b) {
  using P = arith::CmpFPredicate;
  switch (p) {
  case P::OEQ: return a + " == " + b;
  case P::ONE: return "(" + a + " < " + b + " || " + a + " > " + b + ")";
  case P::OLT: return a + " < " + b;
  case P::OLE: return a + " <= " + b;
  case P::OGT: return a + " > " + b;
  case P::OGE: return a + " >= " + b;
  case P::UEQ: return "!(" + a + " < " + b + " || " + a + " > " + b + ")";
  case P::UNE: return a + " != " + b;
  case P::ULT: return "!(" + a + " >= " + b + ")";
  case P::ULE: return "!(" + a + " > " + b + ")";
  case P::UGT: return "!(" + a + " <= " + b + ")";
  case P::UGE: return "!(" + a + " < " + b + ")";
  case P::ORD: return "(" + a + " == " + a + " && " + b + " == " + b + ")";
  case P::UNO: return "(" + a + " != " + a + " || " + b + " != " + b + ")";
  case P::AlwaysTrue: return std::string("true");
  case P::AlwaysFalse: return std::string("false");
  }
  return std::nullopt;
}

static std::string unsignedOf(Type t) {
  unsigned w = t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
  return w == 1 ? "bool" : "uint" + std::to_string(w) + "_t";
}

/// The C++ expression of a scalar op's result; nullopt for ops outside the
/// scalar subset (math functions, which only the vector unit has).
bool tilec::ascend::isReservedName(llvm::StringRef n) {
  static const char *const words[] = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
      "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
      "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
      "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
      "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
      "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
      "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
      "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
      // What the generated code declares or uses by name.
      "main", "pipe", "block", "blocks", "tanh_buf", "tanh_tmp", "bx", "by", "bz", "e", "half", "bfloat16_t", "GM_ADDR", "AscendC",
      "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "size_t"};
  for (const char *w : words)
    if (n == w)
      return true;
  if (n.starts_with("scratch") || n.starts_with("tilec_") || n.starts_with("_"))
    return true;
  // Generated locals: a prefix and a counter.
  for (llvm::StringRef p : {"v", "frag", "shared", "local", "r", "lo", "go", "n", "i", "k", "c", "acc", "red"})
    if (n.size() > p.size() && n.starts_with(p) && llvm::all_of(n.drop_front(p.size()), llvm::isDigit))
      return true;
  return false;
}

std::optional<std::string> tilec::ascend::scalarExpr(Operation *op, llvm::function_ref<std::string(Value)> get,
                                                     StringRef helpers, bool cStyle) {
  auto bin = [&](StringRef sym) -> std::string {
    return "(" + get(op->getOperand(0)) + " " + sym.str() + " " + get(op->getOperand(1)) + ")";
  };
  Type rt = op->getNumResults() ? op->getResult(0).getType() : Type();
  std::string rc = rt ? cxxType(rt) : "";
  auto cast = [&](const std::string &e) {
    return cStyle ? "((" + rc + ")(" + e + "))" : "static_cast<" + rc + ">(" + e + ")";
  };
  auto asUnsigned = [&](Value v) { return "static_cast<" + unsignedOf(v.getType()) + ">(" + get(v) + ")"; };
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    if (auto f = dyn_cast<FloatAttr>(c.getValue()))
      return floatLiteral(f.getValueAsDouble(), rt);
    if (auto i = dyn_cast<IntegerAttr>(c.getValue())) {
      if (rt.isInteger(1))
        return std::string(i.getValue().isZero() ? "false" : "true");
      return cast(std::to_string(i.getValue().getSExtValue()) + "LL");
    }
    return std::nullopt;
  }
  if (isa<arith::AddFOp, arith::AddIOp>(op))
    return isa<arith::AddIOp>(op) ? cast(bin("+")) : bin("+");
  if (isa<arith::SubFOp, arith::SubIOp>(op))
    return isa<arith::SubIOp>(op) ? cast(bin("-")) : bin("-");
  if (isa<arith::MulFOp, arith::MulIOp>(op))
    return isa<arith::MulIOp>(op) ? cast(bin("*")) : bin("*");
  if (isa<arith::DivFOp>(op))
    return bin("/");
  if (isa<arith::DivSIOp>(op))
    return cast(bin("/"));
  if (isa<arith::RemSIOp>(op))
    return cast(bin("%"));
  if (isa<arith::DivUIOp, arith::RemUIOp>(op))
    return cast("(" + asUnsigned(op->getOperand(0)) + (isa<arith::DivUIOp>(op) ? " / " : " % ") +
                asUnsigned(op->getOperand(1)) + ")");
  if (isa<arith::FloorDivSIOp>(op))
    return cast(helpers.str() + "floordiv(" + get(op->getOperand(0)) + ", " + get(op->getOperand(1)) + ")");
  if (isa<arith::CeilDivSIOp>(op))
    return cast(helpers.str() + "ceildiv(" + get(op->getOperand(0)) + ", " + get(op->getOperand(1)) + ")");
  if (isa<arith::AndIOp>(op))
    return cast(bin("&"));
  if (isa<arith::OrIOp>(op))
    return cast(bin("|"));
  if (isa<arith::XOrIOp>(op))
    return cast(bin("^"));
  // Shifts by the width or more: 0 (<<, unsigned >>) or the sign (signed >>).
  if (isa<arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp>(op))
    return cast(helpers.str() + (isa<arith::ShLIOp>(op) ? "shl(" : isa<arith::ShRSIOp>(op) ? "shrs(" : "shru(") +
                get(op->getOperand(0)) + ", " + get(op->getOperand(1)) + ")");
  if (isa<arith::MaxSIOp, arith::MaximumFOp, arith::MaxNumFOp>(op))
    return "(" + get(op->getOperand(0)) + " > " + get(op->getOperand(1)) + " ? " + get(op->getOperand(0)) + " : " +
           get(op->getOperand(1)) + ")";
  if (isa<arith::MinSIOp, arith::MinimumFOp, arith::MinNumFOp>(op))
    return "(" + get(op->getOperand(0)) + " < " + get(op->getOperand(1)) + " ? " + get(op->getOperand(0)) + " : " +
           get(op->getOperand(1)) + ")";
  if (isa<arith::MaxUIOp, arith::MinUIOp>(op)) {
    std::string a = asUnsigned(op->getOperand(0)), b = asUnsigned(op->getOperand(1));
    return cast("(" + a + (isa<arith::MaxUIOp>(op) ? " > " : " < ") + b + " ? " + a + " : " + b + ")");
  }
  if (isa<arith::NegFOp>(op))
    return "(-" + get(op->getOperand(0)) + ")";
  if (auto c = dyn_cast<arith::CmpIOp>(op)) {
    bool u = false;
    auto sym = cmpiOp(c.getPredicate(), u);
    if (!sym)
      return std::nullopt;
    if (u)
      return "(" + asUnsigned(c.getLhs()) + " " + *sym + " " + asUnsigned(c.getRhs()) + ")";
    return "(" + get(c.getLhs()) + " " + *sym + " " + get(c.getRhs()) + ")";
  }
  if (auto c = dyn_cast<arith::CmpFOp>(op)) {
    auto e = cmpfExpr(c.getPredicate(), get(c.getLhs()), get(c.getRhs()));
    return e ? "(" + *e + ")" : e;
  }
  if (isa<arith::SelectOp>(op))
    return "(" + get(op->getOperand(0)) + " ? " + get(op->getOperand(1)) + " : " + get(op->getOperand(2)) + ")";
  if (isa<arith::IndexCastOp, arith::SIToFPOp, arith::FPToSIOp, arith::ExtFOp, arith::TruncFOp, arith::ExtSIOp,
          arith::TruncIOp>(op))
    return cast(get(op->getOperand(0)));
  if (isa<arith::ExtUIOp, arith::UIToFPOp, arith::IndexCastUIOp>(op))
    return cast(asUnsigned(op->getOperand(0)));
  if (isa<arith::FPToUIOp>(op))
    return cast("static_cast<" + unsignedOf(rt) + ">(" + get(op->getOperand(0)) + ")");
  if (isa<math::AbsIOp>(op))
    return cast("(" + get(op->getOperand(0)) + " < 0 ? -" + get(op->getOperand(0)) + " : " +
                get(op->getOperand(0)) + ")");
  if (isa<math::AbsFOp>(op))
    return "(" + get(op->getOperand(0)) + " < " + cast("0") + " ? -" + get(op->getOperand(0)) + " : " +
           get(op->getOperand(0)) + ")";
  return std::nullopt;
}


LogicalResult KernelEmitter::emitScalar(Operation *op) {
  auto expr = scalarExpr(op, [&](Value v) { return name(v); });
  if (!expr)
    return error(op, "cannot run '" + op->getName().getStringRef() +
                         "' on the AI Core's scalar unit (math functions need the vector unit: write them in a "
                         "T.Parallel over float tile elements)");
  Value r = op->getResult(0);
  std::string type = cxxType(r.getType());
  if (type.empty())
    return error(op, "does not support values of this type");
  std::string n = fresh("v");
  names[r] = n;
  line("const " + type + " " + n + " = " + *expr + ";");
  return success();
}
