// A shadow-mapped scene as one authored program (examples/programs/shadow.json): a box over a
// ground plane, lit by a directional light. The program builds its own matrices from the uniform
// block, so the script's blob is a camera position and a light direction, not matrices.
//
//   pass 0  depth-only, vs_shadow + fs_depth: the box into the 1024-texel shadow map (depth slot 0)
//   pass 1  draw, vs_scene + fs_lit: the ground into the 4x multisampled scene (transient 0, depth 1)
//   pass 2  draw, vs_scene + fs_lit: the box into the same scene, depth-tested against the ground
//   pass 3  fragment, fs_present: the resolved scene over a sky gradient into the output binding

struct Scene {
    eye: vec4<f32>,        // camera position (w unused)
    light_dir: vec4<f32>,  // direction the light travels, normalised (w unused)
    albedo: vec4<f32>,     // the surface colour of this pass's geometry (w unused)
    aspect: vec4<f32>,     // x: width / height of the output
}
@group(0) @binding(0) var<uniform> scene: Scene;

// Pass 1 and 2 read the shadow map through a comparison sampler (input 0).
@group(1) @binding(0) var shadow_map: texture_depth_2d;
@group(1) @binding(1) var shadow_compare: sampler_comparison;

const SHADOW_HALF_EXTENT: f32 = 3.0;  // the light's orthographic box, in metres either side
const SHADOW_DISTANCE: f32 = 8.0;     // how far back along the light the light's eye sits
const SHADOW_MAP_SIDE: f32 = 1024.0;

fn look_at(eye: vec3<f32>, center: vec3<f32>, up: vec3<f32>) -> mat4x4<f32> {
    let f = normalize(center - eye);
    let s = normalize(cross(f, up));
    let u = cross(s, f);
    return mat4x4<f32>(vec4<f32>(s.x, u.x, -f.x, 0.0), vec4<f32>(s.y, u.y, -f.y, 0.0),
                       vec4<f32>(s.z, u.z, -f.z, 0.0), vec4<f32>(-dot(s, eye), -dot(u, eye), dot(f, eye), 1.0));
}

// WebGPU clip space: depth 0 at the near plane, 1 at the far plane.
fn perspective(fovy: f32, aspect: f32, near: f32, far: f32) -> mat4x4<f32> {
    let t = 1.0 / tan(0.5 * fovy);
    return mat4x4<f32>(vec4<f32>(t / aspect, 0.0, 0.0, 0.0), vec4<f32>(0.0, t, 0.0, 0.0),
                       vec4<f32>(0.0, 0.0, far / (near - far), -1.0),
                       vec4<f32>(0.0, 0.0, near * far / (near - far), 0.0));
}

fn orthographic(half_extent: f32, near: f32, far: f32) -> mat4x4<f32> {
    let s = 1.0 / half_extent;
    return mat4x4<f32>(vec4<f32>(s, 0.0, 0.0, 0.0), vec4<f32>(0.0, s, 0.0, 0.0),
                       vec4<f32>(0.0, 0.0, 1.0 / (near - far), 0.0), vec4<f32>(0.0, 0.0, near / (near - far), 1.0));
}

fn light_view_proj() -> mat4x4<f32> {
    let eye = -scene.light_dir.xyz * SHADOW_DISTANCE;
    return orthographic(SHADOW_HALF_EXTENT, 0.1, 2.0 * SHADOW_DISTANCE) *
           look_at(eye, vec3<f32>(0.0), vec3<f32>(0.0, 0.0, 1.0));
}

fn camera_view_proj() -> mat4x4<f32> {
    return perspective(0.7, scene.aspect.x, 0.1, 30.0) *
           look_at(scene.eye.xyz, vec3<f32>(0.0, 0.5, 0.0), vec3<f32>(0.0, 1.0, 0.0));
}

@vertex
fn vs_shadow(@location(0) position: vec3<f32>) -> @builtin(position) vec4<f32> {
    return light_view_proj() * vec4<f32>(position, 1.0);
}

@fragment
fn fs_depth() {}

struct Surface {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) light_clip: vec3<f32>,
}

@vertex
fn vs_scene(@location(0) position: vec3<f32>, @location(1) normal: vec3<f32>) -> Surface {
    let light = light_view_proj() * vec4<f32>(position, 1.0);
    return Surface(camera_view_proj() * vec4<f32>(position, 1.0), normal, light.xyz);
}

// Nine comparisons a texel apart: each is itself a 2x2 linear comparison, so the edge is soft.
fn shadow_factor(light_clip: vec3<f32>, bias: f32) -> f32 {
    let uv = vec2<f32>(0.5 + 0.5 * light_clip.x, 0.5 - 0.5 * light_clip.y);
    var lit = 0.0;
    for (var y = -1; y <= 1; y++) {
        for (var x = -1; x <= 1; x++) {
            let offset = vec2<f32>(f32(x), f32(y)) / SHADOW_MAP_SIDE;
            lit += textureSampleCompareLevel(shadow_map, shadow_compare, uv + offset, light_clip.z - bias);
        }
    }
    return lit / 9.0;
}

@fragment
fn fs_lit(s: Surface) -> @location(0) vec4<f32> {
    let n = normalize(s.normal);
    let to_light = -scene.light_dir.xyz;
    let diffuse = max(dot(n, to_light), 0.0);
    // The engine applies no depth bias: a comparing pass offsets its own reference, more where the
    // surface turns from the light.
    let bias = 0.002 + 0.004 * (1.0 - diffuse);
    let lit = shadow_factor(s.light_clip, bias) * diffuse;
    let sky_light = 0.25 + 0.15 * n.y;
    return vec4<f32>(scene.albedo.rgb * (lit * vec3<f32>(1.0, 0.95, 0.85) + sky_light * vec3<f32>(0.55, 0.65, 0.8)),
                     1.0);
}

// Pass 3 reads the resolved scene (input 0, a transient: Filtered { Clamp, Base }).
@group(1) @binding(0) var scene_colour: texture_2d<f32>;

@fragment
fn fs_present(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let c = textureLoad(scene_colour, vec2<i32>(uv * vec2<f32>(textureDimensions(scene_colour))), 0);
    let sky = mix(vec3<f32>(0.72, 0.82, 0.95), vec3<f32>(0.35, 0.5, 0.78), 1.0 - uv.y);
    // The scene is drawn opaque onto a cleared transient, so its alpha is coverage (fractional at
    // multisampled edges): composite it over the sky, then encode for the Rgba8 sheet.
    let linear = mix(sky, c.rgb, c.a);
    return vec4<f32>(pow(linear, vec3<f32>(1.0 / 2.2)), 1.0);
}
