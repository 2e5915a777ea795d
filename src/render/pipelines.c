/* The shared bind group layouts and the scene pipelines, a cache of variants keyed by
 * pipeline_key and built the first time a frame draws with one.
 *
 * Bind groups (docs/guides/render.md): 0 the View and Lighting blocks, 1 objects (instance records
 * in scene order, joints, a mesh's morph deltas, the morph weight slot by dynamic offset, the
 * views' record indices; deform.h), 2 material,
 * 3 the shading group: the pass view slot (dynamic offset) and the bindings the features add
 * (shading_group.c: the clusters', the shadows', the environment's, the ambient occlusion's).
 * Depth-only passes use the scene layout and read the slot of the view they render from.
 * Every pipeline is registered with the shader library, so a reload of its program rebuilds it in
 * place under the same handle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "renderer_internal.h"

bool renderer_create_layouts(kiln_renderer *r, kiln_error *err) {
    kiln_resources *res = r->res;
    WGPUShaderStage all = WGPUShaderStage_Vertex | WGPUShaderStage_Fragment | WGPUShaderStage_Compute;
    kiln_layout_entry frame[2] = {
        {.binding = 0, .visibility = all, .kind = KILN_BINDING_UNIFORM_BUFFER, .min_binding_size = KILN_VIEW_UNIFORM_SIZE},
        {.binding = 1, .visibility = all, .kind = KILN_BINDING_UNIFORM_BUFFER,
         .min_binding_size = KILN_LIGHTING_UNIFORM_SIZE},
    };
    /* The instance records in scene order, the joints, a mesh's morph deltas, its morph weight
     * slot, and the views' record indices in draw order (deform.h names the bindings). */
    kiln_layout_entry object[5] = {
        {.binding = 0, .visibility = WGPUShaderStage_Vertex, .kind = KILN_BINDING_READ_ONLY_STORAGE_BUFFER},
        {.binding = 1, .visibility = WGPUShaderStage_Vertex, .kind = KILN_BINDING_READ_ONLY_STORAGE_BUFFER},
        {.binding = 2, .visibility = WGPUShaderStage_Vertex, .kind = KILN_BINDING_READ_ONLY_STORAGE_BUFFER},
        {.binding = 3, .visibility = WGPUShaderStage_Vertex, .kind = KILN_BINDING_UNIFORM_BUFFER, .dynamic_offset = true,
         .min_binding_size = KILN_MORPH_WEIGHTS_SIZE},
        {.binding = 4, .visibility = WGPUShaderStage_Vertex, .kind = KILN_BINDING_READ_ONLY_STORAGE_BUFFER},
    };
    if (!(r->frame_layout = kiln_resources_create_bind_group_layout(res, "frame", frame, 2, err)).id) return false;
    if (!(r->object_layout = kiln_resources_create_bind_group_layout(res, "objects", object, 5, err)).id) return false;
    if (!(r->material_layout = kiln_material_layout_create(res, err)).id) return false;
    if (!renderer_shading_group_create(r, err)) return false;
    kiln_bind_group_layout scene[4] = {r->frame_layout, r->object_layout, r->material_layout, r->shading_layout};
    if (!(r->pipelines.layout = kiln_resources_create_pipeline_layout(res, "scene", scene, 4, err)).id) return false;
    r->pipelines.program = kiln_shader_library_load(r->library, "forward.wgsl", err);
    return r->pipelines.program.id != 0;
}

void renderer_destroy_layouts(kiln_renderer *r) {
    if (r->pipelines.layout.id) kiln_resources_destroy_pipeline_layout(r->res, r->pipelines.layout, NULL);
    kiln_bind_group_layout layouts[] = {r->frame_layout, r->object_layout, r->material_layout, r->shading_layout};
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
        if (layouts[i].id) kiln_resources_destroy_bind_group_layout(r->res, layouts[i], NULL);
}

pipeline_key renderer_material_key(const kiln_renderer *r, const kiln_gpu_material *m, render_pass_kind kind) {
    pipeline_key masked = m->alpha_mode == KILN_ALPHA_MASK ? PIPELINE_MASKED : 0;
    /* Shadow maps are single-sampled and draw both faces whatever the material says. */
    if (kind == RENDER_PASS_SHADOW) return PIPELINE_SHADOW | PIPELINE_DEPTH_ONLY | masked;
    /* The data outputs are single-sampled; fs_data applies a masked material's cutoff itself. */
    if (kind == RENDER_PASS_DATA) return PIPELINE_DATA | (m->double_sided ? PIPELINE_DOUBLE_SIDED : 0);
    pipeline_key key = (m->double_sided ? PIPELINE_DOUBLE_SIDED : 0) | (r->settings.msaa == 4 ? PIPELINE_MSAA4 : 0);
    if (kind == RENDER_PASS_DEPTH) return key | PIPELINE_DEPTH_ONLY | masked;
    /* Overdraw counts every fragment of every surface, so it draws both sides of everything. */
    if (r->settings.debug == KILN_DEBUG_OVERDRAW) return (key & PIPELINE_MSAA4) | PIPELINE_OVERDRAW | PIPELINE_DOUBLE_SIDED;
    return key | (m->alpha_mode == KILN_ALPHA_BLEND ? PIPELINE_BLEND : 0);
}

/* "forward blend double-sided", "depth prepass masked msaa 4", "shadow masked skinned": the names
 * Dawn's messages use. */
