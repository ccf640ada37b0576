// Stream pipelines: compose map/filter/... over any C++ range and run them fused and
// chunked on a device (Vulkan or the simulator). docs/pipelines.md describes the design.
//
//   auto out = values | gpu::map([](UInt v) { return v * v; })
//                     | gpu::filter([](UInt v) { return v % 3u == 0u; })
//                     | gpu::collect(device);
#pragma once

#include "sprig/stdlib/pipeline/device_pipeline.hpp"
#include "sprig/stdlib/pipeline/host_pipeline.hpp"
#include "sprig/stdlib/pipeline/multi_device.hpp"
#include "sprig/stdlib/pipeline/options.hpp"
#include "sprig/stdlib/pipeline/pipe.hpp"
#include "sprig/stdlib/pipeline/stages.hpp"
#include "sprig/stdlib/pipeline/terminals.hpp"
