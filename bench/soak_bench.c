/* soak_bench: a long run of the demo scene with churn, to show that nothing grows.
 *
 *   build/bin/kiln-soak-bench [--size WxH] [--frames N] [--seed S]
 *
 * Every frame dispatches a program that paints a texture the scene's first material samples,
 * then renders the demo scene into one command buffer (kiln_programs_record, then
 * kiln_renderer_record). Between frames a seeded generator churns fixed populations: a slot of
 * PROGRAM_SLOTS registered programs, TEXTURE_SLOTS registry textures and MESH_SLOTS extra meshes
 * (each drawn by one instance). A churn step destroys what a slot holds and makes a new one in it,
 * so the populations keep their size and whatever the run leaks shows as growth.
 *
 * After a warm-up of a tenth of the frames (at least 20) it takes a mark of the heap in use
 * (mallinfo2: every malloc of the process, Dawn's included), the live GPU objects per kind
 * (kiln_resources_live_counts) and the ids handed out; at the end it prints one JSON line with
 * both marks, the growth, the churn counts, uncaptured Dawn errors and the frame times. The goal
 * is no growth and no errors. Not a test: the figures go in docs/RELIABILITY.md. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/program.h>
#include <kiln/render.h>
#include "bench_common.h"
#include "demo_scene.h"

#define MAX_FRAMES 1000000u
#define PROGRAM_SLOTS 4
#define TEXTURE_SLOTS 8
#define MESH_SLOTS 4
#define PAINT_SIZE 64

/* Paints a moving gradient: the persistent program's pass, and every churned program's. */
static const char *const PAINT_WGSL =
    "struct Paint { color: vec4<f32> }\n"
    "@group(0) @binding(0) var<uniform> paint: Paint;\n"
    "@fragment fn fs_paint(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n"
    "    return vec4<f32>(uv * paint.color.xy, paint.color.z, 1.0);\n"
    "}\n";

/* xorshift64*: the same churn for the same seed on every machine. */
static uint64_t next_random(uint64_t *state) {
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 2685821657736338717ull;
}

static uint32_t paint_program(kiln_programs *programs, kiln_error *err) {
    kiln_slot_spec bindings[] = {{.format = KILN_FORMAT_RGBA8, .shape = {.kind = KILN_SHAPE_TARGET}}};
    kiln_pass_spec passes[] = {{.stage = KILN_STAGE_FRAGMENT, .entry_point = "fs_paint",
                                .output = {.kind = KILN_OUTPUT_BINDING, .index = 0},
                                .blend = KILN_PROGRAM_BLEND_REPLACE, .uniform_length = 16}};
    kiln_program_desc desc = {.wgsl = PAINT_WGSL, .binding_count = 1, .bindings = bindings, .pass_count = 1,
                              .passes = passes};
    kiln_program_error perr;
    uint32_t id = kiln_programs_register(programs, &desc, &perr);
    if (!id) kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "register: %s", perr.message);
    return id;
}

typedef struct soak {
    kiln_gfx *gfx;
    kiln_resources *res;
    kiln_texture_registry *textures;
    kiln_programs *programs;
    kiln_renderer *r;
    demo_scene demo;
    kiln_render_instance *instances;   /* the demo's, then one per mesh slot */
    uint32_t painted, paint_program;
    uint32_t program_slots[PROGRAM_SLOTS], texture_slots[TEXTURE_SLOTS], mesh_slots[MESH_SLOTS];
    uint64_t rng;
    uint64_t churned_programs, churned_textures, churned_meshes, replaced_meshes;
} soak;

static void print_counts(const char *name, const kiln_live_counts *c, size_t heap) {
    printf("\"%s\": {\"heap_bytes\": %zu, \"buffers\": %u, \"textures\": %u, \"texture_views\": %u, \"samplers\": %u, "
           "\"shaders\": %u, \"bind_groups\": %u, \"render_pipelines\": %u, \"live_total\": %u}",
           name, heap, c->buffers, c->textures, c->texture_views, c->samplers, c->shaders, c->bind_groups,
           c->render_pipelines, kiln_live_counts_total(c));
}

