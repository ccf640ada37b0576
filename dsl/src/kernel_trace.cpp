// The lambda-independent steps of sprig::kernel (kernel.hpp).
#include "sprig/dsl/kernel.hpp"

namespace sprig::detail {

KernelTrace begin_kernel(std::string name, const KernelOptions& options, std::size_t params,
                         const std::source_location& loc) {
  KernelTrace trace{std::make_shared<ir::Kernel>(), {}, std::chrono::steady_clock::now()};
  ir::Kernel& k = *trace.kernel;
  k.name = std::move(name);
  k.workgroup_size = options.workgroup_size;
  k.features.required_subgroup_size = options.subgroup_size;
  k.precise_floats = resolve_precise_floats(options.precise_floats);
  k.prints_on = resolve_device_prints(options.device_prints);
  k.loc = loc;
  trace.names = param_names(k.name, options.param_names, params, k.loc);
  return trace;
}

std::shared_ptr<const ir::Kernel> end_kernel(KernelTrace& trace) {
  finish_kernel(*trace.kernel);
  trace.kernel->trace_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - trace.start).count();
  return std::move(trace.kernel);
}

}  // namespace sprig::detail
