//===- WGSLPrinter.h - The WGSL printer's shared pieces ---------*- C++ -*-===//
//
// Private to lib/Target/WGSL: the per-kernel printer (Printer) whose parts live
// in WGSLPrinter.cpp (names, module-level declarations, the entry point),
// WGSLExpr.cpp (types, literals, values and places, ops), WGSLControlFlow.cpp
// (blocks, edges, selections and loops) and WGSLUniformity.cpp (the uniformity
// analysis and branch conditions).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_TARGET_WGSL_WGSLPRINTER_H
#define TILEC_LIB_TARGET_WGSL_WGSLPRINTER_H

#include "tilec/Target/WGSL/WebGPUTarget.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace tilec {
namespace wgsl {
using namespace mlir;

/// A module-scope variable as the WGSL names it.
struct Global {
  std::string name;
  spirv::StorageClass storage;
  bool atomic = false;       ///< its elements are atomic<i32>
  bool uniformParams = false; ///< the push-constant block, printed as the uniform buffer
  int64_t binding = -1;      ///< storage buffers: the tensor binding
};

class Printer {
public:
  Printer(spirv::ModuleOp module, const WebGPUTargetOptions &options, WebGPUKernel &out)
      : module(module), options(options), out(out), r(out.vulkan.reflection) {}

  LogicalResult run();

private:
  /// The module's global variables as WGSL declarations (buffers, the uniform block of
  /// the push constants, workgroup variables) into `decls`, built-in values as entry
  /// parameters; adds the workgroup variables' WebGPU-counted bytes to `workgroupBytes`.
  LogicalResult declareGlobals(spirv::FuncOp fn, llvm::raw_ostream &decls, uint64_t &workgroupBytes);

  // Types and literals.
  FailureOr<std::string> typeName(Type t, Operation *where, bool atomic = false);
  /// The single-member structs the SPIR-V conversion wraps arrays in print as their member.
  static Type unwrap(Type t);
  /// The byte size WGSL gives a (workgroup) variable of type `t`.
  static uint64_t wgslSize(Type t);
  FailureOr<std::string> literal(Attribute value, Type type, Operation *where);
  // Values.
  FailureOr<std::string> value(Value v);
  FailureOr<std::string> place(Value ptr);
  bool isAtomicPlace(Value ptr);
  // Statements.
  void line(const llvm::Twine &text) {
    body.indent(indent * 2) << text << "\n";
  }
  std::string fresh(char prefix) { return std::string(1, prefix) + std::to_string(counter++); }
  LogicalResult declare(Value v, Operation *op, const llvm::Twine &expr);
  LogicalResult printOp(Operation &op);
  /// A constant the use sites cannot print inline (an infinity or a NaN): a `let` of its bits.
  LogicalResult printConstant(spirv::ConstantOp cst);
  /// Variables, loads, stores, atomics, barriers and returns; false when `op` is none of
  /// them (then `result` is untouched).
  bool printMemoryOp(Operation &op, LogicalResult &result);
  /// An op with one result printed as a WGSL expression of its operands.
  LogicalResult printValueOp(Operation &op);
  LogicalResult printShift(Operation &op, const std::string &x, const std::string &amount);
  LogicalResult printBlockOps(Block &block);
  LogicalResult assignArgs(Block *target, OperandRange args, Operation *where);
  LogicalResult printEdge(Block *from, Block *target, OperandRange args, Operation *where, bool nested);
  LogicalResult printChain(Block *block, bool nested);
  LogicalResult printConstruct(Operation *op, Region &region, bool isLoop);
  LogicalResult declareBlockArgs(Region &region, Operation *where);

  spirv::ModuleOp module;
  const WebGPUTargetOptions &options;
  WebGPUKernel &out;
  const vk::Reflection &r;
  llvm::StringMap<Global> globals;
  /// Every module-scope name the WGSL declares (entry point, globals, the
  /// parameter struct), generated ones included: each is declared once.
  llvm::StringSet<> moduleNames;
  std::string uniqueName(std::string name) {
    while (!moduleNames.insert(name).second)
      name += "_";
    return name;
  }
  llvm::DenseMap<Value, std::string> names;
  std::string bodyText;
  llvm::raw_string_ostream body{bodyText};
  unsigned indent = 1;
  unsigned counter = 0;
  bool usesF16 = false;
  /// The innermost construct being printed: its merge block and, for a loop,
  /// its header (branches there are the back edge).
  struct Construct {
    Block *merge = nullptr;
    Block *header = nullptr;
    Operation *op = nullptr;
  } construct;
  // Uniformity (WGSL requires barriers in uniform control flow).
  void analyzeUniformity(spirv::FuncOp fn);
  FailureOr<std::string> branchCondition(Value cond);
  /// Values WGSL's uniformity analysis may see as differing between the
  /// invocations of a workgroup.
  llvm::DenseSet<Value> nonUniform;
  /// Whether the workgroup variable that broadcasts invocation 0's branch
  /// conditions (`tilec_uniform`, one for every branch) is declared.
  bool usesUniformVar = false;
  bool needsLocalIndex = false;
  /// Entry-point parameters for the built-ins used, in first-use order.
  llvm::SmallVector<std::string> builtinParams;
  llvm::StringMap<std::string> builtinExpr;
};

/// The value of an integer spirv.Constant, if `v` is one.
std::optional<int64_t> constantInt(Value v);

} // namespace wgsl
} // namespace tilec

#endif // TILEC_LIB_TARGET_WGSL_WGSLPRINTER_H
