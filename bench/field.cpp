// What the field library's shape costs: a kernel doing 16 multiplications (or 16
// additions) of field elements, with each operation a call of one device function (a
// callable) or inlined, for a field of 8 limbs (BN254) and one of 12 (BLS12-381). Per
// variant: trace time, SPIR-V size, emit + spirv-val time, the driver's pipeline creation
// time, and the time of a launch on the device and on the simulator. docs/fields.md
// records the figures and the decision they support.
//
//   bench_field [--elements 65536] [--repeat 5]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <sprig/sprig.hpp>
#include <sprig/stdlib/field/field.hpp>

using namespace sprig;

namespace {

constexpr int operations = 16;

enum class Variant { CalledProduct, InlinedProduct, InlinedSum, CalledSum };

const char* variant_name(Variant v) {
  switch (v) {
    case Variant::CalledProduct: return "16 products, called";
    case Variant::InlinedProduct: return "16 products, inlined";
    case Variant::InlinedSum: return "16 sums, inlined";
    case Variant::CalledSum: return "16 sums, called";
  }
  return "";
}

// acc = acc op y, `operations` times in a chain, so nothing folds away.
template <class P>
auto chain_kernel(Variant variant) {
  using M = field::Montgomery<P>;
  using F = field::Fp<P>;
  return kernel("field_chain", [variant](ReadBuffer<M> a, ReadBuffer<M> b, WriteBuffer<M> out) {
    UInt i = global_id().x();
    if_(i < out.size(), [&] {
      F acc = a[i], y = b[i];
      for (int k = 0; k < operations; ++k) {
        switch (variant) {
          case Variant::CalledProduct: acc = acc * y; break;
          case Variant::InlinedProduct:
            acc = F::from_montgomery_words(field::detail::montgomery_product<P>(acc.montgomery_words(), y.montgomery_words()));
            break;
          case Variant::InlinedSum:
            acc = F::from_montgomery_words(field::detail::modular_sum<P>(acc.montgomery_words(), y.montgomery_words()));
            break;
          case Variant::CalledSum: acc = acc + y; break;
        }
      }
      out[i] = acc;
    });
  }, workgroup(64));
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

template <class P>
void bench_field(vk::Device& gpu, sim::Device& simulator, std::size_t elements, int repeat) {
  using M = field::Montgomery<P>;
  std::vector<M> host(elements);
  for (std::size_t i = 0; i < elements; ++i) host[i] = field::to_montgomery(field::Canonical<P>::from_u64(i * 2654435761u + 1));
  auto gpu_a = gpu.upload(host), gpu_b = gpu.upload(host);
  auto gpu_out = gpu.alloc<M>(elements);
  std::size_t sim_elements = std::min<std::size_t>(elements, 4096);
  std::vector<M> sim_host(host.begin(), host.begin() + std::ptrdiff_t(sim_elements));
  auto sim_a = simulator.upload(sim_host), sim_b = simulator.upload(sim_host);
  auto sim_out = simulator.alloc<M>(sim_elements);

  for (Variant variant : {Variant::CalledProduct, Variant::InlinedProduct, Variant::CalledSum, Variant::InlinedSum}) {
    auto k = chain_kernel<P>(variant);
    double trace_ms = k.trace_ms();
    auto start = std::chrono::steady_clock::now();
    std::vector<std::uint32_t> words = compiler::compile(*k.ir());
    double compile_ms = ms_since(start);

    gpu.run(k, grid(elements), gpu_a, gpu_b, gpu_out);  // builds the pipeline
    double pipeline_ms = gpu.kernel_times(k.hash())->pipeline_ms;
    double gpu_ms = 1e30;
    for (int r = 0; r < repeat; ++r) {
      start = std::chrono::steady_clock::now();
      gpu.run(k, grid(elements), gpu_a, gpu_b, gpu_out);
      gpu_ms = std::min(gpu_ms, ms_since(start));
    }
    start = std::chrono::steady_clock::now();
    simulator.run(k, grid(sim_elements), sim_a, sim_b, sim_out);
    double sim_ms = ms_since(start);

    std::printf("| %s | %s | %.1f | %zu | %.1f | %.1f | %.2f | %.1f |\n", std::string(P::name).c_str(),
                variant_name(variant), trace_ms, words.size() * 4, compile_ms, pipeline_ms, gpu_ms, sim_ms);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t elements = 65536;
  int repeat = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--elements") == 0) elements = std::strtoull(argv[i + 1], nullptr, 10);
    else if (std::strcmp(argv[i], "--repeat") == 0) repeat = std::atoi(argv[i + 1]);
  }
  vk::Device gpu = vk::Device::best();
  sim::Device simulator;
  // The first pipeline of a process pays the driver's own start-up: build one first.
  auto warm_up = kernel("warm_up", [](WriteBuffer<std::uint32_t> out) { out[global_id().x()] = 1u; }, workgroup(64));
  gpu.run(warm_up, grid(64), gpu.alloc<std::uint32_t>(64));
  std::printf("device: %s; %zu elements on the device, 4096 on the simulator\n\n", gpu.info().name.c_str(), elements);
  std::printf("| field | kernel | trace ms | SPIR-V bytes | emit + spirv-val ms | pipeline ms | launch ms | simulator ms |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
  bench_field<field::Bn254Base>(gpu, simulator, elements, repeat);
  bench_field<field::Bls12381Base>(gpu, simulator, elements, repeat);
}
