"""BLAKE3 chunk chaining values in CUDA, the peer that tells how far sprig's chunk-parallel
BLAKE3 is from what the same GPU does with the same work through CUDA.

The work of the chunk kernel of hash::blake3_fixed: one thread per 1 KiB chunk of a
buffer (chunk g is bytes 1024 g .. 1024 g + 1023, chunk counter g % chunks_per_message),
its 16 blocks compressed in turn (BLAKE3 specification, section 2.2; flags CHUNK_START on
the first block and CHUNK_END on the last), its 8-word chaining value written. Compiled by
NVRTC through CuPy (optimizing by default). Three ways to load a block:
  * "words": 16 loads of 4 bytes, as sprig's word path;
  * "vec4": 4 loads of 16 bytes (uint4), as sprig's vector path;
  * "warp": the 32 lanes of a warp load 8 chunks' blocks at a time, 2 whole 64-byte blocks
    per load instruction of 16 bytes a lane, and hand each lane its words by shuffles.

The adds of the quarter-round G in several forms (--adds, comma-separated), to tell which
of them NVIDIA's multiply-add pipe should take (a multiply by a kernel argument of 1 that
the compiler cannot fold): "plain"; "a", the two adds into a as (a * 1 + b) * 1 + m; "c",
c * 1 + d; "ac", both; "a1", a * 1 + (b + m); "a1c", that and c * 1 + d.

Prints "<kernel>.<adds> <MiB> <milliseconds> <GB/s> (registers, local memory)" lines (the
median of CUDA-event timings), and checks one chaining value against a Python model of the
compression.

    python3 bench/peers/blake3_cuda.py --mib 256 [--adds plain,a,ac]
"""
import argparse

import cupy

from cuda_timing import median_ms

IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
PERMUTATION = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8]  # specification, table 2
CHUNK_START, CHUNK_END = 1, 2

