//===- VulkanHeaderUtils.h - Pieces of the Vulkan-path C headers -*- C++ -*-===//
//
// What the Vulkan header (lib/Target/SPIRV/VulkanHeader.cpp) and the Metal
// header (lib/Target/Metal/MetalHeader.cpp) print alike from a kernel's
// vk::Reflection: macro-safe names, the parameters' C names, tensor and
// push-constant descriptions, the C types of the push-constant fields, the
// grid helpers and the grid function. Header-only: the Vulkan, Metal and
// WebGPU headers include it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_SPIRV_VULKANHEADERUTILS_H
#define TILEC_TARGET_SPIRV_VULKANHEADERUTILS_H

#include "tilec/Target/CWriter.h"
#include "tilec/Target/SPIRV/VulkanTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <array>
#include <string>
#include <vector>

namespace tilec::vkheader {

/// `s` upper-cased, every character but letters and digits as '_' (macro
/// names and include guards).
inline std::string upper(llvm::StringRef s) {
  std::string out;
  for (char c : s)
    out += llvm::isAlnum(c) ? llvm::toUpper(c) : '_';
  return out;
}

/// The C names of `r`'s parameters in the headers (struct fields, the grid
/// function's parameters): each parameter's name, with `_` appended while it
/// is reserved (isReservedCName) or another parameter's name.
inline std::vector<std::string> cParamNames(const vk::Reflection &r) {
  std::vector<std::string> names;
  for (const vk::Param &p : r.params)
    names.push_back(p.name);
  return cNames(names);
}

/// A line of the kernel's ABI comment naming the dimensions and scalars whose
/// C names differ from their names (cParamNames); none when all are kept.
inline void writeRenamedNote(CWriter &w, const vk::Reflection &r, const std::vector<std::string> &names) {
  std::vector<std::string> renamed;
  for (size_t i = 0; i < r.params.size(); ++i)
    if (r.params[i].kind != vk::ParamKind::Tensor && names[i] != r.params[i].name)
      renamed.push_back(r.params[i].name + " is " + names[i]);
  if (!renamed.empty())
    w.line(" * In C, " + llvm::join(renamed, ", ") +
           " (a C or C++ keyword, or a name this header declares, gets a '_').");
}

/// A grid program (a stack machine over int64) as a C expression of the
/// parameters' C names.
inline std::string gridText(const std::vector<vk::GridInst> &program, const std::vector<std::string> &names) {
  std::vector<std::string> stack;
  for (const vk::GridInst &inst : program) {
    if (inst.op == vk::GridOp::Const) {
      stack.push_back("INT64_C(" + std::to_string(inst.value) + ")");
      continue;
    }
    if (inst.op == vk::GridOp::Param) {
      stack.push_back("(int64_t)" + names[inst.value]);
      continue;
    }
    std::string b = stack.back();
    stack.pop_back();
    std::string a = stack.back();
    stack.pop_back();
    switch (inst.op) {
    case vk::GridOp::Add: stack.push_back("(" + a + " + " + b + ")"); break;
    case vk::GridOp::Sub: stack.push_back("(" + a + " - " + b + ")"); break;
    case vk::GridOp::Mul: stack.push_back("(" + a + " * " + b + ")"); break;
    case vk::GridOp::FloorDiv: stack.push_back("tilec_vk_floordiv(" + a + ", " + b + ")"); break;
    case vk::GridOp::CeilDiv: stack.push_back("tilec_vk_ceildiv(" + a + ", " + b + ")"); break;
    case vk::GridOp::FloorMod: stack.push_back("(" + a + " - tilec_vk_floordiv(" + a + ", " + b + ") * " + b + ")"); break;
    case vk::GridOp::TruncDiv: stack.push_back("(" + a + " / " + b + ")"); break;
    case vk::GridOp::TruncRem: stack.push_back("(" + a + " % " + b + ")"); break;
    case vk::GridOp::Min: stack.push_back("tilec_vk_min(" + a + ", " + b + ")"); break;
    case vk::GridOp::Max: stack.push_back("tilec_vk_max(" + a + ", " + b + ")"); break;
    default: stack.push_back("INT64_C(1)"); break;
    }
  }
  return stack.empty() ? "INT64_C(1)" : stack.back();
}

/// A tensor parameter's shape as a Python tuple: "(M, 4096)", "(N,)".
inline std::string shapeText(const vk::Reflection &r, const vk::Param &p) {
  std::vector<std::string> dims;
  for (const vk::Dim &d : p.shape)
    dims.push_back(d.param == vk::kNoParam ? std::to_string(d.value) : r.params[d.param].name);
  return "(" + llvm::join(dims, ", ") + (dims.size() == 1 ? ",)" : ")");
}

/// "A: float16 tensor of shape (M, 4096), row-major, read": the tensor bound
/// at `b`, as the headers' ABI comments describe it.
inline std::string tensorText(const vk::Reflection &r, const vk::Binding &b) {
  const vk::Param &p = r.params[b.param];
  return p.name + ": " + p.dtype + " tensor of shape " + shapeText(r, p) + ", row-major, " +
         (b.readOnly ? "read" : "written");
}

/// "offset 0: M (dynamic dimension, > 0)": a push-constant field, as the
/// headers' ABI comments describe it.
inline std::string pushFieldText(const vk::Reflection &r, const vk::PushField &f) {
  const vk::Param &p = r.params[f.param];
  return "offset " + std::to_string(f.offset) + ": " + p.name + " (" +
         (p.kind == vk::ParamKind::DynamicDim ? "dynamic dimension, > 0" : p.dtype + " scalar") + ")";
}

/// The C type of a push-constant (Metal: constant-struct) field.
inline const char *fieldCType(vk::FieldType t) {
  switch (t) {
  case vk::FieldType::Int32: return "int32_t";
  case vk::FieldType::UInt32: return "uint32_t";
  case vk::FieldType::Float32: return "float";
  case vk::FieldType::Int64: return "int64_t";
  case vk::FieldType::Float64: return "double";
  case vk::FieldType::Float16: return "uint16_t";
  }
  return "uint32_t";
}

/// The integer helpers the grid expressions use (tilec_vk_floordiv, _ceildiv,
/// _min, _max), guarded so that several tilec headers can be included together.
inline void writeGridHelpers(CWriter &w) {
  w.line("#ifndef TILEC_VK_GRID_HELPERS").line("#define TILEC_VK_GRID_HELPERS");
  w.line("static inline int64_t tilec_vk_floordiv(int64_t a, int64_t b) {");
  w.line("  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));").line("}");
  w.line("static inline int64_t tilec_vk_ceildiv(int64_t a, int64_t b) { return -tilec_vk_floordiv(-a, b); }");
  w.line("static inline int64_t tilec_vk_min(int64_t a, int64_t b) { return a < b ? a : b; }");
  w.line("static inline int64_t tilec_vk_max(int64_t a, int64_t b) { return a > b ? a : b; }");
  w.line("#endif").line();
}

/// The grid function `name`: the dimensions and scalars in parameter order
/// (under their C names, cParamNames), then `uint32_t grid[3]`, set from
/// `r`'s grid programs; `unit` names what the grid counts ("workgroups",
/// "threadgroups") in its comment.
inline void writeGridFunction(CWriter &w, const vk::Reflection &r, llvm::StringRef name, llvm::StringRef unit) {
  std::vector<std::string> names = cParamNames(r);
  std::vector<std::string> params;
  for (const vk::Param &p : r.params) {
    size_t i = &p - r.params.data();
    if (p.kind == vk::ParamKind::DynamicDim)
      params.push_back("int64_t " + names[i]);
    else if (p.kind == vk::ParamKind::Scalar)
      params.push_back(cElementType(p.dtype).str() + " " + names[i]);
  }
  params.push_back("uint32_t grid[3]");
  w.line("/* The dispatch grid (" + unit + " in x, y, z) for the given dimensions and scalars. */");
  w.line("static inline void " + name + "(" + llvm::join(params, ", ") + ") {");
  w.push();
  for (const vk::Param &p : r.params)
    if (p.kind != vk::ParamKind::Tensor)
      w.line("(void)" + names[&p - r.params.data()] + ";");
  for (size_t d = 0; d < 3; ++d)
    w.line("grid[" + llvm::Twine(d) + "] = (uint32_t)(" + gridText(r.grid[d], names) + ");");
  w.pop();
  w.line("}").line();
}

/// The dispatch macros the Vulkan and WebGPU headers share, each prefixed
/// with `prefix`: ENTRY_POINT (`entryPoint`), WORKGROUP_SIZE_X/Y/Z, the
/// number of storage buffers as `countName`, and BINDING_<TENSOR> per buffer.
inline void writeDispatchMacros(CWriter &w, const vk::Reflection &r, llvm::StringRef prefix,
                                llvm::StringRef entryPoint, llvm::StringRef countName) {
  w.line("#define " + prefix + "ENTRY_POINT \"" + entryPoint + "\"");
  for (size_t d = 0; d < 3; ++d)
    w.line("#define " + prefix + "WORKGROUP_SIZE_" + llvm::Twine("XYZ"[d]) + " " + llvm::Twine(r.workgroupSize[d]));
  w.line("#define " + prefix + countName + " " + llvm::Twine(r.bindings.size()));
  for (const vk::Binding &b : r.bindings)
    w.line("#define " + prefix + "BINDING_" + upper(r.params[b.param].name) + " " + llvm::Twine(b.binding));
}

} // namespace tilec::vkheader

#endif // TILEC_TARGET_SPIRV_VULKANHEADERUTILS_H
