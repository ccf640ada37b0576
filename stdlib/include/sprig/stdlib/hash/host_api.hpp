// Hashing from the host: one call per hash of host bytes (or field elements), on any
// sprig::Device — Vulkan or the simulator — through the library's kernels, with batched
// forms for many messages. Nothing to pack, upload or read back by hand.
//
//   hash::sha256(device, "abc").hex()        hash::sha256_batch(device, records, 64)
//   hash::blake3(device, bytes)              hash::blake3_batch(device, {"a", "bc"})
//   hash::scrypt(device, password, salt, {1024, 8, 16}, 64)
//   hash::rescue_hash(device, {1, 2, 3})     hash::rescue_permute(device, state)
//
// Bytes are taken as a ByteView (byte_view.hpp); digests come back as Digest<N> (a
// std::array with hex()). Every batched hash also takes a list of devices and deals the
// batch over them (batch_devices.hpp). docs/hashing.md describes the whole library.
#pragma once

#include "sprig/stdlib/hash/batch_devices.hpp"
#include "sprig/stdlib/hash/blake3_host.hpp"
#include "sprig/stdlib/hash/byte_view.hpp"
#include "sprig/stdlib/hash/digest.hpp"
#include "sprig/stdlib/hash/hex.hpp"
#include "sprig/stdlib/hash/rescue_host.hpp"
#include "sprig/stdlib/hash/scrypt_host.hpp"
#include "sprig/stdlib/hash/sha256_host.hpp"
#include "sprig/stdlib/hash/u64_words.hpp"
