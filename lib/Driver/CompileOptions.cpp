//===- CompileOptions.cpp - `-target=` values against the registry --------===//
//
// Each target's description says which spellings it answers to; this file
// only walks the registry and words the errors.
//
//===----------------------------------------------------------------------===//
#include "tilec/Driver/CompileOptions.h"

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

llvm::ArrayRef<llvm::StringRef> tilec::warningNames() {
  // spill: ptxas spilled registers to local memory (CUDA).
  // unused-command-line-argument: a flag the target does nothing with.
  // unknown-warning-option: a -W flag naming no warning.
  // The frontend's warnings have no names yet: -w and -Werror apply to them.
  static const llvm::StringRef names[] = {"spill", "unused-command-line-argument", "unknown-warning-option"};
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
