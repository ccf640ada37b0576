// The mining searches over several devices (sha256d_search, scrypt_search with a list of
// devices) against the first device alone, in the same run: nonces/s and the ratio.
//
//   bench_mining_devices [--devices all] [--log-sha256d 32] [--log-scrypt 20] [--chunk N]
//
// After the table, the rows that explain a ratio under the number of devices: scrypt on each
// device alone, one-device calls on every device at once (each its share of the range, on a
// thread of its own), and the time to allocate and free a scratch-sized buffer on one device
// and on every device at once.
//
// --chunk: MiningSplit::chunk, nonces per chunk on every device (default 0: guided).
// The target is zero, which no hash meets, so every nonce is hashed and none is kept: the
// figure is the search itself. Each search runs once to build its pipelines, then is timed
// once (ranges of seconds on a GPU).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>

#include <sprig/sprig.hpp>
#include <sprig/stdlib/hash/scrypt_search.hpp>
#include <sprig/stdlib/hash/sha256d_search.hpp>

using namespace sprig;

namespace {

double seconds(const std::function<hash::MiningSearchResult()>& search) {
  search();  // pipelines, scratch
  const auto start = std::chrono::steady_clock::now();
  const hash::MiningSearchResult result = search();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (result.found != 0) std::printf("(unexpected: %llu winners)\n", static_cast<unsigned long long>(result.found));
  return s;
}

// Seconds until every one of `work`'s calls, each on a thread of its own, has returned.
double seconds_at_once(std::size_t n, const std::function<void(std::size_t)>& work) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < n; ++i) threads.emplace_back(work, i);
  for (auto& t : threads) t.join();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void row(const char* search, int log_n, std::size_t devices, double one, double all) {
  const double n = double(std::uint64_t(1) << log_n);
  std::printf("| %s | 2^%d | %.4g | %zu | %.4g | %.2fx |\n", search, log_n, n / one / 1e6, devices, n / all / 1e6,
              one / all);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::string list = "all";
  int log_sha256d = 32, log_scrypt = 20;
  hash::MiningSplit split;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--devices")) list = argv[i + 1];
    if (!std::strcmp(argv[i], "--log-sha256d")) log_sha256d = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--log-scrypt")) log_scrypt = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--chunk")) split.chunk = std::strtoull(argv[i + 1], nullptr, 10);
  }
  std::vector<vk::Device> opened = vk::Device::open_all(list);
  std::vector<Device*> devices;
  for (auto& d : opened) devices.push_back(&d);
  std::printf("mining searches on %zu devices (%s, chunks: %s), against device 0 alone (%s)\n\n", devices.size(),
              list.c_str(), split.chunk ? std::to_string(split.chunk).c_str() : "guided", opened[0].name().c_str());
  std::printf("| search | nonces | M nonces/s, device 0 | devices | M nonces/s, all | ratio |\n|---|---|---|---|---|---|\n");

  std::vector<std::uint8_t> header(80);
  for (std::size_t i = 0; i < header.size(); ++i) header[i] = std::uint8_t(i * 37 + 1);
  const std::array<std::uint32_t, 8> target{};
  {
    const std::uint64_t n = std::uint64_t(1) << log_sha256d;
    const double one = seconds([&] { return hash::sha256d_search(opened[0], header, 0, n, target); });
    const double all = seconds([&] { return hash::sha256d_search(devices, header, 0, n, target, 64, split); });
    row("sha256d", log_sha256d, devices.size(), one, all);
  }
  {
    const std::uint64_t n = std::uint64_t(1) << log_scrypt;
    const hash::ScryptParams litecoin{1024, 1, 1};
    const double one = seconds([&] { return hash::scrypt_search(opened[0], header, 0, n, target, litecoin); });
    const double all = seconds([&] { return hash::scrypt_search(devices, header, 0, n, target, litecoin, 64, {}, split); });
    row("scrypt N=1024", log_scrypt, devices.size(), one, all);

    std::printf("\nscrypt N=1024 over 2^%d nonces, one-device calls:\n", log_scrypt);
    for (std::size_t d = 0; d < devices.size(); ++d) {
      const double alone = seconds([&] { return hash::scrypt_search(*devices[d], header, 0, n, target, litecoin); });
      std::printf("  device %zu (%s) alone: %.4g M nonces/s\n", d, devices[d]->info().name.c_str(), n / alone / 1e6);
    }
    const std::uint64_t share = n / devices.size();
    auto shares = [&](std::size_t d) {
      hash::scrypt_search(*devices[d], header, std::uint32_t(d * share), share, target, litecoin);
    };
    seconds_at_once(devices.size(), shares);  // pipelines, scratch
    const double at_once = seconds_at_once(devices.size(), shares);
    std::printf("  every device at once, each 1/%zu of the range on its own thread: %.4g M nonces/s, %.2fx\n",
                devices.size(), double(share * devices.size()) / at_once / 1e6, one / at_once);
  }
  {
    // The scratch a scrypt chunk allocates (GiBs): does the driver allocate for two devices
    // at once as fast as for one?
    const std::size_t words = (std::size_t(2) << 30) / 4;
    auto allocate = [&](std::size_t d) { auto b = devices[d]->alloc<std::uint32_t>(words, "probe"); };
    allocate(0);
    const double alone = seconds_at_once(1, allocate);
    const double together = seconds_at_once(devices.size(), allocate);
    std::printf("\nallocating and freeing 2 GiB: %.2f ms on device 0 alone, %.2f ms on %zu devices at once\n",
                alone * 1e3, together * 1e3, devices.size());
  }
  return 0;
}
