// device_print at trace time: the format checks, located errors, the IR it records, valid
// SPIR-V, and prints switched off costing nothing (the same IR hash and SPIR-V words as the
// kernel without them).
#include <array>

#include <catch2/catch.hpp>

#include "backends.hpp"
#include "print_capture.hpp"

using namespace sprig;

namespace {

constexpr PrintFormatProblem problem(std::string_view format, std::initializer_list<bool> integer) {
  return print_format_problem(format, std::span<const bool>(integer.begin(), integer.size()));
}

// One kernel body, with or without its print: both traced from the same source lines, so
// even their debug information agrees.
template <bool Printing>
void scale(ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
  UInt i = global_id().x();
  if_(i < in.size(), [&] {
    UInt v = in[i];
    if constexpr (Printing) device_print("v = {}, twice {}, again {:x}, {}", v, v * 2u + 7u, in[i], 3.5f);
    if_(i % 2u == 0u, [&] {
      if constexpr (Printing) device_print("even {}", cast<std::uint64_t>(v) << 33u);
      out[i] = v + 1u;
    });
  });
}

// The kernel of scale<Printing>, traced from one line whichever it is.
template <bool Printing>
auto scale_kernel(KernelOptions options) {
  return kernel("scale", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) { scale<Printing>(in, out); },
                options);
}

}  // namespace

TEST_CASE("device_print formats are checked against their arguments at compile time") {
  STATIC_REQUIRE(problem("{} and {:x}", {false, true}) == PrintFormatProblem::None);
  STATIC_REQUIRE(problem("{{}} {{ }}", {}) == PrintFormatProblem::None);
  STATIC_REQUIRE(problem("{} {}", {true}) == PrintFormatProblem::MorePlaceholdersThanArguments);
  STATIC_REQUIRE(problem("{}", {true, true}) == PrintFormatProblem::FewerPlaceholdersThanArguments);
  STATIC_REQUIRE(problem("{:x}", {false}) == PrintFormatProblem::HexNeedsAnInteger);
  STATIC_REQUIRE(problem("{0}", {true}) == PrintFormatProblem::UnknownPlaceholder);
  STATIC_REQUIRE(problem("{", {}) == PrintFormatProblem::UnknownPlaceholder);
  STATIC_REQUIRE(problem("}", {}) == PrintFormatProblem::UnmatchedClosingBrace);
  STATIC_REQUIRE(problem("{}}", {true}) == PrintFormatProblem::UnmatchedClosingBrace);

  // Which arguments count as integers for {:x}.
  STATIC_REQUIRE(detail::print_argument<UInt>::integer);
  STATIC_REQUIRE(detail::print_argument<Expr<i64vec2>>::integer);
  STATIC_REQUIRE(detail::print_argument<Var<UInt>>::integer);
  STATIC_REQUIRE(detail::print_argument<int>::integer);
  STATIC_REQUIRE(!detail::print_argument<Float>::integer);
  STATIC_REQUIRE(!detail::print_argument<Bool>::integer);
  STATIC_REQUIRE(!detail::print_argument<bool>::integer);
  // What device_print takes at all.
  STATIC_REQUIRE(detail::print_argument<Place<float, Access::Read>>::valid);
  STATIC_REQUIRE(!detail::print_argument<Place<float, Access::Write>>::valid);
  STATIC_REQUIRE(!detail::print_argument<Expr<std::array<std::uint32_t, 2>>>::valid);
  STATIC_REQUIRE(detail::print_argument<char[5]>::valid);
  STATIC_REQUIRE(detail::print_argument<std::string>::valid);
}

TEST_CASE("device_print records its format and arguments in the IR") {
  auto k = kernel("print_ir", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = in[i];
    device_print("in[{}] = {:x} ({} {{}})", i, in[i], "host");
  }, workgroup(64));
  const ir::Kernel& ir = *k.ir();
  REQUIRE(ir.prints.size() == 1);
  const ir::PrintFormat& format = ir.prints[0];
  CHECK(format.text == std::vector<std::string>{"in[", "] = ", " (host {})"});
  CHECK(format.arguments == std::vector<ir::TypeRef>{ir::scalar_type(ir::ScalarKind::U32),
                                                     ir::scalar_type(ir::ScalarKind::U32)});
  CHECK(format.hex == std::vector<bool>{false, true});
  CHECK(std::string(format.loc.file) == __FILE__);
  CHECK(ir::print_binding(ir) == 2);
  std::string printed = ir::print(ir);
  CHECK(printed.find("print0: \"in[{}] = {:x} ({} {{}})\"") == std::string::npos);  // host text is part of the text
  CHECK(printed.find("print0: \"in[{}] = {:x} (host {{}})\"") != std::string::npos);
  CHECK(printed.find("Print(0)") != std::string::npos);
}

