/* Skinning and morph targets on the renderer's side (deform.c): the joint palette and morph
 * weight buffers, the object bind groups (group 1) that bind them with the instance records, and
 * what each instance of the frame's scene deforms by. The WGSL half is shaders/deform.wgsl.
 *
 * Group 1 ("objects"): 0 the instance records, 1 the joints (the scene's palette, copied
 * verbatim), 2 a mesh's morph deltas, 3 one MorphWeights slot, selected by dynamic offset. Meshes
 * without morph targets share r->instances.object_group, whose binding 2 is a 32-byte stand-in; each morphed
 * mesh's delta buffer gets its own group, made the first time a batch draws it and released after
 * a frame in which no batch used it. Every group is rebuilt only when one of the buffers it binds
 * was replaced (grown). */
#ifndef KILN_RENDER_DEFORM_H
#define KILN_RENDER_DEFORM_H

#include <kiln/gfx.h>
#include <kiln/render.h>

/* The group 1 of one morphed mesh, by its delta buffer; `used_frame` is the last frame a batch
 * drew with it. */
typedef struct renderer_morph_group {
    kiln_buffer deltas;
    kiln_bind_group group;
    uint64_t used_frame;
} renderer_morph_group;

/* What one scene instance deforms by this frame: KILN_INSTANCE_* flags, and for a morphed one
 * its weight slot. */
typedef struct instance_deform {
    uint32_t flags;
    uint32_t morph_slot;
} instance_deform;

typedef struct renderer_deform {
    kiln_buffer joints;              /* storage, joints_capacity matrices; grows by doubling */
    uint32_t joints_capacity;
    kiln_buffer weights;             /* uniform, weight_slot_capacity slots of KILN_MORPH_SLOT_SIZE */
    uint32_t weight_slot_capacity;
    kiln_buffer no_deltas;           /* the stand-in at binding 2 of the shared group */
    /* The buffers r->instances.object_group binds, so it is rebuilt only when one of them changes. */
    kiln_buffer bound_instances, bound_joints, bound_weights, bound_record_indices;
    renderer_morph_group *morph_groups;
    uint32_t morph_group_count, morph_group_capacity;
    instance_deform *instances;      /* one per scene instance, this frame */
    uint32_t instance_capacity;
    uint8_t *slots;                  /* the weight slots' bytes, packed on the CPU */
    uint32_t slot_count, slot_bytes_capacity;
    uint64_t object_group_builds;    /* groups made for r->instances.object_group over the renderer's life */
} renderer_deform;

struct render_batch;

bool renderer_deform_create(kiln_renderer *r, kiln_error *err);
void renderer_deform_destroy(kiln_renderer *r);

/* Before anything of the frame is recorded: refuses, naming the instance, a skinned instance
 * whose joint_offset is below -1 or whose joints run past scene.joint_count, and a morphed one
 * with a non-finite weight; then notes each instance's flags and weight slot, releases the morph
 * groups no batch used last frame, grows the joint and weight buffers as needed (by doubling)
 * and writes the palette and the weights. Instances naming an unknown or removed mesh are left
 * for renderer_begin_views to report. */
bool renderer_deform_prepare(kiln_renderer *r, const kiln_render_scene *scene, kiln_error *err);
/* After the instance records and record indices are uploaded (instance_records.c; a record
 * carries the flags, joint offset and weight slot noted here): rebuilds r->instances.object_group, and drops the morph groups,
 * when a buffer they bind was replaced since they were made. */
bool renderer_deform_bind(kiln_renderer *r, kiln_error *err);

/* Instance `i`'s flags, for the batch it starts (b->deform, b->morph_slot). */
void renderer_deform_start_batch(const kiln_renderer *r, uint32_t i, struct render_batch *b);
/* The pipeline key bits (PIPELINE_SKINNED, PIPELINE_MORPHED) of a batch's flags. */
uint32_t renderer_deform_key(uint32_t flags);

/* What a pass has bound at group 1, so consecutive batches rebind only when it changes. */
typedef struct object_binding {
    kiln_bind_group group;
    uint32_t offset;
    bool set;
} object_binding;
/* Binds group 1 for batch `b` of `mesh`: the shared group, or the mesh's morph group at the
 * batch's weight slot (made the first time). False, with the pass failed, when it cannot be
 * made. */
bool renderer_deform_bind_objects(kiln_renderer *r, kiln_render_pass *pass, const struct render_batch *b,
                                  const kiln_gpu_mesh *mesh, object_binding *bound);

#endif
