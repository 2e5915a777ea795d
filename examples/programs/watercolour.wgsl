// The watercolour develop: every entry point of the one registered program (README.md, "Passes").
//
// Four washes travel together through the chain, one per channel of each Rgba16Float plane, so one
// pass blurs, thresholds or granulates all four. Each entry point reads its own uniform struct at
// @group(0) @binding(0) (WGSL allows vars to share a binding when no entry point uses two of them)
// and its inputs as in0, in1, in2 in the order the pass declares them. Every input is read through
// its sampler with textureSampleLevel at level 0: the program binds base levels only, and reads at
// texel centres of a same-sized input return that texel, so the CPU oracle can mirror each read.
//
// Sheet units: y runs 0..1 down the sheet and x runs 0..aspect across it, so shapes stay round
// whatever the sheet's size. Nothing here rolls dice: the noise is a texture of pre-rolled bytes
// and every other accident rides the uniform blob.

// ---- uniforms, one struct per entry point ----------------------------------------------------------

struct Shape {
    centre_radii: vec4f,  // centre x, y and radii x, y in sheet units
    frame: vec4f,         // cos and sin of the rotation, edge softness, ragged-edge amplitude
    wobble_amp: vec4f,    // three harmonic amplitudes of the outline; w: aspect (width / height)
    wobble_phase: vec4f,  // their phases; w: noise tiling across
    wobble_freq: vec4f,   // their whole-number frequencies; w: noise tiling down
    channel: vec4f,       // the wash (one-hot) this coverage belongs to
}

struct Blur {
    axis: vec4f,                // xy: direction in texels, z: centre weight
    offsets: array<vec4f, 2>,   // 8 pair offsets in texels: each pair of taps is one filtered read
    weights: array<vec4f, 2>,   // 8 pair weights (the sum of the pair's two Gaussian weights)
}

struct Edge {
    threshold: vec4f,     // where the bled coverage becomes the dry puddle's edge, per wash
    width: vec4f,         // half-width of that edge's smoothstep
    base: vec4f,          // pigment density inside the wash
    rim: vec4f,           // extra density pigment piles up with at a dry edge
}

struct Granulate {
    strength: vec4f,      // per wash: how far pigment settles into the paper's tooth
    octave0: vec4f,       // noise tiling (xy) and offset (zw)
    octave1: vec4f,
    octave_mix: vec4f,    // x, y: weights of the two octaves
}

struct Gain {
    gain: vec4f,          // per wash: how much pigment the water can carry
}

struct Flow {
    amount: vec4f,        // per wash: how far a wet area pulls pigment toward its carried blur
    gain: vec4f,          // per wash: the carried pigment's strength
}

struct Paper {
    absorb: vec4f,        // rgb: the paper's own absorbance (its tint)
    grain: vec4f,         // rgb: absorbance the paper's tooth adds
    octave: vec4f,        // noise tiling (xy) and offset (zw)
}

struct Layer {
    channel: vec4f,       // which wash this iteration lays (one-hot)
    absorb: vec4f,        // rgb: its pigment's absorbance at density 1
}

struct Composite {
    white: vec4f,         // rgb: the light the paper reflects
}

@group(0) @binding(0) var<uniform> shape: Shape;
@group(0) @binding(0) var<uniform> blur: Blur;
@group(0) @binding(0) var<uniform> edge: Edge;
@group(0) @binding(0) var<uniform> granulate: Granulate;
@group(0) @binding(0) var<uniform> down: Gain;
@group(0) @binding(0) var<uniform> flow: Flow;
@group(0) @binding(0) var<uniform> paper: Paper;
@group(0) @binding(0) var<uniform> layer: Layer;
@group(0) @binding(0) var<uniform> composite: Composite;

// ---- inputs, in the order each pass declares them --------------------------------------------------

@group(1) @binding(0) var in0: texture_2d<f32>;
@group(1) @binding(1) var in0_sampler: sampler;
@group(1) @binding(2) var in1: texture_2d<f32>;
@group(1) @binding(3) var in1_sampler: sampler;
@group(1) @binding(4) var in2: texture_2d<f32>;
@group(1) @binding(5) var in2_sampler: sampler;

fn read0(uv: vec2f) -> vec4f { return textureSampleLevel(in0, in0_sampler, uv, 0.0); }
fn read1(uv: vec2f) -> vec4f { return textureSampleLevel(in1, in1_sampler, uv, 0.0); }
fn read2(uv: vec2f) -> vec4f { return textureSampleLevel(in2, in2_sampler, uv, 0.0); }

// ---- passes ---------------------------------------------------------------------------------------

