#include "vk_print_buffer.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "sprig/compiler/print_buffer.hpp"
#include "sprig/dsl/print_text.hpp"

namespace sprig::vk {

namespace pb = compiler::print_buffer;

namespace {

std::uint32_t filter_kind(PrintFilter::Kind kind) {
  switch (kind) {
    case PrintFilter::Kind::All: break;
    case PrintFilter::Kind::Invocation: return pb::filter_invocation;
    case PrintFilter::Kind::Workgroup: return pb::filter_workgroup;
  }
  return pb::filter_all;
}

}  // namespace

PrintBuffer::PrintBuffer(const std::shared_ptr<DeviceContext>& context, const Launch& launch,
                         const PrintOptions& options)
    : kernel_(launch.kernel), workgroups_(launch.workgroups), launched_at_(launch.loc) {
  // Room for one record of the largest print at least, whatever the options say.
  std::uint32_t largest = 0;
  for (const ir::PrintFormat& format : kernel_->prints) largest = std::max(largest, ir::print_words(format));
  const std::uint32_t words = std::max(options.buffer_bytes / 4, pb::header_words + pb::record_header_words + largest);
  capacity_ = words - pb::header_words;
  buffer_ = allocate_buffer(context, std::size_t(words) * 4, nullptr, MemoryKind::HostCached);
  std::uint32_t header[pb::header_words] = {};
  header[pb::filter_kind_word] = filter_kind(options.filter.kind);
  for (int d = 0; d < 3; ++d) header[pb::filter_id_word + d] = options.filter.id[d];
  header[pb::capacity_word] = capacity_;
  // Coherent memory, written before the submission: visible to the kernel without a barrier.
  std::memcpy(storage().mapped(), header, sizeof header);
}

LaunchPrints PrintBuffer::read() const {
  const auto* words = reinterpret_cast<const std::uint32_t*>(storage().mapped());
  const std::uint32_t end = std::min(words[pb::used_word], capacity_);
  const std::uint32_t* area = words + pb::header_words;
  std::vector<PrintRecord> records;
  std::uint64_t malformed = 0;
  for (std::uint32_t at = 0; at < end;) {
    const std::uint32_t format = area[at];
    if (format == pb::end_marker) break;
    if (format >= kernel_->prints.size() || pb::record_header_words > capacity_ - at) {
      ++malformed;  // never written by the emitter's code: stop rather than guess
      break;
    }
    const std::uint32_t length = pb::record_header_words + ir::print_words(kernel_->prints[format]);
    if (length > capacity_ - at) {
      ++malformed;
      break;
    }
    PrintRecord r;
    r.format = format;
    std::copy_n(area + at + 1, 3, r.workgroup.begin());
    std::copy_n(area + at + 4, 3, r.local.begin());
    r.words.assign(area + at + pb::record_header_words, area + at + length);
    records.push_back(std::move(r));
    at += length;
  }
  return launch_prints(*kernel_, workgroups_, std::move(records), words[pb::dropped_word] + malformed,
                       (capacity_ + pb::header_words) * 4, launched_at_);
}

}  // namespace sprig::vk
