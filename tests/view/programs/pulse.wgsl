// kiln-view fixture: a sheet whose red follows the program clock kiln-view writes into bytes
// 0..3 of the uniforms ("every_frame": {"time_offset": 0}); green is the texel's column, blue
// its row, scaled by the uniforms' `blue`.
struct Clock { seconds: f32, speed: f32, blue: f32, pad: f32 }
@group(0) @binding(0) var<uniform> clock: Clock;

@fragment
fn fs_pulse(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let red = 0.5 + 0.5 * sin(clock.seconds * clock.speed);
    return vec4<f32>(red, position.x / 64.0, clock.blue * position.y / 48.0, 1.0);
}
