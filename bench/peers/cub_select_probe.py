# CUB's single-pass select on the GPU machine, for the compaction discussion in
# docs/benchmarks.md: torch.nonzero and torch.masked_select call cub::DeviceSelect, whose
# sweep kernel the profiler times alone. Over 2^28 flags (50% set) it reads 1 byte per
# flag and writes an int64 index per set flag.
#
#   python3 bench/peers/cub_select_probe.py
import torch
from torch.profiler import ProfilerActivity, profile

n = 1 << 28
x = torch.randint(0, 1 << 31, (n,), dtype=torch.int32, device="cuda")
mask = (x & 1) == 0
calls = 10
for name, fn in [("nonzero", lambda: torch.nonzero(mask)), ("masked_select", lambda: torch.masked_select(x, mask))]:
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    print(f"== torch.{name} over 2^28 elements (torch {torch.__version__}), device time per call")
    for event in prof.key_averages():
        total = getattr(event, "device_time_total", 0) or getattr(event, "cuda_time_total", 0)
        if total > 0:
            print(f"  {total / calls / 1000:.4f} ms  {event.key[:140]}")
