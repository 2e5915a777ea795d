/* kiln_mesh_data: allocation, validation, area-weighted normals and bounds. Tangents live in
 * mesh_tangents.c, primitives in mesh_primitives.c, packing in mesh_pack.c and the GPU upload in
 * mesh_upload.c. */
#include <kiln/geometry/mesh_data.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool kiln_mesh_data_init(kiln_mesh_data *md, uint32_t vertex_count, uint32_t index_count, uint32_t flags,
                         kiln_error *err) {
    if (!md) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "mesh: init needs a kiln_mesh_data");
    memset(md, 0, sizeof *md);
    if (vertex_count == 0 || index_count == 0)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "mesh: init with %u vertices and %u indices: both must be positive",
                              vertex_count, index_count);
    const uint32_t known = KILN_MESH_TANGENTS | KILN_MESH_UV1 | KILN_MESH_SKIN | KILN_MESH_COLORS;
    if (flags & ~known)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "mesh: unknown stream flags 0x%x", flags & ~known);

    size_t n = vertex_count;
    md->vertex_count = vertex_count;
    md->index_count = index_count;
    md->positions = calloc(n, sizeof *md->positions);
    md->normals = calloc(n, sizeof *md->normals);
    md->uv0 = calloc(n, sizeof *md->uv0);
    md->indices = calloc(index_count, sizeof *md->indices);
    if (flags & KILN_MESH_TANGENTS) md->tangents = calloc(n, sizeof *md->tangents);
    if (flags & KILN_MESH_UV1) md->uv1 = calloc(n, sizeof *md->uv1);
    if (flags & KILN_MESH_COLORS) md->colors = calloc(n, sizeof *md->colors);
    if (flags & KILN_MESH_SKIN) {
        md->joints = calloc(n, sizeof *md->joints);
        md->weights = calloc(n, sizeof *md->weights);
    }
    bool ok = md->positions && md->normals && md->uv0 && md->indices;
    if (flags & KILN_MESH_TANGENTS) ok = ok && md->tangents;
    if (flags & KILN_MESH_UV1) ok = ok && md->uv1;
    if (flags & KILN_MESH_COLORS) ok = ok && md->colors;
    if (flags & KILN_MESH_SKIN) ok = ok && md->joints && md->weights;
    if (!ok) {
        kiln_mesh_data_free(md);
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "mesh: out of memory for %u vertices and %u indices",
                              vertex_count, index_count);
    }
    return true;
}

void kiln_mesh_data_free(kiln_mesh_data *md) {
    if (!md) return;
    free(md->positions);
    free(md->normals);
    free(md->tangents);
    free(md->colors);
    free(md->uv0);
    free(md->uv1);
    free(md->joints);
    free(md->weights);
    free(md->indices);
    for (uint32_t t = 0; t < KILN_MAX_MORPH_TARGETS; t++) {
        free(md->morph_targets[t].position_deltas);
        free(md->morph_targets[t].normal_deltas);
        free(md->morph_targets[t].tangent_deltas);
    }
    memset(md, 0, sizeof *md);
}

/* A copy of `count` elements of `size` bytes, or NULL for an absent array; *ok turns false when
 * memory runs out. */
static void *copy_array(const void *src, size_t count, size_t size, bool *ok) {
    if (!src) return NULL;
    void *dst = malloc(count * size);
    if (!dst) {
        *ok = false;
        return NULL;
    }
    memcpy(dst, src, count * size);
    return dst;
}

bool kiln_mesh_data_copy(kiln_mesh_data *dst, const kiln_mesh_data *src, kiln_error *err) {
    if (!dst) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "mesh: copy needs a destination kiln_mesh_data");
    memset(dst, 0, sizeof *dst);
    /* Validation is what makes vertex_count and index_count the arrays' lengths. */
    if (!kiln_mesh_data_validate(src, err)) return false;
    size_t n = src->vertex_count;
    bool ok = true;
    kiln_mesh_data c = {
        .vertex_count = src->vertex_count,
        .positions = copy_array(src->positions, n, sizeof *src->positions, &ok),
        .normals = copy_array(src->normals, n, sizeof *src->normals, &ok),
        .tangents = copy_array(src->tangents, n, sizeof *src->tangents, &ok),
        .uv0 = copy_array(src->uv0, n, sizeof *src->uv0, &ok),
        .uv1 = copy_array(src->uv1, n, sizeof *src->uv1, &ok),
        .colors = copy_array(src->colors, n, sizeof *src->colors, &ok),
        .joints = copy_array(src->joints, n, sizeof *src->joints, &ok),
        .weights = copy_array(src->weights, n, sizeof *src->weights, &ok),
        .index_count = src->index_count,
        .indices = copy_array(src->indices, src->index_count, sizeof *src->indices, &ok),
        .morph_target_count = src->morph_target_count,
    };
    for (uint32_t t = 0; t < src->morph_target_count; t++) {
        c.morph_targets[t].position_deltas = copy_array(src->morph_targets[t].position_deltas, n, sizeof(kiln_vec3), &ok);
        c.morph_targets[t].normal_deltas = copy_array(src->morph_targets[t].normal_deltas, n, sizeof(kiln_vec3), &ok);
        c.morph_targets[t].tangent_deltas = copy_array(src->morph_targets[t].tangent_deltas, n, sizeof(kiln_vec3), &ok);
    }
    if (!ok) {
        kiln_mesh_data_free(&c);
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "mesh: out of memory copying %u vertices and %u indices",
                              src->vertex_count, src->index_count);
    }
    *dst = c;
    return true;
}

