//===- ASTDump.cpp - Textual dump of the AST for --emit=ast ---------------===//
//
// One node per line, children indented by two spaces, an optional role label
// ("target", "value", ...) before the node and its `<line:col>` at the end.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/AST.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"

#include <charconv>

using namespace tilec;
using namespace tilec::ast;
using llvm::cast;
using llvm::isa;
using llvm::StringRef;

StringRef ast::spelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return "+";
  case BinaryOp::Sub: return "-";
  case BinaryOp::Mul: return "*";
  case BinaryOp::Div: return "/";
  case BinaryOp::FloorDiv: return "//";
  case BinaryOp::Mod: return "%";
  case BinaryOp::Pow: return "**";
  case BinaryOp::BitAnd: return "&";
  case BinaryOp::BitOr: return "|";
  case BinaryOp::BitXor: return "^";
  case BinaryOp::Shl: return "<<";
  case BinaryOp::Shr: return ">>";
  }
  return "?";
}

StringRef ast::spelling(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg: return "-";
  case UnaryOp::Pos: return "+";
  case UnaryOp::Not: return "not";
  case UnaryOp::Invert: return "~";
  }
  return "?";
}

StringRef ast::spelling(CompareOp op) {
  switch (op) {
  case CompareOp::Eq: return "==";
  case CompareOp::Ne: return "!=";
  case CompareOp::Lt: return "<";
  case CompareOp::Le: return "<=";
  case CompareOp::Gt: return ">";
  case CompareOp::Ge: return ">=";
  case CompareOp::Is: return "is";
  case CompareOp::IsNot: return "is not";
  case CompareOp::In: return "in";
  case CompareOp::NotIn: return "not in";
  }
  return "?";
}

StringRef ast::spelling(BoolOpKind op) { return op == BoolOpKind::And ? "and" : "or"; }

namespace {

class Dumper {
public:
  Dumper(const llvm::SourceMgr &srcMgr, unsigned bufferId, llvm::raw_ostream &os)
      : srcMgr(srcMgr), bufferId(bufferId), os(os) {}

  void dumpStmt(const Stmt *s, unsigned indent);
  void dumpBody(StringRef label, const Body &body, unsigned indent);
  void dumpExpr(const Expr *e, unsigned indent, StringRef label = "");

private:
  /// Starts a line: indentation and the optional role label.
  llvm::raw_ostream &start(unsigned indent, StringRef label) {
    os.indent(indent * 2);
    if (!label.empty())
      os << label << ' ';
    return os;
  }
  /// Ends a line with the location of `loc`.
  void end(llvm::SMLoc loc) {
    if (loc.isValid()) {
      auto [line, col] = srcMgr.getLineAndColumn(loc, bufferId);
      os << " <" << line << ':' << col << '>';
    }
    os << '\n';
  }
  void printString(StringRef s);

  const llvm::SourceMgr &srcMgr;
  unsigned bufferId;
  llvm::raw_ostream &os;
};

} // namespace

void Dumper::printString(StringRef s) {
  os << '"';
  for (unsigned char c : s) {
    switch (c) {
    case '\n': os << "\\n"; break;
    case '\t': os << "\\t"; break;
    case '\r': os << "\\r"; break;
    case '\\': os << "\\\\"; break;
    case '"': os << "\\\""; break;
    default:
      if (c < 0x20 || c == 0x7F)
        os << "\\x" << llvm::format_hex_no_prefix(c, 2);
      else
        os << c;
    }
  }
  os << '"';
}

