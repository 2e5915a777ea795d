// The environment bake: compute passes that turn the environment (procedural sky or
// equirectangular map) into what the forward pass lights with. Run by src/render/ibl.c, in this
// order, only when the environment changed:
//   cs_environment  the 256 px environment cube, mip 0 (2x2 samples per texel)
//   cs_downsample   each further mip of it, a 2x2 box of the mip above, down to 1 px
//   cs_prefilter    the 128 px specular cube: mip m is the environment convolved with the GGX
//                   lobe of perceptual roughness m / 5, by filtered importance sampling
//   cs_irradiance   the 32 px diffuse cube: the cosine-weighted mean radiance over the hemisphere
//   cs_brdf_lut     the split-sum BRDF table (once per renderer: it depends on nothing)
// Every entry point binds only what it uses from group 0; ibl.c gives each its own layout.
const PI: f32 = 3.14159265358979;
#include "brdf.wgsl"
#include "sky_model.wgsl"

struct Bake {
    zenith: vec3<f32>,
    sun_intensity: f32,          // scales the sun's glow in the procedural sky
    ground: vec3<f32>,
    has_sun: u32,
    sun_direction: vec3<f32>,    // the direction sunlight travels
    roughness: f32,              // cs_prefilter: perceptual roughness of the mip being written
    sun_color: vec3<f32>,
    has_equirect: u32,           // 1: sample equirect_map, 0: the procedural sky
    rotation: vec2<f32>,         // (cos, sin) of the map's turn about +Y
    source_size: f32,            // texels per side of the environment cube's mip 0
    source_mips: f32,            // mips of the environment cube
};

@group(0) @binding(0) var<uniform> bake: Bake;
@group(0) @binding(1) var equirect_map: texture_2d<f32>;
@group(0) @binding(2) var bake_sampler: sampler;
@group(0) @binding(3) var source_level: texture_2d_array<f32>;
@group(0) @binding(4) var environment: texture_cube<f32>;
@group(0) @binding(5) var out_faces: texture_storage_2d_array<rgba16float, write>;
@group(0) @binding(6) var out_table: texture_storage_2d<rgba16float, write>;

const PREFILTER_SAMPLES: u32 = 64u;
const BRDF_LUT_SAMPLES: u32 = 256u;
// The environment mip the irradiance integral reads: 8 px per face, 384 texels in all, far finer
// than the cosine lobe (the irradiance of any environment is smooth to within about 3% with
// spherical harmonics of order 2, which resolve 90 degrees).
const IRRADIANCE_SOURCE_SIZE: f32 = 8.0;

// The direction through texel position uv (each in [-1, 1], v down the face) of cube face `face`,
// in WebGPU's face order +X, -X, +Y, -Y, +Z, -Z. Not normalised: its length squared,
// 1 + u^2 + v^2, gives the texel's solid angle.
fn cube_direction(face: u32, uv: vec2<f32>) -> vec3<f32> {
    switch face {
        case 0u: { return vec3<f32>(1.0, -uv.y, -uv.x); }
        case 1u: { return vec3<f32>(-1.0, -uv.y, uv.x); }
        case 2u: { return vec3<f32>(uv.x, 1.0, uv.y); }
        case 3u: { return vec3<f32>(uv.x, -1.0, -uv.y); }
        case 4u: { return vec3<f32>(uv.x, -uv.y, 1.0); }
        default: { return vec3<f32>(-uv.x, -uv.y, -1.0); }
    }
}

// Texel (x, y) of a size-texel face, offset `at` within the texel (0.5: its centre), in [-1, 1].
fn face_uv(texel: vec2<u32>, at: vec2<f32>, size: f32) -> vec2<f32> {
    return (vec2<f32>(texel) + at) / size * 2.0 - 1.0;
}

// The i-th of n points of the Hammersley set in [0, 1)^2.
fn hammersley(i: u32, n: u32) -> vec2<f32> {
    return vec2<f32>(f32(i) / f32(n), f32(reverseBits(i)) * 2.3283064365386963e-10);
}

