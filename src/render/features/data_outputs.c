/* The data outputs (kiln_render_target's linear_depth and object_ids): when the target has
 * either, one pass draws the camera's opaque batches again into both, with its own single-sample
 * depth (shaders/forward.wgsl, fs_data), into the target's "linear depth" and "object ids". A target with only one of them gets the other as a
 * transient nobody reads, so there is one pipeline per face mode rather than three.
 *
 * Its own pass and depth, not extra attachments of the prepass or the forward pass: those may be
 * multisampled, and an object id cannot be resolved (no average of two ids is either one); the
 * prepass draws nothing for fragments that shade, and a pipeline with two more targets would be
 * paid by every frame, not only by the frames that ask for data. Without data outputs nothing
 * of it is declared and no data pipeline is built. */
#include "features.h"

static void record_data(kiln_fg_context *ctx, void *user) {
    kiln_renderer *r = user;
    renderer_draw_view(r, ctx->render, r->frame.camera_view, RENDER_DRAW_DATA, false, r->depth_group,
                       &r->stats.data_draw_calls);
}

/* One of the two outputs: the target's, or a transient standing in for the one it lacks. */
static kiln_fg_resource data_output(kiln_renderer *r, render_frame *f, const char *target_name, const char *name,
                                    WGPUTextureFormat format) {
    kiln_fg_resource imported = render_blackboard_find(&f->board, target_name);
    if (imported.index) return imported;
    kiln_fg_texture_desc d = {.width = f->width, .height = f->height, .format = format,
                              .usage = WGPUTextureUsage_RenderAttachment};
    return kiln_frame_graph_create_transient(r->graph, name, &d);
}

static void declare_data(kiln_renderer *r, void *state, render_frame *f) {
    (void)state;
    if (!r->data_outputs) return;
    kiln_fg_texture_desc depth = {.width = f->width, .height = f->height, .format = RENDER_DEPTH_FORMAT,
                                  .usage = WGPUTextureUsage_RenderAttachment};
    kiln_fg_resource data_depth = kiln_frame_graph_create_transient(r->graph, "data depth", &depth);
    kiln_fg_resource linear_depth = data_output(r, f, "linear depth", "unused linear depth", WGPUTextureFormat_R32Float);
    kiln_fg_resource object_ids = data_output(r, f, "object ids", "unused object ids", WGPUTextureFormat_R32Uint);
    uint32_t pass = kiln_frame_graph_add_pass(r->graph, "data outputs", record_data, r);
    kiln_frame_graph_color(r->graph, pass, linear_depth, (WGPUColor){0, 0, 0, 0});
    kiln_frame_graph_color(r->graph, pass, object_ids, (WGPUColor){0, 0, 0, 0});
    kiln_frame_graph_depth(r->graph, pass, data_depth, 0.0f, false); /* reverse-Z: 0 is the far plane */
}

const render_feature render_feature_data_outputs = {.name = "data_outputs", .declare = declare_data};
