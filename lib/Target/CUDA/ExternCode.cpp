//===- ExternCode.cpp - T.import_source's code, compiled with clang -------===//
//
// For one gpu.module whose kernels call externs (ExternCallEmit.cpp):
// 1. The translation unit: a prelude (tile-lang's element type names, the
//    CUDA qualifiers), each imported source once under `#line 1
//    "import_source_K"`, then one extern "C" always-inline wrapper per call
//    signature, one line each, under `#line 1 "tilec_extern_calls"`: the
//    call `callee(a0, a1, ...)` instantiates templates from the argument
//    types, as the CUDA C++ tile-lang writes does.
// 2. clang in CUDA device-only mode for the arch, to bitcode: first without
//    CUDA's headers (a self-contained source takes ~60 ms); when that fails
//    and the toolkit has them, again with them (~0.45 s; for sources that
//    use CUDA's intrinsics and types: __vsub4, __half2, ...).
// 3. clang's errors become one diagnostic at the first T.call_extern, with
//    notes at the T.import_source (line and column in the imported source)
//    or at the call whose wrapper failed (an extern the sources lack).
// linkExterns links the bitcode into the module's LLVM IR before LLVM's
// optimization, so the wrappers and what they call inline into the kernels.
//
//===----------------------------------------------------------------------===//
#include "ExternCode.h"

#include "tilec/Target/Host/ToolCommand.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Transforms/IPO/Internalize.h"

using namespace mlir;
using namespace tilec;

/// What the sources may assume: tile-lang's element type names (tl's
/// half_t, bfloat16_t, fp8 types; `uint`), the fixed-width integers, and
/// without CUDA's headers the qualifiers they would define.
static constexpr llvm::StringLiteral kPrelude = R"(#include <stdint.h>
#ifdef TILEC_CUDA_HEADERS
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
typedef __half half_t;
typedef __nv_bfloat16 bfloat16_t;
typedef __nv_fp8_e4m3 fp8_e4_t;
typedef __nv_fp8_e5m2 fp8_e5_t;
#else
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
typedef _Float16 half_t;
typedef __bf16 bfloat16_t;
typedef uint8_t fp8_e4_t;
typedef uint8_t fp8_e5_t;
#endif
typedef unsigned int uint;
typedef unsigned short ushort;
)";

namespace {
/// One wrapper declaration and what it stands for.
struct Wrapper {
  mutable LLVM::LLVMFuncOp decl;
  std::string callee;
  llvm::SmallVector<std::string> params;
  std::string result;
  Location callLoc; ///< the first T.call_extern that uses it
};
} // namespace

/// The scalar type a wrapper takes or returns in place of `ctype` (half and
/// bfloat16 as the compiler's own types, whose LLVM types match tilec's).
static llvm::StringRef abiType(llvm::StringRef ctype) {
  if (ctype == "half_t")
    return "_Float16";
  if (ctype == "bfloat16_t")
    return "__bf16";
  return ctype;
}

/// The wrapper's definition, on one line.
static std::string wrapperText(const Wrapper &w) {
  std::string out = "extern \"C\" __device__ __attribute__((always_inline)) " + abiType(w.result).str() + " " +
                    w.decl.getSymName().str() + "(";
  std::string args;
  for (auto [i, p] : llvm::enumerate(w.params)) {
    out += (i ? ", " : "") + abiType(p).str() + " a" + std::to_string(i);
    std::string a = "a" + std::to_string(i);
    if (abiType(p) != p)
      a = "__builtin_bit_cast(" + p + ", " + a + ")";
    args += (i ? ", " : "") + a;
  }
  std::string call = w.callee + "(" + args + ")";
  out += ") { ";
  if (w.result == "void")
    out += call + "; }";
  else if (abiType(w.result) != w.result)
    out += w.result + " r = " + call + "; return __builtin_bit_cast(" + abiType(w.result).str() + ", r); }";
  else
    out += "return " + call + "; }";
  return out;
}

/// clang: --cuda-clang, then the LLVM tilec is built on, then PATH.
static std::string findClang(const ExternCompileOptions &o) {
  if (!o.clang.empty())
    return o.clang;
  llvm::SmallString<128> own(TILEC_LLVM_TOOLS_DIR);
  llvm::sys::path::append(own, "clang++");
  if (llvm::sys::fs::can_execute(own))
    return own.str().str();
  for (llvm::StringRef name : {"clang++-22", "clang++"})
    if (llvm::ErrorOr<std::string> p = llvm::sys::findProgramByName(name))
      return *p;
  return "";
}

