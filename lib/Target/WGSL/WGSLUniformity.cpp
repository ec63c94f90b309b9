//===- WGSLUniformity.cpp - Values that may differ per invocation ---------===//
//
// WGSL requires barriers in uniform control flow: the values that may differ
// between a workgroup's invocations, and branch conditions broadcast from one.
//
//===----------------------------------------------------------------------===//
#include "WGSLPrinter.h"


using namespace mlir;
using namespace tilec;
using namespace tilec::wgsl;

/// 1. Seeds: loads of the invocation-indexed built-ins, of storage buffers the
///    kernel writes (and of atomics), of workgroup memory; atomic results.
/// 2. Propagation to a fixed point: results of ops with a non-uniform operand;
///    loop-carried block arguments and construct results fed a non-uniform
///    value; function variables stored a non-uniform value or stored under a
///    non-uniform condition, and their loads.
/// The analysis is at least as conservative as WGSL's for the code the
/// printer writes (read-only storage and uniform buffers are uniform there too).
void Printer::analyzeUniformity(spirv::FuncOp fn) {
  auto baseOf = [](Value ptr) {
    while (auto chain = ptr.getDefiningOp<spirv::AccessChainOp>())
      ptr = chain.getBasePtr();
    return ptr;
  };
  auto uniformPlace = [&](Value ptr) {
    Value base = baseOf(ptr);
    auto addr = base.getDefiningOp<spirv::AddressOfOp>();
    if (!addr)
      return false; // function variables: decided by their stores
    auto var = module.lookupSymbol<spirv::GlobalVariableOp>(addr.getVariable());
    if (!var)
      return false;
    if (std::optional<StringRef> builtIn = var.getBuiltIn())
      return *builtIn == "WorkgroupId" || *builtIn == "NumWorkgroups";
    auto it = globals.find(addr.getVariable());
    if (it == globals.end())
      return false;
    const Global &g = it->second;
    if (g.uniformParams)
      return true;
    return g.storage == spirv::StorageClass::StorageBuffer && !g.atomic && g.binding >= 0 &&
           r.bindings[g.binding].readOnly;
  };
  llvm::DenseSet<Operation *> nonUniformVars;
  // The branch conditions of each construct's own blocks, gathered once: walking
  // every enclosing construct for every store made a big unrolled body quadratic
  // (a threads=1 kernel of 1,024 elements per thread took 18 s of CPU here).
  llvm::DenseMap<Operation *, llvm::SmallVector<Value, 2>> conditions;
  fn.walk([&](spirv::BranchConditionalOp br) { conditions[br->getParentOp()].push_back(br.getCondition()); });
  // Constructs whose branch conditions are non-uniform.
  auto underNonUniform = [&](Operation *op) {
    for (Operation *p = op->getParentOp(); p && !isa<spirv::FuncOp>(p); p = p->getParentOp()) {
      if (!isa<spirv::SelectionOp, spirv::LoopOp>(p))
        continue;
      auto it = conditions.find(p);
      if (it != conditions.end() && llvm::any_of(it->second, [&](Value c) { return nonUniform.contains(c); }))
        return true;
    }
    return false;
  };
  bool changed = true;
  auto mark = [&](Value v) {
    if (nonUniform.insert(v).second)
      changed = true;
  };
  while (changed) {
    changed = false;
    fn.walk([&](Operation *op) {
      if (auto load = dyn_cast<spirv::LoadOp>(op)) {
        Value base = baseOf(load.getPtr());
        bool bad = base.getDefiningOp<spirv::VariableOp>() ? nonUniformVars.contains(base.getDefiningOp())
                                                           : !uniformPlace(load.getPtr());
        if (auto chain = load.getPtr().getDefiningOp<spirv::AccessChainOp>())
          bad |= llvm::any_of(chain.getIndices(), [&](Value idx) { return nonUniform.contains(idx); });
        if (bad)
          mark(load.getResult());
        return;
      }
      if (auto store = dyn_cast<spirv::StoreOp>(op)) {
        if (auto var = baseOf(store.getPtr()).getDefiningOp<spirv::VariableOp>())
          if ((nonUniform.contains(store.getValue()) || underNonUniform(op)) && nonUniformVars.insert(var).second)
            changed = true;
        return;
      }
      if (isa<spirv::AtomicIAddOp>(op)) {
        mark(op->getResult(0));
        return;
      }
      if (auto br = dyn_cast<spirv::BranchOp>(op)) {
        for (auto [arg, v] : llvm::zip(br.getTarget()->getArguments(), br.getTargetOperands()))
          if (nonUniform.contains(v))
            mark(arg);
        return;
      }
      if (auto cbr = dyn_cast<spirv::BranchConditionalOp>(op)) {
        for (auto [arg, v] : llvm::zip(cbr.getTrueBlock()->getArguments(), cbr.getTrueTargetOperands()))
          if (nonUniform.contains(v) || nonUniform.contains(cbr.getCondition()))
            mark(arg);
        for (auto [arg, v] : llvm::zip(cbr.getFalseBlock()->getArguments(), cbr.getFalseTargetOperands()))
          if (nonUniform.contains(v) || nonUniform.contains(cbr.getCondition()))
            mark(arg);
        return;
      }
      if (auto merge = dyn_cast<spirv::MergeOp>(op)) {
        Operation *construct = op->getParentOp();
        for (auto [res, v] : llvm::zip(construct->getResults(), merge.getOperands()))
          if (nonUniform.contains(v) || underNonUniform(op))
            mark(res);
        return;
      }
      if (isa<spirv::SelectionOp, spirv::LoopOp, spirv::AccessChainOp>(op))
        return;
      for (Value v : op->getOperands())
        if (nonUniform.contains(v)) {
          for (Value res : op->getResults())
            mark(res);
          break;
        }
    });
  }
}

/// The condition of a branch: as it is, unless it may differ between
/// invocations and the construct it steers holds a barrier, which WGSL only
/// allows in uniform control flow. Then invocation 0's value is broadcast
/// through workgroup memory with workgroupUniformLoad (a .tile condition is
/// one value per block: the body runs once per block), and a barrier keeps
/// the next write of the variable after every invocation's read.
FailureOr<std::string> Printer::branchCondition(Value cond) {
  FailureOr<std::string> c = value(cond);
  if (failed(c) || !construct.op || !nonUniform.contains(cond))
    return c;
  bool barrier = false;
  construct.op->walk([&](spirv::ControlBarrierOp) { barrier = true; });
  if (!barrier)
    return c;
  // One variable serves every branch: the barrier after each read orders it
  // before the next write.
  std::string var = "tilec_uniform";
  usesUniformVar = true;
  needsLocalIndex = true;
  line("if (tilec_local_invocation_index == 0u) {");
  line("  " + var + " = select(0u, 1u, " + *c + ");");
  line("}");
  std::string name = fresh('v');
  line("let " + name + ": bool = workgroupUniformLoad(&" + var + ") != 0u;");
  line("workgroupBarrier();");
  return name;
}
