// How device_print's arguments travel and how they read. Both backends hand the host each
// argument as 32-bit words (a 64-bit component as its low then its high word, a float as
// its bits, a bool as 0 or 1), and the host alone turns words into text, so that every
// device prints the same characters for the same bits.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "sprig/dsl/ir.hpp"

namespace sprig::ir {

// The most words one print's arguments may take (a TraceError names the line beyond it).
inline constexpr std::uint32_t max_print_words = 64;

// Words an argument of scalar or vector type `t` takes.
std::uint32_t print_words(TypeRef t);
// Words all of a print's arguments take.
std::uint32_t print_words(const PrintFormat& format);

// One scalar of kind `k` whose bits are `bits` (a 32-bit kind in the low half), as
// std::format writes it: integers in decimal, or in hexadecimal where `hex` (a minus sign
// before the digits for negative values); bools as true or false; floats in the shortest
// form that reads back to the same float (std::to_chars), "inf" and "-inf", and every NaN
// as "nan" whatever its sign and payload, which devices do not agree on.
std::string print_scalar(ScalarKind k, std::uint64_t bits, bool hex = false);
// A value of type `t` read from `words` (print_words(t) of them): a scalar as above, a
// vector as "(x, y, z)".
std::string print_value(TypeRef t, std::span<const std::uint32_t> words, bool hex = false);
// The message of one print: the format's text with each argument's value in its place;
// `words` holds print_words(format) words, the arguments' in order.
std::string print_message(const PrintFormat& format, std::span<const std::uint32_t> words);
// The format as written, with {} (or {:x}) where each device argument goes and braces of the
// text doubled: what ir::print and error messages show.
std::string print_format_text(const PrintFormat& format);

}  // namespace sprig::ir
