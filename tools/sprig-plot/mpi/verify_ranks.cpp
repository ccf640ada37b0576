// `sprig-plot verify` under mpirun: rank 0 reads the file (so only it needs to see the file)
// and deals records, one per request, to the other ranks, which verify them on their devices
// and send back which proofs hold; rank 0 reports them in record order (verify_report.hpp).
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <optional>

#include <sprig/stdlib/pos/verify.hpp>

#include "../devices.hpp"
#include "../verify_report.hpp"
#include "mpi_commands.hpp"
#include "other_ranks.hpp"

namespace sprig_plot {

namespace pos = sprig::pos;

namespace {

// Deal: index, seed, the s-buckets, the proofs. Deliver: index, one byte per proof.
std::vector<std::uint8_t> encode_record(std::uint32_t r, const pos::PlotFileRecord& record) {
  std::vector<std::uint8_t> bytes;
  put_u32(bytes, r);
  put_bytes(bytes, record.seed.data(), record.seed.size());
  put_u32(bytes, std::uint32_t(record.s_buckets.size()));
  for (std::uint32_t s : record.s_buckets) put_u32(bytes, s);
  put_bytes(bytes, record.proofs.data(), record.proofs.size());
  return bytes;
}

std::vector<std::uint8_t> verify_dealt(pos::Verifier& verifier, pos::Mode mode, int k,
                                       const std::vector<std::uint8_t>& deal) {
  MessageReader in(deal);
  const std::uint32_t r = in.u32();
  pos::Seed seed;
  const std::uint8_t* p = in.bytes(seed.size());
  std::copy(p, p + seed.size(), seed.begin());
  std::vector<std::uint32_t> s_buckets(in.u32());
  if (s_buckets.size() > in.left() / 4) throw std::runtime_error("a record from rank 0 has the wrong size");
  for (auto& s : s_buckets) s = in.u32();
  const std::size_t proof_size = in.left();
  p = in.bytes(proof_size);
  std::vector<std::uint8_t> ok = verifier.verify(seed, proof_challenges(mode, k, s_buckets), std::span<const std::uint8_t>(p, proof_size));
  std::vector<std::uint8_t> bytes;
  put_u32(bytes, r);
  put_bytes(bytes, ok.data(), ok.size());
  return bytes;
}

int verify_as_other_rank(MpiWorld& world, sprig::Device& device, pos::Mode mode, int k) {
  int status = 0;
  try {
    pos::Verifier verifier(device, k);
    while (true) {
      world.send(0, Tag::Take);
      Message message = world.receive();
      if (message.tag != Tag::Deal) break;  // Done or Stop
      world.send(0, Tag::Deliver, verify_dealt(verifier, mode, k, message.bytes));
    }
  } catch (const std::exception& e) {
    const std::string what = device.info().name + ": " + e.what();
    world.send(0, Tag::Failed, std::vector<std::uint8_t>(what.begin(), what.end()));
    status = 3;
  }
  world.send(0, Tag::Bye);
  return status;
}

struct Dealt {
  pos::Seed seed;
  std::vector<std::uint32_t> s_buckets;
};

int deal_and_report(MpiWorld& world, pos::PlotFileReader& reader, const std::string& input) {
  OtherRanks ranks(world);
  int working = world.size() - 1;
  VerifyReport report;
  std::map<std::uint32_t, Dealt> dealt;
  std::map<std::uint32_t, std::vector<std::uint8_t>> verified;
  std::uint32_t read = 0, reported = 0;
  bool all_read = false;
  while (!all_read || reported < read) {
    if (working == 0) throw std::runtime_error("every other rank stopped before the file was verified");
    Message message = world.receive();
    if (message.tag == Tag::Take) {
      std::optional<pos::PlotFileRecord> record;
      if (!all_read) record = reader.next();  // after the last, checks that nothing follows
      if (!record) {
        all_read = true;
        world.send(message.from, Tag::Done);
        continue;
      }
      if (!record->inconsistency.empty()) report.malformed(read, *record);
      world.send(message.from, Tag::Deal, encode_record(read, *record));
      dealt[read] = {record->seed, std::move(record->s_buckets)};
      ++read;
    } else if (message.tag == Tag::Deliver) {
      MessageReader in(message.bytes);
      const std::uint32_t r = in.u32();
      const std::size_t proofs = in.left();
      const std::uint8_t* ok = in.bytes(proofs);
      verified[r].assign(ok, ok + proofs);
      for (auto it = verified.find(reported); it != verified.end(); it = verified.find(reported)) {
        report.verified(reported, dealt[reported].seed, dealt[reported].s_buckets, it->second);
        dealt.erase(reported);
        verified.erase(it);
        ++reported;
      }
    } else if (message.tag == Tag::Failed) {
      throw std::runtime_error(world.name(message.from) + " failed: " +
                               std::string(message.bytes.begin(), message.bytes.end()));
    } else if (message.tag == Tag::Bye) {
      ranks.said_bye(message.from);
      --working;
    }
  }
  ranks.end(/*stop=*/false);
  return report.finish(input, reader.header());
}

}  // namespace

int run_verify_rank(MpiWorld& world, const VerifyOptions& options) {
  std::ifstream in;
  std::optional<pos::PlotFileReader> reader;
  std::unique_ptr<sprig::Device> device;
  int status = 0;
  std::string error;
  try {
    if (world.rank() == 0) {
      in.open(options.input, std::ios::binary);
      if (!in) throw UsageError("cannot read " + options.input + ": " + std::strerror(errno));
      reader.emplace(in, options.input);
    } else {
      device = open_device(options.device);
    }
  } catch (...) {
    std::tie(status, error) = exit_status_of_current_exception();
  }
  if (const int agreed = world.agree(status, error, options.input); agreed != 0) return agreed;

  // The other ranks learn K and the rules from rank 0's header.
  std::vector<std::uint8_t> header;
  if (world.rank() == 0) header = {std::uint8_t(reader->header().k), std::uint8_t(reader->header().mode)};
  header = world.broadcast(header);
  if (world.rank() != 0) return verify_as_other_rank(world, *device, pos::Mode(header[1]), int(header[0]));
  return deal_and_report(world, *reader, options.input);
}

}  // namespace sprig_plot
