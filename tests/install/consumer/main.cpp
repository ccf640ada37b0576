// A user's program built against the installed sprig package.
#include <cstdio>
#include <vector>

#include <sprig/sprig.hpp>

int main() {
  using namespace sprig;
  auto square = kernel("square", [](ReadBuffer<std::int32_t> in, WriteBuffer<std::int32_t> out) {
    UInt i = global_id().x();
    if_(i < in.size(), [&] { out[i] = in[i] * in[i]; });
  });
  sim::Device cpu;
  std::vector<std::int32_t> values{1, -2, 3};
  auto in = cpu.upload(values);
  auto out = cpu.alloc<std::int32_t>(values.size());
  cpu.run(square, grid(values.size()), in, out);
  std::vector<std::int32_t> squares = cpu.download(out);
  std::printf("%d %d %d\n", squares[0], squares[1], squares[2]);
  return squares == std::vector<std::int32_t>{1, 4, 9} ? 0 : 1;
}
