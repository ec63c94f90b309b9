//===- case_main.cpp - One Vulkan-vs-host case: the host launcher + runCompare ===//
//
// Compiled once per case with -DTILEC_VK_KERNEL=<kernel> against the case's
// host header (host.h) and object.
//
//===----------------------------------------------------------------------===//
#include "compare.h"
#include "host.h"

int main(int argc, char **argv) { return vkcompare::runCompare(argc, argv, vkcompare::callHost(&TILEC_VK_KERNEL)); }
