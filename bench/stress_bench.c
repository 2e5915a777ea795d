/* kiln-bench stress: the CPU side of a frame at scale.
 *
 *   kiln-bench stress [--frames N] [--size WxH] [--instances N] [--lights N] [--threads N] [--sweep]
 *
 * A grid of instances (10,000 by default) of 20 meshes: two skinned ones whose joint palette is
 * animated every frame and whose instances walk (their transforms change every frame), one with
 * two morph targets whose weights are animated per instance, spheres and subdivided planes with
 * levels of detail, and cubes; 24 materials (masked, double-sided and one blended among them);
 * 256 point and spot lights, four of the spots casting shadows into the atlas. The camera looks
 * across the grid so about 60% of the instances are in view, at every instance count.
 *
 * Each frame is rendered (kiln_renderer_render: culling, sorting, batching, uploads, the frame
 * graph and the recording of every pass, the submit), then waited for outside the timed span, so
 * the GPU (lavapipe runs on the same cores) does not share the CPU with the measured work. One
 * JSON line per instance count: the median, 95th percentile and best CPU time of the render call,
 * the median GPU time of the frame's passes where the device has timestamp queries, kiln's own
 * heap allocations per frame (linker --wrap of malloc, tests/perf/alloc_counter.c) and the
 * frame's counts. --sweep runs 1k, 2k, 5k, 10k, 20k and 50k instances, a fresh renderer each.
 * Not a test: the figures go in docs/PERFORMANCE.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/render.h>

#include "alloc_counter.h"
#include "bench_common.h"
#include "kiln_bench.h"

#define WARMUP 10
#define MAX_FRAMES 10000
#define MAX_INSTANCES 1000000u
#define READBACK_PUMPS 16

enum {
    MESH_COUNT = 20,
    SKINNED_MESHES = 2,    /* meshes 0 and 1 */
    MORPHED_MESH = 2,      /* mesh 2 */
    MATERIAL_COUNT = 24,   /* the last one blended */
    POSES = 16,            /* distinct animated poses of the skinned meshes */
    JOINTS_PER_SKIN = 2,
    SHADOWED_SPOTS = 4,
};
#define GRID_SPACING 2.0f

typedef struct stress_options {
    uint32_t frames, width, height, instances, lights, threads;
    bool sweep;
} stress_options;

typedef struct stress_scene {
    kiln_render_scene scene;
    kiln_render_instance *instances;
    kiln_vec3 *home;               /* each instance's grid position */
    kiln_light *lights;
    kiln_mat4 joints[POSES * JOINTS_PER_SKIN];
    uint32_t meshes[MESH_COUNT], materials[MATERIAL_COUNT];
} stress_scene;

/* ---- the command line ---------------------------------------------------------------------- */

static const tool_flag stress_flags[] = {
    {"--frames", "N", "frames measured (default 60)"},
    {"--size", "WxH", "the target's size (default 640x360)"},
    {"--instances", "N", "instances in the scene (default 10000)"},
    {"--lights", "N", "point lights (default 256)"},
    {"--threads", "N", "the renderer's worker threads (0: automatic)"},
    {"--sweep", NULL, "runs 1k, 2k, 5k, 10k, 20k and 50k instances, a fresh renderer each"},
    {NULL, NULL, NULL},
};

static const tool_cli stress_cli = {
    .tool = "kiln-bench stress",
    .synopsis = "kiln-bench stress [--frames N] [--size WxH] [--instances N] [--lights N] [--threads N] [--sweep]",
    .flags = stress_flags,
};

/* A whole number flag of the stress options into *out. */
static bool read_count(tool_args *a, uint64_t min, uint64_t max, uint32_t *out) {
    uint64_t v;
    if (!tool_args_uint(a, min, max, &v)) return false;
    *out = (uint32_t)v;
    return true;
}

static bool read_flag(tool_args *a, void *user) {
    stress_options *o = user;
    if (!a->flag) return tool_args_unexpected(a), false;
    if (tool_args_is(a, "--sweep")) return o->sweep = true;
    if (tool_args_is(a, "--size")) return tool_args_size(a, &o->width, &o->height);
    if (tool_args_is(a, "--frames")) return read_count(a, 1, MAX_FRAMES, &o->frames);
    if (tool_args_is(a, "--instances")) return read_count(a, 1, MAX_INSTANCES, &o->instances);
    if (tool_args_is(a, "--lights")) return read_count(a, 0, KILN_MAX_LIGHTS, &o->lights);
    return read_count(a, 0, KILN_MAX_WORKER_THREADS, &o->threads); /* --threads */
}

