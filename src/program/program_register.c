/* Register: compile and reflect the WGSL, validate the graph against it (program_validate.c), then
 * copy the declaration, derive the executor's plan (slots and uniform staging sizes; clears,
 * loads, resolves and transient lifetimes are the frame graph's, per dispatch) and build each
 * pass's layouts, pipeline and bind group cache. A register refused
 * at any step leaves nothing alive and consumes no id. */
#include "program_internal.h"
#include <kiln/core/utf8.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_layout.h"
#include "program_refuse.h"
#include "program_validate.h"

/* The name program modules carry in their diagnostics ("program.wgsl:3:5: error: ..."). */
#define PROGRAM_SOURCE_NAME "program.wgsl"

static uint32_t round_up(uint32_t v, uint32_t to) {
    return (v + to - 1) / to * to;
}

static program_slot output_slot(kiln_output_slot out) {
    return (program_slot){out.kind == KILN_OUTPUT_TRANSIENT ? PROGRAM_SLOT_TRANSIENT : PROGRAM_SLOT_BINDING, out.index};
}

/* ---- copying the declaration ------------------------------------------------------------------- */

static void *copy_array(const void *src, size_t count, size_t size) {
    void *dst = calloc(count ? count : 1, size);
    if (dst && count) memcpy(dst, src, count * size);
    return dst;
}

static bool copy_desc(program *prog, const kiln_program_desc *desc) {
    kiln_utf8_copy(prog->label, sizeof prog->label, desc->label);
    prog->binding_count = desc->binding_count;
    prog->transient_count = desc->transient_count;
    prog->pass_count = desc->pass_count;
    prog->bindings = copy_array(desc->bindings, desc->binding_count, sizeof *prog->bindings);
    prog->transients = copy_array(desc->transients, desc->transient_count, sizeof *prog->transients);
    prog->geometry_count = desc->geometry_count;
    prog->list_count = kiln_program_list_count(desc);
    prog->buffer_count = desc->buffer_count;
    prog->buffers = copy_array(desc->buffers, desc->buffer_count, sizeof *prog->buffers);
    prog->depth_count = desc->depth_transient_count;
    prog->geometries = copy_array(desc->geometries, desc->geometry_count, sizeof *prog->geometries);
    prog->depths = copy_array(desc->depth_transients, desc->depth_transient_count, sizeof *prog->depths);
    prog->depth_named = calloc(desc->depth_transient_count ? desc->depth_transient_count : 1, sizeof *prog->depth_named);
    prog->depth_res = calloc(desc->depth_transient_count ? desc->depth_transient_count : 1, sizeof *prog->depth_res);
    prog->passes = calloc(desc->pass_count, sizeof *prog->passes);
    size_t transients = desc->transient_count ? desc->transient_count : 1;
    prog->transient_res = calloc(transients, sizeof *prog->transient_res);
    prog->resolve_res = calloc(transients, sizeof *prog->resolve_res);
    prog->binding_res = calloc(desc->binding_count ? desc->binding_count : 1, sizeof *prog->binding_res);
    prog->binding_written = calloc(desc->binding_count ? desc->binding_count : 1, sizeof *prog->binding_written);
    prog->binding_pass = calloc(desc->binding_count ? desc->binding_count : 1, sizeof *prog->binding_pass);
    prog->binding_info = calloc(desc->binding_count ? desc->binding_count : 1, sizeof *prog->binding_info);
    if (!prog->bindings || !prog->transients || !prog->passes || !prog->transient_res || !prog->resolve_res ||
        !prog->binding_res || !prog->binding_written || !prog->binding_pass || !prog->binding_info ||
        !prog->geometries || !prog->depths || !prog->depth_named || !prog->depth_res || !prog->buffers)
        return false;
    for (uint32_t i = 0; i < desc->pass_count; i++) {
        program_pass *pass = &prog->passes[i];
        pass->spec = desc->passes[i];
        snprintf(pass->entry, sizeof pass->entry, "%s", desc->passes[i].entry_point);
        pass->spec.entry_point = pass->entry;
        pass->iterations = pass->spec.repeat_count ? pass->spec.repeat_count : 1;
        pass->sets = pass->spec.stage == KILN_STAGE_DRAW_SETS;
        pass->indirect = pass->spec.stage == KILN_STAGE_DRAW_INDEXED_INDIRECT;
        pass->compute = pass->spec.stage == KILN_STAGE_COMPUTE;
        pass->draw = pass->spec.stage == KILN_STAGE_DRAW || pass->indirect || pass->sets;
        pass->depth_only = pass->draw && pass->spec.output.kind == KILN_OUTPUT_NONE;
        pass->colourless = pass->depth_only || pass->compute;
        if (pass->sets) {
            const kiln_draw_sets_spec *s = &pass->spec.draw_sets;
            snprintf(pass->vertex_entry, sizeof pass->vertex_entry, "%s", s->vertex_entry_point);
            pass->spec.draw_sets.vertex_entry_point = pass->vertex_entry;
            pass->depth = s->depth;
            pass->depth_slot = s->depth_slot;
            pass->depth_writes = s->depth_write == KILN_DEPTH_WRITE;
            pass->load = s->load;
        } else if (pass->draw) {
            snprintf(pass->vertex_entry, sizeof pass->vertex_entry, "%s", desc->passes[i].draw.vertex_entry_point);
            pass->spec.draw.vertex_entry_point = pass->vertex_entry;
            pass->depth = pass->spec.draw.depth;
            pass->depth_slot = pass->spec.draw.depth_slot;
            pass->depth_writes = true;
            pass->load = pass->spec.draw.load;
        }
        if (pass->depth) prog->depth_named[pass->depth_slot] = true;
    }
    return true;
}

