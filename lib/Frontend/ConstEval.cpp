//===- ConstEval.cpp - Integer helpers, linear forms, suggestions ---------===//
//
// Python-exact integer helpers (floor division and modulo), linear forms
// and name suggestions. The operators on values are in Meta/Ops.cpp.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/ConstEval.h"
#include "tilec/Frontend/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <cstdio>
#include <cmath>

using namespace tilec;
using ast::BinaryOp;
using ast::CompareOp;
using ast::UnaryOp;

//===----------------------------------------------------------------------===//
// Integer helpers and linear forms
//===----------------------------------------------------------------------===//

int64_t tilec::floorDiv(int64_t a, int64_t b) {
  if (b == -1) // avoids INT64_MIN / -1 trapping; wraps like two's complement
    return int64_t(0 - uint64_t(a));
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

int64_t tilec::floorMod(int64_t a, int64_t b) {
  if (b == -1)
    return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

int64_t tilec::ceilDiv(int64_t a, int64_t b) {
  if (b == -1)
    return int64_t(0 - uint64_t(a));
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) == (b < 0)))
    ++q;
  return q;
}

LinearForm LinearForm::ofConstant(int64_t c) {
  LinearForm f;
  f.constant = c;
  return f;
}

LinearForm LinearForm::ofSymbol(unsigned id) {
  LinearForm f;
  f.terms.push_back({id, 1});
  return f;
}

std::optional<LinearForm> LinearForm::add(const LinearForm &o) const {
  LinearForm r;
  if (__builtin_add_overflow(constant, o.constant, &r.constant))
    return std::nullopt;
  size_t i = 0, j = 0;
  while (i < terms.size() || j < o.terms.size()) {
    if (j == o.terms.size() || (i < terms.size() && terms[i].first < o.terms[j].first)) {
      r.terms.push_back(terms[i++]);
    } else if (i == terms.size() || o.terms[j].first < terms[i].first) {
      r.terms.push_back(o.terms[j++]);
    } else {
      int64_t c;
      if (__builtin_add_overflow(terms[i].second, o.terms[j].second, &c))
        return std::nullopt;
      if (c != 0)
        r.terms.push_back({terms[i].first, c});
      ++i;
      ++j;
    }
  }
  return r;
}

std::optional<LinearForm> LinearForm::scale(int64_t k) const {
  LinearForm r;
  if (k == 0)
    return r;
  if (__builtin_mul_overflow(constant, k, &r.constant))
    return std::nullopt;
  for (auto [sym, c] : terms) {
    int64_t p;
    if (__builtin_mul_overflow(c, k, &p))
      return std::nullopt;
    r.terms.push_back({sym, p});
  }
  return r;
}

std::optional<LinearForm> LinearForm::sub(const LinearForm &o) const {
  std::optional<LinearForm> neg = o.scale(-1);
  if (!neg)
    return std::nullopt;
  return add(*neg);
}

std::optional<LinearForm> LinearForm::mul(const LinearForm &o) const {
  if (o.isConstant())
    return scale(o.constant);
  if (isConstant())
    return o.scale(constant);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Suggestions
//===----------------------------------------------------------------------===//

llvm::StringRef tilec::closestName(llvm::StringRef name, llvm::ArrayRef<llvm::StringRef> candidates) {
  llvm::StringRef best;
  unsigned bestDist = ~0u;
  unsigned limit = std::max<unsigned>(1, name.size() / 3);
  for (llvm::StringRef c : candidates) {
    if (c == name || c.empty())
      continue;
    unsigned d = name.edit_distance(c, /*AllowReplacements=*/true, limit + 1);
    // Also match case-insensitively (T.parallel vs T.Parallel).
    if (name.equals_insensitive(c))
      d = 0;
    if (d <= limit && d < bestDist) {
      bestDist = d;
      best = c;
    }
  }
  return best;
}

std::string tilec::didYouMean(llvm::StringRef name, llvm::ArrayRef<llvm::StringRef> candidates) {
  llvm::StringRef best = closestName(name, candidates);
  if (best.empty())
    return "";
  return ("; did you mean '" + best + "'?").str();
}
