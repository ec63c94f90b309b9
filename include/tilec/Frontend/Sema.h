//===- Sema.h - Module-level semantic analysis of a .tile file --*- C++ -*-===//
//
// Evaluates module constants (with -D overrides), expands kernel factories,
// finds the @T.prim_func kernels and resolves their parameters (tensor shapes
// and dtypes, runtime dimensions, scalars). Kernel bodies are checked by
// TileGen as it builds them, using the rules declared here.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_SEMA_H
#define TILEC_FRONTEND_SEMA_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/ConstEval.h"

#include "llvm/ADT/ArrayRef.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tilec {

class DiagnosticEmitter;
struct Define;

/// One dimension of a kernel tensor: static, or a runtime dimension.
struct ShapeDim {
  int64_t size = 0;        // when static
  std::string dynamicName; // non-empty when a runtime dimension
  bool isDynamic() const { return !dynamicName.empty(); }
};

/// A resolved kernel parameter.
struct KernelParam {
  enum class Kind { Tensor, Scalar } kind = Kind::Scalar;
  std::string name;
  llvm::SMRange range; // the parameter's name
  DType dtype = DType::Float32;
  llvm::SmallVector<ShapeDim, 4> shape; // tensors only
};

/// A kernel to build: its definition, exported name, parameters and the
/// constants its body sees.
struct KernelInfo {
  std::string exportName;
  const ast::FunctionDefStmt *def = nullptr;
  std::vector<KernelParam> params;
  /// The runtime dimensions used by the tensor shapes, in first-use order.
  std::vector<std::string> dynamicDims;
  /// Module constants, or a factory's scope.
  const ConstScope *scope = nullptr;
};

/// The result of module-level analysis.
struct SemaModule {
  ConstScope globals;
  std::vector<std::unique_ptr<ConstScope>> factoryScopes;
  std::vector<KernelInfo> kernels;
};

/// Module-level semantic analysis.
class Sema {
public:
  Sema(DiagnosticEmitter &diags, llvm::SourceMgr &srcMgr, ast::ASTContext &ctx)
      : diags(diags), srcMgr(srcMgr), ctx(ctx) {}

  /// Analyzes `module` with the -D overrides; returns false after reporting
  /// errors.
  bool analyze(const ast::Module &module, llvm::ArrayRef<Define> defines, SemaModule &out);

private:
  struct PendingDefine {
    std::string name;
    const ast::Expr *value = nullptr; // null when the value did not parse
    llvm::SMRange range;
    bool used = false;
  };

  void parseDefines(llvm::ArrayRef<Define> defines);
  PendingDefine *findDefine(llvm::StringRef name);
  void checkImport(const ast::ImportStmt *s);
  void reportNewStmt(const ast::Stmt *s);
  /// `NAME = expr` / `A, B = x, y` at module or factory level.
  void assignConstant(const ast::AssignStmt *s, ConstScope &scope);
  void bindTarget(const ast::Expr *target, ConstValue value, ConstScope &scope, llvm::SMRange valueRange);
  void handleFunction(const ast::FunctionDefStmt *fn, ConstScope &scope, SemaModule &out);
  void handleFactory(const ast::FunctionDefStmt *fn, ConstScope &scope, SemaModule &out);
  void addKernel(const ast::FunctionDefStmt *fn, llvm::StringRef exportName, const ConstScope &scope,
                 SemaModule &out);
  bool resolveParam(const ast::Param &p, const ConstScope &scope, KernelParam &out);
  void reportUnusedDefines(const SemaModule &out);

  DiagnosticEmitter &diags;
  llvm::SourceMgr &srcMgr;
  ast::ASTContext &ctx;
  std::vector<PendingDefine> pending;
  /// Every constant or factory parameter name seen, for the unknown -D list.
  std::vector<std::string> knownNames;
};

/// True if `decorator` is `T.prim_func` (or `tilelang.language.prim_func`).
bool isPrimFuncDecorator(const ast::Expr *decorator);
/// True if `decorator` is `tilelang.jit` or `tilelang.jit(...)`.
bool isJitDecorator(const ast::Expr *decorator);

} // namespace tilec

#endif // TILEC_FRONTEND_SEMA_H
