// Shadow memory for the race detector: for every 4-byte word of a buffer or shared
// variable, the last write and up to two reads that are not ordered with each other. The
// DSL only has 4- and 8-byte scalars, aligned, so a word is the unit in which two
// accesses can touch the same byte.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

namespace sprig::sim::analysis {

// Who accessed a word, and when in that subgroup's history. Subgroup numbers never repeat
// across launches (RaceDetector), so a stamp left by an earlier launch or an earlier
// workgroup is recognised as stale without clearing the shadow.
struct AccessStamp {
  std::uint32_t unit = 0;   // subgroup number; 0 or at most the launch's floor: no access
  std::uint32_t clock = 0;  // the unit's clock at the access
  std::uint32_t site : 24 = 0;   // the instruction (pc) that accessed
  std::uint32_t lane : 7 = 0;
  std::uint32_t atomic : 1 = 0;
};

// One kind of stamp (the writes, say) for every word, in chunks allocated on the first
// stamp stored in them: a chunk never stored to reads as all "no access" and costs no
// memory. A buffer only ever read never gets write stamps and one only written never gets
// read stamps, so a map kernel touches a third of what whole word records would take —
// fresh memory is what a first launch pays for, in page faults.
class StampPlane {
 public:
  StampPlane() = default;
  explicit StampPlane(std::uint64_t words)
      : chunk_words_(words < kChunkWords ? (words ? words : 1) : kChunkWords),
        chunks_((words + kChunkWords - 1) / kChunkWords) {}

  AccessStamp get(std::uint64_t word) const {
    const AccessStamp* chunk = chunks_[word >> kChunkShift].get();
    return chunk ? chunk[word & (kChunkWords - 1)] : AccessStamp{};
  }
  void set(std::uint64_t word, const AccessStamp& stamp) {
    auto& chunk = chunks_[word >> kChunkShift];
    if (!chunk) [[unlikely]]
      chunk = allocate();
    chunk.get()[word & (kChunkWords - 1)] = stamp;
  }

 private:
  static constexpr std::uint32_t kChunkShift = 13;
  static constexpr std::uint64_t kChunkWords = std::uint64_t(1) << kChunkShift;
  struct Free {
    void operator()(AccessStamp* p) const { std::free(p); }
  };
  using Chunk = std::unique_ptr<AccessStamp, Free>;

  // calloc: zero stamps, and fresh pages the allocator knows to be zero are not cleared again.
  Chunk allocate() const {
    auto* p = static_cast<AccessStamp*>(std::calloc(chunk_words_, sizeof(AccessStamp)));
    if (!p) throw std::bad_alloc();
    return Chunk(p);
  }

  std::uint64_t chunk_words_ = 0;  // smaller than kChunkWords for a small variable
  std::vector<Chunk> chunks_;
};

// The shadow of one buffer or shared variable.
struct ShadowArray {
  ShadowArray() = default;
  explicit ShadowArray(std::uint64_t words) : words(words), write(words), read(words), other_read(words) {}

  std::uint64_t words = 0;
  StampPlane write;       // the last write
  StampPlane read;        // the latest read
  StampPlane other_read;  // an earlier read not ordered before `read`
};

}  // namespace sprig::sim::analysis
