//===- ASTDump.cpp - Textual dump of the AST for --emit=ast ---------------===//
//
// One node per line, children indented by two spaces, an optional role label
// ("target", "value", ...) before the node and its `<line:col>` at the end.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/AST.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"

#include <charconv>

using namespace tilec;
using namespace tilec::ast;
using llvm::cast;
using llvm::isa;
using llvm::StringRef;

namespace {

class Dumper {
public:
  Dumper(const llvm::SourceMgr &srcMgr, unsigned bufferId, llvm::raw_ostream &os)
      : srcMgr(srcMgr), bufferId(bufferId), os(os) {}

  void dumpStmt(const Stmt *s, unsigned indent);
  void dumpBody(StringRef label, const Body &body, unsigned indent);
  void dumpExpr(const Expr *e, unsigned indent, StringRef label = "");
  void dumpLeafExpr(const Expr *e);
  void dumpAccessExpr(const Expr *e, unsigned indent);
  void dumpDisplayExpr(const Expr *e, unsigned indent);
  void dumpOperatorExpr(const Expr *e, unsigned indent);
  void dumpParams(llvm::ArrayRef<Param> params, unsigned indent);
  void dumpFString(const FStringExpr *f, unsigned indent);
  void dumpComprehension(const ComprehensionExpr *c, unsigned indent);
  void dumpNewStmt(const Stmt *s, unsigned indent);

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
  void printString(StringRef s) { printString(os, s); }
  void printString(llvm::raw_ostream &o, StringRef s);

  const llvm::SourceMgr &srcMgr;
  unsigned bufferId;
  llvm::raw_ostream &os;
};

} // namespace

void Dumper::printString(llvm::raw_ostream &os, StringRef s) {
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

/// The text of a node without children (a literal, a name, `...`, an error).
void Dumper::dumpLeafExpr(const Expr *e) {
  switch (e->getKind()) {
  case Expr::Kind::IntLit:
    if (cast<IntLitExpr>(e)->getValue() == UINT64_MAX) // 2**64 - 1 or more: the spelling
      os << "IntLit "
         << llvm::StringRef(e->getRange().Start.getPointer(),
                            e->getRange().End.getPointer() - e->getRange().Start.getPointer());
    else
      os << "IntLit " << cast<IntLitExpr>(e)->getValue();
    break;
  case Expr::Kind::FloatLit: {
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof(buf), cast<FloatLitExpr>(e)->getValue());
    os << "FloatLit " << StringRef(buf, res.ptr - buf);
    break;
  }
  case Expr::Kind::StrLit:
    os << (cast<StrLitExpr>(e)->isBytes() ? "BytesLit " : "StrLit ");
    printString(cast<StrLitExpr>(e)->getValue());
    break;
  case Expr::Kind::BoolLit:
    os << "BoolLit " << (cast<BoolLitExpr>(e)->getValue() ? "True" : "False");
    break;
  case Expr::Kind::NoneLit:
    os << "NoneLit";
    break;
  case Expr::Kind::Name:
    os << "Name " << cast<NameExpr>(e)->getName();
    break;
  case Expr::Kind::Ellipsis:
    os << "Ellipsis";
    break;
  case Expr::Kind::Error:
    os << "Error";
    break;
  default:
    llvm_unreachable("not a leaf expression");
  }
  end(e->getLoc());
}

