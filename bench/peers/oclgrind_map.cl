// The OpenCL C twin of bench/simulator.cpp's map kernel, for Oclgrind.
__kernel void map(__global const uint* in, __global uint* out) {
  uint i = get_global_id(0);
  out[i] = in[i] * 3u + 1u;
}
