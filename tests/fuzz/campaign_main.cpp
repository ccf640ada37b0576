// sprig-fuzz: a differential fuzzing campaign against one Vulkan device.
//
//   sprig-fuzz --seeds 10000 --first 1 --device "H100"
//
// Prints each failure (reduced) as it is found, then a summary: programs, verdicts,
// per-feature counts. Exit status 1 if any program failed.
#include <execinfo.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>

#include "campaign.hpp"
#include "fuzz_kernel.hpp"
#include "printer.hpp"
#include "reducer.hpp"

using namespace sprig;

namespace {

void usage() {
  std::cerr << "usage: sprig-fuzz [--seeds N] [--first S] [--device NAME] [--no-reduce] [--reduce-attempts N]\n"
               "                  [--no-subgroups] [--no-approx-floats] [--validation] [--features] [--print]\n"
               "                  [--reduce-crash SEED] [--swap-opcodes FROM:TO] [--generator VERSION]\n"
               "--generator 2 makes version 2's programs (without floor division and vector constructors),\n"
               "to reproduce seeds of earlier campaigns; the default is the latest version.\n"
               "--print writes the programs of the seeds as DSL source and runs nothing.\n"
               "--reduce-crash reduces a program that crashes the process (a driver crash), running each\n"
               "candidate in a child process that opens the device itself.\n"
               "--swap-opcodes injects an emitter bug (every SPIR-V instruction FROM becomes TO), to measure\n"
               "how quickly the fuzzer notices one.\n";
}

// A crash inside a driver kills the campaign: say where (frames as binary(+offset), for
// addr2line) before dying.
void print_crash_stack(int signal_number) {
  void* frames[64];
  int n = backtrace(frames, 64);
  const char message[] = "sprig-fuzz: fatal signal; stack:\n";
  (void)!write(2, message, sizeof message - 1);
  backtrace_symbols_fd(frames, n, 2);
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

// Whether running `p` kills a child process that opens the device on its own (the parent
// never touches Vulkan, so forking is safe).
bool crashes(const fuzz::Program& p, const std::string& device_name) {
  std::cout.flush();
  pid_t pid = fork();
  if (pid == 0) {
    vk::Device device = device_name.empty() ? vk::Device::best() : vk::Device::open(device_name);
    fuzz::Runner runner(device);
    runner.run(p);
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFSIGNALED(status);
}

// The default SPIR-V compiler with every instruction `from` turned into `to` (same operands).
vk::SpirvCompiler swapping_compiler(std::uint32_t from, std::uint32_t to) {
  return [from, to](const ir::Kernel& k) {
    compiler::CompileOptions options;
    options.validate = false;
    std::vector<std::uint32_t> words = compiler::compile(k, options);
    for (std::size_t i = 5; i < words.size();) {  // instructions follow the 5-word header
      std::uint32_t count = words[i] >> 16;
      if ((words[i] & 0xFFFFu) == from) words[i] = (count << 16) | to;
      i += count == 0 ? 1 : count;
    }
    return words;
  };
}

int reduce_crash(std::uint64_t seed, const fuzz::GeneratorOptions& generator, const std::string& device_name,
                 std::size_t attempts) {
  fuzz::Program p = fuzz::generate(seed, generator);
  if (!crashes(p, device_name)) {
    std::cout << "seed " << seed << " does not crash\n";
    return 0;
  }
  fuzz::ReduceStats stats;
  fuzz::Program reduced = fuzz::reduce(
      p, [&](const fuzz::Program& candidate) { return crashes(candidate, device_name); }, attempts, &stats);
  std::cout << "=== seed " << seed << " crashes; reduced from " << fuzz::program_size(p) << " to "
            << fuzz::program_size(reduced) << " nodes in " << stats.attempts << " attempts:\n"
            << fuzz::print_inputs(reduced) << fuzz::print_program(reduced) << "--- its SPIR-V:\n"
            << compiler::disassemble(*fuzz::trace_program(reduced).ir(), false);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGSEGV, print_crash_stack);
  std::signal(SIGBUS, print_crash_stack);
  fuzz::CampaignOptions options;
  std::string device_name;
  bool validation = false, show_features = false, print_only = false;
  std::optional<std::uint64_t> crash_seed;
  std::optional<std::pair<std::uint32_t, std::uint32_t>> swap;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        usage();
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--seeds") options.seeds = std::stoull(value());
    else if (a == "--first") options.first_seed = std::stoull(value(), nullptr, 0);
    else if (a == "--device") device_name = value();
    else if (a == "--no-reduce") options.reduce = false;
    else if (a == "--reduce-attempts") options.reduce_attempts = std::stoull(value());
    else if (a == "--no-subgroups") options.generator.subgroups = false;
    else if (a == "--no-approx-floats") options.generator.approx_floats = false;
    else if (a == "--generator") {
      options.generator.version = std::stoi(value());
      if (options.generator.version < 2 || options.generator.version > fuzz::latest_generator_version) {
        std::cerr << "sprig-fuzz: no generator version " << options.generator.version << " (2 to "
                  << fuzz::latest_generator_version << ")\n";
        return 2;
      }
    }
    else if (a == "--validation") validation = true;
    else if (a == "--features") show_features = true;
    else if (a == "--print") print_only = true;
    else if (a == "--reduce-crash") crash_seed = std::stoull(value(), nullptr, 0);
    else if (a == "--swap-opcodes") {
      std::string v = value();
      std::size_t colon = v.find(':');
      if (colon == std::string::npos) {
        usage();
        return 2;
      }
      swap.emplace(std::stoul(v.substr(0, colon)), std::stoul(v.substr(colon + 1)));
    }
    else {
      usage();
      return 2;
    }
  }
  if (print_only) {
    for (std::size_t i = 0; i < options.seeds; ++i) {
      fuzz::Program p = fuzz::generate(options.first_seed + i, options.generator);
      std::cout << fuzz::print_inputs(p) << fuzz::print_program(p) << "\n";
    }
    return 0;
  }
  if (crash_seed) return reduce_crash(*crash_seed, options.generator, device_name, options.reduce_attempts);
  vk::Options vk_options;
  vk_options.validation = validation;
  if (swap) vk_options.spirv_compiler = swapping_compiler(swap->first, swap->second);
  vk::Device device = device_name.empty() ? vk::Device::best(vk_options) : vk::Device::open(device_name, vk_options);
  fuzz::Runner runner(device);
  std::cout << "sprig-fuzz: " << device.name() << " (" << device.info().driver_version << "), subgroup size "
            << runner.subgroup_size() << ", seeds " << options.first_seed << ".."
            << options.first_seed + options.seeds - 1 << ", generator version " << options.generator.version
            << std::endl;
  options.on_failure = [](const fuzz::Failure& f) {
    std::cout << "\n=== seed " << f.seed << ": " << fuzz::to_string(f.outcome.verdict) << "\n" << f.outcome.detail;
    if (!f.reduced.empty())
      std::cout << "--- reduced from " << f.original_size << " to " << f.reduced_size << " nodes:\n"
                << f.reduced << "--- reduced program's differences:\n" << f.reduced_detail;
    std::cout << std::endl;
  };
  options.on_progress = [&](std::size_t done) {
    if (done % 100 == 0) std::cout << "[" << done << "/" << options.seeds << "]" << std::endl;
  };
  fuzz::CampaignResult result = fuzz::run_campaign(runner, options);

  std::cout << "\nsummary: " << result.programs << " programs on " << device.name() << "\n";
  for (auto& [verdict, n] : result.verdicts) std::cout << "  " << verdict << ": " << n << "\n";
  if (!result.failures.empty()) {
    std::cout << "  failing seeds:";
    for (const auto& f : result.failures) std::cout << " " << f.seed;
    std::cout << "\n";
  }
  if (show_features) {
    std::cout << "programs per feature:\n";
    for (auto& [feature, n] : result.features) std::cout << "  " << feature << ": " << n << "\n";
  } else {
    std::cout << "features exercised: " << result.features.size() << " (--features lists them)\n";
  }
  return result.failures.empty() ? 0 : 1;
}