/// Attribute, call, subscript and slice nodes.
void Dumper::dumpAccessExpr(const Expr *e, unsigned indent) {
  switch (e->getKind()) {
  case Expr::Kind::Attribute: {
    auto *a = cast<AttributeExpr>(e);
    os << "Attribute ." << a->getAttr();
    end(e->getLoc());
    dumpExpr(a->getValue(), indent + 1);
    return;
  }
  case Expr::Kind::Call: {
    auto *c = cast<CallExpr>(e);
    os << "Call";
    end(e->getLoc());
    dumpExpr(c->getCallee(), indent + 1, "callee");
    for (const Expr *arg : c->getArgs())
      dumpExpr(arg, indent + 1, "arg");
    for (const Keyword &kw : c->getKeywords()) {
      start(indent + 1, "keyword") << (kw.isDoubleStar() ? StringRef("**") : StringRef(kw.name));
      end(kw.nameRange.Start);
      dumpExpr(kw.value, indent + 2);
    }
    return;
  }
  case Expr::Kind::Subscript: {
    auto *s = cast<SubscriptExpr>(e);
    os << "Subscript";
    end(e->getLoc());
    dumpExpr(s->getValue(), indent + 1, "value");
    for (const Expr *idx : s->getIndices())
      dumpExpr(idx, indent + 1, "index");
    return;
  }
  case Expr::Kind::Slice: {
    auto *s = cast<SliceExpr>(e);
    os << "Slice";
    end(e->getLoc());
    dumpExpr(s->getLower(), indent + 1, "lower");
    dumpExpr(s->getUpper(), indent + 1, "upper");
    dumpExpr(s->getStep(), indent + 1, "step");
    return;
  }
  default:
    llvm_unreachable("not an access expression");
  }
}

/// Tuple, list, dict and set displays and starred elements.
void Dumper::dumpDisplayExpr(const Expr *e, unsigned indent) {
  switch (e->getKind()) {
  case Expr::Kind::Tuple:
  case Expr::Kind::List: {
    bool tuple = isa<TupleExpr>(e);
    os << (tuple ? "Tuple" : "List");
    end(e->getLoc());
    for (const Expr *elt : tuple ? cast<TupleExpr>(e)->getElts() : cast<ListExpr>(e)->getElts())
      dumpExpr(elt, indent + 1);
    return;
  }
  case Expr::Kind::Dict: {
    auto *d = cast<DictExpr>(e);
    os << "Dict";
    end(e->getLoc());
    for (size_t i = 0; i < d->getKeys().size(); ++i) {
      dumpExpr(d->getKeys()[i], indent + 1, "key");
      dumpExpr(d->getValues()[i], indent + 1, d->getKeys()[i] ? "value" : "unpack");
    }
    return;
  }
  case Expr::Kind::Set:
    os << "Set";
    end(e->getLoc());
    for (const Expr *elt : cast<SetExpr>(e)->getElts())
      dumpExpr(elt, indent + 1);
    return;
  case Expr::Kind::Starred:
    os << "Starred";
    end(e->getLoc());
    dumpExpr(cast<StarredExpr>(e)->getValue(), indent + 1);
    return;
  default:
    llvm_unreachable("not a display expression");
  }
}

/// Binary, unary, comparison, boolean and conditional expressions.
void Dumper::dumpOperatorExpr(const Expr *e, unsigned indent) {
  switch (e->getKind()) {
  case Expr::Kind::Binary: {
    auto *b = cast<BinaryExpr>(e);
    os << "Binary " << spelling(b->getOp());
    end(e->getLoc());
    dumpExpr(b->getLHS(), indent + 1);
    dumpExpr(b->getRHS(), indent + 1);
    return;
  }
  case Expr::Kind::Unary: {
    auto *u = cast<UnaryExpr>(e);
    os << "Unary " << spelling(u->getOp());
    end(e->getLoc());
    dumpExpr(u->getOperand(), indent + 1);
    return;
  }
  case Expr::Kind::Compare: {
    auto *c = cast<CompareExpr>(e);
    os << "Compare";
    for (CompareOp op : c->getOps())
      os << " '" << spelling(op) << "'";
    end(e->getLoc());
    for (const Expr *operand : c->getOperands())
      dumpExpr(operand, indent + 1);
    return;
  }
  case Expr::Kind::BoolOp: {
    auto *b = cast<BoolOpExpr>(e);
    os << "BoolOp " << spelling(b->getOp());
    end(e->getLoc());
    for (const Expr *operand : b->getOperands())
      dumpExpr(operand, indent + 1);
    return;
  }
  case Expr::Kind::IfExp: {
    auto *i = cast<IfExpExpr>(e);
    os << "IfExp";
    end(e->getLoc());
    dumpExpr(i->getCond(), indent + 1, "cond");
    dumpExpr(i->getThen(), indent + 1, "then");
    dumpExpr(i->getElse(), indent + 1, "else");
    return;
  }
  default:
    llvm_unreachable("not an operator expression");
  }
}

