"""SHA-256 of 7-byte messages in CUDA, the peer that tells whether sprig's gap to hashcat
is its SPIR-V path or hashcat's algorithm.

Two kernels, compiled by NVRTC through CuPy (optimizing by default) on the same GPU as bench_hash:
  * "fixed": the work of hash::sha256_fixed at 7 bytes: message i read from byte 7 i of a
    buffer, its digest written (8 words);
  * "search": the work of hashcat's -m 1400 benchmark: candidate i made from the index (its
    first four bytes, the other three fixed), compared with a target digest; the digest's
    last word is known after round 60, so a candidate it rules out skips the last three
    rounds and the schedule words they read, and nothing is written unless it matches.

Prints "<kernel> <log2 count> <milliseconds>" lines (the median of CUDA-event timings).

    python3 bench/peers/sha256_cuda.py --log-count 24
"""
import argparse

import cupy

from cuda_timing import median_ms

K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]  # FIPS 180-4, section 4.2.2
IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]

SOURCE = r"""
#define ROTR(x, n) __funnelshift_r((x), (x), (n))
#define S0(x) (ROTR(x, 2) ^ ROTR(x, 13) ^ ROTR(x, 22))
#define S1(x) (ROTR(x, 6) ^ ROTR(x, 11) ^ ROTR(x, 25))
#define s0(x) (ROTR(x, 7) ^ ROTR(x, 18) ^ ((x) >> 3))
#define s1(x) (ROTR(x, 17) ^ ROTR(x, 19) ^ ((x) >> 10))
#define CH(e, f, g) (((e) & (f)) ^ (~(e) & (g)))
#define MAJ(a, b, c) (((a) & (b)) | ((c) & ((a) | (b))))
__constant__ unsigned K[64] = {%K%};

__device__ __forceinline__ unsigned bswap(unsigned x) { return __byte_perm(x, 0, 0x0123); }

// Rounds first..last-1 of one block whose schedule words are w[0..63] (computed on the fly).
#define ROUND(t)                                                                    \
  {                                                                                 \
    unsigned t1 = h + S1(e) + CH(e, f, g) + K[t] + w[(t) & 15];                     \
    unsigned t2 = S0(a) + MAJ(a, b, c);                                             \
    h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;              \
  }
#define SCHEDULE(t) \
  w[(t) & 15] = s1(w[((t) - 2) & 15]) + w[((t) - 7) & 15] + s0(w[((t) - 15) & 15]) + w[(t) & 15];

__device__ __forceinline__ void block7(unsigned w0, unsigned w1, unsigned* out, bool search, unsigned target7,
                                       unsigned* found) {
  unsigned w[16];
  w[0] = w0; w[1] = w1;
#pragma unroll
  for (int j = 2; j < 15; ++j) w[j] = 0;
  w[15] = 56;
  unsigned a = %IV0%, b = %IV1%, c = %IV2%, d = %IV3%, e = %IV4%, f = %IV5%, g = %IV6%, h = %IV7%;
#pragma unroll
  for (int t = 0; t < 16; ++t) ROUND(t)
#pragma unroll
  for (int t = 16; t < 61; ++t) { SCHEDULE(t) ROUND(t) }
  if (search) {
    // After round 60, e becomes h three rounds later: the digest's last word.
    if (e + %IV7% != target7) return;
  }
#pragma unroll
  for (int t = 61; t < 64; ++t) { SCHEDULE(t) ROUND(t) }
  if (search) {
    atomicAdd(found, 1u);
    return;
  }
  out[0] = a + %IV0%; out[1] = b + %IV1%; out[2] = c + %IV2%; out[3] = d + %IV3%;
  out[4] = e + %IV4%; out[5] = f + %IV5%; out[6] = g + %IV6%; out[7] = h + %IV7%;
}

extern "C" __global__ void sha256_fixed7(const unsigned* messages, unsigned* digests, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  // Bytes 7i .. 7i + 6, little-endian words as stored; SHA-256 reads them big-endian.
  unsigned byte = 7u * i, word = byte >> 2, shift = (byte & 3u) * 8u;
  unsigned lo = messages[word], mid = messages[word + 1], hi = messages[word + 2];
  unsigned b0 = __funnelshift_r(lo, mid, shift), b1 = __funnelshift_r(mid, hi, shift);
  unsigned w0 = bswap(b0), w1 = (bswap(b1) & 0xffffff00u) | 0x80u;
  block7(w0, w1, digests + 8u * i, false, 0, nullptr);
}

extern "C" __global__ void sha256_search7(unsigned suffix, unsigned target7, unsigned* found, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  block7(i, suffix | 0x80u, nullptr, true, target7, found);
}
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log-count", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    source = SOURCE.replace("%K%", ", ".join(hex(k) for k in K))
    for j, v in enumerate(IV):
        source = source.replace(f"%IV{j}%", hex(v))
    module = cupy.RawModule(code=source)
    fixed, search = module.get_function("sha256_fixed7"), module.get_function("sha256_search7")
    n = 1 << args.log_count
    block = 256
    grid = (n + block - 1) // block
    messages = cupy.random.randint(0, 2**32 - 1, size=(7 * n) // 4 + 3, dtype=cupy.uint64).astype(cupy.uint32)
    digests = cupy.zeros(8 * n, dtype=cupy.uint32)
    found = cupy.zeros(1, dtype=cupy.uint32)
    ms = median_ms(lambda: fixed((grid,), (block,), (messages, digests, cupy.uint32(n))), args.repeat)
    print(f"cuda.sha256_fixed7 {args.log_count} {ms:.4f}")
    # Check one digest against hashlib: the kernel hashes what bench_hash hashes.
    import hashlib
    raw = messages.get().tobytes()
    want = hashlib.sha256(raw[7 * 5: 7 * 5 + 7]).digest()
    got = b"".join(int(x).to_bytes(4, "big") for x in digests[40:48].get())
    if got != want:
        print("WRONG RESULT: cuda.sha256_fixed7")
    # 16x the candidates, as bench_hash's search does; a target no candidate meets.
    count = 16 * n
    ms = median_ms(lambda: search(((count + block - 1) // block,), (block,),
                                  (cupy.uint32(0x61626300), cupy.uint32(0), found, cupy.uint32(count))),
                   args.repeat)
    print(f"cuda.sha256_search7 {args.log_count + 4} {ms:.4f}")


if __name__ == "__main__":
    main()
