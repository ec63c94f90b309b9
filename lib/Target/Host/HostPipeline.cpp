//===- HostPipeline.cpp - The host target behind the backend interface ----===//
//
// header: the kernels' signatures | llvm: lowerTileToHostLLVM, then LLVM IR
// | asm | obj: x86-64 machine code, linked into a shared library with
// `shared`.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/Host/HostTarget.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace tilec;

/// Links `object` into a shared library and writes its bytes to `out`.
static LogicalResult writeSharedLibrary(MLIRContext *ctx, llvm::ArrayRef<char> object, llvm::raw_ostream *commandLog,
                                        llvm::raw_ostream &out) {
  llvm::SmallString<128> objPath, soPath;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("tilec", "o", fd, objPath))
    return emitToolError(ctx) << "cannot create a temporary object file";
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(object.data(), object.size());
  }
  llvm::FileRemover removeObj(objPath);
  if (llvm::sys::fs::createTemporaryFile("tilec", "so", soPath))
    return emitToolError(ctx) << "cannot create a temporary library file";
  llvm::FileRemover removeSo(soPath);
  std::string error;
  if (failed(linkHostSharedLibrary(objPath, soPath, commandLog, error)))
    return emitToolError(ctx) << error;
  auto library = llvm::MemoryBuffer::getFile(soPath, /*IsText=*/false);
  if (!library)
    return emitToolError(ctx) << "cannot read the linked library: " << library.getError().message();
  out << (*library)->getBuffer();
  return success();
}

namespace {
class HostBackend : public TargetBackend {
public:
  explicit HostBackend(const HostOptions &options) : options(options) {}

  LogicalResult lower(ModuleOp module, EmitStage stage) override {
    if (stage == EmitStage::Header)
      return getKernelSignatures(module, kernels);
    return lowerTileToHostLLVM(module, options, kernels);
  }

  LogicalResult serialize(ModuleOp module, EmitStage stage, llvm::StringRef, llvm::raw_ostream &out) override {
    if (stage == EmitStage::Header)
      return success();
    MLIRContext *ctx = module.getContext();
    std::string error;
    std::unique_ptr<llvm::Module> llvmModule = translateToHostLLVMIR(module, llvmContext, options, error);
    if (!llvmModule)
      return emitToolError(ctx) << error;
    if (stage == EmitStage::LLVM) {
      llvmModule->print(out, nullptr);
      return success();
    }
    llvm::SmallVector<char> bytes;
    if (failed(emitHostMachineCode(*llvmModule, options, stage == EmitStage::Asm, bytes, error)))
      return emitToolError(ctx) << error;
    if (stage == EmitStage::Obj && options.shared)
      return writeSharedLibrary(ctx, bytes, options.commandLog, out);
    out.write(bytes.data(), bytes.size());
    return success();
  }

  void writeHeader(const HeaderInfo &info, llvm::raw_ostream &os) override {
    writeCHeader(kernels, info, HeaderFlavor::Host, os);
  }

private:
  HostOptions options;
  std::vector<KernelSignature> kernels;
  llvm::LLVMContext llvmContext;
};

bool parseHost(llvm::StringRef spelling, std::vector<std::string> &) { return spelling == "host"; }

const EmitStage hostStages[] = {EmitStage::LLVM, EmitStage::Asm, EmitStage::Obj, EmitStage::Header};
} // namespace

const TargetDescription &tilec::getHostTargetDescription() {
  static const TargetDescription description{
      TargetKind::Host, "host", "host", parseHost, "", hostStages, ".o", ".so", "an object and a header"};
  return description;
}

std::unique_ptr<TargetBackend> tilec::createHostBackend(const HostOptions &options) {
  return std::make_unique<HostBackend>(options);
}
