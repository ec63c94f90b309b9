//===- DebugInfo.cpp - Source lines of the .tile file in LLVM code --------===//
//
// MLIR's ensure-debug-info-scope-on-llvm-func does the same for the top
// level of a module only, names no producer and drops the file of a location
// whose file is not the function's; this version handles gpu.module bodies
// and imported helper modules, and gives location-less ops line 0.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/Host/DebugInfo.h"

#include "tilec/Config.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Location.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace tilec;

LLVM::DIEmissionKind tilec::hostEmissionKind(DebugInfoLevel level) {
  return level == DebugInfoLevel::Full ? LLVM::DIEmissionKind::Full : LLVM::DIEmissionKind::LineTablesOnly;
}

/// The first file:line:col in `loc` (fused, named, call-site and opaque
/// locations looked through), or null.
static FileLineColRange findFileLoc(Location loc) {
  FileLineColRange found;
  loc->walk([&](Location l) {
    if (auto range = dyn_cast<FileLineColRange>(l)) {
      found = range;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// The DIFile of `path` as the locations spell it: a relative path is
/// relative to the working directory, as compilers record it.
static LLVM::DIFileAttr fileAttr(MLIRContext *ctx, llvm::StringRef path) {
  if (llvm::sys::path::is_absolute(path))
    return LLVM::DIFileAttr::get(ctx, llvm::sys::path::filename(path), llvm::sys::path::parent_path(path));
  llvm::SmallString<128> cwd;
  if (llvm::sys::fs::current_path(cwd))
    cwd.clear();
  return LLVM::DIFileAttr::get(ctx, path, cwd);
}

/// Rewrites the locations of `func`'s body under `subprogram` (whose file is
/// `path`): one file:line:col each, scoped to its file when that is another.
static void scopeBody(LLVM::LLVMFuncOp func, LLVM::DISubprogramAttr subprogram, StringAttr path) {
  MLIRContext *ctx = func.getContext();
  llvm::DenseMap<StringAttr, LLVM::DILexicalBlockFileAttr> otherFiles;
  func.getBody().walk([&](Operation *op) {
    FileLineColRange fileLoc = findFileLoc(op->getLoc());
    if (!fileLoc) {
      op->setLoc(FileLineColLoc::get(path, 0, 0));
      return;
    }
    StringAttr file = fileLoc.getFilename();
    Location strict = FileLineColLoc::get(file, fileLoc.getStartLine(), fileLoc.getStartColumn());
    if (file != path) {
      LLVM::DILexicalBlockFileAttr &scope = otherFiles[file];
      if (!scope)
        scope = LLVM::DILexicalBlockFileAttr::get(ctx, subprogram, fileAttr(ctx, file.getValue()), 0);
      strict = FusedLoc::get(ctx, {strict}, scope);
    }
    op->setLoc(strict);
  });
}

void tilec::attachDebugInfo(Operation *scope, LLVM::DIEmissionKind kind) {
  MLIRContext *ctx = scope->getContext();
  llvm::SmallVector<LLVM::LLVMFuncOp> funcs;
  StringAttr unitPath;
  for (Region &region : scope->getRegions())
    for (Operation &op : region.getOps())
      if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op); func && !func.isExternal()) {
        funcs.push_back(func);
        FileLineColRange loc = findFileLoc(func.getLoc());
        for (Operation &inner : func.getBody().getOps())
          if (!loc)
            loc = findFileLoc(inner.getLoc());
        if (!unitPath && loc)
          unitPath = loc.getFilename();
      }
  if (funcs.empty())
    return;
  if (!unitPath)
    unitPath = StringAttr::get(ctx, "<unknown>");
  auto unit = LLVM::DICompileUnitAttr::get(DistinctAttr::create(UnitAttr::get(ctx)), llvm::dwarf::DW_LANG_C,
                                           fileAttr(ctx, unitPath), StringAttr::get(ctx, "tilec " TILEC_VERSION),
                                           /*isOptimized=*/true, kind);
  auto type = LLVM::DISubroutineTypeAttr::get(ctx, llvm::dwarf::DW_CC_normal, {});
  for (LLVM::LLVMFuncOp func : funcs) {
    FileLineColRange loc = findFileLoc(func.getLoc());
    StringAttr path = loc ? loc.getFilename() : unitPath;
    unsigned line = loc ? loc.getStartLine() : 0;
    auto subprogram = LLVM::DISubprogramAttr::get(
        ctx, DistinctAttr::create(UnitAttr::get(ctx)), unit, fileAttr(ctx, path.getValue()), func.getNameAttr(),
        func.getNameAttr(), fileAttr(ctx, path.getValue()), line, line,
        LLVM::DISubprogramFlags::Definition | LLVM::DISubprogramFlags::Optimized, type, {}, {});
    scopeBody(func, subprogram, path);
    func->setLoc(FusedLoc::get(ctx, {FileLineColLoc::get(path, line, loc ? loc.getStartColumn() : 0)}, subprogram));
  }
}
