/* State shared by the import's steps (import.c drives them; import_materials.c adds images and
 * materials): the document, the renderer, the model's name for messages and the scene being
 * filled. */
#ifndef KILN_IMPORT_INTERNAL_H
#define KILN_IMPORT_INTERNAL_H

#include <kiln/import.h>

typedef struct import_context {
    const kiln_gltf *doc;
    kiln_renderer *r;
    const char *name;             /* the model, first in every message */
    kiln_imported_scene *out;
    uint32_t *materials;          /* per document material, its renderer index */
    uint32_t default_material;    /* glTF's default material, added on first use; KILN_INVALID_INDEX until then */
    kiln_error *err;
} import_context;

/* A skinned node of the scene: where its palette starts in the joints, and the transform its
 * instances get (the palette is relative to it). */
typedef struct pose_skinned_node {
    uint32_t node;
    uint32_t first_joint;       /* index into joints */
    kiln_mat4 transform;        /* the node's world, or the identity where that is singular */
} pose_skinned_node;

/* What posing needs between calls (import_pose.c); every array is sized at import, so a
 * re-pose allocates nothing. */
struct kiln_imported_pose {
    uint32_t node_count;            /* the document's, to recognise it again */
    kiln_gltf_node_pose *poses;     /* per node, its local pose at the time */
    kiln_mat4 *world;               /* per node, its world matrix at the time */
    uint32_t *order;                /* every node, each after its parent */
    int32_t *skinned_of_node;       /* per node, its entry in skinned; -1: none */
    pose_skinned_node *skinned;     /* the scene's nodes with a skin */
    uint32_t skinned_count;
    kiln_mat4 *joints;              /* the palette, joint_count matrices */
    uint32_t joint_count;
    uint32_t *instance_nodes;       /* per instance, the node it draws */
    bool pick_animation;            /* only `animation`, else every animation */
    uint32_t animation;
};

/* Fails with "<model>: <where>: <what>"; returns false. */
bool import_fail(import_context *c, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Appends one warning line to the scene; false only when memory runs out (err filled). */
bool import_warn(import_context *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Adds every image some material samples to the renderer's texture registry (out->images). */
bool import_images(import_context *c);
/* Adds every document material, with its images' registry ids, to the renderer (c->materials). */
bool import_materials(import_context *c);
/* The renderer index of document material `index` (-1: glTF's default, added on first use). */
bool import_material_index(import_context *c, int32_t index, uint32_t *out);

/* import_pose.c: makes out->pose for `instance_count` instances (instance_nodes left for the
 * caller to fill) and points out->scene.joints at its palette. */
bool import_pose_create(import_context *c, uint32_t instance_count, bool pick_animation, uint32_t animation);
/* Poses every node at `time` and writes the instances' transforms, joint offsets and weights. */
void import_pose_apply(kiln_imported_pose *p, const kiln_gltf *doc, float time, kiln_render_instance *instances,
                       uint32_t instance_count);
/* The bounds of instance i's mesh as posed, in the space of its transform: its skinned (and
 * morphed) vertices for a skinned instance, else the mesh's own bounds. */
kiln_mesh_bounds import_pose_mesh_bounds(const kiln_imported_pose *p, const kiln_render_instance *instance,
                                         const kiln_mesh_data *md);
void import_pose_free(kiln_imported_pose *p);

#endif