// A half vector distributed as the GGX lobe of `alpha` about +Z, from a point of the unit square.
fn ggx_half_vector(xi: vec2<f32>, alpha: f32) -> vec3<f32> {
    let phi = 2.0 * PI * xi.x;
    let cos_theta = sqrt((1.0 - xi.y) / (1.0 + (alpha * alpha - 1.0) * xi.y));
    let sin_theta = sqrt(max(1.0 - cos_theta * cos_theta, 0.0));
    return vec3<f32>(sin_theta * cos(phi), sin_theta * sin(phi), cos_theta);
}

// An orthonormal basis with n as its third axis: columns tangent, bitangent, n.
fn basis_about(n: vec3<f32>) -> mat3x3<f32> {
    let up = select(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 0.0, 1.0), abs(n.z) < 0.999);
    let t = normalize(cross(up, n));
    return mat3x3<f32>(t, cross(n, t), n);
}

fn environment_radiance(d: vec3<f32>) -> vec3<f32> {
    if (bake.has_equirect == 1u) {
        return equirect_radiance(equirect_map, bake_sampler, d, bake.rotation);
    }
    return procedural_sky(d, bake.zenith, bake.ground, bake.has_sun == 1u, bake.sun_direction, bake.sun_color,
                          bake.sun_intensity, false);
}

@compute @workgroup_size(8, 8, 1)
fn cs_environment(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(out_faces).x;
    if (id.x >= size || id.y >= size) {
        return;
    }
    // A rotated 2x2 grid per texel, so a map finer than the cube is averaged rather than
    // point-sampled.
    let offsets = array<vec2<f32>, 4>(vec2<f32>(0.375, 0.125), vec2<f32>(0.875, 0.375),
                                      vec2<f32>(0.125, 0.625), vec2<f32>(0.625, 0.875));
    var sum = vec3<f32>(0.0);
    for (var i = 0u; i < 4u; i++) {
        sum += environment_radiance(normalize(cube_direction(id.z, face_uv(id.xy, offsets[i], f32(size)))));
    }
    textureStore(out_faces, id.xy, id.z, vec4<f32>(sum * 0.25, 1.0));
}

@compute @workgroup_size(8, 8, 1)
fn cs_downsample(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(out_faces).x;
    if (id.x >= size || id.y >= size) {
        return;
    }
    let src = vec2<i32>(id.xy) * 2;
    let face = i32(id.z);
    let sum = textureLoad(source_level, src, face, 0) + textureLoad(source_level, src + vec2<i32>(1, 0), face, 0) +
              textureLoad(source_level, src + vec2<i32>(0, 1), face, 0) + textureLoad(source_level, src + vec2<i32>(1, 1), face, 0);
    textureStore(out_faces, id.xy, id.z, vec4<f32>(sum.rgb * 0.25, 1.0));
}

@compute @workgroup_size(8, 8, 1)
fn cs_prefilter(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(out_faces).x;
    if (id.x >= size || id.y >= size) {
        return;
    }
    let n = normalize(cube_direction(id.z, face_uv(id.xy, vec2<f32>(0.5), f32(size))));
    if (bake.roughness == 0.0) {
        // A mirror: the environment itself, from its mip of this cube's resolution.
        let level = log2(bake.source_size / f32(size));
        textureStore(out_faces, id.xy, id.z, vec4<f32>(textureSampleLevel(environment, bake_sampler, n, level).rgb, 1.0));
        return;
    }
    // The split-sum assumption n = v = r. Each sample reads the environment from the mip whose
    // texels cover the solid angle the sample stands for (Krivanek and Colbert, GPU Gems 3,
    // ch. 20), one mip blurrier to hide the sample pattern.
    let alpha = bake.roughness * bake.roughness;
    let frame = basis_about(n);
    let texel_solid_angle = 4.0 * PI / (6.0 * bake.source_size * bake.source_size);
    var sum = vec3<f32>(0.0);
    var weight = 0.0;
    for (var i = 0u; i < PREFILTER_SAMPLES; i++) {
        let h_local = ggx_half_vector(hammersley(i, PREFILTER_SAMPLES), alpha);
        let h = frame * h_local;
        let l = 2.0 * dot(n, h) * h - n;
        let n_dot_l = dot(n, l);
        if (n_dot_l > 0.0) {
            // pdf of l: D(h) (n.h) / (4 v.h), and n.h = v.h when n = v.
            let pdf = d_ggx(h_local.z, alpha) * 0.25;
            let sample_solid_angle = 1.0 / (f32(PREFILTER_SAMPLES) * pdf + 1e-6);
            let level = clamp(0.5 * log2(sample_solid_angle / texel_solid_angle) + 1.0, 0.0, bake.source_mips - 1.0);
            sum += textureSampleLevel(environment, bake_sampler, l, level).rgb * n_dot_l;
            weight += n_dot_l;
        }
    }
    textureStore(out_faces, id.xy, id.z, vec4<f32>(sum / max(weight, 1e-6), 1.0));
}

