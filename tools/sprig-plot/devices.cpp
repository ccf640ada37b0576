#include "devices.hpp"

#include <new>
#include <stdexcept>
#include <string>

#include <sprig/sprig.hpp>

namespace sprig_plot {

std::unique_ptr<sprig::Device> open_device(DeviceKind kind) {
  if (kind == DeviceKind::Simulator) {
    sprig::sim::Options options;
    options.analyses = sprig::sim::AnalysisOptions::none();
    return std::make_unique<sprig::sim::Device>(options);
  }
  return std::make_unique<sprig::vk::Device>(sprig::vk::Device::best());
}

std::unique_ptr<sprig::pos::Plotter> make_plotter(sprig::Device& device, int k, sprig::pos::Mode mode) {
  try {
    return std::make_unique<sprig::pos::Plotter>(device, k, mode);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  } catch (const std::bad_alloc&) {
    throw UsageError("device too small: the plotter's buffers for K = " + std::to_string(k) + " do not fit in " +
                     device.info().name + "'s memory");
  }
}

}  // namespace sprig_plot
