//===- Define.h - One -D NAME=VALUE override --------------------*- C++ -*-===//
//
// The value the CLI passes to the frontend for each `-D`: a module constant or
// factory parameter and the source text of its new value.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_SUPPORT_DEFINE_H
#define TILEC_SUPPORT_DEFINE_H

#include <string>

namespace tilec {

/// One `-D NAME=VALUE`.
struct Define {
  std::string name, value;
};

} // namespace tilec

#endif // TILEC_SUPPORT_DEFINE_H
