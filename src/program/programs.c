/* The program runtime object: creation and teardown, the id sequence, destroy_program, and the
 * accessors (log, pool statistics, timings). Register, dispatch and record live in their own
 * files (program_internal.h lists them). */
#include "program_internal.h"
#include <kiln/core/utf8.h>

#include <stdlib.h>
#include <string.h>

/* The fixed samplers every input binds one of: a Filtered binding's wrap and mips, and whether the
 * bound texture is read linear (a filterable format created with Linear sampling) or nearest. */
static bool create_samplers(kiln_programs *p, kiln_error *err) {
    for (int wrap = 0; wrap < 2; wrap++)
        for (int mips = 0; mips < 2; mips++)
            for (int linear = 0; linear < 2; linear++) {
                /* Base clamps the level of detail below 0.5 with nearest mip selection, which
                 * reads level 0 whatever the texture's chain. */
                kiln_sampler_desc d = {
                    .label = "program input",
                    .linear = linear,
                    .mip_linear = linear && mips == KILN_MIPS_CHAIN,
                    .address = wrap == KILN_WRAP_REPEAT ? WGPUAddressMode_Repeat : WGPUAddressMode_ClampToEdge,
                    .lod_max = mips == KILN_MIPS_BASE ? 0.25f : 0.0f,
                };
                p->samplers[wrap][mips][linear] = kiln_resources_create_sampler(p->res, &d, err);
                if (!p->samplers[wrap][mips][linear].id) return false;
            }
    /* A Compare depth input's sampler is fixed (docs: "Reading a depth slot"): the LessEqual test
     * a slot is drawn under, clamped, linear so an edge reads a filtered fraction. */
    kiln_sampler_desc compare = {.label = "program depth compare", .linear = true,
                                 .compare = WGPUCompareFunction_LessEqual, .lod_max = 0.25f};
    p->depth_compare = kiln_resources_create_sampler(p->res, &compare, err);
    return p->depth_compare.id != 0;
}

kiln_programs *kiln_programs_create(kiln_gfx *gfx, kiln_resources *res, kiln_texture_registry *textures,
                                    kiln_error *err) {
    if (!gfx || !res || !textures) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                       "kiln_programs_create needs a gfx, resources and a texture registry");
        return NULL;
    }
    kiln_programs *p = calloc(1, sizeof *p);
    if (!p || !kiln_log_init(&p->log, PROGRAM_LOG_CAPACITY)) {
        free(p);
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory creating the program runtime");
        return NULL;
    }
    p->gfx = gfx;
    p->res = res;
    p->textures = textures;
    kiln_fg_allocator allocator = kiln_fg_gpu_allocator(res);
    p->graph = kiln_frame_graph_create(&allocator, err);
    if (!p->graph) {
        kiln_log_free(&p->log);
        free(p);
        return NULL;
    }
    /* Programs are dispatched now and then, not every frame alike: a texture stays pooled through
     * PROGRAM_POOL_IDLE_RECORDS - 1 record calls with work that do not use it. */
    kiln_frame_graph_set_keep_idle(p->graph, PROGRAM_POOL_IDLE_RECORDS - 1);
    /* The vertex stage is the shader layer's built-in fullscreen.wgsl, the one the renderer's
     * fullscreen passes include; a library over no source resolves built-ins alone. */
    p->library = kiln_shader_library_create(gfx, res, NULL, err);
    p->objects = p->library ? kiln_object_cache_create(res, err) : NULL;
    p->uniform_groups = p->objects ? kiln_bind_group_cache_create(res, PROGRAM_UNIFORM_GROUPS, err) : NULL;
    if (!p->uniform_groups || !create_samplers(p, err) ||
        !(p->fullscreen = kiln_shader_library_load(p->library, "fullscreen.wgsl", err)).id) {
        kiln_programs_destroy(p);
        return NULL;
    }
    program_gpu_timing_init(p);
    return p;
}

void kiln_programs_destroy(kiln_programs *p) {
    if (!p) return;
    for (uint32_t id = 1; id <= p->programs.count; id++) program_free(p, programs_lookup(p, id));
    program_id_table_free(&p->programs);
    free(p->quarantined);
    program_queue_free(&p->queue);
    program_executor_free(p);
    kiln_frame_graph_destroy(p->graph);
    for (int wrap = 0; wrap < 2; wrap++)
        for (int mips = 0; mips < 2; mips++)
            for (int linear = 0; linear < 2; linear++)
                if (p->samplers[wrap][mips][linear].id)
                    kiln_resources_destroy_sampler(p->res, p->samplers[wrap][mips][linear], NULL);
    if (p->depth_compare.id) kiln_resources_destroy_sampler(p->res, p->depth_compare, NULL);
    program_buffer_pool_free(p);
    program_draw_sets_free_all(p); /* the sets first: they hold the buffers */
    program_instances_free_all(p);
    program_geometry_free_all(p);
    kiln_bind_group_cache_destroy(p->uniform_groups);
    kiln_object_cache_destroy(p->objects); /* empty by now: every pass released its references */
    kiln_shader_library_destroy(p->library); /* destroys p->fullscreen */
    kiln_log_free(&p->log);
    free(p);
}

program *programs_lookup(const kiln_programs *p, uint32_t id) {
    return p ? program_id_table_lookup(&p->programs, id) : NULL;
}

/* The pass's own objects go; the shared ones lose its reference, and go with the last one. */
const char *program_name(const program *prog, char *buf, size_t size) {
    if (prog->label[0])
        kiln_utf8_format(buf, size, "program %u \"%s\"", prog->id, prog->label);
    else
        kiln_utf8_format(buf, size, "program %u", prog->id);
    return buf;
}

