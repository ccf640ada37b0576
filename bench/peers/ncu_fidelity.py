#!/usr/bin/env python3
"""The CUDA side of bench_sim_fidelity (bench/sim_fidelity.cpp): the same kernels written in
CUDA C, element for element (same names, grids, workgroups, data and access patterns),
launched once each through CuPy so that Nsight Compute can measure them, and the reader
that turns ncu's CSV into the file `bench_sim_fidelity --ncu` reads.

    ncu_fidelity.py run [--checksums FILE]   launch every kernel once (CuPy, a GPU); each
                                             output is checked against numpy and its checksum
                                             printed (and written to FILE)
    ncu_fidelity.py reference                the numpy checksums only (no GPU)
    ncu_fidelity.py source                   print the CUDA source (to inspect its SASS)
    ncu_fidelity.py convert --csv NCU.csv --checksums FILE --out ncu_fidelity.txt

bench/sim_fidelity_ncu.sh runs `run` under ncu and then `convert`. The kernels are written
so that the compiler emits the memory instructions the DSL kernel has: one load or store per
DSL access, of the same width (uint2 and uint4 for the vector kernels, 32-bit words
elsewhere: no access here is contiguous within a thread, so nothing gets vectorized), and a
real branch where the DSL kernel branches (the two sides are long chains of different
operations, too long to predicate and too different to merge).
"""
import argparse
import collections
import csv
import io
import sys

N = 1 << 16  # invocations of the one-dimensional kernels
GROUP = 256
SIDE = 256  # transposes: SIDE x SIDE words
TILE = 32
SHARED_WORDS = 1024
CHAIN = 64
SCAN_N = 1 << 18
SCAN_ITEMS = 16  # the stdlib tile: 256 invocations x 16 items

