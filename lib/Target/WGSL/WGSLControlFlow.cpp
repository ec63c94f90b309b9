//===- WGSLControlFlow.cpp - Structured control flow as WGSL --------------===//
//
// spirv.mlir.selection as if/else, spirv.mlir.loop as `loop`; block arguments
// and construct results as function `var`s assigned on the edges.
//
//===----------------------------------------------------------------------===//
#include "WGSLPrinter.h"


using namespace mlir;
using namespace tilec;
using namespace tilec::wgsl;

LogicalResult Printer::printBlockOps(Block &block) {
  for (Operation &op : block.without_terminator()) {
    if (auto sel = dyn_cast<spirv::SelectionOp>(op)) {
      if (failed(printConstruct(&op, sel.getBody(), /*isLoop=*/false)))
        return failure();
      continue;
    }
    if (auto loop = dyn_cast<spirv::LoopOp>(op)) {
      if (failed(printConstruct(&op, loop.getBody(), /*isLoop=*/true)))
        return failure();
      continue;
    }
    if (failed(printOp(op)))
      return failure();
  }
  return success();
}

LogicalResult Printer::declareBlockArgs(Region &region, Operation *where) {
  for (Block &block : region)
    for (BlockArgument arg : block.getArguments()) {
      FailureOr<std::string> t = typeName(arg.getType(), where);
      if (failed(t))
        return failure();
      std::string name = fresh('h');
      line("var " + name + ": " + *t + ";");
      names[arg] = name;
    }
  return success();
}

LogicalResult Printer::assignArgs(Block *target, OperandRange args, Operation *where) {
  if (args.empty())
    return success();
  // Through temporaries: an argument may read another one this edge sets.
  llvm::SmallVector<std::string> temps;
  for (Value v : args) {
    FailureOr<std::string> s = value(v);
    if (failed(s))
      return failure();
    if (args.size() == 1) {
      temps.push_back(*s);
      continue;
    }
    FailureOr<std::string> t = typeName(v.getType(), where);
    if (failed(t))
      return failure();
    std::string tmp = fresh('v');
    line("let " + tmp + ": " + *t + " = " + *s + ";");
    temps.push_back(tmp);
  }
  for (auto [arg, v] : llvm::zip(target->getArguments(), temps))
    line(names[arg] + " = " + v + ";");
  return success();
}

LogicalResult Printer::printEdge(Block *from, Block *target, OperandRange args, Operation *where, bool nested) {
  (void)from;
  if (failed(assignArgs(target, args, where)))
    return failure();
  if (target == construct.merge) {
    if (construct.header)
      line("break;");
    return success();
  }
  if (target == construct.header) {
    if (nested)
      line("continue;");
    return success();
  }
  return printChain(target, nested);
}

LogicalResult Printer::printChain(Block *block, bool nested) {
  if (failed(printBlockOps(*block)))
    return failure();
  Operation *term = block->getTerminator();
  if (auto br = dyn_cast<spirv::BranchOp>(term))
    return printEdge(block, br.getTarget(), br.getTargetOperands(), term, nested);
  if (auto cbr = dyn_cast<spirv::BranchConditionalOp>(term)) {
    FailureOr<std::string> c = branchCondition(cbr.getCondition());
    if (failed(c))
      return failure();
    Block *t = cbr.getTrueBlock(), *f = cbr.getFalseBlock();
    // A loop's exit test: break, then go on in the loop.
    if (construct.header && (t == construct.merge || f == construct.merge) && t != f) {
      bool exitOnTrue = t == construct.merge;
      line("if (" + (exitOnTrue ? *c : "!(" + *c + ")") + ") {");
      ++indent;
      if (failed(assignArgs(exitOnTrue ? t : f, exitOnTrue ? cbr.getTrueTargetOperands() : cbr.getFalseTargetOperands(),
                            term)))
        return failure();
      line("break;");
      --indent;
      line("}");
      return exitOnTrue ? printEdge(block, f, cbr.getFalseTargetOperands(), term, nested)
                        : printEdge(block, t, cbr.getTrueTargetOperands(), term, nested);
    }
    line("if (" + *c + ") {");
    ++indent;
    if (failed(printEdge(block, t, cbr.getTrueTargetOperands(), term, /*nested=*/true)))
      return failure();
    --indent;
    if (f != construct.merge || !cbr.getFalseTargetOperands().empty() || construct.header) {
      line("} else {");
      ++indent;
      if (failed(printEdge(block, f, cbr.getFalseTargetOperands(), term, /*nested=*/true)))
        return failure();
      --indent;
    }
    line("}");
    return success();
  }
  if (isa<spirv::MergeOp>(term))
    return success();
  if (isa<spirv::ReturnOp>(term)) {
    line("return;");
    return success();
  }
  return term->emitError() << "the webgpu target cannot print the terminator '" << term->getName() << "' as WGSL";
}

LogicalResult Printer::printConstruct(Operation *op, Region &region, bool isLoop) {
  // Results of the construct: vars the merge assigns.
  llvm::SmallVector<std::string> results;
  for (Value res : op->getResults()) {
    FailureOr<std::string> t = typeName(res.getType(), op);
    if (failed(t))
      return failure();
    std::string name = fresh('s');
    line("var " + name + ": " + *t + ";");
    results.push_back(name);
  }
  if (failed(declareBlockArgs(region, op)))
    return failure();
  Block *merge = nullptr;
  for (Block &b : region)
    if (isa<spirv::MergeOp>(b.getTerminator()))
      merge = &b;
  if (!merge)
    return op->emitError("the webgpu target expects a structured construct with a merge block");
  Construct saved = construct;
  Block *entry = &region.front();
  if (isLoop) {
    auto br = dyn_cast<spirv::BranchOp>(entry->getTerminator());
    if (!br || failed(printBlockOps(*entry)))
      return failure(!br ? (op->emitError("the webgpu target expects a loop entry that branches to its header"), true)
                         : true);
    if (failed(assignArgs(br.getTarget(), br.getTargetOperands(), op)))
      return failure();
    construct = {merge, br.getTarget(), op};
    line("loop {");
    ++indent;
    if (failed(printChain(br.getTarget(), /*nested=*/false)))
      return failure();
    --indent;
    line("}");
  } else {
    construct = {merge, nullptr, op};
    if (failed(printChain(entry, /*nested=*/false)))
      return failure();
  }
  construct = saved;
  if (failed(printBlockOps(*merge)))
    return failure();
  auto mergeOp = cast<spirv::MergeOp>(merge->getTerminator());
  for (auto [name, v, res] : llvm::zip(results, mergeOp.getOperands(), op->getResults())) {
    FailureOr<std::string> s = value(v);
    if (failed(s))
      return failure();
    line(name + " = " + *s + ";");
    names[res] = name;
  }
  return success();
}