/// clang's located errors: `FILE:LINE:COL: error: MESSAGE` lines.
struct ClangMessage {
  std::string file, message;
  unsigned line = 0, column = 0;
};
static llvm::SmallVector<ClangMessage> parseClangErrors(llvm::StringRef output) {
  llvm::SmallVector<ClangMessage> out;
  llvm::SmallVector<llvm::StringRef> lines;
  output.split(lines, '\n');
  for (llvm::StringRef l : lines) {
    size_t at = l.find(": error: ");
    size_t skip = 9;
    if (at == llvm::StringRef::npos) {
      at = l.find(": fatal error: ");
      skip = 15;
    }
    if (at == llvm::StringRef::npos)
      continue;
    ClangMessage m;
    m.message = l.substr(at + skip).str();
    llvm::StringRef where = l.substr(0, at), col, line;
    std::tie(where, col) = where.rsplit(':');
    std::tie(where, line) = where.rsplit(':');
    if (line.getAsInteger(10, m.line) || col.getAsInteger(10, m.column))
      continue; // clang's own errors ("clang: error: ..."): shown as they are
    m.file = where.str();
    out.push_back(std::move(m));
  }
  return out;
}

namespace {
/// A run of clang on the translation unit.
struct ClangRun {
  bool ran = false; ///< clang started (else `output` says why not)
  bool ok = false;
  std::string output;
};
} // namespace

static ClangRun runClang(const std::string &clang, const ExternCompileOptions &o, llvm::StringRef tuPath,
                         llvm::StringRef bcPath, bool cudaHeaders) {
  std::string arch = "--cuda-gpu-arch=" + o.arch, cudaPath = "--cuda-path=" + o.cudaRoot;
  llvm::SmallVector<llvm::StringRef> argv{
      clang, "-x", "cuda", "--cuda-device-only", arch, "-nocudalib", "-std=c++17", "-O3", "-emit-llvm", "-c", "-w"};
  if (cudaHeaders) {
    argv.append({cudaPath, "-DTILEC_CUDA_HEADERS=1"});
  } else {
    argv.push_back("-nocudainc");
  }
  argv.append({"-o", bcPath, tuPath});
  ToolRun run = runToolCommand(argv, o.toolLog, /*capture=*/true);
  ClangRun r;
  r.ran = run.exitCode >= 0 || run.error.empty();
  r.ok = run.exitCode == 0;
  r.output = run.error.empty() ? run.output : run.error;
  return r;
}

