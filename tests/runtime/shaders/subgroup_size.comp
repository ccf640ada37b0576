// out[workgroup] = the subgroup size the kernel ran with.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint sizes[]; };
void main() {
  if (gl_LocalInvocationIndex == 0u) sizes[gl_WorkGroupID.x] = gl_SubgroupSize;
}
