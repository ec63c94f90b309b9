//===- CWriter.h - Line-by-line writer for generated C headers --*- C++ -*-===//
//
// Every generated header (host/CUDA launchers, Vulkan reflection) is printed
// through this writer: one call per line, consistent indentation.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_CWRITER_H
#define TILEC_TARGET_CWRITER_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tilec {

/// Prints C declarations line by line with consistent indentation.
class CWriter {
public:
  explicit CWriter(llvm::raw_ostream &os) : os(os) {}
  CWriter &line(const llvm::Twine &text = "") {
    os.indent(indent * 2) << text << "\n";
    return *this;
  }
  void push() { ++indent; }
  void pop() { --indent; }

private:
  llvm::raw_ostream &os;
  unsigned indent = 0;
};

/// Whether a parameter named `name` cannot keep its name in a header: a C or
/// C++ keyword (`int`, `double`, `class`), a type the header uses (`int32_t`),
/// or a name the header declares beside the parameters (`grid`, the `tilec_*`
/// helpers and padding, Metal's `_padN`).
inline bool isReservedCName(llvm::StringRef name) {
  static const char *const words[] = {
      // C99/C11/C23.
      "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
      "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
      "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "_Alignas",
      "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn", "_Static_assert",
      "_Thread_local", "alignas", "alignof", "bool", "constexpr", "false", "nullptr", "static_assert",
      "thread_local", "true", "typeof", "typeof_unqual",
      // C++ (those not above).
      "and", "and_eq", "asm", "bitand", "bitor", "catch", "char8_t", "char16_t", "char32_t", "class", "compl",
      "concept", "consteval", "constinit", "const_cast", "co_await", "co_return", "co_yield", "decltype", "delete",
      "dynamic_cast", "explicit", "export", "friend", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "operator", "or", "or_eq", "private", "protected", "public", "reinterpret_cast", "requires", "static_cast",
      "template", "this", "throw", "try", "typeid", "typename", "using", "virtual", "wchar_t", "xor", "xor_eq",
      // Types and names of the headers.
      "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "size_t",
      "INT64_C", "grid"};
  if (llvm::is_contained(words, name) || name.starts_with("tilec_") || name.starts_with("TILEC_"))
    return true;
  llvm::StringRef digits = name;
  return digits.consume_front("_pad") && !digits.empty() && llvm::all_of(digits, llvm::isDigit);
}

/// The C names of parameters named `names` in a header: each name, with `_`
/// appended while it is reserved (isReservedCName) or another parameter's
/// name. The ABI is positional, so only the header's spelling changes.
inline std::vector<std::string> cNames(const std::vector<std::string> &names) {
  llvm::StringSet<> taken;
  for (const std::string &n : names)
    if (!isReservedCName(n))
      taken.insert(n);
  std::vector<std::string> out;
  for (std::string n : names) {
    if (isReservedCName(n)) {
      do
        n += "_";
      while (!taken.insert(n).second);
    }
    out.push_back(n);
  }
  return out;
}

} // namespace tilec

#endif // TILEC_TARGET_CWRITER_H