/* A 16x16 Sampled texture of one random colour. */
static uint32_t small_texture(soak *s, kiln_error *err) {
    uint8_t pixels[16 * 16 * 4];
    uint32_t c = (uint32_t)next_random(&s->rng);
    for (int i = 0; i < 16 * 16; i++) memcpy(pixels + 4 * i, (uint8_t[]){(uint8_t)c, (uint8_t)(c >> 8), (uint8_t)(c >> 16), 255}, 4);
    return kiln_texture_registry_add(s->textures, &(kiln_texture_create_desc){
        .format = KILN_FORMAT_RGBA8, .width = 16, .height = 16, .pixels = pixels, .pixels_size = sizeof pixels,
        .usage = KILN_USAGE_SAMPLED, .sampling = KILN_SAMPLING_LINEAR}, err);
}

/* A sphere of the slot's own detail, so a slot's meshes keep their size however often they churn. */
static bool slot_sphere(uint32_t slot, kiln_mesh_data *md, kiln_error *err) {
    return kiln_mesh_uv_sphere(md, 0.3f, 8 + 4 * slot, 16 + 8 * slot, err);
}

/* One churn step: a random slot of a random population is emptied and filled again. */
static bool churn(soak *s, kiln_error *err) {
    uint64_t pick = next_random(&s->rng);
    uint32_t kind = (uint32_t)(pick % 4), slot = (uint32_t)(pick >> 8);
    if (kind == 0) {
        slot %= PROGRAM_SLOTS;
        if (s->program_slots[slot]) kiln_programs_destroy_program(s->programs, s->program_slots[slot]);
        s->program_slots[slot] = paint_program(s->programs, err);
        s->churned_programs++;
        return s->program_slots[slot] != 0;
    }
    if (kind == 1) {
        slot %= TEXTURE_SLOTS;
        if (s->texture_slots[slot] && !kiln_texture_registry_remove(s->textures, s->texture_slots[slot], err)) return false;
        s->texture_slots[slot] = small_texture(s, err);
        s->churned_textures++;
        return s->texture_slots[slot] != 0;
    }
    slot %= MESH_SLOTS;
    kiln_mesh_data md = {0};
    bool ok = slot_sphere(slot, &md, err);
    if (kind == 2) {
        /* Remove and add again: the registry reuses the index (the spec's mesh rule). */
        ok = ok && kiln_renderer_remove_mesh(s->r, s->mesh_slots[slot], err);
        uint32_t index = ok ? kiln_renderer_add_mesh(s->r, "soak sphere", &md, true, err) : KILN_INVALID_INDEX;
        ok = index != KILN_INVALID_INDEX;
        if (ok) s->mesh_slots[slot] = index;
        s->churned_meshes++;
    } else {
        ok = ok && kiln_renderer_replace_mesh(s->r, s->mesh_slots[slot], &md, true, err);
        s->replaced_meshes++;
    }
    kiln_mesh_data_free(&md);
    s->instances[s->demo.scene.instance_count + slot].mesh = s->mesh_slots[slot];
    return ok;
}

