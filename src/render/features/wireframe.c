/* Wireframe (settings.wireframe, off by default): after the forward passes, one pass draws the
 * edges of every triangle the camera draws, opaque and blended, as dark lines about a pixel wide
 * over the shaded image (shaders/wireframe.wgsl), so the lit image stays readable under its
 * triangles. It works on every adapter: Dawn has no line polygon mode, so the lines come from
 * barycentric coordinates, which the vertex stage makes by pulling its vertices.
 *
 * Vertex pulling rather than a de-indexed copy of each mesh: the pass binds the mesh's own vertex
 * and index buffers as storage (the geometry layer gives them Storage usage) and draws the
 * batch's index range non-indexed, so it costs no memory, no upload and no change to the meshes,
 * and keeps the camera's batches as they are: one draw per batch with first_instance. A
 * barycentric stream would need three vertices per triangle index for every mesh, kept beside
 * the indexed one or replacing it for every pass.
 *
 * The pass tests against the prepass depth without writing, with a tiny bias towards the camera,
 * so only visible edges show and an edge never fights the surface it lies on; it culls back faces
 * as the material does. Skinned and morphed instances deform exactly as the forward passes deform
 * them (shaders/deform.wgsl, the record's flags choosing). Its pipelines (by cull mode and sample
 * count) and its per-mesh bind groups
 * are built the first frame that needs them, so with wireframe off nothing of it exists, and a
 * steady frame with it on creates and allocates nothing. Declared last of the passes drawing
 * `hdr`, it is the one that resolves a multisampled hdr into `hdr resolved`. */
#include <stdlib.h>

#include <kiln/geometry/mesh_data.h>

#include "features.h"

/* A vertex of the mesh stream (kiln/geometry/mesh_data.h) as the pass pulls it from storage. */
static const block_member MESH_VERTEX_MEMBERS[] = {
    {"position", KILN_VERTEX_OFFSET_POSITION, 12}, {"normal", KILN_VERTEX_OFFSET_NORMAL, 12},
    {"tangent", KILN_VERTEX_OFFSET_TANGENT, 16},   {"uv0", KILN_VERTEX_OFFSET_UV0, 8},
    {"uv1", KILN_VERTEX_OFFSET_UV1, 8}, {"color", KILN_VERTEX_OFFSET_COLOR, 8},
};
/* A vertex of the skin stream: four u16 joints in two words, then the weights. */
static const block_member SKIN_VERTEX_MEMBERS[] = {
    {"joints", KILN_SKIN_OFFSET_JOINTS, 8}, {"weights", KILN_SKIN_OFFSET_WEIGHTS, 16},
};
static const block_layout MESH_VERTEX_BLOCK = {"MeshVertex", KILN_VERTEX_STRIDE, MESH_VERTEX_MEMBERS,
                                               KILN_ARRAY_COUNT(MESH_VERTEX_MEMBERS), "src/render/features/wireframe.c"};
static const block_layout SKIN_VERTEX_BLOCK = {"SkinVertex", KILN_SKIN_STRIDE, SKIN_VERTEX_MEMBERS,
                                               KILN_ARRAY_COUNT(SKIN_VERTEX_MEMBERS), "src/render/features/wireframe.c"};
static const render_block_use BLOCKS[] = {
    {"wireframe.wgsl", &kiln_instance_block},     {"wireframe.wgsl", &kiln_pass_view_block},
    {"wireframe.wgsl", &MESH_VERTEX_BLOCK},       {"wireframe.wgsl", &SKIN_VERTEX_BLOCK},
    {"wireframe.wgsl", &kiln_morph_weights_block},
};

/* Pipelines by variant: bit 0 double-sided (no culling), bit 1 four samples. */
enum { WIRE_DOUBLE_SIDED = 1, WIRE_MSAA4 = 2, WIRE_VARIANTS = 4 };

/* The depth bias towards the camera (reverse-Z: positive is nearer), in depth units: a few ulps of
 * the triangle's depth, so rounding between two programs cannot hide an edge, and far too little to
 * show one through a surface in front. Constant only: a slope-scaled bias grows with the depth
 * step per pixel, which on a triangle seen edge-on (a sphere's rim, distant ground) exceeds the
 * gap to what covers it, and such edges showed through the boxes in front of them. */
#define WIRE_DEPTH_BIAS 8

/* A mesh's storage group, tagged by the buffers it names: a mesh uploaded again (replaced, or a
 * removed index reused) has new buffers, so its group is made again. */
typedef struct wire_mesh_group {
    kiln_buffer vertices, indices, skin;
    kiln_bind_group group;
} wire_mesh_group;

typedef struct wireframe_state {
    kiln_renderer *r;
    kiln_shader program;               /* loaded the first frame with wireframe on */
    kiln_bind_group_layout mesh_layout;
    kiln_pipeline_layout layout;       /* the scene groups 0, 1 and 3, the mesh at 2 */
    kiln_render_pipeline pipelines[WIRE_VARIANTS];
    wire_mesh_group *meshes;           /* by renderer mesh index; grows with the mesh count */
    uint32_t mesh_capacity;
} wireframe_state;

