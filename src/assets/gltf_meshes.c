/* Meshes: each primitive becomes one triangle-list kiln_mesh_data. Strips and fans are unrolled
 * into lists (keeping glTF's winding), points and lines are skipped with a warning. Without
 * NORMAL the vertices are unshared, one per triangle corner, so the computed normals are the flat
 * face normals the spec asks for (and a morph target's normal deltas are those of its own flat
 * normals); tangents are generated when the material has a normal map and the file gives none.
 * Morph targets (gltf_morphs.c) ride along every step a vertex takes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

enum { ATTR_POSITION, ATTR_NORMAL, ATTR_TANGENT, ATTR_UV0, ATTR_UV1, ATTR_COLOR, ATTR_JOINTS, ATTR_WEIGHTS, ATTR_COUNT };

static const struct {
    const char *name;
    uint32_t allowed;      /* component counts the attribute may have, as bits */
    uint32_t components;   /* floats per vertex read */
} attributes[ATTR_COUNT] = {
    [ATTR_POSITION] = {"POSITION", 1u << 3, 3},
    [ATTR_NORMAL] = {"NORMAL", 1u << 3, 3},
    [ATTR_TANGENT] = {"TANGENT", 1u << 4, 4},
    [ATTR_UV0] = {"TEXCOORD_0", 1u << 2, 2},
    [ATTR_UV1] = {"TEXCOORD_1", 1u << 2, 2},
    [ATTR_COLOR] = {"COLOR_0", 1u << 3 | 1u << 4, 4},
    [ATTR_JOINTS] = {"JOINTS_0", 1u << 4, 4},
    [ATTR_WEIGHTS] = {"WEIGHTS_0", 1u << 4, 4},
};

typedef struct primitive_arrays {
    float *attr[ATTR_COUNT];
    float *position_deltas[KILN_MAX_MORPH_TARGETS]; /* per kept target, 3 floats a vertex; NULL: none */
    float *normal_deltas[KILN_MAX_MORPH_TARGETS];
    float *tangent_deltas[KILN_MAX_MORPH_TARGETS];
    uint32_t target_count;                           /* targets kept */
    uint32_t vertex_count;
    uint32_t *indices;
    uint32_t index_count;
} primitive_arrays;

static void arrays_free(primitive_arrays *a) {
    for (int i = 0; i < ATTR_COUNT; i++) free(a->attr[i]);
    for (int t = 0; t < KILN_MAX_MORPH_TARGETS; t++) {
        free(a->position_deltas[t]);
        free(a->normal_deltas[t]);
        free(a->tangent_deltas[t]);
    }
    free(a->indices);
}

static bool read_attributes(gltf_load *L, json_t *prim, const char *path, primitive_arrays *a) {
    char sub[128];
    bool ok;
    json_t *attrs = gltf_object(L, prim, path, "attributes", &ok);
    if (!ok) return false;
    snprintf(sub, sizeof sub, "%s.attributes", path);
    if (!attrs || !json_object_get(attrs, "POSITION"))
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.POSITION: is required", sub);
    for (int i = 0; i < ATTR_COUNT; i++) {
        int32_t accessor;
        if (!gltf_index(L, attrs, sub, attributes[i].name, false, L->accessor_count, "accessors", &accessor))
            return false;
        if (accessor < 0) continue;
        char attr_path[160];
        snprintf(attr_path, sizeof attr_path, "%s.%s", sub, attributes[i].name);
        uint32_t count;
        if (!gltf_accessor_floats(L, (uint32_t)accessor, attr_path, attributes[i].allowed, attributes[i].components,
                                  1.0f, &a->attr[i], &count))
            return false;
        if (i == ATTR_POSITION) a->vertex_count = count;
        else if (count != a->vertex_count)
            return gltf_fail(L, KILN_ERR_FORMAT, "%s: %u elements, but POSITION has %u", attr_path, count,
                             a->vertex_count);
    }
    if (!a->attr[ATTR_JOINTS] != !a->attr[ATTR_WEIGHTS])
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: JOINTS_0 and WEIGHTS_0 come together", sub);
    return true;
}

