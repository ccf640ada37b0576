// sprig::sim::Device: the typed host API over the simulator backend.
#include <cstdlib>
#include <string_view>

#include "sim_backend.hpp"
#include "sprig/simulator/device.hpp"

namespace sprig::sim {

bool Options::strict_by_default() {
  const char* v = std::getenv("SPRIG_SIM_STRICT");
  return v && *v && std::string_view(v) != "0";
}

Device::Device(Options options) : Device(std::make_shared<Backend>(options)) {}

Device::Device(std::shared_ptr<Backend> backend) : sprig::Device(backend), sim_(std::move(backend)) {}

const Options& Device::options() const { return sim_->options(); }
Report Device::report() const { return sim_->report(); }
void Device::clear_report() { sim_->clear_report(); }
void Device::add_observer(std::shared_ptr<Observer> observer) { sim_->add_observer(std::move(observer)); }
ThreadStats Device::thread_stats() const { return sim_->thread_stats(); }

}  // namespace sprig::sim
