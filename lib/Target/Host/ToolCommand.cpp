//===- ToolCommand.cpp - Running external tools, shown under -v -----------===//
//
// The command line is printed before the tool runs, so that a tool that
// hangs or crashes has its command on the screen.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/Host/ToolCommand.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <optional>

using namespace tilec;

/// Whether the shell reads `arg` as one word, unquoted.
static bool isPlainWord(llvm::StringRef arg) {
  return !arg.empty() &&
         llvm::all_of(arg, [](char c) { return llvm::isAlnum(c) || llvm::StringRef("_-+=/.,:@%").contains(c); });
}

std::string tilec::shellCommandLine(llvm::ArrayRef<llvm::StringRef> argv) {
  std::string line;
  for (llvm::StringRef arg : argv) {
    if (!line.empty())
      line += ' ';
    if (isPlainWord(arg)) {
      line += arg;
      continue;
    }
    // '...' keeps everything but the quote itself, written '\''.
    line += '\'';
    for (char c : arg)
      line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += '\'';
  }
  return line;
}

ToolRun tilec::runToolCommand(llvm::ArrayRef<llvm::StringRef> argv, llvm::raw_ostream *commandLog, bool capture) {
  ToolRun run;
  if (commandLog) {
    *commandLog << shellCommandLine(argv) << "\n";
    commandLog->flush();
  }
  llvm::SmallString<128> log;
  if (capture && llvm::sys::fs::createTemporaryFile("tilec", "log", log)) {
    run.error = "cannot create a temporary file";
    return run;
  }
  auto remove = llvm::make_scope_exit([&] {
    if (!log.empty())
      llvm::sys::fs::remove(log);
  });
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log), llvm::StringRef(log)};
  run.exitCode = llvm::sys::ExecuteAndWait(
      argv.front(), argv, std::nullopt,
      capture ? llvm::ArrayRef(redirects) : llvm::ArrayRef<std::optional<llvm::StringRef>>(), 0, 0, &run.error);
  if (capture)
    if (auto buf = llvm::MemoryBuffer::getFile(log))
      run.output = (*buf)->getBuffer().str();
  return run;
}