/* Indices as given (or 0..n-1), checked against the vertex count, then unrolled to a list. */
static bool read_triangles(gltf_load *L, json_t *prim, const char *path, uint64_t mode, primitive_arrays *a) {
    int32_t accessor;
    if (!gltf_index(L, prim, path, "indices", false, L->accessor_count, "accessors", &accessor)) return false;
    uint32_t *idx, n;
    if (accessor >= 0) {
        char sub[128];
        snprintf(sub, sizeof sub, "%s.indices", path);
        if (!gltf_accessor_indices(L, (uint32_t)accessor, sub, &idx, &n)) return false;
        for (uint32_t i = 0; i < n; i++)
            if (idx[i] >= a->vertex_count) {
                gltf_fail(L, KILN_ERR_FORMAT, "%s: index %u at %u is out of range (%u vertices)", sub, idx[i], i,
                          a->vertex_count);
                free(idx);
                return false;
            }
    } else {
        n = a->vertex_count;
        if (!(idx = malloc((size_t)n * sizeof *idx))) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
        for (uint32_t i = 0; i < n; i++) idx[i] = i;
    }
    if (mode == 4) {
        a->indices = idx;
        a->index_count = n - n % 3; /* a trailing partial triangle draws nothing */
        return true;
    }
    /* Strip (5) and fan (6): n - 2 triangles. A strip's odd triangles swap their first two
     * corners so every triangle keeps the first one's winding. */
    uint32_t triangles = n >= 3 ? n - 2 : 0;
    uint32_t *list = malloc((size_t)triangles * 3 * sizeof *list + 1);
    if (!list) {
        free(idx);
        return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
    }
    for (uint32_t t = 0; t < triangles; t++) {
        uint32_t *tri = list + (size_t)t * 3;
        if (mode == 6) {
            tri[0] = idx[t + 1]; tri[1] = idx[t + 2]; tri[2] = idx[0];
        } else if (t % 2 == 0) {
            tri[0] = idx[t]; tri[1] = idx[t + 1]; tri[2] = idx[t + 2];
        } else {
            tri[0] = idx[t + 1]; tri[1] = idx[t]; tri[2] = idx[t + 2];
        }
    }
    free(idx);
    a->indices = list;
    a->index_count = triangles * 3;
    return true;
}

/* `*values` (k floats a vertex) with one element per index. */
static bool expand(gltf_load *L, const char *path, const primitive_arrays *a, uint32_t k, float **values) {
    if (!*values) return true;
    float *expanded = malloc((size_t)a->index_count * k * sizeof *expanded);
    if (!expanded) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
    for (uint32_t v = 0; v < a->index_count; v++)
        memcpy(expanded + (size_t)v * k, *values + (size_t)a->indices[v] * k, k * sizeof *expanded);
    free(*values);
    *values = expanded;
    return true;
}

/* One vertex per index, so no two triangles share a vertex (for flat normals). */
static bool unweld(gltf_load *L, const char *path, primitive_arrays *a) {
    for (int i = 0; i < ATTR_COUNT; i++)
        if (!expand(L, path, a, attributes[i].components, &a->attr[i])) return false;
    for (uint32_t t = 0; t < a->target_count; t++)
        if (!expand(L, path, a, 3, &a->position_deltas[t]) || !expand(L, path, a, 3, &a->normal_deltas[t]) ||
            !expand(L, path, a, 3, &a->tangent_deltas[t]))
            return false;
    for (uint32_t v = 0; v < a->index_count; v++) a->indices[v] = v;
    a->vertex_count = a->index_count;
    return true;
}

/* An unwelded mesh's flat normals with target t's position deltas added, less the base flat
 * normals: what the morphed shape's own flat normals need at weight 1. */
static void flat_normal_deltas(kiln_mesh_data *md, kiln_morph_target *target) {
    for (uint32_t v = 0; v + 2 < md->vertex_count; v += 3) {
        kiln_vec3 p[3];
        for (int c = 0; c < 3; c++) p[c] = kiln_vec3_add(md->positions[v + c], target->position_deltas[v + c]);
        kiln_vec3 n = kiln_vec3_cross(kiln_vec3_sub(p[1], p[0]), kiln_vec3_sub(p[2], p[0]));
        float length = kiln_vec3_length(n);
        for (int c = 0; c < 3; c++)
            target->normal_deltas[v + c] =
                length > 0.0f ? kiln_vec3_sub(kiln_vec3_scale(n, 1.0f / length), md->normals[v + c]) : (kiln_vec3){0, 0, 0};
    }
}

