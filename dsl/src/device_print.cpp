// The lambda-independent half of device_print (device_print.hpp): the format cut into the
// text around each device argument, with host values written into that text, and the
// Print statement.
#include "sprig/dsl/device_print.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <system_error>

#include "sprig/dsl/print_text.hpp"

namespace sprig::detail {

namespace {

template <class T>
std::string integer_text(T v, bool hex) {
  char text[72];
  auto [end, error] = std::to_chars(text, text + sizeof text, v, hex ? 16 : 10);
  return error == std::errc{} ? std::string(text, end) : "?";
}

}  // namespace

std::string host_print_text(std::int64_t v, bool hex) { return integer_text(v, hex); }
std::string host_print_text(std::uint64_t v, bool hex) { return integer_text(v, hex); }
std::string host_print_text(float v) { return ir::print_scalar(ir::ScalarKind::F32, std::bit_cast<std::uint32_t>(v)); }

std::string host_print_text(double v) {
  if (std::isnan(v)) return "nan";  // as print_scalar writes every NaN
  char text[48];
  auto [end, error] = std::to_chars(text, text + sizeof text, v);
  return error == std::errc{} ? std::string(text, end) : "?";
}

bool prints_on(const SourceLoc& loc) { return ir::Builder::current(loc).kernel().prints_on; }

void record_print(std::string_view format, std::vector<PrintPart> parts, const SourceLoc& loc) {
  ir::Builder& b = ir::Builder::current(loc);
  ir::PrintFormat print;
  print.loc = loc;
  print.text.emplace_back();
  std::vector<ir::NodeRef> operands;
  std::size_t next = 0;
  auto problem = walk_print_format(
      format, [&](char c) { print.text.back() += c; },
      [&](bool hex) {
        if (next >= parts.size()) return;
        PrintPart& part = parts[next++];
        if (part.node == nullptr) {
          print.text.back() += hex && !part.hex_text.empty() ? part.hex_text : part.text;
          return;
        }
        if (!part.node->type->is_scalar() && !part.node->type->is_vector())
          throw TraceError("device_print: argument " + std::to_string(next) + " is a " +
                               ir::to_string(part.node->type) + "; print scalars and vectors",
                           loc);
        operands.push_back(part.node);
        print.arguments.push_back(part.node->type);
        print.hex.push_back(hex);
        print.text.emplace_back();
      });
  // The format was checked at compile time; these hold for any caller of this function.
  if (problem != PrintFormatProblem::None || next != parts.size())
    throw TraceError("device_print: the format \"" + std::string(format) + "\" does not fit its " +
                         std::to_string(parts.size()) + " arguments",
                     loc);
  if (std::uint32_t words = ir::print_words(print); words > ir::max_print_words)
    throw TraceError("device_print: the arguments take " + std::to_string(words) + " 32-bit words; one print takes " +
                         std::to_string(ir::max_print_words) + " at most (split it into several)",
                     loc);
  ir::Kernel& k = b.kernel();
  b.statement(ir::Op::Print, ir::void_type(), std::move(operands), loc, k.prints.size());
  k.prints.push_back(std::move(print));
}

}  // namespace sprig::detail