void Dumper::dumpExpr(const Expr *e, unsigned indent, StringRef label) {
  if (!e)
    return;
  llvm::raw_ostream &o = start(indent, label);
  switch (e->getKind()) {
  case Expr::Kind::IntLit:
  case Expr::Kind::FloatLit:
  case Expr::Kind::StrLit:
  case Expr::Kind::BoolLit:
  case Expr::Kind::NoneLit:
  case Expr::Kind::Name:
  case Expr::Kind::Ellipsis:
  case Expr::Kind::Error:
    return dumpLeafExpr(e);
  case Expr::Kind::Attribute:
  case Expr::Kind::Call:
  case Expr::Kind::Subscript:
  case Expr::Kind::Slice:
    return dumpAccessExpr(e, indent);
  case Expr::Kind::Tuple:
  case Expr::Kind::List:
  case Expr::Kind::Dict:
  case Expr::Kind::Set:
  case Expr::Kind::Starred:
    return dumpDisplayExpr(e, indent);
  case Expr::Kind::Binary:
  case Expr::Kind::Unary:
  case Expr::Kind::Compare:
  case Expr::Kind::BoolOp:
  case Expr::Kind::IfExp:
    return dumpOperatorExpr(e, indent);
  case Expr::Kind::Lambda: {
    auto *l = cast<LambdaExpr>(e);
    o << "Lambda";
    end(e->getLoc());
    dumpParams(l->getParams(), indent + 1);
    dumpExpr(l->getBody(), indent + 1, "body");
    return;
  }
  case Expr::Kind::FString:
    o << "FString";
    end(e->getLoc());
    dumpFString(cast<FStringExpr>(e), indent + 1);
    return;
  case Expr::Kind::ListComp:
  case Expr::Kind::SetComp:
  case Expr::Kind::DictComp:
  case Expr::Kind::GeneratorExp:
    dumpComprehension(cast<ComprehensionExpr>(e), indent);
    return;
  case Expr::Kind::Unsupported: {
    auto *u = cast<UnsupportedExpr>(e);
    o << "Unsupported " << u->getConstruct();
    end(e->getLoc());
    dumpExpr(u->getOperand(), indent + 1);
    return;
  }
  }
}

void Dumper::dumpParams(llvm::ArrayRef<Param> params, unsigned indent) {
  for (const Param &p : params) {
    llvm::raw_ostream &o = start(indent, "param");
    switch (p.kind) {
    case ParamKind::VarPositional: o << '*' << p.name; break;
    case ParamKind::VarKeyword: o << "**" << p.name; break;
    case ParamKind::Normal: o << p.name; break;
    default: o << p.name << " (" << spelling(p.kind) << ')'; break;
    }
    end(p.range.Start);
    dumpExpr(p.annotation, indent + 1, "annotation");
    dumpExpr(p.defaultValue, indent + 1, "default");
  }
}

void Dumper::dumpFString(const FStringExpr *f, unsigned indent) {
  for (const FStringPart &part : f->getParts()) {
    if (!part.isField()) {
      printString(start(indent, "text"), part.literal);
      end(part.range.Start);
      continue;
    }
    llvm::raw_ostream &o = start(indent, "field");
    if (part.conversion)
      o << '!' << part.conversion;
    end(part.range.Start);
    dumpExpr(part.expr, indent + 1);
    dumpExpr(part.formatSpec, indent + 1, "spec");
  }
}

