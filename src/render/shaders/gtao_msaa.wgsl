// GTAO and its blur over sample 0 of a multisampled depth (settings.msaa 4): one sample is the
// depth of one surface, where a resolve would average depths of surfaces an edge separates, and
// reading it costs no resolve pass.
@group(1) @binding(0) var depth_texture: texture_depth_multisampled_2d;

#include "gtao_common.wgsl"
