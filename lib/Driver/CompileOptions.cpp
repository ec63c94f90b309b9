//===- CompileOptions.cpp - `-target=` values against the registry --------===//
//
// Each target's description says which spellings it answers to; this file
// only walks the registry and words the errors.
//
//===----------------------------------------------------------------------===//
#include "tilec/Driver/CompileOptions.h"

#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Target/Host/HostTarget.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace tilec;

const TargetDescription &TargetSpec::getDescription() const {
  return description ? *description : getHostTargetDescription();
}

std::string tilec::allTargetNames() {
  llvm::SmallVector<llvm::StringRef> names;
  for (const TargetDescription *t : getTargets())
    names.push_back(t->spellings);
  return llvm::join(names, ", ");
}

/// The target whose description accepts `text`, filling `archs`.
static const TargetDescription *findTarget(llvm::StringRef text, std::vector<std::string> &archs) {
  for (const TargetDescription *t : getTargets())
    if (t->parse(text, archs))
      return t;
  return nullptr;
}

std::optional<TargetSpec> tilec::parseTarget(llvm::StringRef text, std::string &error) {
  TargetSpec spec;
  spec.spelling = text.str();
  text = text.trim();
  if ((spec.description = findTarget(text, spec.archs)))
    return spec;
  // No target takes the whole text: name the first part that is wrong.
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (parts.empty()) {
    error = "empty target; expected one of: " + allTargetNames();
    return std::nullopt;
  }
  for (llvm::StringRef part : parts) {
    part = part.trim();
    std::vector<std::string> ignored;
    const TargetDescription *t = findTarget(part, ignored);
    if (!t) {
      error = "unknown target '" + part.str() + "'; expected one of: " + allTargetNames();
      return std::nullopt;
    }
    if (t->listHelp.empty()) {
      llvm::SmallVector<llvm::StringRef> lists;
      for (const TargetDescription *l : getTargets())
        if (!l->listHelp.empty())
          lists.push_back(l->listHelp);
      error = "target '" + part.str() + "' cannot be combined with others; a comma list names " +
              llvm::join(lists, " or ");
      return std::nullopt;
    }
  }
  error = "targets of different kinds cannot be combined: '" + text.str() + "'";
  return std::nullopt;
}

/// The frontend's warning kinds (Diagnostics.def), each with its name: the
/// kind's id without its phase ("sema_expr_unused": "expr-unused").
static llvm::ArrayRef<std::pair<DiagID, std::string>> frontendWarnings() {
  static const std::vector<std::pair<DiagID, std::string>> kinds = [] {
    std::vector<std::pair<DiagID, std::string>> list;
    for (unsigned i = 0; i < unsigned(DiagID::NumDiagnostics); ++i) {
      DiagID id = DiagID(i);
      if (getDiagSeverity(id) != mlir::DiagnosticSeverity::Warning)
        continue;
      std::string name = llvm::StringRef(getDiagName(id)).split('_').second.str();
      llvm::replace(name, '_', '-');
      list.push_back({id, name});
    }
    return list;
  }();
  return kinds;
}

/// Whether `message` could be `format` with its `{N}` filled in.
static bool matchesFormat(llvm::StringRef message, llvm::StringRef format) {
  llvm::SmallVector<llvm::StringRef> pieces;
  while (true) {
    size_t open = format.find('{');
    size_t close = open == llvm::StringRef::npos ? open : format.find('}', open);
    if (close == llvm::StringRef::npos) {
      pieces.push_back(format);
      break;
    }
    pieces.push_back(format.take_front(open));
    format = format.drop_front(close + 1);
  }
  if (!message.consume_front(pieces.front()))
    return false;
  for (llvm::StringRef piece : llvm::ArrayRef(pieces).drop_front()) {
    size_t at = piece.empty() ? message.size() : message.find(piece);
    if (at == llvm::StringRef::npos)
      return false;
    message = message.drop_front(at + piece.size());
  }
  return message.empty();
}

llvm::StringRef tilec::frontendWarningName(llvm::StringRef message) {
  for (const auto &[id, name] : frontendWarnings())
    if (matchesFormat(message, getDiagFormat(id)))
      return name;
  return "";
}

llvm::ArrayRef<llvm::StringRef> tilec::warningNames() {
  // spill: ptxas spilled registers to local memory (CUDA).
  // unused-command-line-argument: a flag the target does nothing with.
  // unknown-warning-option: a -W flag naming no warning.
  // Then the frontend's, named after their kinds.
  static const std::vector<llvm::StringRef> names = [] {
    std::vector<llvm::StringRef> list{"spill", "unused-command-line-argument", "unknown-warning-option"};
    for (const auto &kind : frontendWarnings())
      list.push_back(kind.second);
    return list;
  }();
  return names;
}

bool WarningOptions::apply(llvm::StringRef flag) {
  auto drop = [](std::vector<std::string> &list, llvm::StringRef name) { llvm::erase(list, name.str()); };
  if (flag == "error") {
    allErrors = true;
    return true;
  }
  if (flag == "no-error") {
    allErrors = false;
    return true;
  }
  bool negated = flag.consume_front("no-");
  bool error = flag.consume_front("error=");
  if (!llvm::is_contained(warningNames(), flag))
    return false;
  if (error && negated) {
    drop(errors, flag);
    noErrors.push_back(flag.str());
  } else if (error) {
    drop(noErrors, flag);
    drop(disabled, flag);
    errors.push_back(flag.str());
  } else if (negated) {
    disabled.push_back(flag.str());
  } else {
    drop(disabled, flag);
  }
  return true;
}

bool WarningOptions::isEnabled(llvm::StringRef name) const {
  return !suppressAll && !llvm::is_contained(disabled, name.str());
}

bool WarningOptions::isError(llvm::StringRef name) const {
  if (llvm::is_contained(errors, name.str()))
    return true;
  return allErrors && !llvm::is_contained(noErrors, name.str());
}
