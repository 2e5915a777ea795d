/* Skins: the joints (node indices, each once), an inverse bind matrix per joint (MAT4; the
 * identity when the file gives none; an accessor with more matrices than joints is allowed, as
 * the spec says, and the rest are not read) and the informative skeleton root. Loaded after the
 * nodes, so every node that names a skin is checked against it: each of its mesh's primitives
 * may index only the skin's joints, since a joint index past them would read another skin's
 * palette. A joint need not be below the skinned node, nor below the skeleton root; where it
 * sits is only where its world transform comes from. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

static bool read_joints(gltf_load *L, json_t *item, const char *path, kiln_gltf_skin *skin) {
    bool ok;
    json_t *joints = gltf_array(L, item, path, "joints", &ok);
    if (!ok) return false;
    if (!joints || json_array_size(joints) == 0)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.joints: is required and not empty", path);
    uint32_t count = (uint32_t)json_array_size(joints);
    skin->joints = calloc(count, sizeof *skin->joints);
    if (!skin->joints) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "%s.joints: out of memory", path);
    const kiln_gltf *doc = L->doc;
    for (uint32_t j = 0; j < count; j++) {
        json_t *v = json_array_get(joints, j);
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) >= doc->node_count)
            return gltf_fail(L, KILN_ERR_FORMAT, "%s.joints[%u]: is not an index below %u (the node count)", path, j,
                             doc->node_count);
        skin->joints[j] = (uint32_t)json_integer_value(v);
        /* Quadratic, but a skin has tens of joints; a map would cost more code than it saves. */
        for (uint32_t k = 0; k < j; k++)
            if (skin->joints[k] == skin->joints[j])
                return gltf_fail(L, KILN_ERR_FORMAT, "%s.joints[%u]: nodes[%u] is already joints[%u]", path, j,
                                 skin->joints[j], k);
    }
    skin->joint_count = count;
    return true;
}

static bool read_inverse_binds(gltf_load *L, json_t *item, const char *path, kiln_gltf_skin *skin) {
    int32_t accessor;
    if (!gltf_index(L, item, path, "inverseBindMatrices", false, L->accessor_count, "accessors", &accessor)) return false;
    skin->inverse_bind_matrices = malloc(skin->joint_count * sizeof *skin->inverse_bind_matrices);
    if (!skin->inverse_bind_matrices) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
    if (accessor < 0) {
        for (uint32_t j = 0; j < skin->joint_count; j++) skin->inverse_bind_matrices[j] = kiln_mat4_identity();
        return true;
    }
    char sub[96];
    snprintf(sub, sizeof sub, "%s.inverseBindMatrices", path);
    float *values;
    uint32_t count;
    if (!gltf_accessor_floats(L, (uint32_t)accessor, sub, 1u << 16, 16, 0.0f, &values, &count)) return false;
    if (count < skin->joint_count) {
        free(values);
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: accessors[%d] has %u matrices for %u joints", sub, accessor, count,
                         skin->joint_count);
    }
    /* glTF's MAT4 is column-major, as kiln_mat4 is. */
    for (uint32_t j = 0; j < skin->joint_count; j++)
        memcpy(skin->inverse_bind_matrices[j].m, values + (size_t)j * 16, sizeof skin->inverse_bind_matrices[j].m);
    free(values);
    return true;
}

static bool load_skin(gltf_load *L, json_t *item, uint32_t i) {
    char path[64];
    snprintf(path, sizeof path, "skins[%u]", i);
    if (!json_is_object(item)) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is not an object", path);
    kiln_gltf_skin *skin = &L->doc->skins[i];
    return (skin->name = gltf_name(L, item, path)) && read_joints(L, item, path, skin) &&
           read_inverse_binds(L, item, path, skin) &&
           gltf_index(L, item, path, "skeleton", false, L->doc->node_count, "nodes", &skin->skeleton);
}

/* A skinned node's mesh indexes only its skin's joints. */
static bool check_skinned_nodes(gltf_load *L) {
    const kiln_gltf *doc = L->doc;
    for (uint32_t n = 0; n < doc->node_count; n++) {
        const kiln_gltf_node *node = &doc->nodes[n];
        if (node->skin < 0) continue;
        const kiln_gltf_mesh *mesh = &doc->meshes[node->mesh];
        uint32_t joints = doc->skins[node->skin].joint_count;
        for (uint32_t p = 0; p < mesh->primitive_count; p++) {
            uint32_t used = kiln_mesh_data_joint_count(&mesh->primitives[p].mesh);
            if (used > joints)
                return gltf_fail(L, KILN_ERR_FORMAT, "nodes[%u]: meshes[%d].primitives[%u] reads joint %u, but skins[%d] "
                                 "has %u joints", n, node->mesh, p, used - 1, node->skin, joints);
        }
    }
    return true;
}

bool gltf_skins_load(gltf_load *L) {
    bool ok;
    json_t *skins = gltf_array(L, L->root, "", "skins", &ok);
    if (!ok) return false;
    uint32_t n = skins ? (uint32_t)json_array_size(skins) : 0;
    L->doc->skins = calloc(n + 1, sizeof *L->doc->skins);
    if (!L->doc->skins) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "skins: out of memory");
    for (uint32_t i = 0; i < n; i++) {
        L->doc->skins[i].skeleton = -1;
        L->doc->skin_count = i + 1;
        if (!load_skin(L, json_array_get(skins, i), i)) return false;
    }
    return check_skinned_nodes(L);
}
