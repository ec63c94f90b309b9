//===- model_misuse.cpp - The CPU model rejects what the API forbids -------===//
//
// Each scenario misuses the Ascend C API once in a way the generated code
// could; the model must abort (checked in a child process). A model that
// accepted these would make the numeric runs prove nothing about them.
//
//===----------------------------------------------------------------------===//
#include "ascendc_cpu.h"

#include <cstdio>
#include <functional>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace AscendC;

namespace {

struct Scenario {
  const char *name;
  std::function<void(float *gm)> body;
};

/// A kernel frame: one TPipe, two 1 KiB float buffers, a 256-float tensor.
struct Frame {
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  LocalTensor<float> x, y;
  GlobalTensor<float> g;
  explicit Frame(float *gm) {
    pipe.InitBuffer(a, 1024);
    pipe.InitBuffer(b, 1024);
    x = a.Get<float>();
    y = b.Get<float>();
    g.SetGlobalBuffer(gm, 256);
  }
};

const std::vector<Scenario> scenarios = {
    {"DataCopy of 5 floats (not whole 32-byte blocks)", [](float *gm) { Frame f(gm); DataCopy(f.x, f.g, 5); }},
    {"DataCopy to an unaligned UB address", [](float *gm) { Frame f(gm); DataCopy(f.x[3], f.g, 8); }},
    {"DataCopy past the global tensor", [](float *gm) { Frame f(gm); DataCopy(f.x, f.g[250], 16); }},
    {"vector read after DataCopy without a barrier",
     [](float *gm) { Frame f(gm); DataCopy(f.x, f.g, 64); Adds(f.y, f.x, 1.0f, 64); }},
    {"vector after vector without PipeBarrier<PIPE_V>",
     [](float *gm) {
       Frame f(gm);
       Duplicate(f.x, 1.0f, 64);
       PipeBarrier<PIPE_ALL>();
       Adds(f.y, f.x, 1.0f, 64);
       Muls(f.x, f.y, 2.0f, 64);
     }},
    {"scalar read of a vector result without a barrier",
     [](float *gm) { Frame f(gm); Duplicate(f.x, 1.0f, 64); (void)f.x.GetValue(0); }},
    {"DataCopy out of a vector result without a barrier",
     [](float *gm) { Frame f(gm); Duplicate(f.x, 1.0f, 64); DataCopy(f.g, f.x, 64); }},
    {"DataCopy into a buffer a vector op still reads",
     [](float *gm) {
       Frame f(gm);
       Duplicate(f.x, 1.0f, 64);
       PipeBarrier<PIPE_ALL>();
       Adds(f.y, f.x, 1.0f, 64);
       DataCopy(f.x, f.g, 64);
     }},
    {"vector op on an unaligned operand", [](float *gm) { Frame f(gm); Duplicate(f.x[1], 1.0f, 8); }},
    {"vector op past its tensor", [](float *gm) { Frame f(gm); Duplicate(f.x, 1.0f, 300); }},
    {"partly overlapping operands",
     [](float *gm) { Frame f(gm); Duplicate(f.x, 1.0f, 64); PipeBarrier<PIPE_ALL>(); Adds(f.x[8], f.x, 1.0f, 32); }},
    {"ReduceSum with a too small work buffer",
     [](float *gm) {
       Frame f(gm);
       Duplicate(f.x, 1.0f, 256);
       PipeBarrier<PIPE_ALL>();
       ReduceSum(f.y[8], f.x, f.b.Get<float>(4), 256); // needs one float per repeat: 4 -> 8
     }},
    {"InitBuffer beyond the Unified Buffer",
     [](float *) {
       TPipe pipe;
       TBuf<TPosition::VECCALC> big;
       pipe.InitBuffer(big, 200 * 1024);
     }},
    {"GetValue outside the LocalTensor", [](float *gm) { Frame f(gm); (void)f.x.GetValue(256); }},
    {"an atomic DataCopy of float under SetAtomicAdd<half>",
     [](float *gm) {
       Frame f(gm);
       Duplicate(f.x, 1.0f, 64);
       PipeBarrier<PIPE_ALL>();
       SetAtomicAdd<half>();
       DataCopy(f.g, f.x, 64);
     }},
    {"a kernel returning in atomic mode",
     [](float *gm) {
       ascendc_cpu::launch(1, +[](GM_ADDR p) {
         Frame f(reinterpret_cast<float *>(p));
         SetAtomicAdd<float>();
       }, reinterpret_cast<GM_ADDR>(gm));
     }},
    {"Tanh with a sharedTmpBuffer below its minimum",
     [](float *gm) {
       Frame f(gm);
       Duplicate(f.x, 0.5f, 64);
       PipeBarrier<PIPE_ALL>();
       Tanh(f.y, f.x, f.b.Get<uint8_t>()[896], 64); // 128 bytes; float needs 256
     }},
    {"DataCopyPad into an unaligned UB address",
     [](float *gm) {
       Frame f(gm);
       DataCopyPad(f.x[1], f.g, DataCopyExtParams{1, 12, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0});
     }},
};

} // namespace

int main() {
  int failures = 0;
  for (const Scenario &s : scenarios) {
    std::fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
      std::freopen("/dev/null", "w", stderr);
      static float gm[256];
      ascendc_cpu::core().reset();
      s.body(gm);
      std::_Exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    bool aborted = WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
    std::printf("%s %s\n", aborted ? "ok (rejected):" : "FAIL (accepted):", s.name);
    failures += !aborted;
  }
  // And a correct sequence runs through.
  static float gm[256];
  for (int i = 0; i < 256; ++i)
    gm[i] = i;
  ascendc_cpu::core().reset();
  {
    Frame f(gm);
    DataCopy(f.x, f.g, 64);
    PipeBarrier<PIPE_ALL>();
    Adds(f.y, f.x, 1.0f, 64);
    PipeBarrier<PIPE_V>();
    ReduceSum(f.x, f.y, f.x[64], 64);
    PipeBarrier<PIPE_ALL>();
    float sum = f.x.GetValue(0);
    if (sum != 64 * 63 / 2 + 64) {
      std::printf("FAIL: ReduceSum gave %g\n", sum);
      ++failures;
    }
  }
  return failures ? 1 : 0;
}
