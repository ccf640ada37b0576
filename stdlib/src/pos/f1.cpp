#include "sprig/stdlib/pos/f1.hpp"

namespace sprig::pos {

hash::ChachaStream f1_stream(const Seed& seed) {
  hash::ChachaStream s;
  auto words = hash::pack_bytes(seed);
  for (std::size_t i = 0; i < 8; ++i) s.key[i] = words[i];
  s.layout = hash::ChachaLayout::Ietf;
  s.rounds = 8;
  return s;
}

std::size_t f1_keystream_words(int k) { return ((std::size_t(k) << k) + 31) / 32 + 1; }

}  // namespace sprig::pos

namespace sprig::pos::detail {

const F1Kernel& f1_kernel(int k, std::uint32_t invocations) {
  std::string name = "pos_f1";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> keystream, WriteBuffer<std::uint32_t> ys) {
          UInt x = global_id().x();
          if_(x < (1u << k), [&] { store_y(ys, x, k, f1_y(keystream, x, k)); });
        },
        workgroup(invocations));
  };
  const std::string key = name + "/k" + std::to_string(k) + "/" + std::to_string(invocations);
  return sprig::detail::cached_kernel<F1Kernel>(key, trace);
}

}  // namespace sprig::pos::detail