/* ---- the meshes and materials -------------------------------------------------------------- */

/* A sphere stretched into a 2 m upright body, skinned to two joints: the lower half follows joint
 * 0, the upper half joint 1, blended across the middle. */
static bool make_skinned_body(kiln_mesh_data *md, uint32_t rings, kiln_error *err) {
    if (!kiln_mesh_uv_sphere(md, 0.5f, rings, rings * 2, err)) return false;
    md->joints = calloc(md->vertex_count, sizeof *md->joints);
    md->weights = calloc(md->vertex_count, sizeof *md->weights);
    if (!md->joints || !md->weights) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t v = 0; v < md->vertex_count; v++) {
        md->positions[v].y = (md->positions[v].y + 0.5f) * 2.0f;
        float upper = fminf(fmaxf(md->positions[v].y - 0.5f, 0.0f), 1.0f);
        md->joints[v] = (kiln_joints4){{0, 1, 0, 0}};
        md->weights[v] = (kiln_vec4){1.0f - upper, upper, 0.0f, 0.0f};
    }
    return true;
}

/* A sphere with two morph targets: a bulge along the normals and a stretch upwards. */
static bool make_morphed_blob(kiln_mesh_data *md, kiln_error *err) {
    if (!kiln_mesh_uv_sphere(md, 0.6f, 12, 24, err)) return false;
    kiln_morph_target *bulge = kiln_mesh_data_add_morph_target(md, err);
    kiln_morph_target *stretch = bulge ? kiln_mesh_data_add_morph_target(md, err) : NULL;
    if (!stretch) return false;
    for (uint32_t v = 0; v < md->vertex_count; v++) {
        bulge->position_deltas[v] = kiln_vec3_scale(md->normals[v], 0.25f);
        stretch->position_deltas[v] = (kiln_vec3){0.0f, md->positions[v].y * 0.8f, 0.0f};
    }
    return true;
}

/* Meshes 0..1 skinned, 2 morphed, 3..10 spheres and 11..15 subdivided planes (both with levels of
 * detail), 16..19 cubes. */
static bool make_mesh(uint32_t m, kiln_mesh_data *md, kiln_error *err) {
    if (m < SKINNED_MESHES) return make_skinned_body(md, 8 + 4 * m, err);
    if (m == MORPHED_MESH) return make_morphed_blob(md, err);
    if (m <= 10) return kiln_mesh_uv_sphere(md, 0.4f + 0.05f * (float)(m - 3), 6 + 2 * (m - 3), 12 + 4 * (m - 3), err);
    if (m <= 15) return kiln_mesh_plane(md, 0.7f, 4 + 2 * (m - 11), err);
    return kiln_mesh_cube(md, 0.3f + 0.1f * (float)(m - 16), err);
}

static bool add_meshes_and_materials(kiln_renderer *r, stress_scene *s, kiln_error *err) {
    for (uint32_t m = 0; m < MESH_COUNT; m++) {
        kiln_mesh_data md = {0};
        bool ok = make_mesh(m, &md, err);
        char label[32];
        snprintf(label, sizeof label, "stress mesh %u", m);
        if (ok) ok = (s->meshes[m] = kiln_renderer_add_mesh(r, label, &md, true, err)) != KILN_INVALID_INDEX;
        kiln_mesh_data_free(&md);
        if (!ok) return false;
    }
    for (uint32_t i = 0; i < MATERIAL_COUNT; i++) {
        kiln_material m = kiln_material_default("stress");
        float t = (float)i / (float)(MATERIAL_COUNT - 1);
        m.base_color = (kiln_vec4){0.2f + 0.7f * t, 0.4f + 0.3f * sinf(3.0f * t), 0.9f - 0.7f * t, 1.0f};
        m.roughness = 0.2f + 0.6f * t;
        m.metallic = i % 3 == 0 ? 1.0f : 0.0f;
        m.alpha_mode = i == MATERIAL_COUNT - 1 ? KILN_ALPHA_BLEND : i == 5 ? KILN_ALPHA_MASK : KILN_ALPHA_OPAQUE;
        if (m.alpha_mode == KILN_ALPHA_BLEND) m.base_color.w = 0.5f;
        m.double_sided = i == 7 || (i >= 11 && i <= 12);
        if ((s->materials[i] = kiln_renderer_add_material(r, &m, err)) == KILN_INVALID_INDEX) return false;
    }
    return true;
}

