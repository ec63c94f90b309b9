//===- TileGenLayouts.cpp - T.Layout / T.Fragment in T.annotate_layout ----===//
//
// A user layout is a function of a buffer's indices, evaluated at compile
// time by the meta interpreter:
// - on a fragment, a T.Fragment (element -> thread, local index) is called on
//   every element and fitted to the mixed-radix form of #tile.fragment_layout
//   (FragmentLayout.h), which tile-infer-layouts then honours; a layout that
//   is not a sum of thread and register digits is a diagnostic saying where
//   it breaks;
// - on a shared or local buffer, a T.Layout only names where elements live,
//   which every tilec access reads through logical indices: it is checked to
//   be a permutation and otherwise ignored (tilec picks shared layouts);
// - on a global tensor, a T.Layout changes which memory holds each element,
//   as in tile-lang: it is evaluated symbolically into size expressions of
//   the indices, checked to be a permutation of the tensor's storage, and
//   every element access and copy of the tensor goes through it.
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "tilec/Dialect/Tile/IR/FragmentLayout.h"

#include "llvm/ADT/BitVector.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;
using K = meta::Value::Kind;

/// The most elements a shared, local or fragment layout is evaluated on.
static constexpr int64_t kMaxLayoutPoints = int64_t(1) << 16;

//===----------------------------------------------------------------------===//
// Values: lambdas and T.Layout / T.Fragment inside kernels
//===----------------------------------------------------------------------===//

meta::Env *KernelGen::constLocalsEnv() {
  meta::Env *env = info.interp->newEnv(metaEnv);
  for (size_t i = scopeFloor; i < scopes.size(); ++i)
    for (const auto &entry : scopes[i].names)
      if (entry.getValue().isBound() && entry.getValue().value.isConst())
        env->set(entry.getKey(), entry.getValue().value.cst, entry.getValue().declRange);
  return env;
}

TValue KernelGen::evalLambda(const Expr *e) {
  meta::Env *env = constLocalsEnv();
  ConstValue f = info.interp->eval(e, env);
  return f.isValid() ? TValue::ofConst(f) : TValue();
}

void KernelGen::genNestedDef(const FunctionDefStmt *def) {
  // A `def` in kernel code (a helper's `def transform_func(i, j)` for a
  // T.Layout): a meta function closed over the compile-time locals, like a
  // kernel-level lambda; calling it with kernel values inlines it.
  meta::Env *env = constLocalsEnv();
  ConstValue f = info.interp->define(def, env);
  if (!f.isValid())
    return;
  LocalVar var;
  var.value = TValue::ofConst(f);
  var.declRange = def->getNameRange();
  var.depth = depth();
  scopes.back().names[def->getName()] = var;
}

TValue KernelGen::evalLayoutCtor(const BoundCall &call) {
  meta::CallArgs args;
  args.range = call.call->getRange();
  args.calleeRange = call.call->getCallee()->getRange();
  for (size_t i = 0; i < call.info->params.size(); ++i) {
    const Expr *e = call.args[i];
    if (!e)
      continue;
    TValue v = eval(e);
    if (!v.isValid())
      return TValue();
    if (!v.isConst()) {
      diags.emit(DiagID::sema_wrong_arg_kind, e->getRange(), call.info->params[i].name, call.info->name,
                 "a compile-time value", v.describe());
      return TValue();
    }
    args.kwargs.emplace_back(call.info->params[i].name, v.cst);
    args.kwRanges.push_back(e->getRange());
  }
  llvm::StringRef attr = llvm::StringRef(call.info->name).drop_front(2);
  ConstValue ctor = info.interp->getAttr(info.interp->getTModule(), attr, args.calleeRange, args.calleeRange);
  if (!ctor.isValid())
    return TValue();
  ConstValue r = info.interp->call(ctor, args);
  return r.isValid() ? TValue::ofConst(r) : TValue();
}

