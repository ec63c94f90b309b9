//===- tilec.cpp - The tilec command line --------------------------------===//
//
// Parses flags into CompileOptions (CLI11) and calls the driver library; the
// target names and stages come from the target registry.
// GCC-style single-dash long options (`-target=sm_90`, `-shared`, `-MD`) are
// accepted alongside `--target`.
//
//===----------------------------------------------------------------------===//
#include "tilec/Config.h"
#include "tilec/Driver/Driver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

using namespace tilec;

namespace {

/// Long options that may also be spelled with one dash, as compilers do.
const char *const singleDashLongOptions[] = {
    "target",
    "emit",
    "shared",
    "MD",
    "MF",
    "MT",
    "MQ",
    "MP",
    "cuda-path",
    "cuda-clang",
    "verify-diagnostics",
    "split-input-file",
    "version",
    "help",
    "lineinfo",
    "resource-usage",
    "Xptxas",
    "hopper-ws",
    "hopper-tma-store",
    "hopper-persistent",
};

/// Rewrites `-target=x` / `-target x` / `-MD` into CLI11's `--target=x` form.
std::vector<std::string> normalizeArgs(int argc, char **argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    // `-Xptxas -O1`: the value starts with a dash, which CLI11 would read
    // as an option of its own.
    if ((arg == "-Xptxas" || arg == "--Xptxas") && i + 1 < argc) {
      args.push_back(std::string("--Xptxas=") + argv[++i]);
      continue;
    }
    if (arg.size() > 2 && arg[0] == '-' && arg[1] != '-') {
      std::string name = arg.substr(1, arg.find('=') == std::string::npos ? std::string::npos : arg.find('=') - 1);
      for (const char *longName : singleDashLongOptions)
        if (name == longName) {
          arg = "-" + arg;
          break;
        }
    }
    args.push_back(arg);
  }
  return args;
}

/// Prints `tilec: error: <message>` and returns the exit code of every
/// command-line error.
int cliError(const llvm::Twine &message) {
  llvm::errs() << "tilec: error: " << message << "\n";
  return 1;
}

/// The option `arg` names, without `=value`: "--emit" of "--emit=ptx".
std::string optionName(const std::string &arg) { return arg.substr(0, arg.find('=')); }

/// Finds the first argument (after normalizeArgs) that is no option of
/// `app`, and reports it with the nearest option's spelling, as clang does.
/// Values of options that take one are skipped. Returns 0 when all are known.
int checkArguments(const CLI::App &app, const std::vector<std::string> &args) {
  std::vector<std::pair<std::string, const CLI::Option *>> known;
  for (const CLI::Option *opt : app.get_options()) {
    for (const std::string &n : opt->get_lnames())
      known.push_back({"--" + n, opt});
    for (const std::string &n : opt->get_snames())
      known.push_back({"-" + n, opt});
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if (arg == "--")
      return 0; // the rest are inputs
    if (arg.size() < 2 || arg[0] != '-')
      continue;
    std::string name = optionName(arg);
    const CLI::Option *match = nullptr;
    for (auto &[spelling, opt] : known)
      if (spelling == name || (spelling.size() == 2 && arg[1] != '-' && arg.compare(0, 2, spelling) == 0))
        match = opt; // `--emit=x`, `-DNAME=V`, `-ofile`, `-j4`
    if (match) {
      bool attached = arg.find('=') != std::string::npos || (arg[1] != '-' && arg.size() > 2);
      if (match->get_type_size_max() > 0 && !attached)
        ++i; // its value
      continue;
    }
    // Suggest only near misses: at most 2 edits, or a third of the name.
    std::string nearest;
    unsigned best = std::max<unsigned>(2, name.size() / 3) + 1;
    for (auto &[spelling, opt] : known) {
      if (spelling.size() <= 2)
        continue; // every short name is near a short misspelling
      unsigned d = llvm::StringRef(spelling).edit_distance(name);
      if (d < best) {
        best = d;
        nearest = spelling;
      }
    }
    std::string hint = nearest.empty() ? " (see --help)" : "; did you mean '" + nearest + "'?";
    return cliError("unknown argument '" + arg + "'" + hint);
  }
  return 0;
}

