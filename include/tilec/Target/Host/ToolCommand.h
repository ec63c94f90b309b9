//===- ToolCommand.h - Running external tools, shown under -v ---*- C++ -*-===//
//
// Every program tilec runs (ptxas, fatbinary, the linker of -shared) goes
// through runToolCommand, which prints its command line first when asked
// (`-v`), quoted so that it can be pasted into a POSIX shell, as clang -v
// and nvcc -v do.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_HOST_TOOLCOMMAND_H
#define TILEC_TARGET_HOST_TOOLCOMMAND_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tilec {

/// `argv` as one POSIX shell command line: an argument holding anything but
/// letters, digits and `_-+=/.,:@%` is single-quoted.
std::string shellCommandLine(llvm::ArrayRef<llvm::StringRef> argv);

/// What one run of a tool left behind.
struct ToolRun {
  int exitCode = -1;  ///< the tool's exit status; negative when it did not run or crashed
  std::string output; ///< its standard output and error, when captured
  std::string error;  ///< why it did not run (from the OS)
};

/// Runs `argv` (argv[0] is the program's path). `commandLog` (-v) receives
/// the command line first; with `capture` the tool's stdout and stderr go
/// into the result instead of tilec's own.
ToolRun runToolCommand(llvm::ArrayRef<llvm::StringRef> argv, llvm::raw_ostream *commandLog, bool capture);

} // namespace tilec

#endif // TILEC_TARGET_HOST_TOOLCOMMAND_H
