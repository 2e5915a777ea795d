// The blocks every scene program shares, each written by its owner in C (src/render/uniforms.c,
// whose sizes the renderer checks against these structs by reflection when it is created):
//   group 0 binding 0  View      the camera the frame is shaded from, and how it is displayed
//   group 0 binding 1  Lighting  the sun and the environment
//   group 1 binding 0  Instance  the instance records, one per scene instance in scene order
//   group 1 binding 1  u32       the record indices: each view's drawn instances in draw order
// DEBUG_* (View.debug_mode) come from the generated kiln_enums.wgsl.
#include "kiln_enums.wgsl"

struct View {
    world_to_view: mat4x4<f32>,
    view_to_clip: mat4x4<f32>,
    world_to_clip: mat4x4<f32>,
    view_to_world: mat4x4<f32>,
    clip_to_view: mat4x4<f32>,
    camera_position: vec3<f32>,
    near: f32,
    screen_size: vec2<f32>,
    inverse_screen_size: vec2<f32>,
    debug_mode: u32,
};

struct Lighting {
    sun_direction: vec3<f32>,     // the direction sunlight travels
    sun_intensity: f32,           // lux
    sun_color: vec3<f32>,
    has_sun: u32,
    sky_zenith: vec3<f32>,
    ibl_intensity: f32,
    sky_ground: vec3<f32>,
    sky_sun_intensity: f32,
    env_rotation: vec2<f32>,      // (cos, sin) of the equirectangular map's turn about +Y
    has_equirect: u32,            // 1: the environment is a map (the sky pass samples it), 0: procedural
    lighting_pad: u32,
};

// One slot of the pass uniforms (PASS_SLOT_SIZE = 256 bytes apart; C side uniforms.h).
struct PassView {
    view_projection: mat4x4<f32>,
};

// Per-instance record, one per scene instance: a drawn instance reads
// instances[record_indices[instance_index]] (instance_index = the batch's first_instance + i).
struct Instance {
    model: mat4x4<f32>,
    normal_matrix: mat4x4<f32>,   // inverse transpose of the model's upper 3x3, in a mat4 for alignment
    params: vec4<u32>,            // x: material index, y: flags (bit 0 skinned, bit 1 morphed) | lod << 8, z: joint offset, w: morph slot
    object: vec4<u32>,            // x: the object id the data outputs write (kiln_render_instance.object_id); yzw: 0
};

const PI: f32 = 3.14159265358979;

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var<uniform> lighting: Lighting;
@group(1) @binding(0) var<storage, read> instances: array<Instance>;
// Binding 4, after deform.wgsl's joints, morph deltas and weights (1..3): instance_index reads
// the record index list, whose entry names the instance's record (instance_records.c).
@group(1) @binding(4) var<storage, read> record_indices: array<u32>;

// World-space direction through a pixel centre (for the sky). The two points where the pixel's
// ray crosses clip depths 1 (the near plane) and 0.5 lie on one line for either projection:
// through the eye for perspective, parallel to the view axis for orthographic.
fn view_ray(frag_xy: vec2<f32>) -> vec3<f32> {
    let ndc = vec2<f32>(frag_xy.x * view.inverse_screen_size.x * 2.0 - 1.0, 1.0 - frag_xy.y * view.inverse_screen_size.y * 2.0);
    let near_point = view.clip_to_view * vec4<f32>(ndc, 1.0, 1.0);
    let mid_point = view.clip_to_view * vec4<f32>(ndc, 0.5, 1.0);
    let view_dir = mid_point.xyz / mid_point.w - near_point.xyz / near_point.w;
    return normalize((view.view_to_world * vec4<f32>(view_dir, 0.0)).xyz);
}

// The unit direction from a world-space point towards the viewer: to the eye for a perspective
// camera, the camera's +Z for an orthographic one (whose projection leaves w at 1).
fn toward_viewer(world_position: vec3<f32>) -> vec3<f32> {
    if (view.view_to_clip[3][3] == 1.0) {
        return normalize(view.view_to_world[2].xyz);
    }
    return normalize(view.camera_position - world_position);
}
