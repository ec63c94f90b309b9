//===- CompileOptions.h - Everything one tilec invocation asks for -*- C++ -*-===//
//
// The CLI parses flags into this struct; the library takes it. No option is
// read from the environment.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DRIVER_COMPILEOPTIONS_H
#define TILEC_DRIVER_COMPILEOPTIONS_H

#include "tilec/Support/Define.h"
#include "tilec/Target/Backend.h"
#include "tilec/Target/GPULimits.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// One parsed `-target=` value: a target of the registry plus its
/// architectures (CUDA: the sm archs, a comma list makes a fatbin; Vulkan:
/// "vulkan1.1"/"vulkan1.3").
struct TargetSpec {
  const TargetDescription *description = nullptr; ///< null: the host target
  std::vector<std::string> archs;
  std::string spelling = "host";

  /// The target's registry entry.
  const TargetDescription &getDescription() const;
};

/// Parses a `-target=` value against the registry; on failure returns
/// nullopt and sets `error`.
std::optional<TargetSpec> parseTarget(llvm::StringRef text, std::string &error);
/// The target names `-target=` accepts, for help and errors.
std::string allTargetNames();

struct CompileOptions {
  std::string inputFile;            ///< `.tile` source; "-" reads stdin
  std::string outputFile;           ///< `-o`; empty: stdout for text stages, derived name otherwise
  TargetSpec target;                ///< `-target=` / `--target=`
  EmitStage emit = EmitStage::Obj;  ///< `--emit=`
  bool emitExplicit = false;        ///< whether `--emit` was given
  std::vector<Define> defines;      ///< `-D NAME=VALUE`
  std::vector<std::string> includeDirs; ///< `-I DIR`: search path of the user's helper modules
  std::string kernel;               ///< `--kernel NAME`: the one kernel or factory to build
  std::string kernelName;           ///< `--kernel-name NAME`: its exported name
  std::string kernelPrefix;         ///< `--kernel-prefix P`: prepended to every kernel's symbol
  bool verifyDiagnostics = false;   ///< `--verify-diagnostics`
  bool splitInputFile = false;      ///< `--split-input-file` (marker `# -----`)
  bool verbose = false;             ///< `-v`: phases and timings on stderr
  bool shared = false;              ///< `-shared`: a shared library instead of an object
  bool writeDepFile = false;        ///< `-MD`: also write a make dependency file
  std::string depFile;              ///< `-MF`: its path (default: output with `.d`)
  std::vector<std::string> depTargets; ///< `-MT` (as given) / `-MQ` (quoted): the rule's targets
  bool depPhonyTargets = false;     ///< `-MP`: a phony rule for each imported module
  std::string cudaPath;             ///< `--cuda-path`
  unsigned threads = 1;             ///< `-j`: host blocks run on this many threads
  GPULimits limits;                 ///< `--max-fragment-elements`, `--max-unrolled-ops`

  /// Vulkan target limits: a preset (`--vk-preset`) and overrides; -1 keeps
  /// the preset's value, 0/1 turn a feature off/on.
  struct VulkanLimits {
    std::string preset = "desktop";
    int64_t maxSharedMemory = -1;
    int64_t subgroupSize = -1;
    int64_t maxWorkgroupInvocations = -1;
    int float16 = -1, int8 = -1, float64 = -1, cooperativeMatrix = -1, float32Atomics = -1;
  } vulkan;

  /// WebGPU target limits (`--webgpu-*`); -1 keeps WebGPU's default limits,
  /// 0/1 turn a feature off/on.
  struct WebGPULimits {
    int64_t maxWorkgroupStorage = -1;
    int64_t maxInvocations = -1;
    int64_t maxStorageBufferBindingSize = -1;
    int float16 = -1;
  } webgpu;
};

} // namespace tilec

#endif // TILEC_DRIVER_COMPILEOPTIONS_H
