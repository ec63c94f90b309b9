//===- Backend.cpp - Stage names and the parts of the backend interface ---===//
//
// The `--emit=` stage table, TargetBackend's key function and the location
// of diagnostics without a source place.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/Backend.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace tilec;

namespace {
struct StageEntry {
  EmitStage stage;
  const char *name;
};
const StageEntry stageTable[] = {
    {EmitStage::Tokens, "tokens"},    {EmitStage::AST, "ast"},         {EmitStage::Tile, "tile"},
    {EmitStage::TileOpt, "tile-opt"}, {EmitStage::Layout, "layout"},   {EmitStage::GPU, "gpu"},
    {EmitStage::LLVM, "llvm"},        {EmitStage::PTX, "ptx"},         {EmitStage::Cubin, "cubin"},
    {EmitStage::Fatbin, "fatbin"},    {EmitStage::SPIRV, "spirv"},     {EmitStage::MSL, "msl"},
    {EmitStage::WGSL, "wgsl"},        {EmitStage::AscendC, "ascendc"}, {EmitStage::Asm, "asm"},
    {EmitStage::Obj, "obj"},          {EmitStage::Header, "header"},   {EmitStage::Deps, "deps"},
};
} // namespace

llvm::StringRef tilec::stageName(EmitStage stage) {
  for (const StageEntry &e : stageTable)
    if (e.stage == stage)
      return e.name;
  return "?";
}

std::optional<EmitStage> tilec::parseStage(llvm::StringRef name) {
  for (const StageEntry &e : stageTable)
    if (name == e.name)
      return e.stage;
  return std::nullopt;
}

std::string tilec::allStageNames() {
  llvm::SmallVector<llvm::StringRef> names;
  for (const StageEntry &e : stageTable)
    names.push_back(e.name);
  return llvm::join(names, ", ");
}

std::string tilec::headerGuard(llvm::StringRef headerPath) {
  std::string guard = "TILEC";
  bool separated = true;
  for (char c : headerPath) {
    if (!llvm::isAlnum(c)) {
      separated = true;
      continue;
    }
    if (separated)
      guard += '_';
    guard += llvm::toUpper(c);
    separated = false;
  }
  return guard;
}

TargetBackend::~TargetBackend() = default;

mlir::LogicalResult TargetBackend::collectLayouts(mlir::ModuleOp module, std::vector<KernelLayouts> &) {
  return emitToolError(module.getContext()) << "this target has no thread layouts to draw";
}

bool TargetDescription::offers(EmitStage stage) const { return llvm::is_contained(stages, stage); }

mlir::Location tilec::getToolLoc(mlir::MLIRContext *context) {
  return mlir::NameLoc::get(mlir::StringAttr::get(context, "tilec"));
}

mlir::InFlightDiagnostic tilec::emitToolError(mlir::MLIRContext *context) {
  return mlir::emitError(getToolLoc(context));
}