//===----------------------------------------------------------------------===//
// Evaluation on every element
//===----------------------------------------------------------------------===//

namespace {
/// Calls layout functions on concrete indices.
class PointEval {
public:
  PointEval(meta::Interpreter &interp, llvm::SMRange range) : interp(interp), range(range) {}
  /// `fn(idx..., extra...)` flattened to integers (nested tuples and lists
  /// are flattened in order); nullopt after an error (`why` set when the
  /// interpreter reported nothing).
  std::optional<llvm::SmallVector<int64_t>> call(const meta::Value &fn, llvm::ArrayRef<int64_t> idx,
                                                 llvm::ArrayRef<int64_t> extra, std::string &why) {
    meta::CallArgs args;
    args.range = args.calleeRange = range;
    for (int64_t i : idx)
      args.args.push_back(meta::Value::ofInt(i)), args.argRanges.push_back(range);
    for (int64_t i : extra)
      args.args.push_back(meta::Value::ofInt(i)), args.argRanges.push_back(range);
    meta::Value r = interp.call(fn, args);
    if (!r.isValid())
      return std::nullopt;
    llvm::SmallVector<int64_t> out;
    if (!flatten(r, out)) {
      why = "the function returned " + r.describe() + ", not integers";
      return std::nullopt;
    }
    return out;
  }

private:
  static bool flatten(const meta::Value &v, llvm::SmallVectorImpl<int64_t> &out) {
    if (v.isIntLike()) {
      out.push_back(v.getInt());
      return true;
    }
    if (!v.isSequence())
      return false;
    for (const meta::Value &e : v.getElts())
      if (!flatten(e, out))
        return false;
    return true;
  }
  meta::Interpreter &interp;
  llvm::SMRange range;
};

/// Row-major enumeration of `shape`.
bool nextIndex(llvm::SmallVectorImpl<int64_t> &idx, llvm::ArrayRef<int64_t> shape) {
  for (int d = int(shape.size()) - 1; d >= 0; --d) {
    if (++idx[d] < shape[d])
      return true;
    idx[d] = 0;
  }
  return false;
}

int64_t product(llvm::ArrayRef<int64_t> v) {
  int64_t n = 1;
  for (int64_t x : v)
    n *= x;
  return n;
}

/// Row-major offset of `idx` in `extents`; -1 when outside.
int64_t linearize(llvm::ArrayRef<int64_t> idx, llvm::ArrayRef<int64_t> extents) {
  int64_t off = 0;
  for (size_t d = 0; d < idx.size(); ++d) {
    if (idx[d] < 0 || idx[d] >= extents[d])
      return -1;
    off = off * extents[d] + idx[d];
  }
  return off;
}

std::string tupleText(llvm::ArrayRef<int64_t> v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}
} // namespace

//===----------------------------------------------------------------------===//
// Fragments: fit to #tile.fragment_layout
//===----------------------------------------------------------------------===//

/// The prime factors of `n`, ascending (the digits a fitted layout tries).
static llvm::SmallVector<int64_t> primeFactors(int64_t n) {
  llvm::SmallVector<int64_t> f;
  for (int64_t p = 2; p * p <= n; ++p)
    while (n % p == 0)
      f.push_back(p), n /= p;
  if (n > 1)
    f.push_back(n);
  return f;
}

