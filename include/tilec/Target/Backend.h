//===- Backend.h - The interface every target implements, and its registry -*- C++ -*-===//
//
// A target is a TargetDescription in the registry (the `-target=` spellings
// it answers to, the `--emit=` stages it offers, its default output's name)
// and a TargetBackend that the driver creates with the target's own options.
// The driver checks the stage, opens the files and reports the errors; a
// backend never sees the command line.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_BACKEND_H
#define TILEC_TARGET_BACKEND_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace tilec {

struct KernelLayouts;

/// The stage `--emit=` stops at, in pipeline order. Tokens ... TileOpt and
/// Deps are the driver's; the others are offered by targets.
enum class EmitStage {
  Tokens,
  AST,
  Tile,
  TileOpt,
  Layout,
  GPU,
  LLVM,
  PTX,
  Cubin,
  Fatbin,
  SPIRV,
  MSL,
  WGSL,
  AscendC,
  Asm,
  Obj,
  Header,
  Deps,
};

/// The spelling of a stage, as `--emit=` takes it.
llvm::StringRef stageName(EmitStage stage);
/// Parses a `--emit=` value; nullopt when unknown.
std::optional<EmitStage> parseStage(llvm::StringRef name);
/// All stage names in pipeline order, comma separated (for help and errors).
std::string allStageNames();

/// The debug information `-g` / `-lineinfo` ask for: DWARF with the
/// kernels' functions and line tables (Full), line tables only (LineTables).
/// GPU code gets line directives (`.file`/`.loc`) with either.
enum class DebugInfoLevel { None, LineTables, Full };

/// What a header says about where it comes from and goes: the input's name
/// for its banner, and its include guard (from the header's output path, so
/// that headers of several builds of one kernel can be included together).
struct HeaderInfo {
  llvm::StringRef sourceName; ///< "k.tile", "<stdin>"
  llvm::StringRef guard;      ///< "TILEC_BUILD_V1_K_H"
};

/// The include guard of the header written to `headerPath`: TILEC_ and the
/// path in upper case, each run of other characters one '_'.
std::string headerGuard(llvm::StringRef headerPath);

/// The families of targets tilec knows.
enum class TargetKind { Host, CUDA, Vulkan, Metal, WebGPU, Ascend };

/// A target's compiler from the verified, canonicalized tile module to what
/// one `--emit=` stage writes. The driver calls lower, then serialize, then
/// (for `header`, and beside the default output) writeHeader, stopping at the
/// first failure. Errors are diagnostics: on the offending op, or at
/// getToolLoc() for what has no source location.
class TargetBackend {
public:
  virtual ~TargetBackend();

  /// Lowers the tile module (in place) as far as `stage` needs: the target's
  /// pass pipelines. `header` on the host and CUDA targets reads only the
  /// kernels' signatures.
  virtual mlir::LogicalResult lower(mlir::ModuleOp module, EmitStage stage) = 0;

  /// Writes the result of `stage` to `out`: the text of a text stage, the
  /// bytes of the default stage (`obj`). For `header` it finishes what the
  /// header needs and writes nothing. `sourceName` is how outputs name the
  /// input ("k.tile", "<stdin>").
  virtual mlir::LogicalResult serialize(mlir::ModuleOp module, EmitStage stage, llvm::StringRef sourceName,
                                        llvm::raw_ostream &out) = 0;

  /// Writes the C header (C99 and C++) of the compiled kernels.
  virtual void writeHeader(const HeaderInfo &info, llvm::raw_ostream &os) = 0;

  /// `--emit=layout`: appends the layouts the lowering chooses for the
  /// module's kernels (per architecture), leaving the module as it is. Only
  /// the targets that offer the stage are asked.
  virtual mlir::LogicalResult collectLayouts(mlir::ModuleOp module, std::vector<KernelLayouts> &out);
};

/// What the registry knows of one target, before any option is read.
struct TargetDescription {
  TargetKind kind;
  /// The family name ("cuda", "vulkan", ...).
  llvm::StringRef name;
  /// The `-target=` values it answers to, as help and errors list them.
  llvm::StringRef spellings;
  /// Whether the trimmed `spelling` names this target; `archs` receives its
  /// architectures (CUDA: each `sm_*` of a comma list; Vulkan: the
  /// environment, "vulkan1.1" or "vulkan1.3").
  bool (*parse)(llvm::StringRef spelling, std::vector<std::string> &archs);
  /// Set when a comma list may name this target: what the list may hold,
  /// e.g. "CUDA architectures only (sm_80, ...)".
  llvm::StringRef listHelp;
  /// The stages after `tile-opt` it offers, in pipeline order, `obj` (the
  /// default, which writes a file and the header beside it) included.
  llvm::ArrayRef<EmitStage> stages;
  /// The default output's extension when `-o` is absent (".o", ".metal").
  llvm::StringRef extension;
  /// The extension with `-shared` (".so"); empty when `-shared` means nothing.
  llvm::StringRef sharedExtension;
  /// What the default stage writes, for the stage error ("MSL and a header").
  llvm::StringRef defaultWrites;
  /// Whether the default stage writes text (MSL, WGSL, Ascend C), which
  /// `-o -` may send to stdout.
  bool textDefault = false;

  /// Whether `stage` is one of `stages`.
  bool offers(EmitStage stage) const;
};

/// Every target, in the order help lists them.
llvm::ArrayRef<const TargetDescription *> getTargets();

/// The location of diagnostics that have no place in the source (a tool that
/// failed, a file that cannot be written): the driver prints them as
/// `tilec: error: <message>`.
mlir::Location getToolLoc(mlir::MLIRContext *context);

/// Emits an error at getToolLoc().
mlir::InFlightDiagnostic emitToolError(mlir::MLIRContext *context);

} // namespace tilec

#endif // TILEC_TARGET_BACKEND_H