/* ---- the plan ------------------------------------------------------------------------------------ */

/* Resolves every pass's output and inputs to slots (PassOutput becomes the slot that pass wrote)
 * with the sampling each input binds under. */
static void plan_slots(program *prog) {
    for (uint32_t b = 0; b < prog->binding_count; b++) prog->binding_pass[b] = PROGRAM_NONE;
    for (uint32_t i = 0; i < prog->pass_count; i++) {
        program_pass *pass = &prog->passes[i];
        pass->output = output_slot(pass->spec.output);
        for (uint32_t n = 0; n < pass->spec.input_count; n++) {
            const kiln_input_slot *in = &pass->spec.inputs[n];
            program_input *plan = &pass->inputs[n];
            if (in->kind == KILN_INPUT_DEPTH) {
                plan->slot = (program_slot){PROGRAM_SLOT_DEPTH, in->index};
                plan->compare = in->depth_read == KILN_DEPTH_READ_COMPARE;
                plan->texel = !plan->compare;
                continue;
            }
            plan->slot = in->kind == KILN_INPUT_PASS_OUTPUT ? prog->passes[in->index].output
                       : (program_slot){in->kind == KILN_INPUT_TRANSIENT ? PROGRAM_SLOT_TRANSIENT : PROGRAM_SLOT_BINDING,
                                        in->index};
            /* A transient reads as Filtered { Clamp, Base }; a binding as it was declared. */
            kiln_slot_sampling s = {.wrap = KILN_WRAP_CLAMP, .mips = KILN_MIPS_BASE};
            if (plan->slot.kind == PROGRAM_SLOT_BINDING) s = prog->bindings[plan->slot.index].sampling;
            plan->texel = s.texel;
            plan->wrap = s.wrap;
            plan->mips = s.mips;
            if (plan->slot.kind == PROGRAM_SLOT_BINDING && prog->binding_pass[plan->slot.index] == PROGRAM_NONE)
                prog->binding_pass[plan->slot.index] = i;
        }
        if (!pass->colourless && pass->output.kind == PROGRAM_SLOT_BINDING) {
            prog->binding_written[pass->output.index] = true;
            if (prog->binding_pass[pass->output.index] == PROGRAM_NONE) prog->binding_pass[pass->output.index] = i;
        }
    }
    prog->output_binding = prog->passes[prog->pass_count - 1].output.index;
}

