// The pieces of the HTML report that its sections share: escaping and cells, and the
// source view's index, which gives every source line a finding points at an anchor so
// that the tables can link to it (report_html.cpp puts the page together).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sprig/simulator/report.hpp"

namespace sprig::sim::html {

std::string escape(const std::string& s);
std::string percent(double v);
// "(x, y, z)"
std::string invocation(const std::array<std::uint32_t, 3>& id);
// A cell coloured from red (v = 0) to green (v = 1).
std::string rated_cell(double v, const std::string& text, const char* kind);
// A cell sorted by `key` rather than by its text (a number, or a string compared naturally).
std::string keyed_cell(const std::string& key, const std::string& content, const char* kind = nullptr);
// "12.50 (ideal 2.00)", per request, or "" without requests.
std::string per_request(std::uint64_t actual, std::uint64_t ideal, std::uint64_t requests);

// One note beside a source line, tied to the finding it comes from ("race-1", "site-4",
// "error-0"...) so that following the finding's link highlights it, and to its kernel
// for the kernel filter.
struct Note {
  std::string kernel;
  std::string finding;
  std::string text;
};

// What the report knows about one source line.
struct LineFacts {
  double coalescing = 2;  // worst access efficiency; > 1: no access
  double simt = 2;        // worst SIMT efficiency; > 1: no operation
  std::vector<Note> notes;
};

// The source files the report refers to, in the order the page shows them, each with the
// lines it mentions. Every mentioned line is shown, so each has an anchor.
class SourceView {
 public:
  explicit SourceView(const Report& r);

  // The id of the source row of `loc` ("src-2-41"), or "" when the line is not shown.
  std::string anchor(const SourceLoc& loc) const;
  // "file.cpp:12" (the whole path as its title), linked to its source row when it has one.
  std::string link(const SourceLoc& loc) const;
  void write(std::ostringstream& out) const;
  bool empty() const { return files_.empty(); }

 private:
  std::map<std::string, std::map<std::uint32_t, LineFacts>> files_;
  std::map<std::string, std::size_t> index_;  // a file's number in the ids
};

// The location's display text ("file.cpp:12"), escaped.
std::string where(const SourceLoc& loc);

// The finding ids that tie a table row to its notes in the source view.
inline std::string finding_id(const char* kind, std::size_t i) { return std::string(kind) + "-" + std::to_string(i); }

// The sortable, filterable table of access sites, branches and loops.
void write_sites(std::ostringstream& out, const Report& r, const SourceView& source);

}  // namespace sprig::sim::html
