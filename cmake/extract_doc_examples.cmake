# Extracts the ```cpp blocks of one markdown page into a C++ translation unit, so that the
# examples in README.md and docs/*.md are compiled (and some run) by tests/docs (test_docs).
# Run as: cmake -DPAGE=<page.md> -DNAME=<name in test names> -DOUTPUT=<file.cpp> -P extract_doc_examples.cmake
#
# Convention. Every ```cpp block is compiled, by default as the body of a function that is
# never called, with `using namespace sprig;` and tests/docs/doc_example_prelude.hpp (sprig,
# the stdlib, Catch2, the suite's backends) in scope; `#include` lines move to the top of
# the file. Write elided code as `/* ... */` or `// ...`, so that the block stays C++. An
# HTML comment right before the block (blank lines between allowed) changes that:
#
#   <!-- doc-test: run              the block is the body of a Catch2 TEST_CASE, which runs
#   global:                         lines after this header go at namespace scope (structs)
#   struct Params { float scale; };
#   SPRIG_STRUCT(Params, scale)
#   before:                         hidden lines before the block (the default section):
#   sprig::Device& device = sprig::test::device(SPRIG_BACKEND);   names the block uses
#   after:                          hidden lines after the block: checks of its results
#   REQUIRE(device.download(y)[0] == 2.0f);
#   -->
#
#   <!-- doc-test: compile          the default mode, written out to give hidden lines
#   <!-- doc-test: skip (reason) --> not compiled; the reason is required
#
# Each section appears at most once; a block that runs should launch what it defines and
# check the results, on both backends where it takes its device from sprig::test::device.
#
# A test case is named "docs: <page>: <heading above the block>" and tagged [docs], and also
# [vulkan] when its code names vk:: (the suite's rule for tests that need a Vulkan device).
# #line directives point compile errors and failed checks at the markdown's own lines.

cmake_minimum_required(VERSION 3.25)
if(NOT PAGE OR NOT NAME OR NOT OUTPUT)
  message(FATAL_ERROR "usage: cmake -DPAGE=<page.md> -DNAME=<name> -DOUTPUT=<file.cpp> -P extract_doc_examples.cmake")
endif()

# CMake lists split at ';', unless escaped by '\' or inside '[' ']', all common in C++: they
# are swapped for placeholders while the page is a list of lines, and swapped back on output.
set(backslash "@DOC_BACKSLASH@")
set(semicolon "@DOC_SEMICOLON@")
set(lbracket "@DOC_LBRACKET@")
set(rbracket "@DOC_RBRACKET@")
file(READ "${PAGE}" text)
string(REPLACE "\\" "${backslash}" text "${text}")
string(REPLACE ";" "${semicolon}" text "${text}")
string(REPLACE "[" "${lbracket}" text "${text}")
string(REPLACE "]" "${rbracket}" text "${text}")
string(REPLACE "\r" "" text "${text}")
# Each line is prefixed with '|' so that empty lines survive as list elements.
string(REPLACE "\n" ";|" lines "|${text}")

function(fail line message)
  message(FATAL_ERROR "${PAGE}:${line}: ${message}")
endfunction()

set(includes "")         # hoisted #include lines
set(body "")             # the examples, each in its own namespace
set(test_names "")       # to keep test case names unique
set(heading "")
set(in_fence OFF)        # inside any fence
set(in_cpp OFF)          # inside a ```cpp fence
set(in_marker OFF)       # inside a doc-test comment
set(have_marker OFF)     # a marker waits for its block
set(number 0)

# Appends `code` (a list of lines, each prefixed with "|" as empty elements would be lost,
# starting at markdown line `first`) to the variable `var`, after a #line directive.
macro(append_lines var first code)
  if(NOT "${${code}}" STREQUAL "")
    string(APPEND ${var} "#line ${first} \"${PAGE}\"\n")
    foreach(l IN LISTS ${code})
      string(SUBSTRING "${l}" 1 -1 l)
      string(APPEND ${var} "${l}\n")
    endforeach()
  endif()
endmacro()