/* ---- the scene ----------------------------------------------------------------------------- */

/* A fixed pseudo-random sequence (xorshift), so every run places the same scene. */
static uint32_t next_random(uint32_t *state) {
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

static float random_unit(uint32_t *state) { return (float)(next_random(state) >> 8) / 16777216.0f; }

/* The side of the square grid, in cells. */
static uint32_t grid_side(uint32_t instances) { return (uint32_t)ceilf(sqrtf((float)instances)); }

/* Instances are listed mesh by mesh, as an importer lists a model's nodes together; their cells
 * are shuffled, so every mesh is spread over the whole grid. One instance in 128 is blended. */
static bool build_scene(kiln_renderer *r, const stress_options *o, stress_scene *s, kiln_error *err) {
    uint32_t n = o->instances, side = grid_side(n);
    s->instances = calloc(n, sizeof *s->instances);
    s->home = calloc(n, sizeof *s->home);
    uint32_t *cells = calloc((size_t)side * side, sizeof *cells);
    s->lights = calloc(o->lights ? o->lights : 1, sizeof *s->lights);
    if (!s->instances || !s->home || !cells || !s->lights) {
        free(cells);
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory for %u instances", n);
    }
    if (!add_meshes_and_materials(r, s, err)) {
        free(cells);
        return false;
    }
    uint32_t seed = 0x9E3779B9u;
    for (uint32_t c = 0; c < side * side; c++) cells[c] = c;
    for (uint32_t c = side * side - 1; c > 0; c--) {
        uint32_t j = next_random(&seed) % (c + 1), t = cells[c];
        cells[c] = cells[j];
        cells[j] = t;
    }
    float half = 0.5f * GRID_SPACING * (float)side;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t mesh = (uint32_t)((uint64_t)i * MESH_COUNT / n);
        uint32_t material = i % 128 == 127 ? MATERIAL_COUNT - 1 : next_random(&seed) % (MATERIAL_COUNT - 1);
        uint32_t cell = cells[i];
        kiln_vec3 p = {(float)(cell % side) * GRID_SPACING - half, 0.0f, (float)(cell / side) * GRID_SPACING - half};
        float scale = 0.7f + 0.6f * random_unit(&seed);
        kiln_quat q = kiln_quat_from_axis_angle((kiln_vec3){0, 1, 0}, 6.2831853f * random_unit(&seed));
        s->home[i] = p;
        s->instances[i] = (kiln_render_instance){
            .mesh = s->meshes[mesh], .material = s->materials[material],
            .transform = kiln_mat4_trs(p, q, (kiln_vec3){scale, scale, scale}),
            .joint_offset = mesh < SKINNED_MESHES ? (int32_t)((i % POSES) * JOINTS_PER_SKIN) : -1};
    }
    free(cells);
    /* Lights over the grid: three point lights for every spot; the first spots cast shadows. */
    for (uint32_t l = 0; l < o->lights; l++) {
        kiln_vec3 p = {(random_unit(&seed) * 2.0f - 1.0f) * half, 2.0f + 2.0f * random_unit(&seed),
                       (random_unit(&seed) * 2.0f - 1.0f) * half};
        kiln_vec3 color = {0.5f + 0.5f * random_unit(&seed), 0.5f + 0.5f * random_unit(&seed), 0.6f};
        if (l % 4 == 3) {
            s->lights[l] = kiln_light_spot(p, (kiln_vec3){0.2f, -1.0f, 0.1f}, color, 400.0f, 10.0f, 0.4f, 0.6f);
            s->lights[l].cast_shadows = l / 4 < SHADOWED_SPOTS;
        } else {
            s->lights[l] = kiln_light_point(p, color, 150.0f, 6.0f);
        }
    }
    /* From beyond the near edge, looking down across the grid: about 60% of it in view. */
    float d = GRID_SPACING * (float)side;
    s->scene = (kiln_render_scene){
        .camera = kiln_camera_look_at((kiln_vec3){0.0f, 0.1f * d, 0.35f * d}, (kiln_vec3){0.0f, 0.0f, -0.1f * d},
                                      (kiln_vec3){0, 1, 0}, 1.0f, (float)o->width / (float)o->height, 0.1f),
        .instances = s->instances, .instance_count = n, .lights = s->lights, .light_count = o->lights,
        .joints = s->joints, .joint_count = POSES * JOINTS_PER_SKIN};
    return true;
}

