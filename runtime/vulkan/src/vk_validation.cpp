#include "vk_validation.hpp"

#include <cstdlib>

#include "sprig/dsl/error.hpp"
#include "sprig/runtime/vulkan.hpp"

namespace sprig::vk {

bool validation_requested(const Options& options) {
  if (options.validation) return true;
  if (!options.validation_from_environment) return false;
  const char* env = std::getenv("SPRIG_VALIDATION");
  return env != nullptr && std::string_view(env) == "1";
}

void ValidationLog::record(std::string message) {
  std::lock_guard lock(mutex_);
  messages_.push_back(std::move(message));
}

std::vector<std::string> ValidationLog::take() {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out = std::move(messages_);
  messages_.clear();
  reported_ = 0;
  return out;
}

void ValidationLog::throw_if_new(std::string_view during) {
  std::string text;
  {
    std::lock_guard lock(mutex_);
    if (reported_ == messages_.size()) return;
    text = "Vulkan validation reported " + std::to_string(messages_.size() - reported_) +
           " message(s) before " + std::string(during) + ":";
    for (std::size_t i = reported_; i < messages_.size(); ++i) text += "\n  " + messages_[i];
    reported_ = messages_.size();
  }
  throw DeviceError(text);
}

std::vector<std::string> ValidationLog::unreported() const {
  std::lock_guard lock(mutex_);
  return {messages_.begin() + static_cast<std::ptrdiff_t>(reported_), messages_.end()};
}

namespace {

VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                          VkDebugUtilsMessageTypeFlagsEXT /*types*/,
                                          const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
  std::string text = severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "[error] " : "[warning] ";
  if (data->pMessageIdName != nullptr) text += std::string(data->pMessageIdName) + ": ";
  if (data->pMessage != nullptr) text += data->pMessage;
  static_cast<ValidationLog*>(user)->record(std::move(text));
  return VK_FALSE;  // never abort the call: the error surfaces at the next sync point
}

}  // namespace

VkDebugUtilsMessengerCreateInfoEXT messenger_create_info(ValidationLog* log) {
  VkDebugUtilsMessengerCreateInfoEXT info{};
  info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  info.pfnUserCallback = on_message;
  info.pUserData = log;
  return info;
}

}  // namespace sprig::vk