SOURCE = r"""
#define ROTR(x, n) __funnelshift_r((x), (x), (n))
#ifndef ADD_A
#define ADD_A(a, b, m) (a + b + (m))
#endif
#ifndef ADD_C
#define ADD_C(c, d) (c + d)
#endif
#define G(a, b, c, d, mx, my)                     \
  a = ADD_A(a, b, mx); d = ROTR(d ^ a, 16);      \
  c = ADD_C(c, d);     b = ROTR(b ^ c, 12);      \
  a = ADD_A(a, b, my); d = ROTR(d ^ a, 8);       \
  c = ADD_C(c, d);     b = ROTR(b ^ c, 7);

__device__ __forceinline__ void compress(unsigned* cv, const unsigned* m, unsigned counter, unsigned flags,
                                         unsigned one) {
  unsigned s0 = cv[0], s1 = cv[1], s2 = cv[2], s3 = cv[3], s4 = cv[4], s5 = cv[5], s6 = cv[6], s7 = cv[7];
  unsigned s8 = %IV0%, s9 = %IV1%, s10 = %IV2%, s11 = %IV3%, s12 = counter, s13 = 0, s14 = 64, s15 = flags;
%ROUNDS%
  cv[0] = s0 ^ s8; cv[1] = s1 ^ s9; cv[2] = s2 ^ s10; cv[3] = s3 ^ s11;
  cv[4] = s4 ^ s12; cv[5] = s5 ^ s13; cv[6] = s6 ^ s14; cv[7] = s7 ^ s15;
}

__device__ __forceinline__ unsigned block_flags(int b) {
  return (b == 0 ? %START% : 0) | (b == 15 ? %END% : 0);
}

__device__ __forceinline__ void start(unsigned* cv) {
  cv[0] = %IV0%; cv[1] = %IV1%; cv[2] = %IV2%; cv[3] = %IV3%;
  cv[4] = %IV4%; cv[5] = %IV5%; cv[6] = %IV6%; cv[7] = %IV7%;
}

__device__ __forceinline__ void finish(unsigned* out, unsigned g, const unsigned* cv) {
#pragma unroll
  for (int k = 0; k < 8; ++k) out[8 * g + k] = cv[k];
}

extern "C" __global__ void blake3_chunks_words(const unsigned* data, unsigned* out, unsigned chunks,
                                               unsigned per_message, unsigned one) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= chunks) return;
  unsigned cv[8];
  start(cv);
  for (int b = 0; b < 16; ++b) {
    unsigned m[16];
#pragma unroll
    for (int j = 0; j < 16; ++j) m[j] = data[256u * g + 16u * b + j];
    compress(cv, m, g % per_message, block_flags(b), one);
  }
  finish(out, g, cv);
}

extern "C" __global__ void blake3_chunks_vec4(const uint4* data, unsigned* out, unsigned chunks,
                                              unsigned per_message, unsigned one) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= chunks) return;
  unsigned cv[8];
  start(cv);
  for (int b = 0; b < 16; ++b) {
    unsigned m[16];
#pragma unroll
    for (int v = 0; v < 4; ++v) {
      uint4 q = data[64u * g + 4u * b + v];
      m[4 * v] = q.x; m[4 * v + 1] = q.y; m[4 * v + 2] = q.z; m[4 * v + 3] = q.w;
    }
    compress(cv, m, g % per_message, block_flags(b), one);
  }
  finish(out, g, cv);
}

// Lane l of load k reads vector l % 4 of block b of chunk 8 k + l / 4 of the warp's 32
// chunks: each load instruction reads eight whole 64-byte blocks. Lane c then needs vector
// v of its chunk, which load c / 8 brought to lane 4 (c % 8) + v.
extern "C" __global__ void blake3_chunks_warp(const uint4* data, unsigned* out, unsigned chunks,
                                              unsigned per_message, unsigned one) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;  // chunks is a multiple of 32
  if (g >= chunks) return;
  unsigned lane = threadIdx.x & 31u, warp_first = g - lane;
  unsigned cv[8];
  start(cv);
  for (int b = 0; b < 16; ++b) {
    uint4 loaded[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) loaded[k] = data[64u * (warp_first + 8u * k + lane / 4u) + 4u * b + lane % 4u];
    unsigned m[16];
#pragma unroll
    for (int v = 0; v < 4; ++v) {
      unsigned source = 4u * (lane % 8u) + v;
      unsigned wanted = lane / 8u;
      uint4 q = make_uint4(0, 0, 0, 0);
      // Every lane takes part in each shuffle: all four loads go round, each lane keeps its own.
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        uint4 t;
        t.x = __shfl_sync(0xffffffffu, loaded[k].x, source);
        t.y = __shfl_sync(0xffffffffu, loaded[k].y, source);
        t.z = __shfl_sync(0xffffffffu, loaded[k].z, source);
        t.w = __shfl_sync(0xffffffffu, loaded[k].w, source);
        if (wanted == k) q = t;
      }
      m[4 * v] = q.x; m[4 * v + 1] = q.y; m[4 * v + 2] = q.z; m[4 * v + 3] = q.w;
    }
    compress(cv, m, g % per_message, block_flags(b), one);
  }
  finish(out, g, cv);
}
"""


def rotr(x, n):
    return ((x >> n) | (x << (32 - n))) & 0xffffffff


def compress_model(cv, m, counter, flags):
    s = list(cv) + IV[:4] + [counter, 0, 64, flags]

    def g(a, b, c, d, mx, my):
        s[a] = (s[a] + s[b] + mx) & 0xffffffff
        s[d] = rotr(s[d] ^ s[a], 16)
        s[c] = (s[c] + s[d]) & 0xffffffff
        s[b] = rotr(s[b] ^ s[c], 12)
        s[a] = (s[a] + s[b] + my) & 0xffffffff
        s[d] = rotr(s[d] ^ s[a], 8)
        s[c] = (s[c] + s[d]) & 0xffffffff
        s[b] = rotr(s[b] ^ s[c], 7)

    for r in range(7):
        g(0, 4, 8, 12, m[0], m[1]); g(1, 5, 9, 13, m[2], m[3])
        g(2, 6, 10, 14, m[4], m[5]); g(3, 7, 11, 15, m[6], m[7])
        g(0, 5, 10, 15, m[8], m[9]); g(1, 6, 11, 12, m[10], m[11])
        g(2, 7, 8, 13, m[12], m[13]); g(3, 4, 9, 14, m[14], m[15])
        m = [m[p] for p in PERMUTATION]
    return [s[i] ^ s[i + 8] for i in range(8)]


