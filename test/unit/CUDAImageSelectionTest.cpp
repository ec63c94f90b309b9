//===- CUDAImageSelectionTest.cpp - Which image a multi-arch launcher loads ===//
//
// The rules the launchers emit, evaluated for devices the objects may meet.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/CUDA/ImageSelection.h"

#include <catch2/catch_test_macros.hpp>

using namespace tilec;

TEST_CASE("arch spellings", "[cuda][images]") {
  std::optional<CUDAArch> a = CUDAArch::parse("sm_90a");
  REQUIRE(a);
  CHECK(a->major == 9);
  CHECK(a->minor == 0);
  CHECK(a->archSpecific);
  std::optional<CUDAArch> b = CUDAArch::parse("sm_86");
  REQUIRE(b);
  CHECK(b->major == 8);
  CHECK(b->minor == 6);
  CHECK_FALSE(b->archSpecific);
  CHECK_FALSE(CUDAArch::parse("vulkan1.3"));
  CHECK_FALSE(CUDAArch::parse("sm_"));
}

TEST_CASE("sm_80 + sm_90a: Hopper code on 9.0 only, the sm_80 image elsewhere", "[cuda][images]") {
  // Image order follows -target; both orders choose the same code.
  for (bool hopperFirst : {false, true}) {
    std::vector<CUDAImageArchs> images{{{"sm_80"}, "sm_80"}, {{"sm_90a"}, "sm_90a"}};
    if (hopperFirst)
      std::swap(images[0], images[1]);
    unsigned ampere = hopperFirst ? 1 : 0, hopper = hopperFirst ? 0 : 1;
    std::vector<ImageRule> rules = imageRules(images);
    CHECK(selectImage(rules, 9, 0) == (int)hopper);
    CHECK(selectImage(rules, 8, 0) == (int)ampere);
    CHECK(selectImage(rules, 8, 6) == (int)ampere);
    CHECK(selectImage(rules, 8, 9) == (int)ampere);
    CHECK(selectImage(rules, 10, 0) == (int)ampere); // sm_80 PTX, JIT compiled
    CHECK(selectImage(rules, 12, 0) == (int)ampere);
    CHECK(selectImage(rules, 7, 5) == -1);
  }
}

TEST_CASE("the newest fitting cubin wins over older cubins and any PTX", "[cuda][images]") {
  // Image 0 holds sm_80 and sm_86 (one lowering), image 1 sm_89, image 2 sm_90 and image 3 sm_90a.
  std::vector<CUDAImageArchs> images{
      {{"sm_80", "sm_86"}, "sm_86"}, {{"sm_89"}, "sm_89"}, {{"sm_90"}, "sm_90"}, {{"sm_90a"}, "sm_90a"}};
  std::vector<ImageRule> rules = imageRules(images);
  CHECK(selectImage(rules, 8, 0) == 0);
  CHECK(selectImage(rules, 8, 7) == 0);
  CHECK(selectImage(rules, 8, 9) == 1);
  CHECK(selectImage(rules, 9, 0) == 3); // sm_90a before sm_90 on 9.0
  CHECK(selectImage(rules, 10, 0) == 2); // the newest portable PTX
  CHECK(selectImage(rules, 7, 0) == -1);
  // Cubin rules come first, then PTX.
  REQUIRE(rules.size() == 9);
  CHECK(rules.front().kind == ImageRule::Kind::Exact);
  CHECK(rules[4].kind == ImageRule::Kind::SameMajor);
  CHECK(rules.back().kind == ImageRule::Kind::AtLeast);
}

TEST_CASE("sm_90a alone fits nothing but 9.0", "[cuda][images]") {
  std::vector<ImageRule> rules = imageRules({{{"sm_90a"}, "sm_90a"}});
  CHECK(selectImage(rules, 9, 0) == 0);
  CHECK(selectImage(rules, 9, 1) == -1);
  CHECK(selectImage(rules, 10, 0) == -1);
  CHECK(selectImage(rules, 8, 0) == -1);
}
