// sprig: kernels as C++ lambdas, run through Vulkan or on the SIMT simulator.
// One include for users: the language, the host API and both backends.
#pragma once

#include "sprig/compiler/compile.hpp"
#include "sprig/dsl.hpp"
#include "sprig/runtime/device.hpp"
#include "sprig/runtime/vulkan.hpp"
#include "sprig/simulator/device.hpp"
#include "sprig/simulator/report_formats.hpp"
