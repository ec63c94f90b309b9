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

/// How warnings are shown, as clang's -w, -Werror and -W[no-]<name> set it.
/// Each warning of tilec's own has a name ("spill"); it prints as
/// `warning: ... [-Wspill]`.
struct WarningOptions {
  bool suppressAll = false;          ///< `-w`
  bool allErrors = false;            ///< `-Werror` (`-Wno-error` undoes it)
  std::vector<std::string> disabled; ///< `-Wno-NAME`
  std::vector<std::string> errors;   ///< `-Werror=NAME`
  std::vector<std::string> noErrors; ///< `-Wno-error=NAME`

  /// Reads one `-W...` argument (without the `-W`), in command-line order:
  /// NAME, no-NAME, error, no-error, error=NAME, no-error=NAME. Returns
  /// false when NAME is not a warning tilec knows.
  bool apply(llvm::StringRef flag);
  /// Whether warning `name` ("" for one without a name) is shown.
  bool isEnabled(llvm::StringRef name) const;
  /// Whether warning `name` is an error.
  bool isError(llvm::StringRef name) const;
};

/// The names of tilec's warnings, as `-Wno-NAME` takes them.
llvm::ArrayRef<llvm::StringRef> warningNames();

/// The name of the frontend warning whose message `message` is
/// ("expression result is unused": "expr-unused"); "" for none.
llvm::StringRef frontendWarningName(llvm::StringRef message);

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
  std::string cudaClang;            ///< `--cuda-clang` (T.import_source's code)
  unsigned threads = 1;             ///< `-j`: host blocks run on this many threads
  GPULimits limits;                 ///< `--max-fragment-elements`, `--max-unrolled-ops`
  int64_t maxParallelOps = 8192;    ///< `--max-parallel-ops`: host, operations in one T.Parallel body
  DebugInfoLevel debugInfo = DebugInfoLevel::None; ///< `-g` (Full) / `-lineinfo` (LineTables)
  bool resourceUsage = false;                      ///< `--resource-usage`: ptxas's figures per kernel on stderr
  std::vector<std::string> ptxasOptions;           ///< `-Xptxas OPT` (comma lists split)
  std::string hopperWS = "auto";                   ///< `--hopper-ws=auto|on|off`: sm_90a warp specialization
  bool hopperTMAStore = false;                     ///< `--hopper-tma-store`: sm_90a GEMM epilogue by TMA
  std::string hopperPersistent = "auto"; ///< `--hopper-persistent=auto|on|off|pingpong`: sm_90a persistent GEMM
  WarningOptions warnings;                         ///< `-w`, `-Werror`, `-Wno-NAME`, ...

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
