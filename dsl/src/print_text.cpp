#include "sprig/dsl/print_text.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <system_error>

namespace sprig::ir {

namespace {

std::uint32_t scalar_words(ScalarKind k) { return scalar_bits(k) == 64 ? 2 : 1; }

template <class T>
std::string integer_text(T v, bool hex) {
  char text[72];
  auto [end, error] = std::to_chars(text, text + sizeof text, v, hex ? 16 : 10);
  if (error != std::errc{}) return "?";
  return std::string(text, end);
}

std::string float_text(float v) {
  if (std::isnan(v)) return "nan";
  char text[48];
  auto [end, error] = std::to_chars(text, text + sizeof text, v);
  if (error != std::errc{}) return "?";
  return std::string(text, end);
}

}  // namespace

std::uint32_t print_words(TypeRef t) { return t->components() * scalar_words(t->scalar); }

std::uint32_t print_words(const PrintFormat& format) {
  std::uint32_t words = 0;
  for (TypeRef t : format.arguments) words += print_words(t);
  return words;
}

std::string print_scalar(ScalarKind k, std::uint64_t bits, bool hex) {
  switch (k) {
    case ScalarKind::Bool: return bits & 1 ? "true" : "false";
    case ScalarKind::I32: return integer_text(std::int32_t(std::uint32_t(bits)), hex);
    case ScalarKind::U32: return integer_text(std::uint32_t(bits), hex);
    case ScalarKind::F32: return float_text(std::bit_cast<float>(std::uint32_t(bits)));
    case ScalarKind::I64: return integer_text(std::int64_t(bits), hex);
    case ScalarKind::U64: return integer_text(bits, hex);
  }
  return "?";
}

std::string print_value(TypeRef t, std::span<const std::uint32_t> words, bool hex) {
  if (words.size() < print_words(t)) throw std::invalid_argument("print_value: too few words for " + to_string(t));
  const std::uint32_t step = scalar_words(t->scalar);
  auto component = [&](std::uint32_t i) {
    std::uint64_t bits = words[i * step];
    if (step == 2) bits |= std::uint64_t(words[i * step + 1]) << 32;
    return print_scalar(t->scalar, bits, hex);
  };
  if (!t->is_vector()) return component(0);
  std::string text = "(";
  for (std::uint32_t i = 0; i < t->count; ++i) text += (i ? ", " : "") + component(i);
  return text + ")";
}

std::string print_message(const PrintFormat& format, std::span<const std::uint32_t> words) {
  std::string text = format.text.empty() ? std::string() : format.text[0];
  std::size_t at = 0;
  for (std::size_t i = 0; i < format.arguments.size(); ++i) {
    const std::uint32_t n = print_words(format.arguments[i]);
    if (at + n > words.size()) throw std::invalid_argument("print_message: the record is shorter than its format");
    text += print_value(format.arguments[i], words.subspan(at, n), format.hex[i]);
    at += n;
    if (i + 1 < format.text.size()) text += format.text[i + 1];
  }
  return text;
}

std::string print_format_text(const PrintFormat& format) {
  std::string text;
  for (std::size_t i = 0; i < format.text.size(); ++i) {
    for (char c : format.text[i]) {
      text += c;
      if (c == '{' || c == '}') text += c;
    }
    if (i < format.arguments.size()) text += format.hex[i] ? "{:x}" : "{}";
  }
  return text;
}

}  // namespace sprig::ir
