// Writes a plot file (plot_file_format.hpp) to any std::ostream, refusing what the reader
// would refuse: a header of impossible K, rules or record count, a record of another K, of
// the wrong sizes or whose bitmap and s-buckets disagree, more or fewer records than the
// header counts. Every refusal, and a failed stream, is a PlotFileError naming the file and
// the record.
//
//   pos::PlotFileWriter writer(out, {k, mode, records}, path);
//   for (...) writer.write(seed, plotter.result());
//   writer.finish();
//
// Durability is the caller's: sprig-plot writes to FILE.partial, records its progress as it
// goes, and renames it when finish() returns (tools/sprig-plot/resumable_file.hpp); a run
// that was stopped continues through PlotFileWriter::continuing.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "sprig/stdlib/pos/plot_file_format.hpp"
#include "sprig/stdlib/pos/plot_result.hpp"

namespace sprig::pos {

class PlotFileWriter {
 public:
  // Checks and writes the header; `name` names the file in errors.
  PlotFileWriter(std::ostream& out, const PlotFileHeader& header, std::string name);

  // For a stream that already holds the header and the first `records_written` records (an
  // interrupted run being resumed): writes nothing until the next record.
  static PlotFileWriter continuing(std::ostream& out, const PlotFileHeader& header, std::string name,
                                   std::uint32_t records_written);

  const PlotFileHeader& header() const { return header_; }
  std::uint32_t records_written() const { return written_; }

  // Checks and writes the next record.
  void write(const Seed& seed, const PlotResult& result);
  // After the last record: checks that the header's count was written and flushes.
  void finish();

 private:
  PlotFileWriter(std::ostream& out, const PlotFileHeader& header, std::string name, std::uint32_t records_written);
  [[noreturn]] void fail(const std::string& what) const;
  void check_stream(const char* what) const;

  std::ostream& out_;
  PlotFileHeader header_;
  std::string name_;
  std::uint32_t written_ = 0;
};

}  // namespace sprig::pos
