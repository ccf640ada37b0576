#include "devices.hpp"

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <sprig/runtime/out_of_memory.hpp>
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

namespace {

// This process's rank among the ranks of its host, when a launcher started it as one
// (Open MPI's mpirun, Slurm's srun).
std::optional<unsigned long> local_rank() {
  for (const char* variable : {"OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID"})
    if (const char* value = std::getenv(variable)) return std::strtoul(value, nullptr, 10);
  return std::nullopt;
}

// Without --devices or SPRIG_DEVICE, the ranks of one host share its devices of the best
// kind, one each in turn by local rank, so that `mpirun -n GPUS` puts one rank on each GPU.
// Empty where that is not the case: the best device, as outside mpirun.
std::string device_of_local_rank(DeviceKind kind) {
  const std::optional<unsigned long> rank = local_rank();
  if (kind != DeviceKind::Vulkan || !rank || std::getenv("SPRIG_DEVICE")) return "";
  const std::vector<sprig::DeviceInfo> infos = sprig::vk::list_devices();
  for (sprig::DeviceKind best : {sprig::DeviceKind::Discrete, sprig::DeviceKind::Integrated,
                                 sprig::DeviceKind::Virtual, sprig::DeviceKind::Cpu}) {
    std::vector<std::size_t> of_kind;
    for (std::size_t i = 0; i < infos.size(); ++i)
      if (infos[i].kind == best) of_kind.push_back(i);
    if (!of_kind.empty()) return std::to_string(of_kind[*rank % of_kind.size()]);
  }
  return "";
}

std::vector<std::unique_ptr<sprig::Device>> open_listed_devices(DeviceKind kind, std::string list) {
  std::vector<std::unique_ptr<sprig::Device>> devices;
  if (list.empty()) list = device_of_local_rank(kind);
  if (list.empty()) {
    devices.push_back(open_device(kind));
    return devices;
  }
  std::vector<sprig::vk::Device> opened;
  try {
    opened = sprig::vk::Device::open_all(list);
  } catch (const sprig::DeviceError& e) {
    std::string message = e.what();
    // A list that names no device is the user's mistake; a device that fails to open is not.
    if (message.find("device list") != std::string::npos) throw UsageError(std::string("--devices: ") + e.what());
    throw;
  }
  for (auto& device : opened) devices.push_back(std::make_unique<sprig::vk::Device>(std::move(device)));
  return devices;
}

}  // namespace

std::vector<std::unique_ptr<sprig::Device>> open_devices(DeviceKind kind, const std::string& list,
                                                         std::uint64_t memory_budget) {
  std::vector<std::unique_ptr<sprig::Device>> devices = open_listed_devices(kind, list);
  for (auto& device : devices) device->set_memory_budget(memory_budget);
  return devices;
}

std::string device_label(const sprig::Device& device, std::size_t index, std::size_t devices) {
  if (devices == 1) return device.info().name;
  return "device " + std::to_string(index) + " (" + device.info().name + ")";
}

std::string disk_cache_summary(sprig::Device& device) {
  if (device.info().backend != "vulkan") return "";
  // open_device made it, so a Vulkan device is a vk::Device.
  std::vector<sprig::vk::KernelTimes> times = static_cast<sprig::vk::Device&>(device).kernel_times();
  std::size_t from_disk = 0;
  double spirv_ms = 0, pipeline_ms = 0;
  for (const auto& t : times) {
    from_disk += t.spirv_from_disk;
    spirv_ms += t.emit_ms;
    pipeline_ms += t.pipeline_ms;
  }
  char text[160];
  std::snprintf(text, sizeof text, "%zu of %zu kernels' SPIR-V from the disk cache (SPIR-V %.3f s, pipelines %.3f s)",
                from_disk, times.size(), spirv_ms / 1e3, pipeline_ms / 1e3);
  return text;
}

namespace {

// After the memory ran out: one plotter fewer than fit leaves room for what the sequences
// allocate as they run (transients, staging), rather than failing on it later.
void shed_one_for_headroom(std::vector<std::unique_ptr<sprig::pos::Plotter>>& plotters) {
  if (plotters.size() > 1) plotters.pop_back();
}

// What one more plotter needs: its own buffers and, where its records are interleaved with
// others' in one sequence (`bench`), one more record's transients in the shared workspace.
std::uint64_t running_bytes(const sprig::pos::Plotter& plotter, Records records) {
  return plotter.device_bytes() - (records == Records::Separate ? plotter.record_scratch_bytes() : 0);
}

// Asked before making another plotter rather than after: NVIDIA's driver lets device-local
// allocations pass the heap without an error and pages memory out to host RAM, and after the
// extra plotter is gone what it pushed out stays slow (Subspace K = 25 on an H100: 3.07
// records/s with six plotters kept after an eighth had spilled, 3.63 with six alone).
bool room_for_another(sprig::Device& device, const sprig::pos::Plotter& plotter, Records records) {
  std::optional<std::uint64_t> room = device.memory_usage().device_local_room();
  return !room || *room >= running_bytes(plotter, records);
}

std::string mib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f MiB", double(bytes) / (1 << 20));
  return text;
}

