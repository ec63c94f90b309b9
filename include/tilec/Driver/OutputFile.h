//===- OutputFile.h - Writing outputs all at once or not at all -*- C++ -*-===//
//
// Every file tilec writes goes through a temporary file in its folder that is
// renamed over the output on success: a failed compile leaves the old file.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DRIVER_OUTPUTFILE_H
#define TILEC_DRIVER_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tilec {

/// Writes `contents` to `path` through a temporary file beside it, renamed
/// over `path` once complete. With `keepIfUnchanged`, a file that already
/// holds `contents` is left untouched (its modification time kept, so that
/// what includes a header does not rebuild). Returns false and sets `error`
/// ("cannot open output file 'PATH': reason") on failure, leaving `path` as
/// it was.
bool writeFileAtomically(llvm::StringRef path, llvm::StringRef contents, std::string &error,
                         bool keepIfUnchanged = false);

} // namespace tilec

#endif // TILEC_DRIVER_OUTPUTFILE_H
