// Writing a report to a file in the format its extension names.
#include <cctype>
#include <fstream>

#include "sprig/simulator/report_formats.hpp"

namespace sprig::sim {

void save_report(const Report& report, const std::string& path) {
  const auto dot = path.find_last_of('.');
  std::string ext = dot == std::string::npos ? "" : path.substr(dot);
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));  // "REPORT.HTML" too
  std::string text;
  if (ext == ".json") text = to_json(report);
  else if (ext == ".html" || ext == ".htm") text = to_html(report);
  else if (ext == ".txt") text = to_text(report);
  else throw DeviceError("save_report: '" + path + "' has no known extension (.json, .html, .htm or .txt)");
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw DeviceError("save_report: cannot write '" + path + "'");
}

}  // namespace sprig::sim