static uint32_t block_size(const kiln_wgsl_module *module, const char *entry_name) {
    const kiln_wgsl_entry *entry = kiln_wgsl_find_entry(module, entry_name);
    uint32_t block = 0;
    return kiln_wgsl_uniform_block_size(module, entry, 0, 0, &block, NULL) ? block : 0;
}

/* Group 0 binds the block the shader declares (at least 16 bytes, so a pass without one still
 * binds a valid range; the larger of a draw pass's two stages' blocks). Each iteration gets a
 * staging slot of that size rounded to the dynamic offset alignment; only the part of the window
 * the block covers is copied, since the shader reads nothing past it. */
static void plan_uniforms(program *prog, const kiln_wgsl_module *module) {
    for (uint32_t i = 0; i < prog->pass_count; i++) {
        program_pass *pass = &prog->passes[i];
        const kiln_wgsl_entry *entry = pass->compute ? kiln_wgsl_find_entry(module, pass->entry) : NULL;
        for (int k = 0; entry && k < 3; k++) pass->workgroup[k] = entry->workgroup_size[k] ? entry->workgroup_size[k] : 1;
        uint32_t block = block_size(module, pass->entry);
        if (pass->draw) {
            uint32_t vertex = block_size(module, pass->vertex_entry);
            if (vertex > block) block = vertex;
        }
        pass->uniform_bind_size = round_up(block > 16 ? block : 16, 16);
        pass->uniform_slot_size = round_up(pass->uniform_bind_size, PROGRAM_UNIFORM_ALIGN);
        prog->uniform_bytes += (size_t)pass->iterations * pass->uniform_slot_size;
        prog->graph_passes += pass->iterations;
    }
}

/* What the device cannot bind is refused at register, naming the limit: a program Dawn would
 * accept and then fail to bind on every frame is no program. One dispatch's uniform slots must
 * also fit the ring the executor keeps (PROGRAM_UNIFORM_INTACT_CALLS + 2 of them) in one buffer. */
static bool within_device_limits(const kiln_programs *p, const program *prog, kiln_program_error *err) {
    const WGPULimits *limits = &p->gfx->limits;
    for (uint32_t i = 0; i < prog->pass_count; i++) {
        const program_pass *pass = &prog->passes[i];
        if (pass->uniform_bind_size > limits->maxUniformBufferBindingSize)
            return REFUSE(err, KILN_PROGRAM_DEVICE_LIMIT,
                          "pass %u (%s): its uniform block of %u bytes is past the device's maxUniformBufferBindingSize (%u)",
                          i, pass->entry, pass->uniform_bind_size, (unsigned)limits->maxUniformBufferBindingSize);
    }
    uint64_t ring = (uint64_t)prog->uniform_bytes * (PROGRAM_UNIFORM_INTACT_CALLS + 2);
    if (ring > limits->maxBufferSize)
        return REFUSE(err, KILN_PROGRAM_DEVICE_LIMIT,
                      "one dispatch stages %zu uniform bytes, and the ring of %u dispatches' worth (%llu bytes) is past "
                      "the device's maxBufferSize (%llu)", prog->uniform_bytes, PROGRAM_UNIFORM_INTACT_CALLS + 2,
                      (unsigned long long)ring, (unsigned long long)limits->maxBufferSize);
    return true;
}

/* ---- GPU objects ------------------------------------------------------------------------------- */

static WGPUShaderStage const VISIBLE_BOTH = WGPUShaderStage_Vertex | WGPUShaderStage_Fragment;

/* Input n's texture at 2n (filterable formats as float, R32Float as unfilterable float; 2D, 2D
 * array or 3D by the binding's shape) and, for a Filtered read, its sampler at 2n + 1 (filtering
 * beside a filterable texture). */
