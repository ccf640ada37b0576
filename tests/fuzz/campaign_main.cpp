// sprig-fuzz: a differential fuzzing campaign against one Vulkan device.
//
//   sprig-fuzz --seeds 10000 --first 1 --device "H100"
//
// Prints each failure (reduced) as it is found, then a summary: programs, verdicts,
// per-feature counts. Exit status 1 if any program failed.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "campaign.hpp"
#include "printer.hpp"

using namespace sprig;

namespace {

void usage() {
  std::cerr << "usage: sprig-fuzz [--seeds N] [--first S] [--device NAME] [--no-reduce] [--reduce-attempts N]\n"
               "                  [--no-subgroups] [--no-approx-floats] [--validation] [--features] [--print]\n"
               "--print writes the programs of the seeds as DSL source and runs nothing.\n";
}

}  // namespace

int main(int argc, char** argv) {
  fuzz::CampaignOptions options;
  std::string device_name;
  bool validation = false, show_features = false, print_only = false;
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
    else if (a == "--validation") validation = true;
    else if (a == "--features") show_features = true;
    else if (a == "--print") print_only = true;
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
  vk::Options vk_options;
  vk_options.validation = validation;
  vk::Device device = device_name.empty() ? vk::Device::best(vk_options) : vk::Device::open(device_name, vk_options);
  fuzz::Runner runner(device);
  std::cout << "sprig-fuzz: " << device.name() << " (" << device.info().driver_version << "), subgroup size "
            << runner.subgroup_size() << ", seeds " << options.first_seed << ".."
            << options.first_seed + options.seeds - 1 << std::endl;
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
