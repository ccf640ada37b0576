// Validation-layer messages: collected by a VK_EXT_debug_utils messenger and turned into
// DeviceErrors at the next synchronisation point (submit, wait, write, read).
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <volk.h>

namespace sprig::vk {

struct Options;

// Whether the user asked for the validation layer (Options or SPRIG_VALIDATION=1).
bool validation_requested(const Options& options);

// Thread-safe record of warning and error messages.
class ValidationLog {
 public:
  void record(std::string message);
  // All messages since the last take() (also those already thrown), and clears them.
  std::vector<std::string> take();
  // Throws DeviceError listing the messages not yet thrown, prefixed by `during`
  // (e.g. "submit"). Each message is thrown once but stays available to take().
  void throw_if_new(std::string_view during);
  // Messages nobody has seen; written to stderr when the instance dies.
  std::vector<std::string> unreported() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> messages_;
  std::size_t reported_ = 0;  // messages_[0, reported_) were already thrown
};

// Messenger create info that forwards warnings and errors to `log` (INFO and VERBOSE are
// dropped: lavapipe reports benign INFO messages under the layer).
VkDebugUtilsMessengerCreateInfoEXT messenger_create_info(ValidationLog* log);

}  // namespace sprig::vk