static bool setup(soak *s, uint32_t width, uint32_t height, kiln_error *err) {
    s->gfx = kiln_gfx_create(&(kiln_gfx_desc){.label = "kiln-soak-bench"}, err);
    s->res = s->gfx ? kiln_resources_create(s->gfx, 0, err) : NULL;
    s->textures = s->res ? kiln_texture_registry_create(s->res, err) : NULL;
    s->programs = s->textures ? kiln_programs_create(s->gfx, s->res, s->textures, err) : NULL;
    s->r = s->programs ? kiln_renderer_create(s->gfx, s->res, NULL, WGPUTextureFormat_RGBA8UnormSrgb, err) : NULL;
    if (!s->r || !kiln_renderer_set_texture_registry(s->r, s->textures, err) ||
        !demo_scene_build(s->r, (float)width / (float)height, &s->demo, err))
        return false;
    /* The painted texture is the base colour of a material the first demo instance wears. */
    s->painted = kiln_texture_registry_add(s->textures, &(kiln_texture_create_desc){
        .format = KILN_FORMAT_RGBA8, .width = PAINT_SIZE, .height = PAINT_SIZE, .usage = KILN_USAGE_WRITABLE,
        .sampling = KILN_SAMPLING_LINEAR}, err);
    kiln_material m = kiln_material_default("painted");
    m.textures[KILN_TEX_BASE_COLOR] = s->painted;
    uint32_t painted_material = s->painted ? kiln_renderer_add_material(s->r, &m, err) : KILN_INVALID_INDEX;
    s->paint_program = painted_material != KILN_INVALID_INDEX ? paint_program(s->programs, err) : 0;
    if (!s->paint_program) return false;
    uint32_t n = s->demo.scene.instance_count;
    s->instances = calloc(n + MESH_SLOTS, sizeof *s->instances);
    if (!s->instances) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory");
    memcpy(s->instances, s->demo.scene.instances, n * sizeof *s->instances);
    s->instances[0].material = painted_material;
    for (uint32_t slot = 0; slot < MESH_SLOTS; slot++) {
        kiln_mesh_data md = {0};
        bool ok = slot_sphere(slot, &md, err);
        s->mesh_slots[slot] = ok ? kiln_renderer_add_mesh(s->r, "soak sphere", &md, true, err) : KILN_INVALID_INDEX;
        kiln_mesh_data_free(&md);
        if (s->mesh_slots[slot] == KILN_INVALID_INDEX) return false;
        s->instances[n + slot] = (kiln_render_instance){
            .mesh = s->mesh_slots[slot], .material = s->instances[1].material, .joint_offset = -1,
            .transform = kiln_mat4_translation((kiln_vec3){-1.5f + (float)slot, 2.5f, 0.0f})};
    }
    for (uint32_t slot = 0; slot < PROGRAM_SLOTS; slot++)
        if (!(s->program_slots[slot] = paint_program(s->programs, err))) return false;
    for (uint32_t slot = 0; slot < TEXTURE_SLOTS; slot++)
        if (!(s->texture_slots[slot] = small_texture(s, err))) return false;
    return true;
}

static void teardown(soak *s) {
    free(s->instances);
    demo_scene_free(&s->demo);
    kiln_renderer_destroy(s->r);
    kiln_programs_destroy(s->programs);
    kiln_texture_registry_destroy(s->textures);
    kiln_resources_destroy(s->res);
    kiln_gfx_destroy(s->gfx);
}

/* One frame: the paint dispatch (and one of a churned program, into a texture slot's neighbour:
 * the painted texture again), then the scene, in one command buffer, waited for. */
static bool frame(soak *s, kiln_render_target target, uint32_t i, kiln_error *err) {
    float paint[4] = {(float)(i % 97) / 96.0f, 0.5f, 0.25f, 1.0f};
    uint32_t churned = s->program_slots[i % PROGRAM_SLOTS];
    if (kiln_programs_dispatch(s->programs, s->paint_program, &s->painted, 1, paint, sizeof paint) != KILN_DISPATCH_OK ||
        kiln_programs_dispatch(s->programs, churned, &s->painted, 1, paint, sizeof paint) != KILN_DISPATCH_OK)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "frame %u: a dispatch was dropped", i);
    kiln_render_scene scene = s->demo.scene;
    scene.instances = s->instances;
    scene.instance_count = s->demo.scene.instance_count + MESH_SLOTS;
    kiln_encoder enc;
    if (!kiln_encoder_begin(&enc, s->res, "soak frame", err)) return false;
    bool ok = kiln_programs_record(s->programs, &enc, err) && kiln_renderer_record(s->r, &scene, target, &enc, err);
    if (!ok) {
        kiln_encoder_discard(&enc);
        return false;
    }
    return kiln_encoder_finish_and_submit(&enc, err) && kiln_gfx_wait_for_queue(s->gfx, err);
}


