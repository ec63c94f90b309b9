//===- OutputFile.cpp - Writing outputs all at once or not at all ---------===//
//
// 1. Keep the file if asked and it already holds the contents.
// 2. Create a unique temporary beside it (same folder, so the rename stays
//    on one file system), write, and rename it over the output.
//
//===----------------------------------------------------------------------===//
#include "tilec/Driver/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilec;

bool tilec::writeFileAtomically(llvm::StringRef path, llvm::StringRef contents, std::string &error,
                                bool keepIfUnchanged) {
  auto fail = [&](const llvm::Twine &reason) {
    error = ("cannot open output file '" + path + "': " + reason).str();
    return false;
  };
  if (keepIfUnchanged) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> old =
        llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (old && (*old)->getBuffer() == contents)
      return true;
  }
  llvm::SmallString<256> model(path);
  model += ".tmp-%%%%%%%%";
  llvm::Expected<llvm::sys::fs::TempFile> temp = llvm::sys::fs::TempFile::create(model);
  if (!temp)
    return fail(llvm::toString(temp.takeError()));
  {
    llvm::raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
    os << contents;
    os.flush();
    if (os.has_error()) {
      std::string reason = os.error().message();
      os.clear_error();
      llvm::consumeError(temp->discard());
      return fail(reason);
    }
  }
  if (llvm::Error e = temp->keep(path))
    return fail(llvm::toString(std::move(e)));
  return true;
}
