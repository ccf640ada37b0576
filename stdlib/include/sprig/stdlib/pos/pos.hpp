// Proof-of-space plotting in the DSL (Chia's construction under Abundance's or Subspace's
// rules): F1, bucketing, matching and compute_fn, proofs, record encoding, batched
// verification and quality strings, written as sprig kernels. docs/pos.md.
#pragma once

#include "sprig/stdlib/pos/bit_string.hpp"
#include "sprig/stdlib/pos/buckets.hpp"
#include "sprig/stdlib/pos/compute_fn.hpp"
#include "sprig/stdlib/pos/f1.hpp"
#include "sprig/stdlib/pos/find_matches.hpp"
#include "sprig/stdlib/pos/params.hpp"
#include "sprig/stdlib/pos/plotter.hpp"
#include "sprig/stdlib/pos/proofs.hpp"
#include "sprig/stdlib/pos/quality.hpp"
#include "sprig/stdlib/pos/record_encoding.hpp"
#include "sprig/stdlib/pos/subspace.hpp"
#include "sprig/stdlib/pos/verify.hpp"
