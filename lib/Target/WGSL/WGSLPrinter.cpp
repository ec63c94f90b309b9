//===- WGSLPrinter.cpp - A validated spirv.module printed as WGSL ----------===//
//
// The WGSL of one kernel, read off the spirv dialect module the Vulkan path
// made and spirv-val accepted (structured control flow, logical addressing,
// one entry point):
// 1. Globals: storage buffers become `var<storage>` arrays named after their
//    tensors (element `atomic<i32>` where an atomic touches them), the
//    push-constant block the parameter uniform buffer (`array<vec4<i32>>`,
//    uniform arrays need a 16-byte stride), workgroup variables `var<workgroup>`
//    arrays; built-in inputs become the entry point's parameters.
// 2. Values: every result is a `let`; constants print inline; pointers
//    (addressof, access chains, variables) print as the place they name, at
//    their loads, stores and atomics. WGSL's integers carry a signedness that
//    SPIR-V's do not: every integer is i32, unsigned operations bitcast.
//    Shifts clamp as PTX's do, constant zero divisors go through a `let`,
//    NaN/infinity tests read the bits (docs/webgpu.md).
// 3. Control flow: spirv.mlir.selection becomes if/else, spirv.mlir.loop a
//    `loop` whose header branch out is a `break`; block arguments (loop-carried
//    values) and construct results are function `var`s assigned on the edges.
// Anything else is a diagnostic on the op. Nothing validates the output here:
// Tint does in the tests (test/Target/WGSL/examples.test).
//
//===----------------------------------------------------------------------===//
#include "WGSLPrinter.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::wgsl;

namespace {

/// WGSL's keywords and reserved words: a tensor named like one gets a `_`.
bool isReservedWord(llvm::StringRef name) {
  static const char *const words[] = {
      "alias", "break", "case", "const", "const_assert", "continue", "continuing", "default", "diagnostic",
      "discard", "else", "enable", "false", "fn", "for", "if", "let", "loop", "override", "requires", "return",
      "struct", "switch", "true", "var", "while", "array", "atomic", "bool", "f16", "f32", "i32", "u32", "mat2x2",
      "mat3x3", "mat4x4", "ptr", "sampler", "texture_2d", "vec2", "vec3", "vec4", "NULL", "Self", "abstract",
      "active", "alignas", "alignof", "as", "asm", "asm_fragment", "async", "attribute", "auto", "await", "become",
      "cast", "catch", "class", "co_await", "co_return", "co_yield", "coherent", "column_major", "common",
      "compile", "compile_fragment", "concept", "const_cast", "consteval", "constexpr", "constinit", "crate",
      "debugger", "decltype", "delete", "demote", "demote_to_helper", "do", "dynamic_cast", "enum", "explicit",
      "export", "extends", "extern", "external", "fallthrough", "filter", "final", "finally", "friend", "from",
      "fxgroup", "get", "goto", "groupshared", "highp", "impl", "implements", "import", "inline", "instanceof",
      "interface", "layout", "lowp", "macro", "macro_rules", "match", "mediump", "meta", "mod", "module", "move",
      "mut", "mutable", "namespace", "new", "nil", "noexcept", "noinline", "nointerpolation", "non_coherent",
      "noncoherent", "noperspective", "null", "nullptr", "of", "operator", "package", "packoffset", "partition",
      "pass", "patch", "pixelfragment", "precise", "precision", "premerge", "priv", "protected", "pub", "public",
      "readonly", "ref", "regardless", "register", "reinterpret_cast", "require", "resource", "restrict", "self",
      "set", "shared", "sizeof", "smooth", "snorm", "static", "static_assert", "static_cast", "std", "subroutine",
      "super", "target", "template", "this", "thread_local", "throw", "trait", "try", "type", "typedef", "typeid",
      "typename", "typeof", "union", "unless", "unorm", "unsafe", "unsized", "use", "using", "varying", "virtual",
      "volatile", "wgsl", "where", "with", "writeonly", "yield"};
  // Builtin functions: a module-scope variable of the same name would shadow them.
  static const char *const functions[] = {
      "abs", "acos", "all", "any", "arrayLength", "asin", "atan", "atan2", "atomicAdd", "atomicLoad", "atomicStore",
      "bitcast", "ceil", "clamp", "cos", "cosh", "exp", "exp2", "floor", "fma", "fract", "inverseSqrt", "log", "log2",
      "max", "min", "mix", "pow", "round", "select", "sign", "sin", "sinh", "sqrt", "storageBarrier", "tan", "tanh",
      "trunc", "workgroupBarrier", "workgroupUniformLoad"};
  return llvm::is_contained(words, name) || llvm::is_contained(functions, name);
}

/// A WGSL identifier for a user name: letters, digits and `_`, not starting
/// with `__` or a digit, not a reserved word, not one of the generated names
/// (those start with `tilec_` or are a letter and digits). Two user names may
/// map to the same identifier (`__x`, `_x`): Printer::uniqueName tells them
/// apart.
std::string identifier(llvm::StringRef name) {
  std::string s;
  for (char c : name)
    s += llvm::isAlnum(c) || c == '_' ? c : '_';
  while (llvm::StringRef(s).starts_with("__"))
    s.erase(0, 1);
  if (s.empty() || llvm::isDigit(s[0]) || s == "_")
    s = "t_" + s;
  if (isReservedWord(s) || llvm::StringRef(s).starts_with("tilec_") ||
      (s.size() > 1 && llvm::is_contained(llvm::StringRef("vhsp"), s[0]) &&
       llvm::all_of(llvm::StringRef(s).drop_front(), llvm::isDigit)))
    s += "_";
  return s;
}

/// The WGSL built-in value and its type for a SPIR-V BuiltIn.
struct BuiltinInfo {
  const char *wgsl;
  bool vector;
};
std::optional<BuiltinInfo> builtinInfo(llvm::StringRef spirvName) {
  if (spirvName == "WorkgroupId")
    return BuiltinInfo{"workgroup_id", true};
  if (spirvName == "LocalInvocationId")
    return BuiltinInfo{"local_invocation_id", true};
  if (spirvName == "GlobalInvocationId")
    return BuiltinInfo{"global_invocation_id", true};
  if (spirvName == "NumWorkgroups")
    return BuiltinInfo{"num_workgroups", true};
  if (spirvName == "LocalInvocationIndex")
    return BuiltinInfo{"local_invocation_index", false};
  return std::nullopt;
}

} // namespace

