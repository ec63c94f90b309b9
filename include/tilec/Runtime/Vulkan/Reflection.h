//===- Reflection.h - What a Vulkan runner needs to launch a kernel -*- C++ -*-===//
//
// The reflection of one tilec Vulkan kernel: entry point, workgroup size,
// parameters, descriptor bindings, push-constant layout and the dispatch grid
// as a small expression program. tilec writes it into the kernel's header as
// a versioned word stream (`<kernel>_vk_reflection[]`); the runner decodes it.
// Plain C++17, no Vulkan and no LLVM: the compiler and the runner share it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_RUNTIME_VULKAN_REFLECTION_H
#define TILEC_RUNTIME_VULKAN_REFLECTION_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tilec::vk {

/// First word of every reflection stream ('TVKR' little-endian) and its version.
constexpr uint32_t kReflectionMagic = 0x524B5654u;
constexpr uint32_t kReflectionVersion = 2; ///< 2 adds the T.print buffer; kernels without T.print get 1
/// Marks a tensor dimension that is a constant rather than a parameter.
constexpr uint32_t kNoParam = 0xFFFFFFFFu;

/// The three kinds of launcher parameters (same order as the C ABI).
enum class ParamKind : uint32_t { Tensor = 0, DynamicDim = 1, Scalar = 2 };

/// One tensor dimension: a constant, or the value of a DynamicDim parameter.
struct Dim {
  uint32_t param = kNoParam; ///< index of the DynamicDim parameter, or kNoParam
  int64_t value = 0;         ///< the constant when param == kNoParam
};

/// One launcher parameter, in the kernel's C signature order.
struct Param {
  ParamKind kind = ParamKind::Tensor;
  std::string name;
  std::string dtype;         ///< spec spelling ("float32", "int4", ...); "int64" for dims
  uint32_t elementBits = 0;  ///< bits per element (4 for packed int4)
  std::vector<Dim> shape;    ///< tensors only
  uint32_t slot = kNoParam;  ///< tensors: index into bindings; dims/scalars: into pushFields
};

/// One storage-buffer binding.
struct Binding {
  uint32_t set = 0;
  uint32_t binding = 0;
  uint32_t param = 0;        ///< which tensor parameter
  bool readOnly = false;
};

/// How a push-constant field is stored on the device.
enum class FieldType : uint32_t { Int32 = 0, UInt32 = 1, Float32 = 2, Int64 = 3, Float64 = 4, Float16 = 5 };

/// One field of the push-constant block.
struct PushField {
  uint32_t param = 0;        ///< which DynamicDim or Scalar parameter
  uint32_t offset = 0;       ///< byte offset in the block
  FieldType type = FieldType::Int32;
};

/// Byte size of a push-constant field of type `type`.
uint32_t fieldSize(FieldType type);

/// Opcodes of the grid program: a stack machine over int64 values.
enum class GridOp : uint32_t {
  Const = 0,    ///< push an int64 constant (two following words: low, high)
  Param = 1,    ///< push a DynamicDim/Scalar parameter's value (one following word)
  Add = 2, Sub = 3, Mul = 4,
  FloorDiv = 5, CeilDiv = 6, FloorMod = 7, TruncDiv = 8, TruncRem = 9,
  Min = 10, Max = 11,
};

/// One instruction of a grid program.
struct GridInst {
  GridOp op = GridOp::Const;
  int64_t value = 0;         ///< Const: the constant; Param: the parameter index
};

/// How one value of a T.print record is stored: two words (low, high) each,
/// 32-bit kinds in the low word.
enum class PrintArg : uint32_t { Int32 = 0, UInt32 = 1, Int64 = 2, Float32 = 3, Float64 = 4 };

/// One T.print statement's line: a printf format (the CUDA path's, with
/// `%lld` for integers and `%f` for floats) and what each value is.
struct PrintFormat {
  std::string format;
  std::vector<PrintArg> args;
};

/// The T.print buffer (a storage buffer of uint32 words at set 0,
/// `printBinding`): word 0 counts the records the kernel tried to write
/// (atomically), word 1 is the capacity in records (the host writes it),
/// words 2-3 are zero; record i starts at word 4 + i * printRecordWords:
/// the format index, then two words per value. Records past the capacity are
/// counted but not written.
constexpr uint32_t kPrintHeaderWords = 4;

/// Everything a runner needs besides the SPIR-V words.
struct Reflection {
  std::string kernelName;
  std::string entryPoint;
  std::array<uint32_t, 3> workgroupSize{1, 1, 1};
  std::vector<Param> params;
  std::vector<Binding> bindings;
  uint32_t pushConstantSize = 0; ///< bytes, a multiple of 4
  std::vector<PushField> pushFields;
  std::array<std::vector<GridInst>, 3> grid; ///< one program per dimension (x, y, z)
  uint32_t printBinding = kNoParam;          ///< binding (set 0) of the T.print buffer; kNoParam: no T.print
  uint32_t printRecordWords = 0;             ///< words per record
  std::vector<PrintFormat> prints;           ///< indexed by a record's first word
};

/// The lines of the records in a T.print buffer (`words`, `count` words as
/// the kernel left them), formatted as the CUDA target's printf prints them,
/// in the order the records were written; when the kernel tried to write
/// more records than the buffer holds, a last line says how many were
/// dropped. False (and `error`) on a malformed buffer.
bool formatPrints(const Reflection &r, const uint32_t *words, size_t count, std::vector<std::string> &lines,
                  std::string &error);

/// Encodes `r` as the word stream the header carries.
std::vector<uint32_t> encodeReflection(const Reflection &r);

/// Decodes a word stream; on malformed input returns false and sets `error`.
bool decodeReflection(const uint32_t *words, size_t count, Reflection &r, std::string &error);

/// Evaluates one grid program with `values[i]` the value of parameter i
/// (ignored for tensors). Returns false (and sets `error`) on a division by
/// zero, an unknown parameter or a malformed program.
bool evaluateGrid(const std::vector<GridInst> &program, const std::vector<int64_t> &values, int64_t &result,
                  std::string &error);

/// The number of elements of tensor parameter `p` given the parameter values.
int64_t elementCount(const Param &p, const std::vector<int64_t> &values);

} // namespace tilec::vk

#endif // TILEC_RUNTIME_VULKAN_REFLECTION_H