kiln_morph_target *kiln_mesh_data_add_morph_target(kiln_mesh_data *md, kiln_error *err) {
    if (!md || md->vertex_count == 0) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "mesh: a morph target needs a mesh with vertices");
        return NULL;
    }
    if (md->morph_target_count >= KILN_MAX_MORPH_TARGETS) {
        kiln_error_set(err, KILN_ERR_CAPACITY, "mesh: already %u morph targets, at most %d", md->morph_target_count,
                       KILN_MAX_MORPH_TARGETS);
        return NULL;
    }
    kiln_morph_target t = {
        .position_deltas = calloc(md->vertex_count, sizeof(kiln_vec3)),
        .normal_deltas = calloc(md->vertex_count, sizeof(kiln_vec3)),
    };
    if (!t.position_deltas || !t.normal_deltas) {
        free(t.position_deltas);
        free(t.normal_deltas);
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "mesh: out of memory for morph target %u", md->morph_target_count);
        return NULL;
    }
    md->morph_targets[md->morph_target_count] = t;
    return &md->morph_targets[md->morph_target_count++];
}

/* The rules come in the order a reader would fix them: what is there before what it holds. */
bool kiln_mesh_data_validate(const kiln_mesh_data *md, kiln_error *err) {
    if (!md || md->vertex_count == 0)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "mesh: no vertices");
    uint32_t n = md->vertex_count;
    const struct { const void *data; const char *name; } required[] = {
        {md->positions, "positions"}, {md->normals, "normals"}, {md->uv0, "uv0"},
    };
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!required[i].data)
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "mesh: %s missing for the %u vertices",
                                  required[i].name, n);
    if (!md->joints != !md->weights)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "mesh: joints and weights are a pair: %s given without %s",
                              md->joints ? "joints" : "weights", md->joints ? "weights" : "joints");
    if (md->morph_target_count > KILN_MAX_MORPH_TARGETS)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "mesh: %u morph targets, at most %d",
                              md->morph_target_count, KILN_MAX_MORPH_TARGETS);
    if (md->index_count == 0 || !md->indices)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "mesh: no indices");
    if (md->index_count % 3 != 0)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "mesh: %u indices is not a multiple of 3 (triangle list)", md->index_count);
    for (uint32_t i = 0; i < md->index_count; i++)
        if (md->indices[i] >= n)
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "mesh: index %u is %u, past the %u vertices", i,
                                  md->indices[i], n);
    for (uint32_t v = 0; v < n; v++) {
        kiln_vec3 p = md->positions[v];
        if (!isfinite(p.x) || !isfinite(p.y) || !isfinite(p.z))
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "mesh: position of vertex %u is not finite (%g, %g, %g)",
                                  v, (double)p.x, (double)p.y, (double)p.z);
    }
    return true;
}

bool kiln_mesh_data_has_skin(const kiln_mesh_data *md) {
    return md && md->vertex_count > 0 && md->joints && md->weights;
}

/* Every index counts, weighted or not: a skinning shader reads all four joints of a vertex. */
uint32_t kiln_mesh_data_joint_count(const kiln_mesh_data *md) {
    if (!kiln_mesh_data_has_skin(md)) return 0;
    uint32_t count = 0;
    for (uint32_t v = 0; v < md->vertex_count; v++)
        for (int j = 0; j < 4; j++)
            if ((uint32_t)md->joints[v].j[j] + 1 > count) count = (uint32_t)md->joints[v].j[j] + 1;
    return count;
}

