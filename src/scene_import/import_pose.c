/* Posing an imported scene at a time (kiln_imported_scene_pose in kiln/import.h): node poses
 * from the rest pose and the animations, world matrices down the hierarchy, the joint palette
 * of every skinned node, and the instances' transforms, joint offsets and morph weights. The
 * arrays are sized once at import, so posing again allocates nothing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import_internal.h"

/* Every node after its parent: a depth-first walk from each root (the loader checked the
 * hierarchy is a forest, so each node is pushed once and node_count entries of stack suffice). */
static void hierarchy_order(const kiln_gltf *doc, uint32_t *order, uint32_t *stack) {
    uint32_t n = 0;
    for (uint32_t r = 0; r < doc->node_count; r++) {
        if (doc->nodes[r].parent >= 0) continue;
        uint32_t top = 0;
        stack[top++] = r;
        while (top > 0) {
            const kiln_gltf_node *node = &doc->nodes[stack[--top]];
            order[n++] = (uint32_t)(node - doc->nodes);
            for (uint32_t c = 0; c < node->child_count; c++) stack[top++] = node->children[c];
        }
    }
}

bool import_pose_create(import_context *c, uint32_t instance_count, bool pick_animation, uint32_t animation) {
    const kiln_gltf *doc = c->doc;
    kiln_imported_pose *p = calloc(1, sizeof *p);
    if (!p) return import_fail(c, KILN_ERR_OUT_OF_MEMORY, "pose: out of memory");
    c->out->pose = p;
    uint32_t n = doc->node_count;
    p->node_count = n;
    p->pick_animation = pick_animation;
    p->animation = animation;
    p->poses = calloc(n + 1, sizeof *p->poses);
    p->world = calloc(n + 1, sizeof *p->world);
    p->order = calloc(n + 1, sizeof *p->order);
    p->skinned_of_node = calloc(n + 1, sizeof *p->skinned_of_node);
    p->skinned = calloc(n + 1, sizeof *p->skinned);
    p->instance_nodes = calloc(instance_count + 1, sizeof *p->instance_nodes);
    uint32_t *stack = calloc(n + 1, sizeof *stack);
    bool ok = p->poses && p->world && p->order && p->skinned_of_node && p->skinned && p->instance_nodes && stack;
    if (ok) hierarchy_order(doc, p->order, stack);
    free(stack);
    if (!ok) return import_fail(c, KILN_ERR_OUT_OF_MEMORY, "pose: out of memory (%u nodes)", n);
    /* Each skinned node of the scene gets its own palette: it is relative to the node. */
    for (uint32_t i = 0; i < n; i++) {
        const kiln_gltf_node *node = &doc->nodes[i];
        p->skinned_of_node[i] = -1;
        if (!node->in_scene || node->skin < 0) continue;
        p->skinned_of_node[i] = (int32_t)p->skinned_count;
        p->skinned[p->skinned_count++] = (pose_skinned_node){.node = i, .first_joint = p->joint_count};
        p->joint_count += doc->skins[node->skin].joint_count;
    }
    if (p->joint_count && !(p->joints = calloc(p->joint_count, sizeof *p->joints)))
        return import_fail(c, KILN_ERR_OUT_OF_MEMORY, "joints: out of memory (%u matrices)", p->joint_count);
    c->out->scene.joints = p->joints;
    c->out->scene.joint_count = p->joint_count;
    return true;
}

static void pose_palettes(kiln_imported_pose *p, const kiln_gltf *doc) {
    for (uint32_t s = 0; s < p->skinned_count; s++) {
        pose_skinned_node *sn = &p->skinned[s];
        const kiln_gltf_skin *skin = &doc->skins[doc->nodes[sn->node].skin];
        kiln_mat4 to_node;
        if (kiln_mat4_inverse(p->world[sn->node], &to_node)) {
            sn->transform = p->world[sn->node];
        } else {
            sn->transform = kiln_mat4_identity();
            to_node = kiln_mat4_identity();
        }
        for (uint32_t j = 0; j < skin->joint_count; j++)
            p->joints[sn->first_joint + j] =
                kiln_mat4_mul(to_node, kiln_mat4_mul(p->world[skin->joints[j]], skin->inverse_bind_matrices[j]));
    }
}

