/* The renderer's bind group layouts, programs and pipelines.
 *
 * Bind groups (docs/guides/render.md): 0 frame uniform, 1 objects (instance records), 2 material,
 * 3 pass-specific: for scene passes the cluster buffers and the pass view slot (dynamic offset),
 * for tone mapping the HDR colour. Depth-only passes use the scene layout and read the slot of
 * the view they render from.
 * Every pipeline is registered with the shader library, so a reload of its program rebuilds it
 * in place under the same handle. */
#include <string.h>

#include "renderer_internal.h"

#define HDR_FORMAT WGPUTextureFormat_RGBA16Float
#define DEPTH_FORMAT WGPUTextureFormat_Depth32Float

bool renderer_create_layouts(kiln_renderer *r, kiln_error *err) {
    kiln_resources *res = r->res;
    WGPUShaderStage all = WGPUShaderStage_Vertex | WGPUShaderStage_Fragment | WGPUShaderStage_Compute;
    kiln_layout_entry frame = {.binding = 0, .visibility = all, .kind = KILN_BINDING_UNIFORM_BUFFER,
                               .min_binding_size = KILN_FRAME_UNIFORM_SIZE};
    kiln_layout_entry object = {.binding = 0, .visibility = WGPUShaderStage_Vertex,
                                .kind = KILN_BINDING_READ_ONLY_STORAGE_BUFFER};
    kiln_layout_entry cluster[5] = {
        {.binding = 0, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_UNIFORM_BUFFER,
         .min_binding_size = sizeof(kiln_cluster_uniform)},
        {.binding = 1, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_READ_ONLY_STORAGE_BUFFER},
        {.binding = 2, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_READ_ONLY_STORAGE_BUFFER},
        {.binding = 3, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_READ_ONLY_STORAGE_BUFFER},
        {.binding = 4, .visibility = WGPUShaderStage_Vertex, .kind = KILN_BINDING_UNIFORM_BUFFER, .dynamic_offset = true,
         .min_binding_size = KILN_PASS_VIEW_SIZE},
    };
    kiln_layout_entry post = {.binding = 0, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_TEXTURE_2D};

    if (!(r->frame_layout = kiln_gfx_create_bind_group_layout(res, "frame", &frame, 1, err)).id) return false;
    if (!(r->object_layout = kiln_gfx_create_bind_group_layout(res, "objects", &object, 1, err)).id) return false;
    if (!(r->material_layout = kiln_material_layout_create(res, err)).id) return false;
    if (!(r->cluster_layout = kiln_gfx_create_bind_group_layout(res, "pass", cluster, 5, err)).id) return false;
    if (!(r->post_layout = kiln_gfx_create_bind_group_layout(res, "post", &post, 1, err)).id) return false;
    if (!(r->empty_layout = kiln_gfx_create_bind_group_layout(res, "empty", NULL, 0, err)).id) return false;

    kiln_bind_group_layout scene[4] = {r->frame_layout, r->object_layout, r->material_layout, r->cluster_layout};
    kiln_bind_group_layout post_groups[4] = {r->frame_layout, r->empty_layout, r->empty_layout, r->post_layout};
    if (!(r->scene_layout = kiln_gfx_create_pipeline_layout(res, "scene", scene, 4, err)).id) return false;
    if (!(r->sky_layout = kiln_gfx_create_pipeline_layout(res, "sky", scene, 1, err)).id) return false;
    if (!(r->post_pipeline_layout = kiln_gfx_create_pipeline_layout(res, "post", post_groups, 4, err)).id) return false;
    return true;
}

bool renderer_load_programs(kiln_renderer *r, kiln_error *err) {
    return (r->forward_program = kiln_shader_library_load(r->library, "forward.wgsl", err)).id &&
           (r->sky_program = kiln_shader_library_load(r->library, "sky.wgsl", err)).id &&
           (r->post_program = kiln_shader_library_load(r->library, "post.wgsl", err)).id;
}

/* Builds one pipeline and hands it to the shader library for hot reload. */
static bool make_pipeline(kiln_renderer *r, kiln_render_pipeline *out, const kiln_render_pipeline_desc *desc,
                          kiln_error *err) {
    *out = kiln_gfx_create_render_pipeline(r->res, desc, err);
    return out->id && kiln_shader_library_watch_render_pipeline(r->library, desc->shader, *out, desc, err);
}

static kiln_render_pipeline_desc scene_desc(const kiln_renderer *r, const char *label) {
    kiln_render_pipeline_desc d = {
        .label = label,
        .layout = r->scene_layout,
        .shader = r->forward_program,
        .vertex_entry = "vs_main",
        .fragment_entry = "fs_main",
        .vertex_buffer_count = 1,
        .target_count = 1,
        .targets = {{.format = HDR_FORMAT}},
        .depth = kiln_depth_reverse_z(DEPTH_FORMAT, false),
        .sample_count = r->pipeline_samples,
    };
    d.vertex_buffers[0] = kiln_mesh_vertex_layout();
    return d;
}

