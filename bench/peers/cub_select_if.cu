// Peer for bench_compact: CUB's cub::DeviceSelect::If over the same input and the same
// predicate (keep even values) as sprig's copy_if in bench/compact.cpp, so that the
// comparison is select-with-predicate against select-with-predicate (torch.masked_select
// reads a precomputed byte mask instead). Built and run on the GPU machine:
//
//   nvcc -O3 -arch=sm_90 -o cub_select_if bench/peers/cub_select_if.cu
//   ./cub_select_if 20,24,26,28 >> peers.txt
//
// Prints "cub.select_if <log2 size> <milliseconds>", the median of 20 CUDA-event timings
// after a warm-up, in the format bench_* --peers reads.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <cub/device/device_select.cuh>

namespace {

struct IsEven {
  __host__ __device__ bool operator()(std::uint32_t x) const { return (x & 1u) == 0u; }
};

void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "cub_select_if: %s: %s\n", what, cudaGetErrorString(status));
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  std::stringstream list(argc > 1 ? argv[1] : "20,24,26,28");
  for (std::string item; std::getline(list, item, ',');) sizes.push_back(std::stoi(item));
  const int repeat = 20;
  for (int log_n : sizes) {
    const std::size_t n = std::size_t(1) << log_n;
    std::vector<std::uint32_t> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = std::uint32_t(i * 2654435761u) >> 7;  // as bench/compact.cpp
    const std::size_t expected = std::count_if(host.begin(), host.end(), IsEven{});
    std::uint32_t *in = nullptr, *out = nullptr;
    int* selected = nullptr;
    check(cudaMalloc(&in, n * 4), "cudaMalloc");
    check(cudaMalloc(&out, n * 4), "cudaMalloc");
    check(cudaMalloc(&selected, sizeof(int)), "cudaMalloc");
    check(cudaMemcpy(in, host.data(), n * 4, cudaMemcpyHostToDevice), "upload");
    std::size_t temp_bytes = 0;
    check(cub::DeviceSelect::If(nullptr, temp_bytes, in, out, selected, int(n), IsEven{}), "temp size");
    void* temp = nullptr;
    check(cudaMalloc(&temp, temp_bytes), "cudaMalloc");
    auto run = [&] { check(cub::DeviceSelect::If(temp, temp_bytes, in, out, selected, int(n), IsEven{}), "select"); };
    run();  // warm-up
    check(cudaDeviceSynchronize(), "warm-up");
    int got = 0;
    check(cudaMemcpy(&got, selected, sizeof got, cudaMemcpyDeviceToHost), "download");
    if (std::size_t(got) != expected) std::fprintf(stderr, "cub_select_if: WRONG COUNT at 2^%d\n", log_n);
    cudaEvent_t start, end;
    check(cudaEventCreate(&start), "event");
    check(cudaEventCreate(&end), "event");
    std::vector<float> times;
    for (int r = 0; r < repeat; ++r) {
      check(cudaEventRecord(start), "record");
      run();
      check(cudaEventRecord(end), "record");
      check(cudaEventSynchronize(end), "synchronize");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start, end), "elapsed");
      times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    std::printf("cub.select_if %d %.5f\n", log_n, times[times.size() / 2]);
    std::fflush(stdout);
    cudaFree(temp);
    cudaFree(selected);
    cudaFree(out);
    cudaFree(in);
    cudaEventDestroy(start);
    cudaEventDestroy(end);
  }
}