foreach(raw IN LISTS lines)
  math(EXPR number "${number} + 1")
  string(SUBSTRING "${raw}" 1 -1 line)
  string(STRIP "${line}" stripped)

  if(in_marker)
    # Hidden code of a doc-test comment, by section, up to "-->".
    string(FIND "${line}" "-->" close)
    if(NOT close EQUAL -1)
      string(SUBSTRING "${line}" 0 ${close} line)
      string(STRIP "${line}" stripped)
    endif()
    if(stripped MATCHES "^(global|before|after):$")
      set(section ${CMAKE_MATCH_1})
      if(NOT "${hidden_${section}}" STREQUAL "")
        fail(${number} "the section ${section}: appears twice")
      endif()
    elseif(NOT stripped STREQUAL "" OR NOT "${hidden_${section}}" STREQUAL "")
      # A section's lines are consecutive (blank lines inside it kept), for #line.
      if("${hidden_${section}}" STREQUAL "")
        set(hidden_${section}_line ${number})
      endif()
      list(APPEND hidden_${section} "|${line}")
    endif()
    if(NOT close EQUAL -1)
      set(in_marker OFF)
    endif()
    continue()
  endif()

  if(in_cpp)
    if(stripped STREQUAL "```")
      # The block is complete: write it out.
      set(code "${hidden_global}${hidden_before}${hidden_after}${block}")
      set(tags "${lbracket}docs${rbracket}")
      if(code MATCHES "vk::")
        string(APPEND tags "${lbracket}vulkan${rbracket}")
      endif()
      string(APPEND body "\nnamespace line_${block_line} {\n")
      append_lines(body "${hidden_global_line}" hidden_global)
      string(APPEND body "#line ${block_line} \"${PAGE}\"\n")
      if(mode STREQUAL "run")
        set(name "docs: ${NAME}: ${heading}")
        set(base "${name}")
        set(count 1)
        while("${name}" IN_LIST test_names)
          math(EXPR count "${count} + 1")
          set(name "${base} ${count}")
        endwhile()
        list(APPEND test_names "${name}")
        string(APPEND body "TEST_CASE(\"${name}\", \"${tags}\") {\n")
      else()
        string(APPEND body "[[maybe_unused]] void example() {\n")
      endif()
      append_lines(body "${hidden_before_line}" hidden_before)
      math(EXPR first "${block_line} + 1")
      append_lines(body ${first} block)
      append_lines(body "${hidden_after_line}" hidden_after)
      string(APPEND body "#line ${number} \"${PAGE}\"\n")
      string(APPEND body "}\n}  // namespace line_${block_line}\n")
      set(in_cpp OFF)
      set(in_fence OFF)
    elseif(stripped MATCHES "^#[ \t]*include")
      list(APPEND includes "#line ${number} \"${PAGE}\"" "${stripped}")
      list(APPEND block "|// ${stripped} (at the top of the file)")
    else()
      list(APPEND block "|${line}")
    endif()
    continue()
  endif()

  if(in_fence)
    if(stripped MATCHES "^```")
      set(in_fence OFF)
    endif()
    continue()
  endif()

  if(stripped MATCHES "^<!--[ \t]*doc-test:[ \t]*(.*)$")
    if(have_marker)
      fail(${number} "two doc-test comments before one block")
    endif()
    set(rest "${CMAKE_MATCH_1}")
    set(marker_line ${number})
    foreach(s global before after)
      set(hidden_${s} "")
    endforeach()
    set(section before)
    string(FIND "${rest}" "-->" close)
    if(close EQUAL -1)
      set(in_marker ON)
    else()
      string(SUBSTRING "${rest}" 0 ${close} rest)
    endif()
    string(STRIP "${rest}" rest)
    if(rest MATCHES "^(compile|run)$")
      set(mode ${CMAKE_MATCH_1})
    elseif(rest MATCHES "^skip[ \t]*(.*)$")
      set(mode skip)
      if(CMAKE_MATCH_1 STREQUAL "")
        fail(${number} "doc-test: skip needs a reason")
      endif()
    else()
      fail(${number} "unknown doc-test mode '${rest}' (compile, run or skip (reason))")
    endif()
    set(have_marker ON)
    continue()
  endif()

  if(stripped MATCHES "^```")
    if(stripped MATCHES "^```(cpp|c\\+\\+)$" AND NOT (have_marker AND mode STREQUAL "skip"))
      set(in_cpp ON)
      set(block "")
      set(block_line ${number})
      if(NOT have_marker)
        set(mode compile)
        foreach(s global before after)
          set(hidden_${s} "")
        endforeach()
      endif()
    elseif(have_marker AND NOT stripped MATCHES "^```(cpp|c\\+\\+)$")
      fail(${marker_line} "a doc-test comment must come right before a ```cpp block")
    endif()
    set(in_fence ON)
    set(have_marker OFF)
    continue()
  endif()

  if(have_marker AND NOT stripped STREQUAL "")
    fail(${marker_line} "a doc-test comment must come right before a ```cpp block")
  endif()
  if(stripped MATCHES "^#+[ \t]+(.*)$")
    # Test names avoid what Catch2's test specs give a meaning (, [ ] * " \ ~).
    string(REGEX REPLACE "[^A-Za-z0-9 ._:/()'-]" "" heading "${CMAKE_MATCH_1}")
  endif()
endforeach()
if(in_fence OR in_marker)
  fail(${number} "the page ends inside a fence or a doc-test comment")
endif()

set(out "// Generated by cmake/extract_doc_examples.cmake from ${NAME}: edit the markdown, not this file.\n")
if(NOT body STREQUAL "")
  string(APPEND out "#include \"doc_example_prelude.hpp\"\n")
  foreach(l IN LISTS includes)
    string(APPEND out "${l}\n")
  endforeach()
  string(APPEND out "\nnamespace {\nusing namespace sprig;\n${body}}  // namespace\n")
endif()
string(REPLACE "${semicolon}" ";" out "${out}")
string(REPLACE "${backslash}" "\\" out "${out}")
string(REPLACE "${lbracket}" "[" out "${out}")
string(REPLACE "${rbracket}" "]" out "${out}")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT "${old}" STREQUAL "${out}")
  file(WRITE "${OUTPUT}" "${out}")
endif()