bool renderer_ensure_pipelines(kiln_renderer *r, kiln_error *err) {
    /* MSAA belongs to the anti-aliasing issue: until then the scene renders at one sample. */
    uint32_t samples = 1;
    if (r->sky.id && r->pipeline_samples == samples) return true;
    renderer_destroy_pipelines(r);
    r->pipeline_samples = samples;

    static const char *const forward_labels[VARIANT_COUNT] = {"forward opaque", "forward opaque double-sided",
                                                              "forward blend", "forward blend double-sided",
                                                              "forward overdraw"};
    for (int v = 0; v < VARIANT_COUNT; v++) {
        kiln_render_pipeline_desc d = scene_desc(r, forward_labels[v]);
        bool double_sided = v == VARIANT_OPAQUE_DOUBLE || v == VARIANT_BLEND_DOUBLE || v == VARIANT_OVERDRAW;
        d.cull = double_sided ? WGPUCullMode_None : WGPUCullMode_Back;
        if (v == VARIANT_BLEND_CULL || v == VARIANT_BLEND_DOUBLE) d.targets[0].blend = KILN_BLEND_ALPHA;
        if (v == VARIANT_OVERDRAW) {
            d.targets[0].blend = KILN_BLEND_ADDITIVE;
            d.depth.compare = WGPUCompareFunction_Always;
        }
        if (!make_pipeline(r, &r->forward[v], &d, err)) return false;
    }
    static const char *const prepass_labels[PREPASS_COUNT] = {"depth prepass", "depth prepass double-sided",
                                                              "depth prepass masked", "depth prepass masked double-sided"};
    for (int v = 0; v < PREPASS_COUNT; v++) {
        kiln_render_pipeline_desc d = scene_desc(r, prepass_labels[v]);
        d.target_count = 0;
        d.depth = kiln_depth_reverse_z(DEPTH_FORMAT, true);
        d.cull = (v == PREPASS_OPAQUE_DOUBLE || v == PREPASS_MASKED_DOUBLE) ? WGPUCullMode_None : WGPUCullMode_Back;
        bool masked = v == PREPASS_MASKED_CULL || v == PREPASS_MASKED_DOUBLE;
        d.no_fragment = !masked;
        d.fragment_entry = masked ? "fs_masked" : NULL;
        if (!make_pipeline(r, &r->prepass[v], &d, err)) return false;
    }
    kiln_render_pipeline_desc sky = {
        .label = "sky", .layout = r->sky_layout, .shader = r->sky_program, .vertex_entry = "vs_fullscreen", .fragment_entry = "fs_sky",
        .target_count = 1, .targets = {{.format = HDR_FORMAT}}, .depth = kiln_depth_reverse_z(DEPTH_FORMAT, false),
        .sample_count = samples,
    };
    if (!make_pipeline(r, &r->sky, &sky, err)) return false;
    kiln_render_pipeline_desc tonemap = {
        .label = "tonemap", .layout = r->post_pipeline_layout, .shader = r->post_program, .vertex_entry = "vs_fullscreen",
        .fragment_entry = "fs_tonemap", .target_count = 1, .targets = {{.format = r->output_format}},
    };
    return make_pipeline(r, &r->tonemap, &tonemap, err);
}

static void destroy_pipeline(kiln_renderer *r, kiln_render_pipeline *p) {
    if (!p->id) return;
    kiln_shader_library_unwatch_render_pipeline(r->library, *p, NULL);
    kiln_gfx_destroy_render_pipeline(r->res, *p, NULL);
    *p = (kiln_render_pipeline){0};
}

void renderer_destroy_pipelines(kiln_renderer *r) {
    for (int v = 0; v < VARIANT_COUNT; v++) destroy_pipeline(r, &r->forward[v]);
    for (int v = 0; v < PREPASS_COUNT; v++) destroy_pipeline(r, &r->prepass[v]);
    destroy_pipeline(r, &r->sky);
    destroy_pipeline(r, &r->tonemap);
}

pipeline_variant renderer_forward_variant(const kiln_renderer *r, const kiln_gpu_material *m) {
    if (r->settings.debug == KILN_DEBUG_OVERDRAW) return VARIANT_OVERDRAW;
    if (m->alpha_mode == KILN_ALPHA_BLEND) return m->double_sided ? VARIANT_BLEND_DOUBLE : VARIANT_BLEND_CULL;
    return m->double_sided ? VARIANT_OPAQUE_DOUBLE : VARIANT_OPAQUE_CULL;
}

prepass_variant renderer_prepass_variant(const kiln_gpu_material *m) {
    if (m->alpha_mode == KILN_ALPHA_MASK) return m->double_sided ? PREPASS_MASKED_DOUBLE : PREPASS_MASKED_CULL;
    return m->double_sided ? PREPASS_OPAQUE_DOUBLE : PREPASS_OPAQUE_CULL;
}
