/* Skinning and morph targets: the joint palette and morph weight buffers, the object groups that
 * bind them (deform.h has the layout), and each instance's deformation this frame.
 *
 * Joints: the scene's palette is copied verbatim into one storage buffer each frame; a skinned
 * instance's record carries its joint_offset, and its vertices read joints[offset + index].
 * Morph weights: every morphed instance of the scene (visible or not, so all views of one
 * instance share a slot) takes one 256-byte uniform slot in scene order, bound by dynamic offset;
 * a morphed instance is therefore always its own batch. Slots start at 32 and the buffer doubles
 * when a frame needs more. Both buffers only grow, so a steady scene creates nothing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "renderer_internal.h"

_Static_assert(sizeof(kiln_mat4) == 64, "a joint matrix is a mat4x4<f32>");

#define INITIAL_JOINTS 64
#define INITIAL_WEIGHT_SLOTS 32
#define NO_DELTAS_SIZE KILN_MORPH_DELTA_STRIDE

/* Replaces `buffer` by one of at least `need` units (doubling from its capacity, or `initial`),
 * when it holds fewer. The groups naming the old one are rebuilt by renderer_deform_bind. */
static bool grow_buffer(kiln_renderer *r, kiln_buffer *buffer, uint32_t *capacity, uint64_t need, uint32_t initial,
                        uint64_t unit, const char *label, WGPUBufferUsage usage, kiln_error *err) {
    if (buffer->id && need <= *capacity) return true;
    uint64_t cap = *capacity ? *capacity : initial;
    while (cap < need) cap *= 2;
    if (cap > UINT32_MAX)
        return kiln_error_set(err, KILN_ERR_CAPACITY, "renderer: %llu %s exceed the renderer's limit",
                              (unsigned long long)need, label);
    kiln_buffer grown = kiln_resources_create_buffer(r->res, &(kiln_buffer_desc){.label = label, .size = cap * unit,
                                                     .usage = usage | WGPUBufferUsage_CopyDst}, err);
    if (!grown.id) return false;
    if (buffer->id) kiln_resources_destroy_buffer(r->res, *buffer, NULL);
    *buffer = grown;
    *capacity = (uint32_t)cap;
    return true;
}

static bool grow_joints(kiln_renderer *r, uint64_t need, kiln_error *err) {
    renderer_deform *d = &r->deform;
    return grow_buffer(r, &d->joints, &d->joints_capacity, need, INITIAL_JOINTS, sizeof(kiln_mat4), "joints",
                       WGPUBufferUsage_Storage, err);
}

static bool grow_weights(kiln_renderer *r, uint64_t need, kiln_error *err) {
    renderer_deform *d = &r->deform;
    return grow_buffer(r, &d->weights, &d->weight_slot_capacity, need, INITIAL_WEIGHT_SLOTS, KILN_MORPH_SLOT_SIZE,
                       "morph weights", WGPUBufferUsage_Uniform, err);
}

bool renderer_deform_create(kiln_renderer *r, kiln_error *err) {
    renderer_deform *d = &r->deform;
    d->no_deltas = kiln_resources_create_buffer(r->res, &(kiln_buffer_desc){.label = "no morph deltas",
                                                .size = NO_DELTAS_SIZE, .usage = WGPUBufferUsage_Storage}, err);
    return d->no_deltas.id && grow_joints(r, INITIAL_JOINTS, err) && grow_weights(r, INITIAL_WEIGHT_SLOTS, err);
}

static void destroy_morph_groups(kiln_renderer *r) {
    renderer_deform *d = &r->deform;
    for (uint32_t i = 0; i < d->morph_group_count; i++)
        kiln_resources_destroy_bind_group(r->res, d->morph_groups[i].group, NULL);
    d->morph_group_count = 0;
}

void renderer_deform_destroy(kiln_renderer *r) {
    renderer_deform *d = &r->deform;
    destroy_morph_groups(r);
    if (r->instances.object_group.id) kiln_resources_destroy_bind_group(r->res, r->instances.object_group, NULL);
    r->instances.object_group = (kiln_bind_group){0};
    kiln_buffer buffers[] = {d->joints, d->weights, d->no_deltas};
    for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; i++)
        if (buffers[i].id) kiln_resources_destroy_buffer(r->res, buffers[i], NULL);
    free(d->morph_groups);
    free(d->instances);
    free(d->slots);
    *d = (renderer_deform){0};
}

