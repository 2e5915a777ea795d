/* The GPU side of a mesh: the vertex layouts pipelines read the streams with, and the upload of
 * the packed streams (mesh_pack.c) as a kiln_gpu_mesh. */
#include <kiln/geometry/gpu_mesh.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

kiln_vertex_layout kiln_mesh_vertex_layout(void) {
    return (kiln_vertex_layout){
        .stride = KILN_VERTEX_STRIDE,
        .attribute_count = 6,
        .attributes = {
            {WGPUVertexFormat_Float32x3, KILN_VERTEX_OFFSET_POSITION, KILN_LOCATION_POSITION},
            {WGPUVertexFormat_Float32x3, KILN_VERTEX_OFFSET_NORMAL, KILN_LOCATION_NORMAL},
            {WGPUVertexFormat_Float32x4, KILN_VERTEX_OFFSET_TANGENT, KILN_LOCATION_TANGENT},
            {WGPUVertexFormat_Float32x2, KILN_VERTEX_OFFSET_UV0, KILN_LOCATION_UV0},
            {WGPUVertexFormat_Float32x2, KILN_VERTEX_OFFSET_UV1, KILN_LOCATION_UV1},
            {WGPUVertexFormat_Unorm16x4, KILN_VERTEX_OFFSET_COLOR, KILN_LOCATION_COLOR},
        },
    };
}

kiln_vertex_layout kiln_mesh_skin_layout(void) {
    return (kiln_vertex_layout){
        .stride = KILN_SKIN_STRIDE,
        .attribute_count = 2,
        .attributes = {
            {WGPUVertexFormat_Uint16x4, KILN_SKIN_OFFSET_JOINTS, KILN_LOCATION_JOINTS},
            {WGPUVertexFormat_Float32x4, KILN_SKIN_OFFSET_WEIGHTS, KILN_LOCATION_WEIGHTS},
        },
    };
}

typedef size_t (*pack_fn)(const kiln_mesh_data *md, void *out, size_t out_size);

/* Creates one buffer of `size` bytes labelled "<mesh> <what>" and fills it, from `pack` or, when
 * pack is NULL, straight from `data`. On failure nothing stays alive. */
static kiln_buffer make_buffer(kiln_resources *res, const char *mesh, const char *what, WGPUBufferUsage usage,
                               size_t size, const kiln_mesh_data *md, pack_fn pack, const void *data, kiln_error *err) {
    char label[160];
    snprintf(label, sizeof label, "%s %s", mesh, what);
    void *staging = pack ? malloc(size) : NULL;
    kiln_buffer b = {0};
    if (pack && !staging) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory packing %zu bytes", size);
    } else {
        if (pack) {
            pack(md, staging, size); /* cannot come up short: the mesh validated and size is exact */
            data = staging;
        }
        kiln_buffer_desc desc = {.label = label, .size = size,
                                 .usage = usage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc};
        b = kiln_resources_create_buffer(res, &desc, err);
        if (b.id && !kiln_resources_write_buffer(res, b, 0, data, size, err)) {
            kiln_resources_destroy_buffer(res, b, NULL);
            b = (kiln_buffer){0};
        }
    }
    free(staging);
    if (!b.id && err) {
        /* gfx names the buffer pool or the size; say which mesh and stream it was for. */
        char cause[sizeof err->message];
        snprintf(cause, sizeof cause, "%s", err->message);
        kiln_error_set(err, err->code, "mesh '%s' %s: %s", mesh, what, cause);
    }
    return b;
}

