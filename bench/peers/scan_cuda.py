"""Single-pass inclusive sum scan of uint32 in CUDA, the peer that tells whether sprig's
single-pass scan loses to CUB because of its algorithm and tile shape or because of the
Vulkan path.

A decoupled look-back scan (Merrill & Garland, "Single-pass Parallel Prefix Scan with
Decoupled Look-back", 2016), written here from the paper with the structure of sprig's
kernel (stdlib/include/sprig/stdlib/scan_tile.hpp, decoupled_lookback.hpp), compiled by
NVRTC through CuPy (optimizing by default):
  * a workgroup of T threads scans a tile of T x I elements; its tile index comes from a
    global atomic counter (status word 0), as in sprig;
  * striped loads: item j of lane l in warp w is element first + w (32 I) + 32 j + l, so
    each warp owns 32 I consecutive elements and each item is one coalesced 128-byte load;
    past the end of the last (partial) tile, items are 0;
  * each item is scanned across the warp with __shfl_up_sync, the items chained by a
    running carry; warp totals go through shared memory, warp 0 scans them, and the last
    is the tile's aggregate;
  * status word 1 + t holds tile t's state in its high half (0 pending, 1 aggregate
    ready, 2 inclusive prefix ready) and the value in its low half, so one 64-bit volatile
    load gives both and no fence is needed. Tile 0 publishes its prefix at once; any other
    tile publishes its aggregate, then warp 0 looks back in windows of 32 predecessors
    (lane k reads tile window_end - 1 - k; lanes before tile 0 see a virtual prefix of 0),
    polls again while any lane of the window sees a pending tile (sleeping __nanosleep(D)
    ns between polls when D > 0), sums the values up to the nearest tile with a prefix and
    stops there, else moves the window 32 tiles back; then it publishes its inclusive prefix;
  * the status words are zeroed (cudaMemsetAsync) before each call, inside the timed
    function, as sprig zeroes them.

Forward progress: CUDA on Hopper guarantees that co-resident blocks make progress, and the
atomic counter guarantees that a tile only waits for tiles whose blocks took their index,
so started, before it; spinning on their status words is therefore safe.

In the same run, for bounds: "no-lookback", the same kernel where every tile takes 0 for
its exclusive prefix and publishes nothing (its output is wrong: timing only; it still
takes its index from the counter, and the status words are still zeroed), which shows
what the look-back costs in CUDA; "copy", a plain copy of the same bytes with 16-byte
(uint4) loads and stores; and "cub.device_scan", CUB's DeviceScan through CuPy (in place).

Prints one line per measurement (the median of CUDA-event timings after about 0.3 s of
calls, so that the GPU has clocked up), GB/s counting one read and one write of 4 n bytes:
    scan 2^28 512x16 delay=0 1.2345 ms 1739.4 GB/s (36 regs, 0 local)
    no-lookback 2^28 512x16 1.1000 ms ... (timing only, output wrong)
    copy 2^28 0.9000 ms ...
    cub.device_scan 2^28 1.0000 ms ...
and "WRONG ..." lines where a look-back scan or CUB differs from cupy.cumsum (checked at
each size and at the sizes 1, 7, 4099 and 1000003, after the first call and after timing).

    python3 bench/peers/scan_cuda.py --sizes 20,24,28 --shapes 512x16,256x16 --delays 0,100

`--blocks-per-sm 3` also times each shape's look-back with at most 3 blocks resident per SM
(unused dynamic shared memory caps them), as many as sprig's Vulkan kernel gets.
"""
import argparse
import time

import cupy

from cuda_timing import median_ms

ODD_SIZES = [1, 7, 4099, 1000003]