/// Fits the owner table `owner[t * regs + r]` (element, row-major; -1 for
/// none) to a FragmentLayout; sets `why` when it is not one.
static std::optional<tile::FragmentLayout> fitFragment(llvm::ArrayRef<int64_t> shape, int64_t threads, int64_t regs,
                                                       llvm::ArrayRef<int64_t> owner, std::string &why) {
  auto unflat = [&](int64_t e) {
    llvm::SmallVector<int64_t> idx(shape.size());
    for (int d = int(shape.size()) - 1; d >= 0; --d)
      idx[d] = e % shape[d], e /= shape[d];
    return idx;
  };
  for (int64_t t = 0; t < threads; ++t)
    for (int64_t r = 0; r < regs; ++r)
      if (owner[t * regs + r] < 0) {
        why = "thread " + std::to_string(t) + " holds no element in local slot " + std::to_string(r) +
              " (tilec's fragment layouts give every thread the same number of elements)";
        return std::nullopt;
      }
  if (owner[0] != 0) {
    why = "thread 0's first local slot holds element " + tupleText(unflat(owner[0])) + ", not the first element";
    return std::nullopt;
  }
  // One field per prime digit of the thread id and of the register number:
  // the step of the element index when that digit becomes 1.
  llvm::SmallVector<llvm::SmallVector<tile::LayoutField>> dims(shape.size());
  auto addDigits = [&](bool onThread, int64_t extent) -> bool {
    int64_t stride = 1;
    for (int64_t p : primeFactors(extent)) {
      int64_t at = onThread ? owner[stride * regs] : owner[stride];
      llvm::SmallVector<int64_t> step = unflat(at);
      int nonzero = -1;
      for (unsigned d = 0; d < step.size(); ++d)
        if (step[d] != 0)
          nonzero = nonzero < 0 ? int(d) : -2;
      if (nonzero == -2) {
        why = std::string(onThread ? "thread " : "local slot ") + std::to_string(stride) + " moves along two " +
              "dimensions at once (element " + tupleText(step) + ")";
        return false;
      }
      if (nonzero >= 0) {
        tile::LayoutField f{onThread, stride, p, step[nonzero]};
        auto &fields = dims[nonzero];
        // Merge with the previous digit of the same counter and dimension.
        if (!fields.empty() && fields.back().onThread == onThread &&
            fields.back().stride * fields.back().count == stride &&
            fields.back().scale * fields.back().count == f.scale)
          fields.back().count *= p;
        else
          fields.push_back(f);
      }
      stride *= p;
    }
    return true;
  };
  if (!addDigits(true, threads) || !addDigits(false, regs))
    return std::nullopt;
  tile::FragmentLayout l;
  l.shape.assign(shape.begin(), shape.end());
  l.dims = dims;
  l.numThreads = threads;
  l.numRegs = regs;
  // The fields must reproduce every (thread, slot).
  for (int64_t t = 0; t < threads; ++t)
    for (int64_t r = 0; r < regs; ++r) {
      llvm::SmallVector<int64_t> got = l.regIndex(r);
      for (unsigned d = 0; d < shape.size(); ++d)
        got[d] += l.threadIndex(d, t);
      llvm::SmallVector<int64_t> want = unflat(owner[t * regs + r]);
      if (got != want) {
        why = "thread " + std::to_string(t) + " holds element " + tupleText(want) + " in local slot " +
              std::to_string(r) + ", which no sum of thread and local-slot digits gives (tilec's fragment layouts " +
              "are mixed-radix: each digit of the thread id or slot moves along one dimension)";
        return std::nullopt;
      }
    }
  return l;
}