// A soft, wobbly ellipse with a ragged edge (input 0: the noise). The distance to the outline is
// its implicit value divided by the gradient's length, which keeps the edge's softness even
// around a stretched ellipse.
@fragment
fn fs_coverage(@location(0) uv: vec2f) -> @location(0) vec4f {
    let p = vec2f(uv.x * shape.wobble_amp.w, uv.y) - shape.centre_radii.xy;
    let c = shape.frame.x;
    let s = shape.frame.y;
    let q = vec2f(c * p.x + s * p.y, c * p.y - s * p.x) / shape.centre_radii.zw;
    let len = max(length(q), 1e-4);
    let theta = atan2(q.y, q.x);
    let outline = 1.0 + dot(shape.wobble_amp.xyz, sin(shape.wobble_freq.xyz * theta + shape.wobble_phase.xyz));
    let gradient = length(q / (len * shape.centre_radii.zw));
    let tooth = read0(uv * vec2f(shape.wobble_phase.w, shape.wobble_freq.w)).r - 0.5;
    let dist = (len - outline) / gradient + shape.frame.w * tooth;
    return shape.channel * (1.0 - smoothstep(-shape.frame.z, shape.frame.z, dist));
}

// A separable Gaussian: the centre tap plus eight pairs each side, each pair one filtered read
// between its two texels at the offset that weights them as the kernel does. The step is taken
// from the input's size, so the same window blurs a full or a divided plane.
@fragment
fn fs_blur(@location(0) uv: vec2f) -> @location(0) vec4f {
    let step = blur.axis.xy / vec2f(textureDimensions(in0));
    var sum = blur.axis.z * read0(uv);
    for (var i = 0u; i < 8u; i++) {
        let offset = step * blur.offsets[i / 4u][i % 4u];
        sum += blur.weights[i / 4u][i % 4u] * (read0(uv + offset) + read0(uv - offset));
    }
    return sum;
}

// Where the bled coverage (input 0) settles into a wash. On dry paper the edge is thresholded
// crisp and pigment piles up just inside it (the rim: the crisp mask minus the bled one); where
// the paper was wet (input 1) the bled edge stays soft and no rim forms.
@fragment
fn fs_wet_edge(@location(0) uv: vec2f) -> @location(0) vec4f {
    let bled = max(read0(uv), vec4f(0.0));  // a lifted area's coverage goes negative
    let water = clamp(read1(uv).r, 0.0, 1.0);
    let crisp = smoothstep(edge.threshold - edge.width, edge.threshold + edge.width, bled);
    let mask = mix(crisp, bled, water);
    let rim = max(crisp - bled, vec4f(0.0)) * (1.0 - water);
    return mask * edge.base + rim * edge.rim;
}

// Granulation: pigment (input 0) settles into the paper's tooth, two octaves of the noise
// (input 1) tiled across the sheet.
@fragment
fn fs_granulate(@location(0) uv: vec2f) -> @location(0) vec4f {
    let n0 = read1(uv * granulate.octave0.xy + granulate.octave0.zw).r;
    let n1 = read1(uv * granulate.octave1.xy + granulate.octave1.zw).r;
    let tooth = granulate.octave_mix.x * n0 + granulate.octave_mix.y * n1 - 0.5;
    return read0(uv) * max(vec4f(0.0), 1.0 + 2.0 * granulate.strength * tooth);
}

// Half resolution: a read at a half-size texel's centre falls on the corner of four full-size
// texels, so the filter averages them.
@fragment
fn fs_downsample(@location(0) uv: vec2f) -> @location(0) vec4f {
    return read0(uv) * down.gain;
}

// Flow: in wet areas (input 2) pigment (input 0) drifts toward the blurred, carried pigment
// (input 1, half resolution, read filtered back up).
@fragment
fn fs_flow(@location(0) uv: vec2f) -> @location(0) vec4f {
    let pigment = read0(uv);
    let carried = read1(uv) * flow.gain;
    let water = clamp(read2(uv).r, 0.0, 1.0);
    return mix(pigment, carried, water * flow.amount);
}

// The paper's own absorbance: its tint plus its tooth (input 0: the noise).
@fragment
fn fs_paper(@location(0) uv: vec2f) -> @location(0) vec4f {
    let tooth = read0(uv * paper.octave.xy + paper.octave.zw).r - 0.5;
    return vec4f(max(paper.absorb.rgb + paper.grain.rgb * tooth, vec3f(0.0)), 0.0);
}

// One wash glazed over the paper: transparent layers multiply the light, so their absorbances
// add (repeated once per wash, Additive).
@fragment
fn fs_layer(@location(0) uv: vec2f) -> @location(0) vec4f {
    let density = dot(read0(uv), layer.channel);
    return vec4f(layer.absorb.rgb * density, 0.0);
}

// The light the paper sends back through everything laid on it.
@fragment
fn fs_composite(@location(0) uv: vec2f) -> @location(0) vec4f {
    let absorbance = read0(uv).rgb;
    return vec4f(composite.white.rgb * exp(-absorbance), 1.0);
}
