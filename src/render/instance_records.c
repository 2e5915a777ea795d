/* Instance records in scene order: record i is instance i's (model, normal matrix, params), in
 * the instance buffer at index i, and the views' record index lists say which records each
 * batch draws (the shader reads instances[record_indices[instance_index]]). So a record is
 * packed once a frame however many views draw the instance, and only when what it is packed
 * from changed: the inputs of every record are kept beside a CPU copy of the buffer, compared
 * each frame in one streaming pass over the scene (by worker range), and a changed record is
 * packed and its chunk of RENDER_RECORD_CHUNK records marked. Marked chunks are uploaded, runs of
 * neighbours in one write, and unmarked only after the write was accepted; a new instance buffer
 * (it grew) marks every chunk. Any change to an instance's record reaches the GPU: the record is
 * a function of the inputs compared, byte for byte. */
#include <stdlib.h>
#include <string.h>

#include "renderer_internal.h"

/* Replaces *buffer with one of `capacity` units (grown by doubling from `start` until it holds
 * `need`) when it is too small; *replaced says whether it was. */
static bool grow_buffer(kiln_renderer *r, kiln_buffer *buffer, uint64_t *capacity, uint64_t need, uint64_t start,
                        uint64_t unit, const char *label, bool *replaced, kiln_error *err) {
    if (need == 0) need = 1;
    if (buffer->id && need <= *capacity) return true;
    uint64_t cap = *capacity ? *capacity : start;
    while (cap < need) cap *= 2;
    kiln_buffer grown = kiln_resources_create_buffer(r->res, &(kiln_buffer_desc){.label = label, .size = cap * unit,
        .usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst}, err);
    if (!grown.id) return false;
    if (buffer->id) kiln_resources_destroy_buffer(r->res, *buffer, NULL);
    *buffer = grown;
    *capacity = cap;
    *replaced = true;
    return true;
}

bool renderer_ensure_object_buffers(kiln_renderer *r, uint64_t instances, uint64_t record_indices, kiln_error *err) {
    bool new_instances = false, new_indices = false;
    if (!grow_buffer(r, &r->instances.buffer, &r->instances.capacity, instances, 256, KILN_INSTANCE_RECORD_SIZE, "instances",
                     &new_instances, err) ||
        !grow_buffer(r, &r->instances.record_index_buffer, &r->instances.record_index_capacity, record_indices, 1024, sizeof(uint32_t),
                     "record indices", &new_indices, err))
        return false;
    /* The new buffer holds none of the records: every chunk goes up again. The object groups that
     * bind a replaced buffer are rebuilt by renderer_deform_bind, which compares what they bind. */
    if (new_instances && r->instances.record_dirty.data) memset(r->instances.record_dirty.data, 1, r->instances.record_dirty.capacity);
    (void)new_indices;
    return true;
}

typedef struct pack_job {
    kiln_renderer *r;
    const kiln_render_scene *scene;
} pack_job;

static void pack_range(void *context, uint32_t range, uint32_t begin, uint32_t end) {
    (void)range;
    pack_job *job = context;
    kiln_renderer *r = job->r;
    const instance_facts *facts = r->instances.facts.data;
    const uint8_t *lods = r->instances.camera_lods.data;
    record_inputs *inputs = r->instances.record_inputs.data;
    uint8_t *records = r->instances.records.data, *dirty = r->instances.record_dirty.data;
    const instance_deform *deform = r->deform.instances;
    for (uint32_t i = begin; i < end; i++) {
        const kiln_render_instance *inst = &job->scene->instances[i];
        uint32_t flags = facts[i].flags & (FACT_SKINNED | FACT_MORPHED);
        record_inputs in = {.model = inst->transform, .material = inst->material, .flags = flags, .lod = lods[i],
                            .joint_offset = flags & FACT_SKINNED ? inst->joint_offset : -1,
                            .morph_slot = flags & FACT_MORPHED ? deform[i].morph_slot : 0,
                            .object_id = inst->object_id};
        if (i < r->instances.records_packed && !memcmp(&inputs[i], &in, sizeof in)) continue;
        inputs[i] = in;
        kiln_instance_record_pack(in.model, in.material, in.flags, in.lod, in.joint_offset, in.morph_slot, in.object_id,
                                  records + (size_t)i * KILN_INSTANCE_RECORD_SIZE);
        dirty[i / RENDER_RECORD_CHUNK] = 1;
    }
}