/// Evaluates a T.Fragment on every element of `buf`; the fitted layout, or
/// nullopt after a diagnostic.
static std::optional<tile::FragmentLayout> evalFragment(meta::Interpreter &interp, DiagnosticEmitter &diags,
                                                        BufferInfo *buf, meta::NamedObj &frag, llvm::SMRange range) {
  auto fail = [&](const std::string &why) {
    diags.emit(DiagID::sema_layout_unrepresentable, range, buf->name, why);
    return std::nullopt;
  };
  meta::Value fwd = frag.fields.lookup("forward_fn"), thread = frag.fields.lookup("forward_thread_fn"),
              index = frag.fields.lookup("forward_index_fn");
  int64_t replicate = frag.fields.lookup("replicate").getInt();
  if (!fwd.isValid() && !index.isValid())
    return fail("tilec needs forward_index_fn (the element's place among the thread's elements)");
  int64_t numel = product(buf->shape);
  if (numel * replicate > kMaxLayoutPoints)
    return fail("it has " + std::to_string(numel * replicate) + " (element, replica) pairs, more than the " +
                std::to_string(kMaxLayoutPoints) + " tilec evaluates");
  PointEval pe(interp, range);
  struct Place {
    int64_t thread;
    llvm::SmallVector<int64_t> slot;
  };
  std::vector<Place> places;
  llvm::SmallVector<int64_t> idx(buf->rank(), 0), slotExtent;
  int64_t threads = 0;
  do {
    for (int64_t rep = 0; rep < replicate; ++rep) {
      llvm::SmallVector<int64_t> extra;
      if (replicate > 1)
        extra.push_back(rep);
      std::string why;
      Place p;
      if (fwd.isValid()) {
        auto r = pe.call(fwd, idx, extra, why);
        if (!r || r->empty())
          return r ? fail("forward_fn returned nothing") : (why.empty() ? std::nullopt : fail(why));
        p.thread = (*r)[0];
        p.slot.assign(r->begin() + 1, r->end());
      } else {
        auto t = pe.call(thread, idx, extra, why);
        if (!t || t->size() != 1)
          return t ? fail("forward_thread_fn must return one thread index") : (why.empty() ? std::nullopt : fail(why));
        auto s = pe.call(index, idx, {}, why);
        if (!s)
          return why.empty() ? std::nullopt : fail(why);
        p.thread = (*t)[0];
        p.slot = *s;
      }
      if (p.thread < 0 || llvm::any_of(p.slot, [](int64_t x) { return x < 0; }))
        return fail("element " + tupleText(idx) + " goes to a negative thread or local index");
      if (slotExtent.empty())
        slotExtent.assign(p.slot.size(), 1);
      if (p.slot.size() != slotExtent.size())
        return fail("the local index has a different number of dimensions for element " + tupleText(idx));
      for (size_t d = 0; d < p.slot.size(); ++d)
        slotExtent[d] = std::max(slotExtent[d], p.slot[d] + 1);
      threads = std::max(threads, p.thread + 1);
      places.push_back(std::move(p));
    }
  } while (nextIndex(idx, buf->shape));
  int64_t regs = product(slotExtent);
  if (threads * regs > 4 * kMaxLayoutPoints)
    return fail("it spreads the elements over " + std::to_string(threads) + " threads x " + std::to_string(regs) +
                " local slots, too sparse a layout");
  std::vector<int64_t> owner(threads * regs, -1);
  for (size_t k = 0; k < places.size(); ++k) {
    int64_t e = int64_t(k) / replicate;
    int64_t slot = linearize(places[k].slot, slotExtent);
    int64_t &o = owner[places[k].thread * regs + slot];
    if (o >= 0 && o != e)
      return fail("thread " + std::to_string(places[k].thread) + " gets two elements in local slot " +
                  std::to_string(slot));
    o = e;
  }
  std::string why;
  std::optional<tile::FragmentLayout> l = fitFragment(buf->shape, threads, regs, owner, why);
  if (!l)
    return fail(why);
  return l;
}

//===----------------------------------------------------------------------===//
// T.annotate_layout with a layout object
//===----------------------------------------------------------------------===//

/// Whether the layout's `shape` is the buffer's.
static bool sameShape(const meta::Value &shape, BufferInfo *buf) {
  if (!shape.isSequence() || shape.getElts().size() != buf->rank())
    return false;
  for (unsigned d = 0; d < buf->rank(); ++d) {
    const meta::Value &e = shape.getElts()[d];
    if (mlir::ShapedType::isDynamic(buf->shape[d]) ? !(e.is(K::Dynamic) && e.getStr() == buf->dimNames[d])
                                                   : !(e.isIntLike() && e.getInt() == buf->shape[d]))
      return false;
  }
  return true;
}