LogicalResult Printer::declareGlobals(spirv::FuncOp fn, llvm::raw_ostream &decls, uint64_t &workgroupBytes) {
  // Which variables atomics touch (their elements become atomic<i32>).
  llvm::StringSet<> atomicVars;
  WalkResult atomics = fn.walk([&](Operation *op) -> WalkResult {
    if (!isa<spirv::AtomicIAddOp>(op) && !op->getName().getStringRef().starts_with("spirv.Atomic"))
      return WalkResult::advance();
    if (!isa<spirv::AtomicIAddOp>(op)) {
      op->emitError() << "the webgpu target cannot print '" << op->getName() << "' as WGSL";
      return WalkResult::interrupt();
    }
    Value ptr = op->getOperand(0);
    while (auto chain = ptr.getDefiningOp<spirv::AccessChainOp>())
      ptr = chain.getBasePtr();
    auto addr = ptr.getDefiningOp<spirv::AddressOfOp>();
    if (!addr) {
      op->emitError("the webgpu target takes atomics on buffers and workgroup variables only");
      return WalkResult::interrupt();
    }
    atomicVars.insert(addr.getVariable());
    return WalkResult::advance();
  });
  if (atomics.wasInterrupted())
    return failure();

  out.uniformBinding = static_cast<uint32_t>(r.bindings.size());
  out.bufferUsed.assign(r.bindings.size(), false);
  out.bufferAtomic.assign(r.bindings.size(), false);
  unsigned workgroupVars = 0;
  for (auto var : module.getOps<spirv::GlobalVariableOp>()) {
    Global g;
    auto ptrType = cast<spirv::PointerType>(var.getType());
    g.storage = ptrType.getStorageClass();
    g.atomic = atomicVars.contains(var.getSymName());
    Type pointee = ptrType.getPointeeType();
    if (std::optional<StringRef> builtIn = var.getBuiltIn()) {
      std::optional<BuiltinInfo> info = builtinInfo(*builtIn);
      if (!info)
        return var.emitError() << "the webgpu target has no WGSL built-in value for SPIR-V's " << *builtIn;
      std::string param = uniqueName(std::string("tilec_") + info->wgsl);
      builtinParams.push_back(std::string("@builtin(") + info->wgsl + ") " + param + ": " +
                              (info->vector ? "vec3<u32>" : "u32"));
      FailureOr<std::string> t = typeName(pointee, var);
      if (failed(t))
        return failure();
      builtinExpr[var.getSymName()] = "bitcast<" + *t + ">(" + param + ")";
      g.name = param;
      globals[var.getSymName()] = g;
      continue;
    }
    switch (g.storage) {
    case spirv::StorageClass::StorageBuffer: {
      std::optional<uint32_t> binding = var.getBinding();
      if (!binding || *binding >= r.bindings.size())
        return var.emitError("the webgpu target expects each storage buffer bound to one tensor");
      const vk::Binding &b = r.bindings[*binding];
      g.binding = *binding;
      g.name = uniqueName(identifier(r.params[b.param].name));
      FailureOr<std::string> t = typeName(pointee, var, g.atomic);
      if (failed(t))
        return failure();
      out.bufferUsed[*binding] = true;
      out.bufferAtomic[*binding] = g.atomic;
      decls << "@group(0) @binding(" << *binding << ") var<storage, " << (b.readOnly && !g.atomic ? "read" : "read_write")
            << "> " << g.name << ": " << *t << ";\n";
      break;
    }
    case spirv::StorageClass::PushConstant: {
      g.uniformParams = true;
      g.name = "tilec_params";
      out.uniformSize = static_cast<uint32_t>(llvm::alignTo(std::max<uint32_t>(r.pushConstantSize, 4), 16));
      decls << "struct TilecParams {\n  w: array<vec4<i32>, " << out.uniformSize / 16 << ">,\n};\n";
      decls << "@group(0) @binding(" << out.uniformBinding << ") var<uniform> tilec_params: TilecParams;\n";
      break;
    }
    case spirv::StorageClass::Workgroup: {
      g.name = uniqueName("tilec_wg" + std::to_string(workgroupVars++));
      FailureOr<std::string> t = typeName(pointee, var, g.atomic);
      if (failed(t))
        return failure();
      workgroupBytes += llvm::alignTo(wgslSize(pointee), 16);
      decls << "var<workgroup> " << g.name << ": " << *t << ";\n";
      break;
    }
    default:
      return var.emitError() << "the webgpu target cannot place a variable in " << stringifyStorageClass(g.storage)
                             << " storage";
    }
    globals[var.getSymName()] = g;
  }
  return success();
}