static void input_layout(const program *prog, const program_pass *pass, uint32_t n, kiln_layout_entry *entries,
                         uint32_t *count) {
    const program_input *in = &pass->inputs[n];
    /* A draw pass's vertex stage reads the inputs too; a compute pass is its own stage. */
    WGPUShaderStage visible = pass->compute ? WGPUShaderStage_Compute
                            : pass->draw    ? VISIBLE_BOTH
                                            : WGPUShaderStage_Fragment;
    if (in->slot.kind == PROGRAM_SLOT_DEPTH) {
        entries[(*count)++] = (kiln_layout_entry){.binding = 2 * n, .visibility = visible,
                                                  .kind = KILN_BINDING_DEPTH_TEXTURE_2D};
        if (in->compare)
            entries[(*count)++] = (kiln_layout_entry){.binding = 2 * n + 1, .visibility = visible,
                                                      .kind = KILN_BINDING_COMPARISON_SAMPLER};
        return;
    }
    kiln_texture_format format = program_slot_format(prog, in->slot);
    bool filterable = kiln_texture_format_filterable(format);
    kiln_slot_shape_kind shape =
        in->slot.kind == PROGRAM_SLOT_BINDING ? prog->bindings[in->slot.index].shape.kind : KILN_SHAPE_TARGET;
    kiln_binding_kind kind = filterable ? KILN_BINDING_TEXTURE_2D : KILN_BINDING_UNFILTERABLE_TEXTURE_2D;
    if (shape == KILN_SHAPE_TEXTURE_ARRAY)
        kind = filterable ? KILN_BINDING_TEXTURE_2D_ARRAY : KILN_BINDING_UNFILTERABLE_TEXTURE_2D_ARRAY;
    if (shape == KILN_SHAPE_TEXTURE_VOLUME)
        kind = filterable ? KILN_BINDING_TEXTURE_3D : KILN_BINDING_UNFILTERABLE_TEXTURE_3D;
    entries[(*count)++] = (kiln_layout_entry){.binding = 2 * n, .visibility = visible, .kind = kind};
    if (!in->texel)
        entries[(*count)++] = (kiln_layout_entry){
            .binding = 2 * n + 1, .visibility = visible,
            .kind = filterable ? KILN_BINDING_FILTERING_SAMPLER : KILN_BINDING_NON_FILTERING_SAMPLER};
}

/* Dawn's first line, without gfx's "pipeline '<label>' is invalid: " (the pass is named already)
 * and without the call-site context lines Dawn appends. */
static const char *dawn_reason(char *message) {
    const char *marker = "is invalid: ";
    char *reason = strstr(message, marker);
    reason = reason ? reason + strlen(marker) : message;
    char *newline = strchr(reason, '\n');
    if (newline) *newline = '\0';
    return reason;
}

static kiln_blend_mode blend_mode(kiln_program_blend blend) {
    switch (blend) {
    case KILN_PROGRAM_BLEND_ALPHA: return KILN_BLEND_ALPHA;
    case KILN_PROGRAM_BLEND_ADDITIVE: return KILN_BLEND_ADDITIVE;
    default: return KILN_BLEND_OPAQUE;
    }
}

/* A layout as a vertex buffer: offsets in declaration order, no padding. */
static kiln_vertex_layout vertex_buffer_layout(const kiln_geometry_layout *layout, bool per_instance) {
    kiln_vertex_layout vb = {.stride = kiln_geometry_layout_stride(layout), .per_instance = per_instance,
                             .attribute_count = layout->attribute_count};
    uint32_t offset = 0;
    for (uint32_t a = 0; a < layout->attribute_count; a++) {
        const program_vertex_format *f = program_vertex_format_of(layout->attributes[a].format);
        vb.attributes[a] = (kiln_vertex_attribute){f->wgpu, offset, layout->attributes[a].location};
        offset += f->bytes;
    }
    return vb;
}

/* The authored vertex stage over the geometry slot's layout (buffer 0, offsets in declaration
 * order), the fixed rasteriser state, and the depth slot's attachment when the pass names one; a
 * depth-only pass rasterises at its slot's sample count. */
