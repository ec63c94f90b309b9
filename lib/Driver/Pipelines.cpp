//===- Pipelines.cpp - Dispatch to the target pipelines -------------------===//
//
// One function per target family; stages a target does not have yet end
// with an error naming the stage and the target.
//
// Host: header | llvm (optimised LLVM IR) | asm | obj (also writes the
// header next to the output; `-shared` links a shared library instead).
//
//===----------------------------------------------------------------------===//
#include "tilec/Driver/Pipelines.h"

#include "tilec/Target/Ascend/AscendTarget.h"
#include "tilec/Target/CUDA/CUDATarget.h"
#include "tilec/Target/Host/HostTarget.h"
#include "tilec/Target/KernelABI.h"
#include "tilec/Target/Metal/MetalTarget.h"
#include "tilec/Target/WGSL/WebGPUTarget.h"
#include "tilec/Target/SPIRV/VulkanTarget.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace tilec;

static mlir::LogicalResult notImplemented(const CompileOptions &opts, llvm::raw_ostream &errs) {
  errs << "tilec: error: the '" << stageName(opts.emit) << "' stage is not implemented yet for target '"
       << opts.target.spelling << "'\n";
  return mlir::failure();
}

static mlir::LogicalResult fail(llvm::raw_ostream &errs, const llvm::Twine &message) {
  errs << "tilec: error: " << message << "\n";
  return mlir::failure();
}

/// The source name the header mentions.
static std::string sourceName(const CompileOptions &opts) {
  return opts.inputFile == "-" ? "<stdin>" : llvm::sys::path::filename(opts.inputFile).str();
}

/// Writes `k.h` next to the object or library `k.o` / `k.so`.
static mlir::LogicalResult writeHeaderBeside(const CompileOptions &opts, llvm::ArrayRef<KernelSignature> kernels,
                                             llvm::raw_ostream &errs) {
  if (opts.outputFile == "-")
    return mlir::success();
  llvm::SmallString<128> path;
  if (!opts.outputFile.empty())
    path = opts.outputFile;
  else
    path = llvm::sys::path::filename(opts.inputFile == "-" ? "a.tile" : opts.inputFile);
  llvm::sys::path::replace_extension(path, ".h");
  std::string error;
  auto file = mlir::openOutputFile(path, &error);
  if (!file)
    return fail(errs, error);
  writeCHeader(kernels, sourceName(opts), HeaderFlavor::Host, file->os());
  file->keep();
  return mlir::success();
}

/// Links `object` into a shared library and writes its bytes to `out`.
static mlir::LogicalResult writeSharedLibrary(llvm::ArrayRef<char> object, llvm::raw_ostream &out,
                                              llvm::raw_ostream &errs) {
  llvm::SmallString<128> objPath, soPath;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("tilec", "o", fd, objPath))
    return fail(errs, "cannot create a temporary object file");
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(object.data(), object.size());
  }
  llvm::FileRemover removeObj(objPath);
  if (llvm::sys::fs::createTemporaryFile("tilec", "so", soPath))
    return fail(errs, "cannot create a temporary library file");
  llvm::FileRemover removeSo(soPath);
  std::string error;
  if (mlir::failed(linkHostSharedLibrary(objPath, soPath, error)))
    return fail(errs, error);
  auto library = llvm::MemoryBuffer::getFile(soPath, /*IsText=*/false);
  if (!library)
    return fail(errs, "cannot read the linked library: " + library.getError().message());
  out << (*library)->getBuffer();
  return mlir::success();
}

static mlir::LogicalResult runHostPipeline(mlir::ModuleOp module, const CompileOptions &opts, llvm::raw_ostream &out,
                                           llvm::raw_ostream &errs) {
  switch (opts.emit) {
  case EmitStage::Header:
  case EmitStage::LLVM:
  case EmitStage::Asm:
  case EmitStage::Obj:
    break;
  default:
    return notImplemented(opts, errs);
  }
  HostOptions host;
  host.threads = std::max(1u, opts.threads);
  std::vector<KernelSignature> kernels;

  if (opts.emit == EmitStage::Header) {
    if (mlir::failed(getKernelSignatures(module, kernels)))
      return mlir::failure();
    writeCHeader(kernels, sourceName(opts), HeaderFlavor::Host, out);
    return mlir::success();
  }

  if (mlir::failed(lowerTileToHostLLVM(module, host, kernels)))
    return mlir::failure();
  llvm::LLVMContext llvmContext;
  std::string error;
  std::unique_ptr<llvm::Module> llvmModule = translateToHostLLVMIR(module, llvmContext, host, error);
  if (!llvmModule)
    return fail(errs, error);
  if (opts.emit == EmitStage::LLVM) {
    llvmModule->print(out, nullptr);
    return mlir::success();
  }
  llvm::SmallVector<char> bytes;
  if (mlir::failed(emitHostMachineCode(*llvmModule, host, opts.emit == EmitStage::Asm, bytes, error)))
    return fail(errs, error);
  if (opts.emit == EmitStage::Asm) {
    out.write(bytes.data(), bytes.size());
    return mlir::success();
  }
  if (opts.shared) {
    if (mlir::failed(writeSharedLibrary(bytes, out, errs)))
      return mlir::failure();
  } else {
    out.write(bytes.data(), bytes.size());
  }
  return writeHeaderBeside(opts, kernels, errs);
}

mlir::LogicalResult tilec::runTargetPipeline(mlir::ModuleOp module, const CompileOptions &opts,
                                             llvm::raw_ostream &out, llvm::raw_ostream &errs) {
  switch (opts.target.kind) {
  case TargetKind::Host:
    return runHostPipeline(module, opts, out, errs);
  case TargetKind::CUDA: return runCUDAPipeline(module, opts, out, errs);
  case TargetKind::Vulkan: return runVulkanPipeline(module, opts, out, errs);
  case TargetKind::Metal: return runMetalPipeline(module, opts, out, errs);
  case TargetKind::WebGPU: return runWebGPUPipeline(module, opts, out, errs);
  case TargetKind::Ascend: return runAscendPipeline(module, opts, out, errs);
  }
  return notImplemented(opts, errs);
}
