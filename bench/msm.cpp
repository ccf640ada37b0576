// Multi-scalar multiplication (curve::msm) over BN254 G1 (or BLS12-381 G1) for n = 2^min-log
// .. 2^max-log points: per n the median wall time of several runs, points per second, the
// plan (window size, batches, temporaries' bytes), and the field products per second the
// MSM achieves against two throughput kernels measured in the same run — chains of field
// products (the bound for the MSM's arithmetic) and chains of 32-bit integer multiplies
// (what the products are made of). docs/msm.md records the figures.
//
//   bench_msm [--min-log 10] [--max-log 16] [--repeat 5] [--budget-mib 0] [--run-length 64]
//             [--accumulation-workgroup 512] [--segment-length 32] [--limbs 32|64|29]
//             [--curve bn254|bls12_381] [--batch-windows N] [--window-bits C] [--table] [--msms K]
//             [--workspace] [--endomorphism auto|on|off]
//   --table: the MSMs run over a table of the points' window multiples (curve::msm_table),
//   built before the timing; its build time and bytes are printed beside the table.
//   --msms K: each call is msm_batch() of K scalar vectors over the same points (points/s
//   counts every vector's points).
//   --workspace: every call places its temporaries in one kept Workspace (MsmOptions::
//   workspace), so the timed calls allocate only their results.
//   --endomorphism: whether scalars are split by the curve's endomorphism (MsmOptions::
//   endomorphism; auto: where the library's rule says); each split size's sum is checked
//   against the unsplit MSM's.
//   bench_msm --plan 17     the memory plan at 2^17 points, without running anything
//   bench_msm --profile 20  where one MSM of 2^20 points spends its GPU time, by kernel
//                           (SPRIG_PROFILE=1 adds each kernel's registers and spills)
//
// Times are wall-clock from the call of msm() to its return: planning, allocating the
// temporaries, one submission of every batch of windows and its wait, converting the sum to
// affine coordinates and downloading it. Points and scalars are on the device before. The
// first call of the run (the drivers compile the kernels then) is shown apart; on a GPU a
// second of untimed calls follows it.
#include <algorithm>
#include <chrono>
#include <optional>
#include <span>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <random>
#include <vector>

#include <sprig/sprig.hpp>
#include <sprig/stdlib/curve/curve.hpp>
#include <sprig/stdlib/curve/msm.hpp>

#include "curve_points.hpp"
#include "stdlib_bench.hpp"

using namespace sprig;
using stdlib_bench::time_ms;

