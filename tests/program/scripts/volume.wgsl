// Pixel 0: the volume halfway between its two slices' centres; pixel 1: layer 1 of the array.
@group(1) @binding(0) var volume: texture_3d<f32>;
@group(1) @binding(1) var volume_sampler: sampler;
@group(1) @binding(2) var layers: texture_2d_array<f32>;

@fragment fn fs_read(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let v = textureSampleLevel(volume, volume_sampler, vec3<f32>(0.5, 0.5, 0.5), 0.0).r;
    let a = textureLoad(layers, vec2<i32>(0, 0), 1, 0).r;
    return vec4<f32>(select(v, a, pos.x > 1.0), 0.0, 0.0, 1.0);
}
