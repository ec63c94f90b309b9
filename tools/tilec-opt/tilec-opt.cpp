//===- tilec-opt.cpp - The tilec optimizer driver -------------------------===//
//
// MlirOptMain with tilec's dialects (tile plus the upstream dialects its IR
// uses) and the standard passes, for lit tests.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"
#include "tilec/Conversion/TileToGPU/Passes.h"
#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"
#include "tilec/Target/CUDA/CUDATargetInfo.h"
#include "tilec/Target/Metal/MetalTargetInfo.h"
#include "tilec/Target/SPIRV/Passes.h"
#include "tilec/Target/SPIRV/VulkanTarget.h"
#include "tilec/Target/SPIRV/VulkanTargetInfo.h"
#include "tilec/Target/WGSL/WebGPUTargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  tilec::registerTilecConversionPasses();
  tilec::registerTilecTileToGPUPasses();
  tilec::registerVulkanTestPasses();
  tilec::registerTilecVulkanPasses();
  // The targets convert-tile-to-gpu{target=...} lowers for.
  tilec::registerCUDATargetInfo();
  tilec::registerVulkanTargetInfo();
  tilec::registerMetalTargetInfo();
  tilec::registerWebGPUTargetInfo();
  tilec::tile::registerTilePasses();

  mlir::DialectRegistry registry;
  tilec::tile::registerTileDialect(registry);
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::gpu::GPUDialect, mlir::LLVM::LLVMDialect,
                  mlir::math::MathDialect, mlir::memref::MemRefDialect,
                  mlir::NVVM::NVVMDialect, mlir::nvgpu::NVGPUDialect, mlir::scf::SCFDialect,
                  mlir::vector::VectorDialect>();

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tilec optimizer driver\n", registry));
}