void import_pose_apply(kiln_imported_pose *p, const kiln_gltf *doc, float time, kiln_render_instance *instances,
                       uint32_t instance_count) {
    kiln_gltf_rest_pose(doc, p->poses);
    for (uint32_t a = 0; a < doc->animation_count; a++)
        if (!p->pick_animation || a == p->animation) kiln_gltf_animation_sample(doc, a, time, p->poses);
    for (uint32_t k = 0; k < p->node_count; k++) {
        uint32_t i = p->order[k];
        const kiln_gltf_node *node = &doc->nodes[i];
        const kiln_gltf_node_pose *pose = &p->poses[i];
        /* A node with a matrix is never animated, so its own matrix is its pose; a TRS node is
         * rebuilt the way the loader built it, so an unanimated one is the loader's bit for bit. */
        kiln_mat4 local = node->has_matrix ? node->local
                                           : kiln_mat4_trs(pose->translation, kiln_quat_normalize(pose->rotation), pose->scale);
        p->world[i] = node->parent >= 0 ? kiln_mat4_mul(p->world[node->parent], local) : local;
    }
    pose_palettes(p, doc);
    for (uint32_t n = 0; n < instance_count; n++) {
        kiln_render_instance *inst = &instances[n];
        uint32_t node = p->instance_nodes[n];
        int32_t s = p->skinned_of_node[node];
        /* A primitive without skin streams under a skinned node ignores joint_offset (the renderer
         * reads it only for skinned meshes) and is drawn rigidly at the node's world. */
        inst->transform = s >= 0 ? p->skinned[s].transform : p->world[node];
        inst->joint_offset = s >= 0 ? (int32_t)p->skinned[s].first_joint : -1;
        memcpy(inst->morph_weights, p->poses[node].weights, sizeof inst->morph_weights);
    }
}

kiln_mesh_bounds import_pose_mesh_bounds(const kiln_imported_pose *p, const kiln_render_instance *instance,
                                         const kiln_mesh_data *md) {
    if (instance->joint_offset < 0 || !kiln_mesh_data_has_skin(md)) return kiln_mesh_data_bounds(md);
    const kiln_mat4 *palette = p->joints + instance->joint_offset;
    kiln_mesh_bounds b = {.min = {INFINITY, INFINITY, INFINITY}, .max = {-INFINITY, -INFINITY, -INFINITY}};
    /* Morph first, then skin, as the renderer does; posed once per import, so the cost of a
     * pass over the vertices is paid once. */
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t v = 0; v < md->vertex_count; v++) {
            kiln_vec3 at = md->positions[v];
            for (uint32_t t = 0; t < md->morph_target_count; t++)
                if (md->morph_targets[t].position_deltas)
                    at = kiln_vec3_add(at, kiln_vec3_scale(md->morph_targets[t].position_deltas[v], instance->morph_weights[t]));
            kiln_vec3 skinned = {0, 0, 0};
            const float *w = &md->weights[v].x;
            for (int j = 0; j < 4; j++)
                skinned = kiln_vec3_add(skinned, kiln_vec3_scale(kiln_mat4_transform_point(palette[md->joints[v].j[j]], at), w[j]));
            if (pass == 0) {
                b.min = (kiln_vec3){fminf(b.min.x, skinned.x), fminf(b.min.y, skinned.y), fminf(b.min.z, skinned.z)};
                b.max = (kiln_vec3){fmaxf(b.max.x, skinned.x), fmaxf(b.max.y, skinned.y), fmaxf(b.max.z, skinned.z)};
            } else {
                b.radius = fmaxf(b.radius, kiln_vec3_length(kiln_vec3_sub(skinned, b.center)));
            }
        }
        if (pass == 0) b.center = kiln_vec3_scale(kiln_vec3_add(b.min, b.max), 0.5f);
    }
    return b;
}

void import_pose_free(kiln_imported_pose *p) {
    if (!p) return;
    free(p->poses);
    free(p->world);
    free(p->order);
    free(p->skinned_of_node);
    free(p->skinned);
    free(p->joints);
    free(p->instance_nodes);
    free(p);
}

uint32_t kiln_imported_scene_instance_node(const kiln_imported_scene *s, uint32_t instance) {
    if (!s || !s->pose || instance >= s->scene.instance_count) return UINT32_MAX;
    return s->pose->instance_nodes[instance];
}