void warn_spilled(sprig::Device& device, int k, std::size_t plotters) {
  std::fprintf(stderr,
               "sprig-plot: warning: %s's own memory cannot hold %zu K = %d %s: %.0f MiB of buffers went to host "
               "memory, and plotting will be many times slower\n",
               device.info().name.c_str(), plotters, k, plotters == 1 ? "plotter" : "plotters",
               double(device.memory_usage().spilled_bytes) / (1 << 20));
}

// Under a budget too small for one record's transients: one plotter whose record keeps in
// device memory what the budget leaves after what sprig already holds there, and spills
// the rest of its transients to host memory (docs/memory.md). Throws MemoryBudgetExceeded
// if even the buffers the plotter keeps do not fit.
std::unique_ptr<sprig::pos::Plotter> spilling_plotter(sprig::Device& device, int k, sprig::pos::Mode mode,
                                                      sprig::pos::PlotterOptions options) {
  const sprig::MemoryUsage usage = device.memory_usage();
  options.memory_budget = usage.budget_bytes > usage.in_use_bytes ? usage.budget_bytes - usage.in_use_bytes : 1;
  auto plotter = std::make_unique<sprig::pos::Plotter>(device, k, mode, options);
  const sprig::MemoryPlan& plan = plotter->record_plan();
  std::fprintf(stderr,
               "%s: one K = %d record needs more than --memory-budget leaves (%s): %s of its temporaries go to host "
               "memory, which the GPU reaches over the bus, and plotting will be slower; one record in flight\n",
               device.info().name.c_str(), k, mib(options.memory_budget).c_str(), mib(plan.host_scratch_bytes).c_str());
  return plotter;
}

}  // namespace

std::uint32_t plot_in_flight(const sprig::DeviceInfo& device) {
  const bool gpu = device.kind == sprig::DeviceKind::Discrete || device.kind == sprig::DeviceKind::Integrated ||
                   device.kind == sprig::DeviceKind::Virtual;
  return gpu ? 8 : 2;
}

std::vector<std::unique_ptr<sprig::pos::Plotter>> make_plotters(sprig::Device& device, int k, sprig::pos::Mode mode,
                                                                std::uint32_t count, bool as_many_as_fit,
                                                                Records records) {
  std::vector<std::unique_ptr<sprig::pos::Plotter>> plotters;
  sprig::pos::PlotterOptions options;  // one workspace: the device's records share their scratch
  auto too_small = [&](const std::string& why) {
    return UsageError("device too small: the buffers of " + std::to_string(plotters.size() + 1) +
                      (plotters.empty() ? " plotter" : " plotters") + " for K = " + std::to_string(k) +
                      " do not fit in " + device.info().name + "'s memory" + why);
  };
  const std::uint64_t spilled_before = device.memory_usage().spilled_bytes;
  bool warned = false;
  std::string stopped_by;  // why fewer than `count` fit, when as_many_as_fit
  try {
    while (plotters.size() < count) {
      if (as_many_as_fit && !plotters.empty() && !room_for_another(device, *plotters[0], records)) {
        stopped_by = "its device memory has room for " + std::to_string(plotters.size()) + " (up to " +
                     mib(running_bytes(*plotters[0], records)) + " each, " + mib(*device.memory_usage().device_local_room()) +
                     " left)";
        break;
      }
      auto plotter = std::make_unique<sprig::pos::Plotter>(device, k, mode, options);
      if (records == Records::Interleaved)
        options.workspace.reserve(device.backend(), (plotters.size() + 1) * plotter->record_scratch_bytes());
      plotters.push_back(std::move(plotter));
      if (device.memory_usage().spilled_bytes == spilled_before) continue;
      // Its buffers went to host memory: it would run, but slow every record down.
      if (plotters.size() > 1 && as_many_as_fit) {
        plotters.pop_back();
        stopped_by = "plotter " + std::to_string(plotters.size() + 1) + "'s buffers spilled to host memory";
        break;
      }
      if (!warned) warn_spilled(device, k, plotters.size());
      warned = true;
    }
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  } catch (const sprig::MemoryBudgetExceeded& e) {
    if (plotters.empty() && (as_many_as_fit || count == 1)) {
      try {
        plotters.push_back(spilling_plotter(device, k, mode, options));
      } catch (const sprig::MemoryBudgetExceeded& kept) {
        throw too_small(std::string(" under --memory-budget, even with a record's temporaries in host memory: ") +
                        kept.what());
      }
    } else if (plotters.empty() || !as_many_as_fit) {
      throw too_small(std::string(" under --memory-budget: ") + e.what());
    } else {
      stopped_by = "the memory budget has room for " + std::to_string(plotters.size());
    }
  } catch (const sprig::OutOfDeviceMemory& e) {
    if (plotters.empty() || !as_many_as_fit) throw too_small(std::string(": ") + e.what());
    stopped_by = "the device ran out of memory after " + std::to_string(plotters.size());
  }
  if (!stopped_by.empty()) {
    const std::size_t fit = plotters.size();
    shed_one_for_headroom(plotters);
    std::fprintf(stderr, "%s: only %zu of %u records in flight fit: %s; keeping %zu\n", device.info().name.c_str(),
                 fit, count, stopped_by.c_str(), plotters.size());
  }
  return plotters;
}

}  // namespace sprig_plot