@compute @workgroup_size(8, 8, 1)
fn cs_irradiance(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(out_faces).x;
    if (id.x >= size || id.y >= size) {
        return;
    }
    let n = normalize(cube_direction(id.z, face_uv(id.xy, vec2<f32>(0.5), f32(size))));
    // The integral over every texel of the 8 px mip, each weighted by its cosine and solid angle,
    // normalised by the sum of the weights: a constant environment comes out exactly constant.
    let level = log2(bake.source_size / IRRADIANCE_SOURCE_SIZE);
    let texel_area = (2.0 / IRRADIANCE_SOURCE_SIZE) * (2.0 / IRRADIANCE_SOURCE_SIZE);
    var sum = vec3<f32>(0.0);
    var weight = 0.0;
    for (var face = 0u; face < 6u; face++) {
        for (var y = 0u; y < u32(IRRADIANCE_SOURCE_SIZE); y++) {
            for (var x = 0u; x < u32(IRRADIANCE_SOURCE_SIZE); x++) {
                let d = cube_direction(face, face_uv(vec2<u32>(x, y), vec2<f32>(0.5), IRRADIANCE_SOURCE_SIZE));
                let length_squared = dot(d, d);
                let l = d * inverseSqrt(length_squared);
                let cos_theta = dot(n, l);
                if (cos_theta > 0.0) {
                    let w = cos_theta * texel_area / (length_squared * sqrt(length_squared));
                    sum += textureSampleLevel(environment, bake_sampler, l, level).rgb * w;
                    weight += w;
                }
            }
        }
    }
    textureStore(out_faces, id.xy, id.z, vec4<f32>(sum / max(weight, 1e-6), 1.0));
}

@compute @workgroup_size(8, 8, 1)
fn cs_brdf_lut(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(out_table);
    if (id.x >= size.x || id.y >= size.y) {
        return;
    }
    // x: n.v, y: perceptual roughness, both at texel centres. r: the scale and g: the bias of
    // f0 in the split-sum specular, with the direct BRDF's visibility term (brdf.wgsl).
    let n_dot_v = (f32(id.x) + 0.5) / f32(size.x);
    let roughness = (f32(id.y) + 0.5) / f32(size.y);
    // The direct BRDF's floor (brdf.wgsl): smoother is never shaded, and below it the estimator
    // is all float rounding.
    let alpha = max(roughness * roughness, 0.002);
    let v = vec3<f32>(sqrt(1.0 - n_dot_v * n_dot_v), 0.0, n_dot_v);
    var scale = 0.0;
    var bias = 0.0;
    for (var i = 0u; i < BRDF_LUT_SAMPLES; i++) {
        let h = ggx_half_vector(hammersley(i, BRDF_LUT_SAMPLES), alpha);
        let v_dot_h = dot(v, h);
        let l = 2.0 * v_dot_h * h - v;
        if (l.z > 0.0 && v_dot_h > 0.0) {
            // The estimator of the BRDF times n.l over the GGX pdf: 4 V n.l v.h / n.h.
            let g = 4.0 * v_smith_ggx_correlated(n_dot_v, l.z, alpha) * l.z * v_dot_h / h.z;
            let fc = pow(1.0 - v_dot_h, 5.0);
            scale += (1.0 - fc) * g;
            bias += fc * g;
        }
    }
    let n = f32(BRDF_LUT_SAMPLES);
    textureStore(out_table, id.xy, vec4<f32>(scale / n, bias / n, 0.0, 1.0));
}
