//===- Diagnostics.h - User diagnostics of the .tile frontend ---*- C++ -*-===//
//
// Every user-facing diagnostic kind is declared once in Diagnostics.def (one
// .def per phase) and emitted through MLIR's diagnostic engine at a source
// range, so `--verify-diagnostics` can check each of them.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_DIAGNOSTICS_H
#define TILEC_FRONTEND_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

#include <functional>

namespace tilec {

/// The identity of a diagnostic kind.
enum class DiagID : unsigned {
#define DIAG(ID, SEVERITY, FORMAT) ID,
#include "tilec/Frontend/Diagnostics.def"
  NumDiagnostics
};

/// The severity and llvm::formatv format string of a diagnostic kind.
mlir::DiagnosticSeverity getDiagSeverity(DiagID id);
const char *getDiagFormat(DiagID id);
/// The kind's name as written in the .def file, e.g. "lex_tab_indent".
const char *getDiagName(DiagID id);

/// Turns source ranges into MLIR locations and emits registered diagnostics.
class DiagnosticEmitter {
public:
  DiagnosticEmitter(mlir::MLIRContext &context, const llvm::SourceMgr &srcMgr)
      : context(context), srcMgr(srcMgr) {}

  mlir::MLIRContext &getContext() const { return context; }
  const llvm::SourceMgr &getSourceMgr() const { return srcMgr; }

  /// A FileLineColRange covering `range` (a FileLineColLoc when empty).
  mlir::Location getLoc(llvm::SMRange range) const;
  mlir::Location getLoc(llvm::SMLoc loc) const { return getLoc(llvm::SMRange(loc, loc)); }

  /// Emits diagnostic `id` at `range`, formatting `args` into its message.
  template <typename... Args>
  mlir::InFlightDiagnostic emit(DiagID id, llvm::SMRange range, Args &&...args) {
    std::string msg = llvm::formatv(getDiagFormat(id), std::forward<Args>(args)...).str();
    if (getDiagSeverity(id) == mlir::DiagnosticSeverity::Error)
      ++numErrors;
    mlir::InFlightDiagnostic d = emitRaw(getDiagSeverity(id), getLoc(range), msg);
    if (contextNotes && getDiagSeverity(id) == mlir::DiagnosticSeverity::Error)
      contextNotes(d);
    return d;
  }

  /// Called for every error to attach context notes (the meta call stack of
  /// the factory whose kernel is being generated); may be empty.
  std::function<void(mlir::InFlightDiagnostic &)> contextNotes;

  /// Attaches note `id` at `range` to an in-flight diagnostic.
  template <typename... Args>
  void note(mlir::InFlightDiagnostic &diag, DiagID id, llvm::SMRange range, Args &&...args) {
    std::string msg = llvm::formatv(getDiagFormat(id), std::forward<Args>(args)...).str();
    diag.attachNote(getLoc(range)) << msg;
  }

  unsigned getNumErrors() const { return numErrors; }

private:
  mlir::InFlightDiagnostic emitRaw(mlir::DiagnosticSeverity sev, mlir::Location loc, llvm::StringRef msg);

  mlir::MLIRContext &context;
  const llvm::SourceMgr &srcMgr;
  unsigned numErrors = 0;
};

/// Prints diagnostics as `file:line:col: error: message`, the source line and
/// a caret with `~` under the whole range of a FileLineColRange; notes follow.
class RangeDiagnosticPrinter {
public:
  RangeDiagnosticPrinter(llvm::SourceMgr &srcMgr, mlir::MLIRContext &context, llvm::raw_ostream &os);
  ~RangeDiagnosticPrinter();

private:
  void print(mlir::Diagnostic &diag);
  llvm::SourceMgr &srcMgr;
  mlir::MLIRContext &context;
  llvm::raw_ostream &os;
  mlir::DiagnosticEngine::HandlerID handlerId;
};

} // namespace tilec

#endif // TILEC_FRONTEND_DIAGNOSTICS_H
