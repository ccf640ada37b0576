// Keeps each invocation busy for `rounds` LCG steps, so a launch takes measurable time.
#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Scalars { uint n; uint rounds; };
layout(set = 0, binding = 0) buffer Data { uint data[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  uint x = data[i];
  for (uint r = 0u; r < rounds; ++r) x = x * 1664525u + 1013904223u;
  data[i] = x;
}