/* The checks of one instance, in the order the guide lists them; fills its flags. */
static bool deform_instance(const kiln_renderer *r, const kiln_render_scene *scene, uint32_t i, instance_deform *out,
                            kiln_error *err) {
    const kiln_render_instance *inst = &scene->instances[i];
    *out = (instance_deform){0};
    const kiln_geometry_info *info =
        inst->mesh < kiln_geometry_registry_count(r->geometry) ? kiln_geometry_registry_info(r->geometry, inst->mesh + 1)
                                                               : NULL;
    if (!info) return true; /* renderer_begin_views names the unknown or removed mesh */
    if (info->skinned) {
        if (inst->joint_offset < -1)
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                  "renderer: instance %u has joint_offset %d; a skinned instance takes -1 (the bind "
                                  "pose) or an index into scene.joints",
                                  i, inst->joint_offset);
        if (inst->joint_offset >= 0 && (uint64_t)inst->joint_offset + info->joint_count > scene->joint_count)
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                  "renderer: instance %u: joint_offset %d + the %u joints of mesh %u exceed "
                                  "scene.joint_count %u",
                                  i, inst->joint_offset, info->joint_count, inst->mesh, scene->joint_count);
        if (inst->joint_offset >= 0) out->flags |= KILN_INSTANCE_SKINNED;
    }
    if (info->morph_target_count) {
        for (uint32_t t = 0; t < info->morph_target_count; t++)
            if (!isfinite(inst->morph_weights[t]))
                return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                      "renderer: instance %u: morph_weights[%u] is %g, not a finite number", i, t,
                                      (double)inst->morph_weights[t]);
        out->flags |= KILN_INSTANCE_MORPHED;
    }
    return true;
}

/* Releases the groups of morphed meshes no batch drew with last frame (a mesh replaced or no
 * longer drawn), keeping the order of the rest. */
static void release_unused_morph_groups(kiln_renderer *r) {
    renderer_deform *d = &r->deform;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < d->morph_group_count; i++) {
        renderer_morph_group *g = &d->morph_groups[i];
        if (g->used_frame + 1 >= r->frames_recorded) d->morph_groups[kept++] = *g;
        else kiln_resources_destroy_bind_group(r->res, g->group, NULL);
    }
    d->morph_group_count = kept;
}

/* Packs every morphed instance's weights into its slot, in scene order. */
static bool pack_weight_slots(kiln_renderer *r, const kiln_render_scene *scene, uint32_t slots, kiln_error *err) {
    renderer_deform *d = &r->deform;
    uint32_t capacity = d->slot_bytes_capacity;
    uint8_t *grown = kiln_array_reserve(d->slots, &capacity, slots, KILN_MORPH_SLOT_SIZE);
    if (!grown) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory for %u morph weight slots", slots);
    /* Zeroed once, so the padding of every slot the upload sends is defined. */
    if (capacity > d->slot_bytes_capacity)
        memset(grown + (size_t)d->slot_bytes_capacity * KILN_MORPH_SLOT_SIZE, 0,
               (size_t)(capacity - d->slot_bytes_capacity) * KILN_MORPH_SLOT_SIZE);
    d->slots = grown;
    d->slot_bytes_capacity = capacity;
    for (uint32_t i = 0; i < scene->instance_count; i++) {
        const instance_deform *id = &d->instances[i];
        if (!(id->flags & KILN_INSTANCE_MORPHED)) continue;
        const kiln_render_instance *inst = &scene->instances[i];
        const kiln_geometry_info *info = kiln_geometry_registry_info(r->geometry, inst->mesh + 1);
        kiln_morph_weights_pack(inst->morph_weights, info->morph_target_count,
                                d->slots + (size_t)id->morph_slot * KILN_MORPH_SLOT_SIZE);
    }
    return true;
}

bool renderer_deform_prepare(kiln_renderer *r, const kiln_render_scene *scene, kiln_error *err) {
    renderer_deform *d = &r->deform;
    uint32_t n = scene->instance_count;
    if (scene->joint_count && !scene->joints)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: scene.joint_count is %u but scene.joints is NULL",
                              scene->joint_count);
    instance_deform *instances = kiln_array_reserve(d->instances, &d->instance_capacity, n ? n : 1, sizeof *instances);
    if (!instances) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory for %u instances", n);
    d->instances = instances;
    uint32_t slots = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!deform_instance(r, scene, i, &instances[i], err)) return false;
        if (instances[i].flags & KILN_INSTANCE_MORPHED) instances[i].morph_slot = slots++;
    }
    d->slot_count = slots;
    release_unused_morph_groups(r);
    if (!grow_joints(r, scene->joint_count, err) || !grow_weights(r, slots, err)) return false;
    if (slots && !pack_weight_slots(r, scene, slots, err)) return false;
    if (scene->joint_count &&
        !kiln_resources_write_buffer(r->res, d->joints, 0, scene->joints, (size_t)scene->joint_count * sizeof(kiln_mat4),
                                     err))
        return false;
    return !slots ||
           kiln_resources_write_buffer(r->res, d->weights, 0, d->slots, (size_t)slots * KILN_MORPH_SLOT_SIZE, err);
}