CUDA_SOURCE = r"""
// Twins of the DSL kernels of bench/sim_fidelity.cpp, same names.
#define N_MASK 0xffffu           // n - 1, n = 2^16
#define SIDE 256u
#define TILE 32u
#define SHARED_WORDS 1024u
#define GROUP 256u
#define CHAIN 64

__device__ __forceinline__ unsigned global_x() { return blockIdx.x * blockDim.x + threadIdx.x; }

extern "C" __global__ void fid_copy(const unsigned* in, unsigned* out) {
  unsigned i = global_x();
  out[i] = in[i];
}

#define FID_STRIDE(S)                                                           \
  extern "C" __global__ void fid_stride_##S(const unsigned* in, unsigned* out) { \
    unsigned i = global_x();                                                    \
    out[i] = in[i * S##u];                                                      \
  }
FID_STRIDE(2)
FID_STRIDE(4)
FID_STRIDE(32)
FID_STRIDE(33)

extern "C" __global__ void fid_broadcast(const unsigned* in, unsigned* out) {
  unsigned i = global_x();
  out[i] = in[0] ^ i;
}

// The DSL's permuted(): odd multiplications and xor-shifts modulo 2^16.
__device__ __forceinline__ unsigned permuted(unsigned i) {
  unsigned x = (i * 0x2c1b3c6du) & N_MASK;
  x = x ^ (x >> 8);
  x = (x * 0x297a2d39u) & N_MASK;
  return x ^ (x >> 8);
}

extern "C" __global__ void fid_gather(const unsigned* in, unsigned* out) {
  unsigned i = global_x();
  out[i] = in[permuted(i)];
}

extern "C" __global__ void fid_vec2_copy(const uint2* in, uint2* out) {
  unsigned i = global_x();
  out[i] = in[i];
}

extern "C" __global__ void fid_vec4_copy(const uint4* in, uint4* out) {
  unsigned i = global_x();
  out[i] = in[i];
}

extern "C" __global__ void fid_transpose_naive(const unsigned* in, unsigned* out) {
  unsigned x = global_x(), y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * SIDE + y] = in[y * SIDE + x];
}

template <unsigned PAD>
__device__ __forceinline__ void tiled_transpose(const unsigned* in, unsigned* out) {
  __shared__ unsigned block[TILE * (TILE + PAD)];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned bx = blockIdx.x * TILE, by = blockIdx.y * TILE;
#pragma unroll
  for (unsigned row = 0; row < TILE; row += 8)
    block[(ty + row) * (TILE + PAD) + tx] = in[(by + ty + row) * SIDE + bx + tx];
  __syncthreads();
#pragma unroll
  for (unsigned row = 0; row < TILE; row += 8)
    out[(bx + ty + row) * SIDE + by + tx] = block[tx * (TILE + PAD) + ty + row];
}

extern "C" __global__ void fid_transpose_tiled(const unsigned* in, unsigned* out) { tiled_transpose<0>(in, out); }
extern "C" __global__ void fid_transpose_padded(const unsigned* in, unsigned* out) { tiled_transpose<1>(in, out); }

template <unsigned S>
__device__ __forceinline__ void shared_stride(const unsigned* in, unsigned* out) {
  __shared__ unsigned words[SHARED_WORDS];
  unsigned i = global_x(), l = threadIdx.x;
  unsigned v = in[i];
#pragma unroll
  for (unsigned k = 0; k < SHARED_WORDS / GROUP; ++k) words[l + GROUP * k] = v ^ k;
  __syncthreads();
  out[i] = words[(l * S) & (SHARED_WORDS - 1)];
}

#define FID_SHARED_STRIDE(S)                                                           \
  extern "C" __global__ void fid_shared_stride_##S(const unsigned* in, unsigned* out) { \
    shared_stride<S>(in, out);                                                         \
  }
FID_SHARED_STRIDE(1)
FID_SHARED_STRIDE(2)
FID_SHARED_STRIDE(4)
FID_SHARED_STRIDE(32)

__device__ __forceinline__ unsigned chain_a(unsigned x) {
#pragma unroll
  for (int k = 0; k < CHAIN; ++k) x = (x ^ (x >> 15)) * 0x2c1b3c6du;
  return x;
}

__device__ __forceinline__ unsigned chain_b(unsigned x) {
#pragma unroll
  for (int k = 0; k < CHAIN; ++k) x = ((x << 7) | (x >> 25)) + 0x9e3779b9u;
  return x;
}

extern "C" __global__ void fid_branch_divergent(const unsigned* in, unsigned* out) {
  unsigned i = global_x();
  unsigned x = in[i];
  if ((i & 1u) == 1u) x = chain_a(x);
  else x = chain_b(x);
  out[i] = x;
}

extern "C" __global__ void fid_branch_uniform(const unsigned* in, unsigned* out) {
  unsigned i = global_x();
  unsigned x = in[i];
  if (((i >> 5) & 1u) == 1u) x = chain_a(x);
  else x = chain_b(x);
  out[i] = x;
}

extern "C" __global__ void fid_loop_imbalance(const unsigned* in, unsigned* out) {
  unsigned i = global_x();
  unsigned x = in[i];
#pragma unroll 1  // the DSL loop is not unrolled either
  for (unsigned k = 0; k < (i & 31u); ++k) {
#pragma unroll
    for (int step = 0; step < 4; ++step) x = (x ^ (x >> 15)) * 0x2c1b3c6du;
    x += k;
  }
  out[i] = x;
}

// subgroup_inclusive_add: NVIDIA GPUs have no scan instruction, so (like the Vulkan
// driver) five shuffle steps.
__device__ __forceinline__ unsigned warp_inclusive_add(unsigned x, unsigned lane) {
#pragma unroll
  for (unsigned offset = 1; offset < 32; offset <<= 1) {
    unsigned y = __shfl_up_sync(0xffffffffu, x, offset);
    if (lane >= offset) x += y;
  }
  return x;
}

// The stdlib's prefixed scan pass (stdlib/include/sprig/stdlib/scan_tile.hpp, scan_tile()
// with the SubgroupTotalsScan of workgroup_scan.hpp), for uint sums, 256 x 16.
extern "C" __global__ void fid_scan_tile(const unsigned* in, unsigned* out, const unsigned* tile_prefixes,
                                         unsigned count) {
  const unsigned ITEMS = 16, ELEMENTS = 256 * ITEMS;
  __shared__ unsigned subgroup_totals[256];
  __shared__ unsigned tile_prefix;
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  const unsigned tile = blockIdx.x + blockIdx.y * gridDim.x;
  if (tile >= count / ELEMENTS + (count % ELEMENTS != 0 ? 1u : 0u)) return;
  const unsigned first = tile * ELEMENTS;
  const bool full = count - first >= ELEMENTS;
  unsigned index[ITEMS], items[ITEMS];
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) index[j] = first + warp * 32u * ITEMS + 32u * j + lane;  // striped
  if (full) {
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) items[j] = in[index[j]];
  } else {
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      unsigned loaded = in[min(index[j], count - 1u)];
      items[j] = index[j] < count ? loaded : 0u;
    }
  }
  unsigned carried[ITEMS], carry = 0;
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    unsigned s = warp_inclusive_add(items[j], lane);
    unsigned run_total = __shfl_sync(0xffffffffu, s, 31);
    carried[j] = j == 0 ? s : carry + s;
    carry = j == 0 ? run_total : carry + run_total;
  }

  if (lane == 0) subgroup_totals[warp] = carry;
  __syncthreads();
  if (warp == 0) {
    unsigned running_carry = 0;
    for (unsigned base = 0; base < warps; base += 32) {
      unsigned i = base + lane;
      unsigned v = 0;
      if (i < warps) v = subgroup_totals[i];
      unsigned running = running_carry + warp_inclusive_add(v, lane);
      if (i < warps) subgroup_totals[i] = running;
      running_carry = __shfl_sync(0xffffffffu, running, 31);
    }
    unsigned p = tile_prefixes[tile];  // the prefix source, read by all lanes of subgroup 0
    if (lane == 0) tile_prefix = p;
  }
  __syncthreads();
  unsigned before = 0;
  if (warp > 0) before = subgroup_totals[warp - 1];
  const unsigned prefix = tile_prefix + before;
  if (full) {
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) out[index[j]] = prefix + carried[j];
  } else {
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j)
      if (index[j] < count) out[index[j]] = prefix + carried[j];
  }
}
"""


