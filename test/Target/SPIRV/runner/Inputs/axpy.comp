// A hand-written compute shader with tilec's Vulkan ABI: storage buffers at
// set 0 in parameter order, dynamic dims and scalars in one push-constant block.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) buffer C { float c[]; };
layout(push_constant) uniform Push { int n; float alpha; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < uint(pc.n))
    c[i] = pc.alpha * a[i] + b[i];
}
