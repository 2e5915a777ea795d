/* Nodes and the scene: local transforms (matrix, or T * R * S, the TRS kept for animation),
 * the skin and morph weights of a node's mesh, the parent of every node, world
 * transforms, and the roots of the scene loaded. The hierarchy must be a forest: a node listed as
 * the child of two nodes, or its own ancestor, is refused, since its world transform would not
 * be defined. Walks are iterative over arrays of node_count, so a deep or hostile hierarchy cannot
 * exhaust the stack. */
#include <stdio.h>
#include <stdlib.h>

#include "gltf_internal.h"

static bool load_node(gltf_load *L, json_t *item, uint32_t i) {
    char path[64];
    snprintf(path, sizeof path, "nodes[%u]", i);
    if (!json_is_object(item)) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is not an object", path);
    kiln_gltf *doc = L->doc;
    kiln_gltf_node *node = &doc->nodes[i];
    if (!(node->name = gltf_name(L, item, path))) return false;
    uint32_t skin_count;
    if (!gltf_count(L, "skins", &skin_count) ||
        !gltf_index(L, item, path, "mesh", false, doc->mesh_count, "meshes", &node->mesh) ||
        !gltf_index(L, item, path, "camera", false, doc->camera_count, "cameras", &node->camera) ||
        !gltf_index(L, item, path, "skin", false, skin_count, "skins", &node->skin))
        return false;
    if (node->skin >= 0 && node->mesh < 0) return gltf_fail(L, KILN_ERR_FORMAT, "%s.skin: the node has no mesh to skin", path);
    char why[64];
    if (node->mesh >= 0) snprintf(why, sizeof why, "meshes[%d] has %u morph targets", node->mesh, doc->meshes[node->mesh].target_count);
    else snprintf(why, sizeof why, "the node has no mesh");
    if (!gltf_float_array(L, item, path, "weights", node->mesh >= 0 ? doc->meshes[node->mesh].target_count : 0, why,
                          &node->weights))
        return false;
    json_t *light = json_object_get(json_object_get(item, "extensions"), "KHR_lights_punctual");
    char sub[128];
    snprintf(sub, sizeof sub, "%s.extensions.KHR_lights_punctual", path);
    if (light && !gltf_index(L, light, sub, "light", true, doc->light_count, "lights", &node->light)) return false;

    node->translation = (kiln_vec3){0, 0, 0};
    node->rotation = (kiln_quat){0, 0, 0, 1};
    node->scale = (kiln_vec3){1, 1, 1};
    node->has_matrix = json_object_get(item, "matrix") != NULL;
    if (node->has_matrix) {
        if (!gltf_numbers(L, item, path, "matrix", 16, node->local.m)) return false;
    } else {
        if (!gltf_numbers(L, item, path, "translation", 3, &node->translation.x) ||
            !gltf_numbers(L, item, path, "rotation", 4, &node->rotation.x) ||
            !gltf_numbers(L, item, path, "scale", 3, &node->scale.x))
            return false;
        node->rotation = kiln_quat_normalize(node->rotation);
        node->local = kiln_mat4_trs(node->translation, node->rotation, node->scale);
    }

    bool ok;
    json_t *children = gltf_array(L, item, path, "children", &ok);
    if (!ok) return false;
    node->child_count = children ? (uint32_t)json_array_size(children) : 0;
    node->children = calloc(node->child_count + 1, sizeof *node->children);
    if (!node->children) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
    for (uint32_t c = 0; c < node->child_count; c++) {
        json_t *v = json_array_get(children, c);
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) >= doc->node_count)
            return gltf_fail(L, KILN_ERR_FORMAT, "%s.children[%u]: is not an index below %u (the node count)", path,
                             c, doc->node_count);
        uint32_t child = (uint32_t)json_integer_value(v);
        kiln_gltf_node *cn = &doc->nodes[child];
        if (cn->parent >= 0)
            return gltf_fail(L, KILN_ERR_FORMAT, "%s.children[%u]: nodes[%u] is already a child of nodes[%d]", path,
                             c, child, cn->parent);
        cn->parent = (int32_t)i;
        node->children[c] = child;
    }
    return true;
}

/* Finds cycles and computes world transforms in one pass: each node walks up to the first
 * ancestor already done (or a root), then the chain is finished top-down. Meeting a node of the
 * chain being walked is a cycle. */
static bool resolve_world(gltf_load *L, uint32_t *chain, uint8_t *state) {
    kiln_gltf *doc = L->doc;
    enum { UNVISITED, WALKING, DONE };
    for (uint32_t i = 0; i < doc->node_count; i++) {
        uint32_t len = 0;
        int32_t at = (int32_t)i;
        while (at >= 0 && state[at] != DONE) {
            if (state[at] == WALKING)
                return gltf_fail(L, KILN_ERR_FORMAT, "nodes[%d]: is its own ancestor (the hierarchy has a cycle)", at);
            state[at] = WALKING;
            chain[len++] = (uint32_t)at;
            at = doc->nodes[at].parent;
        }
        while (len > 0) {
            kiln_gltf_node *n = &doc->nodes[chain[--len]];
            n->world = n->parent >= 0 ? kiln_mat4_mul(doc->nodes[n->parent].world, n->local) : n->local;
            state[chain[len]] = DONE;
        }
    }
    return true;
}

