// compute.wgsl: writes VALUE (from value.wgsl) into the first word of a storage buffer.

#include "value.wgsl"

@group(0) @binding(0) var<storage, read_write> out_value: array<u32>;

@compute @workgroup_size(1) fn cs_main() { out_value[0] = VALUE; }
