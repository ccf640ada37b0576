#!/usr/bin/env bash
# The Nsight Compute side of bench_sim_fidelity, on a machine with an NVIDIA GPU, CuPy and
# ncu: launches the CUDA twins of its kernels (bench/peers/ncu_fidelity.py) once each under
# ncu and converts what ncu measured into the file `bench_sim_fidelity --ncu` reads.
#
#   bash bench/sim_fidelity_ncu.sh OUTDIR
#
# writes OUTDIR/ncu_fidelity.txt (for --ncu), OUTDIR/ncu.csv (ncu's raw page),
# OUTDIR/ncu_fidelity.ncu-rep (the report, for ncu-ui), OUTDIR/cuda_checksums.txt,
# OUTDIR/ncu.log and, where nvcc and cuobjdump are found, OUTDIR/kernels.sass (the kernels'
# SASS, to check which memory instructions they compiled to). NCU=/path/to/ncu and
# PYTHON=/path/to/python3 override the defaults; ncu needs access to the GPU's performance
# counters (root, or the driver's RmProfilingAdminOnly=0).
set -euo pipefail

out=${1:?usage: bash bench/sim_fidelity_ncu.sh OUTDIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
script=$here/peers/ncu_fidelity.py
python=${PYTHON:-python3}

ncu=${NCU:-$(command -v ncu || true)}
if [ -z "$ncu" ]; then
  for candidate in /usr/local/cuda/bin/ncu /usr/local/cuda-*/bin/ncu /opt/nvidia/nsight-compute/*/ncu; do
    if [ -x "$candidate" ]; then ncu=$candidate; break; fi
  done
fi
if [ -z "$ncu" ] || [ ! -x "$ncu" ]; then
  echo "ncu not found: put it on PATH or set NCU=/path/to/ncu" >&2
  exit 1
fi
mkdir -p "$out"

# Without the profiler first: a kernel whose output differs from numpy's is not the twin
# of the DSL kernel, and its figures would prove nothing.
"$python" "$script" run > /dev/null

metrics=(
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  smsp__inst_executed_op_shared_ld.sum
  smsp__inst_executed_op_shared_st.sum
  smsp__thread_inst_executed_per_inst_executed.ratio
  smsp__sass_average_branch_targets_threads_uniform.pct
  smsp__sass_branch_targets_threads_divergent.sum
)
# L1's count of shared-memory requests; not every ncu version knows it (then the shared
# instruction counts above stand in).
optional=(
  l1tex__t_requests_pipe_lsu_mem_shared_op_ld.sum
  l1tex__t_requests_pipe_lsu_mem_shared_op_st.sum
)
join() { local IFS=,; echo "$*"; }

profile() {
  "$ncu" --metrics "$1" --kernel-name regex:^fid_ --export "$out/ncu_fidelity" --force-overwrite \
    "$python" "$script" run --checksums "$out/cuda_checksums.txt"
}
if ! profile "$(join "${metrics[@]}" "${optional[@]}")" > "$out/ncu.log" 2>&1; then
  echo "ncu failed with L1's shared-request metrics; trying without them (log: $out/ncu.log.first)" >&2
  mv "$out/ncu.log" "$out/ncu.log.first"
  if ! profile "$(join "${metrics[@]}")" > "$out/ncu.log" 2>&1; then
    tail -n 30 "$out/ncu.log" >&2
    exit 1
  fi
fi
"$ncu" --import "$out/ncu_fidelity.ncu-rep" --csv --page raw --print-units base > "$out/ncu.csv"
"$python" "$script" convert --csv "$out/ncu.csv" --checksums "$out/cuda_checksums.txt" \
  --out "$out/ncu_fidelity.txt"

# The SASS of the same source, compiled by nvcc for this GPU (CuPy compiles it with NVRTC,
# the same compiler); only for inspection, so its absence is not an error.
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
cuobjdump=$(dirname "$nvcc")/cuobjdump
if [ -x "$nvcc" ] && [ -x "$cuobjdump" ] && command -v nvidia-smi > /dev/null; then
  arch=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 | tr -d '. ')
  "$python" "$script" source > "$out/kernels.cu"
  if ! { "$nvcc" -std=c++17 -arch="$arch" -cubin -o "$out/kernels.cubin" "$out/kernels.cu" &&
         "$cuobjdump" -sass "$out/kernels.cubin" > "$out/kernels.sass"; }; then
    echo "(no SASS listing: nvcc or cuobjdump failed)" >&2
  fi
fi

echo "wrote $out/ncu_fidelity.txt; compare with: bench_sim_fidelity --ncu $out/ncu_fidelity.txt"