/* The kept targets into md: deltas copied, absent ones left zero. */
static bool attach_targets(gltf_load *L, const char *path, const primitive_arrays *a, kiln_mesh_data *md) {
    size_t bytes = (size_t)a->vertex_count * sizeof(kiln_vec3);
    for (uint32_t t = 0; t < a->target_count; t++) {
        kiln_error mesh_err;
        kiln_morph_target *target = kiln_mesh_data_add_morph_target(md, &mesh_err);
        if (!target) return gltf_fail(L, mesh_err.code, "%s.targets[%u]: %s", path, t, mesh_err.message);
        if (a->position_deltas[t]) memcpy(target->position_deltas, a->position_deltas[t], bytes);
        if (a->normal_deltas[t]) memcpy(target->normal_deltas, a->normal_deltas[t], bytes);
        if (a->tangent_deltas[t]) {
            if (!(target->tangent_deltas = malloc(bytes)))
                return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "%s.targets[%u]: out of memory", path, t);
            memcpy(target->tangent_deltas, a->tangent_deltas[t], bytes);
        }
    }
    return true;
}

static bool build_mesh(gltf_load *L, const char *path, primitive_arrays *a, bool normal_mapped,
                       kiln_gltf_primitive *out) {
    bool flat = !a->attr[ATTR_NORMAL];
    if (flat && !unweld(L, path, a)) return false;
    bool tangents = a->attr[ATTR_TANGENT] || normal_mapped;
    uint32_t flags = (tangents ? KILN_MESH_TANGENTS : 0) | (a->attr[ATTR_UV1] ? KILN_MESH_UV1 : 0) |
                     (a->attr[ATTR_JOINTS] ? KILN_MESH_SKIN : 0);
    kiln_mesh_data *md = &out->mesh;
    kiln_error mesh_err;
    if (!kiln_mesh_data_init(md, a->vertex_count, a->index_count, flags, &mesh_err))
        return gltf_fail(L, mesh_err.code, "%s: %s", path, mesh_err.message);
    size_t n = a->vertex_count;
    memcpy(md->positions, a->attr[ATTR_POSITION], n * sizeof *md->positions);
    if (a->attr[ATTR_NORMAL]) memcpy(md->normals, a->attr[ATTR_NORMAL], n * sizeof *md->normals);
    if (a->attr[ATTR_TANGENT]) memcpy(md->tangents, a->attr[ATTR_TANGENT], n * sizeof *md->tangents);
    if (a->attr[ATTR_UV0]) memcpy(md->uv0, a->attr[ATTR_UV0], n * sizeof *md->uv0);
    if (a->attr[ATTR_UV1]) memcpy(md->uv1, a->attr[ATTR_UV1], n * sizeof *md->uv1);
    if (a->attr[ATTR_WEIGHTS]) memcpy(md->weights, a->attr[ATTR_WEIGHTS], n * sizeof *md->weights);
    for (size_t v = 0; a->attr[ATTR_JOINTS] && v < n; v++)
        for (int j = 0; j < 4; j++) {
            float joint = a->attr[ATTR_JOINTS][v * 4 + j];
            if (!(joint >= 0.0f && joint <= 65535.0f))
                return gltf_fail(L, KILN_ERR_FORMAT, "%s.attributes.JOINTS_0: vertex %zu: %g is not a joint index",
                                 path, v, (double)joint);
            md->joints[v].j[j] = (uint16_t)joint;
        }
    memcpy(md->indices, a->indices, (size_t)a->index_count * sizeof *md->indices);
    /* COLOR_0 is the mesh's colour stream; out->colors names the same array. */
    if (a->attr[ATTR_COLOR]) {
        md->colors = (kiln_vec4 *)a->attr[ATTR_COLOR];
        out->colors = md->colors;
        a->attr[ATTR_COLOR] = NULL;
    }
    if (!attach_targets(L, path, a, md)) return false;
    if (!kiln_mesh_data_validate(md, &mesh_err) || (flat && !kiln_mesh_data_compute_normals(md, &mesh_err)) ||
        (tangents && !a->attr[ATTR_TANGENT] && !kiln_mesh_data_compute_tangents(md, &mesh_err)))
        return gltf_fail(L, mesh_err.code, "%s: %s", path, mesh_err.message);
    for (uint32_t t = 0; flat && t < md->morph_target_count; t++) flat_normal_deltas(md, &md->morph_targets[t]);
    return true;
}

static const char *mode_name(uint64_t mode) {
    static const char *names[] = {"points", "lines", "line loop", "line strip"};
    return mode < 4 ? names[mode] : "?";
}

