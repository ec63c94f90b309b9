//===- TileGenDevicePrims.cpp - Device primitives kernels call directly ---===//
//
// tile-lang kernels call a few device-level primitives by hand: IKET's
// profiling events (tilelang.tools.cuda.iket), which tilec accepts and drops
// (no trace buffer or event records are emitted on any target).
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;

/// An event's name must be a compile-time string; its payload, if any, is
/// evaluated (so its names and types are checked) and dropped.
static bool checkIketEvent(KernelGen &g, const BoundCall &call) {
  g.argFailed = false;
  if (call.get("name") && (!g.constStrArg(call, "name") || g.argFailed))
    return false;
  if (const Expr *p = call.get("payload"))
    return g.eval(p).isValid();
  return true;
}

void KernelGen::genProfileRange(const BoundCall &call, const WithStmt *s) {
  if (s->getTarget()) {
    diags.emit(DiagID::sema_bad_stmt, s->getTarget()->getRange(), "an 'as' target on iket.range");
    return;
  }
  if (checkIketEvent(*this, call))
    genBody(s->getBody());
}

bool KernelGen::genDevicePrimStmt(const BoundCall &call) {
  switch (call.info->id) {
  case BuiltinID::IketMark:
    checkIketEvent(*this, call);
    return true;
  default:
    return false;
  }
}

std::optional<TValue> KernelGen::evalDevicePrim(const BoundCall &call) {
  switch (call.info->id) {
  case BuiltinID::IketPayload: {
    // The value an event would record: the scalar itself.
    TValue v = eval(call.get("expr"));
    if (v.isValid() && v.isBuffer()) {
      diags.emit(DiagID::sema_not_scalar, call.rangeOf("expr"), v.describe());
      return TValue();
    }
    return v;
  }
  default:
    return std::nullopt;
  }
}
