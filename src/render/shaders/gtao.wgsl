// GTAO and its blur over a single-sample depth (gtao_common.wgsl has both).
@group(1) @binding(0) var depth_texture: texture_depth_2d;

#include "gtao_common.wgsl"
