// A fuzzing campaign over consecutive seeds: generate, run, reduce what fails, tally.
// Shared by the sprig-fuzz program and the CI test.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "generator.hpp"
#include "runner.hpp"

namespace sprig::fuzz {

struct Failure {
  std::uint64_t seed = 0;
  Outcome outcome;          // of the original program
  std::string reduced;      // the reduced program's source and inputs ("" if not reduced)
  std::string reduced_detail;
  std::size_t original_size = 0, reduced_size = 0;
};

struct CampaignResult {
  std::size_t programs = 0;
  std::map<std::string, std::size_t> verdicts;  // verdict -> programs
  std::map<std::string, std::size_t> features;  // feature -> programs using it
  std::vector<Failure> failures;
};

struct CampaignOptions {
  std::uint64_t first_seed = 1;
  std::size_t seeds = 100;
  bool reduce = true;
  std::size_t reduce_attempts = 1500;
  GeneratorOptions generator;
  std::function<void(const Failure&)> on_failure;  // called as each failure is found and reduced
  std::function<void(std::size_t done)> on_progress;
};

CampaignResult run_campaign(Runner& runner, const CampaignOptions& options);

// The reduced program for a failure of `program` under `runner`, printed with its inputs.
Failure reduce_failure(Runner& runner, const Program& program, const Outcome& outcome, std::size_t attempts);

}  // namespace sprig::fuzz
