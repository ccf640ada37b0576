// Terminals that spread a pipeline's chunks over several devices and return the results
// in input order, as the one-device terminals would:
//
//   std::vector<Device*> devices = {&gpu0, &gpu1};
//   std::vector<vec4> v = values | gpu::map(f) | gpu::filter(p) | gpu::collect(devices);
//   auto end = values | chain | gpu::to(devices, out.begin(), {.chunk_elements = 1 << 20});
//   std::size_t n = values | chain | gpu::count({&gpu0, &gpu1});
//
// Spelling: the device argument of collect/to/count may be any range of pointers to
// devices (std::vector<Device*>, std::array, std::span<Device* const>, a vector of
// vk::Device*) or a braced list; it is copied into the terminal. reduce and chunks stay
// one-device terminals.
//
// How it runs: one host thread per device, each with an engine of its own (the same
// Engine and ChunkPump as one device uses: its own buffers and chunks in flight). A device
// with a free slot takes the next chunk of the source (chunk_dealer.hpp), so a faster
// device takes more; results go back into input order through a bounded window
// (in_order.hpp) and reach the caller on the calling thread. Chains whose stages carry
// state from chunk to chunk (enumerate, take, drop, scan) are refused at compile time:
// each device sees only its own chunks. With one device the one-device terminal runs.
#pragma once

#include <algorithm>
#include <deque>
#include <exception>
#include <initializer_list>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "sprig/stdlib/pipeline/chunk_dealer.hpp"
#include "sprig/stdlib/pipeline/in_order.hpp"
#include "sprig/stdlib/pipeline/terminals.hpp"

namespace sprig::gpu {

// Stages whose result for an element depends on the chunks before it.
template <class S>
struct is_enumerate : std::false_type {};
template <class F>
struct is_enumerate<Enumerate<F>> : std::true_type {};
template <class S>
constexpr bool carries_state =
    is_enumerate<S>::value || std::is_same_v<S, Take> || std::is_same_v<S, Drop> || is_scan<S>::value;

// A chain that can be spread over several devices: no stage carries state across chunks.
template <class Chain>
struct is_spreadable : std::false_type {};
template <class... S>
struct is_spreadable<Stages<S...>> : std::bool_constant<(!carries_state<S> && ...)> {};
template <class Chain>
concept SpreadableChain = is_spreadable<std::remove_cvref_t<Chain>>::value;

// A device failed while running its share: which one, and the exception it threw.
class DeviceFailure : public Error {
 public:
  DeviceFailure(std::size_t index, std::string name, std::exception_ptr cause, const std::string& what)
      : Error("gpu pipeline: device " + std::to_string(index) + " (" + name + ") failed: " + what),
        index_(index), name_(std::move(name)), cause_(std::move(cause)) {}
  std::size_t device_index() const { return index_; }
  const std::string& device_name() const { return name_; }
  // The original exception (std::rethrow_exception(cause()) to handle it by its type).
  std::exception_ptr cause() const { return cause_; }

