/* The frame's passes: declared on the frame graph every frame, compiled (ordering, culling,
 * transient aliasing), then recorded in the compiled order into one encoder.
 *
 *   depth prepass        writes depth
 *   cluster light cull   writes cluster lists (external: the cluster buffers)
 *   forward+ opaque      reads depth, cluster lists; writes hdr
 *   sky                  reads depth; writes hdr (where nothing was drawn)
 *   forward+ blend       reads depth, cluster lists; writes hdr
 *   tonemap              reads hdr; writes target (exported) */
#include <string.h>

#include "renderer_internal.h"

typedef struct frame_passes {
    uint32_t prepass, cluster_cull, opaque, sky, blend, tonemap;
    kiln_fg_resource depth, hdr, target, cluster_lists;
} frame_passes;

static void declare(kiln_renderer *r, WGPUTextureView target, uint32_t w, uint32_t h, frame_passes *p) {
    kiln_frame_graph *g = r->graph;
    kiln_frame_graph_reset(g);
    kiln_fg_texture_desc depth = {.width = w, .height = h, .format = WGPUTextureFormat_Depth32Float,
                                  .usage = WGPUTextureUsage_RenderAttachment, .sample_count = r->pipeline_samples};
    kiln_fg_texture_desc hdr = {.width = w, .height = h, .format = WGPUTextureFormat_RGBA16Float,
                                .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding,
                                .sample_count = r->pipeline_samples};
    kiln_fg_texture_desc out = {.width = w, .height = h, .format = r->output_format,
                                .usage = WGPUTextureUsage_RenderAttachment};
    p->depth = kiln_frame_graph_create_transient(g, "depth", &depth);
    p->hdr = kiln_frame_graph_create_transient(g, "hdr", &hdr);
    p->target = kiln_frame_graph_import_view(g, "target", target, NULL, &out);
    p->cluster_lists = kiln_frame_graph_create_external(g, "cluster lists");
    kiln_frame_graph_export(g, p->target);

    p->prepass = kiln_frame_graph_add_pass(g, "depth prepass");
    kiln_frame_graph_write(g, p->prepass, p->depth);
    p->cluster_cull = kiln_frame_graph_add_pass(g, "cluster light cull");
    kiln_frame_graph_write(g, p->cluster_cull, p->cluster_lists);
    p->opaque = kiln_frame_graph_add_pass(g, "forward+ opaque");
    kiln_frame_graph_read(g, p->opaque, p->depth);
    kiln_frame_graph_read(g, p->opaque, p->cluster_lists);
    kiln_frame_graph_write(g, p->opaque, p->hdr);
    p->sky = kiln_frame_graph_add_pass(g, "sky");
    kiln_frame_graph_read(g, p->sky, p->depth);
    kiln_frame_graph_write(g, p->sky, p->hdr);
    p->blend = kiln_frame_graph_add_pass(g, "forward+ blend");
    kiln_frame_graph_read(g, p->blend, p->depth);
    kiln_frame_graph_read(g, p->blend, p->cluster_lists);
    kiln_frame_graph_write(g, p->blend, p->hdr);
    p->tonemap = kiln_frame_graph_add_pass(g, "tonemap");
    kiln_frame_graph_read(g, p->tonemap, p->hdr);
    kiln_frame_graph_write(g, p->tonemap, p->target);
}

/* Draws a range of batches with the given pipeline choice. */
static bool draw_batches(kiln_renderer *r, kiln_render_pass *pass, uint32_t first, uint32_t end, bool prepass,
                         uint32_t *draws, kiln_error *err) {
    const renderer_batch *batches = r->batches.data;
    kiln_render_pipeline bound = {0};
    uint32_t bound_mesh = UINT32_MAX, bound_material = UINT32_MAX;
    for (uint32_t b = first; b < end; b++) {
        const renderer_batch *batch = &batches[b];
        const renderer_material *mat = &r->materials[batch->material];
        const kiln_gpu_mesh *mesh = &r->meshes[batch->mesh].gpu;
        kiln_render_pipeline p = prepass ? r->prepass[renderer_prepass_variant(&mat->gpu)]
                                         : r->forward[renderer_forward_variant(r, &mat->gpu)];
        if (p.id != bound.id) {
            if (!kiln_render_pass_set_pipeline(pass, p, err)) return false;
            bound = p;
        }
        if (batch->material != bound_material) {
            if (!kiln_render_pass_set_bind_group(pass, 2, mat->gpu.group, NULL, 0, err)) return false;
            bound_material = batch->material;
        }
        if (batch->mesh != bound_mesh) {
            if (!kiln_render_pass_set_vertex_buffer(pass, 0, mesh->vertices, 0, err) ||
                !kiln_render_pass_set_index_buffer(pass, mesh->indices, WGPUIndexFormat_Uint32, 0, err))
                return false;
            bound_mesh = batch->mesh;
        }
        const kiln_mesh_lod *lod = &mesh->lods[batch->lod < mesh->lod_count ? batch->lod : 0];
        kiln_render_pass_draw_indexed(pass, lod->index_count, batch->instance_count, lod->first_index, 0,
                                      batch->first_instance);
        (*draws)++;
    }
    return true;
}

/* Groups 0, 1 and 3; group 3's dynamic offset selects the pass view slot the pass renders from. */
static bool bind_scene_groups(kiln_renderer *r, kiln_render_pass *pass, uint32_t slot, kiln_error *err) {
    uint32_t offset = slot * KILN_PASS_SLOT_SIZE;
    return kiln_render_pass_set_bind_group(pass, 0, r->frame_group, NULL, 0, err) &&
           kiln_render_pass_set_bind_group(pass, 1, r->object_group, NULL, 0, err) &&
           kiln_render_pass_set_bind_group(pass, 3, r->cluster_group, &offset, 1, err);
}

