// `sprig-plot verify`: reads a plot file with the standard library's PlotFileReader (which
// checks its structure) and verifies every proof on the device against its challenge.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <sprig/stdlib/pos/plot_file_reader.hpp>
#include <sprig/stdlib/pos/verify.hpp>

#include "commands.hpp"
#include "devices.hpp"

namespace sprig_plot {

namespace pos = sprig::pos;

namespace {

std::string hex(const pos::Seed& seed) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (auto b : seed) s += digits[b >> 4], s += digits[b & 15];
  return s;
}

}  // namespace

int run_verify(const VerifyOptions& options) {
  std::ifstream in(options.input, std::ios::binary);
  if (!in) throw UsageError("cannot read " + options.input + ": " + std::strerror(errno));
  pos::PlotFileReader reader(in, options.input);
  const int k = reader.header().k;
  const pos::Mode mode = reader.header().mode;

  std::unique_ptr<sprig::Device> device = open_device(options.device);
  pos::Verifier verifier(*device, k);
  std::uint64_t proofs = 0, invalid = 0, malformed = 0;
  for (std::uint32_t r = 0; std::optional<pos::PlotFileRecord> record = reader.next(); ++r) {
    if (!record->inconsistency.empty()) {
      ++malformed;
      std::fprintf(stderr, "record %u (seed %s): %s\n", r, hex(record->seed).c_str(), record->inconsistency.c_str());
    }
    // The challenge a proof answers: its s-bucket (Abundance), or the first K bits of y that
    // the s-bucket as a challenge index selects (Subspace).
    std::vector<std::uint32_t> challenges(record->s_buckets);
    if (mode == pos::Mode::Subspace)
      for (auto& c : challenges) c = pos::subspace_challenge(k, c);
    std::vector<std::uint8_t> ok = verifier.verify(record->seed, challenges, record->proofs);
    for (std::size_t i = 0; i < ok.size(); ++i)
      if (!ok[i]) {
        ++invalid;
        if (invalid <= 10)
          std::fprintf(stderr, "record %u (seed %s): proof for s-bucket %u is invalid\n", r, hex(record->seed).c_str(),
                       record->s_buckets[i]);
      }
    proofs += record->s_buckets.size();
  }
  std::printf("%s: K = %d, %s rules, %u records, %llu proofs, %llu valid, %llu invalid, %llu malformed records\n",
              options.input.c_str(), k, pos::mode_name(mode), reader.header().records, (unsigned long long)proofs,
              (unsigned long long)(proofs - invalid), (unsigned long long)invalid, (unsigned long long)malformed);
  return invalid == 0 && malformed == 0 ? 0 : 1;
}

}  // namespace sprig_plot
