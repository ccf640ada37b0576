// Several observers attached to one device, seen by the interpreter as one.
#pragma once

#include <memory>
#include <vector>

#include "sprig/simulator/observer.hpp"

namespace sprig::sim {

class ObserverFanout final : public Observer {
 public:
  explicit ObserverFanout(std::vector<std::shared_ptr<Observer>> observers) : observers_(std::move(observers)) {}
  void launch_begin(const ir::Kernel& k, std::array<std::uint32_t, 3> groups, std::uint32_t width) override {
    for (auto& o : observers_) o->launch_begin(k, groups, width);
  }
  void memory(const MemoryAccess& a) override {
    for (auto& o : observers_) o->memory(a);
  }
  void control(const ControlEvent& e) override {
    for (auto& o : observers_) o->control(e);
  }
  void barrier(const BarrierEvent& e) override {
    for (auto& o : observers_) o->barrier(e);
  }
  void launch_end() override {
    for (auto& o : observers_) o->launch_end();
  }

 private:
  std::vector<std::shared_ptr<Observer>> observers_;
};

}  // namespace sprig::sim