void Dumper::dumpExpr(const Expr *e, unsigned indent, StringRef label) {
  if (!e)
    return;
  llvm::raw_ostream &o = start(indent, label);
  switch (e->getKind()) {
  case Expr::Kind::IntLit:
    o << "IntLit " << cast<IntLitExpr>(e)->getValue();
    end(e->getLoc());
    return;
  case Expr::Kind::FloatLit: {
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof(buf), cast<FloatLitExpr>(e)->getValue());
    o << "FloatLit " << StringRef(buf, res.ptr - buf);
    end(e->getLoc());
    return;
  }
  case Expr::Kind::StrLit:
    o << "StrLit ";
    printString(cast<StrLitExpr>(e)->getValue());
    end(e->getLoc());
    return;
  case Expr::Kind::BoolLit:
    o << "BoolLit " << (cast<BoolLitExpr>(e)->getValue() ? "True" : "False");
    end(e->getLoc());
    return;
  case Expr::Kind::NoneLit:
    o << "NoneLit";
    end(e->getLoc());
    return;
  case Expr::Kind::Name:
    o << "Name " << cast<NameExpr>(e)->getName();
    end(e->getLoc());
    return;
  case Expr::Kind::Attribute: {
    auto *a = cast<AttributeExpr>(e);
    o << "Attribute ." << a->getAttr();
    end(e->getLoc());
    dumpExpr(a->getValue(), indent + 1);
    return;
  }
  case Expr::Kind::Call: {
    auto *c = cast<CallExpr>(e);
    o << "Call";
    end(e->getLoc());
    dumpExpr(c->getCallee(), indent + 1, "callee");
    for (const Expr *arg : c->getArgs())
      dumpExpr(arg, indent + 1, "arg");
    for (const Keyword &kw : c->getKeywords()) {
      start(indent + 1, "keyword") << kw.name;
      end(kw.nameRange.Start);
      dumpExpr(kw.value, indent + 2);
    }
    return;
  }
  case Expr::Kind::Subscript: {
    auto *s = cast<SubscriptExpr>(e);
    o << "Subscript";
    end(e->getLoc());
    dumpExpr(s->getValue(), indent + 1, "value");
    for (const Expr *idx : s->getIndices())
      dumpExpr(idx, indent + 1, "index");
    return;
  }
  case Expr::Kind::Slice: {
    auto *s = cast<SliceExpr>(e);
    o << "Slice";
    end(e->getLoc());
    dumpExpr(s->getLower(), indent + 1, "lower");
    dumpExpr(s->getUpper(), indent + 1, "upper");
    dumpExpr(s->getStep(), indent + 1, "step");
    return;
  }
  case Expr::Kind::Tuple:
  case Expr::Kind::List: {
    bool tuple = isa<TupleExpr>(e);
    o << (tuple ? "Tuple" : "List");
    end(e->getLoc());
    for (const Expr *elt : tuple ? cast<TupleExpr>(e)->getElts() : cast<ListExpr>(e)->getElts())
      dumpExpr(elt, indent + 1);
    return;
  }
  case Expr::Kind::Dict: {
    auto *d = cast<DictExpr>(e);
    o << "Dict";
    end(e->getLoc());
    for (size_t i = 0; i < d->getKeys().size(); ++i) {
      dumpExpr(d->getKeys()[i], indent + 1, "key");
      dumpExpr(d->getValues()[i], indent + 1, "value");
    }
    return;
  }
  case Expr::Kind::Binary: {
    auto *b = cast<BinaryExpr>(e);
    o << "Binary " << spelling(b->getOp());
    end(e->getLoc());
    dumpExpr(b->getLHS(), indent + 1);
    dumpExpr(b->getRHS(), indent + 1);
    return;
  }
  case Expr::Kind::Unary: {
    auto *u = cast<UnaryExpr>(e);
    o << "Unary " << spelling(u->getOp());
    end(e->getLoc());
    dumpExpr(u->getOperand(), indent + 1);
    return;
  }
  case Expr::Kind::Compare: {
    auto *c = cast<CompareExpr>(e);
    o << "Compare";
    for (CompareOp op : c->getOps())
      o << " '" << spelling(op) << "'";
    end(e->getLoc());
    for (const Expr *operand : c->getOperands())
      dumpExpr(operand, indent + 1);
    return;
  }
  case Expr::Kind::BoolOp: {
    auto *b = cast<BoolOpExpr>(e);
    o << "BoolOp " << spelling(b->getOp());
    end(e->getLoc());
    for (const Expr *operand : b->getOperands())
      dumpExpr(operand, indent + 1);
    return;
  }
  case Expr::Kind::IfExp: {
    auto *i = cast<IfExpExpr>(e);
    o << "IfExp";
    end(e->getLoc());
    dumpExpr(i->getCond(), indent + 1, "cond");
    dumpExpr(i->getThen(), indent + 1, "then");
    dumpExpr(i->getElse(), indent + 1, "else");
    return;
  }
  case Expr::Kind::Error:
    o << "Error";
    end(e->getLoc());
    return;
  }
}

void Dumper::dumpBody(StringRef label, const Body &body, unsigned indent) {
  os.indent(indent * 2) << label << '\n';
  for (const Stmt *s : body)
    dumpStmt(s, indent + 1);
}

