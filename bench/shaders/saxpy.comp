// The hand-written peer of the DSL saxpy in bench/saxpy.cpp: same interface, same work.
#version 450
layout(local_size_x = 256) in;
layout(push_constant) uniform Scalars { float a; };
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < uint(x.length())) y[i] = a * x[i] + y[i];
}
