//===- Sema.h - Module-level analysis of a .tile/.py file -------*- C++ -*-===//
//
// Runs the meta interpreter over the module (constants with -D overrides,
// helper functions, decorators), instantiates the kernels and factories the
// user asked for (--kernel), and resolves each kernel's parameters (tensor
// shapes and dtypes, runtime dimensions, scalars, eager-style outputs).
// Kernel bodies are checked by TileGen as it builds them.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_SEMA_H
#define TILEC_FRONTEND_SEMA_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/ConstEval.h"
#include "tilec/Frontend/Meta/Interpreter.h"
#include "tilec/Support/Define.h"

#include "llvm/ADT/ArrayRef.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tilec {

class DiagnosticEmitter;

/// What the driver tells the frontend beyond the source.
struct FrontendOptions {
  std::vector<Define> defines;
  /// `-I DIR`: where the user's helper modules are looked up.
  std::vector<std::string> includeDirs;
  /// `--kernel NAME`: the one kernel or factory to build ("" = all).
  std::string kernel;
  /// `--kernel-name NAME`: the exported name of that kernel.
  std::string kernelName;
  /// The compute capability harness code's `torch.cuda.get_device_capability()`
  /// answers at compile time: a CUDA target's (first) arch, else sm_90's.
  int deviceMajor = 9, deviceMinor = 0;
};

/// One dimension of a kernel tensor: static, a runtime dimension, or a
/// derived dimension (an expression of runtime dimensions, `seq_len * 4`,
/// which the launchers compute from them).
struct ShapeDim {
  int64_t size = 0;        // when static
  std::string dynamicName; // non-empty when runtime: the dimension's name, or a derived one's text
  std::vector<std::string> uses; // the runtime dimensions it is computed from (itself when plain)
  bool isDynamic() const { return !dynamicName.empty(); }
};

/// A resolved kernel parameter.
struct KernelParam {
  enum class Kind { Tensor, Scalar } kind = Kind::Scalar;
  std::string name;
  llvm::SMRange range; // the parameter's name
  DType dtype = DType::Float32;
  llvm::SmallVector<ShapeDim, 4> shape; // tensors only
  bool isOutput = false;                // eager-style `T.empty` output
};

/// A kernel to build: its definition, exported name, parameters and the
/// meta environment its body sees.
struct KernelInfo {
  std::string exportName;
  const ast::FunctionDefStmt *def = nullptr;
  /// The statements to generate (the def's body; eager style: from the
  /// first `with T.Kernel` on).
  std::vector<const ast::Stmt *> body;
  /// Tensors (inputs, then eager outputs) and scalars in declaration order.
  std::vector<KernelParam> params;
  /// The runtime dimensions used by the tensor shapes, in first-use order.
  std::vector<std::string> dynamicDims;
  /// Names not bound in the body resolve here: the factory's locals, then
  /// the module's globals (`env->lookup(name)`); Python builtins through
  /// `interp->lookupBuiltin(name)`.
  meta::Env *env = nullptr;
  meta::Interpreter *interp = nullptr;
  /// The kernel value (decorator arguments: jit dict, autotune configs).
  meta::Value kernel;
  /// The meta call stack where the kernel was defined, for notes.
  std::vector<std::pair<std::string, llvm::SMRange>> frames;
};

/// The result of module-level analysis; owns the interpreter, which must
/// outlive kernel generation.
struct SemaModule {
  meta::MetaOptions metaOptions;
  std::unique_ptr<meta::Interpreter> interp;
  std::vector<KernelInfo> kernels;
};

/// Module-level semantic analysis.
class Sema {
public:
  Sema(DiagnosticEmitter &diags, llvm::SourceMgr &srcMgr, ast::ASTContext &ctx)
      : diags(diags), srcMgr(srcMgr), ctx(ctx) {}

  /// Analyzes `module`; returns false after reporting errors.
  bool analyze(const ast::Module &module, const FrontendOptions &opts, SemaModule &out);

private:
  void parseDefines(llvm::ArrayRef<Define> defines, meta::MetaOptions &mo);
  /// Calls factory `fn` with its parameters from -D and defaults.
  meta::Value instantiate(const meta::Value &fn, SemaModule &out);
  void addKernel(const meta::Value &kernel, const FrontendOptions &opts, SemaModule &out);
  bool resolveParam(const ast::Param &p, meta::Env *env, KernelParam &out, SemaModule &sm);
  bool resolveTensor(const meta::Value &type, llvm::SMRange range, KernelParam &out);
  void reportUnusedDefines(SemaModule &out);
  void collectMainOnlyNames(const ast::Module &module, SemaModule &out);

  DiagnosticEmitter &diags;
  llvm::SourceMgr &srcMgr;
  ast::ASTContext &ctx;
};

} // namespace tilec

#endif // TILEC_FRONTEND_SEMA_H
