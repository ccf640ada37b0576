// `sprig-plot verify`: reads a plot file with the standard library's PlotFileReader (which
// checks its structure) and verifies every proof on the device against its challenge.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>

#include <sprig/stdlib/pos/verify.hpp>

#include "commands.hpp"
#include "devices.hpp"
#include "verify_report.hpp"

namespace sprig_plot {

namespace pos = sprig::pos;

int run_verify(const VerifyOptions& options) {
  std::ifstream in(options.input, std::ios::binary);
  if (!in) throw UsageError("cannot read " + options.input + ": " + std::strerror(errno));
  pos::PlotFileReader reader(in, options.input);
  const int k = reader.header().k;
  const pos::Mode mode = reader.header().mode;

  std::unique_ptr<sprig::Device> device = open_device(options.device);
  pos::Verifier verifier(*device, k);
  VerifyReport report;
  for (std::uint32_t r = 0; std::optional<pos::PlotFileRecord> record = reader.next(); ++r) {
    if (!record->inconsistency.empty()) report.malformed(r, *record);
    report.verified(r, record->seed, record->s_buckets,
                    verifier.verify(record->seed, proof_challenges(mode, k, record->s_buckets), record->proofs));
  }
  return report.finish(options.input, reader.header());
}

}  // namespace sprig_plot