bool KernelGen::checkPermutation(BufferInfo *buf, const ConstValue &fn, llvm::SMRange range) {
  int64_t numel = product(buf->shape);
  if (llvm::any_of(buf->shape, mlir::ShapedType::isDynamic) || numel > kMaxLayoutPoints)
    return true; // a hint tilec does not read: nothing to check cheaply
  PointEval pe(*info.interp, range);
  std::vector<llvm::SmallVector<int64_t>> outs;
  llvm::SmallVector<int64_t> idx(buf->rank(), 0), extents;
  do {
    std::string why;
    auto r = pe.call(fn, idx, {}, why);
    if (!r) {
      if (!why.empty())
        diags.emit(DiagID::sema_layout_unrepresentable, range, buf->name, why);
      return false;
    }
    if (extents.empty())
      extents.assign(r->size(), 1);
    if (r->size() != extents.size() || llvm::any_of(*r, [](int64_t x) { return x < 0; })) {
      diags.emit(DiagID::sema_layout_unrepresentable, range, buf->name,
                 "element " + tupleText(idx) + " maps to " + tupleText(*r));
      return false;
    }
    for (size_t d = 0; d < r->size(); ++d)
      extents[d] = std::max(extents[d], (*r)[d] + 1);
    outs.push_back(std::move(*r));
  } while (nextIndex(idx, buf->shape));
  if (product(extents) != numel) {
    diags.emit(DiagID::sema_layout_unrepresentable, range, buf->name,
               "it maps " + std::to_string(numel) + " elements into " + std::to_string(product(extents)) +
                   " places (a layout is a permutation of the buffer's elements)");
    return false;
  }
  llvm::BitVector seen(numel);
  for (const auto &o : outs) {
    int64_t off = linearize(o, extents);
    if (seen.test(off)) {
      diags.emit(DiagID::sema_layout_unrepresentable, range, buf->name,
                 "two elements map to the same place " + tupleText(o));
      return false;
    }
    seen.set(off);
  }
  return true;
}

bool KernelGen::annotateWithObject(BufferInfo *buf, const ConstValue &v, llvm::SMRange range) {
  meta::NamedObj *frag = meta::asObject(v, "Fragment");
  meta::NamedObj *lay = meta::asObject(v, "Layout");
  meta::Value fn = v;
  if (lay)
    fn = lay->fields.lookup("forward_fn");
  else if (!frag && !v.is(K::Function) && !v.is(K::Builtin)) {
    diags.emit(DiagID::sema_annotate_layout, range);
    return false;
  }
  if (meta::NamedObj *o = frag ? frag : lay; o && !sameShape(o->fields.lookup("shape"), buf)) {
    diags.emit(DiagID::sema_layout_unrepresentable, range, buf->name,
               "the layout's shape " + o->fields.lookup("shape").str() + " is not the buffer's " + buf->shapeStr());
    return false;
  }
  if (frag) {
    if (buf->scope != tile::Scope::Fragment) {
      diags.emit(DiagID::sema_layout_unrepresentable, range, buf->name,
                 "a T.Fragment lays out a fragment (T.alloc_fragment), and '" + buf->name + "' is not one");
      return false;
    }
    std::optional<tile::FragmentLayout> l = evalFragment(*info.interp, diags, buf, *frag, range);
    if (!l)
      return false;
    tile::AnnotateLayoutOp::create(b, loc(range), buf->value, tile::FragmentLayoutAttr::get(b.getContext(), *l));
    return true;
  }
  if (buf->scope == tile::Scope::Fragment) {
    diags.emit(DiagID::sema_layout_unrepresentable, range, buf->name,
               "a fragment needs a T.Fragment, which says which thread holds each element; a T.Layout gives only "
               "where it is stored");
    return false;
  }
  if (buf->scope == tile::Scope::Global)
    return annotateGlobal(buf, fn, range);
  return checkPermutation(buf, fn, range);
}
