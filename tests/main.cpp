// The one Catch2 main shared by every test executable.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <cstdlib>

namespace {

// Tests start from a cold pipeline cache, so that every run emits (and spirv-val checks)
// the SPIR-V it uses; the tests of the disk cache name their own directories. Setting
// SPRIG_CACHE_DIR before running the tests overrides this.
const bool disk_cache_off_by_default = [] { return ::setenv("SPRIG_CACHE_DIR", "off", 0) == 0; }();

}  // namespace
