/* Levels of detail for a kiln_mesh_data, with meshoptimizer: the full-detail triangles ordered
 * for the post-transform vertex cache, the vertices for fetch locality, then each coarser level
 * simplified from full detail, all of them back to back in one index array.
 *
 * Every coarser level is simplified from level 0 rather than from the level before it, so the
 * error meshoptimizer reports for it is measured against full detail: the bound holds for the
 * level as drawn, not for one step of a chain whose errors add up. */
#include <kiln/geometry/mesh_data.h>

#include <meshoptimizer.h>
#include <stdlib.h>
#include <string.h>

/* A coarser level must drop at least a quarter of the triangles of the level before it to be
 * worth a range of its own; short of that the simplifier has stalled (the error bound or locked
 * borders stop it) and further levels would stall the same way. */
#define LOD_STALL_NUMERATOR 3u
#define LOD_STALL_DENOMINATOR 4u

/* The per-vertex arrays of a mesh that a vertex reorder must move together: each slot points at
 * one array of the mesh (NULL when absent) with its element size. */
typedef struct vertex_streams {
    void **arrays[7 + 2 * KILN_MAX_MORPH_TARGETS];
    size_t sizes[7 + 2 * KILN_MAX_MORPH_TARGETS];
    uint32_t count;
} vertex_streams;

static void add_stream(vertex_streams *s, void **array, size_t size) {
    s->arrays[s->count] = array;
    s->sizes[s->count++] = size;
}

static vertex_streams streams_of(kiln_mesh_data *md) {
    vertex_streams s = {.count = 0};
    add_stream(&s, (void **)&md->positions, sizeof *md->positions);
    add_stream(&s, (void **)&md->normals, sizeof *md->normals);
    add_stream(&s, (void **)&md->tangents, sizeof *md->tangents);
    add_stream(&s, (void **)&md->uv0, sizeof *md->uv0);
    add_stream(&s, (void **)&md->uv1, sizeof *md->uv1);
    add_stream(&s, (void **)&md->colors, sizeof *md->colors);
    add_stream(&s, (void **)&md->joints, sizeof *md->joints);
    add_stream(&s, (void **)&md->weights, sizeof *md->weights);
    for (uint32_t t = 0; t < md->morph_target_count; t++) {
        add_stream(&s, (void **)&md->morph_targets[t].position_deltas, sizeof(kiln_vec3));
        add_stream(&s, (void **)&md->morph_targets[t].normal_deltas, sizeof(kiln_vec3));
        add_stream(&s, (void **)&md->morph_targets[t].tangent_deltas, sizeof(kiln_vec3));
    }
    return s;
}

/* What the build makes before it touches the mesh: the reordered streams and the index array of
 * every level. Freed whole on failure, handed to the mesh on success. */
typedef struct lod_build {
    void *streams[7 + 2 * KILN_MAX_MORPH_TARGETS]; /* parallel to vertex_streams, NULL where absent */
    uint32_t *indices;           /* every level back to back */
    uint32_t index_count;
    uint32_t vertex_count;       /* vertices some triangle uses */
} lod_build;

static void lod_build_free(lod_build *b, uint32_t stream_count) {
    for (uint32_t i = 0; i < stream_count; i++) free(b->streams[i]);
    free(b->indices);
}

/* Reorders every stream by `remap` (old vertex -> new vertex, ~0 for a vertex nothing uses) into
 * new arrays of b->vertex_count entries. False when memory runs out. */
static bool remap_streams(const vertex_streams *s, uint32_t old_count, const uint32_t *remap, lod_build *b) {
    for (uint32_t i = 0; i < s->count; i++) {
        const void *src = *s->arrays[i];
        if (!src) continue;
        if (!(b->streams[i] = malloc((size_t)b->vertex_count * s->sizes[i]))) return false;
        meshopt_remapVertexBuffer(b->streams[i], src, old_count, s->sizes[i], remap);
    }
    return true;
}