SOURCE = r"""
typedef unsigned int u32;
typedef unsigned long long u64;

#define FULL_MASK 0xffffffffu
#define STATE_PENDING 0ull
#define STATE_AGGREGATE 1ull
#define STATE_PREFIX 2ull

__device__ __forceinline__ u32 warp_inclusive_sum(u32 x, u32 lane) {
#pragma unroll
  for (u32 d = 1; d < 32; d <<= 1) {
    u32 y = __shfl_up_sync(FULL_MASK, x, d);
    if (lane >= d) x += y;
  }
  return x;
}

__device__ __forceinline__ u32 warp_sum(u32 x) {
#pragma unroll
  for (u32 d = 16; d > 0; d >>= 1) x += __shfl_xor_sync(FULL_MASK, x, d);
  return x;
}

__device__ __forceinline__ void publish(volatile u64* words, u32 tile, u64 state, u32 value) {
  words[tile] = (state << 32) | (u64)value;
}

// Run by all 32 lanes of warp 0 of tile `tile` once its aggregate is known. Publishes the
// aggregate, looks back, publishes the inclusive prefix; returns the exclusive prefix.
template <int D>
__device__ __forceinline__ u32 look_back(u64* status, u32 tile, u32 aggregate, u32 lane) {
  volatile u64* words = status + 1;  // words[t]: tile t's state and value
  if (tile == 0) {
    if (lane == 0) publish(words, 0, STATE_PREFIX, aggregate);
    return 0;
  }
  if (lane == 0) publish(words, tile, STATE_AGGREGATE, aggregate);
  u32 exclusive = 0;
  u32 window_end = tile;  // lane k inspects tile window_end - 1 - k
  while (true) {
    const bool real = window_end > lane;
    const u32 predecessor = window_end - 1u - lane;  // meaningless where !real
    u64 word;
    while (true) {
      word = real ? words[predecessor] : (STATE_PREFIX << 32);
      if (__all_sync(FULL_MASK, (word >> 32) != STATE_PENDING)) break;
      if constexpr (D > 0) __nanosleep(D);
    }
    const u32 prefixes = __ballot_sync(FULL_MASK, (word >> 32) == STATE_PREFIX);
    // Lanes up to the nearest tile with a prefix contribute; farther ones are covered by it.
    const u32 last_needed = prefixes ? (u32)(__ffs(prefixes) - 1) : 31u;
    exclusive += warp_sum(lane <= last_needed ? (u32)word : 0u);
    if (prefixes) break;  // always so once window_end < 32: a virtual lane sees a prefix
    window_end -= 32u;
  }
  if (lane == 0) publish(words, tile, STATE_PREFIX, exclusive + aggregate);
  return exclusive;
}

// LOOKBACK 0: every tile takes 0 as its exclusive prefix (wrong output, timing only).
// Indices are 32-bit: the host keeps n + T * I below 2^32.
template <int T, int I, int D, int LOOKBACK>
__global__ void __launch_bounds__(T) scan_tiles(const u32* __restrict__ in, u32* __restrict__ out,
                                                u64* status, u32 n) {
  static_assert(T % 32 == 0 && T >= 32 && T <= 1024, "T must be a multiple of 32, at most 1024");
  static_assert(I >= 1, "I must be positive");
  constexpr u32 WARPS = T / 32;
  constexpr u32 TILE = (u32)T * (u32)I;
  __shared__ u32 tile_index;
  __shared__ u32 tile_prefix;
  __shared__ u32 warp_prefix[WARPS];
  const u32 lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;

  if (threadIdx.x == 0) tile_index = (u32)atomicAdd(&status[0], 1ull);
  __syncthreads();
  const u32 tile = tile_index;
  const u32 first = tile * TILE;  // < n: the grid has exactly as many blocks as tiles
  const bool full = n - first >= TILE;
  const u32 base = first + warp * (32u * (u32)I) + lane;

  u32 items[I];
  if (full) {
#pragma unroll
    for (int j = 0; j < I; ++j) items[j] = in[base + 32u * (u32)j];
  } else {
#pragma unroll
    for (int j = 0; j < I; ++j) {
      const u32 i = base + 32u * (u32)j;
      items[j] = i < n ? in[i] : 0u;
    }
  }

  // Item j is 32 consecutive elements: scan it across the warp, chain with the runs before.
  u32 carry = 0;
#pragma unroll
  for (int j = 0; j < I; ++j) {
    const u32 s = warp_inclusive_sum(items[j], lane);
    items[j] = s + carry;
    carry += __shfl_sync(FULL_MASK, s, 31);
  }
  if (lane == 31) warp_prefix[warp] = carry;  // the warp's total, for now
  __syncthreads();

  if (warp == 0) {  // the whole of warp 0: uniform for the shuffles and the look-back
    const u32 total = lane < WARPS ? warp_prefix[lane] : 0u;
    const u32 scanned = warp_inclusive_sum(total, lane);
    if (lane < WARPS) warp_prefix[lane] = scanned - total;  // exclusive, within the tile
    const u32 aggregate = __shfl_sync(FULL_MASK, scanned, 31);
    u32 exclusive = 0;
    if constexpr (LOOKBACK != 0) exclusive = look_back<D>(status, tile, aggregate, lane);
    if (lane == 0) tile_prefix = exclusive;
  }
  __syncthreads();

  const u32 add = tile_prefix + warp_prefix[warp];
  if (full) {
#pragma unroll
    for (int j = 0; j < I; ++j) out[base + 32u * (u32)j] = items[j] + add;
  } else {
#pragma unroll
    for (int j = 0; j < I; ++j) {
      const u32 i = base + 32u * (u32)j;
      if (i < n) out[i] = items[j] + add;
    }
  }
}

extern "C" __global__ void copy_vec4(const uint4* __restrict__ in, uint4* __restrict__ out, u32 n4) {
  const u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) out[i] = in[i];
}
"""

