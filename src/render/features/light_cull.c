/* Clustered light culling: one compute pass assigns the frame's point and spot lights to the
 * froxels of the camera view (kiln_clusters; the cluster uniform is updated by frame.c). The
 * lists it writes are a buffer resource, so the forward passes run after it. */
#include "features.h"

static void record_light_cull(kiln_fg_context *ctx, void *user) {
    kiln_renderer *r = user;
    kiln_clusters_record(r->clusters, ctx->compute, NULL);
}

static void declare_light_cull(kiln_renderer *r, void *state, render_frame *f) {
    (void)state;
    f->cluster_lists = kiln_frame_graph_import_buffer(r->graph, "cluster lists", kiln_clusters_index_buffer(r->clusters));
    uint32_t pass = kiln_frame_graph_add_compute_pass(r->graph, "cluster light cull", record_light_cull, r);
    kiln_frame_graph_write(r->graph, pass, f->cluster_lists);
}

const render_feature render_feature_light_cull = {.name = "light_cull", .declare = declare_light_cull};