static void destroy_wireframe(kiln_renderer *r, void *state) {
    wireframe_state *s = state;
    for (uint32_t i = 0; i < s->mesh_capacity; i++)
        if (s->meshes[i].group.id) kiln_resources_destroy_bind_group(r->res, s->meshes[i].group, NULL);
    free(s->meshes);
    for (int i = 0; i < WIRE_VARIANTS; i++) kiln_shader_library_destroy_watched_render_pipeline(r->library, s->pipelines[i]);
    if (s->layout.id) kiln_resources_destroy_pipeline_layout(r->res, s->layout, NULL);
    if (s->mesh_layout.id) kiln_resources_destroy_bind_group_layout(r->res, s->mesh_layout, NULL);
}

/* The program and the layouts, the first time the pass records. */
static bool wireframe_begin(wireframe_state *s, kiln_error *err) {
    if (s->layout.id) return true;
    kiln_renderer *r = s->r;
    if (!s->program.id && !(s->program = kiln_shader_library_load(r->library, "wireframe.wgsl", err)).id) return false;
    kiln_layout_entry mesh[3] = {
        {.binding = 0, .visibility = WGPUShaderStage_Vertex, .kind = KILN_BINDING_READ_ONLY_STORAGE_BUFFER},
        {.binding = 1, .visibility = WGPUShaderStage_Vertex, .kind = KILN_BINDING_READ_ONLY_STORAGE_BUFFER},
        {.binding = 2, .visibility = WGPUShaderStage_Vertex, .kind = KILN_BINDING_READ_ONLY_STORAGE_BUFFER},
    };
    if (!s->mesh_layout.id &&
        !(s->mesh_layout = kiln_resources_create_bind_group_layout(r->res, "wireframe mesh", mesh, 3, err)).id)
        return false;
    kiln_bind_group_layout groups[4] = {r->frame_layout, r->object_layout, s->mesh_layout, r->shading_layout};
    return (s->layout = kiln_resources_create_pipeline_layout(r->res, "wireframe", groups, 4, err)).id != 0;
}

/* The pipeline of a variant, built and watched for hot reload the first time it is asked for. */
static kiln_render_pipeline wire_pipeline(wireframe_state *s, uint32_t variant, kiln_error *err) {
    kiln_render_pipeline *p = &s->pipelines[variant];
    if (p->id) return *p;
    static const char *const labels[WIRE_VARIANTS] = {"wireframe", "wireframe double-sided", "wireframe msaa 4",
                                                      "wireframe double-sided msaa 4"};
    kiln_render_pipeline_desc d = {
        .label = labels[variant], .layout = s->layout, .shader = s->program,
        .vertex_entry = "vs_wire", .fragment_entry = "fs_wire",
        .target_count = 1, .targets = {{.format = RENDER_HDR_FORMAT, .blend = KILN_BLEND_ALPHA}},
        .depth = kiln_depth_reverse_z(RENDER_DEPTH_FORMAT, false),
        .cull = variant & WIRE_DOUBLE_SIDED ? WGPUCullMode_None : WGPUCullMode_Back,
        .sample_count = variant & WIRE_MSAA4 ? 4 : 1,
    };
    d.depth.bias = WIRE_DEPTH_BIAS;
    return *p = kiln_shader_library_create_watched_render_pipeline(s->r->library, &d, err);
}

