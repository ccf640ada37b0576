// The hashing library, written in the DSL: SHA-256 (batched, double, HMAC, PBKDF2), the
// ChaCha keystream and BLAKE3. Bytes live in little-endian uint32 words (byte_words.hpp).
#pragma once

#include "sprig/stdlib/hash/blake3_batch.hpp"
#include "sprig/stdlib/hash/blake3_compress.hpp"
#include "sprig/stdlib/hash/blake3_fixed.hpp"
#include "sprig/stdlib/hash/blake3_message.hpp"
#include "sprig/stdlib/hash/byte_words.hpp"
#include "sprig/stdlib/hash/chacha_block.hpp"
#include "sprig/stdlib/hash/chacha_keystream.hpp"
#include "sprig/stdlib/hash/hmac_pbkdf2_batch.hpp"
#include "sprig/stdlib/hash/hmac_sha256.hpp"
#include "sprig/stdlib/hash/pbkdf2_sha256.hpp"
#include "sprig/stdlib/hash/sha256_batch.hpp"
#include "sprig/stdlib/hash/sha256_compress.hpp"
#include "sprig/stdlib/hash/sha256_message.hpp"
#include "sprig/stdlib/hash/word_vars.hpp"
#include "sprig/stdlib/hash/scrypt.hpp"
