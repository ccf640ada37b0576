// dst[i] = src[i] + 1 for i < n.
#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Scalars { uint n; };
layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { uint dst[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) dst[i] = src[i] + 1u;
}
