// The standard library's parallel primitives, written in the DSL and run on any backend:
// reduce, inclusive/exclusive scan, stream compaction (copy_if, partition), radix sort;
// and its libraries: hashing, prime fields, elliptic curves, stream pipelines.
#pragma once

#include "sprig/stdlib/compact.hpp"
#include "sprig/stdlib/curve/curve.hpp"
#include "sprig/stdlib/field/field.hpp"
#include "sprig/stdlib/hash/hash.hpp"
#include "sprig/stdlib/operators.hpp"
#include "sprig/stdlib/pipeline/pipeline.hpp"
#include "sprig/stdlib/sort/radix_sort.hpp"
#include "sprig/stdlib/reduce.hpp"
#include "sprig/stdlib/scan.hpp"