def input_words(np, count):
    """Word j = j * 2654435761 mod 2^32, as bench/sim_fidelity.cpp fills its inputs."""
    return ((np.arange(count, dtype=np.uint64) * 2654435761) & 0xFFFFFFFF).astype(np.uint32)


def checksum(np, words):
    """Sum of word j times (2j + 1), modulo 2^64 (numpy's uint64 arithmetic wraps)."""
    words = np.ascontiguousarray(words).reshape(-1).astype(np.uint64)
    weights = 2 * np.arange(words.size, dtype=np.uint64) + 1
    return int(np.sum(words * weights, dtype=np.uint64))


def chain_a(np, x):
    for _ in range(CHAIN):
        x = (x ^ (x >> np.uint32(15))) * np.uint32(0x2C1B3C6D)
    return x


def chain_b(np, x):
    for _ in range(CHAIN):
        x = ((x << np.uint32(7)) | (x >> np.uint32(25))) + np.uint32(0x9E3779B9)
    return x


# A kernel launch: grid and block as CUDA takes them, the words of its input and output,
# the numpy reference (input -> output) and, for the scan, its tile count (more arguments).
Case = collections.namedtuple("Case", "name grid block in_words out_words reference scan_tiles")


def cases(np):
    i = np.arange(N, dtype=np.uint32)

    def strided(s):
        return lambda a: a[i.astype(np.uint64) * s]

    def permuted():
        x = (i * np.uint32(0x2C1B3C6D)) & np.uint32(N - 1)
        x = x ^ (x >> np.uint32(8))
        x = (x * np.uint32(0x297A2D39)) & np.uint32(N - 1)
        return x ^ (x >> np.uint32(8))

    def transposed(a):
        return a.reshape(SIDE, SIDE).T.reshape(-1)

    def shared_stride(s):
        def ref(a):
            local = i % GROUP
            word = (local * np.uint32(s)) & np.uint32(SHARED_WORDS - 1)
            writer = i - local + word % GROUP  # the invocation that stored that word
            return a[writer] ^ (word // GROUP)
        return ref

    def branch(condition):
        def ref(a):
            return np.where(condition, chain_a(np, a), chain_b(np, a))
        return ref

    def ragged_loop(a):
        x = a.copy()
        trips = i & np.uint32(31)
        for k in range(31):
            y = x
            for _ in range(4):
                y = (y ^ (y >> np.uint32(15))) * np.uint32(0x2C1B3C6D)
            x = np.where(np.uint32(k) < trips, y + np.uint32(k), x)
        return x

    def scan(a):
        tiles = a.reshape(-1, GROUP * SCAN_ITEMS).astype(np.uint64)
        return (np.cumsum(tiles, axis=1) & 0xFFFFFFFF).astype(np.uint32).reshape(-1)

    g1 = ((N // GROUP, 1), (GROUP, 1))
    tiled = ((SIDE // TILE, SIDE // TILE), (TILE, 8))
    scan_tiles = SCAN_N // (GROUP * SCAN_ITEMS)
    out = [("fid_copy", *g1, N, N, lambda a: a)]
    out += [(f"fid_stride_{s}", *g1, N * s, N, strided(s)) for s in (2, 4, 32, 33)]
    out += [
        ("fid_broadcast", *g1, N, N, lambda a: a[0] ^ i),
        ("fid_gather", *g1, N, N, lambda a: a[permuted()]),
        ("fid_vec2_copy", *g1, 2 * N, 2 * N, lambda a: a),
        ("fid_vec4_copy", *g1, 4 * N, 4 * N, lambda a: a),
        ("fid_transpose_naive", (SIDE // TILE, SIDE // 8), (TILE, 8), SIDE * SIDE, SIDE * SIDE, transposed),
        ("fid_transpose_tiled", *tiled, SIDE * SIDE, SIDE * SIDE, transposed),
        ("fid_transpose_padded", *tiled, SIDE * SIDE, SIDE * SIDE, transposed),
    ]
    out += [(f"fid_shared_stride_{s}", *g1, N, N, shared_stride(s)) for s in (1, 2, 4, 32)]
    out += [
        ("fid_branch_divergent", *g1, N, N, branch((i & np.uint32(1)) == 1)),
        ("fid_branch_uniform", *g1, N, N, branch(((i >> np.uint32(5)) & np.uint32(1)) == 1)),
        ("fid_loop_imbalance", *g1, N, N, ragged_loop),
        ("fid_scan_tile", (scan_tiles, 1), (GROUP, 1), SCAN_N, SCAN_N, scan),
    ]
    return [Case(*c, scan_tiles if c[0] == "fid_scan_tile" else None) for c in out]


def reference(_args):
    import numpy as np
    for c in cases(np):
        print(f"{c.name}\t0x{checksum(np, c.reference(input_words(np, c.in_words))):016x}")
    return 0


def run(args):
    import cupy as cp
    import numpy as np
    module = cp.RawModule(code=CUDA_SOURCE, options=("-std=c++17",))
    lines, wrong = [], []
    for c in cases(np):
        host_in = input_words(np, c.in_words)
        device_out = cp.zeros(c.out_words, dtype=cp.uint32)
        launch_args = [cp.asarray(host_in), device_out]
        if c.scan_tiles is not None:
            launch_args += [cp.zeros(c.scan_tiles, dtype=cp.uint32), np.uint32(SCAN_N)]
        module.get_function(c.name)(c.grid, c.block, tuple(launch_args))
        cp.cuda.Device().synchronize()
        result = cp.asnumpy(device_out)
        if not np.array_equal(result, c.reference(host_in)):
            wrong.append(c.name)
        lines.append(f"{c.name}\t0x{checksum(np, result):016x}")
    print("\n".join(lines))
    if args.checksums:
        with open(args.checksums, "w") as f:
            f.write("\n".join(lines) + "\n")
    if wrong:
        print("outputs differ from numpy's: " + ", ".join(wrong), file=sys.stderr)
        return 1
    return 0


def source(_args):
    sys.stdout.write(CUDA_SOURCE)
    return 0


def number(text):
    """A value as ncu prints it (it may group thousands with commas); None if not a number."""
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def read_ncu_csv(path):
    """{kernel: {metric: value}} from ncu --csv output, raw page (one row per kernel, a units
    row after the header) or details page (one row per metric)."""
    with open(path, newline="") as f:
        lines = f.read().splitlines()
    # ncu may print its own lines (==PROF==, warnings) before the table.
    start = next((k for k, line in enumerate(lines) if line.startswith('"ID"')), None)
    if start is None:
        raise SystemExit(f"{path}: no ncu CSV table (no header line starting with \"ID\")")
    reader = csv.DictReader(io.StringIO("\n".join(lines[start:])))
    name_column = next((c for c in ("Kernel Name", "Function Name", "Demangled Name") if c in reader.fieldnames), None)
    if name_column is None:
        raise SystemExit(f"{path}: no kernel name column among {reader.fieldnames}")
    kernels, seen = {}, {}
    for row in reader:
        if not row.get("ID"):
            continue  # the units row of the raw page
        kernel = row[name_column].split("(")[0].strip()
        if not kernel.startswith("fid_"):
            continue
        key = (kernel, row.get("Metric Name"))
        if seen.setdefault(key, row["ID"]) != row["ID"]:
            raise SystemExit(f"{path}: {kernel} was profiled more than once; profile one run of the suite")
        metrics = kernels.setdefault(kernel, {})
        if "Metric Name" in row:
            value = number(row.get("Metric Value", ""))
            if value is not None:
                metrics[row["Metric Name"]] = value
        else:
            for column, text in row.items():
                if "__" in column and text is not None and number(text) is not None:
                    metrics[column] = number(text)
    return kernels


def convert(args):
    kernels = read_ncu_csv(args.csv)
    checksums = {}
    with open(args.checksums) as f:
        for line in f:
            if line.strip():
                name, value = line.split()
                checksums[name] = value
    # Every kernel the run launched has a checksum: those are the ones ncu must have measured.
    names = list(checksums)
    missing = [name for name in names if name not in kernels]
    with open(args.out, "w") as f:
        f.write("# Nsight Compute metrics of bench/peers/ncu_fidelity.py's kernels, for bench_sim_fidelity --ncu\n")
        f.write("# kernel<TAB>metric<TAB>value; the metric 'checksum' is the CUDA output's checksum\n")
        for name in names:
            for metric, value in sorted(kernels.get(name, {}).items()):
                f.write(f"{name}\t{metric}\t{value:.17g}\n")
            if name in checksums:
                f.write(f"{name}\tchecksum\t{checksums[name]}\n")
    if missing:
        print("not in the ncu results: " + ", ".join(missing), file=sys.stderr)
        return 1
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    p_run = sub.add_parser("run", help="launch every kernel once (CuPy) and check it against numpy")
    p_run.add_argument("--checksums", help="also write the output checksums here")
    sub.add_parser("reference", help="the numpy checksums (no GPU)")
    sub.add_parser("source", help="print the CUDA source")
    p_convert = sub.add_parser("convert", help="ncu's CSV to the file bench_sim_fidelity --ncu reads")
    p_convert.add_argument("--csv", required=True)
    p_convert.add_argument("--checksums", required=True)
    p_convert.add_argument("--out", required=True)
    args = parser.parse_args()
    if args.command is None:
        args = parser.parse_args(["run"])
    return {"run": run, "reference": reference, "source": source, "convert": convert}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
