// clusters.wgsl: cs_cull, the clustered light culling dispatch.
//
// One invocation per cluster. A workgroup is one depth slice (16 x 9 tiles = 144 invocations) and
// the dispatch is 1 x 1 x 24 workgroups. Each workgroup moves the lights into view space 144 at a
// time into workgroup memory, one light per invocation, so a light is transformed once per slice
// rather than once per cluster.
//
// The lists are one compacted array sized per frame (kiln_clusters_update grows it to the CPU's
// upper bound of the references). Each cluster walks the batches once, counting the lights
// touching it and setting their bits in a private mask of MAX_LIGHTS bits; then it reserves that
// many slots with one atomicAdd on the frame's cursor (the CPU clears the header before each
// frame) and writes the indices of the mask's set bits, which come out in ascending order. The
// mask keeps that second step to the cluster's own lights: it neither tests nor loads the
// others. Each cluster stores (offset, count) in cluster_ranges. Nothing is capped: a cluster's
// list holds every light that touches it. A run that would pass the end of the array (only a
// wrong bound could do that) is cut there, and the cut references are counted in the header, so
// a bug shows in the statistics rather than writing out of bounds. The CPU reference
// kiln_clusters_assign_cpu (src/render/clusters.c) does the same math.
//
// Spot lights are tested by the bounding sphere of their range, like point lights: the cone is not
// culled against, and the cone factor in the fragment shader zeroes what the sphere over-includes.

#include "lights.wgsl"

@group(0) @binding(0) var<uniform> clusters: ClusterUniform;
@group(0) @binding(1) var<storage, read> lights: array<Light>;
@group(0) @binding(2) var<storage, read_write> cluster_ranges: array<vec2u>; // (offset, count)
@group(0) @binding(3) var<storage, read_write> cluster_indices: array<u32>;
@group(0) @binding(4) var<storage, read_write> header: ClusterListHeader;

// Mirrors kiln_cluster_list_header (src/render/clusters.h).
struct ClusterListHeader {
    references: atomic<u32>, // slots asked for this frame: the exact number of light references
    dropped: atomic<u32>,    // references cut because the array was too small (0 unless a bug)
}

const SLICE_TILES: u32 = CLUSTER_X * CLUSTER_Y;

// View-space centre (xyz) and radius (w) of the lights of the current batch.
var<workgroup> batch: array<vec4f, SLICE_TILES>;

struct ClusterBox {
    lo: vec3f,
    hi: vec3f,
}

// View depth where slice k starts: near * (far / near)^(k / Z).
fn slice_depth(u: ClusterUniform, k: u32) -> f32 {
    return u.near * pow(u.far / u.near, f32(k) / f32(CLUSTER_Z));
}

// The line of view-space points through an NDC position: the point at clip depth 1 (the near
// plane in reverse-Z) and the step per metre of view depth along the line to clip depth 0.5.
// The cluster's corners are points on these lines at the slice's view depths, never
// reconstructed from clip depth; perspective lines meet at the eye, orthographic ones are
// parallel, and the same arithmetic serves both.
struct CornerLine {
    origin: vec3f,
    step: vec3f,
}

fn corner_line(u: ClusterUniform, ndc: vec2f) -> CornerLine {
    let p = u.inverse_projection * vec4f(ndc, 1.0, 1.0);
    let q = u.inverse_projection * vec4f(ndc, 0.5, 1.0);
    let a = p.xyz / p.w;
    let b = q.xyz / q.w;
    return CornerLine(a, (b - a) / (a.z - b.z));
}

fn corner_at(line: CornerLine, depth: f32) -> vec3f {
    return line.origin + line.step * (depth + line.origin.z);
}