/* Appends the coarser levels to b->indices (which holds level 0 and has room for
 * KILN_MESH_MAX_LODS levels of level 0's size), using `scratch` (level 0's size) for each
 * simplification. Returns the level count. */
static uint32_t simplify_levels(lod_build *b, const float *positions, uint32_t *scratch,
                                kiln_mesh_lod lods[KILN_MESH_MAX_LODS]) {
    const uint32_t *level0 = b->indices;
    uint32_t full = lods[0].index_count, count = 1;
    while (count < KILN_MESH_MAX_LODS) {
        uint32_t previous = lods[count - 1].index_count;
        size_t target = (size_t)(previous / 3 / 2) * 3;
        float error = 0.0f;
        size_t kept = target ? meshopt_simplify(scratch, level0, full, positions, b->vertex_count, sizeof(kiln_vec3),
                                                target, KILN_MESH_LOD_MAX_ERROR, meshopt_SimplifyLockBorder, &error)
                             : 0;
        if (kept == 0 || kept * LOD_STALL_DENOMINATOR > (size_t)previous * LOD_STALL_NUMERATOR) break;
        uint32_t first = b->index_count;
        meshopt_optimizeVertexCache(b->indices + first, scratch, kept, b->vertex_count);
        lods[count++] = (kiln_mesh_lod){.first_index = first, .index_count = (uint32_t)kept, .error = error};
        b->index_count += (uint32_t)kept;
    }
    return count;
}

uint32_t kiln_mesh_data_build_lods(kiln_mesh_data *md, kiln_mesh_lod lods[KILN_MESH_MAX_LODS], kiln_error *err) {
    if (!lods) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "mesh: build_lods needs room for the levels");
        return 0;
    }
    memset(lods, 0, KILN_MESH_MAX_LODS * sizeof *lods);
    if (!kiln_mesh_data_validate(md, err)) return 0;
    uint32_t n = md->vertex_count, full = md->index_count;
    lods[0] = (kiln_mesh_lod){.first_index = 0, .index_count = full, .error = 0.0f};
    if (full / 3 <= KILN_MESH_LOD_MIN_TRIANGLES) return 1;

    vertex_streams s = streams_of(md);
    lod_build b = {.index_count = full};
    uint32_t *remap = malloc((size_t)n * sizeof *remap);
    uint32_t *scratch = malloc((size_t)full * sizeof *scratch);
    /* Each coarser level is at most as long as level 0, so four of its size always suffice. */
    b.indices = malloc((size_t)full * KILN_MESH_MAX_LODS * sizeof *b.indices);
    bool ok = remap && scratch && b.indices;
    if (ok) {
        /* Cache order first: the fetch remap then numbers vertices in the order the cache-ordered
         * triangles first use them. */
        meshopt_optimizeVertexCache(scratch, md->indices, full, n);
        b.vertex_count = (uint32_t)meshopt_optimizeVertexFetchRemap(remap, scratch, full, n);
        meshopt_remapIndexBuffer(b.indices, scratch, full, remap);
        ok = remap_streams(&s, n, remap, &b);
    }
    uint32_t count = 0;
    if (ok) {
        const float *positions = (const float *)b.streams[0];
        count = simplify_levels(&b, positions, scratch, lods);
        /* Give back what the levels did not use; a failed shrink keeps the larger block. */
        uint32_t *fitted = realloc(b.indices, (size_t)b.index_count * sizeof *b.indices);
        if (fitted) b.indices = fitted;
    }
    free(remap);
    free(scratch);
    if (!ok) {
        lod_build_free(&b, s.count);
        memset(lods, 0, KILN_MESH_MAX_LODS * sizeof *lods);
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "mesh: out of memory building levels of detail for %u vertices",
                       n);
        return 0;
    }
    for (uint32_t i = 0; i < s.count; i++) {
        free(*s.arrays[i]);
        *s.arrays[i] = b.streams[i];
    }
    free(md->indices);
    md->indices = b.indices;
    md->index_count = b.index_count;
    md->vertex_count = b.vertex_count;
    return count;
}