bool kiln_mesh_data_compute_normals(kiln_mesh_data *md, kiln_error *err) {
    if (!md) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "mesh: no vertices");
    /* Validation requires the normals stream, which is the one being computed: lend it a buffer
     * first and take it back if the mesh is refused, so a failure changes nothing. */
    bool allocated = false;
    if (!md->normals && md->vertex_count > 0) {
        md->normals = calloc(md->vertex_count, sizeof *md->normals);
        if (!md->normals)
            return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "mesh: out of memory for %u normals", md->vertex_count);
        allocated = true;
    }
    if (!kiln_mesh_data_validate(md, err)) {
        if (allocated) {
            free(md->normals);
            md->normals = NULL;
        }
        return false;
    }
    memset(md->normals, 0, md->vertex_count * sizeof *md->normals);
    /* The cross product of two edges has length twice the triangle's area, so summing it
     * unnormalised weights each face by its area; large faces dominate small slivers. */
    for (uint32_t i = 0; i < md->index_count; i += 3) {
        uint32_t a = md->indices[i], b = md->indices[i + 1], c = md->indices[i + 2];
        kiln_vec3 pa = md->positions[a];
        kiln_vec3 face = kiln_vec3_cross(kiln_vec3_sub(md->positions[b], pa), kiln_vec3_sub(md->positions[c], pa));
        md->normals[a] = kiln_vec3_add(md->normals[a], face);
        md->normals[b] = kiln_vec3_add(md->normals[b], face);
        md->normals[c] = kiln_vec3_add(md->normals[c], face);
    }
    for (uint32_t v = 0; v < md->vertex_count; v++) {
        float len = kiln_vec3_length(md->normals[v]);
        md->normals[v] = len > 0.0f && isfinite(len) ? kiln_vec3_scale(md->normals[v], 1.0f / len)
                                                     : kiln_vec3_make(0.0f, 1.0f, 0.0f);
    }
    return true;
}

/* How far vertex v can move under the morph targets when every weight lies in [0, 1]: the
 * negative and positive parts of the deltas summed per axis, and their summed lengths. */
static void morph_reach(const kiln_mesh_data *md, uint32_t v, kiln_vec3 *lo, kiln_vec3 *hi, float *length) {
    *lo = *hi = kiln_vec3_make(0.0f, 0.0f, 0.0f);
    *length = 0.0f;
    uint32_t count = md->morph_target_count < KILN_MAX_MORPH_TARGETS ? md->morph_target_count : KILN_MAX_MORPH_TARGETS;
    for (uint32_t t = 0; t < count; t++) {
        const kiln_vec3 *deltas = md->morph_targets[t].position_deltas;
        if (!deltas) continue;
        kiln_vec3 d = deltas[v];
        lo->x += fminf(d.x, 0.0f), lo->y += fminf(d.y, 0.0f), lo->z += fminf(d.z, 0.0f);
        hi->x += fmaxf(d.x, 0.0f), hi->y += fmaxf(d.y, 0.0f), hi->z += fmaxf(d.z, 0.0f);
        *length += kiln_vec3_length(d);
    }
}

kiln_mesh_bounds kiln_mesh_data_bounds(const kiln_mesh_data *md) {
    kiln_mesh_bounds b = {0};
    if (!md || md->vertex_count == 0 || !md->positions) return b;
    b.min = kiln_vec3_make(INFINITY, INFINITY, INFINITY);
    b.max = kiln_vec3_make(-INFINITY, -INFINITY, -INFINITY);
    for (uint32_t v = 0; v < md->vertex_count; v++) {
        kiln_vec3 p = md->positions[v], lo, hi;
        float reach;
        morph_reach(md, v, &lo, &hi, &reach);
        b.min = kiln_vec3_make(fminf(b.min.x, p.x + lo.x), fminf(b.min.y, p.y + lo.y), fminf(b.min.z, p.z + lo.z));
        b.max = kiln_vec3_make(fmaxf(b.max.x, p.x + hi.x), fmaxf(b.max.y, p.y + hi.y), fmaxf(b.max.z, p.z + hi.z));
    }
    b.center = kiln_vec3_scale(kiln_vec3_add(b.min, b.max), 0.5f);
    /* The farthest vertex rather than the box's half diagonal: never larger, often much smaller
     * (a sphere's own vertices give its radius, the box corner would add 73%). */
    for (uint32_t v = 0; v < md->vertex_count; v++) {
        kiln_vec3 lo, hi;
        float reach;
        morph_reach(md, v, &lo, &hi, &reach);
        float r = kiln_vec3_length(kiln_vec3_sub(md->positions[v], b.center)) + reach;
        if (r > b.radius) b.radius = r;
    }
    return b;
}
