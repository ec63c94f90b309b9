//===- Runner.cpp - Vulkan compute dispatch for tilec kernels -------------===//
//
// 1. create: instance (+ validation layer and a debug messenger that records
//    every error/warning), physical device choice, one compute queue, the
//    optional features SPIR-V from tilec may need (16/8-bit storage, fp16,
//    int8, int64, fp64) enabled when the device has them.
// 2. run: check arguments against the reflection, one host-visible storage
//    buffer per binding, descriptor set layouts per set, push constants,
//    pipeline from the SPIR-V, dispatch, wait, copy written tensors back.
//
//===----------------------------------------------------------------------===//
#include "tilec/Runtime/Vulkan/Runner.h"
#include "SpirvWords.h"

#include <vulkan/vulkan.h>

#include <chrono>
#include <cstring>
#include <map>

using namespace tilec::vk;
using namespace tilec::vk::detail;

static const char *kValidationLayer = "VK_LAYER_KHRONOS_validation";

static std::string vkError(const char *what, VkResult result) {
  return std::string(what) + " failed (VkResult " + std::to_string(static_cast<int>(result)) + ")";
}

struct Runner::Impl {
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  VkPhysicalDeviceMemoryProperties memory{};
  VkPhysicalDeviceLimits limits{};
  std::string name;
  bool validation = false;
  RunnerOptions options;
  std::vector<std::string> messages;
  size_t errorCount = 0;

  ~Impl() {
    if (device)
      vkDestroyDevice(device, nullptr);
    if (messenger) {
      auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
          vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
      if (destroy)
        destroy(instance, messenger, nullptr);
    }
    if (instance)
      vkDestroyInstance(instance, nullptr);
  }

  static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                  VkDebugUtilsMessageTypeFlagsEXT,
                                                  const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
    auto *self = static_cast<Impl *>(user);
    bool isError = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    self->messages.push_back(std::string(isError ? "error: " : "warning: ") +
                             (data && data->pMessage ? data->pMessage : "(no message)"));
    if (isError)
      ++self->errorCount;
    // VK_TRUE makes the layer skip the call: an invalid pipeline never reaches
    // the driver (lavapipe may crash on one).
    return isError ? VK_TRUE : VK_FALSE;
  }

  int32_t findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags wanted) const {
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
      if ((typeBits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & wanted) == wanted)
        return static_cast<int32_t>(i);
    return -1;
  }
};