void Dumper::dumpComprehension(const ComprehensionExpr *c, unsigned indent) {
  StringRef name = c->getKind() == Expr::Kind::ListComp  ? "ListComp"
                   : c->getKind() == Expr::Kind::SetComp ? "SetComp"
                   : c->getKind() == Expr::Kind::DictComp ? "DictComp"
                                                          : "GeneratorExp";
  os << name;
  end(c->getLoc());
  bool dict = c->getKind() == Expr::Kind::DictComp;
  dumpExpr(c->getElt(), indent + 1, dict ? "key" : "elt");
  dumpExpr(c->getValue(), indent + 1, "value");
  for (const Comprehension &g : c->getGenerators()) {
    start(indent + 1, "") << "for";
    end(g.range.Start);
    dumpExpr(g.target, indent + 2, "target");
    dumpExpr(g.iter, indent + 2, "iter");
    for (const Expr *cond : g.ifs)
      dumpExpr(cond, indent + 2, "if");
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
    if (!imp->isFrom())
      o << "Import ";
    else
      o << "ImportFrom " << std::string(imp->getLevel(), '.') << imp->getFromModule() << " import ";
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
    if (!f->getElse().empty())
      dumpBody("else", f->getElse(), indent + 1);
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
    dumpParams(f->getParams(), indent + 1);
    dumpExpr(f->getReturns(), indent + 1, "returns");
    dumpBody("body", f->getBody(), indent + 1);
    return;
  }
  default:
    dumpNewStmt(s, indent);
    return;
  }
}

/// The statements added for spec v1 (the line's indentation is written).
void Dumper::dumpNewStmt(const Stmt *s, unsigned indent) {
  switch (s->getKind()) {
  case Stmt::Kind::Annotation: {
    auto *a = cast<AnnotationStmt>(s);
    os << "Annotation";
    end(s->getLoc());
    dumpExpr(a->getTarget(), indent + 1, "target");
    dumpExpr(a->getAnnotation(), indent + 1, "annotation");
    return;
  }
  case Stmt::Kind::While: {
    auto *w = cast<WhileStmt>(s);
    os << "While";
    end(s->getLoc());
    dumpExpr(w->getCond(), indent + 1, "cond");
    dumpBody("body", w->getBody(), indent + 1);
    if (!w->getElse().empty())
      dumpBody("else", w->getElse(), indent + 1);
    return;
  }
  case Stmt::Kind::Break:
    os << "Break";
    end(s->getLoc());
    return;
  case Stmt::Kind::Continue:
    os << "Continue";
    end(s->getLoc());
    return;
  case Stmt::Kind::Assert: {
    auto *a = cast<AssertStmt>(s);
    os << "Assert";
    end(s->getLoc());
    dumpExpr(a->getTest(), indent + 1, "test");
    dumpExpr(a->getMsg(), indent + 1, "msg");
    return;
  }
  case Stmt::Kind::Delete:
    os << "Delete";
    end(s->getLoc());
    for (const Expr *t : cast<DeleteStmt>(s)->getTargets())
      dumpExpr(t, indent + 1, "target");
    return;
  case Stmt::Kind::Raise: {
    auto *r = cast<RaiseStmt>(s);
    os << "Raise";
    end(s->getLoc());
    dumpExpr(r->getExc(), indent + 1, "exc");
    dumpExpr(r->getCause(), indent + 1, "cause");
    return;
  }
  case Stmt::Kind::Try: {
    auto *t = cast<TryStmt>(s);
    os << "Try" << (t->isImportIdiom() ? " import-idiom" : "");
    end(s->getLoc());
    dumpBody("body", t->getBody(), indent + 1);
    for (const ExceptHandler &h : t->getHandlers()) {
      llvm::raw_ostream &o = start(indent + 1, "") << "except";
      if (!h.name.empty())
        o << " as " << h.name;
      end(h.range.Start);
      dumpExpr(h.type, indent + 2, "type");
      dumpBody("body", h.body, indent + 2);
    }
    if (!t->getElse().empty())
      dumpBody("else", t->getElse(), indent + 1);
    if (!t->getFinally().empty())
      dumpBody("finally", t->getFinally(), indent + 1);
    return;
  }
  case Stmt::Kind::Unsupported: {
    auto *u = cast<UnsupportedStmt>(s);
    os << "Unsupported " << u->getConstruct();
    for (const std::string &n : u->getNames())
      os << ' ' << n;
    end(s->getLoc());
    return;
  }
  default:
    return;
  }
}

void ast::dump(const Module &module, const llvm::SourceMgr &srcMgr, llvm::raw_ostream &os) {
  Dumper dumper(srcMgr, module.bufferId, os);
  os << "Module\n";
  for (const Stmt *s : module.body)
    dumper.dumpStmt(s, 1);
}
