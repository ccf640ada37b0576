// A proof-of-space plot at K = 15 (the smallest K of the pos tests) and the verification of
// its first proofs, on every device profile against the CPU reference (tests/pos/reference);
// a Subspace plot on every profile, and the error that names the shared memory the matching
// needs where a device has less.
#include "device_profiles.hpp"
#include "pos_device_test_support.hpp"
#include "pos_reference.hpp"
#include "sprig/stdlib/pos/pos.hpp"
#include "sprig/stdlib/pos/verify.hpp"

using Catch::Matchers::Contains;
using profiles_test::DeviceProfile;
using profiles_test::on_every_profile;

TEST_CASE("a K = 15 plot equals the reference and its proofs verify on every profile", "[pos]") {
  constexpr int k = 15;
  const pos_ref::Seed seed = pos_device_test::seed_of(7);
  const pos_ref::PosProofs expected = pos_ref::create_proofs(pos_ref::build_tables(seed, k, pos_ref::Mode::Abundance));
  const std::size_t checked = std::min<std::size_t>(expected.count(), 8);
  const std::vector<std::uint32_t> challenges(expected.s_buckets.begin(),
                                              expected.s_buckets.begin() + std::ptrdiff_t(checked));
  const std::vector<std::uint8_t> proofs(expected.proofs.begin(),
                                         expected.proofs.begin() + std::ptrdiff_t(checked * pos_ref::proof_bytes(k)));
  on_every_profile([&](const DeviceProfile&, sprig::Device& dev) {
    sprig::pos::Plotter plotter(dev, k);
    pos_device_test::require_same_proofs(plotter.plot(pos_device_test::device_seed(seed)), expected);
    sprig::pos::Verifier verifier(dev, k);
    REQUIRE(verifier.verify(pos_device_test::device_seed(seed), challenges, proofs) ==
            std::vector<std::uint8_t>(checked, 1));
  });
}

TEST_CASE("a K = 15 Subspace plot equals the reference on every profile", "[pos]") {
  constexpr int k = 15;
  const pos_ref::Seed seed = pos_device_test::seed_of(8);
  const pos_ref::PosProofs expected = pos_ref::create_proofs(pos_ref::build_tables(seed, k, pos_ref::Mode::Subspace));
  on_every_profile([&](const DeviceProfile&, sprig::Device& dev) {
    sprig::pos::Plotter plotter(dev, k, sprig::pos::Mode::Subspace);
    pos_device_test::require_same_proofs(plotter.plot(pos_device_test::device_seed(seed)), expected);
  });
}

// Below Vulkan's guaranteed 16 KiB the matching's buckets do not fit: the plotter says so
// before any launch.
TEST_CASE("plotting refuses a device whose shared memory cannot hold the matching's buckets", "[pos]") {
  sprig::sim::Options options;
  options.max_shared_memory = 8 * profiles_test::KiB;
  sprig::sim::Device dev(options);
  for (sprig::pos::Mode mode : {sprig::pos::Mode::Abundance, sprig::pos::Mode::Subspace})
    REQUIRE_THROWS_WITH(sprig::pos::Plotter(dev, 15, mode),
                        Contains(std::string(sprig::pos::mode_name(mode)) + " plotting matches buckets in") &&
                            Contains("bytes of shared memory") && Contains("has 8192"));
}