 private:
  std::size_t index_;
  std::string name_;
  std::exception_ptr cause_;
};

// A range of device pointers (std::vector<Device*>, std::array<vk::Device*, 2>, a span).
template <class R>
concept DeviceList = std::ranges::input_range<const R> && std::convertible_to<std::ranges::range_reference_t<const R>, Device*>;

struct CollectAll {
  std::vector<Device*> devices;
  Options options;
};
template <class It>
struct CopyToAll {
  std::vector<Device*> devices;
  It out;
  Options options;
};
struct CountAll {
  std::vector<Device*> devices;
  Options options;
};

namespace detail {

// Checked when the terminal is made, so a bad list fails before any input is read.
template <class R>
std::vector<Device*> device_list(const R& devices) {
  std::vector<Device*> list;
  for (Device* device : devices) {
    if (device == nullptr)
      throw std::invalid_argument("gpu pipeline: device " + std::to_string(list.size()) + " of the list is null");
    list.push_back(device);
  }
  if (list.empty()) throw std::invalid_argument("gpu pipeline: the list of devices is empty");
  return list;
}

}  // namespace detail

template <DeviceList R>
CollectAll collect(const R& devices, Options options = {}) {
  return {detail::device_list(devices), options};
}
inline CollectAll collect(std::initializer_list<Device*> devices, Options options = {}) {
  return {detail::device_list(devices), options};
}
template <DeviceList R, std::weakly_incrementable It>
CopyToAll<It> to(const R& devices, It out, Options options = {}) {
  return {detail::device_list(devices), out, options};
}
template <std::weakly_incrementable It>
CopyToAll<It> to(std::initializer_list<Device*> devices, It out, Options options = {}) {
  return {detail::device_list(devices), out, options};
}
template <DeviceList R>
CountAll count(const R& devices, Options options = {}) {
  return {detail::device_list(devices), options};
}
inline CountAll count(std::initializer_list<Device*> devices, Options options = {}) {
  return {detail::device_list(devices), options};
}

template <>
struct is_terminal<CollectAll> : std::true_type {};
template <class It>
struct is_terminal<CopyToAll<It>> : std::true_type {};
template <>
struct is_terminal<CountAll> : std::true_type {};

namespace detail {

// One static_assert per kind of stage, so the message names the stage that cannot be spread.
template <class S>
constexpr void check_spreadable_stage() {
  static_assert(!is_enumerate<S>::value,
                "gpu pipeline on several devices: gpu::enumerate numbers elements across the whole stream, but each "
                "device sees only its own chunks; run this chain on one device");
  static_assert(!std::is_same_v<S, Take>,
                "gpu pipeline on several devices: gpu::take counts elements across the whole stream, but each device "
                "sees only its own chunks; run this chain on one device");
  static_assert(!std::is_same_v<S, Drop>,
                "gpu pipeline on several devices: gpu::drop counts elements across the whole stream, but each device "
                "sees only its own chunks; run this chain on one device");
  static_assert(!is_scan<S>::value,
                "gpu pipeline on several devices: gpu::scan carries its running total from chunk to chunk, but each "
                "device sees only its own chunks; run this chain on one device");
}
template <class... S>
constexpr void check_spreadable() {
  (check_spreadable_stage<S>(), ...);
}

// One chunk's results as a device thread hands them over: the first `count` of `values`
// (a recycled vector may be longer; empty when only the count is wanted).
template <class Out>
struct ChunkResult {
  std::vector<Out> values;
  std::size_t count = 0;
};

// Result vectors that the consumer has copied out, for the device threads to fill again:
// a fresh vector per chunk costs its page faults and zeroing every time (2^28 results of
// collect took twice as long on two devices as on one before they were recycled).
template <class Out>
class ResultPool {
 public:
  std::vector<Out> take(std::size_t n) {
    std::vector<Out> values;
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        values = std::move(free_.back());
        free_.pop_back();
      }
    }
    if (values.size() < n) values.resize(n);  // grows only: the elements past n are never read
    return values;
  }
  void give_back(std::vector<Out> values) {
    if (values.empty()) return;
    std::lock_guard lock(mutex_);
    free_.push_back(std::move(values));
  }

 private:
  std::mutex mutex_;
  std::vector<std::vector<Out>> free_;
};

// The elements per chunk, the same for every device (so chunk boundaries do not depend on
// which device takes a chunk): the smallest of the devices' chunk sizes, and, for a
// stream of known length and no chunk size asked for, small enough that every device gets
// a chunk. Bad options throw here, on the calling thread, before any input is read.
template <class In, class Out, class R>
std::size_t dealt_chunk_elements(const std::vector<Device*>& devices, const Options& options, const R& range) {
  std::size_t chunk = std::numeric_limits<std::size_t>::max();
  for (Device* device : devices)
    chunk = std::min(chunk, chosen_chunk_elements(options, device->info(), std::max(sizeof(In), sizeof(Out))));
  if constexpr (std::ranges::sized_range<const R>) {
    auto known = std::uint64_t(std::ranges::size(range));
    if (!options.chunk_elements) chunk = std::size_t(std::min<std::uint64_t>(chunk, (known + devices.size() - 1) / devices.size()));
    chunk = std::size_t(std::max<std::uint64_t>(1, std::min<std::uint64_t>(chunk, known)));
  }
  return chunk;
}

inline DeviceFailure device_failure(std::size_t index, const Device& device, std::exception_ptr cause) {
  std::string what = "an exception that is not a std::exception";
  try {
    std::rethrow_exception(cause);
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
  }
  return DeviceFailure(index, device.info().name, std::move(cause), what);
}

