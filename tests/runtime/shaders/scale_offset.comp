// y[i] = x[i] * factor + offset: push constants (n, factor) and a uniform (offset).
#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Scalars { uint n; uint factor; };
layout(set = 0, binding = 0) readonly buffer X { uint x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { uint y[]; };
layout(set = 0, binding = 2) uniform Constants { uint offset; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) y[i] = x[i] * factor + offset;
}