/* Each level must be a whole number of triangles inside the index array. */
static bool lods_ok(const kiln_mesh_data *md, const kiln_mesh_lod *lods, uint32_t lod_count, const char *name,
                    kiln_error *err) {
    if (!lods || lod_count == 0 || lod_count > KILN_MESH_MAX_LODS)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "mesh '%s': %u levels of detail, must be 1 to %d", name,
                              lods ? lod_count : 0, KILN_MESH_MAX_LODS);
    for (uint32_t k = 0; k < lod_count; k++) {
        const kiln_mesh_lod *l = &lods[k];
        if (l->index_count == 0 || l->index_count % 3 != 0)
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                  "mesh '%s': level %u has %u indices, not a positive multiple of 3", name, k,
                                  l->index_count);
        if ((uint64_t)l->first_index + l->index_count > md->index_count)
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                  "mesh '%s': level %u spans indices %u..%llu, past the %u indices", name, k,
                                  l->first_index, (unsigned long long)l->first_index + l->index_count, md->index_count);
    }
    return true;
}

bool kiln_gpu_mesh_upload(kiln_resources *res, const kiln_mesh_data *md, const char *label, kiln_gpu_mesh *out,
                          kiln_error *err) {
    kiln_mesh_lod whole = {.first_index = 0, .index_count = md ? md->index_count : 0};
    return kiln_gpu_mesh_upload_lods(res, md, &whole, 1, label, out, err);
}

bool kiln_gpu_mesh_upload_lods(kiln_resources *res, const kiln_mesh_data *md, const kiln_mesh_lod *lods,
                               uint32_t lod_count, const char *label, kiln_gpu_mesh *out, kiln_error *err) {
    if (!out) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "mesh upload needs an output kiln_gpu_mesh");
    memset(out, 0, sizeof *out);
    const char *name = label && *label ? label : "mesh";
    if (!res) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "mesh '%s': no resources to upload into", name);
    if (!kiln_mesh_data_validate(md, err) || !lods_ok(md, lods, lod_count, name, err)) return false;

    kiln_gpu_mesh m = {
        .vertex_count = md->vertex_count,
        .index_count = lods[0].index_count,
        .morph_target_count = md->morph_target_count,
        .skinned = kiln_mesh_data_has_skin(md),
        .bounds = kiln_mesh_data_bounds(md),
        .lod_count = lod_count,
    };
    memcpy(m.lods, lods, lod_count * sizeof *lods);
    size_t n = md->vertex_count;
    /* The vertex, skin and index buffers are Storage as well, so a pass can pull vertices by index
     * (the renderer's wireframe reads the corner of each triangle, skinned, that way); the usage
     * costs no memory. */
    m.vertices = make_buffer(res, name, "vertices", WGPUBufferUsage_Vertex | WGPUBufferUsage_Storage,
                             n * KILN_VERTEX_STRIDE, md, kiln_mesh_pack_vertices, NULL, err);
    bool ok = m.vertices.id != 0;
    if (ok && m.skinned) {
        m.skin = make_buffer(res, name, "skin", WGPUBufferUsage_Vertex | WGPUBufferUsage_Storage, n * KILN_SKIN_STRIDE, md, kiln_mesh_pack_skin,
                             NULL, err);
        ok = m.skin.id != 0;
    }
    if (ok) {
        m.indices = make_buffer(res, name, "indices", WGPUBufferUsage_Index | WGPUBufferUsage_Storage,
                                (size_t)md->index_count * sizeof(uint32_t), md, NULL, md->indices, err);
        ok = m.indices.id != 0;
    }
    if (ok && md->morph_target_count) {
        m.morph_deltas = make_buffer(res, name, "morph deltas", WGPUBufferUsage_Storage,
                                     n * md->morph_target_count * KILN_MORPH_DELTA_STRIDE, md,
                                     kiln_mesh_pack_morph_deltas, NULL, err);
        ok = m.morph_deltas.id != 0;
    }
    if (!ok) {
        kiln_gpu_mesh_destroy(&m, res);
        return false;
    }
    *out = m;
    return true;
}

void kiln_gpu_mesh_destroy(kiln_gpu_mesh *mesh, kiln_resources *res) {
    if (!mesh) return;
    if (res) {
        kiln_buffer buffers[] = {mesh->vertices, mesh->skin, mesh->indices, mesh->morph_deltas};
        for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; i++)
            if (buffers[i].id) kiln_resources_destroy_buffer(res, buffers[i], NULL);
    }
    memset(mesh, 0, sizeof *mesh);
}