static void key_label(pipeline_key key, char *out, size_t size) {
    const char *kind = key & PIPELINE_DATA       ? "data outputs"
                       : key & PIPELINE_SHADOW   ? (key & PIPELINE_MASKED ? "shadow masked" : "shadow")
                       : key & PIPELINE_DEPTH_ONLY ? (key & PIPELINE_MASKED ? "depth prepass masked" : "depth prepass")
                       : key & PIPELINE_BLEND    ? "forward blend"
                       : key & PIPELINE_OVERDRAW ? "forward overdraw"
                                                 : "forward opaque";
    snprintf(out, size, "%s%s%s%s%s", kind, key & PIPELINE_DOUBLE_SIDED ? " double-sided" : "",
             key & PIPELINE_MSAA4 ? " msaa 4" : "", key & PIPELINE_MORPHED ? " morphed" : "",
             key & PIPELINE_SKINNED ? " skinned" : "");
}

/* The vertex entry point by the key's deformation bits: bit 0 skinned, bit 1 morphed. */
static const char *const VERTEX_ENTRIES[4] = {"vs_main", "vs_skinned", "vs_morphed", "vs_morphed_skinned"};

static kiln_render_pipeline_desc scene_desc(const kiln_renderer *r, pipeline_key key, const char *label) {
    uint32_t deform = (key & PIPELINE_SKINNED ? 1u : 0u) | (key & PIPELINE_MORPHED ? 2u : 0u);
    kiln_render_pipeline_desc d = {
        .label = label,
        .layout = r->pipelines.layout,
        .shader = r->pipelines.program,
        .vertex_entry = VERTEX_ENTRIES[deform],
        .fragment_entry = "fs_main",
        .vertex_buffer_count = 1,
        .target_count = 1,
        .targets = {{.format = RENDER_HDR_FORMAT}},
        .depth = kiln_depth_reverse_z(RENDER_DEPTH_FORMAT, false),
        .cull = key & PIPELINE_DOUBLE_SIDED ? WGPUCullMode_None : WGPUCullMode_Back,
        .sample_count = key & PIPELINE_MSAA4 ? 4 : 1,
    };
    d.vertex_buffers[0] = kiln_mesh_vertex_layout();
    if (key & PIPELINE_SKINNED) {
        d.vertex_buffer_count = 2;
        d.vertex_buffers[1] = kiln_mesh_skin_layout();
    }
    if (key & PIPELINE_BLEND) d.targets[0].blend = KILN_BLEND_ALPHA;
    if (key & PIPELINE_OVERDRAW) {
        d.targets[0].blend = KILN_BLEND_ADDITIVE;
        d.depth.compare = WGPUCompareFunction_Always;
    }
    if (key & PIPELINE_DEPTH_ONLY) {
        d.target_count = 0;
        d.depth = kiln_depth_reverse_z(RENDER_DEPTH_FORMAT, true);
        /* Opaque depth needs no fragment stage; masked geometry discards below the cutoff. */
        d.no_fragment = !(key & PIPELINE_MASKED);
        d.fragment_entry = key & PIPELINE_MASKED ? "fs_masked" : NULL;
    }
    if (key & PIPELINE_DATA) {
        /* Its own single-sample depth, written: the prepass's may be multisampled. */
        d.target_count = 2;
        d.targets[0] = (kiln_color_target){.format = WGPUTextureFormat_R32Float};
        d.targets[1] = (kiln_color_target){.format = WGPUTextureFormat_R32Uint};
        d.depth = kiln_depth_reverse_z(RENDER_DEPTH_FORMAT, true);
        d.fragment_entry = "fs_data";
    }
    if (key & PIPELINE_SHADOW) {
        /* Both faces, so thin and open geometry casts; reverse-Z makes the bias negative, pushing
         * each caster's depth away from the sun by a constant and by its slope, where acne starts. */
        d.cull = WGPUCullMode_None;
        d.depth = kiln_depth_reverse_z_biased(RENDER_DEPTH_FORMAT, RENDER_SHADOW_DEPTH_BIAS, RENDER_SHADOW_SLOPE_BIAS, 0.0f);
    }
    return d;
}

kiln_render_pipeline renderer_scene_pipeline(kiln_renderer *r, pipeline_key key, kiln_error *err) {
    for (uint32_t i = 0; i < r->pipelines.count; i++)
        if (r->pipelines.entries[i].key == key) return r->pipelines.entries[i].pipeline;
    pipeline_cache_entry *grown =
        kiln_array_reserve(r->pipelines.entries, &r->pipelines.capacity, r->pipelines.count + 1, sizeof *grown);
    if (!grown) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory caching a pipeline");
        return (kiln_render_pipeline){0};
    }
    r->pipelines.entries = grown;
    char label[64];
    key_label(key, label, sizeof label);
    kiln_render_pipeline_desc d = scene_desc(r, key, label);
    kiln_render_pipeline p = kiln_shader_library_create_watched_render_pipeline(r->library, &d, err);
    if (!p.id) return p;
    r->pipelines.entries[r->pipelines.count++] = (pipeline_cache_entry){.key = key, .pipeline = p};
    return p;
}

void renderer_destroy_pipelines(kiln_renderer *r) {
    for (uint32_t i = 0; i < r->pipelines.count; i++) {
        kiln_shader_library_destroy_watched_render_pipeline(r->library, r->pipelines.entries[i].pipeline);
    }
    free(r->pipelines.entries);
    r->pipelines.entries = NULL;
    r->pipelines.count = r->pipelines.capacity = 0;
}