LogicalResult Printer::run() {
  // The entry point.
  spirv::EntryPointOp entry;
  for (auto ep : module.getOps<spirv::EntryPointOp>()) {
    if (entry)
      return ep.emitError("the webgpu target expects one entry point per module");
    entry = ep;
  }
  if (!entry || entry.getExecutionModel() != spirv::ExecutionModel::GLCompute)
    return module.emitError("the webgpu target expects one GLCompute entry point");
  auto fn = module.lookupSymbol<spirv::FuncOp>(entry.getFn());
  if (!fn)
    return entry.emitError("the entry point's function is missing");
  for (auto other : module.getOps<spirv::FuncOp>())
    if (other != fn)
      return other.emitError("the webgpu target prints modules of one function (the kernel) only");
  // The generated module-scope names first, so that user names yield to them.
  for (const char *generated : {"TilecParams", "tilec_params", "tilec_uniform"})
    moduleNames.insert(generated);
  out.entryPoint = uniqueName(identifier(r.kernelName));

  // 1. Globals.
  std::string declText;
  llvm::raw_string_ostream decls(declText);
  // Workgroup storage as WebGPU counts it: each variable rounded up to 16 bytes.
  uint64_t workgroupBytes = 0;
  if (failed(declareGlobals(fn, decls, workgroupBytes)))
    return failure();

  // 2-3. The function body, after the uniformity analysis its barriers need.
  analyzeUniformity(fn);
  if (failed(printChain(&fn.getBody().front(), /*nested=*/false)))
    return failure();
  if (needsLocalIndex && !llvm::any_of(builtinParams, [](const std::string &p) {
        return llvm::StringRef(p).starts_with("@builtin(local_invocation_index)");
      }))
    builtinParams.push_back("@builtin(local_invocation_index) tilec_local_invocation_index: u32");
  // The broadcast variable is workgroup storage too (the Vulkan check before
  // the printer does not know it).
  if (usesUniformVar)
    workgroupBytes += 16;
  if (workgroupBytes > static_cast<uint64_t>(options.maxWorkgroupStorageBytes))
    return fn.emitError() << "kernel '" << r.kernelName << "' needs " << workgroupBytes
                          << " bytes of workgroup storage as WGSL declares it (each variable rounded up to 16 bytes"
                          << (usesUniformVar ? "; 16 of them broadcast a branch condition WGSL cannot prove uniform" : "")
                          << "); webgpu allows at most " << options.maxWorkgroupStorageBytes
                          << " (maxComputeWorkgroupStorageSize)";

  std::string text;
  llvm::raw_string_ostream os(text);
  os << "// Generated by tilec for webgpu: kernel '" << r.kernelName << "'. Do not edit.\n";
  if (usesF16 && !options.float16)
    return module.emitError() << "kernel '" << r.kernelName
                              << "' needs float16, which needs the 'shader-f16' feature (--webgpu-f16=0 turned it off)";
  out.usesFloat16 = usesF16;
  if (usesF16)
    os << "enable f16;\n";
  os << "\n" << declText << (usesUniformVar ? "var<workgroup> tilec_uniform: u32;\n" : "") << "\n";
  os << "@compute @workgroup_size(" << r.workgroupSize[0] << ", " << r.workgroupSize[1] << ", " << r.workgroupSize[2]
     << ")\n";
  os << "fn " << out.entryPoint << "(" << llvm::join(builtinParams, ", ") << ") {\n";
  os << bodyText << "}\n";
  out.wgsl = std::move(text);
  return success();
}

LogicalResult tilec::printWGSL(Operation *spirvModule, const WebGPUTargetOptions &options, WebGPUKernel &out) {
  auto module = dyn_cast<spirv::ModuleOp>(spirvModule);
  if (!module)
    return spirvModule->emitError("expected a spirv.module");
  wgsl::Printer printer(module, options, out);
  return printer.run();
}
