#include "vk_instance.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "sprig/dsl/error.hpp"
#include "vk_loader.hpp"
#include "vk_result.hpp"

namespace sprig::vk {

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool has_layer(const char* name) {
  std::uint32_t count = 0;
  check(vkEnumerateInstanceLayerProperties(&count, nullptr), "vkEnumerateInstanceLayerProperties");
  std::vector<VkLayerProperties> layers(count);
  check(vkEnumerateInstanceLayerProperties(&count, layers.data()), "vkEnumerateInstanceLayerProperties");
  return std::any_of(layers.begin(), layers.begin() + count,
                     [&](const VkLayerProperties& l) { return std::strcmp(l.layerName, name) == 0; });
}

// Extensions of the implementation, plus those of `layer` when given.
bool has_instance_extension(const char* name, const char* layer = nullptr) {
  std::uint32_t count = 0;
  check(vkEnumerateInstanceExtensionProperties(layer, &count, nullptr), "vkEnumerateInstanceExtensionProperties");
  std::vector<VkExtensionProperties> extensions(count);
  check(vkEnumerateInstanceExtensionProperties(layer, &count, extensions.data()),
        "vkEnumerateInstanceExtensionProperties");
  bool found = std::any_of(extensions.begin(), extensions.begin() + count,
                           [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
  return found || (layer != nullptr && has_instance_extension(name));
}

}  // namespace

std::shared_ptr<Instance> Instance::create(bool validation) {
  ensure_loader();
  std::uint32_t loader_version = volkGetInstanceVersion();
  if (loader_version < VK_API_VERSION_1_2) {
    throw DeviceError("the Vulkan loader supports Vulkan " + std::to_string(VK_API_VERSION_MAJOR(loader_version)) +
                      "." + std::to_string(VK_API_VERSION_MINOR(loader_version)) +
                      "; sprig needs 1.2 or newer (update libvulkan1)");
  }

  std::shared_ptr<Instance> self(new Instance());
  self->api_version_ = loader_version >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;

  std::vector<const char*> layers, extensions;
  VkInstanceCreateFlags flags = 0;
  // Lists portability (e.g. MoltenVK) devices too; they are full compute devices for us.
  if (has_instance_extension(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
    extensions.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
    flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
  }
  if (validation) {
    if (!has_layer(kValidationLayer)) {
      throw DeviceError(
          "Vulkan validation was requested (vk::Options::validation or SPRIG_VALIDATION=1) but the layer "
          "VK_LAYER_KHRONOS_validation is not installed (Debian/Ubuntu: apt install vulkan-validationlayers)");
    }
    if (!has_instance_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME, kValidationLayer)) {
      throw DeviceError("Vulkan validation was requested but VK_EXT_debug_utils is not available");
    }
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }

  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "sprig";
  app.pEngineName = "sprig";
  app.apiVersion = self->api_version_;

  // Chained so that messages from vkCreateInstance/vkDestroyInstance are caught too.
  VkDebugUtilsMessengerCreateInfoEXT messenger_info = messenger_create_info(self->log_.get());

  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pNext = validation ? &messenger_info : nullptr;
  info.flags = flags;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  check(vkCreateInstance(&info, nullptr, &self->instance_), "vkCreateInstance");
  load_instance_entry_points(self->instance_);

  if (validation) {
    auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(self->instance_, "vkCreateDebugUtilsMessengerEXT"));
    self->destroy_messenger_ = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(self->instance_, "vkDestroyDebugUtilsMessengerEXT"));
    self->set_object_name_ = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
        vkGetInstanceProcAddr(self->instance_, "vkSetDebugUtilsObjectNameEXT"));
    if (create_messenger == nullptr || self->destroy_messenger_ == nullptr) {
      throw DeviceError("Vulkan validation was requested but vkCreateDebugUtilsMessengerEXT is missing");
    }
    check(create_messenger(self->instance_, &messenger_info, nullptr, &self->messenger_),
          "vkCreateDebugUtilsMessengerEXT");
  }
  return self;
}

Instance::~Instance() {
  if (instance_ == VK_NULL_HANDLE) return;
  if (messenger_ != VK_NULL_HANDLE) destroy_messenger_(instance_, messenger_, nullptr);
  vkDestroyInstance(instance_, nullptr);
  // Messages raised during teardown (e.g. leaked objects) cannot be thrown any more.
  for (const std::string& message : log_->unreported()) std::fprintf(stderr, "sprig: Vulkan validation: %s\n", message.c_str());
}

std::vector<VkPhysicalDevice> Instance::physical_devices() const {
  std::uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance_, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  VkResult result = vkEnumeratePhysicalDevices(instance_, &count, devices.data());
  if (result != VK_INCOMPLETE) check(result, "vkEnumeratePhysicalDevices");
  devices.resize(count);
  return devices;
}

void Instance::set_object_name(VkDevice device, VkObjectType type, std::uint64_t handle, const std::string& name) const {
  if (set_object_name_ == nullptr) return;
  VkDebugUtilsObjectNameInfoEXT info{};
  info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT;
  info.objectType = type;
  info.objectHandle = handle;
  info.pObjectName = name.c_str();
  set_object_name_(device, &info);  // best effort: a name is a debugging aid only
}

}  // namespace sprig::vk
