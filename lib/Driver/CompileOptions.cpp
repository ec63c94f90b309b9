//===- CompileOptions.cpp - Stage and target names ------------------------===//
//
// Parsing and spelling of `--emit=` stages and `-target=` values.
//
//===----------------------------------------------------------------------===//
#include "tilec/Driver/CompileOptions.h"

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
    {EmitStage::Tokens, "tokens"}, {EmitStage::AST, "ast"},         {EmitStage::Tile, "tile"},
    {EmitStage::TileOpt, "tile-opt"}, {EmitStage::GPU, "gpu"},      {EmitStage::LLVM, "llvm"},
    {EmitStage::PTX, "ptx"},       {EmitStage::Cubin, "cubin"},     {EmitStage::Fatbin, "fatbin"},
    {EmitStage::SPIRV, "spirv"},   {EmitStage::MSL, "msl"},         {EmitStage::WGSL, "wgsl"},
    {EmitStage::AscendC, "ascendc"}, {EmitStage::Asm, "asm"},       {EmitStage::Obj, "obj"},
    {EmitStage::Header, "header"}, {EmitStage::Deps, "deps"},
};

const char *const cudaArchs[] = {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"};
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

std::string tilec::allTargetNames() {
  return "host, sm_80, sm_86, sm_89, sm_90, sm_90a (comma lists of sm_* make a fatbin), "
         "vulkan, vulkan1.1, vulkan1.3, metal, webgpu, ascend";
}

std::optional<TargetSpec> tilec::parseTarget(llvm::StringRef text, std::string &error) {
  TargetSpec spec;
  spec.spelling = text.str();
  text = text.trim();
  auto simple = [&](TargetKind kind) {
    spec.kind = kind;
    return std::optional<TargetSpec>(spec);
  };
  if (text == "host")
    return simple(TargetKind::Host);
  if (text == "metal")
    return simple(TargetKind::Metal);
  if (text == "webgpu")
    return simple(TargetKind::WebGPU);
  if (text == "ascend")
    return simple(TargetKind::Ascend);
  if (text == "vulkan" || text == "vulkan1.1" || text == "vulkan1.3") {
    spec.kind = TargetKind::Vulkan;
    spec.archs.push_back(text == "vulkan1.3" ? "vulkan1.3" : "vulkan1.1");
    return spec;
  }
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (parts.empty()) {
    error = "empty target; expected one of: " + allTargetNames();
    return std::nullopt;
  }
  spec.kind = TargetKind::CUDA;
  for (llvm::StringRef part : parts) {
    part = part.trim();
    if (!llvm::is_contained(cudaArchs, part)) {
      std::string ignored;
      if (parts.size() > 1 && parseTarget(part, ignored))
        error = "target '" + part.str() + "' cannot be combined with others; a comma list names CUDA "
                "architectures only (sm_80, sm_86, sm_89, sm_90, sm_90a)";
      else
        error = "unknown target '" + part.str() + "'; expected one of: " + allTargetNames();
      return std::nullopt;
    }
    if (!llvm::is_contained(spec.archs, part.str()))
      spec.archs.push_back(part.str());
  }
  return spec;
}
