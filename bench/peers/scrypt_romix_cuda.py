"""scrypt's ROMix (N = 1024, r = 1) in CUDA, in the shape of sprig's shipped kernel: four
threads a hash, each holding one Salsa20/8 quarter-column of both 64-byte blocks, the row
rounds' words exchanged by shuffles, V contiguous per hash as 16-byte vectors (the thread of
quarter q writes vectors q and 4 + q of each 128-byte entry), X in registers.

It is the stand-in that Nsight Compute can profile where sprig's Vulkan kernel cannot: if it
runs as fast as sprig's, its stall reasons say what bounds both. Only ROMix is timed (the
PBKDF2 before and after it is under 1% of scrypt's work). Hashes run in waves of
--wave (8 GiB of V at 2^16).

Prints "cuda.scrypt_romix <log2 hashes> <milliseconds>" lines (the median of CUDA-event
timings), after checking hash 0 and hash n - 1 against hashlib.scrypt (RFC 7914): PBKDF2
from hashlib around this ROMix must give its output.

    python3 bench/peers/scrypt_romix_cuda.py --log-counts 16,18,20
"""
import argparse
import hashlib

import cupy
import numpy

from cuda_timing import median_ms

N = 1024

SOURCE = r"""
#define ROTL(x, n) __funnelshift_l((x), (x), (n))
#define QR(a, b, c, d)          \
  b ^= ROTL(a + d, 7);          \
  c ^= ROTL(b + a, 9);          \
  d ^= ROTL(c + b, 13);         \
  a ^= ROTL(d + c, 18);

// Salsa20/8 of the state whose column q (words 5q, 5q+4, 5q+8, 5q+12 mod 16) this thread
// holds in s[0..3]; the row round takes b from column q+1's d, c from q+2's c, d from q+3's b.
__device__ __forceinline__ void salsa_quarter(unsigned s[4], unsigned q) {
  unsigned a = s[0], b = s[1], c = s[2], d = s[3];
  unsigned p1 = (q + 1) & 3, p2 = (q + 2) & 3, p3 = (q + 3) & 3;
#pragma unroll
  for (int round = 0; round < 8; round += 2) {
    QR(a, b, c, d)
    unsigned rb = __shfl_sync(0xffffffffu, d, p1, 4);
    unsigned rc = __shfl_sync(0xffffffffu, c, p2, 4);
    unsigned rd = __shfl_sync(0xffffffffu, b, p3, 4);
    QR(a, rb, rc, rd)
    d = __shfl_sync(0xffffffffu, rb, p3, 4);
    c = __shfl_sync(0xffffffffu, rc, p2, 4);
    b = __shfl_sync(0xffffffffu, rd, p1, 4);
  }
  s[0] += a; s[1] += b; s[2] += c; s[3] += d;
}

// BlockMix with r = 1: Y0 = Salsa(X1 ^ X0), Y1 = Salsa(Y0 ^ X1); the output is (Y0, Y1).
__device__ __forceinline__ void blockmix(unsigned x[2][4], unsigned q) {
#pragma unroll
  for (int k = 0; k < 4; ++k) x[0][k] ^= x[1][k];
  salsa_quarter(x[0], q);
#pragma unroll
  for (int k = 0; k < 4; ++k) x[1][k] ^= x[0][k];
  salsa_quarter(x[1], q);
}

// X: 32 words a hash (block i, word w at 32 h + 16 i + w), read and written in place.
extern "C" __global__ void scrypt_romix(uint4* V, unsigned* X, unsigned hashes) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned h = t >> 2, q = t & 3;
  if (h >= hashes) return;  // whole groups of four: hashes * 4 threads
  unsigned x[2][4];
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int k = 0; k < 4; ++k) x[i][k] = X[32u * h + 16u * i + ((5u * q + 4u * k) & 15u)];
  uint4* v = V + (size_t)h * %N% * 8;
  for (unsigned s = 0; s < %N%; ++s) {
    v[8u * s + q] = make_uint4(x[0][0], x[0][1], x[0][2], x[0][3]);
    v[8u * s + 4u + q] = make_uint4(x[1][0], x[1][1], x[1][2], x[1][3]);
    blockmix(x, q);
  }
  for (unsigned s = 0; s < %N%; ++s) {
    unsigned j = __shfl_sync(0xffffffffu, x[1][0], 0, 4) & (%N% - 1);
    uint4 lo = v[8u * j + q], hi = v[8u * j + 4u + q];
    x[0][0] ^= lo.x; x[0][1] ^= lo.y; x[0][2] ^= lo.z; x[0][3] ^= lo.w;
    x[1][0] ^= hi.x; x[1][1] ^= hi.y; x[1][2] ^= hi.z; x[1][3] ^= hi.w;
    blockmix(x, q);
  }
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int k = 0; k < 4; ++k) X[32u * h + 16u * i + ((5u * q + 4u * k) & 15u)] = x[i][k];
}
"""


def check(romix, v, hashes, block):
    """scrypt of a few passwords through this ROMix equals hashlib.scrypt."""
    passwords = [bytes([i % 251]) * 11 + i.to_bytes(4, "little") for i in (0, hashes - 1)]
    blocks = [hashlib.pbkdf2_hmac("sha256", pw, pw, 1, 128) for pw in passwords]
    x = cupy.zeros(32 * hashes, dtype=cupy.uint32)
    for slot, b_block in zip((0, hashes - 1), blocks):
        x[32 * slot:32 * slot + 32] = cupy.asarray(numpy.frombuffer(b_block, dtype="<u4"))
    romix(((hashes * 4 + block - 1) // block,), (block,), (v, x, cupy.uint32(hashes)))
    out = x.get()
    for slot, pw in zip((0, hashes - 1), passwords):
        mixed = out[32 * slot:32 * slot + 32].astype("<u4").tobytes()
        got = hashlib.pbkdf2_hmac("sha256", pw, mixed, 1, 32)
        if got != hashlib.scrypt(pw, salt=pw, n=N, r=1, p=1, dklen=32):
            print(f"WRONG RESULT: cuda.scrypt_romix, hash {slot}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log-counts", default="16,18,20")
    parser.add_argument("--wave", type=int, default=1 << 16, help="hashes a launch (sprig: 24,576 in 3 GiB)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--block", type=int, default=64, help="threads a block (sprig's workgroup: 64)")
    args = parser.parse_args()
    module = cupy.RawModule(code=SOURCE.replace("%N%", str(N)))
    romix = module.get_function("scrypt_romix")
    wave = args.wave
    v = cupy.empty(wave * N * 32, dtype=cupy.uint32)  # 128 N bytes a hash
    check(romix, v, wave, args.block)
    for log_count in (int(part) for part in args.log_counts.split(",")):
        hashes = 1 << log_count
        waves = (hashes + wave - 1) // wave
        per_wave = (hashes + waves - 1) // waves  # filled evenly, as sprig fills its waves
        x = cupy.random.randint(0, 2**32 - 1, size=32 * per_wave, dtype=cupy.uint64).astype(cupy.uint32)

        def run():
            for first in range(0, hashes, per_wave):
                count = min(per_wave, hashes - first)
                romix(((count * 4 + args.block - 1) // args.block,), (args.block,), (v, x, cupy.uint32(count)))

        ms = median_ms(run, args.repeat)
        print(f"cuda.scrypt_romix {log_count} {ms:.4f} (block {args.block}, waves of {per_wave},"
              f" {hashes / ms / 1e3:.3f} M hashes/s)")


if __name__ == "__main__":
    main()
