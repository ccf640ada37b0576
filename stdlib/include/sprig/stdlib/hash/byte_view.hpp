// ByteView: the bytes a host-level hash call reads (host_api.hpp), from whatever holds
// them: std::span<const std::byte>, std::string and std::string_view, std::vector and
// std::array of std::uint8_t, a digest, a C string or string literal (without its
// terminating zero). It refers to the caller's bytes like std::span: pass it, never keep it.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <ranges>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace sprig::hash {

// A contiguous range of one-byte values: bytes, characters, std::uint8_t.
template <class R>
concept ByteRange =
    std::ranges::contiguous_range<R> && std::ranges::sized_range<R> &&
    (std::same_as<std::remove_cv_t<std::ranges::range_value_t<R>>, std::byte> ||
     (std::integral<std::ranges::range_value_t<R>> && sizeof(std::ranges::range_value_t<R>) == 1 &&
      !std::same_as<std::remove_cv_t<std::ranges::range_value_t<R>>, bool>));

class ByteView {
 public:
  ByteView() = default;
  // A C string or string literal, up to its terminating zero.
  ByteView(const char* text) : ByteView(std::string_view(text)) {}
  // Any byte range. Character arrays are left to the C-string constructor, so that "abc" is
  // three bytes, not four (u8"abc" has no constructor rather than four bytes).
  template <ByteRange R>
    requires(!std::is_array_v<std::remove_cvref_t<R>> ||
             (!std::same_as<std::remove_cv_t<std::ranges::range_value_t<R>>, char> &&
              !std::same_as<std::remove_cv_t<std::ranges::range_value_t<R>>, char8_t>))
  ByteView(const R& range)
      : bytes_(reinterpret_cast<const std::byte*>(std::ranges::data(range)), std::ranges::size(range)) {}

  std::span<const std::byte> bytes() const { return bytes_; }
  const std::uint8_t* data() const { return reinterpret_cast<const std::uint8_t*>(bytes_.data()); }
  std::size_t size() const { return bytes_.size(); }
  bool empty() const { return bytes_.empty(); }
  // Bytes [offset, offset + count).
  ByteView subview(std::size_t offset, std::size_t count) const { return ByteView(bytes_.subspan(offset, count)); }

 private:
  std::span<const std::byte> bytes_;
};

// A list of messages for the batched host calls, from a braced list ({"abc", "", text}) or
// any range of things a ByteView is made from (std::vector<std::string>,
// std::vector<std::vector<std::uint8_t>>, std::span<const ByteView>, ...). It holds views,
// not copies: the messages must outlive the call.
class ByteViews {
 public:
  ByteViews(std::initializer_list<ByteView> views) : views_(views) {}
  template <std::ranges::input_range R>
    requires std::convertible_to<std::ranges::range_reference_t<const R&>, ByteView>
  ByteViews(const R& range) {
    for (auto&& element : range) views_.emplace_back(element);
  }

  std::span<const ByteView> views() const { return views_; }
  std::size_t size() const { return views_.size(); }
  const ByteView& operator[](std::size_t i) const { return views_[i]; }

 private:
  std::vector<ByteView> views_;
};

}  // namespace sprig::hash
