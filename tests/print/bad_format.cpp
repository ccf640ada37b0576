// Compiled by the bad-format tests (tests/print/CMakeLists.txt) with one BAD_FORMAT case
// defined: each must fail to compile, naming its problem; case 0 must compile.
#include "sprig/dsl.hpp"

using namespace sprig;

namespace {

struct Pair {
  std::uint32_t a, b;
};
SPRIG_STRUCT(Pair, a, b)

[[maybe_unused]] void trace() {
  (void)kernel("bad_format", [](ReadBuffer<Pair> pairs) {
    UInt i = global_id().x();
    Float f = 1.0f;
    (void)f;
    (void)pairs;
#if BAD_FORMAT == 0
    device_print("{} {:x} {}", i, i, f);
#elif BAD_FORMAT == 1
    device_print("{} {}", i);
#elif BAD_FORMAT == 2
    device_print("{}", i, i);
#elif BAD_FORMAT == 3
    device_print("{:x}", f);
#elif BAD_FORMAT == 4
    device_print("{0}", i);
#elif BAD_FORMAT == 5
    device_print("} {}", i);
#elif BAD_FORMAT == 6
    device_print("{}", pairs[i]);
#endif
  });
}

}  // namespace
