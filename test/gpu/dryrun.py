#!/usr/bin/env python3
"""Runs a GPU kit's Python script on this machine's CPU (no GPU, no CUDA), to
catch mistakes in the script before a device call: torch.cuda is replaced by
stand-ins (events read the host clock, graphs replay nothing, streams are 0),
"cuda" tensors live on the CPU, and the kit's .so files must be host builds
(tilec -target=host -shared: the same C ABI less the trailing stream
argument, which the x86-64 calling convention lets the caller pass anyway).
The figures it prints mean nothing; the checks (numerics against float64 torch
references on the host builds) are real. Needs python3-torch (Debian).
Usage: KIT_TARGET=host test/gpu/perf_kit.sh --bw /tmp/kit &&
       KIT_SM_M=2048 KIT_LN_M=512 KIT_ROUNDS=3 python3 test/gpu/dryrun.py /tmp/kit/perf_kit.py"""
import runpy
import sys
import time
import types

import torch
import torch.nn.functional as F

_device, _randn, _softmax, _layer_norm = torch.device, torch.randn, torch.softmax, F.layer_norm
torch.device = lambda d, *a: _device("cpu") if str(d).startswith("cuda") else _device(d, *a)


def randn(*shape, dtype=None, **kw):  # CPU torch of Debian 12 has no half-precision randn
    return _randn(*shape, **kw).to(dtype or torch.float32)


def upcast(f):  # ... nor half-precision softmax / layer_norm on the CPU
    def g(x, *a, **kw):
        if x.dtype in (torch.float16, torch.bfloat16):
            a = [t.float() if isinstance(t, torch.Tensor) else t for t in a]
            kw = {k: t.float() if isinstance(t, torch.Tensor) else t for k, t in kw.items()}
            return f(x.float(), *a, **kw).to(x.dtype)
        return f(x, *a, **kw)
    return g


torch.randn, torch.softmax, F.layer_norm = randn, upcast(_softmax), upcast(_layer_norm)


class Event:
    def __init__(self, enable_timing=False):
        self.t = None

    def record(self, stream=None):
        self.t = time.perf_counter()

    def synchronize(self):
        pass

    def elapsed_time(self, end):
        return (end.t - self.t) * 1e3


class CUDAGraph:
    def replay(self):
        pass


class graph:
    def __init__(self, g, *a, **kw):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


for name, value in dict(Event=Event, CUDAGraph=CUDAGraph, graph=graph, synchronize=lambda *a: None,
                        current_stream=lambda *a: types.SimpleNamespace(cuda_stream=0),
                        get_device_name=lambda *a: "CPU dry run").items():
    setattr(torch.cuda, name, value)
script = sys.argv[1]
sys.argv = sys.argv[1:]
runpy.run_path(script, run_name="__main__")