/* A group 1 binding `deltas` at 2 and this frame's instance, joint, weight and record index
 * buffers. */
static kiln_bind_group make_object_group(kiln_renderer *r, kiln_buffer deltas, const char *label, kiln_error *err) {
    kiln_binding_resource entries[5] = {
        {.binding = 0, .buffer = r->instances.buffer},
        {.binding = 1, .buffer = r->deform.joints},
        {.binding = 2, .buffer = deltas},
        {.binding = 3, .buffer = r->deform.weights, .size = KILN_MORPH_WEIGHTS_SIZE},
        {.binding = 4, .buffer = r->instances.record_index_buffer},
    };
    return kiln_resources_create_bind_group(r->res, label, r->object_layout, entries, 5, err);
}

bool renderer_deform_bind(kiln_renderer *r, kiln_error *err) {
    renderer_deform *d = &r->deform;
    if (r->instances.object_group.id && d->bound_instances.id == r->instances.buffer.id && d->bound_joints.id == d->joints.id &&
        d->bound_weights.id == d->weights.id && d->bound_record_indices.id == r->instances.record_index_buffer.id)
        return true;
    kiln_bind_group group = make_object_group(r, d->no_deltas, "objects", err);
    if (!group.id) return false;
    if (r->instances.object_group.id) kiln_resources_destroy_bind_group(r->res, r->instances.object_group, NULL);
    r->instances.object_group = group;
    d->bound_instances = r->instances.buffer;
    d->bound_joints = d->joints;
    d->bound_weights = d->weights;
    d->bound_record_indices = r->instances.record_index_buffer;
    d->object_group_builds++;
    destroy_morph_groups(r); /* they bind the replaced buffer too; made again on first use */
    return true;
}

void renderer_deform_start_batch(const kiln_renderer *r, uint32_t i, render_batch *b) {
    b->deform = r->deform.instances[i].flags;
    b->morph_slot = r->deform.instances[i].morph_slot;
}

uint32_t renderer_deform_key(uint32_t flags) {
    return (flags & KILN_INSTANCE_SKINNED ? PIPELINE_SKINNED : 0) | (flags & KILN_INSTANCE_MORPHED ? PIPELINE_MORPHED : 0);
}

/* The group of the morphed mesh whose deltas are `deltas`, made the first time; marked used. */
static kiln_bind_group morph_group(kiln_renderer *r, kiln_buffer deltas, kiln_error *err) {
    renderer_deform *d = &r->deform;
    for (uint32_t i = 0; i < d->morph_group_count; i++)
        if (d->morph_groups[i].deltas.id == deltas.id) {
            d->morph_groups[i].used_frame = r->frames_recorded;
            return d->morph_groups[i].group;
        }
    renderer_morph_group *grown =
        kiln_array_reserve(d->morph_groups, &d->morph_group_capacity, d->morph_group_count + 1, sizeof *grown);
    if (!grown) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory for a morphed mesh's object group");
        return (kiln_bind_group){0};
    }
    d->morph_groups = grown;
    kiln_bind_group group = make_object_group(r, deltas, "objects morphed", err);
    if (!group.id) return group;
    d->morph_groups[d->morph_group_count++] =
        (renderer_morph_group){.deltas = deltas, .group = group, .used_frame = r->frames_recorded};
    return group;
}

bool renderer_deform_bind_objects(kiln_renderer *r, kiln_render_pass *pass, const render_batch *b,
                                  const kiln_gpu_mesh *mesh, object_binding *bound) {
    kiln_bind_group group = r->instances.object_group;
    uint32_t offset = 0;
    if (b->deform & KILN_INSTANCE_MORPHED) {
        kiln_error why = {0};
        group = morph_group(r, mesh->morph_deltas, &why);
        if (!group.id) {
            kiln_render_pass_fail(pass, &why);
            return false;
        }
        offset = b->morph_slot * KILN_MORPH_SLOT_SIZE;
    }
    if (bound->set && bound->group.id == group.id && bound->offset == offset) return true;
    kiln_render_pass_set_bind_group(pass, 1, group, &offset, 1, NULL);
    *bound = (object_binding){.group = group, .offset = offset, .set = true};
    return true;
}