static void draw_state(const program *prog, const program_pass *pass, kiln_render_pipeline_desc *d, bool *four) {
    if (pass->sets) {
        d->vertex_buffers[0] = vertex_buffer_layout(&pass->spec.draw_sets.vertex_layout, false);
        d->vertex_buffers[1] = vertex_buffer_layout(&pass->spec.draw_sets.instance_layout, true);
        d->vertex_buffer_count = 2;
    } else {
        d->vertex_buffers[0] = vertex_buffer_layout(&prog->geometries[pass->spec.draw.geometry], false);
        d->vertex_buffer_count = 1;
    }
    d->shader = prog->module;
    d->fragment_shader = (kiln_shader){0};
    d->vertex_entry = pass->vertex_entry;
    d->topology = WGPUPrimitiveTopology_TriangleList;
    d->front_face = WGPUFrontFace_CCW;
    static const WGPUCullMode CULL_MODES[] = {[KILN_CULL_NONE] = WGPUCullMode_None,
                                              [KILN_CULL_BACK] = WGPUCullMode_Back,
                                              [KILN_CULL_FRONT] = WGPUCullMode_Front};
    d->cull = pass->sets ? CULL_MODES[pass->spec.draw_sets.cull] : WGPUCullMode_None;
    if (!pass->depth) return;
    const kiln_depth_spec *depth = &prog->depths[pass->depth_slot];
    d->depth = (kiln_depth_state){.format = WGPUTextureFormat_Depth32Float, .write = pass->depth_writes,
                                  .compare = WGPUCompareFunction_LessEqual};
    if (pass->depth_only) *four = depth->samples == KILN_SAMPLES_FOUR;
}

static bool build_pass(kiln_programs *p, program *prog, uint32_t i, kiln_program_error *err) {
    program_pass *pass = &prog->passes[i];
    kiln_error e = {0};
    /* The minimum binding size is the bound size (the block rounded up to 16 bytes, at least 16),
     * not the block itself: it is what every dispatch binds, valid for the shader, and it makes
     * passes whose blocks round alike share one layout. */
    WGPUShaderStage stages = pass->compute ? WGPUShaderStage_Compute : VISIBLE_BOTH;
    kiln_layout_entry group0 = {.binding = 0, .visibility = stages, .kind = KILN_BINDING_UNIFORM_BUFFER,
                                .dynamic_offset = true, .min_binding_size = pass->uniform_bind_size};
    pass->group0_layout = kiln_object_cache_bind_group_layout(p->objects, "program uniforms", &group0, 1, &e);
    if (!pass->group0_layout.id)
        return REFUSE(err, KILN_PROGRAM_PIPELINE_FAILED, "pass %u (%s): %s", i, pass->entry, e.message);

    kiln_bind_group_layout layouts[3] = {pass->group0_layout};
    uint32_t layout_count = 1;
    /* Group 2 needs a group 1, so a pass with buffers and no inputs binds an empty one. */
    if (pass->spec.input_count || pass->spec.buffer_count) {
        kiln_layout_entry entries[2 * KILN_PROGRAM_MAX_INPUTS];
        uint32_t count = 0;
        for (uint32_t n = 0; n < pass->spec.input_count; n++) input_layout(prog, pass, n, entries, &count);
        pass->group1_layout = kiln_object_cache_bind_group_layout(p->objects, "program inputs", entries, count, &e);
        if (!pass->group1_layout.id)
            return REFUSE(err, KILN_PROGRAM_PIPELINE_FAILED, "pass %u (%s): %s", i, pass->entry, e.message);
        layouts[layout_count++] = pass->group1_layout;
        pass->input_groups = kiln_bind_group_cache_create(p->res, PROGRAM_BIND_CACHE, &e);
        if (!pass->input_groups)
            return REFUSE(err, KILN_PROGRAM_PIPELINE_FAILED, "pass %u (%s): %s", i, pass->entry, e.message);
    }
    if (pass->spec.buffer_count) {
        kiln_layout_entry entries[KILN_PROGRAM_MAX_BUFFER_USES];
        for (uint32_t k = 0; k < pass->spec.buffer_count; k++)
            entries[k] = (kiln_layout_entry){
                .binding = k, .visibility = pass->compute ? WGPUShaderStage_Compute : VISIBLE_BOTH,
                .kind = pass->spec.buffers[k].write ? KILN_BINDING_STORAGE_BUFFER : KILN_BINDING_READ_ONLY_STORAGE_BUFFER};
        pass->group2_layout = kiln_object_cache_bind_group_layout(p->objects, "program buffers", entries,
                                                                  pass->spec.buffer_count, &e);
        pass->buffer_groups = pass->group2_layout.id ? kiln_bind_group_cache_create(p->res, PROGRAM_BIND_CACHE, &e) : NULL;
        if (!pass->buffer_groups)
            return REFUSE(err, KILN_PROGRAM_PIPELINE_FAILED, "pass %u (%s): %s", i, pass->entry, e.message);
        layouts[layout_count++] = pass->group2_layout;
    }
    pass->layout = kiln_object_cache_pipeline_layout(p->objects, "program pass", layouts, layout_count, &e);
    if (!pass->layout.id) return REFUSE(err, KILN_PROGRAM_PIPELINE_FAILED, "pass %u (%s): %s", i, pass->entry, e.message);
    if (pass->compute) {
        kiln_compute_pipeline_desc cd = {.label = "program compute pass", .layout = pass->layout,
                                         .shader = prog->module, .entry = pass->entry};
        pass->compute_pipeline = kiln_resources_create_compute_pipeline(p->res, &cd, &e);
        if (!pass->compute_pipeline.id)
            return REFUSE(err, KILN_PROGRAM_PIPELINE_FAILED, "pass %u (%s): %s", i, pass->entry, dawn_reason(e.message));
        return true;
    }

    char label[96];
    snprintf(label, sizeof label, "program pass %u (%s)", i, pass->entry);
    kiln_render_pipeline_desc d = {
        .label = label,
        .layout = pass->layout,
        .shader = p->fullscreen,
        .fragment_shader = prog->module,
        .vertex_entry = "vs_fullscreen",
        .fragment_entry = pass->entry,
    };
    bool four = false;
    if (!pass->colourless) {
        kiln_texture_format format = program_slot_format(prog, pass->output);
        four = pass->output.kind == PROGRAM_SLOT_TRANSIENT &&
               prog->transients[pass->output.index].samples == KILN_SAMPLES_FOUR;
        d.target_count = 1;
        d.targets[0] = (kiln_color_target){.format = kiln_texture_format_wgpu(format),
                                           .blend = blend_mode(pass->spec.blend)};
    }
    if (pass->draw) draw_state(prog, pass, &d, &four);
    d.sample_count = four ? 4 : 1;
    pass->pipeline = kiln_object_cache_render_pipeline(p->objects, &d, &e);
    if (!pass->pipeline.id)
        return REFUSE(err, KILN_PROGRAM_PIPELINE_FAILED, "pass %u (%s): %s", i, pass->entry, dawn_reason(e.message));
    return true;
}

