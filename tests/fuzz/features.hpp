// What a program exercises, as names ("binary:Rem", "stmt:SharedRound", "type:IVec3"), for
// a campaign's per-feature counts and the CI test's coverage check.
#pragma once

#include <set>
#include <string>

#include "program.hpp"

namespace sprig::fuzz {

std::set<std::string> features(const Program& program);

}  // namespace sprig::fuzz
