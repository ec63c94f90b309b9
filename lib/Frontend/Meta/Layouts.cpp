//===- Layouts.cpp - T.Layout and T.Fragment values ------------------------===//
//
// `T.Layout(shape, fn)` and `T.Fragment(shape, forward_fn=..., forward_thread_fn=...,
// replicate=..., forward_index_fn=...)` as meta values: the arguments are
// checked and kept; T.annotate_layout evaluates the functions for the buffer
// it annotates (lib/Frontend/TileGenLayouts.cpp).
//
//===----------------------------------------------------------------------===//
#include "InterpImpl.h"

#include "tilec/Frontend/Builtins.h"

using namespace tilec;
using namespace tilec::meta;
using namespace tilec::meta::detail;
using K = Value::Kind;

static bool isCallable(const Value &v) { return v.is(K::Function) || v.is(K::Builtin); }

Value detail::makeLayoutValue(Interpreter &in, CallArgs &a, bool fragment) {
  const char *name = fragment ? "T.Fragment" : "T.Layout";
  static const char *const layoutParams[] = {"shape", "forward_fn"};
  static const char *const fragmentParams[] = {"shape", "forward_fn", "forward_thread_fn", "replicate",
                                               "forward_index_fn"};
  llvm::ArrayRef<const char *> params = fragment ? llvm::ArrayRef(fragmentParams) : llvm::ArrayRef(layoutParams);
  if (a.args.size() > params.size()) {
    in.error(DiagID::meta_call_error, a.range, name, "takes at most " + std::to_string(params.size()) + " arguments");
    return Value();
  }
  for (auto &[kw, v] : a.kwargs)
    if (llvm::find_if(params, [&](const char *p) { return kw == p; }) == params.end()) {
      in.error(DiagID::meta_call_error, a.range, name, "has no keyword argument '" + kw + "'");
      return Value();
    }
  std::vector<std::pair<std::string, Value>> fields;
  for (unsigned i = 0; i < params.size(); ++i) {
    const Value *v = a.get(i, params[i]);
    llvm::StringRef p = params[i];
    if (v && !in.requireConcrete(*v, a.rangeOf(i, p)))
      return Value();
    if (p == "shape") {
      if (!v || !v->isSequence()) {
        in.error(DiagID::meta_error, v ? a.rangeOf(i, p) : a.range,
                 std::string(name) + "'s shape must be a tuple or list of dimensions");
        return Value();
      }
      fields.emplace_back(p.str(), Value::ofTuple(std::vector<Value>(v->getElts().begin(), v->getElts().end())));
    } else if (p == "replicate") {
      int64_t r = v ? (v->isIntLike() ? v->getInt() : 0) : 1;
      if (r < 1) {
        in.error(DiagID::meta_error, a.rangeOf(i, p), "T.Fragment's replicate must be a positive integer");
        return Value();
      }
      fields.emplace_back(p.str(), Value::ofInt(r));
    } else if (v && !v->is(K::None)) {
      if (!isCallable(*v)) {
        in.error(DiagID::meta_error, a.rangeOf(i, p),
                 std::string(name) + "'s " + p.str() + " must be a function of the indices, got " + v->describe());
        return Value();
      }
      fields.emplace_back(p.str(), *v);
    }
  }
  bool hasFn = llvm::any_of(fields, [](auto &f) { return f.first == "forward_fn" || f.first == "forward_thread_fn"; });
  if (!hasFn) {
    in.error(DiagID::meta_error, a.range,
             fragment ? "T.Fragment needs forward_fn or forward_thread_fn" : "T.Layout needs its forward function");
    return Value();
  }
  return makeObject(fragment ? "Fragment" : "Layout", std::move(fields), std::string(name) + "(...)");
}

void detail::fillIntrinsicsModule(ModuleObj &m, llvm::StringRef dotted) {
  if (const BuiltinInfo *p = lookupTBuiltin("make_mma_swizzle_layout"))
    m.attrs["make_mma_swizzle_layout"] = makePrimitive(p);
  if (dotted.ends_with("sparse_layout"))
    // How many A elements one metadata element indexes under 2:4 sparsity.
    m.attrs["get_e_factor"] = makeBuiltin("get_e_factor", [](Interpreter &in, CallArgs &c) -> Value {
      std::optional<DType> a = c.args.size() == 2 ? c.args[0].asDType() : std::nullopt;
      std::optional<DType> e = c.args.size() == 2 ? c.args[1].asDType() : std::nullopt;
      if (!a || !e) {
        in.error(DiagID::meta_call_error, c.range, "get_e_factor", "takes two dtypes (a_dtype, meta_dtype)");
        return Value();
      }
      return Value::ofInt(int64_t(dtypeBits(*e) / 4) * (*a == DType::Float32 ? 2 : 4));
    });
  std::string name = dotted.str();
  m.lazy = [name](llvm::StringRef attr) -> Value {
    // tile-lang's MMA / WGMMA macro emitters generate ldmatrix and mma calls
    // from Python at trace time; tilec does not run them.
    if (attr.ends_with("Emitter") || attr.ends_with("EmitterWithLadderTransform"))
      return makeBuiltin(name + "." + attr.str(), [what = attr.str()](Interpreter &in, CallArgs &c) -> Value {
        in.error(DiagID::meta_error, c.range,
                 "tile-lang's " + what +
                     " builds ldmatrix/mma calls in Python, which tilec does not run; write the product as "
                     "T.gemm(A_shared, B_shared, C_local) on the shared tiles (tilec picks the matrix "
                     "instructions) and drop the emitter's ldmatrix/mma/stmatrix calls");
        return Value();
      });
    return makeHarness(name + "." + attr.str(), llvm::SMRange());
  };
}
