// The mining searches over several devices (sha256d_search, scrypt_search with a list of
// devices) against the first device alone, in the same run: nonces/s and the ratio.
//
//   bench_mining_devices [--devices all] [--log-sha256d 32] [--log-scrypt 20] [--chunk N]
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
  }
  return 0;
}
