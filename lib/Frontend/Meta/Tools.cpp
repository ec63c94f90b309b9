//===- Tools.cpp - tilelang.tools: profiling instrumentation modules ------===//
//
// `from tilelang.tools.cuda import iket`: IKET's kernel-level events
// (iket.range / iket.mark / iket.payload ...) are the kernel primitives of the
// builtin table, which tilec accepts and drops (no trace buffer is emitted);
// its session and trace helpers are harness code.
//
//===----------------------------------------------------------------------===//
#include "InterpImpl.h"

#include "tilec/Frontend/Builtins.h"

using namespace tilec;
using namespace tilec::meta;
using namespace tilec::meta::detail;

Value detail::makeToolsModule(Interpreter &in, llvm::StringRef dotted) {
  auto m = std::make_shared<ModuleObj>();
  m->name = dotted.str();
  if (dotted == "tilelang.tools")
    m->attrs["cuda"] = in.importModule("tilelang.tools.cuda", llvm::SMRange(), false);
  else if (dotted == "tilelang.tools.cuda")
    m->attrs["iket"] = in.importModule("tilelang.tools.cuda.iket", llvm::SMRange(), false);
  else if (dotted == "tilelang.tools.cuda.iket")
    for (const char *n : {"range", "mark", "payload", "range_push", "range_pop", "range_start", "range_end"})
      if (const BuiltinInfo *p = lookupPyBuiltin(std::string("iket.") + n))
        m->attrs[n] = makePrimitive(p);
  std::string name = dotted.str();
  m->lazy = [name](llvm::StringRef attr) { return makeHarness(name + "." + attr.str(), llvm::SMRange()); };
  return Value::ofObject(Value::Kind::Module, m);
}