/* The storage group of renderer mesh `index`, made when the mesh's buffers are new to it. */
static kiln_bind_group mesh_group(wireframe_state *s, uint32_t index, const kiln_gpu_mesh *mesh, kiln_error *err) {
    kiln_renderer *r = s->r;
    if (index >= s->mesh_capacity) {
        uint32_t capacity = s->mesh_capacity;
        wire_mesh_group *grown = kiln_array_reserve(s->meshes, &capacity, index + 1, sizeof *grown);
        if (!grown) {
            kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory for the wireframe of mesh %u", index);
            return (kiln_bind_group){0};
        }
        for (uint32_t i = s->mesh_capacity; i < capacity; i++) grown[i] = (wire_mesh_group){0};
        s->meshes = grown;
        s->mesh_capacity = capacity;
    }
    wire_mesh_group *g = &s->meshes[index];
    /* A mesh without a skin binds its vertex buffer in the skin's place: the shader reads the
     * skin only for skinned instances. */
    kiln_buffer skin = mesh->skinned ? mesh->skin : mesh->vertices;
    if (g->group.id && g->vertices.id == mesh->vertices.id && g->indices.id == mesh->indices.id && g->skin.id == skin.id)
        return g->group;
    /* A storage binding is limited in size where a vertex buffer is not: say so rather than let
     * Dawn refuse the group. */
    uint64_t limit = r->gfx->limits.maxStorageBufferBindingSize;
    static const char *const names[3] = {"vertex", "index", "skin"};
    const kiln_buffer buffers[3] = {mesh->vertices, mesh->indices, skin};
    for (int i = 0; i < 3; i++) {
        uint64_t size = kiln_resources_buffer_size(r->res, buffers[i]);
        if (limit && size > limit) {
            kiln_error_set(err, KILN_ERR_CAPACITY,
                           "mesh %u: its %llu-byte %s buffer exceeds the device's storage binding size of %llu bytes, "
                           "which the wireframe reads it through",
                           index, (unsigned long long)size, names[i], (unsigned long long)limit);
            return (kiln_bind_group){0};
        }
    }
    kiln_binding_resource entries[3] = {{.binding = 0, .buffer = mesh->vertices}, {.binding = 1, .buffer = mesh->indices},
                                        {.binding = 2, .buffer = skin}};
    kiln_bind_group made = kiln_resources_create_bind_group(r->res, "wireframe mesh", s->mesh_layout, entries, 3, err);
    if (!made.id) return made;
    if (g->group.id) kiln_resources_destroy_bind_group(r->res, g->group, NULL);
    *g = (wire_mesh_group){.vertices = mesh->vertices, .indices = mesh->indices, .skin = skin, .group = made};
    return made;
}

/* Every batch of the camera view, opaque then blended, one non-indexed draw each over the
 * batch's index range. Errors stick to the pass. */
static void record_wireframe(kiln_fg_context *ctx, void *user) {
    wireframe_state *s = user;
    kiln_renderer *r = s->r;
    kiln_render_pass *pass = ctx->render;
    const render_view *v = r->frame.camera_view;
    if (!v->batch_count || !wireframe_begin(s, &ctx->error)) return;
    uint32_t offset = v->slot * KILN_PASS_SLOT_SIZE;
    kiln_render_pass_set_bind_group(pass, 0, r->frame_group, NULL, 0, NULL);
    kiln_render_pass_set_bind_group(pass, 3, r->depth_group, &offset, 1, NULL);
    const render_batch *batches = (const render_batch *)r->views.batches.data + v->first_batch;
    uint32_t msaa = r->settings.msaa == 4 ? WIRE_MSAA4 : 0;
    kiln_render_pipeline bound = {0};
    uint32_t bound_mesh = UINT32_MAX;
    object_binding objects = {0};
    for (uint32_t b = 0; b < v->batch_count && !pass->failed; b++) {
        const render_batch *batch = &batches[b];
        const kiln_gpu_mesh *mesh = kiln_geometry_registry_gpu_mesh(r->geometry, batch->mesh + 1, &ctx->error);
        if (!mesh) return;
        /* Skinned and morphed instances deform as in the forward passes: the same joints and
         * weight slot at group 1, the skin stream pulled from group 2. */
        if (!renderer_deform_bind_objects(r, pass, batch, mesh, &objects)) return;
        uint32_t variant = msaa | (r->materials[batch->material].gpu.double_sided ? WIRE_DOUBLE_SIDED : 0);
        kiln_render_pipeline p = wire_pipeline(s, variant, &ctx->error);
        if (!p.id) return;
        if (p.id != bound.id) {
            kiln_render_pass_set_pipeline(pass, p, NULL);
            bound = p;
        }
        if (batch->mesh != bound_mesh) {
            kiln_bind_group group = mesh_group(s, batch->mesh, mesh, &ctx->error);
            if (!group.id) return;
            kiln_render_pass_set_bind_group(pass, 2, group, NULL, 0, NULL);
            bound_mesh = batch->mesh;
        }
        const kiln_mesh_lod *lod = &mesh->lods[batch->lod < mesh->lod_count ? batch->lod : 0];
        kiln_render_pass_draw(pass, lod->index_count, batch->instance_count, lod->first_index, batch->first_instance);
        r->stats.wireframe_draw_calls++;
    }
}

static void declare_wireframe(kiln_renderer *r, void *state, render_frame *f) {
    if (!r->settings.wireframe) return;
    wireframe_state *s = state;
    s->r = r;
    uint32_t pass = kiln_frame_graph_add_pass(r->graph, "wireframe", record_wireframe, s);
    kiln_frame_graph_color(r->graph, pass, render_blackboard_need(&f->board, "hdr"), renderer_hdr_clear(r));
    kiln_frame_graph_depth(r->graph, pass, render_blackboard_need(&f->board, "depth"), 0.0f, true);
}

const render_feature render_feature_wireframe = {
    .name = "wireframe", .state_size = sizeof(wireframe_state), .blocks = BLOCKS, .block_count = KILN_ARRAY_COUNT(BLOCKS),
    .scene_program = "wireframe.wgsl", .destroy = destroy_wireframe, .declare = declare_wireframe,
};
