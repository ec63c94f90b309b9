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