// Runs `pipe` over `devices`, one thread each, and hands each chunk's results to
// `consume` on the calling thread, in input order. Every thread has ended when it returns
// or throws.
template <bool WantValues, class R, class... S, class Consume>
void spread(const std::vector<Device*>& devices, Pipe<R, S...>&& pipe, const Options& options, Consume&& consume) {
  using In = std::ranges::range_value_t<R>;
  using EngineType = Engine<In, false, S...>;
  using Out = typename EngineType::Out;
  check_host_layout<In>();
  check_host_layout<Out>();
  const std::size_t chunk = dealt_chunk_elements<In, Out>(devices, options, pipe.range);
  const auto& stages = pipe.stages.stages;
  ChunkDealer<R> dealer(std::move(pipe.range));
  // Each device holds at most `buffers` chunks on the device and `buffers` finished ones.
  InOrder<ChunkResult<Out>> in_order(devices.size(), options.buffers);
  ResultPool<Out> pool;

  auto work = [&](std::size_t index) {
    Device& device = *devices[index];
    try {
      Geometry g = fit_to_budget<EngineType>(device, stages, Geometry{chunk, options.buffers}, options.memory_budget);
      EngineType engine(device, stages, g);
      std::vector<std::vector<In>> host(g.slots);
      std::deque<std::size_t> dealt;  // the input chunk of each chunk in the pump, oldest first
      ChunkPump pump(device, pump_wiring(engine.plan, engine.geometry, engine.input, engine.plan.output()), engine.limit,
                     [&](std::size_t slot, std::uint64_t wanted) {
                       auto d = dealer.deal(device, (*engine.input)[slot].values, host[slot], wanted);
                       if (d.count > 0) dealt.push_back(d.chunk);
                       return d.count;
                     });
      while (in_order.wait_for_room(index)) {
        ChunkResult<Out> result;
        // The pump's helper thread may deal the next chunk meanwhile: `dealt` is only read
        // after next() has joined it.
        bool more = pump.next([&](std::size_t n) -> void* {
          result.count = n;
          if constexpr (WantValues) {
            result.values = pool.take(n);
            return result.values.data();
          } else {
            return nullptr;
          }
        });
        if (!more) break;
        std::size_t input_chunk = dealt.front();
        dealt.pop_front();
        in_order.deliver(index, input_chunk, std::move(result));
      }
    } catch (...) {
      dealer.stop();
      in_order.fail(std::make_exception_ptr(device_failure(index, device, std::current_exception())));
    }
    in_order.finished();
  };

  std::vector<std::thread> threads;
  // However this ends (the last chunk, a device's failure, the consumer's own exception),
  // the device threads are told to stop and joined before it returns.
  struct Joiner {
    ChunkDealer<R>& dealer;
    InOrder<ChunkResult<Out>>& in_order;
    std::vector<std::thread>& threads;
    ~Joiner() {
      dealer.stop();
      in_order.stop();
      for (std::thread& t : threads) t.join();
    }
  } joiner{dealer, in_order, threads};
  threads.reserve(devices.size());
  for (std::size_t i = 0; i < devices.size(); ++i) threads.emplace_back(work, i);
  while (auto result = in_order.next()) {
    consume(*result);
    pool.give_back(std::move(result->values));
  }
}

}  // namespace detail

template <class R, class... S>
auto operator|(Pipe<R, S...> pipe, CollectAll c) {
  detail::check_spreadable<S...>();
  if (c.devices.size() == 1) return std::move(pipe) | collect(*c.devices[0], c.options);
  std::vector<chain_output_t<std::ranges::range_value_t<R>, S...>> all;
  // A known input length bounds the results (only a filter keeps fewer).
  if constexpr (std::ranges::sized_range<R>) all.reserve(std::ranges::size(pipe.range));
  detail::spread<true>(c.devices, std::move(pipe), c.options, [&](auto& chunk) {
    all.insert(all.end(), chunk.values.begin(), chunk.values.begin() + std::ptrdiff_t(chunk.count));
  });
  return all;
}

template <class R, class... S, class It>
It operator|(Pipe<R, S...> pipe, CopyToAll<It> c) {
  detail::check_spreadable<S...>();
  if (c.devices.size() == 1) return std::move(pipe) | to(*c.devices[0], c.out, c.options);
  detail::spread<true>(c.devices, std::move(pipe), c.options, [&](auto& chunk) {
    c.out = std::copy(chunk.values.begin(), chunk.values.begin() + std::ptrdiff_t(chunk.count), c.out);
  });
  return c.out;
}

template <class R, class... S>
std::size_t operator|(Pipe<R, S...> pipe, CountAll c) {
  detail::check_spreadable<S...>();
  if (c.devices.size() == 1) return std::move(pipe) | count(*c.devices[0], c.options);
  std::size_t total = 0;
  detail::spread<false>(c.devices, std::move(pipe), c.options, [&](auto& chunk) { total += chunk.count; });
  return total;
}

}  // namespace sprig::gpu
