// Record encoding on the device (stdlib/include/sprig/stdlib/pos/record_encoding.hpp) against
// the reference's encode_record, on both backends.
#include <catch2/catch.hpp>

#include "backends.hpp"
#include "pos_reference.hpp"
#include "sprig/stdlib/pos/pos.hpp"

namespace {

// A recognisable erasure-coded record: byte j of chunk c depends on both.
std::vector<pos_ref::Chunk> test_record() {
  std::vector<pos_ref::Chunk> chunks(sprig::pos::record_chunks);
  for (std::size_t c = 0; c < chunks.size(); ++c)
    for (std::size_t j = 0; j < pos_ref::chunk_bytes; ++j) chunks[c][j] = std::uint8_t(c * 31 + j * 7 + (c >> 8));
  return chunks;
}

std::vector<std::uint8_t> flat(const std::vector<pos_ref::Chunk>& chunks) {
  std::vector<std::uint8_t> out;
  for (const auto& c : chunks) out.insert(out.end(), c.begin(), c.end());
  return out;
}

pos_ref::Seed encoding_seed(std::uint32_t i) {
  pos_ref::Seed seed{};
  for (std::size_t b = 0; b < seed.size(); ++b) seed[b] = std::uint8_t(b * 13 + i * 29 + 5);
  return seed;
}

// Records the plot of `seed` and the encoding of `record` in one sequence, runs it, and
// returns every encoded slot (2^15 chunks of 32 bytes).
std::vector<std::uint8_t> plot_and_encode(sprig::Device& dev, sprig::pos::Plotter& plotter, const pos_ref::Seed& seed,
                                          const std::vector<pos_ref::Chunk>& record) {
  sprig::pos::Seed device_seed{};
  std::copy(seed.begin(), seed.end(), device_seed.begin());
  auto chunks = dev.upload(sprig::hash::pack_bytes(flat(record)));
  auto sequence = dev.sequence();
  plotter.record(sequence, device_seed);
  plotter.record_encoding(sequence, chunks);
  sequence.run_and_wait();
  return sprig::hash::unpack_bytes(dev.download(plotter.encoded()), std::size_t(sprig::pos::proofs_per_record) * 32);
}

}  // namespace

TEST_CASE("device record encoding equals the reference's encode_record at K = 15", "[pos][device]") {
  const sprig::test::Backend backend = SPRIG_BACKEND;
  sprig::Device& dev = sprig::test::device(backend);
  const std::vector<pos_ref::Chunk> record = test_record();
  sprig::pos::Plotter plotter(dev, 15);
  // Two seeds on Vulkan, one on the simulator (about 8 s per plot and encoding there).
  const std::vector<std::uint32_t> seeds =
      backend == sprig::test::Backend::Vulkan ? std::vector<std::uint32_t>{0, 1} : std::vector<std::uint32_t>{0};
  for (std::uint32_t i : seeds) {
    INFO("seed " << i);
    const pos_ref::Seed seed = encoding_seed(i);
    sprig::pos::Seed device_seed{};
    std::copy(seed.begin(), seed.end(), device_seed.begin());
    plotter.plot(device_seed);
    const std::vector<std::uint8_t> encoded = plotter.encode(flat(record));
    const pos_ref::EncodedRecord expected = pos_ref::encode_record(seed, 15, pos_ref::Mode::Abundance, record);
    REQUIRE(encoded == flat(expected.chunks));
  }
}

TEST_CASE("device record encoding is recorded in the plot's sequence and zeroes unused slots", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  const std::vector<pos_ref::Chunk> record = test_record();
  const pos_ref::Seed seed = encoding_seed(2);
  sprig::pos::Plotter plotter(dev, 15);
  const std::vector<std::uint8_t> all = plot_and_encode(dev, plotter, seed, record);
  const pos_ref::EncodedRecord expected = pos_ref::encode_record(seed, 15, pos_ref::Mode::Abundance, record);
  const std::size_t used = expected.chunks.size() * 32;
  REQUIRE(std::vector<std::uint8_t>(all.begin(), all.begin() + std::ptrdiff_t(used)) == flat(expected.chunks));
  REQUIRE(std::all_of(all.begin() + std::ptrdiff_t(used), all.end(), [](std::uint8_t b) { return b == 0; }));
  // Decoding is the same XOR: encoding the encoded chunks at their s-buckets gives the record back.
  REQUIRE(pos_ref::encode_chunk(expected.chunks[0], expected.proofs.proof(0)) == record[expected.proofs.s_buckets[0]]);
}

// A Subspace record whose tables outgrow their room is plotted again when it is read: the
// encoding recorded with it is made again from the new proofs.
TEST_CASE("device record encoding follows a Subspace record plotted again with more room", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  const std::vector<pos_ref::Chunk> record = test_record();
  const pos_ref::Seed seed = encoding_seed(3);
  sprig::pos::PlotterOptions options;
  options.subspace_room = 0.5;
  sprig::pos::Plotter plotter(dev, 15, sprig::pos::Mode::Subspace, options);
  std::vector<std::uint8_t> all = plot_and_encode(dev, plotter, seed, record);
  const pos_ref::EncodedRecord expected = pos_ref::encode_record(seed, 15, pos_ref::Mode::Subspace, record);
  CHECK(plotter.records_plotted_again() >= 1);
  all.resize(expected.chunks.size() * 32);
  REQUIRE(all == flat(expected.chunks));
}

TEST_CASE("device record encoding rejects a record that is not 2^16 chunks", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  sprig::pos::Plotter plotter(dev, 15);
  REQUIRE_THROWS_WITH(plotter.encode(std::vector<std::uint8_t>(1000)), Catch::Contains("not 2^16 chunks"));
  auto sequence = dev.sequence();
  REQUIRE_THROWS_WITH(plotter.record_encoding(sequence, dev.alloc<std::uint32_t>(100)),
                      Catch::Contains("not 2^16 = 65536"));
}