static void free_scene(stress_scene *s) {
    free(s->instances);
    free(s->home);
    free(s->lights);
}

/* Frame f: the palette bends each pose's upper joint about the body's middle, the skinned
 * instances walk a small circle, the morphed ones breathe. */
static void animate(stress_scene *s, uint32_t f) {
    float t = (float)f * 0.05f;
    for (uint32_t p = 0; p < POSES; p++) {
        kiln_quat bend = kiln_quat_from_axis_angle((kiln_vec3){1, 0, 0}, 0.6f * sinf(t + (float)p));
        kiln_mat4 pivot = kiln_mat4_translation((kiln_vec3){0, 1, 0}), back = kiln_mat4_translation((kiln_vec3){0, -1, 0});
        s->joints[p * JOINTS_PER_SKIN] = kiln_mat4_identity();
        s->joints[p * JOINTS_PER_SKIN + 1] = kiln_mat4_mul(pivot, kiln_mat4_mul(kiln_mat4_from_quat(bend), back));
    }
    for (uint32_t i = 0; i < s->scene.instance_count; i++) {
        kiln_render_instance *inst = &s->instances[i];
        if (inst->mesh < s->meshes[0] + SKINNED_MESHES) {
            float a = t + (float)i;
            inst->transform.m[12] = s->home[i].x + 0.4f * cosf(a);
            inst->transform.m[14] = s->home[i].z + 0.4f * sinf(a);
        } else if (inst->mesh == s->meshes[MORPHED_MESH]) {
            inst->morph_weights[0] = 0.5f + 0.5f * sinf(t + 0.1f * (float)i);
            inst->morph_weights[1] = 0.5f + 0.5f * cosf(1.3f * t + 0.1f * (float)i);
        }
    }
}

/* ---- measuring ----------------------------------------------------------------------------- */

/* The GPU time of frame `frame`'s passes, pumping until it comes back; negative when it does
 * not (no timestamp queries, or it was not read back in time). */
static double frame_gpu_ms(kiln_gfx *gfx, kiln_renderer *r, uint64_t frame) {
    kiln_frame_timings t = kiln_renderer_pass_timings(r);
    for (int i = 0; i < READBACK_PUMPS && (t.status == KILN_FRAME_TIMINGS_PENDING ||
                                           (t.status == KILN_FRAME_TIMINGS_READY && t.frame < frame)); i++) {
        kiln_gfx_pump(gfx, true);
        t = kiln_renderer_pass_timings(r);
    }
    return t.status == KILN_FRAME_TIMINGS_READY && t.frame == frame ? t.total_ms : -1.0;
}