COPY_BLOCK = 256


def scan_name(threads, items, delay, lookback):
    return f"scan_tiles<{threads}, {items}, {delay}, {1 if lookback else 0}>"


def parse_shape(text):
    threads, items = (int(v) for v in text.lower().split("x"))
    if threads % 32 or not 32 <= threads <= 1024 or items < 1:
        raise SystemExit(f"bad shape {text}: T must be a multiple of 32 in 32..1024, I positive")
    return threads, items


def clock_up(fn, seconds=0.3):
    """Calls fn for about `seconds`, in growing batches between synchronizations, so that
    the GPU is busy and clocks up before it is timed."""
    stop = time.perf_counter() + seconds
    batch = 1
    while time.perf_counter() < stop:
        for _ in range(batch):
            fn()
        cupy.cuda.Device().synchronize()
        batch = min(2 * batch, 256)


def timed(fn, repeat):
    clock_up(fn)
    return median_ms(fn, repeat)


def random_u32(n):
    return cupy.random.randint(0, 2**32, size=n, dtype=cupy.uint64).astype(cupy.uint32)


def tiles_of(n, shape):
    return -(-n // (shape[0] * shape[1]))


def scan_call(kernel, shape, x, out, status, n, shared_bytes=0):
    """The timed function of one scan: zero the status words, then scan x into out
    (`shared_bytes` of unused dynamic shared memory per block, to cap blocks per SM)."""
    threads, _ = shape
    tiles = tiles_of(n, shape)
    status_bytes = (tiles + 1) * 8
    assert status.nbytes >= status_bytes
    n32 = cupy.uint32(n)

    def fn():
        cupy.cuda.runtime.memsetAsync(status.data.ptr, 0, status_bytes, cupy.cuda.get_current_stream().ptr)
        kernel((tiles,), (threads,), (x, out, status, n32), shared_mem=shared_bytes)

    return fn


def check(label, got, want):
    """Prints a WRONG line when got differs from want; returns whether they agree."""
    diff = got != want
    if not bool(diff.any()):
        return True
    bad = int(cupy.count_nonzero(diff))
    at = int(cupy.argmax(diff))
    print(f"WRONG {label}: {bad} of {want.size} elements differ, first at {at} "
          f"(got {int(got[at])}, want {int(want[at])})", flush=True)
    return False


def capping_shared_bytes(kernel, blocks_per_sm, props):
    """Dynamic shared memory that lets at most `blocks_per_sm` blocks of `kernel` share an
    SM (each block also takes its static shared memory and 1 KiB the driver reserves), so
    that CUDA runs the look-back with as few tiles resident as sprig's Vulkan kernel."""
    per_sm = props["sharedMemPerMultiprocessor"]
    size = per_sm // blocks_per_sm - kernel.shared_size_bytes - 2048
    assert size * (blocks_per_sm + 1) > per_sm and size <= props["sharedMemPerBlockOptin"]
    kernel.max_dynamic_shared_size_bytes = size
    return size


def regs(kernel):
    return f"({kernel.num_regs} regs, {kernel.local_size_bytes} local)"


def size_label(n):
    return f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else str(n)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="20,24,28", help="log2 sizes")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--shapes", default="512x16,256x16,128x16,128x12,256x8", help="TxI list")
    parser.add_argument("--delays", default="0,100,400", help="nanosleep ns between polls (0: none)")
    parser.add_argument("--blocks-per-sm", default="",
                        help="also time the look-back scans (delay 0) with at most this many blocks per SM")
    args = parser.parse_args()
    caps = [int(c) for c in args.blocks_per_sm.split(",") if c]
    if caps and 0 not in [int(d) for d in args.delays.split(",")]:
        raise SystemExit("--blocks-per-sm times the scans without a delay: include 0 in --delays")
    sizes = [1 << int(s) for s in args.sizes.split(",")]
    shapes = [parse_shape(s) for s in args.shapes.split(",")]
    delays = [int(d) for d in args.delays.split(",")]
    for n in sizes:
        # 32-bit indices in the kernel: the last tile's indices must stay below 2^32.
        if n + max(t * i for t, i in shapes) > 2**32:
            raise SystemExit(f"size {n} too large for 32-bit indices")

    from cupy.cuda import nvrtc
    props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    print(f"# {name}, CUDA runtime {cupy.cuda.runtime.runtimeGetVersion()}, "
          f"driver {cupy.cuda.runtime.driverGetVersion()}, NVRTC {nvrtc.getVersion()}, "
          f"CuPy {cupy.__version__}", flush=True)

    variants = [(shape, delay, True) for shape in shapes for delay in delays]
    variants += [(shape, 0, False) for shape in shapes]
    expressions = tuple(scan_name(t, i, d, lb) for (t, i), d, lb in variants)
    module = cupy.RawModule(code=SOURCE, options=("-std=c++17",), name_expressions=expressions)
    kernels = {(shape, d, lb): module.get_function(scan_name(*shape, d, lb)) for shape, d, lb in variants}
    copy = module.get_function("copy_vec4")
    lookback_variants = [v for v in variants if v[2]]
    checks = failures = 0

    # Correctness at odd sizes (partial tiles, fewer tiles than a window, a single element).
    for n in ODD_SIZES:
        x = random_u32(n)
        want = cupy.cumsum(x, dtype=cupy.uint32)
        out = cupy.empty_like(x)
        status = cupy.zeros(max(tiles_of(n, s) for s in shapes) + 1, dtype=cupy.uint64)
        for shape, delay, _ in lookback_variants:
            out.fill(0)
            scan_call(kernels[(shape, delay, True)], shape, x, out, status, n)()
            checks += 1
            failures += not check(f"scan {n} {shape[0]}x{shape[1]} delay={delay}", out, want)
        del x, want, out, status

    for n in sizes:
        label = size_label(n)
        cupy.random.seed(n.bit_length())
        x = random_u32(n)
        want = cupy.cumsum(x, dtype=cupy.uint32)
        out = cupy.empty_like(x)
        status = cupy.zeros(max(tiles_of(n, s) for s in shapes) + 1, dtype=cupy.uint64)
        gbs = lambda ms: f"{8 * n / ms / 1e6:.1f} GB/s"

        n4 = n // 4
        copy_fn = lambda: copy(((n4 + COPY_BLOCK - 1) // COPY_BLOCK,), (COPY_BLOCK,), (x, out, cupy.uint32(n4)))
        out.fill(0)
        ms = timed(copy_fn, args.repeat)
        print(f"copy {label} {ms:.4f} ms {gbs(ms)} {regs(copy)}", flush=True)
        checks += 1
        failures += not check(f"copy {label}", out, x)

        for shape, delay, lookback in variants:
            kernel = kernels[(shape, delay, lookback)]
            fn = scan_call(kernel, shape, x, out, status, n)
            shape_label = f"{shape[0]}x{shape[1]}"
            if lookback:
                out.fill(0)
                fn()
                checks += 1
                failures += not check(f"scan {label} {shape_label} delay={delay} (first call)", out, want)
            ms = timed(fn, args.repeat)
            if lookback:
                print(f"scan {label} {shape_label} delay={delay} {ms:.4f} ms {gbs(ms)} {regs(kernel)}", flush=True)
                checks += 1
                failures += not check(f"scan {label} {shape_label} delay={delay} (after timing)", out, want)
            else:
                print(f"no-lookback {label} {shape_label} {ms:.4f} ms {gbs(ms)} {regs(kernel)}"
                      " (timing only, output wrong)", flush=True)

        for shape in shapes:
            for cap in caps:
                kernel = kernels[(shape, 0, True)]
                fn = scan_call(kernel, shape, x, out, status, n, capping_shared_bytes(kernel, cap, props))
                out.fill(0)
                ms = timed(fn, args.repeat)
                print(f"scan {label} {shape[0]}x{shape[1]} delay=0 at most {cap} blocks/SM {ms:.4f} ms {gbs(ms)} "
                      f"{regs(kernel)}", flush=True)
                checks += 1
                failures += not check(f"scan {label} {shape[0]}x{shape[1]} at most {cap} blocks/SM", out, want)
                kernel.max_dynamic_shared_size_bytes = 0

        try:
            from cupy.cuda import cub
            scanned = x.copy()
            result = cub.device_scan(scanned, cub.CUPY_CUB_CUMSUM)  # in place; returns the array
            checks += 1
            failures += not check(f"cub.device_scan {label}", scanned if result is None else result, want)
            ms = timed(lambda: cub.device_scan(scanned, cub.CUPY_CUB_CUMSUM), args.repeat)
            print(f"cub.device_scan {label} {ms:.4f} ms {gbs(ms)}", flush=True)
            del scanned, result
        except Exception as error:  # a CuPy without CUB, or a changed interface
            print(f"cub.device_scan {label} failed: {type(error).__name__}: {error}", flush=True)

        del x, want, out, status
        cupy.get_default_memory_pool().free_all_blocks()

    print(f"# checks: {checks - failures} of {checks} right", flush=True)


if __name__ == "__main__":
    main()