const char *programs_name(const kiln_programs *p, uint32_t id, char *buf, size_t size) {
    const program *prog = programs_lookup(p, id);
    if (prog) return program_name(prog, buf, size);
    kiln_utf8_format(buf, size, "program %u", id);
    return buf;
}

static void release_pass(kiln_programs *p, program_pass *pass) {
    kiln_bind_group_cache_destroy(pass->input_groups);
    kiln_bind_group_cache_destroy(pass->buffer_groups);
    if (pass->compute_pipeline.id) kiln_resources_destroy_compute_pipeline(p->res, pass->compute_pipeline, NULL);
    kiln_object_cache_release_bind_group_layout(p->objects, pass->group2_layout);
    kiln_object_cache_release_render_pipeline(p->objects, pass->pipeline);
    kiln_object_cache_release_pipeline_layout(p->objects, pass->layout);
    kiln_object_cache_release_bind_group_layout(p->objects, pass->group1_layout);
    kiln_object_cache_release_bind_group_layout(p->objects, pass->group0_layout);
}

void program_free(kiln_programs *p, program *prog) {
    if (!prog) return;
    if (prog->passes)
        for (uint32_t i = 0; i < prog->pass_count; i++) release_pass(p, &prog->passes[i]);
    if (prog->module.id) kiln_resources_destroy_shader(p->res, prog->module, NULL);
    free(prog->wgsl);
    free(prog->bindings);
    free(prog->transients);
    free(prog->geometries);
    free(prog->buffers);
    free(prog->depths);
    free(prog->depth_named);
    free(prog->depth_res);
    free(prog->passes);
    free(prog->transient_res);
    free(prog->resolve_res);
    free(prog->binding_res);
    free(prog->binding_written);
    free(prog->binding_pass);
    free(prog->binding_info);
    free(prog);
}

bool kiln_programs_destroy_program(kiln_programs *p, uint32_t program_id) {
    if (!programs_lookup(p, program_id)) {
        if (p) kiln_log_add(&p->log, KILN_LOG_WARN, "program", "destroy_program: unknown program id %u", program_id);
        return false;
    }
    program_free(p, program_id_table_retire(&p->programs, program_id));
    /* Uniform groups are remade at the next dispatch of each layout; dropping them here means a
     * group of a layout no program holds any more does not outlive it. */
    kiln_bind_group_cache_clear(p->uniform_groups);
    return true;
}

kiln_log *kiln_programs_log(kiln_programs *p) {
    return p ? &p->log : NULL;
}

kiln_pool_stats kiln_programs_pool_stats(const kiln_programs *p) {
    if (!p) return (kiln_pool_stats){0};
    kiln_fg_pool_stats pool = kiln_frame_graph_pool_stats(p->graph);
    return (kiln_pool_stats){.classes = pool.descriptions, .textures = pool.textures,
                             .textures_last_dispatch = p->textures_last_dispatch};
}

uint32_t kiln_programs_timings(const kiln_programs *p, uint32_t program_id, kiln_pass_timing *rows, uint32_t max) {
    const program *prog = programs_lookup(p, program_id);
    if (!prog || !rows) return 0;
    program_gpu_collect(p);
    uint32_t n = prog->pass_count < max ? prog->pass_count : max;
    for (uint32_t i = 0; i < n; i++) {
        const program_pass *pass = &prog->passes[i];
        /* -1 until a measurement came back, and always without timestamp queries. */
        rows[i] = (kiln_pass_timing){
            .stage = pass->spec.stage, .width = pass->width, .height = pass->height, .divisor = pass->divisor,
            .cpu_record_ns = pass->cpu_record_ns, .gpu_ns = pass->gpu_done ? pass->gpu_ns : -1.0,
        };
    }
    return n;
}

void kiln_programs_await_timings(kiln_programs *p) {
    if (!p || !p->gfx->features.timestamp_query || !kiln_gfx_wait_for_queue(p->gfx, NULL)) return;
    /* A readback's map callback runs on a pump after the queue is idle; a few pumps deliver them all. */
    for (int i = 0; i < 4; i++) kiln_gfx_pump(p->gfx, true);
}

void program_resolve_extent(kiln_slot_extent extent, uint32_t ref_w, uint32_t ref_h, uint32_t *w, uint32_t *h,
                            uint32_t *divisor) {
    uint32_t d = extent.divided && extent.divisor ? extent.divisor : 1;
    *w = ref_w / d ? ref_w / d : 1;
    *h = ref_h / d ? ref_h / d : 1;
    if (divisor) *divisor = d;
}

void program_slot_extent(const program *prog, program_slot slot, uint32_t ref_w, uint32_t ref_h, uint32_t *w,
                         uint32_t *h, uint32_t *divisor) {
    kiln_slot_extent e = slot.kind == PROGRAM_SLOT_TRANSIENT ? prog->transients[slot.index].extent
                                                            : prog->bindings[slot.index].shape.extent;
    program_resolve_extent(e, ref_w, ref_h, w, h, divisor);
}

void program_depth_extent(const kiln_depth_spec *depth, uint32_t ref_w, uint32_t ref_h, uint32_t *w, uint32_t *h,
                          uint32_t *divisor) {
    if (depth->extent.fixed) {
        *w = *h = depth->extent.side;
        if (divisor) *divisor = 1;
        return;
    }
    program_resolve_extent(depth->extent.output, ref_w, ref_h, w, h, divisor);
}

kiln_texture_format program_slot_format(const program *prog, program_slot slot) {
    return slot.kind == PROGRAM_SLOT_TRANSIENT ? prog->transients[slot.index].format : prog->bindings[slot.index].format;
}