static bool load_primitive(gltf_load *L, json_t *prim, const char *path, kiln_gltf_mesh *mesh) {
    if (!json_is_object(prim)) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is not an object", path);
    uint64_t mode;
    int32_t material;
    if (!gltf_uint(L, prim, path, "mode", false, 4, UINT32_MAX, &mode) ||
        !gltf_index(L, prim, path, "material", false, L->doc->material_count, "materials", &material))
        return false;
    if (mode > 6) return gltf_fail(L, KILN_ERR_FORMAT, "%s.mode: %llu is not a glTF primitive mode", path,
                                   (unsigned long long)mode);
    if (mode < 4) return gltf_warn(L, "%s: mode %llu (%s) is not drawn; skipped", path, (unsigned long long)mode,
                                   mode_name(mode));
    primitive_arrays a = {0};
    a.target_count = mesh->target_count < KILN_MAX_MORPH_TARGETS ? mesh->target_count : KILN_MAX_MORPH_TARGETS;
    bool ok = read_attributes(L, prim, path, &a) &&
              gltf_morph_targets_read(L, json_object_get(prim, "targets"), path, a.vertex_count, a.target_count,
                                      a.position_deltas, a.normal_deltas, a.tangent_deltas) &&
              read_triangles(L, prim, path, mode, &a);
    if (ok && a.index_count == 0) {
        ok = gltf_warn(L, "%s: has no triangles; skipped", path);
        arrays_free(&a);
        return ok;
    }
    kiln_gltf_primitive *out = &mesh->primitives[mesh->primitive_count];
    out->material = material;
    bool normal_mapped = material >= 0 && L->doc->materials[material].images[KILN_TEX_NORMAL] >= 0;
    if (ok) {
        mesh->primitive_count++; /* counted before the build, so a failure's arrays are freed with the document */
        ok = build_mesh(L, path, &a, normal_mapped, out);
    }
    arrays_free(&a);
    return ok;
}

/* Every primitive must have as many targets as the first (glTF: the same targets, in order). */
static bool count_targets(gltf_load *L, json_t *prims, const char *path, kiln_gltf_mesh *mesh) {
    for (size_t p = 0; p < json_array_size(prims); p++) {
        char sub[96];
        snprintf(sub, sizeof sub, "%s.primitives[%zu]", path, p);
        bool ok;
        json_t *targets = gltf_array(L, json_array_get(prims, p), sub, "targets", &ok);
        if (!ok) return false;
        uint32_t n = (uint32_t)json_array_size(targets);
        if (p == 0) mesh->target_count = n;
        else if (n != mesh->target_count)
            return gltf_fail(L, KILN_ERR_FORMAT, "%s.targets: %u morph targets, but primitives[0] has %u", sub, n,
                             mesh->target_count);
    }
    return true;
}

static bool load_mesh(gltf_load *L, json_t *item, uint32_t i) {
    char path[64];
    snprintf(path, sizeof path, "meshes[%u]", i);
    if (!json_is_object(item)) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is not an object", path);
    kiln_gltf_mesh *mesh = &L->doc->meshes[i];
    if (!(mesh->name = gltf_name(L, item, path))) return false;
    bool ok;
    json_t *prims = gltf_array(L, item, path, "primitives", &ok);
    if (!ok) return false;
    if (!prims || json_array_size(prims) == 0)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.primitives: is required and not empty", path);
    mesh->primitives = calloc(json_array_size(prims), sizeof *mesh->primitives);
    if (!mesh->primitives) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
    if (!count_targets(L, prims, path, mesh) || !gltf_mesh_weights_load(L, item, path, mesh)) return false;
    if (mesh->target_count > KILN_MAX_MORPH_TARGETS &&
        !gltf_warn(L, "%s: %u morph targets; the first %d are drawn (KILN_MAX_MORPH_TARGETS)", path, mesh->target_count,
                   KILN_MAX_MORPH_TARGETS))
        return false;
    for (size_t p = 0; p < json_array_size(prims); p++) {
        char sub[96];
        snprintf(sub, sizeof sub, "%s.primitives[%zu]", path, p);
        if (!load_primitive(L, json_array_get(prims, p), sub, mesh)) return false;
    }
    return true;
}

bool gltf_meshes_load(gltf_load *L) {
    bool ok;
    json_t *meshes = gltf_array(L, L->root, "", "meshes", &ok);
    if (!ok) return false;
    uint32_t n = meshes ? (uint32_t)json_array_size(meshes) : 0;
    L->doc->meshes = calloc(n + 1, sizeof *L->doc->meshes);
    if (!L->doc->meshes) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "meshes: out of memory");
    for (uint32_t i = 0; i < n; i++) {
        L->doc->mesh_count = i + 1;
        if (!load_mesh(L, json_array_get(meshes, i), i)) return false;
        gltf_progress(L, "meshes", i + 1, n);
    }
    return true;
}