/// A CLI11 parse error in compiler convention; --help and --version exit 0.
int reportParseError(const CLI::App &app, const CLI::ParseError &e) {
  if (dynamic_cast<const CLI::CallForHelp *>(&e) || dynamic_cast<const CLI::CallForAllHelp *>(&e) ||
      dynamic_cast<const CLI::CallForVersion *>(&e))
    return const_cast<CLI::App &>(app).exit(e);
  if (dynamic_cast<const CLI::RequiredError *>(&e))
    return cliError("no input file (usage: tilec FILE [options]; see --help)");
  if (dynamic_cast<const CLI::ExtrasError *>(&e))
    return cliError(std::string(e.what()) + " (tilec compiles one input file)");
  return cliError(e.what());
}

/// Takes the `-W...` arguments out of `args` into `warnings`, in order
/// (CLI11 has no prefix options); `unknown` receives those naming no
/// warning.
void takeWarningFlags(std::vector<std::string> &args, WarningOptions &warnings, std::vector<std::string> &unknown) {
  std::vector<std::string> rest;
  bool inputs = false;
  for (std::string &arg : args) {
    inputs |= arg == "--";
    if (inputs || arg.size() <= 2 || arg.compare(0, 2, "-W") != 0) {
      rest.push_back(std::move(arg));
      continue;
    }
    if (!warnings.apply(llvm::StringRef(arg).drop_front(2)))
      unknown.push_back(arg);
  }
  args = std::move(rest);
}

