// fuzz-printed-programs OUT.cpp: writes the printer's source of a few generated programs
// into a C++ file that test_fuzz compiles (printer_test.cpp), so that printed programs are
// known to compile and to compute what the tracer's kernels compute. The seeds are chosen
// among the first ones for what they exercise (features.cpp): each in turn the one that adds
// the most features the earlier ones lack.
#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "features.hpp"
#include "generator.hpp"
#include "printer.hpp"

using namespace sprig;

namespace {

constexpr std::uint64_t seeds_scanned = 400;
constexpr std::size_t most_programs = 24;

// Every line of `source`, indented by two spaces.
std::string indented(const std::string& source) {
  std::string out = "  ";
  for (char c : source) {
    out += c;
    if (c == '\n') out += "  ";
  }
  return out.substr(0, out.size() - 2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: fuzz-printed-programs OUT.cpp\n";
    return 2;
  }
  std::vector<std::set<std::string>> features;
  for (std::uint64_t seed = 1; seed <= seeds_scanned; ++seed) features.push_back(fuzz::features(fuzz::generate(seed)));
  std::set<std::string> covered;
  std::vector<fuzz::Program> chosen;
  while (chosen.size() < most_programs) {
    std::size_t best = 0, best_gain = 0;
    for (std::size_t i = 0; i < features.size(); ++i) {
      std::size_t gain = 0;
      for (const std::string& f : features[i]) gain += covered.count(f) == 0;
      if (gain > best_gain) best = i, best_gain = gain;
    }
    if (best_gain == 0) break;
    covered.insert(features[best].begin(), features[best].end());
    chosen.push_back(fuzz::generate(best + 1));
  }
  std::ofstream out(argv[1]);
  out << "// Written by fuzz-printed-programs (tests/fuzz/printed_programs_main.cpp) at build time.\n"
         "#include <limits>\n\n"
         "#include \"printed_programs.hpp\"\n\n"
         "namespace sprig::fuzz {\n\n"
         "namespace {\n\n";
  for (const fuzz::Program& p : chosen) {
    out << "FuzzKernel seed_" << p.seed << "() {\n" << indented(fuzz::print_program(p)) << "  return k;\n}\n\n";
  }
  out << "}  // namespace\n\n"
         "const std::vector<PrintedProgram>& printed_programs() {\n"
         "  static const std::vector<PrintedProgram> programs = {\n";
  for (const fuzz::Program& p : chosen) out << "      {" << p.seed << ", seed_" << p.seed << "},\n";
  out << "  };\n"
         "  return programs;\n"
         "}\n\n"
         "}  // namespace sprig::fuzz\n";
  if (!out) {
    std::cerr << "fuzz-printed-programs: cannot write " << argv[1] << "\n";
    return 1;
  }
  return 0;
}
