//===- Torch.cpp - What of torch the meta level knows ---------------------===//
//
// torch is harness code (spec §3), with two exceptions kernel files rely on:
// its dtypes (`torch.float16`), which tile-lang accepts wherever it takes a
// dtype, and the device queries examples choose a kernel configuration by
// (`torch.cuda.get_device_capability()`, `is_available()`,
// `get_device_properties(0).major`). Ahead of time the device is the target:
// a CUDA target's first arch, sm_90 for the others (docs/differences.md).
// Everything else of torch is a harness value, an error only where used.
//
//===----------------------------------------------------------------------===//
#include "InterpImpl.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tilec;
using namespace tilec::meta;
using namespace tilec::meta::detail;
using K = Value::Kind;

namespace {
Value harnessModule(std::string name) {
  auto m = std::make_shared<ModuleObj>();
  m->name = name;
  m->lazy = [name](llvm::StringRef attr) { return makeHarness(name + "." + attr.str(), llvm::SMRange()); };
  return Value::ofObject(K::Module, m);
}

/// torch's dtype attribute names and aliases, as tile-lang maps them.
std::optional<DType> torchDType(llvm::StringRef attr) {
  std::optional<llvm::StringRef> alias = llvm::StringSwitch<std::optional<llvm::StringRef>>(attr)
                                             .Case("half", llvm::StringRef("float16"))
                                             .Case("float", llvm::StringRef("float32"))
                                             .Case("double", llvm::StringRef("float64"))
                                             .Case("short", llvm::StringRef("int16"))
                                             .Case("int", llvm::StringRef("int32"))
                                             .Case("long", llvm::StringRef("int64"))
                                             .Default(std::nullopt);
  llvm::StringRef name = alias ? *alias : attr;
  // Only the spellings torch has (not tilec's `int4` or `float8_e4m3`).
  if (name == "int4" || name == "uint4" || name == "float8_e4m3")
    return std::nullopt;
  return parseDType(name);
}

/// Arguments of a device query: at most `hi` positional (a device index or
/// name), all concrete.
bool queryArgs(Interpreter &in, CallArgs &c, llvm::StringRef name, size_t hi) {
  for (size_t k = 0; k < c.args.size(); ++k)
    if (!in.requireConcrete(c.args[k], c.rangeOf(k, "")))
      return false;
  if (c.args.size() <= hi)
    return true;
  in.error(DiagID::meta_call_error, c.range, name,
           "takes at most " + std::to_string(hi) + " arguments but " + std::to_string(c.args.size()) + " were given");
  return false;
}

Value cudaModule(Interpreter &in) {
  auto m = std::make_shared<ModuleObj>();
  m->name = "torch.cuda";
  int major = in.getOptions().deviceMajor, minor = in.getOptions().deviceMinor;
  m->attrs["get_device_capability"] = makeBuiltin("torch.cuda.get_device_capability", [=](Interpreter &in, CallArgs &c) {
    if (!queryArgs(in, c, "torch.cuda.get_device_capability", 1))
      return Value();
    return Value::ofTuple({Value::ofInt(major), Value::ofInt(minor)});
  });
  m->attrs["get_device_properties"] = makeBuiltin("torch.cuda.get_device_properties", [=](Interpreter &in, CallArgs &c) {
    if (!queryArgs(in, c, "torch.cuda.get_device_properties", 1))
      return Value();
    // The SM count is an H100/H200 SXM's, as tilelang.carver's get_num_sms.
    return makeObject("_CudaDeviceProperties",
                      {{"major", Value::ofInt(major)},
                       {"minor", Value::ofInt(minor)},
                       {"multi_processor_count", Value::ofInt(132)}},
                      "_CudaDeviceProperties(major=" + std::to_string(major) + ", minor=" + std::to_string(minor) + ")");
  });
  m->attrs["is_available"] = makeBuiltin("torch.cuda.is_available", [](Interpreter &in, CallArgs &c) {
    return queryArgs(in, c, "torch.cuda.is_available", 0) ? Value::ofBool(true) : Value();
  });
  m->attrs["device_count"] = makeBuiltin("torch.cuda.device_count", [](Interpreter &in, CallArgs &c) {
    return queryArgs(in, c, "torch.cuda.device_count", 0) ? Value::ofInt(1) : Value();
  });
  m->attrs["current_device"] = makeBuiltin("torch.cuda.current_device", [](Interpreter &in, CallArgs &c) {
    return queryArgs(in, c, "torch.cuda.current_device", 0) ? Value::ofInt(0) : Value();
  });
  m->lazy = [](llvm::StringRef attr) { return makeHarness("torch.cuda." + attr.str(), llvm::SMRange()); };
  return Value::ofObject(K::Module, m);
}
} // namespace

Value detail::makeTorchModule(Interpreter &in, llvm::StringRef dotted) {
  if (dotted == "torch.cuda")
    return cudaModule(in);
  if (dotted != "torch")
    return harnessModule(dotted.str());
  auto m = std::make_shared<ModuleObj>();
  m->name = "torch";
  m->attrs["cuda"] = cudaModule(in);
  m->lazy = [](llvm::StringRef attr) {
    if (std::optional<DType> t = torchDType(attr))
      return Value::ofDType(*t);
    return makeHarness("torch." + attr.str(), llvm::SMRange());
  };
  return Value::ofObject(K::Module, m);
}
