/* kiln/geometry/gpu_mesh: a kiln_mesh_data uploaded to the GPU (kiln_gpu_mesh), and the vertex
 * layouts pipelines read its streams with. The streams themselves are described in
 * kiln/geometry/mesh_data.h.
 *
 * Ownership: a kiln_gpu_mesh holds buffer handles in a kiln_resources; kiln_gpu_mesh_destroy
 * releases them, and the kiln_resources must outlive the mesh. */
#ifndef KILN_GEOMETRY_GPU_MESH_H
#define KILN_GEOMETRY_GPU_MESH_H

#include <kiln/geometry/mesh_data.h>
#include <kiln/gfx.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Vertex layouts for pipelines: slot 0 (locations 0..4) and slot 1 (locations 5..6). */
kiln_vertex_layout kiln_mesh_vertex_layout(void);
kiln_vertex_layout kiln_mesh_skin_layout(void);

/* A mesh on the GPU. Buffers carry CopyDst and CopySrc besides their use, so they can be
 * updated and read back; vertices, skin and indices are Storage too, so a shader can pull a vertex by
 * its index (a vertex stream is KILN_VERTEX_STRIDE / 4 words, the position first). */
typedef struct kiln_gpu_mesh {
    kiln_buffer vertices;      /* Vertex and Storage: vertex_count * KILN_VERTEX_STRIDE */
    kiln_buffer skin;          /* Vertex and Storage: vertex_count * KILN_SKIN_STRIDE; id 0 when not skinned */
    kiln_buffer indices;       /* Index and Storage, u32 */
    kiln_buffer morph_deltas;  /* Storage; id 0 without morph targets */
    uint32_t vertex_count;     /* vertices in the vertex (and skin) buffer */
    uint32_t index_count;      /* the full-detail count, lods[0].index_count (the buffer holds
                                * every level) */
    uint32_t morph_target_count; /* targets in morph_deltas; 0 without */
    bool skinned;              /* the mesh has a skin buffer */
    kiln_mesh_bounds bounds;   /* of the uploaded kiln_mesh_data */
    uint32_t lod_count;        /* levels in lods: 1 from kiln_gpu_mesh_upload (the whole index
                                * range), those given to kiln_gpu_mesh_upload_lods */
    kiln_mesh_lod lods[KILN_MESH_MAX_LODS]; /* index ranges, full detail first */
} kiln_gpu_mesh;

/* Validates `md`, then creates and fills the buffers (labelled "<label> vertices", "... skin",
 * "... indices", "... morph deltas"; label NULL means "mesh"). On failure nothing stays alive
 * and *out is zeroed. */
bool kiln_gpu_mesh_upload(kiln_resources *res, const kiln_mesh_data *md, const char *label, kiln_gpu_mesh *out,
                          kiln_error *err);
/* The same with levels of detail: `lods` (1..KILN_MESH_MAX_LODS ranges, full detail first, as
 * kiln_mesh_data_build_lods makes them) name ranges of md's index array, which is uploaded whole
 * into the one index buffer. Fails naming the level whose range is not a positive multiple of 3
 * indices inside the array. */
bool kiln_gpu_mesh_upload_lods(kiln_resources *res, const kiln_mesh_data *md, const kiln_mesh_lod *lods,
                               uint32_t lod_count, const char *label, kiln_gpu_mesh *out, kiln_error *err);
/* Destroys the mesh's buffers and zeroes it; safe on a zeroed mesh. */
void kiln_gpu_mesh_destroy(kiln_gpu_mesh *mesh, kiln_resources *res);

#ifdef __cplusplus
}
#endif

#endif
