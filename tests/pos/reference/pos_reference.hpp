// The CPU reference of proof-of-space plotting, all of it: the oracle that device
// kernels are compared with, stage by stage. Plain C++; it shares no code with the DSL.
#pragma once

#include "blake3.hpp"
#include "chacha8.hpp"
#include "compute_fn.hpp"
#include "f1.hpp"
#include "find_matches.hpp"
#include "match_rule.hpp"
#include "params.hpp"
#include "proof_packing.hpp"
#include "proof_targets.hpp"
#include "proofs.hpp"
#include "quality.hpp"
#include "record_encoding.hpp"
#include "tables.hpp"
#include "verify.hpp"