def chunk_cv_model(words, counter):
    cv = IV[:]
    for b in range(16):
        flags = (CHUNK_START if b == 0 else 0) | (CHUNK_END if b == 15 else 0)
        cv = compress_model(cv, words[16 * b: 16 * b + 16], counter, flags)
    return cv


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mib", type=int, default=256)
    parser.add_argument("--message-kib", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--kernels", default="words,vec4,warp")
    parser.add_argument("--adds", default="plain")
    args = parser.parse_args()
    # The message schedule of each round as indices into the first round's words.
    order, schedule = list(range(16)), []
    for _ in range(7):
        schedule.append(order)
        order = [order[p] for p in PERMUTATION]
    # Seven rounds written out, so that every message word index is a constant.
    lanes = [(0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15),
             (0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)]
    rounds = "\n".join(
        f"  G(s{a}, s{b}, s{c}, s{d}, m[{row[2 * i]}], m[{row[2 * i + 1]}])"
        for row in schedule for i, (a, b, c, d) in enumerate(lanes))
    source = SOURCE.replace("%ROUNDS%", rounds)
    source = source.replace("%START%", str(CHUNK_START)).replace("%END%", str(CHUNK_END))
    for j, v in enumerate(IV):
        source = source.replace(f"%IV{j}%", hex(v))
    add_forms = {
        "plain": "",
        "a": "#define ADD_A(a, b, m) ((a * one + b) * one + (m))\n",
        "c": "#define ADD_C(c, d) (c * one + d)\n",
        "a1": "#define ADD_A(a, b, m) (a * one + (b + (m)))\n",
    }
    add_forms["ac"] = add_forms["a"] + add_forms["c"]
    add_forms["a1c"] = add_forms["a1"] + add_forms["c"]
    unknown = [adds for adds in args.adds.split(",") if adds not in add_forms]
    if unknown:
        parser.error(f"--adds: unknown form(s) {', '.join(unknown)}; expected some of {', '.join(add_forms)}")
    modules = {adds: cupy.RawModule(code=add_forms[adds] + source) for adds in args.adds.split(",")}
    total = args.mib << 20
    chunks = total // 1024
    per_message = args.message_kib
    data = cupy.random.randint(0, 2**32 - 1, size=total // 4, dtype=cupy.uint64).astype(cupy.uint32)
    out = cupy.zeros(8 * chunks, dtype=cupy.uint32)
    block = 64
    grid = (chunks + block - 1) // block
    probe = 12345 % chunks
    expected = chunk_cv_model([int(x) for x in data[256 * probe: 256 * probe + 256].get()], probe % per_message)
    for adds, module in modules.items():
        for name in args.kernels.split(","):
            kernel = module.get_function("blake3_chunks_" + name)
            out.fill(0)
            ms = median_ms(lambda: kernel((grid,), (block,), (data, out, cupy.uint32(chunks), cupy.uint32(per_message),
                                                             cupy.uint32(1))), args.repeat)
            print(f"cuda.blake3_chunks_{name}.{adds} {args.mib} {ms:.4f} {total / ms / 1e6:.1f}"
                  f" (registers {kernel.num_regs}, local memory {kernel.local_size_bytes} bytes)")
            if [int(x) for x in out[8 * probe: 8 * probe + 8].get()] != expected:
                print(f"WRONG RESULT: cuda.blake3_chunks_{name}.{adds}")


if __name__ == "__main__":
    main()
