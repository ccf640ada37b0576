// scrypt (RFC 7914) in the DSL: the Salsa20/8 core, ROMix over device scratch memory in two
// layouts and two work splits, batched hashing of (password, salt) pairs, and a Litecoin-
// style mining search over a nonce range. One include for all of it.
#pragma once

#include "sprig/stdlib/hash/salsa20_8.hpp"
#include "sprig/stdlib/hash/scrypt_blockmix.hpp"
#include "sprig/stdlib/hash/scrypt_batch.hpp"
#include "sprig/stdlib/hash/scrypt_host.hpp"
#include "sprig/stdlib/hash/scrypt_params.hpp"
#include "sprig/stdlib/hash/scrypt_plan.hpp"
#include "sprig/stdlib/hash/scrypt_romix.hpp"
#include "sprig/stdlib/hash/scrypt_search.hpp"