TEST_CASE("device_print's mistakes at trace time name the user's line") {
  const std::uint32_t outside_line = __LINE__ + 2;
  try {
    device_print("outside a kernel");
    FAIL("no TraceError");
  } catch (const TraceError& e) {
    CHECK(e.where().line == outside_line);
  }

  const std::uint32_t wide_line = __LINE__ + 5;
  try {
    (void)kernel("print_too_wide", [] {
      Expr<u64vec2> w(cast<std::uint64_t>(global_id().x()), 1ull);
      // 17 arguments of 4 words: 68 words, more than one print takes.
      device_print("{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}", w, w, w, w, w, w, w, w, w, w, w, w, w, w, w, w, w);
    });
    FAIL("no TraceError");
  } catch (const TraceError& e) {
    CHECK(e.where().line == wide_line);
    CHECK_THAT(e.what(),
               Catch::Contains("device_print: the arguments take 68 32-bit words; one print takes 64 at most"));
  }

  // A value traced inside a branch cannot be printed after it, as for any other use.
  CHECK_THROWS_AS(kernel("print_out_of_scope", [] {
                    Expr<std::uint32_t> inner = 0u;
                    if_(global_id().x() == 0u, [&] { inner = global_id().x() + 1u; });
                    device_print("{}", inner);
                  }),
                  TraceError);
}

TEST_CASE("printing kernels are valid SPIR-V with one extra binding") {
  auto k = kernel("print_spirv", [](ReadBuffer<std::uint32_t> in, Buffer<float> out, Float scale) {
    UInt i = global_id().x();
    Expr<i64vec2> wide(cast<std::int64_t>(in[i]), -1ll);
    device_print("{} {} {} {} {}", in[i], out[i] * scale, wide, BVec3(i == 0u, false, true), cast<std::int32_t>(i));
  }, workgroup(32, 2));
  const std::vector<std::uint32_t> words = compiler::emit(*k.ir());
  CHECK(compiler::validation_errors(words).empty());
  std::string text = compiler::disassemble(words);
  CHECK(text.find("%device_print_buffer") != std::string::npos);
  CHECK(text.find("OpDecorate %device_print_buffer Binding 2") != std::string::npos);
  CHECK(text.find("OpAtomicIAdd") != std::string::npos);
}

TEST_CASE("prints switched off cost nothing: the kernel is the one without them") {
  auto off = scale_kernel<true>(workgroup(64).prints(false));
  auto on = scale_kernel<true>(workgroup(64));
  auto without = scale_kernel<false>(workgroup(64));

  CHECK(off.ir()->prints.empty());
  CHECK(off.hash() == without.hash());
  CHECK(compiler::emit(*off.ir(), false) == compiler::emit(*without.ir(), false));
  // Debug information too: the same source lines, and no trace of the prints.
  CHECK(compiler::emit(*off.ir(), true) == compiler::emit(*without.ir(), true));

  CHECK(on.ir()->prints.size() == 2);
  CHECK(on.hash() != without.hash());
  CHECK(compiler::emit(*on.ir(), false) != compiler::emit(*without.ir(), false));

  // The process default, for kernels that do not choose.
  const bool before = device_prints_default();
  set_device_prints(false);
  auto default_off = scale_kernel<true>(workgroup(64));
  auto chosen_on = scale_kernel<true>(workgroup(64).prints(true));
  set_device_prints(before);
  CHECK(default_off.hash() == without.hash());
  CHECK(compiler::emit(*default_off.ir()) == compiler::emit(*without.ir()));
  CHECK(chosen_on.hash() == on.hash());
}

TEST_CASE("a kernel traced with prints off prints nothing and computes the same") {
  sprig::Device& device = sprig::test::device(SPRIG_BACKEND);
  sprig::test::PrintCapture capture(device);
  auto off = scale_kernel<true>(workgroup(64).prints(false));
  auto on = scale_kernel<true>(workgroup(64));
  auto in = device.upload(std::vector<std::uint32_t>{10, 20, 30});
  auto out = device.upload(std::vector<std::uint32_t>(3, 0));
  device.run(off, grid(3), in, out);
  CHECK(capture.take().lines.empty());
  CHECK(device.download(out) == std::vector<std::uint32_t>{11, 0, 31});
  device.run(on, grid(3), in, out);
  CHECK(sprig::test::invocations_and_messages(capture.take().lines) ==
        std::vector<std::string>{"wg(0,0,0) local(0,0,0): v = 10, twice 27, again a, 3.5",
                                 "wg(0,0,0) local(0,0,0): even 85899345920",
                                 "wg(0,0,0) local(1,0,0): v = 20, twice 47, again 14, 3.5",
                                 "wg(0,0,0) local(2,0,0): v = 30, twice 67, again 1e, 3.5",
                                 "wg(0,0,0) local(2,0,0): even 257698037760"});
}
