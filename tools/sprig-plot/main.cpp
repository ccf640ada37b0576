// sprig-plot: proof-of-space plotting from the command line (Abundance's or Subspace's
// rules, docs/pos.md).
//
//   sprig-plot plot --seed HEX64 --k 20 [--mode subspace] --output record.plot
//   sprig-plot plot --sector-id HEX64 --piece-offset 0 --records 16 --output sector.plot
//   sprig-plot verify --input sector.plot
//   sprig-plot bench --k 20 --records 20
//
// Exit status: 0 done, 1 invalid proofs or malformed records found, 2 the user's mistake (a
// bad option, an unreadable, unwritable or damaged file, a device or a --memory-budget too
// small for K), 3 any other failure.
#include <cstdio>
#include <exception>
#include <type_traits>
#include <variant>

#include <sprig/runtime/memory_budget.hpp>
#include <sprig/stdlib/pos/plot_file_format.hpp>

#include "atomic_file.hpp"
#include "command_line.hpp"
#include "commands.hpp"

using namespace sprig_plot;

namespace {

int fail(const char* message, int status) {
  std::fprintf(stderr, "sprig-plot: error: %s\n", message);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::optional<Command> command = parse_command_line(argc, argv);
    if (!command) return 0;  // --help
    return std::visit(
        [](const auto& options) {
          using Options = std::decay_t<decltype(options)>;
          if constexpr (std::is_same_v<Options, PlotOptions>) return run_plot(options);
          if constexpr (std::is_same_v<Options, VerifyOptions>) return run_verify(options);
          if constexpr (std::is_same_v<Options, BenchOptions>) return run_bench(options);
        },
        *command);
  } catch (const UsageError& e) {
    return fail(e.what(), 2);
  } catch (const sprig::pos::PlotFileError& e) {
    return fail(e.what(), 2);
  } catch (const sprig::MemoryBudgetExceeded& e) {  // the --memory-budget given is too small
    return fail(e.what(), 2);
  } catch (const AtomicFileError& e) {  // the plot file could not be created, written or renamed
    return fail(e.what(), 2);
  } catch (const std::exception& e) {
    return fail(e.what(), 3);
  }
}
