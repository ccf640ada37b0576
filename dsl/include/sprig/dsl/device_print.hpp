// printf from kernels: device_print("x = {} at {}", x, i) prints one line for every
// invocation that executes it, on Vulkan and on the simulator alike, in the same text
// (docs/debugging.md). The format is checked against the arguments at compile time.
//
//   device_print("i = {}, sum = {:x}", i, sum);   // {} as std::format writes it; {:x} hex
//   device_print("{{literal braces}} and {}", Vec2(x, y));
//
// Arguments are device scalars and vectors (Int, UInt, Float, Bool, Long, ULong, Vec4,
// UVec2, ...), places holding them (a Var, a buffer element; read where device_print is)
// and host values (numbers, bools, text), which become part of the text when the kernel is
// traced. A kernel traced with prints off (KernelOptions::device_prints, set_device_prints,
// SPRIG_DEVICE_PRINT=0) records nothing here.
#pragma once

#include <concepts>
#include <cstdint>
#include <source_location>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "sprig/dsl/place.hpp"
#include "sprig/dsl/print_switch.hpp"

namespace sprig {

// What is wrong with a device_print format, if anything.
enum class PrintFormatProblem : std::uint8_t {
  None,
  MorePlaceholdersThanArguments,
  FewerPlaceholdersThanArguments,
  HexNeedsAnInteger,        // {:x} for an argument that is not an integer
  UnknownPlaceholder,       // a '{' that starts neither {}, {:x} nor {{
  UnmatchedClosingBrace,    // a '}' that is neither the end of a placeholder nor }}
};

// Walks `format`: text(c) for each character of literal text (escaped braces once),
// placeholder(hex) for each {} or {:x}, in order. Returns the first problem of syntax.
template <class Text, class Placeholder>
constexpr PrintFormatProblem walk_print_format(std::string_view format, Text&& text, Placeholder&& placeholder) {
  for (std::size_t i = 0; i < format.size(); ++i) {
    const char c = format[i];
    const std::string_view rest = format.substr(i);
    if (c == '{') {
      if (rest.starts_with("{{")) {
        text('{');
        i += 1;
      } else if (rest.starts_with("{}")) {
        placeholder(false);
        i += 1;
      } else if (rest.starts_with("{:x}")) {
        placeholder(true);
        i += 3;
      } else {
        return PrintFormatProblem::UnknownPlaceholder;
      }
    } else if (c == '}') {
      if (!rest.starts_with("}}")) return PrintFormatProblem::UnmatchedClosingBrace;
      text('}');
      i += 1;
    } else {
      text(c);
    }
  }
  return PrintFormatProblem::None;
}

// The problem of `format` for arguments of which those marked in `integer` are integers.
constexpr PrintFormatProblem print_format_problem(std::string_view format, std::span<const bool> integer) {
  std::size_t count = 0;
  bool hex_misused = false;
  PrintFormatProblem syntax = walk_print_format(
      format, [](char) {},
      [&](bool hex) {
        if (hex && count < integer.size() && !integer[count]) hex_misused = true;
        ++count;
      });
  if (syntax != PrintFormatProblem::None) return syntax;
  if (count > integer.size()) return PrintFormatProblem::MorePlaceholdersThanArguments;
  if (count < integer.size()) return PrintFormatProblem::FewerPlaceholdersThanArguments;
  if (hex_misused) return PrintFormatProblem::HexNeedsAnInteger;
  return PrintFormatProblem::None;
}

// A device_print format that does not fit its arguments fails to compile by calling one of
// these (never defined: they only name the problem in the compiler's error).
namespace device_print_format_error {
void has_more_placeholders_than_arguments();
void has_fewer_placeholders_than_arguments();
void uses_hex_for_an_argument_that_is_not_an_integer();
void has_a_brace_that_starts_no_placeholder_write_double_braces_for_a_brace();
void has_a_closing_brace_that_closes_nothing_write_double_braces_for_a_brace();
}  // namespace device_print_format_error

namespace detail {

// The Place a type derives from (never defined: for decltype), and its pointer.
template <class T, Access A>
Place<T, A> place_of(const Place<T, A>&);
template <class T, Access A>
ir::NodeRef place_pointer(const Place<T, A>& p) {
  return p.pointer();
}
template <class P>
struct place_traits;
template <class T, Access A>
struct place_traits<Place<T, A>> {
  using value = T;
  static constexpr bool is_readable = readable(A);
};

// What device_print accepts (`valid`) and whether it is an integer, which {:x} needs:
// device values and places (recorded), host numbers, bools, vectors and text (written into
// the format's text at trace time).
template <class A>
struct print_argument {
  static constexpr bool valid = false, integer = false;
};
template <ScalarOrVector T>
struct print_argument<Expr<T>> {
  static constexpr bool valid = true, integer = IntegerLike<T>;
};
template <class A>
  requires requires(const A& a) { place_of(a); }
struct print_argument<A> {
  using Traits = place_traits<decltype(place_of(std::declval<const A&>()))>;
  static constexpr bool valid = ScalarOrVector<typename Traits::value> && Traits::is_readable;
  static constexpr bool integer = IntegerLike<typename Traits::value>;
};
template <class A>
  requires(std::is_arithmetic_v<A>)
struct print_argument<A> {
  static constexpr bool valid = true;
  static constexpr bool integer = std::integral<A> && !std::same_as<A, bool> && !std::same_as<A, char>;
};
template <class T, int N>
  requires std::is_arithmetic_v<T>
struct print_argument<vec<T, N>> {
  static constexpr bool valid = true, integer = std::integral<T> && !std::same_as<T, bool>;
};
template <class A>
  requires(std::convertible_to<const A&, std::string_view> && !std::is_arithmetic_v<A>)
struct print_argument<A> {
  static constexpr bool valid = true, integer = false;
};

// Calls the device_print_format_error function that names `problem`.
consteval void fail_print_format(PrintFormatProblem problem) {
  switch (problem) {
    case PrintFormatProblem::None: return;
    case PrintFormatProblem::MorePlaceholdersThanArguments:
      device_print_format_error::has_more_placeholders_than_arguments();
      return;
    case PrintFormatProblem::FewerPlaceholdersThanArguments:
      device_print_format_error::has_fewer_placeholders_than_arguments();
      return;
    case PrintFormatProblem::HexNeedsAnInteger:
      device_print_format_error::uses_hex_for_an_argument_that_is_not_an_integer();
      return;
    case PrintFormatProblem::UnknownPlaceholder:
      device_print_format_error::has_a_brace_that_starts_no_placeholder_write_double_braces_for_a_brace();
      return;
    case PrintFormatProblem::UnmatchedClosingBrace:
      device_print_format_error::has_a_closing_brace_that_closes_nothing_write_double_braces_for_a_brace();
      return;
  }
}

// One argument of a print being traced: a device value's node, or a host value's text
// (decimal and hexadecimal: which one is used depends on its placeholder).
struct PrintPart {
  ir::NodeRef node = nullptr;
  std::string text, hex_text;
};
std::string host_print_text(std::int64_t v, bool hex);
std::string host_print_text(std::uint64_t v, bool hex);
std::string host_print_text(double v);
std::string host_print_text(float v);

template <class A>
PrintPart print_part(const A& a, const SourceLoc& loc) {
  if constexpr (requires { place_of(a); }) {
    return {detail::load(place_pointer(a), loc), {}, {}};
  } else if constexpr (requires { a.node(); }) {
    return {a.node(), {}, {}};
  } else if constexpr (std::same_as<A, bool>) {
    return {nullptr, a ? "true" : "false", {}};
  } else if constexpr (std::same_as<A, char>) {
    return {nullptr, std::string(1, a), {}};
  } else if constexpr (std::same_as<A, float>) {
    return {nullptr, host_print_text(a), {}};
  } else if constexpr (std::is_floating_point_v<A>) {
    return {nullptr, host_print_text(double(a)), {}};
  } else if constexpr (std::is_signed_v<A> && std::is_integral_v<A>) {
    return {nullptr, host_print_text(std::int64_t(a), false), host_print_text(std::int64_t(a), true)};
  } else if constexpr (std::is_integral_v<A>) {
    return {nullptr, host_print_text(std::uint64_t(a), false), host_print_text(std::uint64_t(a), true)};
  } else if constexpr (is_host_vector<A>::value) {
    PrintPart whole{nullptr, "(", "("};
    auto add = [&](const auto& component, bool last) {
      PrintPart p = print_part(component, loc);
      whole.text += p.text + (last ? ")" : ", ");
      whole.hex_text += (p.hex_text.empty() ? p.text : p.hex_text) + (last ? ")" : ", ");
    };
    add(a.x, false);
    if constexpr (vector_traits<A>::size == 2) add(a.y, true);
    if constexpr (vector_traits<A>::size == 3) add(a.y, false), add(a.z, true);
    if constexpr (vector_traits<A>::size == 4) add(a.y, false), add(a.z, false), add(a.w, true);
    return whole;
  } else {
    return {nullptr, std::string(std::string_view(a)), {}};
  }
}

// Whether the kernel being traced records prints (a TraceError outside a kernel).
bool prints_on(const SourceLoc& loc);
// Records the Print statement of `format` with its arguments in order.
void record_print(std::string_view format, std::vector<PrintPart> parts, const SourceLoc& loc);

}  // namespace detail

// A format string checked against the argument types at compile time; it also takes the
// line of the device_print call.
template <class... Args>
class PrintFormat {
 public:
  template <class S>
    requires std::convertible_to<const S&, std::string_view>
  consteval PrintFormat(const S& text, std::source_location l = std::source_location::current())  // NOLINT
      : text_(text), loc_(l) {
    constexpr bool integer[] = {detail::print_argument<Args>::integer..., false};
    detail::fail_print_format(print_format_problem(text_, std::span<const bool>(integer, sizeof...(Args))));
  }

  std::string_view text() const { return text_; }
  const std::source_location& loc() const { return loc_; }

 private:
  std::string_view text_;
  std::source_location loc_;
};

// Prints one line per invocation that executes it (see the top of this file).
template <class... Args>
void device_print(PrintFormat<std::type_identity_t<Args>...> format, const Args&... args) {
  static_assert((detail::print_argument<Args>::valid && ...),
                "device_print takes device scalars and vectors (Int, UInt, Float, Bool, Long, ULong, Vec4, ...), "
                "places holding them (Var, buffer elements), host numbers and bools, and text");
  const SourceLoc loc = format.loc();
  if (!detail::prints_on(loc)) return;
  std::vector<detail::PrintPart> parts;
  parts.reserve(sizeof...(Args));
  (parts.push_back(detail::print_part(args, loc)), ...);
  detail::record_print(format.text(), std::move(parts), loc);
}

}  // namespace sprig
