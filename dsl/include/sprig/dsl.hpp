// The whole kernel language: types, values, places, control flow, math, kernels, callables.
#pragma once

#include "sprig/dsl/bits.hpp"
#include "sprig/dsl/builtins.hpp"
#include "sprig/dsl/callable.hpp"
#include "sprig/dsl/cast.hpp"
#include "sprig/dsl/control.hpp"
#include "sprig/dsl/device_print.hpp"
#include "sprig/dsl/floor_division.hpp"
#include "sprig/dsl/kernel.hpp"
#include "sprig/dsl/math.hpp"
#include "sprig/dsl/printer.hpp"
#include "sprig/dsl/atomics.hpp"
#include "sprig/dsl/barrier.hpp"
#include "sprig/dsl/shared.hpp"
#include "sprig/dsl/subgroup.hpp"
