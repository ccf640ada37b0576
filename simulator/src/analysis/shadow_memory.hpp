// Shadow memory for the race detector: for every 4-byte word of a buffer or shared
// variable, the last write and up to two reads that are not ordered with each other. The
// DSL only has 4- and 8-byte scalars, aligned, so a word is the unit in which two
// accesses can touch the same byte.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

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

struct WordShadow {
  AccessStamp write;
  AccessStamp read;        // the latest read
  AccessStamp other_read;  // an earlier read not ordered before `read`
};

// A zero-filled array of word shadows, allocated with calloc so that the pages of a large
// buffer's shadow cost nothing until a kernel touches them.
class ShadowArray {
 public:
  ShadowArray() = default;
  explicit ShadowArray(std::uint64_t words)
      : words_(words), data_(static_cast<WordShadow*>(std::calloc(words ? words : 1, sizeof(WordShadow)))) {
    if (!data_) throw std::bad_alloc();
  }
  WordShadow& operator[](std::uint64_t word) { return data_.get()[word]; }
  std::uint64_t words() const { return words_; }
  explicit operator bool() const { return bool(data_); }

 private:
  struct Free {
    void operator()(WordShadow* p) const { std::free(p); }
  };
  std::uint64_t words_ = 0;
  std::unique_ptr<WordShadow, Free> data_;
};

}  // namespace sprig::sim::analysis
