# lit configuration for tilec: .tile and .mlir files under test/ are tests.
import os

import lit.formats

config.name = "tilec"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".tile", ".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "unit", "fuzz", "gpu", "run", "install"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilec_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.tilec_tools_dir, config.llvm_tools_dir, "/usr/lib/llvm-22/bin", config.environment.get("PATH", "")]
)

config.substitutions.append(("%tilec_opt", os.path.join(config.tilec_tools_dir, "tilec-opt")))
config.substitutions.append(("%tilec", os.path.join(config.tilec_tools_dir, "tilec")))
config.substitutions.append(("%examples", os.path.join(config.tilec_src_root, "examples")))

# CUDA's headers (T.import_source code that uses CUDA's intrinsics and types compiles against them).
if os.path.exists(os.path.join(getattr(config, "cuda_path", "/usr/local/cuda"), "include", "cuda_runtime.h")):
    config.available_features.add("cuda-headers")