/* The post bind group names the pooled hdr view: rebuilt only when the graph hands out a
 * different view (a resize), keyed by the view's handle (index and generation). */
static bool ensure_post_group(kiln_renderer *r, const frame_passes *p, kiln_error *err) {
    kiln_texture_view hdr = kiln_frame_graph_view_handle(r->graph, p->hdr, err);
    if (!hdr.id) return false;
    if (r->post_group.id && r->post_group_view.id == hdr.id) return true;
    if (r->post_group.id) kiln_gfx_destroy_bind_group(r->res, r->post_group, NULL);
    kiln_binding_resource entry = {.binding = 0, .view = hdr};
    r->post_group = kiln_gfx_create_bind_group(r->res, "post", r->post_layout, &entry, 1, err);
    r->post_group_view = hdr;
    return r->post_group.id != 0;
}

static bool record_pass(kiln_renderer *r, kiln_encoder *enc, const frame_passes *p, uint32_t pass_index,
                        kiln_error *err) {
    kiln_frame_graph *g = r->graph;
    kiln_render_pass pass;
    bool ok = true;
    if (pass_index == p->cluster_cull) {
        kiln_compute_pass cp;
        if (!kiln_encoder_begin_compute_pass(enc, "cluster light cull", &cp, err)) return false;
        ok = kiln_clusters_record(r->clusters, &cp, err);
        kiln_compute_pass_end(&cp);
        return ok;
    }
    if (pass_index == p->tonemap) {
        WGPUTextureView target = kiln_frame_graph_view_of(g, p->target, err);
        if (!target || !ensure_post_group(r, p, err)) return false;
        kiln_color_attachment c = kiln_color_cleared(target, 0, 0, 0, 1);
        if (!kiln_encoder_begin_render_pass(enc, "tonemap", &c, 1, NULL, &pass, err)) return false;
        ok = kiln_render_pass_set_pipeline(&pass, r->tonemap, err) &&
             kiln_render_pass_set_bind_group(&pass, 0, r->frame_group, NULL, 0, err) &&
             kiln_render_pass_set_bind_group(&pass, 3, r->post_group, NULL, 0, err);
        if (ok) kiln_render_pass_draw(&pass, 3, 1, 0, 0);
        kiln_render_pass_end(&pass);
        return ok;
    }
    WGPUTextureView depth = kiln_frame_graph_view_of(g, p->depth, err);
    if (!depth) return false;
    if (pass_index == p->prepass) {
        kiln_depth_attachment d = kiln_depth_cleared_reverse_z(depth);
        if (!kiln_encoder_begin_render_pass(enc, "depth prepass", NULL, 0, &d, &pass, err)) return false;
        ok = bind_scene_groups(r, &pass, r->camera_slot, err) &&
             draw_batches(r, &pass, 0, r->opaque_batch_count, true, &r->stats.prepass_draw_calls, err);
        kiln_render_pass_end(&pass);
        return ok;
    }
    WGPUTextureView hdr = kiln_frame_graph_view_of(g, p->hdr, err);
    if (!hdr) return false;
    /* The first writer of hdr clears it; the sky and blend passes load what opaque shading left. */
    kiln_color_attachment c = pass_index == p->opaque ? kiln_color_cleared(hdr, 0, 0, 0, 1) : kiln_color_loaded(hdr);
    kiln_depth_attachment d = kiln_depth_loaded(depth);
    d.read_only = true;
    const char *label = pass_index == p->opaque ? "forward+ opaque" : pass_index == p->sky ? "sky" : "forward+ blend";
    if (!kiln_encoder_begin_render_pass(enc, label, &c, 1, &d, &pass, err)) return false;
    if (pass_index == p->sky) {
        ok = kiln_render_pass_set_pipeline(&pass, r->sky, err) &&
             kiln_render_pass_set_bind_group(&pass, 0, r->frame_group, NULL, 0, err);
        if (ok) kiln_render_pass_draw(&pass, 3, 1, 0, 0);
    } else {
        uint32_t first = pass_index == p->opaque ? 0 : r->opaque_batch_count;
        uint32_t end = pass_index == p->opaque ? r->opaque_batch_count : r->batch_count;
        ok = bind_scene_groups(r, &pass, r->camera_slot, err) && draw_batches(r, &pass, first, end, false, &r->stats.draw_calls, err);
    }
    kiln_render_pass_end(&pass);
    return ok;
}

bool renderer_record_frame(kiln_renderer *r, WGPUTextureView target, uint32_t width, uint32_t height, kiln_encoder *enc,
                           kiln_error *err) {
    frame_passes p;
    declare(r, target, width, height, &p);
    renderer_alloc_mark(r, "graph declare");
    if (!kiln_frame_graph_compile(r->graph, err)) return false;
    renderer_alloc_mark(r, "graph compile");
    uint32_t count;
    const uint32_t *order = kiln_frame_graph_order(r->graph, &count);
    r->stats.passes = count;
    r->stats.transient_textures = kiln_frame_graph_physical_count(r->graph);
    for (uint32_t i = 0; i < count; i++)
        if (!record_pass(r, enc, &p, order[i], err)) return false;
    renderer_alloc_mark(r, "recording");
    return true;
}