int main(int argc, char **argv) {
    bench_frame_options o = {.width = 320, .height = 180, .frames = 10000, .max_frames = MAX_FRAMES,
                             .extra_flag = {"--seed", "S", "the churn's random seed, from 1 (default 1)"}, .extra_min = 1,
                             .extra_max = UINT64_MAX, .extra = 1};
    int status = bench_parse_frame_options("kiln-soak-bench", "kiln-soak-bench [--size WxH] [--frames N] [--seed S]", argc,
                                           argv, &o);
    if (status != TOOL_RUN) return status;
    uint32_t width = o.width, height = o.height, frames = o.frames;
    uint64_t seed = o.extra;
    soak s = {.rng = seed};
    kiln_error err = {0};
    kiln_texture target = {0};
    kiln_texture_view view = {0};
    bool ok = setup(&s, width, height, &err);
    if (ok) {
        target = kiln_resources_create_texture(s.res, &(kiln_texture_desc){.label = "soak target", .width = width,
            .height = height, .format = WGPUTextureFormat_RGBA8UnormSrgb, .usage = WGPUTextureUsage_RenderAttachment}, &err);
        ok = target.id && (view = kiln_resources_create_texture_view(s.res, target, NULL, &err)).id;
    }
    kiln_render_target t = {.texture = kiln_resources_texture_raw(s.res, target, NULL), .view = kiln_resources_texture_view_raw(s.res, view, NULL)};
    uint32_t warmup = frames / 10 > 20 ? frames / 10 : 20;
    if (warmup > frames) warmup = frames;
    /* Both marks are taken right after a frame, when every churned mesh and texture has been
     * synced to the GPU and before the next churn step leaves one pending. */
    kiln_live_counts mark_counts = {0}, end_counts = {0};
    size_t mark_heap = 0, end_heap = 0;
    double mark_ms = bench_now_ms(), end_ms = mark_ms;
    for (uint32_t i = 0; ok && i < frames; i++) {
        ok = frame(&s, t, i, &err);
        kiln_gfx_pump(s.gfx, true);
        if (ok && (i + 1 == warmup || i + 1 == frames)) {
            kiln_live_counts *counts = i + 1 == frames ? &end_counts : &mark_counts;
            *counts = kiln_resources_live_counts(s.res);
            *(i + 1 == frames ? &end_heap : &mark_heap) = mallinfo2().uordblks;
            *(i + 1 == frames ? &end_ms : &mark_ms) = bench_now_ms();
        }
        ok = ok && (i + 1 == frames || churn(&s, &err));
        if (ok && frames >= 1000 && (i + 1) % (frames / 10) == 0)
            fprintf(stderr, "kiln-soak-bench: %u / %u frames\n", i + 1, frames);
    }
    if (ok) {
        printf("{\"frames\": %u, \"size\": [%u, %u], \"seed\": %llu, \"adapter\": \"%s\", \"warmup_frames\": %u, ",
               frames, width, height, (unsigned long long)seed, s.gfx->adapter_name, warmup);
        print_counts("mark", &mark_counts, mark_heap);
        printf(", ");
        print_counts("end", &end_counts, end_heap);
        printf(", \"heap_growth_bytes\": %lld, \"live_object_growth\": %d, \"churned\": {\"programs\": %llu, "
               "\"textures\": %llu, \"meshes_removed_and_added\": %llu, \"meshes_replaced\": %llu}, "
               "\"program_ids_handed_out\": %llu, \"texture_ids_handed_out\": %u, \"validation_errors\": %llu, "
               "\"ms_per_frame_after_warmup\": %.3f}\n",
               (long long)end_heap - (long long)mark_heap,
               (int)kiln_live_counts_total(&end_counts) - (int)kiln_live_counts_total(&mark_counts),
               (unsigned long long)s.churned_programs, (unsigned long long)s.churned_textures,
               (unsigned long long)s.churned_meshes, (unsigned long long)s.replaced_meshes,
               (unsigned long long)(PROGRAM_SLOTS + 1 + s.churned_programs), kiln_texture_registry_next_id(s.textures) - 1,
               (unsigned long long)s.gfx->error_count, frames > warmup ? (end_ms - mark_ms) / (frames - warmup) : 0.0);
    }
    if (ok && s.gfx->error_count) ok = kiln_error_set(&err, KILN_ERR_GPU, "%llu uncaptured Dawn errors", (unsigned long long)s.gfx->error_count);
    if (!ok) fprintf(stderr, "kiln-soak-bench: %s\n", err.message);
    if (view.id) kiln_resources_destroy_texture_view(s.res, view, NULL);
    if (target.id) kiln_resources_destroy_texture(s.res, target, NULL);
    teardown(&s);
    return ok ? 0 : 1;
}
