//===- VulkanPrintsTest.cpp - The T.print buffer of the Vulkan target ------===//
//
// The reflection's print fields survive encode/decode (a kernel without
// T.print still gets a version 1 stream), and formatPrints turns records into
// the CUDA printf lines: every value kind, %% and an overflowing buffer.
//
//===----------------------------------------------------------------------===//
#include "tilec/Runtime/Vulkan/Reflection.h"

#include <catch2/catch_test_macros.hpp>

#include <cstring>

using namespace tilec::vk;

static Reflection printing() {
  Reflection r;
  r.kernelName = "k";
  r.entryPoint = "k";
  r.printBinding = 2;
  r.printRecordWords = 5;
  r.prints.push_back({"v block (%lld, %lld, %lld) thread %lld: %lld\n", {PrintArg::Int32}});
  r.prints.push_back({"u=%lld i64=%lld\n", {PrintArg::UInt32, PrintArg::Int64}});
  r.prints.push_back({"f=%f d=%f 100%%\n", {PrintArg::Float32, PrintArg::Float64}});
  return r;
}

TEST_CASE("print fields round-trip through the reflection words", "[vulkan][print]") {
  Reflection r = printing();
  std::vector<uint32_t> words = encodeReflection(r);
  Reflection back;
  std::string error;
  REQUIRE(decodeReflection(words.data(), words.size(), back, error));
  CHECK(back.printBinding == 2);
  CHECK(back.printRecordWords == 5);
  REQUIRE(back.prints.size() == 3);
  CHECK(back.prints[1].format == "u=%lld i64=%lld\n");
  CHECK(back.prints[1].args == std::vector<PrintArg>{PrintArg::UInt32, PrintArg::Int64});

  CHECK(words[1] == 2);

  // Without T.print the stream is version 1, as before the print fields.
  Reflection plain;
  plain.kernelName = "k";
  plain.entryPoint = "k";
  std::vector<uint32_t> v1 = encodeReflection(plain);
  CHECK(v1[1] == 1);
  REQUIRE(decodeReflection(v1.data(), v1.size(), back, error));
  CHECK(back.printBinding == kNoParam);
  CHECK(back.prints.empty());

  // A format with more values than a record holds is malformed.
  r.printRecordWords = 3;
  words = encodeReflection(r);
  CHECK_FALSE(decodeReflection(words.data(), words.size(), back, error));
}

TEST_CASE("formatPrints prints records as the CUDA printf does", "[vulkan][print]") {
  Reflection r = printing();
  std::vector<uint32_t> buf(kPrintHeaderWords + 3 * r.printRecordWords, 0);
  buf[0] = 5; // five records written, three fit
  buf[1] = 3;
  uint32_t *rec = buf.data() + kPrintHeaderWords;
  rec[0] = 0, rec[1] = static_cast<uint32_t>(-7);
  rec += r.printRecordWords;
  int64_t big = -5000000000;
  uint64_t bits;
  std::memcpy(&bits, &big, 8);
  rec[0] = 1, rec[1] = 4000000000u, rec[3] = static_cast<uint32_t>(bits), rec[4] = static_cast<uint32_t>(bits >> 32);
  rec += r.printRecordWords;
  float f = 1.5f;
  double d = -0.25;
  std::memcpy(&rec[1], &f, 4);
  std::memcpy(&bits, &d, 8);
  rec[0] = 2, rec[3] = static_cast<uint32_t>(bits), rec[4] = static_cast<uint32_t>(bits >> 32);
  std::vector<std::string> lines;
  std::string error;
  REQUIRE(formatPrints(r, buf.data(), buf.size(), lines, error));
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == "v block (-7, %lld, %lld) thread %lld: %lld");
  CHECK(lines[1] == "u=4000000000 i64=-5000000000");
  CHECK(lines[2] == "f=1.500000 d=-0.250000 100%");
  CHECK(lines[3] == "tilec: k: 2 of 5 T.print lines dropped: the print buffer holds 3 records");

  buf[0] = 1;
  buf[kPrintHeaderWords] = 9; // no such format
  lines.clear();
  CHECK_FALSE(formatPrints(r, buf.data(), buf.size(), lines, error));
}