static bool measure(kiln_gfx *gfx, kiln_resources *res, const stress_options *o, kiln_error *err) {
    const WGPUTextureFormat format = WGPUTextureFormat_RGBA8UnormSrgb;
    kiln_render_settings settings = {.atlas_size = 1024, .atlas_tile = 256, .worker_threads = o->threads};
    kiln_renderer *r = kiln_renderer_create(gfx, res, &settings, format, err);
    if (!r) return false;
    stress_scene s = {0};
    kiln_texture target = {0};
    kiln_texture_view view = {0};
    bool ok = build_scene(r, o, &s, err);
    if (ok) {
        target = kiln_resources_create_texture(res, &(kiln_texture_desc){.label = "stress target", .width = o->width,
            .height = o->height, .format = format, .usage = WGPUTextureUsage_RenderAttachment}, err);
        ok = target.id && (view = kiln_resources_create_texture_view(res, target, NULL, err)).id;
    }
    kiln_render_target t = {.texture = kiln_resources_texture_raw(res, target, NULL), .view = kiln_resources_texture_view_raw(res, view, NULL)};
    double *cpu = calloc(o->frames, sizeof *cpu), *gpu = calloc(o->frames, sizeof *gpu);
    if (!cpu || !gpu) ok = kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory");
    uint32_t gpu_frames = 0;
    uint64_t allocations = 0;
    for (uint32_t f = 0; ok && f < WARMUP + o->frames; f++) {
        animate(&s, f);
        bool measured = f >= WARMUP;
        if (measured) kiln_alloc_counter_start();
        double start = bench_now_ms();
        ok = kiln_renderer_render(r, &s.scene, t, err);
        double elapsed = bench_now_ms() - start;
        if (measured) allocations += kiln_alloc_counter_stop();
        ok = ok && kiln_gfx_wait_for_queue(gfx, err);
        if (!ok || !measured) continue;
        cpu[f - WARMUP] = elapsed;
        double g = frame_gpu_ms(gfx, r, f + 1);
        if (g >= 0.0) gpu[gpu_frames++] = g;
    }
    if (ok) {
        const kiln_frame_stats *st = kiln_renderer_stats(r);
        double median = bench_median(cpu, o->frames); /* sorts cpu */
        uint32_t p95 = (uint32_t)ceil(0.95 * o->frames) - 1;
        printf("{\"mode\": \"stress\", \"instances\": %u, \"meshes\": %u, \"materials\": %u, \"lights\": %u, "
               "\"size\": \"%ux%u\", \"frames\": %u, \"worker_threads\": %u, \"instances_drawn\": %u, "
               "\"draw_calls\": %u, \"prepass_draw_calls\": %u, \"shadow_views\": %u, \"shadow_draw_calls\": %u, "
               "\"cpu_ms_median\": %.3f, \"cpu_ms_p95\": %.3f, \"cpu_ms_best\": %.3f, \"cpu_ns_per_instance\": %.1f, "
               "\"gpu_ms_median\": ",
               o->instances, MESH_COUNT, MATERIAL_COUNT, st->lights, o->width, o->height, o->frames,
               kiln_renderer_worker_threads(r), st->instances_drawn, st->draw_calls, st->prepass_draw_calls,
               st->shadow_views, st->shadow_draw_calls, median, cpu[p95], cpu[0], median * 1e6 / o->instances);
        if (gpu_frames) printf("%.3f", bench_median(gpu, gpu_frames));
        else printf("null");
        printf(", \"allocs_per_frame\": %.2f, \"adapter\": \"%s\"}\n", (double)allocations / o->frames, gfx->adapter_name);
        fflush(stdout);
    }
    free(cpu);
    free(gpu);
    if (view.id) kiln_resources_destroy_texture_view(res, view, NULL);
    if (target.id) kiln_resources_destroy_texture(res, target, NULL);
    free_scene(&s);
    kiln_renderer_destroy(r);
    return ok;
}

int kiln_bench_stress(int argc, char **argv) {
    stress_options o = {.frames = 60, .width = 640, .height = 360, .instances = 10000, .lights = 256};
    int status = bench_parse(&stress_cli, argc, argv, read_flag, &o);
    if (status != TOOL_RUN) return status;
    static const uint32_t SWEEP[] = {1000, 2000, 5000, 10000, 20000, 50000};
    kiln_error err = {0};
    kiln_gfx *gfx = kiln_gfx_create(&(kiln_gfx_desc){.label = "kiln-bench stress"}, &err);
    kiln_resources *res = gfx ? kiln_resources_create(gfx, 0, &err) : NULL;
    bool ok = res != NULL;
    for (size_t i = 0; ok && i < (o.sweep ? sizeof SWEEP / sizeof SWEEP[0] : 1); i++) {
        if (o.sweep) o.instances = SWEEP[i];
        ok = measure(gfx, res, &o, &err);
    }
    if (ok && gfx->error_count) {
        ok = false;
        snprintf(err.message, sizeof err.message, "%llu validation error(s) from Dawn", (unsigned long long)gfx->error_count);
    }
    if (!ok) fprintf(stderr, "kiln-bench stress: %s\n", err.message);
    kiln_resources_destroy(res);
    kiln_gfx_destroy(gfx);
    return ok ? 0 : 1;
}
