"""Timing of CUDA peers through CuPy: the median of CUDA-event timings after one warm-up
call, shared by the peer scripts of this folder."""
import statistics

import cupy


def median_ms(fn, repeat):
    fn()
    cupy.cuda.Device().synchronize()
    times = []
    for _ in range(repeat):
        start, end = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end))
    return statistics.median(times)