Runner::Runner(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Runner::~Runner() = default;
const std::string &Runner::deviceName() const { return impl->name; }
bool Runner::validationEnabled() const { return impl->validation; }
const std::vector<std::string> &Runner::validationMessages() const { return impl->messages; }

namespace {
/// The instance, with the validation layer and a debug messenger when asked for and
/// installed; `apiVersion` is the version the instance asked for.
bool createInstance(Runner::Impl &impl, const RunnerOptions &options, uint32_t &apiVersion, std::string &error) {
  std::vector<const char *> layers, extensions;
  if (options.validation) {
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> available(count);
    vkEnumerateInstanceLayerProperties(&count, available.data());
    for (const VkLayerProperties &layer : available)
      if (std::strcmp(layer.layerName, kValidationLayer) == 0)
        impl.validation = true;
    if (!impl.validation && options.requireValidation) {
      error = std::string("the Vulkan validation layer ") + kValidationLayer + " is not installed";
      return false;
    }
    if (impl.validation) {
      layers.push_back(kValidationLayer);
      extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    }
  }
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "tilec-vk-run";
  // The effective version is the lower of this and the device's: ask for 1.3
  // so that 1.2 feature structs are valid on devices that have them.
  uint32_t loaderVersion = VK_API_VERSION_1_0;
  vkEnumerateInstanceVersion(&loaderVersion);
  app.apiVersion = loaderVersion >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_1;
  VkDebugUtilsMessengerCreateInfoEXT messengerInfo{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messengerInfo.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
  messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messengerInfo.pfnUserCallback = &Runner::Impl::onMessage;
  messengerInfo.pUserData = &impl;
  VkInstanceCreateInfo instanceInfo{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instanceInfo.pApplicationInfo = &app;
  instanceInfo.enabledLayerCount = static_cast<uint32_t>(layers.size());
  instanceInfo.ppEnabledLayerNames = layers.data();
  instanceInfo.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  instanceInfo.ppEnabledExtensionNames = extensions.data();
  if (impl.validation)
    instanceInfo.pNext = &messengerInfo;
  if (VkResult r = vkCreateInstance(&instanceInfo, nullptr, &impl.instance)) {
    error = vkError("vkCreateInstance", r);
    return false;
  }
  if (impl.validation) {
    auto createMessenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(impl.instance, "vkCreateDebugUtilsMessengerEXT"));
    if (createMessenger)
      createMessenger(impl.instance, &messengerInfo, nullptr, &impl.messenger);
  }
  apiVersion = app.apiVersion;
  return true;
}

/// The physical device: the filter's first match, else a CPU device (lavapipe), else the first.
bool choosePhysicalDevice(Runner::Impl &impl, const RunnerOptions &options, std::string &error) {
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(impl.instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(impl.instance, &count, devices.data());
  std::string names;
  for (VkPhysicalDevice candidate : devices) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(candidate, &props);
    names += std::string(names.empty() ? "" : ", ") + props.deviceName;
    if (props.apiVersion < VK_API_VERSION_1_1)
      continue;
    bool match = options.deviceFilter.empty()
                     ? (props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU || impl.physical == VK_NULL_HANDLE)
                     : std::strstr(props.deviceName, options.deviceFilter.c_str()) != nullptr;
    if (match && (impl.physical == VK_NULL_HANDLE || props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)) {
      impl.physical = candidate;
      impl.name = props.deviceName;
      impl.limits = props.limits;
      if (!options.deviceFilter.empty() || props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
        break;
    }
  }
  if (!impl.physical) {
    error = devices.empty() ? "no Vulkan device found (install mesa-vulkan-drivers for lavapipe)"
                            : "no Vulkan 1.1 device matches '" + options.deviceFilter + "' (devices: " + names + ")";
    return false;
  }
  vkGetPhysicalDeviceMemoryProperties(impl.physical, &impl.memory);
  return true;
}

/// The first queue family with compute.
bool chooseComputeQueue(Runner::Impl &impl, std::string &error) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(impl.physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(impl.physical, &count, families.data());
  bool found = false;
  for (uint32_t i = 0; i < count && !found; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      impl.queueFamily = i;
      found = true;
    }
  if (!found) {
    error = "device '" + impl.name + "' has no compute queue";
    return false;
  }
  return true;
}

/// The logical device with the optional features tilec's SPIR-V may use enabled where the
/// device has them, and its queue.
bool createDevice(Runner::Impl &impl, uint32_t apiVersion, std::string &error) {
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(impl.physical, &props);
  bool vulkan12 = props.apiVersion >= VK_API_VERSION_1_2 && apiVersion >= VK_API_VERSION_1_2;
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDevice16BitStorageFeatures f16storage{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT fatomic{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  uint32_t extCount = 0;
  vkEnumerateDeviceExtensionProperties(impl.physical, nullptr, &extCount, nullptr);
  std::vector<VkExtensionProperties> exts(extCount);
  vkEnumerateDeviceExtensionProperties(impl.physical, nullptr, &extCount, exts.data());
  bool hasAtomicFloat = false;
  for (const VkExtensionProperties &e : exts)
    hasAtomicFloat |= std::strcmp(e.extensionName, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME) == 0;
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  features.pNext = &f16storage;
  if (hasAtomicFloat)
    fatomic.pNext = features.pNext, features.pNext = &fatomic;
  if (vulkan12)
    f16storage.pNext = &f12;
  vkGetPhysicalDeviceFeatures2(impl.physical, &features);
  VkPhysicalDeviceVulkan12Features want12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  want12.shaderFloat16 = f12.shaderFloat16;
  want12.shaderInt8 = f12.shaderInt8;
  want12.storageBuffer8BitAccess = f12.storageBuffer8BitAccess;
  want12.uniformAndStorageBuffer8BitAccess = f12.uniformAndStorageBuffer8BitAccess;
  want12.storagePushConstant8 = f12.storagePushConstant8;
  want12.shaderBufferInt64Atomics = f12.shaderBufferInt64Atomics;
  want12.shaderSharedInt64Atomics = f12.shaderSharedInt64Atomics;
  want12.vulkanMemoryModel = f12.vulkanMemoryModel;
  want12.vulkanMemoryModelDeviceScope = f12.vulkanMemoryModelDeviceScope;
  VkPhysicalDevice16BitStorageFeatures want16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  want16.storageBuffer16BitAccess = f16storage.storageBuffer16BitAccess;
  want16.uniformAndStorageBuffer16BitAccess = f16storage.uniformAndStorageBuffer16BitAccess;
  want16.storagePushConstant16 = f16storage.storagePushConstant16;
  if (vulkan12)
    want16.pNext = &want12;
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT wantAtomic{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  wantAtomic.shaderBufferFloat32Atomics = fatomic.shaderBufferFloat32Atomics;
  wantAtomic.shaderBufferFloat32AtomicAdd = fatomic.shaderBufferFloat32AtomicAdd;
  wantAtomic.shaderSharedFloat32Atomics = fatomic.shaderSharedFloat32Atomics;
  wantAtomic.shaderSharedFloat32AtomicAdd = fatomic.shaderSharedFloat32AtomicAdd;
  std::vector<const char *> deviceExtensions;
  VkPhysicalDeviceFeatures2 enabled{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  enabled.pNext = &want16;
  if (hasAtomicFloat) {
    wantAtomic.pNext = enabled.pNext, enabled.pNext = &wantAtomic;
    deviceExtensions.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  }
  enabled.features.shaderInt64 = features.features.shaderInt64;
  enabled.features.shaderFloat64 = features.features.shaderFloat64;
  enabled.features.shaderInt16 = features.features.shaderInt16;

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queueInfo.queueFamilyIndex = impl.queueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  deviceInfo.pNext = &enabled;
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  deviceInfo.enabledExtensionCount = static_cast<uint32_t>(deviceExtensions.size());
  deviceInfo.ppEnabledExtensionNames = deviceExtensions.data();
  if (VkResult r = vkCreateDevice(impl.physical, &deviceInfo, nullptr, &impl.device)) {
    error = vkError("vkCreateDevice", r);
    return false;
  }
  vkGetDeviceQueue(impl.device, impl.queueFamily, 0, &impl.queue);
  if (impl.errorCount) {
    error = "the validation layer reported: " + impl.messages.back();
    return false;
  }
  return true;
}
} // namespace

std::unique_ptr<Runner> Runner::create(const RunnerOptions &options, std::string &error) {
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  uint32_t apiVersion = 0;
  if (!createInstance(*impl, options, apiVersion, error) || !choosePhysicalDevice(*impl, options, error) ||
      !chooseComputeQueue(*impl, error) || !createDevice(*impl, apiVersion, error))
    return nullptr;
  return std::unique_ptr<Runner>(new Runner(std::move(impl)));
}

bool Runner::computeGrid(const Reflection &r, const std::vector<Arg> &args, std::array<uint32_t, 3> &grid,
                         std::string &error) {
  std::vector<int64_t> values;
  for (const Arg &a : args)
    values.push_back(a.intValue);
  for (size_t d = 0; d < 3; ++d) {
    int64_t v = 1;
    if (!r.grid[d].empty() && !evaluateGrid(r.grid[d], values, v, error))
      return false;
    if (v < 0 || v > 0xFFFFFFFFll) {
      error = "grid dimension " + std::to_string(d) + " is " + std::to_string(v);
      return false;
    }
    grid[d] = static_cast<uint32_t>(v);
  }
  return true;
}

namespace {
/// Destroys every Vulkan object one run creates, in reverse order.
struct RunObjects {
  VkDevice device;
  std::vector<VkBuffer> buffers;
  std::vector<VkDeviceMemory> memories;
  std::vector<VkDescriptorSetLayout> setLayouts;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkPipelineLayout pipelineLayout = VK_NULL_HANDLE;
  VkShaderModule shader = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  explicit RunObjects(VkDevice device) : device(device) {}
  ~RunObjects() {
    if (fence)
      vkDestroyFence(device, fence, nullptr);
    if (commandPool)
      vkDestroyCommandPool(device, commandPool, nullptr);
    if (pipeline)
      vkDestroyPipeline(device, pipeline, nullptr);
    if (shader)
      vkDestroyShaderModule(device, shader, nullptr);
    if (pipelineLayout)
      vkDestroyPipelineLayout(device, pipelineLayout, nullptr);
    if (pool)
      vkDestroyDescriptorPool(device, pool, nullptr);
    for (VkDescriptorSetLayout layout : setLayouts)
      vkDestroyDescriptorSetLayout(device, layout, nullptr);
    for (VkBuffer buffer : buffers)
      vkDestroyBuffer(device, buffer, nullptr);
    for (VkDeviceMemory memory : memories)
      vkFreeMemory(device, memory, nullptr);
  }
};

} // namespace

namespace {
/// One dispatch of Runner::run, in the order it happens: the arguments against the
/// reflection, the push-constant block, one host-visible buffer per binding, descriptor
/// sets, the pipeline, submit and wait, the read-back. Each step returns false with
/// `error` set; the Vulkan objects die with `objs`.
class RunState {
public:
  RunState(Runner::Impl &vk, const Reflection &r, const std::vector<Arg> &args, std::string &error)
      : vk(vk), r(r), args(args), error(error), errorsBefore(vk.errorCount), objs(vk.device) {}

  bool checkArguments(RunInfo *info) {
    if (args.size() != r.params.size())
      return failWith("expected " + std::to_string(r.params.size()) + " arguments, got " + std::to_string(args.size()));
    for (const Arg &a : args)
      values.push_back(a.intValue);
    for (size_t i = 0; i < r.params.size(); ++i)
      if (r.params[i].kind == ParamKind::DynamicDim && args[i].intValue <= 0)
        return failWith("dynamic dimension '" + r.params[i].name + "' must be > 0, got " +
                        std::to_string(args[i].intValue));
    for (size_t i = 0; i < r.params.size(); ++i) {
      const Param &p = r.params[i];
      if (p.kind != ParamKind::Tensor)
        continue;
      if (!args[i].data)
        return failWith("tensor '" + p.name + "' has no data");
      uint64_t need = (static_cast<uint64_t>(elementCount(p, values)) * p.elementBits + 7) / 8;
      if (args[i].bytes < need)
        return failWith("tensor '" + p.name + "' needs " + std::to_string(need) + " bytes, got " +
                        std::to_string(args[i].bytes));
    }
    if (!Runner::computeGrid(r, args, grid, error))
      return failWith(error);
    for (size_t d = 0; d < 3; ++d)
      if (grid[d] > vk.limits.maxComputeWorkGroupCount[d])
        return failWith("grid dimension " + std::to_string(d) + " (" + std::to_string(grid[d]) +
                        ") exceeds the device limit " + std::to_string(vk.limits.maxComputeWorkGroupCount[d]));
    if (r.pushConstantSize > vk.limits.maxPushConstantsSize)
      return failWith("push constants of " + std::to_string(r.pushConstantSize) + " bytes exceed the device limit " +
                      std::to_string(vk.limits.maxPushConstantsSize));
    if (info)
      info->grid = grid;
    return true;
  }

  bool packPushConstants() {
    push.assign(r.pushConstantSize, 0);
    for (const PushField &f : r.pushFields) {
      const Param &p = r.params[f.param];
      const Arg &a = args[f.param];
      bool fromFloat = p.kind == ParamKind::Scalar && isFloat(p.dtype);
      unsigned char *at = push.data() + f.offset;
      switch (f.type) {
      case FieldType::Int32:
      case FieldType::UInt32: {
        int64_t v = fromFloat ? static_cast<int64_t>(a.floatValue) : a.intValue;
        if (p.kind == ParamKind::DynamicDim && v > 0x7FFFFFFF)
          return failWith("dynamic dimension '" + p.name + "' does not fit in 32 bits");
        uint32_t w = static_cast<uint32_t>(v);
        std::memcpy(at, &w, 4);
        break;
      }
      case FieldType::Int64: {
        int64_t v = fromFloat ? static_cast<int64_t>(a.floatValue) : a.intValue;
        std::memcpy(at, &v, 8);
        break;
      }
      case FieldType::Float32: {
        float v = fromFloat ? static_cast<float>(a.floatValue) : static_cast<float>(a.intValue);
        std::memcpy(at, &v, 4);
        break;
      }
      case FieldType::Float64: {
        double v = fromFloat ? a.floatValue : static_cast<double>(a.intValue);
        std::memcpy(at, &v, 8);
        break;
      }
      case FieldType::Float16: {
        uint16_t v = toHalf(static_cast<float>(fromFloat ? a.floatValue : static_cast<double>(a.intValue)));
        std::memcpy(at, &v, 2);
        break;
      }
      }
    }
    return true;
  }

  /// One host-visible storage buffer of `size` bytes (a multiple of 4), zero
  /// but for its first `bytes` bytes copied from `init`.
  bool createBuffer(VkDeviceSize size, const void *init, size_t bytes, const std::string &what) {
    sizes.push_back(size);
    VkBufferCreateInfo bufferInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bufferInfo.size = size;
    bufferInfo.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkBuffer buffer;
    if (!check(vkCreateBuffer(vk.device, &bufferInfo, nullptr, &buffer), "vkCreateBuffer"))
      return false;
    objs.buffers.push_back(buffer);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(vk.device, buffer, &req);
    int32_t type = vk.findMemoryType(req.memoryTypeBits,
                                     VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    if (type < 0)
      return failWith("no host-visible coherent memory for " + what);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = static_cast<uint32_t>(type);
    VkDeviceMemory memory;
    if (!check(vkAllocateMemory(vk.device, &alloc, nullptr, &memory), "vkAllocateMemory"))
      return false;
    objs.memories.push_back(memory);
    if (!check(vkBindBufferMemory(vk.device, buffer, memory, 0), "vkBindBufferMemory"))
      return false;
    void *mapped;
    if (!check(vkMapMemory(vk.device, memory, 0, size, 0, &mapped), "vkMapMemory"))
      return false;
    std::memset(mapped, 0, size);
    std::memcpy(mapped, init, bytes);
    vkUnmapMemory(vk.device, memory);
    return true;
  }

  /// One buffer per tensor binding, then the T.print buffer (its header:
  /// count 0, the capacity, the record size).
  bool createBuffers() {
    for (const Binding &b : r.bindings) {
      const Param &p = r.params[b.param];
      VkDeviceSize bytes = (static_cast<uint64_t>(elementCount(p, values)) * p.elementBits + 7) / 8;
      VkDeviceSize size = std::max<VkDeviceSize>(4, (bytes + 3) & ~VkDeviceSize(3));
      if (!createBuffer(size, args[b.param].data, bytes, "tensor '" + p.name + "'"))
        return false;
    }
    if (r.printBinding == kNoParam)
      return true;
    uint32_t header[kPrintHeaderWords] = {0, vk.options.printCapacity, r.printRecordWords, 0};
    VkDeviceSize words = kPrintHeaderWords + static_cast<VkDeviceSize>(vk.options.printCapacity) * r.printRecordWords;
    return createBuffer(words * 4, header, sizeof header, "the T.print buffer");
  }

  bool createDescriptorSets() {
    // The T.print buffer is one more binding of set 0, after the tensors' buffers.
    std::vector<Binding> all = r.bindings;
    if (r.printBinding != kNoParam)
      all.push_back({0, r.printBinding, 0, false});
    for (const Binding &b : all)
      numSets = std::max(numSets, b.set + 1);
    std::map<uint32_t, std::vector<VkDescriptorSetLayoutBinding>> perSet;
    for (const Binding &b : all) {
      VkDescriptorSetLayoutBinding lb{};
      lb.binding = b.binding;
      lb.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      lb.descriptorCount = 1;
      lb.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
      perSet[b.set].push_back(lb);
    }
    for (uint32_t s = 0; s < numSets; ++s) {
      VkDescriptorSetLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      layoutInfo.bindingCount = static_cast<uint32_t>(perSet[s].size());
      layoutInfo.pBindings = perSet[s].data();
      VkDescriptorSetLayout layout;
      if (!check(vkCreateDescriptorSetLayout(vk.device, &layoutInfo, nullptr, &layout), "vkCreateDescriptorSetLayout"))
        return false;
      objs.setLayouts.push_back(layout);
    }
    sets.assign(numSets, VK_NULL_HANDLE);
    if (numSets) {
      VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, static_cast<uint32_t>(all.size())};
      VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
      poolInfo.maxSets = numSets;
      poolInfo.poolSizeCount = 1;
      poolInfo.pPoolSizes = &poolSize;
      if (!check(vkCreateDescriptorPool(vk.device, &poolInfo, nullptr, &objs.pool), "vkCreateDescriptorPool"))
        return false;
      VkDescriptorSetAllocateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
      setInfo.descriptorPool = objs.pool;
      setInfo.descriptorSetCount = numSets;
      setInfo.pSetLayouts = objs.setLayouts.data();
      if (!check(vkAllocateDescriptorSets(vk.device, &setInfo, sets.data()), "vkAllocateDescriptorSets"))
        return false;
      std::vector<VkDescriptorBufferInfo> bufferInfos(all.size());
      std::vector<VkWriteDescriptorSet> writes(all.size());
      for (size_t i = 0; i < all.size(); ++i) {
        bufferInfos[i] = {objs.buffers[i], 0, VK_WHOLE_SIZE};
        writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        writes[i].dstSet = sets[all[i].set];
        writes[i].dstBinding = all[i].binding;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[i].pBufferInfo = &bufferInfos[i];
      }
      vkUpdateDescriptorSets(vk.device, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
    }
    return true;
  }

  bool createPipeline(const uint32_t *spirv, size_t spirvWords) {
    std::array<uint32_t, 3> localSize{};
    if (!findEntryPoint(spirv, spirvWords, r.entryPoint, localSize, error))
      return failWith(error);
    if (localSize[0] && localSize != r.workgroupSize)
      return failWith("the SPIR-V workgroup size " + std::to_string(localSize[0]) + "x" + std::to_string(localSize[1]) +
                      "x" + std::to_string(localSize[2]) + " differs from the reflection's");
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, r.pushConstantSize};
    VkPipelineLayoutCreateInfo pipelineLayoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pipelineLayoutInfo.setLayoutCount = numSets;
    pipelineLayoutInfo.pSetLayouts = objs.setLayouts.data();
    pipelineLayoutInfo.pushConstantRangeCount = r.pushConstantSize ? 1 : 0;
    pipelineLayoutInfo.pPushConstantRanges = &range;
    if (!check(vkCreatePipelineLayout(vk.device, &pipelineLayoutInfo, nullptr, &objs.pipelineLayout),
               "vkCreatePipelineLayout"))
      return false;
    VkShaderModuleCreateInfo shaderInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    shaderInfo.codeSize = spirvWords * 4;
    shaderInfo.pCode = spirv;
    if (!check(vkCreateShaderModule(vk.device, &shaderInfo, nullptr, &objs.shader), "vkCreateShaderModule"))
      return false;
    VkComputePipelineCreateInfo pipelineInfo{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    pipelineInfo.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipelineInfo.stage.module = objs.shader;
    pipelineInfo.stage.pName = r.entryPoint.c_str();
    pipelineInfo.layout = objs.pipelineLayout;
    if (vk.errorCount != errorsBefore)
      return failWith("the validation layer reported: " + vk.messages.back());
    if (!check(vkCreateComputePipelines(vk.device, VK_NULL_HANDLE, 1, &pipelineInfo, nullptr, &objs.pipeline),
               "vkCreateComputePipelines"))
      return false;
    if (vk.errorCount != errorsBefore)
      return failWith("the validation layer reported: " + vk.messages.back());
    return true;
  }

  bool submitAndWait(RunInfo *info) {
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.queueFamilyIndex = vk.queueFamily;
    if (!check(vkCreateCommandPool(vk.device, &poolInfo, nullptr, &objs.commandPool), "vkCreateCommandPool"))
      return false;
    VkCommandBufferAllocateInfo cmdInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cmdInfo.commandPool = objs.commandPool;
    cmdInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cmdInfo.commandBufferCount = 1;
    VkCommandBuffer cmd;
    if (!check(vkAllocateCommandBuffers(vk.device, &cmdInfo, &cmd), "vkAllocateCommandBuffers"))
      return false;
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cmd, &begin);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, objs.pipeline);
    if (numSets)
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, objs.pipelineLayout, 0, numSets, sets.data(), 0,
                              nullptr);
    if (r.pushConstantSize)
      vkCmdPushConstants(cmd, objs.pipelineLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0, r.pushConstantSize, push.data());
    if (grid[0] && grid[1] && grid[2])
      vkCmdDispatch(cmd, grid[0], grid[1], grid[2]);
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
                         nullptr, 0, nullptr);
    if (!check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer"))
      return false;
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (!check(vkCreateFence(vk.device, &fenceInfo, nullptr, &objs.fence), "vkCreateFence"))
      return false;
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    auto start = std::chrono::steady_clock::now();
    if (!check(vkQueueSubmit(vk.queue, 1, &submit, objs.fence), "vkQueueSubmit"))
      return false;
    if (!check(vkWaitForFences(vk.device, 1, &objs.fence, VK_TRUE, UINT64_MAX), "vkWaitForFences"))
      return false;
    if (info)
      info->milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (vk.errorCount != errorsBefore)
      return failWith("the validation layer reported: " + vk.messages.back());
    return true;
  }

  bool readBack(RunInfo *runInfo) {
    info = runInfo;
    for (size_t i = 0; i < r.bindings.size(); ++i) {
      const Binding &b = r.bindings[i];
      if (b.readOnly)
        continue;
      const Param &p = r.params[b.param];
      size_t bytes = (static_cast<uint64_t>(elementCount(p, values)) * p.elementBits + 7) / 8;
      void *mapped;
      if (!check(vkMapMemory(vk.device, objs.memories[i], 0, sizes[i], 0, &mapped), "vkMapMemory"))
        return false;
      std::memcpy(args[b.param].data, mapped, bytes);
      vkUnmapMemory(vk.device, objs.memories[i]);
    }
    return r.printBinding == kNoParam || readPrints();
  }

  /// The T.print lines: into `info`, and onto the runner's print stream.
  bool readPrints() {
    size_t i = r.bindings.size();
    void *mapped;
    if (!check(vkMapMemory(vk.device, objs.memories[i], 0, sizes[i], 0, &mapped), "vkMapMemory"))
      return false;
    std::vector<std::string> lines;
    bool ok = formatPrints(r, static_cast<const uint32_t *>(mapped), sizes[i] / 4, lines, error);
    vkUnmapMemory(vk.device, objs.memories[i]);
    if (!ok)
      return failWith(error);
    if (std::FILE *out = vk.options.printStream) {
      for (const std::string &line : lines)
        std::fprintf(out, "%s\n", line.c_str());
      std::fflush(out);
    }
    if (info)
      info->prints = std::move(lines);
    return true;
  }

private:
  bool failWith(const std::string &message) {
    error = r.kernelName + ": " + message;
    return false;
  }
  bool check(VkResult result, const char *what) {
    if (result != VK_SUCCESS)
      error = r.kernelName + ": " +
              (vk.errorCount != errorsBefore ? "the validation layer reported: " + vk.messages.back()
                                             : vkError(what, result));
    return result == VK_SUCCESS;
  }

  Runner::Impl &vk;
  const Reflection &r;
  const std::vector<Arg> &args;
  std::string &error;
  size_t errorsBefore;
  RunObjects objs;
  std::vector<int64_t> values; ///< every argument's integer value (shapes, grid)
  std::array<uint32_t, 3> grid{};
  std::vector<unsigned char> push; ///< the push-constant block
  std::vector<VkDeviceSize> sizes; ///< each binding's buffer size
  uint32_t numSets = 0;
  std::vector<VkDescriptorSet> sets;
  RunInfo *info = nullptr;
};
} // namespace

bool Runner::run(const uint32_t *spirv, size_t spirvWords, const Reflection &r, const std::vector<Arg> &args,
                 std::string &error, RunInfo *info) {
  RunState state(*impl, r, args, error);
  return state.checkArguments(info) && state.packPushConstants() && state.createBuffers() &&
         state.createDescriptorSets() && state.createPipeline(spirv, spirvWords) && state.submitAndWait(info) &&
         state.readBack(info);
}
