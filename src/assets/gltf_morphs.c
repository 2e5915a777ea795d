/* Morph targets: a primitive's `targets` (POSITION, NORMAL and TANGENT deltas per vertex) and a
 * mesh's default `weights`. The renderer draws the three deltas of at most
 * KILN_MAX_MORPH_TARGETS targets, so the first that many are read and the rest are checked for
 * nothing more than being objects (gltf_meshes.c warns once per mesh that drops any). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

/* One delta attribute of target `t`: NULL when absent, else vertex_count VEC3 elements. */
static bool read_delta(gltf_load *L, json_t *target, const char *path, const char *attribute, uint32_t vertex_count,
                       float **out) {
    int32_t accessor;
    *out = NULL;
    if (!gltf_index(L, target, path, attribute, false, L->accessor_count, "accessors", &accessor)) return false;
    if (accessor < 0) return true;
    char sub[192];
    snprintf(sub, sizeof sub, "%s.%s", path, attribute);
    uint32_t count;
    if (!gltf_accessor_floats(L, (uint32_t)accessor, sub, 1u << 3, 3, 0.0f, out, &count)) return false;
    if (count != vertex_count) {
        free(*out);
        *out = NULL;
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: %u elements, but POSITION has %u", sub, count, vertex_count);
    }
    return true;
}

bool gltf_morph_targets_read(gltf_load *L, json_t *targets, const char *path, uint32_t vertex_count, uint32_t kept,
                             float *position_deltas[KILN_MAX_MORPH_TARGETS],
                             float *normal_deltas[KILN_MAX_MORPH_TARGETS],
                             float *tangent_deltas[KILN_MAX_MORPH_TARGETS]) {
    for (uint32_t t = 0; t < kept; t++) {
        char sub[160];
        snprintf(sub, sizeof sub, "%s.targets[%u]", path, t);
        json_t *target = json_array_get(targets, t);
        if (!json_is_object(target)) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is not an object", sub);
        /* TANGENT deltas are VEC3: the handedness is not morphed. */
        if (!read_delta(L, target, sub, "POSITION", vertex_count, &position_deltas[t]) ||
            !read_delta(L, target, sub, "NORMAL", vertex_count, &normal_deltas[t]) ||
            !read_delta(L, target, sub, "TANGENT", vertex_count, &tangent_deltas[t]))
            return false;
    }
    return true;
}

bool gltf_mesh_weights_load(gltf_load *L, json_t *mesh_json, const char *path, kiln_gltf_mesh *mesh) {
    char why[64];
    snprintf(why, sizeof why, "the mesh has %u morph targets", mesh->target_count);
    if (!gltf_float_array(L, mesh_json, path, "weights", mesh->target_count, why, &mesh->weights)) return false;
    if (!mesh->weights && mesh->target_count > 0 &&
        !(mesh->weights = calloc(mesh->target_count, sizeof *mesh->weights)))
        return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "%s.weights: out of memory", path);
    return true;
}