void Dumper::dumpStmt(const Stmt *s, unsigned indent) {
  llvm::raw_ostream &o = start(indent, "");
  switch (s->getKind()) {
  case Stmt::Kind::Import: {
    auto *imp = cast<ImportStmt>(s);
    if (imp->getFromModule().empty())
      o << "Import ";
    else
      o << "ImportFrom " << imp->getFromModule() << " import ";
    llvm::interleaveComma(imp->getNames(), o, [&](const ImportName &n) {
      o << n.dottedName;
      if (!n.asName.empty())
        o << " as " << n.asName;
    });
    end(s->getLoc());
    return;
  }
  case Stmt::Kind::Assign: {
    auto *a = cast<AssignStmt>(s);
    o << "Assign";
    end(s->getLoc());
    for (const Expr *t : a->getTargets())
      dumpExpr(t, indent + 1, "target");
    dumpExpr(a->getAnnotation(), indent + 1, "annotation");
    dumpExpr(a->getValue(), indent + 1, "value");
    return;
  }
  case Stmt::Kind::AugAssign: {
    auto *a = cast<AugAssignStmt>(s);
    o << "AugAssign " << spelling(a->getOp()) << '=';
    end(s->getLoc());
    dumpExpr(a->getTarget(), indent + 1, "target");
    dumpExpr(a->getValue(), indent + 1, "value");
    return;
  }
  case Stmt::Kind::Expr:
    o << "ExprStmt";
    end(s->getLoc());
    dumpExpr(cast<ExprStmt>(s)->getExpr(), indent + 1);
    return;
  case Stmt::Kind::Pass:
    o << "Pass";
    end(s->getLoc());
    return;
  case Stmt::Kind::Return:
    o << "Return";
    end(s->getLoc());
    dumpExpr(cast<ReturnStmt>(s)->getValue(), indent + 1, "value");
    return;
  case Stmt::Kind::If: {
    auto *i = cast<IfStmt>(s);
    o << (i->isElif() ? "Elif" : "If");
    end(s->getLoc());
    dumpExpr(i->getCond(), indent + 1, "cond");
    dumpBody("then", i->getThen(), indent + 1);
    // An elif chain prints flat: the Elif node stands in for the else body.
    const Body &elseBody = i->getElse();
    if (elseBody.size() == 1 && isa<IfStmt>(elseBody.front()) && cast<IfStmt>(elseBody.front())->isElif())
      dumpStmt(elseBody.front(), indent);
    else if (!elseBody.empty())
      dumpBody("else", elseBody, indent + 1);
    return;
  }
  case Stmt::Kind::For: {
    auto *f = cast<ForStmt>(s);
    o << "For";
    end(s->getLoc());
    dumpExpr(f->getTarget(), indent + 1, "target");
    dumpExpr(f->getIter(), indent + 1, "iter");
    dumpBody("body", f->getBody(), indent + 1);
    return;
  }
  case Stmt::Kind::With: {
    auto *w = cast<WithStmt>(s);
    o << "With";
    end(s->getLoc());
    dumpExpr(w->getContext(), indent + 1, "context");
    dumpExpr(w->getTarget(), indent + 1, "as");
    dumpBody("body", w->getBody(), indent + 1);
    return;
  }
  case Stmt::Kind::FunctionDef: {
    auto *f = cast<FunctionDefStmt>(s);
    o << "FunctionDef " << f->getName();
    end(f->getNameRange().Start);
    for (const Expr *d : f->getDecorators())
      dumpExpr(d, indent + 1, "decorator");
    for (const Param &p : f->getParams()) {
      start(indent + 1, "param") << p.name;
      end(p.range.Start);
      dumpExpr(p.annotation, indent + 2, "annotation");
      dumpExpr(p.defaultValue, indent + 2, "default");
    }
    dumpExpr(f->getReturns(), indent + 1, "returns");
    dumpBody("body", f->getBody(), indent + 1);
    return;
  }
  }
}

void ast::dump(const Module &module, const llvm::SourceMgr &srcMgr, llvm::raw_ostream &os) {
  Dumper dumper(srcMgr, module.bufferId, os);
  os << "Module\n";
  for (const Stmt *s : module.body)
    dumper.dumpStmt(s, 1);
}
