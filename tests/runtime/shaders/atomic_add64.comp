// total += values[i] with a 64-bit atomic: needs shaderInt64 and shaderBufferInt64Atomics.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
layout(local_size_x = 64) in;
layout(push_constant) uniform Scalars { uint n; };
layout(set = 0, binding = 0) readonly buffer Values { uint64_t values[]; };
layout(set = 0, binding = 1) buffer Total { uint64_t total; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) atomicAdd(total, values[i]);
}
