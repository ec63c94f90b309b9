//===- LayoutPlacement.cpp - Gemm warp splits and fragment placement -----===//
//
// Internal to tile-infer-layouts (LayoutInference.cpp): the warp split of an
// mma gemm, the layout of a fragment placed when propagation is stuck, and
// the shared copy of a gemm operand that no plan takes from registers.
//
//===----------------------------------------------------------------------===//
#include "LayoutAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;
using namespace tilec::tile::layout_access;

/// Picks the warp split of an mma gemm for `policy`.
bool tilec::tile::layout_access::chooseWarps(int64_t m, int64_t n, int64_t warps, tile::GemmPolicy policy, int64_t &wm,
                                             int64_t &wn) {
  auto fits = [&](int64_t a, int64_t b) { return a * b == warps && m % (16 * a) == 0 && n % (8 * b) == 0; };
  if (policy == tile::GemmPolicy::FullRow && fits(warps, 1)) {
    wm = warps, wn = 1;
    return true;
  }
  if (policy == tile::GemmPolicy::FullCol && fits(1, warps)) {
    wm = 1, wn = warps;
    return true;
  }
  double best = 1e30;
  bool found = false;
  for (int64_t a = 1; a <= warps; a *= 2) {
    int64_t c = warps / a;
    if (!fits(a, c))
      continue;
    double ratio = std::abs(std::log(double(m / a) / double(n / c)));
    if (ratio < best)
      best = ratio, wm = a, wn = c, found = true;
  }
  return found;
}

/// The canonical layout of a fragment, except that one reduced along its
/// innermost dimension gives the outer dimensions as many warps as they can
/// take (whole rows per warp when there are enough rows): its reductions then
/// need fewer shuffles and, with a row per warp, no shared memory or barrier.
FragmentLayout tilec::tile::layout_access::placeFragment(Value frag, ArrayRef<int64_t> shape, int64_t threads,
                                                         int64_t vector, int64_t warp) {
  FragmentLayout plain = FragmentLayout::canonical(shape, threads, vector);
  bool rowReduced = shape.size() >= 2 && llvm::any_of(frag.getUsers(), [&](Operation *u) {
                      auto r = dyn_cast<tile::ReduceOp>(u);
                      return r && r.getSrc() == frag && r.getDim() == (int64_t)shape.size() - 1;
                    });
  if (!rowReduced || warp <= 0 || threads % warp != 0)
    return plain;
  int64_t outer = 1;
  for (unsigned d = 0; d + 1 < shape.size(); ++d) {
    int64_t e = std::max<int64_t>(shape[d], 1);
    while (e % 2 == 0)
      outer *= 2, e /= 2;
  }
  int64_t cap = std::max(warp, threads / std::min(outer, threads / warp));
  FragmentLayout capped = FragmentLayout::canonical(shape, threads, vector, cap);
  // Only when every thread still holds distinct elements and the rows'
  // threads shrank.
  if (capped.distinctThreads() != plain.distinctThreads() || capped == plain)
    return plain;
  return capped;
}

/// Gives gemm `g` a shared copy of the fragment operand `operand`: a shared
/// buffer of its shape in the launch body (one per fragment) and a tile.copy
/// into it right before the gemm.
void tilec::tile::layout_access::stageGemmOperand(LaunchOp launch, GemmOp g, OpOperand &operand,
                                                  llvm::DenseMap<Value, Value> &stagedCopies) {
  Value frag = operand.get();
  auto type = cast<MemRefType>(frag.getType());
  Location loc = g.getLoc();
  OpBuilder b(launch.getBodyBlock(), launch.getBodyBlock()->begin());
  Value &staged = stagedCopies[frag];
  if (!staged) {
    Operation *def = frag.getDefiningOp();
    if (def && def->getBlock() == launch.getBodyBlock())
      b.setInsertionPointAfter(def);
    staged = AllocOp::create(b, loc, getBufferType(type.getShape(), type.getElementType(), Scope::Shared));
  }
  b.setInsertionPoint(g);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  llvm::SmallVector<Value> offsets(type.getRank(), zero);
  CopyOp::create(b, loc, frag, offsets, type.getShape(), staged, offsets, type.getShape());
  operand.set(staged);
}