program *program_build(kiln_programs *p, const kiln_program_desc *desc, const kiln_wgsl_module *module,
                       kiln_shader shader, kiln_program_error *err) {
    program *prog = calloc(1, sizeof *prog);
    if (!prog) {
        kiln_resources_destroy_shader(p->res, shader, NULL);
        REFUSE(err, KILN_PROGRAM_PIPELINE_FAILED, "out of memory registering the program");
        return NULL;
    }
    prog->module = shader;
    if (!copy_desc(prog, desc)) {
        program_free(p, prog);
        REFUSE(err, KILN_PROGRAM_PIPELINE_FAILED, "out of memory registering the program");
        return NULL;
    }
    plan_slots(prog);
    plan_uniforms(prog, module);
    if (!within_device_limits(p, prog, err)) {
        program_free(p, prog);
        return NULL;
    }
    for (uint32_t i = 0; i < prog->pass_count; i++)
        if (!build_pass(p, prog, i, err)) {
            program_free(p, prog);
            return NULL;
        }
    return prog;
}

/* ---- register ------------------------------------------------------------------------------------ */

/* Scans, compiles, validates and builds a program on p's device: everything register does but
 * the id (kiln_programs_recreate rebuilds registered programs through it). Keeps a copy of the
 * WGSL, which a device replacement compiles again. */
