#include "campaign.hpp"

#include "features.hpp"
#include "printer.hpp"
#include "reducer.hpp"

namespace sprig::fuzz {

Failure reduce_failure(Runner& runner, const Program& program, const Outcome& outcome, std::size_t attempts) {
  Failure f;
  f.seed = program.seed;
  f.outcome = outcome;
  f.original_size = program_size(program);
  Outcome last = outcome;
  Program reduced = reduce(
      program,
      [&](const Program& candidate) {
        Outcome o = runner.run(candidate);
        if (o.verdict != outcome.verdict) return false;
        last = o;
        return true;
      },
      attempts);
  f.reduced_size = program_size(reduced);
  f.reduced = print_inputs(reduced) + print_program(reduced);
  f.reduced_detail = runner.run(reduced).detail;
  return f;
}

CampaignResult run_campaign(Runner& runner, const CampaignOptions& options) {
  CampaignResult result;
  for (std::size_t i = 0; i < options.seeds; ++i) {
    Program p = generate(options.first_seed + i, options.generator);
    for (const std::string& f : features(p)) ++result.features[f];
    Outcome o = runner.run(p);
    ++result.programs;
    ++result.verdicts[to_string(o.verdict)];
    if (o.verdict != Verdict::Match) {
      Failure f;
      if (options.reduce) {
        f = reduce_failure(runner, p, o, options.reduce_attempts);
      } else {
        f.seed = p.seed;
        f.outcome = o;
      }
      if (options.on_failure) options.on_failure(f);
      result.failures.push_back(std::move(f));
    }
    if (options.on_progress) options.on_progress(i + 1);
  }
  return result;
}

}  // namespace sprig::fuzz
