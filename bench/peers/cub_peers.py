"""Peer timings for the stdlib benchmarks: CUB through CuPy and PyTorch on the same GPU.

Prints one line per measurement, "<operation> <log2 size> <milliseconds>", which the
bench_* programs read with --peers FILE. Each time is the median of CUDA-event timings of
--repeat runs after a warm-up.

    python3 bench/peers/cub_peers.py --sizes 20,24,28 > peers.txt
"""
import argparse
import statistics

import cupy
import torch


def median_ms(fn, repeat, setup=None):
    fn()  # warm-up: allocations, CUB's temporary storage, kernels loaded
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        if setup:
            setup()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="20,24,28")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    for log_n in [int(s) for s in args.sizes.split(",")]:
        n = 1 << log_n
        g = torch.Generator(device="cuda").manual_seed(log_n)
        values = torch.randint(0, 2**31 - 1, (n,), device="cuda", dtype=torch.int32, generator=g)
        values_u32 = cupy.asarray(values).view(cupy.uint32)
        # Both frameworks run on PyTorch's current stream, so events time them correctly.
        with cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            out = cupy.empty_like(values_u32)
            print(f"copy {log_n} {median_ms(lambda: out.__setitem__(slice(None), values_u32), args.repeat):.5f}")
            # CUB's DeviceScan itself (scans in place); cupy.cumsum is CuPy's own kernel, not CUB.
            print(f"cub.device_scan {log_n} "
                  f"{median_ms(lambda: cupy.cuda.cub.device_scan(out, cupy.cuda.cub.CUPY_CUB_CUMSUM), args.repeat):.5f}")
            print(f"cupy.cumsum {log_n} {median_ms(lambda: cupy.cumsum(values_u32, out=out), args.repeat):.5f}")
            print(f"cupy.sort {log_n} {median_ms(lambda: cupy.sort(values_u32), args.repeat):.5f}")
            if log_n <= 27:  # 64-bit keys: CUB's radix sort over all eight bytes
                wide = cupy.asarray(torch.randint(0, 2**62, (n,), device="cuda", dtype=torch.int64, generator=g)).view(cupy.uint64)
                print(f"cupy.sort.u64 {log_n} {median_ms(lambda: cupy.sort(wide), args.repeat):.5f}")
                del wide
        print(f"torch.cumsum {log_n} {median_ms(lambda: torch.cumsum(values, 0, dtype=torch.int32), args.repeat):.5f}")
        print(f"torch.sum {log_n} {median_ms(lambda: torch.sum(values, dtype=torch.int32), args.repeat):.5f}")
        floats = values.float()
        print(f"torch.sum.float {log_n} {median_ms(lambda: torch.sum(floats), args.repeat):.5f}")
        mask = (values & 1) == 0  # 50% selected
        print(f"torch.masked_select {log_n} {median_ms(lambda: torch.masked_select(values, mask), args.repeat):.5f}")
        print(f"torch.sort {log_n} {median_ms(lambda: torch.sort(values), args.repeat):.5f}")
        print(f"torch.sort.pairs {log_n} {median_ms(lambda: torch.sort(values, stable=True), args.repeat):.5f}", flush=True)
        del values, values_u32, out, mask, floats
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