fn cluster_box(u: ClusterUniform, cell: vec3u) -> ClusterBox {
    let grid = vec2f(f32(CLUSTER_X), f32(CLUSTER_Y));
    let tile_lo = vec2f(cell.xy) / grid;
    let tile_hi = vec2f(cell.xy + vec2u(1u)) / grid;
    // Tiles count pixels from the top; NDC y grows upwards.
    let ndc_lo = vec2f(tile_lo.x * 2.0 - 1.0, 1.0 - tile_hi.y * 2.0);
    let ndc_hi = vec2f(tile_hi.x * 2.0 - 1.0, 1.0 - tile_lo.y * 2.0);
    let depth_near = slice_depth(u, cell.z);
    let depth_far = slice_depth(u, cell.z + 1u);
    var b = ClusterBox(vec3f(3.0e38), vec3f(-3.0e38));
    for (var corner = 0u; corner < 4u; corner++) {
        let ndc = vec2f(select(ndc_lo.x, ndc_hi.x, (corner & 1u) != 0u), select(ndc_lo.y, ndc_hi.y, (corner & 2u) != 0u));
        let line = corner_line(u, ndc);
        let a = corner_at(line, depth_near);
        let c = corner_at(line, depth_far);
        b.lo = min(b.lo, min(a, c));
        b.hi = max(b.hi, max(a, c));
    }
    return b;
}

// Closest-point test: the squared distance from the centre to the box against radius squared.
fn sphere_touches_box(sphere: vec4f, b: ClusterBox) -> bool {
    let d = sphere.xyz - clamp(sphere.xyz, b.lo, b.hi);
    return dot(d, d) <= sphere.w * sphere.w;
}

// Moves lights [base, base + SLICE_TILES) into view space in `batch`, one per invocation.
// Callers put a workgroupBarrier after it, and another after they have read the batch.
fn load_batch(u: ClusterUniform, base: u32, light_count: u32, local: u32) {
    let mine = base + local;
    if (mine < light_count) {
        let light = lights[mine];
        batch[local] = vec4f((u.view * vec4f(light.position, 1.0)).xyz, light.range);
    }
}

@compute @workgroup_size(16, 9, 1)
fn cs_cull(@builtin(global_invocation_id) id: vec3u, @builtin(local_invocation_index) local: u32) {
    let u = clusters;
    let cluster = id.x + CLUSTER_X * (id.y + CLUSTER_Y * id.z);
    let b = cluster_box(u, id);
    let light_count = min(u.light_count, min(arrayLength(&lights), MAX_LIGHTS));
    // Which lights touch this cluster, and how many.
    var touched: array<u32, MAX_LIGHTS / 32u>;
    var count = 0u;
    for (var base = 0u; base < light_count; base += SLICE_TILES) {
        load_batch(u, base, light_count, local);
        workgroupBarrier();
        let batch_size = min(SLICE_TILES, light_count - base);
        for (var j = 0u; j < batch_size; j++) {
            if (sphere_touches_box(batch[j], b)) {
                let light = base + j;
                touched[light >> 5u] |= 1u << (light & 31u);
                count++;
            }
        }
        // The next batch overwrites what slower invocations may still be reading.
        workgroupBarrier();
    }
    // The cluster's range in the compacted list, cut at the array's end (see the top).
    let capacity = arrayLength(&cluster_indices);
    var offset = 0u;
    if (count > 0u) {
        offset = atomicAdd(&header.references, count);
    }
    let kept = select(0u, min(count, capacity - offset), offset < capacity);
    if (kept < count) {
        atomicAdd(&header.dropped, count - kept);
    }
    offset = min(offset, capacity);
    cluster_ranges[cluster] = vec2u(offset, kept);
    // The run: the set bits in ascending order, the first `kept` of them.
    var written = 0u;
    for (var word = 0u; word < (light_count + 31u) / 32u && written < kept; word++) {
        var bits = touched[word];
        while (bits != 0u && written < kept) {
            cluster_indices[offset + written] = word * 32u + firstTrailingBit(bits);
            written++;
            bits &= bits - 1u;
        }
    }
}
