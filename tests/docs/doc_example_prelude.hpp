// What every C++ example extracted from the documentation (cmake/extract_doc_examples.cmake)
// sees without saying so: sprig with its standard library, the standard headers examples
// use, Catch2 for the checks of the examples that run, and the suite's backends
// (sprig::test::device(SPRIG_BACKEND) runs an example on Vulkan and on the simulator).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <ranges>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <sprig/sprig.hpp>
#include <sprig/stdlib/stdlib.hpp>

#include "backends.hpp"
