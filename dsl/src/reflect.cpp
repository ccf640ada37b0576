#include "sprig/dsl/reflect.hpp"

#include <cctype>

namespace sprig::detail {

std::vector<std::string> split_field_names(std::string_view names) {
  std::vector<std::string> out(1);
  for (char c : names) {
    if (c == ',')
      out.emplace_back();
    else if (!std::isspace(static_cast<unsigned char>(c)))
      out.back() += c;
  }
  return out;
}

}  // namespace sprig::detail