static uint32_t chunks_of(uint32_t instances) { return (instances + RENDER_RECORD_CHUNK - 1) / RENDER_RECORD_CHUNK; }

void renderer_pack_records(kiln_renderer *r, const kiln_render_scene *scene) {
    uint32_t n = scene->instance_count;
    size_t dirty_before = r->instances.record_dirty.capacity;
    if (!scratch_reserve(&r->instances.records, (size_t)n * KILN_INSTANCE_RECORD_SIZE) ||
        !scratch_reserve(&r->instances.record_inputs, (size_t)n * sizeof(record_inputs)) ||
        !scratch_reserve(&r->instances.record_dirty, chunks_of(n))) {
        /* Nothing packed: the next frame packs everything again. */
        r->instances.records_packed = 0;
        return;
    }
    /* Flags never used before belong to instances never packed, which this pass marks. */
    if (r->instances.record_dirty.capacity > dirty_before)
        memset((uint8_t *)r->instances.record_dirty.data + dirty_before, 0, r->instances.record_dirty.capacity - dirty_before);
    if (r->instances.records_packed > n) r->instances.records_packed = n;
    pack_job job = {.r = r, .scene = scene};
    uint32_t ranges = instance_workers_ranges(r->instances.workers, n, RENDER_RECORD_CHUNK, RENDER_MIN_WORKER_RANGE);
    instance_workers_run(r->instances.workers, n, RENDER_RECORD_CHUNK, ranges, pack_range, &job);
    r->instances.records_packed = n;
}

bool renderer_upload_records(kiln_renderer *r, uint32_t instance_count, kiln_error *err) {
    if (r->instances.records_packed < instance_count)
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory for %u instance records",
                              instance_count);
    if (!renderer_ensure_object_buffers(r, instance_count, r->views.record_count, err)) return false;
    uint8_t *dirty = r->instances.record_dirty.data;
    uint32_t chunks = chunks_of(instance_count);
    for (uint32_t c = 0; c < chunks;) {
        if (!dirty[c]) {
            c++;
            continue;
        }
        uint32_t run_end = c;
        while (run_end < chunks && dirty[run_end]) run_end++;
        uint64_t first = (uint64_t)c * RENDER_RECORD_CHUNK, last = (uint64_t)run_end * RENDER_RECORD_CHUNK;
        if (last > instance_count) last = instance_count;
        if (!kiln_resources_write_buffer(r->res, r->instances.buffer, first * KILN_INSTANCE_RECORD_SIZE,
                                         (uint8_t *)r->instances.records.data + first * KILN_INSTANCE_RECORD_SIZE,
                                         (size_t)(last - first) * KILN_INSTANCE_RECORD_SIZE, err))
            return false;
        memset(dirty + c, 0, run_end - c);
        c = run_end;
    }
    return !r->views.record_count || kiln_resources_write_buffer(r->res, r->instances.record_index_buffer, 0, r->views.record_indices.data,
                                                           (size_t)r->views.record_count * sizeof(uint32_t), err);
}

void renderer_free_records(kiln_renderer *r) {
    scratch *scratches[] = {&r->instances.spheres, &r->instances.facts, &r->instances.camera_lods, &r->views.view_items, &r->views.blend_items,
                            &r->views.sort_keys, &r->views.sort_keys_spare, &r->views.sort_order, &r->views.sort_order_spare,
                            &r->views.record_indices, &r->views.batches, &r->instances.records, &r->instances.record_inputs, &r->instances.record_dirty};
    for (size_t i = 0; i < sizeof scratches / sizeof scratches[0]; i++) free(scratches[i]->data);
}