program *program_compile(kiln_programs *p, const kiln_program_desc *desc, size_t wgsl_bytes, kiln_program_error *err) {
    kiln_error e = {0};
    kiln_wgsl_module *module = kiln_wgsl_reflect(desc->wgsl, wgsl_bytes, PROGRAM_SOURCE_NAME, &e);
    if (!module) {
        REFUSE(err, KILN_PROGRAM_INVALID_WGSL, "%s", e.message);
        return NULL;
    }
    if (!kiln_program_check_flat(module, err)) {
        kiln_wgsl_module_free(module);
        return NULL;
    }
    WGPUShaderModule raw = kiln_gfx_compile_shader(p->gfx, PROGRAM_SOURCE_NAME, desc->wgsl, NULL, &e);
    if (!raw) {
        kiln_wgsl_module_free(module);
        REFUSE(err, KILN_PROGRAM_INVALID_WGSL, "%s", e.message);
        return NULL;
    }
    /* Adopted before validation so that every path out releases it through kiln_resources. */
    kiln_shader shader = kiln_resources_adopt_shader(p->res, raw, PROGRAM_SOURCE_NAME, &e);
    if (!shader.id) {
        kiln_wgsl_module_free(module);
        REFUSE(err, KILN_PROGRAM_PIPELINE_FAILED, "%s", e.message);
        return NULL;
    }
    program *prog = NULL;
    kiln_program_caps caps = {.float32_blendable = p->gfx->features.float32_blendable,
                              .max_texture_dimension_2d = p->gfx->limits.maxTextureDimension2D,
                              .max_storage_buffer_binding_size = p->gfx->limits.maxStorageBufferBindingSize,
                              .max_compute_workgroups_per_dimension = p->gfx->limits.maxComputeWorkgroupsPerDimension};
    if (kiln_program_validate(desc, module, &caps, err))
        prog = program_build(p, desc, module, shader, err);
    else
        kiln_resources_destroy_shader(p->res, shader, NULL);
    kiln_wgsl_module_free(module);
    if (prog && !(prog->wgsl = malloc(wgsl_bytes + 1))) {
        program_free(p, prog);
        REFUSE(err, KILN_PROGRAM_PIPELINE_FAILED, "out of memory registering the program");
        return NULL;
    }
    if (prog) {
        memcpy(prog->wgsl, desc->wgsl, wgsl_bytes);
        prog->wgsl[wgsl_bytes] = '\0';
    }
    return prog;
}

/* A refusal of a labelled program names it first: `program "blur": pass 2 (fs_blur): ...`. */
static void name_label(const kiln_program_desc *desc, kiln_program_error *err) {
    if (!desc || !desc->label || !desc->label[0]) return;
    char label[KILN_PROGRAM_LABEL_MAX], message[sizeof err->message];
    kiln_utf8_copy(label, sizeof label, desc->label);
    kiln_utf8_format(message, sizeof message, "program \"%s\": %s", label, err->message);
    memcpy(err->message, message, sizeof message);
}

uint32_t kiln_programs_register(kiln_programs *p, const kiln_program_desc *desc, kiln_program_error *err) {
    kiln_program_error local;
    if (!err) err = &local;
    *err = (kiln_program_error){0};
    if (!p || !desc || !desc->wgsl) {
        REFUSE(err, KILN_PROGRAM_INVALID_WGSL, "%s", p ? "the program has no WGSL source" : "no program runtime");
        return 0;
    }
    /* The same cap as a WGSL file (kiln-run's wgsl_path): scanning and compiling a source is work
     * proportional to its size, and a multi-megabyte module is no shader anyone writes by hand. */
    size_t wgsl_bytes = strnlen(desc->wgsl, KILN_WGSL_MAX_FILE_BYTES + 1);
    if (wgsl_bytes > KILN_WGSL_MAX_FILE_BYTES) {
        REFUSE(err, KILN_PROGRAM_INVALID_WGSL, "the WGSL source is over the %zu-byte limit for a WGSL source",
               (size_t)KILN_WGSL_MAX_FILE_BYTES);
        name_label(desc, err);
        return 0;
    }
    if (!program_id_table_reserve(&p->programs, 1)) {
        REFUSE(err, KILN_PROGRAM_PIPELINE_FAILED, "out of memory registering the program");
        return 0;
    }

    program *prog = program_compile(p, desc, wgsl_bytes, err);
    if (!prog) {
        name_label(desc, err);
        return 0;
    }
    prog->id = program_id_table_add(&p->programs, prog);
    return prog->id;
}