static bool pick_scene(gltf_load *L, const kiln_gltf_options *options, json_t **scene_out) {
    bool ok;
    json_t *scenes = gltf_array(L, L->root, "", "scenes", &ok);
    if (!ok) return false;
    uint32_t count = scenes ? (uint32_t)json_array_size(scenes) : 0;
    int32_t scene;
    if (options && options->pick_scene) {
        if (options->scene >= count)
            return gltf_fail(L, KILN_ERR_INVALID_ARGUMENT, "scene %u is out of range (%u scenes)", options->scene, count);
        scene = (int32_t)options->scene;
    } else {
        if (!gltf_index(L, L->root, "", "scene", false, count, "scenes", &scene)) return false;
        if (scene < 0 && count > 0) scene = 0;
    }
    L->doc->scene = scene;
    *scene_out = scene >= 0 ? json_array_get(scenes, (size_t)scene) : NULL;
    if (scene >= 0 && !json_is_object(*scene_out))
        return gltf_fail(L, KILN_ERR_FORMAT, "scenes[%d]: is not an object", scene);
    return true;
}

/* The scene's roots (or every parentless node when the file has no scene), then in_scene for
 * everything below them. `stack` holds node_count entries: a forest visits each node once. */
static bool mark_scene(gltf_load *L, json_t *scene, uint32_t *stack) {
    kiln_gltf *doc = L->doc;
    char path[64];
    snprintf(path, sizeof path, "scenes[%d]", doc->scene);
    bool ok;
    json_t *nodes = scene ? gltf_array(L, scene, path, "nodes", &ok) : NULL;
    if (scene && !ok) return false;
    uint32_t n = 0;
    if (scene) n = nodes ? (uint32_t)json_array_size(nodes) : 0;
    else for (uint32_t i = 0; i < doc->node_count; i++) n += doc->nodes[i].parent < 0;
    doc->roots = calloc(n + 1, sizeof *doc->roots);
    if (!doc->roots) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
    uint32_t top = 0;
    for (uint32_t i = 0; i < (scene ? n : doc->node_count); i++) {
        uint32_t root = i;
        if (scene) {
            json_t *v = json_array_get(nodes, i);
            if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) >= doc->node_count)
                return gltf_fail(L, KILN_ERR_FORMAT, "%s.nodes[%u]: is not an index below %u (the node count)", path, i,
                                 doc->node_count);
            root = (uint32_t)json_integer_value(v);
            if (doc->nodes[root].parent >= 0)
                return gltf_fail(L, KILN_ERR_FORMAT, "%s.nodes[%u]: nodes[%u] is not a root (a child of nodes[%d])",
                                 path, i, root, doc->nodes[root].parent);
            if (doc->nodes[root].in_scene)
                return gltf_fail(L, KILN_ERR_FORMAT, "%s.nodes[%u]: nodes[%u] is listed twice", path, i, root);
        } else if (doc->nodes[root].parent >= 0) {
            continue;
        }
        doc->roots[doc->root_count++] = root;
        doc->nodes[root].in_scene = true;
        stack[top++] = root;
        while (top > 0) {
            kiln_gltf_node *node = &doc->nodes[stack[--top]];
            for (uint32_t c = 0; c < node->child_count; c++) {
                doc->nodes[node->children[c]].in_scene = true;
                stack[top++] = node->children[c];
            }
        }
    }
    return true;
}

bool gltf_nodes_load(gltf_load *L, const kiln_gltf_options *options) {
    bool ok;
    json_t *nodes = gltf_array(L, L->root, "", "nodes", &ok);
    if (!ok) return false;
    kiln_gltf *doc = L->doc;
    uint32_t n = nodes ? (uint32_t)json_array_size(nodes) : 0;
    doc->nodes = calloc(n + 1, sizeof *doc->nodes);
    uint32_t *scratch = malloc(((size_t)n + 1) * sizeof *scratch);
    uint8_t *state = calloc(n + 1, 1);
    if (!doc->nodes || !scratch || !state) {
        free(scratch);
        free(state);
        return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "nodes: out of memory");
    }
    doc->node_count = n;
    for (uint32_t i = 0; i < n; i++) doc->nodes[i].parent = doc->nodes[i].light = doc->nodes[i].skin = -1;
    json_t *scene = NULL;
    ok = true;
    for (uint32_t i = 0; ok && i < n; i++) ok = load_node(L, json_array_get(nodes, i), i);
    ok = ok && resolve_world(L, scratch, state) && pick_scene(L, options, &scene) && mark_scene(L, scene, scratch);
    free(scratch);
    free(state);
    return ok;
}