namespace {

// Field products per operation, squarings counted as products (docs/curves.md).
constexpr double mixed_addition_products = 10, addition_products = 14, doubling_products = 9;

// Each invocation runs 4 independent chains of `iterations` Montgomery products of field P
// (or squarings: x -> x^2), on the limbs the thread traces with (field/product_limbs.hpp).
constexpr std::uint32_t chain_iterations = 64;
template <class P, bool squares = false>
const auto& field_product_kernel() {
  using M = field::Montgomery<P>;
  using F = field::Fp<P>;
  auto trace = [] {
    return kernel("bench_" + std::string(P::name) + "_product_chains", [](ReadBuffer<M> seeds, WriteBuffer<M> out) {
      UInt i = global_id().x();
      F factor = seeds[i % seeds.size()];
      std::vector<Var<M>> chains;
      for (std::uint32_t c = 0; c < 4; ++c) chains.emplace_back(Expr<M>(seeds[(i + c + 1u) % seeds.size()]));
      for_(0u, chain_iterations, [&](UInt) {
        for (auto& c : chains) c = squares ? F(c.load()).square() : F(c.load()) * factor;
      });
      out[i] = F(chains[0].load()) + F(chains[1].load()) + F(chains[2].load()) + F(chains[3].load());
    }, workgroup(64));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(
      "bench/msm_field_products/" + std::string(P::name) + (squares ? "/squares" : "") +
          field::detail::product_limbs_key(),
      trace);
}

// Each invocation runs 4 independent chains of `iterations` 32 x 32 -> 64-bit products
// (the low and the high word: two multiplies each), as a Montgomery product's limbs take them.
const auto& integer_multiply_kernel() {
  auto trace = [] {
    return kernel("bench_u32_multiply_chains", [](WriteBuffer<std::uint32_t> out, UInt seed) {
      UInt i = global_id().x();
      std::vector<Var<std::uint32_t>> low, high;
      for (std::uint32_t c = 0; c < 4; ++c) {
        low.emplace_back(i * 0x9e3779b9u + seed + c);
        high.emplace_back(i ^ (seed * (c + 7u)));
      }
      UInt factor = (seed | 1u) * 0x2545f491u + i;
      for_(0u, chain_iterations * 4u, [&](UInt) {
        for (std::uint32_t c = 0; c < 4; ++c) {
          UInt l = low[c].load(), h = high[c].load();
          low[c] = l * factor + h;
          high[c] = mul_hi(l, factor) ^ h;
        }
      });
      out[i] = low[0] ^ low[1] ^ low[2] ^ low[3] ^ high[0] ^ high[1] ^ high[2] ^ high[3];
    }, workgroup(64));
  };
  return sprig::detail::cached_kernel<decltype(trace())>("bench/msm_u32_multiplies", trace);
}

// Products (or squarings) per ms of the chains with `limbs`, and their output (4 chains
// summed per invocation).
template <class P, bool squares = false>
std::pair<double, std::vector<field::Montgomery<P>>> field_products_per_ms(Device& device, std::size_t invocations,
                                                                          int repeat, field::ProductLimbs limbs) {
  using M = field::Montgomery<P>;
  std::vector<M> seeds(1024);
  for (std::size_t i = 0; i < seeds.size(); ++i)
    seeds[i] = field::to_montgomery(field::Canonical<P>::from_u64(i * 2654435761u + 7));
  auto seed_buffer = device.upload(seeds);
  auto out = device.alloc<M>(invocations);
  field::ProductLimbsScope scope(limbs);
  const auto& chains = field_product_kernel<P, squares>();
  double ms = time_ms(device, repeat, [&](Sequence& s) { s.run(chains, grid(invocations), seed_buffer, out); });
  return {double(invocations) * 4 * chain_iterations / ms, device.download(out)};
}

double integer_multiplies_per_ms(Device& device, std::size_t invocations, int repeat) {
  auto out = device.alloc<std::uint32_t>(invocations);
  double ms = time_ms(device, repeat,
                      [&](Sequence& s) { s.run(integer_multiply_kernel(), grid(invocations), out, 12345u); });
  return double(invocations) * 4 * chain_iterations * 4 * 2 / ms;  // mul and mul_hi
}

// Field products of one MSM, counted from the plan: every point once per window (mixed
// additions), two full additions and the doublings that scale S per bucket segment, the
// tree over each window's segments (three additions and a doubling a pair, two additions at
// the top) and Horner's doublings and additions. Zero digits and the runs' combination are
// not counted.
double msm_products(const curve::MsmPlan& plan) {
  // Over a table of window multiples, one set of buckets is reduced and there is no Horner.
  const double bucket_sets = plan.summed_windows();
  double w = plan.windows, n = double(plan.points) * plan.scalar_parts, buckets = plan.buckets, segments = plan.segments();
  double segment_bits = std::log2(double(plan.segment_length));
  double tree = segments * segment_bits * doubling_products;
  for (double pairs = segments / 2; pairs >= 1; pairs /= 2)
    tree += pairs * (pairs > 1 ? 3 * addition_products + doubling_products : 2 * addition_products);
  double horner = plan.fixed_base ? 0 : w * plan.window_bits * doubling_products + w * addition_products;
  return w * n * mixed_addition_products + bucket_sets * (2 * buckets * addition_products + tree) + horner;
}

template <class G1>
void print_plan(const Device& device, int log_n, const curve::MsmOptions& options) {
  curve::MsmPlan plan = curve::msm_plan<G1>(device, std::uint64_t(1) << log_n, options);
  std::printf("%s MSM of 2^%d points%s on %s: c = %u, %u windows of %u buckets, runs of %u in workgroups of %u, "
              "segments of %u, %u windows of %llu points per batch, %u batches\n\n| buffer | bytes |\n| --- | --- |\n",
              std::string(G1::name).c_str(), log_n, plan.scalar_parts == 2 ? " (scalars split)" : "",
              device.name().c_str(), plan.window_bits, plan.windows, plan.buckets,
              plan.run_length, plan.accumulation_workgroup, plan.segment_length, plan.windows_per_batch,
              static_cast<unsigned long long>(plan.points_per_batch), plan.batches);
  for (const curve::MsmBuffer& b : plan.buffers)
    std::printf("| %s | %llu |\n", b.name.c_str(), static_cast<unsigned long long>(b.bytes));
  std::printf("| total | %llu |\n", static_cast<unsigned long long>(plan.peak_bytes()));
}

// Points (i + 1) G for i < n, made in launches of 2^20, and scalars below 2^252.
template <class G1>
std::pair<DeviceBuffer<curve::Affine<G1>>, DeviceBuffer<curve::MsmScalar<G1>>> bench_inputs(vk::Device& gpu,
                                                                                         std::size_t n) {
  auto points = curve_bench::multiples_of_generator<G1>(gpu, n);
  std::mt19937 random(7);
  std::vector<curve::MsmScalar<G1>> scalars(n);
  for (auto& k : scalars) {
    for (auto& limb : k.limbs) limb = random();
    k.limbs[7] &= 0x0fffffffu;
  }
  return {std::move(points), gpu.upload(scalars)};
}

// One MSM recorded as msm() records it, but in a sequence of our own, so that its timestamp
// queries say which kernels the GPU time goes to. Before it, calls for at least a second:
// the first builds the kernels, the rest give the GPU time to raise its clocks (a GPU
// profiled cold measured the accumulation 4.6 times as long).
template <class G1>
void profile(vk::Device& gpu, int log_n, const curve::MsmOptions& options, bool table) {
  const std::size_t n = std::size_t(1) << log_n;
  auto [inputs, scalars] = bench_inputs<G1>(gpu, n);
  std::optional<curve::MsmTable<G1>> multiples;
  if (table) multiples = curve::msm_table<G1>(gpu, inputs, {options.window_bits, options.product_limbs});
  auto run = [&] {
    return multiples ? curve::msm<G1>(gpu, *multiples, scalars, options) : curve::msm<G1>(gpu, inputs, scalars, options);
  };
  run();
  for (const auto warm_from = std::chrono::steady_clock::now();
       std::chrono::steady_clock::now() - warm_from < std::chrono::seconds(1);)
    run();
  curve::MsmPlan plan =
      multiples ? curve::msm_plan<G1>(gpu, *multiples, options) : curve::msm_plan<G1>(gpu, n, options);
  std::span<const DeviceBuffer<curve::Affine<G1>>> points =
      multiples ? std::span(multiples->parts) : std::span(&inputs, 1);
  field::ProductLimbsScope limbs(
      field::product_limbs_for(gpu.info(), field::FieldConstants<typename G1::Base>::limbs, options.product_limbs));
  curve::detail::MsmResultBuffers<G1> kept(gpu, plan);
  Sequence sequence = gpu.sequence();
  curve::detail::record_msms<G1>(gpu, sequence, plan, kept, points, scalars, 1);
  const auto start = std::chrono::steady_clock::now();
  sequence.run_and_wait();
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  struct Total {
    double ms = 0;
    int launches = 0;
    std::string statistics;
  };
  std::map<std::string, Total> by_kernel;
  double gpu_ms = 0;
  for (const LaunchTiming& t : sequence.timings()) {
    Total& total = by_kernel[t.kernel];
    total.ms += t.gpu_ms;
    ++total.launches;
    if (t.statistics && t.statistics->available()) total.statistics = t.statistics->text();
    gpu_ms += t.gpu_ms;
  }
  std::printf("%s MSM of 2^%d points%s on %s: c = %u, %u batches; submitted and waited %.2f ms, launches %.2f ms\n\n"
              "| kernel | launches | ms | share | driver statistics |\n| --- | --- | --- | --- | --- |\n",
              std::string(G1::name).c_str(), log_n, plan.scalar_parts == 2 ? " (scalars split)" : "",
              gpu.name().c_str(), plan.window_bits, plan.batches, wall_ms, gpu_ms);
  for (const auto& [name, total] : by_kernel)
    std::printf("| %s | %d | %.3f | %.1f%% | %s |\n", name.c_str(), total.launches, total.ms,
                100 * total.ms / gpu_ms, total.statistics.c_str());
  std::printf("\n%s", sequence.profile().text().c_str());
}

template <class G1>
void bench(vk::Device& gpu, int min_log, int max_log, int repeat, const curve::MsmOptions& options, bool table,
           std::uint32_t msms) {
  const bool cpu = gpu.info().type == "cpu";
  std::printf("%s MSM on %s (%s), median of %d runs", std::string(G1::name).c_str(), gpu.name().c_str(),
              gpu.info().backend.c_str(), repeat);
  if (msms > 1) std::printf(", %u scalar vectors a call (msm_batch)", msms);
  std::printf("\n");

  const std::size_t throughput_invocations = cpu ? (1u << 14) : (1u << 22);
  using Base = typename G1::Base;
  const auto [products_per_ms, narrow] =
      field_products_per_ms<Base>(gpu, throughput_invocations, 3, field::ProductLimbs::Bits32);
  const double multiplies_per_ms = integer_multiplies_per_ms(gpu, throughput_invocations, 3);
  // Where the device has Int64: the same chains on 64-bit limbs, and on 29-bit limbs in
  // 64-bit sums.
  double wide_products_per_ms = 0, unsaturated_products_per_ms = 0, unsaturated_squares_per_ms = 0;
  if (gpu.info().supported.int64) {
    auto [per_ms, wide] = field_products_per_ms<Base>(gpu, throughput_invocations, 3, field::ProductLimbs::Bits64);
    if (wide != narrow) throw std::runtime_error("the 64-bit-limb product chains differ from the 32-bit ones");
    wide_products_per_ms = per_ms;
    auto [per_ms29, unsaturated] =
        field_products_per_ms<Base>(gpu, throughput_invocations, 3, field::ProductLimbs::Bits29);
    if (unsaturated != narrow) throw std::runtime_error("the 29-bit-limb product chains differ from the 32-bit ones");
    unsaturated_products_per_ms = per_ms29;
    // 29-bit limbs square with a function of their own; 32-bit limbs through the product.
    auto [squares_per_ms, squared] =
        field_products_per_ms<Base, true>(gpu, throughput_invocations, 3, field::ProductLimbs::Bits29);
    if (squared != field_products_per_ms<Base, true>(gpu, throughput_invocations, 1, field::ProductLimbs::Bits32).second)
      throw std::runtime_error("the 29-bit-limb squaring chains differ from the 32-bit ones");
    unsaturated_squares_per_ms = squares_per_ms;
  }
  std::printf("field products: %.4g /s; 32-bit multiplies (low and high words): %.4g /s; ratio %.0f\n",
              products_per_ms * 1e3, multiplies_per_ms * 1e3, multiplies_per_ms / products_per_ms);
  if (wide_products_per_ms > 0)
    std::printf("field products with 64-bit limbs (same results): %.4g /s, %.2fx the 32-bit limbs'\n"
                "field products with 29-bit limbs in 64-bit sums (same results): %.4g /s, %.2fx\n"
                "field squarings with 29-bit limbs (same results as 32-bit products): %.4g /s, %.2fx their "
                "products\n\n",
                wide_products_per_ms * 1e3, wide_products_per_ms / products_per_ms,
                unsaturated_products_per_ms * 1e3, unsaturated_products_per_ms / products_per_ms,
                unsaturated_squares_per_ms * 1e3, unsaturated_squares_per_ms / unsaturated_products_per_ms);
  else
    std::printf("no Int64 on this device: 64-bit and 29-bit limbs not measured\n\n");

  auto [points, all_scalars] = bench_inputs<G1>(gpu, std::size_t(1) << max_log);

  std::printf("| n | ms (median) | first call ms | points/s | c | batches | temporaries MiB | with inputs MiB | "
              "field products/s | of the product bound |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (int log_n = min_log; log_n <= max_log; ++log_n) {
    const std::size_t n = std::size_t(1) << log_n;
    // Views of the first n points and scalars would need buffer offsets: copy instead.
    auto p = gpu.alloc<curve::Affine<G1>>(n);
    auto k = gpu.alloc<curve::MsmScalar<G1>>(n);
    // msm_batch's vectors: vector v from scalar v n on (modulo the 2^max-log scalars).
    auto vectors = gpu.alloc<curve::MsmScalar<G1>>(msms > 1 ? n * msms : 1);
    {
      auto s = gpu.sequence();
      s.copy(points, 0, p, 0, n * sizeof(curve::Affine<G1>));
      s.copy(all_scalars, 0, k, 0, n * sizeof(curve::MsmScalar<G1>));
      for (std::uint32_t v = 0; msms > 1 && v < msms; ++v)
        s.copy(all_scalars, (v * n) % all_scalars.size() * sizeof(curve::MsmScalar<G1>), vectors,
               v * n * sizeof(curve::MsmScalar<G1>), n * sizeof(curve::MsmScalar<G1>));
      s.run_and_wait();
    }
    // With --table, the MSM runs over a table of the points' window multiples, built (and
    // timed, the second build) before; its bytes count with the inputs.
    std::optional<curve::MsmTable<G1>> multiples;
    double inputs_mib = double(n) * (sizeof(curve::Affine<G1>) + msms * sizeof(curve::MsmScalar<G1>)) / (1 << 20);
    if (table) {
      curve::msm_table<G1>(gpu, p, {options.window_bits, options.product_limbs});
      auto start = std::chrono::steady_clock::now();
      multiples = curve::msm_table<G1>(gpu, p, {options.window_bits, options.product_limbs});
      double build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      inputs_mib += double(multiples->bytes() - p.bytes()) / (1 << 20);
      std::printf("2^%d: a table of %u windows of %u bits in %zu parts, %.1f MiB, built in %.2f ms\n", log_n,
                  multiples->windows, multiples->window_bits, multiples->parts.size(),
                  double(multiples->bytes()) / (1 << 20), build_ms);
    }
    // The first vector's sum and the call's peak bytes.
    auto run = [&]() -> std::pair<curve::Affine<G1>, std::uint64_t> {
      if (msms > 1) {
        auto r = multiples ? curve::msm_batch<G1>(gpu, *multiples, vectors, options)
                           : curve::msm_batch<G1>(gpu, p, vectors, options);
        return {r.points[0], r.peak_device_bytes};
      }
      auto r = multiples ? curve::msm<G1>(gpu, *multiples, k, options) : curve::msm<G1>(gpu, p, k, options);
      return {r.point, r.peak_device_bytes};
    };
    curve::MsmPlan plan = multiples ? curve::msm_plan<G1>(gpu, *multiples, options, msms)
                                    : curve::msm_plan<G1>(gpu, n, options, msms);
    auto first_start = std::chrono::steady_clock::now();
    run();  // pipelines, first-touch allocations
    double first_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - first_start).count();
    // On a GPU, a second of calls before the timed ones: right after a process's first
    // compilation, an H200 ran 2^20 points at 45 ms for a while, against 9 ms warm.
    if (!cpu) {
      const auto warm_until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
      while (std::chrono::steady_clock::now() < warm_until) run();
    }
    std::vector<double> ms;
    std::uint64_t temporaries = 0;  // what the memory planner placed, with the kept results
    curve::Affine<G1> sum{};
    for (int r = 0; r < repeat; ++r) {
      auto start = std::chrono::steady_clock::now();
      auto result = run();
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      temporaries = result.second;
      sum = result.first;
    }
    // Under a budget, the sum must be the one without: say so beside the time.
    if (options.memory_budget != 0) {
      curve::MsmOptions unlimited = options;
      unlimited.memory_budget = 0;
      std::printf("2^%d under the budget: %s the sum without a budget\n", log_n,
                  curve::msm<G1>(gpu, p, k, unlimited).point == sum ? "the same as" : "DIFFERENT FROM");
    }
    if (multiples)
      std::printf("2^%d over the table: %s the plain MSM's sum\n", log_n,
                  curve::msm<G1>(gpu, p, k, options).point == sum ? "the same as" : "DIFFERENT FROM");
    if (plan.scalar_parts == 2) {
      curve::MsmOptions unsplit = options;
      unsplit.endomorphism = curve::Endomorphism::Off;
      std::printf("2^%d with split scalars (%u windows): %s the unsplit MSM's sum\n", log_n, plan.windows,
                  curve::msm<G1>(gpu, p, k, unsplit).point == sum ? "the same as" : "DIFFERENT FROM");
    }
    std::sort(ms.begin(), ms.end());
    double median = ms[ms.size() / 2];
    double temporaries_mib = double(temporaries) / (1 << 20);
    double products_per_s = msm_products(plan) * msms / median * 1e3;
    std::printf("| 2^%d | %.2f | %.0f | %.4g | %u | %u | %.2f | %.2f | %.4g | %.3f |\n", log_n, median, first_ms,
                double(n) * msms / median * 1e3, plan.window_bits, plan.batches, temporaries_mib, temporaries_mib + inputs_mib,
                products_per_s, products_per_s / (products_per_ms * 1e3));
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  vk::Device gpu = vk::Device::best();
  const bool cpu = gpu.info().type == "cpu";
  int min_log = 10, max_log = cpu ? 14 : 20, repeat = 5;
  std::uint64_t budget_mib = 0;
  std::uint32_t run_length = 0, accumulation_workgroup = 0, segment_length = 0, batch_windows = 0, window_bits = 0;
  int limbs = 0;  // 32 or 64; 0: the device's choice
  std::string curve_name = "bn254";
  int plan_log = 0, profile_log = 0;
  bool table = false, workspace = false;
  std::string endomorphism = "auto";
  std::uint32_t msms = 1;
  for (int i = 1; i < argc; i += 2) {
    // Flags without a value.
    bool* flag = !std::strcmp(argv[i], "--table")       ? &table
                 : !std::strcmp(argv[i], "--workspace") ? &workspace
                                                        : nullptr;
    if (flag) {
      *flag = true;
      --i;
      continue;
    }
    if (i + 1 == argc) break;
    if (!std::strcmp(argv[i], "--min-log")) min_log = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--max-log")) max_log = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--repeat")) repeat = std::max(1, std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--budget-mib")) budget_mib = std::strtoull(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--curve")) curve_name = argv[i + 1];
    else if (!std::strcmp(argv[i], "--plan")) plan_log = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--profile")) profile_log = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--run-length")) run_length = std::uint32_t(std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--accumulation-workgroup"))
      accumulation_workgroup = std::uint32_t(std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--segment-length")) segment_length = std::uint32_t(std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--limbs")) limbs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--batch-windows")) batch_windows = std::uint32_t(std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--window-bits")) window_bits = std::uint32_t(std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--endomorphism")) endomorphism = argv[i + 1];
    else if (!std::strcmp(argv[i], "--msms")) msms = std::uint32_t(std::max(1, std::atoi(argv[i + 1])));
  }
  curve::MsmOptions options{.memory_budget = budget_mib << 20, .run_length = run_length, .segment_length = segment_length};
  options.accumulation_workgroup = accumulation_workgroup;
  options.windows_per_batch = batch_windows;
  options.window_bits = window_bits;
  if (workspace) options.workspace = Workspace();
  if (endomorphism == "on") options.endomorphism = curve::Endomorphism::On;
  else if (endomorphism == "off") options.endomorphism = curve::Endomorphism::Off;
  else if (endomorphism != "auto") {
    std::fprintf(stderr, "bench_msm: --endomorphism takes auto, on or off, not %s\n", endomorphism.c_str());
    return 2;
  }
  if (limbs == 32) options.product_limbs = field::ProductLimbs::Bits32;
  if (limbs == 64) options.product_limbs = field::ProductLimbs::Bits64;
  if (limbs == 29) options.product_limbs = field::ProductLimbs::Bits29;
  if (plan_log > 0) {
    if (curve_name == "bls12_381") print_plan<curve::Bls12381G1>(gpu, plan_log, options);
    else print_plan<curve::Bn254G1>(gpu, plan_log, options);
    return 0;
  }
  if (profile_log > 0) {
    if (curve_name == "bls12_381") profile<curve::Bls12381G1>(gpu, profile_log, options, table);
    else profile<curve::Bn254G1>(gpu, profile_log, options, table);
    return 0;
  }
  if (curve_name == "bls12_381") bench<curve::Bls12381G1>(gpu, min_log, max_log, repeat, options, table, msms);
  else bench<curve::Bn254G1>(gpu, min_log, max_log, repeat, options, table, msms);

  std::printf("\nPipeline creation (vkCreateComputePipelines; a driver may compile later, at the first launch):\n");
  for (const vk::KernelTimes& t : gpu.kernel_times()) std::printf("  %s: %.0f ms\n", t.kernel.c_str(), t.pipeline_ms);
}