FailureOr<std::string> tilec::compileExterns(gpu::GPUModuleOp module, const ExternCompileOptions &o) {
  // 1. The wrappers, their first calls and the sources.
  llvm::SmallVector<Wrapper> wrappers;
  llvm::SmallVector<std::pair<StringAttr, Location>> sources;
  for (auto fn : module.getOps<LLVM::LLVMFuncOp>()) {
    auto info = fn->getAttrOfType<DictionaryAttr>(kExternWrapperAttr);
    if (!info)
      continue;
    Wrapper w{
        fn, cast<StringAttr>(info.get("callee")).str(), {}, cast<StringAttr>(info.get("result")).str(), fn.getLoc()};
    for (Attribute p : cast<ArrayAttr>(info.get("params")))
      w.params.push_back(cast<StringAttr>(p).str());
    for (auto [s, l] : llvm::zip(cast<ArrayAttr>(info.get("sources")), cast<ArrayAttr>(info.get("source_locs")))) {
      auto text = cast<StringAttr>(s);
      if (llvm::none_of(sources, [&](const auto &e) { return e.first == text; }))
        sources.emplace_back(text, cast<LocationAttr>(l));
    }
    wrappers.push_back(std::move(w));
    fn->removeAttr(kExternWrapperAttr);
  }
  if (wrappers.empty())
    return std::string();
  llvm::DenseMap<StringRef, Location> firstCall;
  module.walk([&](LLVM::CallOp c) {
    if (std::optional<StringRef> callee = c.getCallee())
      firstCall.try_emplace(*callee, c.getLoc());
  });
  for (Wrapper &w : wrappers)
    if (auto it = firstCall.find(w.decl.getSymName()); it != firstCall.end())
      w.callLoc = it->second;

  std::string tu = kPrelude.str();
  for (auto [k, s] : llvm::enumerate(sources))
    tu += "#line 1 \"import_source_" + std::to_string(k + 1) + "\"\n" + s.first.str() + "\n";
  tu += "#line 1 \"tilec_extern_calls\"\n";
  for (const Wrapper &w : wrappers)
    tu += wrapperText(w) + "\n";

  // 2. clang.
  Location primary = wrappers.front().callLoc;
  auto callName = [](const Wrapper &w) { return "T.call_extern of '" + w.callee + "'"; };
  std::string clang = findClang(o);
  if (clang.empty() || !llvm::sys::fs::can_execute(clang))
    return emitError(primary) << callName(wrappers.front()) << " needs clang to compile T.import_source's code, "
                              << (clang.empty() ? std::string("and none was found (clang++ in ") +
                                                      TILEC_LLVM_TOOLS_DIR + " or on PATH)"
                                                : "and '" + clang + "' cannot be run")
                              << "; name one with --cuda-clang";
  llvm::SmallString<128> tuPath, bcPath;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("tilec-extern", "cu", fd, tuPath) ||
      llvm::sys::fs::createTemporaryFile("tilec-extern", "bc", bcPath))
    return emitError(primary) << "cannot create a temporary file for T.import_source's code";
  llvm::FileRemover removeTU(tuPath), removeBC(bcPath);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << tu;
  }
  bool haveHeaders = llvm::sys::fs::exists(o.cudaRoot + "/include/cuda_runtime.h");
  ClangRun run = runClang(clang, o, tuPath, bcPath, false);
  if (run.ran && !run.ok && haveHeaders)
    run = runClang(clang, o, tuPath, bcPath, true);
  if (!run.ran)
    return emitError(primary) << callName(wrappers.front()) << ": cannot run clang ('" << clang << "'): " << run.output;
  if (!run.ok) {
    // 3. clang's errors, placed.
    llvm::SmallVector<ClangMessage> errors = parseClangErrors(run.output);
    const ClangMessage *first = errors.empty() ? nullptr : &errors.front();
    auto wrapperAt = [&](const ClangMessage &m) -> const Wrapper * {
      return m.file == "tilec_extern_calls" && m.line >= 1 && m.line <= wrappers.size() ? &wrappers[m.line - 1]
                                                                                        : nullptr;
    };
    auto sourceAt = [&](const ClangMessage &m) -> int {
      unsigned k;
      llvm::StringRef f(m.file);
      return f.consume_front("import_source_") && !f.getAsInteger(10, k) && k >= 1 && k <= sources.size() ? k - 1 : -1;
    };
    const Wrapper *at = first ? wrapperAt(*first) : nullptr;
    InFlightDiagnostic diag = emitError(at ? at->callLoc : primary);
    if (!first) {
      diag << callName(wrappers.front()) << ": clang failed on T.import_source's code:\n" << run.output;
      return diag;
    }
    if (at) {
      std::string args = llvm::join(at->params, ", ");
      diag << callName(*at) << " with arguments (" << args
           << ") does not compile against T.import_source's code: " << first->message;
    } else {
      diag << callName(wrappers.front()) << ": T.import_source's code does not compile: " << first->message;
    }
    unsigned shown = 0;
    for (const ClangMessage &m : errors) {
      if (++shown > 8)
        break;
      if (int k = sourceAt(m); k >= 0)
        diag.attachNote(sources[k].second)
            << "line " << m.line << ", column " << m.column << " of the imported source: " << m.message;
      else if (const Wrapper *w = wrapperAt(m); w && &m != first)
        diag.attachNote(w->callLoc) << "in " << callName(*w) << ": " << m.message;
    }
    return diag;
  }
  auto buf = llvm::MemoryBuffer::getFile(bcPath, /*IsText=*/false);
  if (!buf)
    return emitError(primary) << "cannot read clang's bitcode '" << bcPath << "'";
  return (*buf)->getBuffer().str();
}

bool tilec::linkExterns(llvm::Module &m, llvm::StringRef bitcode, std::string &error) {
  auto parsed = llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, "tilec-extern"), m.getContext());
  if (!parsed) {
    error = "cannot read the extern bitcode: " + llvm::toString(parsed.takeError());
    return false;
  }
  std::unique_ptr<llvm::Module> ext = std::move(*parsed);
  ext->setDataLayout(m.getDataLayout());
  ext->setTargetTriple(m.getTargetTriple());
  // tilec's functions carry no target attributes: the code generator's
  // (arch, PTX version) apply, and inlining needs them to agree.
  for (llvm::Function &f : *ext) {
    f.removeFnAttr("target-cpu");
    f.removeFnAttr("target-features");
    f.removeFnAttr("frame-pointer");
  }
  if (llvm::NamedMDNode *flags = ext->getModuleFlagsMetadata())
    ext->eraseNamedMetadata(flags);
  bool failed = llvm::Linker::linkModules(m, std::move(ext), llvm::Linker::Flags::LinkOnlyNeeded,
                                          [](llvm::Module &dst, const llvm::StringSet<> &added) {
                                            llvm::internalizeModule(dst, [&](const llvm::GlobalValue &gv) {
                                              return !gv.hasName() || !added.count(gv.getName());
                                            });
                                          });
  if (failed)
    error = "cannot link the extern bitcode into the kernels' module";
  return !failed;
}
