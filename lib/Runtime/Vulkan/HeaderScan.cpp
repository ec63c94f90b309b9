//===- HeaderScan.cpp - Read the word arrays of a tilec Vulkan header -----===//
//
// The command-line runner takes the generated header itself as its
// reflection: it finds `NAME[] = { ... };` and reads the integers (decimal or
// 0x hex, optional `u` suffixes). Comments inside the braces are skipped.
//
//===----------------------------------------------------------------------===//
#include "tilec/Runtime/Vulkan/Runner.h"

#include <cctype>
#include <cstdlib>

using namespace tilec::vk;

static bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// The position just after `name[]` followed by `=` and `{`, or npos.
static size_t findArrayBody(const std::string &text, const std::string &name) {
  size_t pos = 0;
  while ((pos = text.find(name, pos)) != std::string::npos) {
    size_t end = pos + name.size();
    bool wordStart = pos == 0 || !isIdentChar(text[pos - 1]);
    size_t i = end;
    auto skipSpace = [&] {
      while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
        ++i;
    };
    skipSpace();
    if (wordStart && text.compare(i, 2, "[]") == 0) {
      i += 2;
      skipSpace();
      if (i < text.size() && text[i] == '=') {
        ++i;
        skipSpace();
        if (i < text.size() && text[i] == '{')
          return i + 1;
      }
    }
    pos = end;
  }
  return std::string::npos;
}

bool tilec::vk::extractWordArray(const std::string &text, const std::string &name, std::vector<uint32_t> &words,
                                 std::string &error) {
  size_t i = findArrayBody(text, name);
  if (i == std::string::npos) {
    error = "no array '" + name + "[]' in the header";
    return false;
  }
  words.clear();
  while (i < text.size()) {
    char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      ++i;
    } else if (c == '}') {
      return true;
    } else if (text.compare(i, 2, "/*") == 0) {
      size_t end = text.find("*/", i + 2);
      if (end == std::string::npos)
        break;
      i = end + 2;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      char *end = nullptr;
      unsigned long long v = std::strtoull(text.c_str() + i, &end, 0);
      if (v > 0xFFFFFFFFull) {
        error = "value out of range in '" + name + "'";
        return false;
      }
      words.push_back(static_cast<uint32_t>(v));
      i = static_cast<size_t>(end - text.c_str());
      while (i < text.size() && (text[i] == 'u' || text[i] == 'U'))
        ++i;
    } else {
      error = std::string("unexpected character '") + c + "' in '" + name + "'";
      return false;
    }
  }
  error = "unterminated array '" + name + "'";
  return false;
}

std::vector<std::string> tilec::vk::listHeaderKernels(const std::string &text) {
  static const std::string suffix = "_vk_reflection";
  std::vector<std::string> names;
  size_t pos = 0;
  while ((pos = text.find(suffix + "[]", pos)) != std::string::npos) {
    size_t start = pos;
    while (start > 0 && isIdentChar(text[start - 1]))
      --start;
    std::string name = text.substr(start, pos - start);
    if (!name.empty() && (names.empty() || names.back() != name))
      names.push_back(name);
    pos += suffix.size();
  }
  return names;
}
