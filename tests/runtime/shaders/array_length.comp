// lengths[0] = the element count the kernel sees in `data` (OpArrayLength).
#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) readonly buffer Data { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Lengths { uint lengths[]; };
void main() { lengths[0] = uint(data.length()); }