/// `warning: unknown warning option '-Wfoo'` for each unknown -W flag, under
/// the warning options (itself -Wunknown-warning-option). Returns false when
/// -Werror made one an error.
bool reportUnknownWarnings(const WarningOptions &warnings, llvm::ArrayRef<std::string> unknown) {
  const char *name = "unknown-warning-option";
  if (!warnings.isEnabled(name))
    return true;
  for (const std::string &flag : unknown) {
    bool error = warnings.isError(name);
    llvm::errs() << "tilec: " << (error ? "error" : "warning") << ": unknown warning option '" << flag
                 << "'; tilec's warnings are: " << llvm::join(warningNames(), ", ") << (error ? " [-Werror,-W" : " [-W")
                 << name << "]\n";
    if (error)
      return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);

  CompileOptions opts;
  std::string targetText = "host", emitText, jobsText;
  std::vector<std::string> defines;

  CLI::App app{"tilec " TILEC_VERSION " - ahead-of-time compiler for tile-level GPU kernels (.tile)", "tilec"};
  app.set_version_flag("--version", std::string("tilec ") + TILEC_VERSION + " (LLVM/MLIR " TILEC_LLVM_VERSION ")");
  app.add_option("input", opts.inputFile,
                 "The .tile or tile-lang .py source file ('-' reads standard input)")->required();
  app.add_option("-o,--output", opts.outputFile,
                 "Output file, written only when the compile succeeds ('-': stdout, text only); text stages print "
                 "to stdout without it, the others default to the input's name with the stage's extension (k.cubin, "
                 "k.fatbin) or the target's, and the default stage writes the header k.h beside it, rewritten only "
                 "when it changes, its include guard made of its path (k.o, k.so with -shared; -target=vulkan: "
                 "SPIR-V, k.spv; -target=metal: MSL source, k.metal; -target=webgpu: WGSL source, k.wgsl; "
                 "-target=ascend: Ascend C source, k.cpp)");
  app.add_option("--target", targetText,
                 "Target (also -target=): " + allTargetNames() + "; default host");
  app.add_option("--emit", emitText,
                 "Stop after this stage and write its result: " + allStageNames() + "; default obj");
  app.add_option("-D", defines, "Override a module constant or factory parameter: -D NAME=VALUE (repeatable)")
      ->type_name("NAME=VALUE");
  app.add_option("-I", opts.includeDirs, "Add a directory to the search path of imported helper modules (.tile, .py)")
      ->type_name("DIR");
  app.add_option("--kernel", opts.kernel,
                 "Build only this kernel or factory of the file (default: every kernel; needed when several "
                 "factories take arguments)");
  app.add_option("--kernel-name", opts.kernelName, "Export the kernel under this name (default: the outermost "
                                                   "factory's or the kernel's name)");
  app.add_option("--kernel-prefix", opts.kernelPrefix,
                 "Prepend this to every exported symbol (launchers, workspace-size functions, entry points), so "
                 "that several builds of one kernel link into one program");
  app.add_flag("--verify-diagnostics", opts.verifyDiagnostics,
               "Check diagnostics against 'expected-error {{...}}' markers in the source instead of printing them");
  app.add_flag("--split-input-file", opts.splitInputFile,
               "Process each '# -----'-separated chunk of the input as its own file");
  app.add_flag("-v,--verbose", opts.verbose,
               "Print each phase and its time, and the command line of every tool tilec runs (ptxas, fatbinary, "
               "the linker of -shared; quoted for a POSIX shell), on stderr");
  bool fullDebug = false, lineInfo = false;
  app.add_flag("-g", fullDebug,
               "Debug information: DWARF line tables and the kernels' functions in host objects (gdb, perf); "
               "CUDA: .file/.loc lines of the .tile source in the PTX and ptxas -lineinfo, as for optimised "
               "code (Nsight Compute, cuda-gdb source view); code is optimised as without it");
  app.add_flag("--lineinfo,--generate-line-info", lineInfo,
               "Line tables only (also -lineinfo, as nvcc): DWARF line tables in host objects, .loc lines in "
               "the PTX and ptxas -lineinfo");
  app.add_flag("--resource-usage", opts.resourceUsage,
               "CUDA: print each kernel's registers, shared memory, stack frame and spills per architecture "
               "(from ptxas) on stderr");
  std::vector<std::string> ptxasOptions;
  app.add_option("--Xptxas", ptxasOptions,
                 "CUDA: pass OPT to every ptxas run, after tilec's own options (also -Xptxas; repeatable; a comma "
                 "list is split, as nvcc does)")
      ->type_name("OPT");
  app.add_option("--hopper-ws", opts.hopperWS,
                 "CUDA sm_90a: warp-specialize the wgmma GEMM loop (a producer warpgroup issuing the TMA loads, "
                 "consumer warpgroups with setmaxnreg): auto (the compiler's choice, default), on (wherever the "
                 "form applies), off; --emit=gpu shows the decision as tilec.ws")
      ->check(CLI::IsMember({"auto", "on", "off"}))
      ->type_name("MODE");
  app.add_flag("--hopper-tma-store", opts.hopperTMAStore,
               "CUDA sm_90a: the wgmma GEMM writes C from a shared tile with TMA stores (cp.async.bulk.tensor; "
               "bounds by TMA) where C's rows allow; --emit=gpu shows the decision as tilec.epilogue");
  app.add_option("--hopper-persistent", opts.hopperPersistent,
                 "CUDA sm_90a: make the warp-specialized wgmma GEMM persistent (a grid of at most one wave of "
                 "blocks, each looping over output tiles; the producer loads the next tile during the epilogue): "
                 "on (the consumer warpgroups share each tile; only where --hopper-ws applies), pingpong (two "
                 "consumer warpgroups on alternate tiles of the kernel's one-warpgroup tile, one's epilogue under "
                 "the other's wgmma loop; warp-specialized unless --hopper-ws=off), on-registers (on, the "
                 "epilogue storing 16-bit operands' accumulators from registers: no shared f32 tile), off, auto (the "
                 "compiler's "
                 "choice, default); --emit=gpu shows the decision as tilec.persistent")
      ->check(CLI::IsMember({"auto", "on", "off", "pingpong", "on-registers"}))
      ->type_name("MODE");
  app.add_flag("-w", opts.warnings.suppressAll,
               "Suppress every warning. Warnings print their name ([-Wspill], [-Wexpr-unused]); -Wno-NAME turns one "
               "off, -Werror "
               "makes warnings errors (-Werror=NAME one, -Wno-error=NAME exempts one). Names: " +
                   llvm::join(warningNames(), ", "));
  app.add_flag("--shared", opts.shared, "Link a shared library (also -shared) instead of an object file");
  app.add_flag("--MD", opts.writeDepFile,
               "Also write a make dependency file: the input and the helper modules it imports (also -MD)");
  app.add_option("--MF", opts.depFile, "Path of the dependency file (also -MF; default: the output with .d)");
  std::vector<std::string> depTargets, depQuotedTargets;
  app.add_option("--MT", depTargets, "Target of the dependency rule, written as given (also -MT; repeatable; "
                                     "default: the output)")
      ->type_name("TARGET");
  app.add_option("--MQ", depQuotedTargets,
                 "Target of the dependency rule, with the characters make treats specially quoted (also -MQ; "
                 "repeatable)")
      ->type_name("TARGET");
  app.add_flag("--MP", opts.depPhonyTargets,
               "Add a phony rule for each imported helper module, so that removing one does not break make "
               "(also -MP)");
  app.add_option("--cuda-path", opts.cudaPath, "CUDA toolkit root for ptxas/fatbinary (default: CUDA_PATH, /usr/local/cuda)");
  app.add_option("--cuda-clang", opts.cudaClang,
                 "clang++ that compiles T.import_source's CUDA C++ (default: LLVM's bin directory, then PATH)");
  // GPU kernel size limits (GPULimits.h), checked before the lowering.
  app.add_option("--max-fragment-elements", opts.limits.maxFragmentElements,
                 "GPU targets: most elements one thread may hold of a fragment or local buffer (default 1024)")
      ->check(CLI::PositiveNumber);
  app.add_option("--max-thread-elements", opts.limits.maxThreadElements,
                 "GPU targets: most elements one thread may hold of all its fragments together (default 1280)")
      ->check(CLI::PositiveNumber);
  app.add_option("--max-unrolled-ops", opts.limits.maxUnrolledOps,
                 "GPU targets: most operations one thread may run of an unrolled T.Parallel (default 65536)")
      ->check(CLI::PositiveNumber);
  app.add_option("--max-parallel-ops", opts.maxParallelOps,
                 "Host target: most operations in one T.Parallel body (default 8192; LLVM's loop optimizations "
                 "take minutes on longer ones)")
      ->check(CLI::PositiveNumber);
  app.add_option("--vk-preset", opts.vulkan.preset, "Vulkan target limits preset: desktop (default) or lavapipe");
  app.add_option("--vk-max-shared-memory", opts.vulkan.maxSharedMemory,
                 "Vulkan: maxComputeSharedMemorySize in bytes (default: the preset's)");
  app.add_option("--vk-subgroup-size", opts.vulkan.subgroupSize, "Vulkan: subgroup size (default: the preset's)");
  app.add_option("--vk-max-workgroup-invocations", opts.vulkan.maxWorkgroupInvocations,
                 "Vulkan: maxComputeWorkGroupInvocations (default: the preset's)");
  app.add_option("--vk-float16", opts.vulkan.float16, "Vulkan: shaderFloat16 + 16-bit storage (0 or 1)")
      ->check(CLI::Range(0, 1));
  app.add_option("--vk-int8", opts.vulkan.int8, "Vulkan: shaderInt8 + 8-bit storage (0 or 1)")->check(CLI::Range(0, 1));
  app.add_option("--vk-float64", opts.vulkan.float64, "Vulkan: shaderFloat64 (0 or 1)")->check(CLI::Range(0, 1));
  app.add_option("--vk-float32-atomics", opts.vulkan.float32Atomics,
                 "Vulkan: shaderBufferFloat32AtomicAdd of VK_EXT_shader_atomic_float (0 or 1)")
      ->check(CLI::Range(0, 1));
  app.add_option("--vk-cooperative-matrix", opts.vulkan.cooperativeMatrix,
                 "Vulkan: SPV_KHR_cooperative_matrix for T.gemm (0 or 1)")
      ->check(CLI::Range(0, 1));
  // A device limit is a positive integer (0 or less would be ignored or reject every kernel).
  CLI::Validator positiveLimit(
      [](std::string &v) -> std::string {
        size_t end = 0;
        long long n = 0;
        try {
          n = std::stoll(v, &end);
        } catch (...) {
        }
        return end == v.size() && n > 0 ? "" : "must be a positive integer, got '" + v + "'";
      },
      "POSITIVE");
  app.add_option("--webgpu-max-workgroup-storage", opts.webgpu.maxWorkgroupStorage,
                 "WebGPU: maxComputeWorkgroupStorageSize in bytes (default 16384, WebGPU's default limit)")
      ->check(positiveLimit);
  app.add_option("--webgpu-max-invocations", opts.webgpu.maxInvocations,
                 "WebGPU: maxComputeInvocationsPerWorkgroup (default 256, WebGPU's default limit)")
      ->check(positiveLimit);
  app.add_option("--webgpu-max-storage-buffer-binding-size", opts.webgpu.maxStorageBufferBindingSize,
                 "WebGPU: maxStorageBufferBindingSize in bytes (default 134217728, WebGPU's default limit)")
      ->check(positiveLimit);
  app.add_option("--webgpu-f16", opts.webgpu.float16,
                 "WebGPU: the 'shader-f16' feature, float16 in WGSL (0 or 1; default 1)")
      ->check(CLI::Range(0, 1));
  app.add_option("-j,--jobs", opts.threads, "Host target: CPU threads that run blocks (1 = deterministic order)")
      ->check(positiveLimit);

  std::vector<std::string> args = normalizeArgs(argc, argv), unknownWarnings;
  takeWarningFlags(args, opts.warnings, unknownWarnings);
  if (int rc = checkArguments(app, args))
    return rc;
  std::reverse(args.begin(), args.end()); // CLI11 parses a reversed vector
  try {
    app.parse(args);
  } catch (const CLI::ParseError &e) {
    return reportParseError(app, e);
  }

  if (!reportUnknownWarnings(opts.warnings, unknownWarnings))
    return 1;
  opts.debugInfo = fullDebug ? DebugInfoLevel::Full : lineInfo ? DebugInfoLevel::LineTables : DebugInfoLevel::None;
  for (const std::string &o : ptxasOptions) {
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(o).split(parts, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef part : parts)
      opts.ptxasOptions.push_back(part.str());
  }

  std::string error;
  std::optional<TargetSpec> target = parseTarget(targetText, error);
  if (!target) {
    llvm::errs() << "tilec: error: " << error << "\n";
    return 1;
  }
  opts.target = *target;
  if (!emitText.empty()) {
    std::optional<EmitStage> stage = parseStage(emitText);
    if (!stage) {
      llvm::errs() << "tilec: error: unknown --emit stage '" << emitText << "'; expected one of: " << allStageNames()
                   << "\n";
      return 1;
    }
    opts.emit = *stage;
    opts.emitExplicit = true;
  }
  // Exported names become C symbols: a name must be an identifier, a prefix
  // its beginning.
  auto isIdentifier = [](const std::string &text) {
    return !text.empty() && !llvm::isDigit(text[0]) &&
           llvm::all_of(text, [](char c) { return llvm::isAlnum(c) || c == '_'; });
  };
  if (!opts.kernelName.empty() && !isIdentifier(opts.kernelName)) {
    llvm::errs() << "tilec: error: --kernel-name expects a C identifier, got '" << opts.kernelName << "'\n";
    return 1;
  }
  if (!opts.kernelPrefix.empty() && !isIdentifier(opts.kernelPrefix)) {
    llvm::errs() << "tilec: error: --kernel-prefix expects the start of a C identifier (letters, digits, '_'; "
                    "not a digit first), got '"
                 << opts.kernelPrefix << "'\n";
    return 1;
  }
  opts.depTargets = depTargets;
  for (const std::string &t : depQuotedTargets)
    opts.depTargets.push_back(quoteForMake(t));
  for (const std::string &d : defines) {
    size_t eq = d.find('=');
    if (eq == std::string::npos || eq == 0) {
      llvm::errs() << "tilec: error: -D expects NAME=VALUE, got '" << d << "'\n";
      return 1;
    }
    opts.defines.push_back({d.substr(0, eq), d.substr(eq + 1)});
  }
  return compile(opts, llvm::outs(), llvm::errs());
}
