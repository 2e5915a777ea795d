/* Instance buffers (program.h, "instance buffers"): records under a layout, a capacity fixed at
 * create, the CPU copy as the source of truth, and a GPU vertex buffer stepped per instance that,
 * once made, receives only the run of records written since its last upload (the upload queue's
 * or the next draw's). Ids are dense and never reused; a destroyed buffer a draw set holds lives
 * on, its id retired, until the last set lets go. */
#include "program_internal.h"

#include <stdlib.h>
#include <string.h>

#include "program_layout.h"
#include "program_refuse.h"

program_instances *program_instances_held(const kiln_programs *p, uint32_t id) {
    return p ? program_id_table_held(&p->instances, id) : NULL;
}

program_instances *program_instances_lookup(const kiln_programs *p, uint32_t id) {
    return p ? program_id_table_lookup(&p->instances, id) : NULL;
}

static void release_buffer(kiln_programs *p, program_instances *b, bool retire) {
    if (!b->buffer.id) return;
    if (retire) program_retire_buffer(p, b->buffer);
    else kiln_resources_destroy_buffer(p->res, b->buffer, NULL);
    b->buffer = (kiln_buffer){0};
    b->dirty_first = 0;
    b->dirty_end = b->capacity; /* a buffer made again takes every record */
}

static void free_instances(kiln_programs *p, program_instances *b, bool retire) {
    if (!b) return;
    release_buffer(p, b, retire);
    free(b->records);
    free(b);
}

/* The run [first, first + size / stride) checked against the layout's stride and the capacity. */
static bool check_run(const program_instances *b, uint32_t first, size_t size, kiln_instances_error *err) {
    if (size % b->stride)
        return REFUSE(err, KILN_INSTANCES_RECORD_BYTES, "records: %zu bytes is not a whole number of %u-byte records",
                      size, b->stride);
    uint64_t end = (uint64_t)first + size / b->stride;
    if (end > b->capacity)
        return REFUSE(err, KILN_INSTANCES_PAST_CAPACITY,
                      "records: %zu records from record %u end at %llu, past the capacity of %u", size / b->stride,
                      first, (unsigned long long)end, b->capacity);
    return true;
}

uint32_t kiln_programs_create_instances(kiln_programs *p, const kiln_instances_desc *desc, kiln_instances_error *err) {
    kiln_instances_error local;
    if (!err) err = &local;
    *err = (kiln_instances_error){0};
    if (!p || !desc) {
        REFUSE(err, KILN_INSTANCES_BAD_LAYOUT, "%s", p ? "no instance buffer given" : "no program runtime");
        return 0;
    }
    kiln_geometry_error why;
    if (program_layout_check(&desc->layout, &why) != KILN_GEOMETRY_OK) {
        REFUSE(err, KILN_INSTANCES_BAD_LAYOUT, "%s (%s)", why.message, kiln_geometry_class_name(why.cls));
        return 0;
    }
    if (desc->capacity == 0) {
        REFUSE(err, KILN_INSTANCES_ZERO_CAPACITY, "capacity: 0 records; a buffer holds at least 1");
        return 0;
    }
    uint32_t stride = kiln_geometry_layout_stride(&desc->layout);
    uint64_t bytes = (uint64_t)desc->capacity * stride;
    if (bytes > KILN_GEOMETRY_MAX_BYTES) {
        REFUSE(err, KILN_INSTANCES_TOO_LARGE, "capacity: %u records of %u bytes is %llu bytes; a buffer holds at most %u",
               desc->capacity, stride, (unsigned long long)bytes, KILN_GEOMETRY_MAX_BYTES);
        return 0;
    }
    program_instances probe = {.stride = stride, .capacity = desc->capacity};
    size_t size = desc->records ? desc->records_size : 0;
    if (!check_run(&probe, 0, size, err)) return 0;
    program_instances *b = program_id_table_reserve(&p->instances, 1) ? calloc(1, sizeof *b) : NULL;
    uint8_t *records = b ? calloc((size_t)bytes, 1) : NULL;
    if (!records) {
        free(b);
        REFUSE(err, KILN_INSTANCES_TOO_LARGE, "out of memory for %llu bytes of records", (unsigned long long)bytes);
        return 0;
    }
    if (size) memcpy(records, desc->records, size);
    *b = (program_instances){.layout = desc->layout, .stride = stride, .capacity = desc->capacity,
                             .records = records, .dirty_end = desc->capacity};
    p->instances.uploads_pending = true;
    return program_id_table_add(&p->instances, b);
}

bool kiln_programs_update_instances(kiln_programs *p, uint32_t instances_id, uint32_t first, const void *records,
                                    size_t records_size, kiln_instances_error *err) {
    kiln_instances_error local;
    if (!err) err = &local;
    *err = (kiln_instances_error){0};
    if (!p) return REFUSE(err, KILN_INSTANCES_UNKNOWN_ID, "no program runtime");
    program_instances *b = program_instances_lookup(p, instances_id);
    size_t size = records ? records_size : 0;
    bool ok = b ? check_run(b, first, size, err)
                : REFUSE(err, KILN_INSTANCES_UNKNOWN_ID, "instances_id: instance buffer %u is not live", instances_id);
    if (!ok) {
        kiln_log_add(&p->log, KILN_LOG_WARN, "program", "dropped update_instances of instance buffer %u (%s): %s; "
                     "every record is as it was", instances_id, kiln_instances_class_name(err->cls), err->message);
        return false;
    }
    uint32_t count = (uint32_t)(size / b->stride);
    if (count == 0) return true;
    memcpy(b->records + (size_t)first * b->stride, records, size);
    p->instances.uploads_pending = true;
    /* One run covers every write since the last upload: a few updates per frame stay a few bytes. */
    if (b->dirty_first == b->dirty_end) {
        b->dirty_first = first;
        b->dirty_end = first + count;
    } else {
        if (first < b->dirty_first) b->dirty_first = first;
        if (first + count > b->dirty_end) b->dirty_end = first + count;
    }
    return true;
}

bool kiln_programs_destroy_instances(kiln_programs *p, uint32_t instances_id) {
    if (!program_instances_lookup(p, instances_id)) {
        if (p) kiln_log_add(&p->log, KILN_LOG_WARN, "program", "destroy_instances: unknown instance buffer id %u",
                            instances_id);
        return false;
    }
    /* A held buffer lives for its sets until the last lets go: the release frees it. */
    free_instances(p, program_id_table_retire(&p->instances, instances_id), true);
    return true;
}

void program_instances_hold(kiln_programs *p, uint32_t id) {
    program_id_table_hold(&p->instances, id);
}

void program_instances_release(kiln_programs *p, uint32_t id) {
    free_instances(p, program_id_table_release(&p->instances, id), true);
}

bool program_instances_realize(kiln_programs *p, uint32_t id, kiln_error *err) {
    program_instances *b = program_instances_held(p, id);
    if (!b) return kiln_error_set(err, KILN_ERR_INVALID_HANDLE, "instance buffer %u is not live", id);
    if (!b->buffer.id) {
        kiln_buffer_desc desc = {.label = "program instances", .size = (uint64_t)b->capacity * b->stride,
                                 .usage = WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst};
        kiln_error why = {0};
        b->buffer = kiln_resources_create_buffer(p->res, &desc, &why);
        if (!b->buffer.id) return kiln_error_set(err, why.code, "instance buffer %u: %s", id, why.message);
        b->dirty_first = 0;
        b->dirty_end = b->capacity;
    }
    if (b->dirty_first == b->dirty_end) return true;
    size_t at = (size_t)b->dirty_first * b->stride, size = (size_t)(b->dirty_end - b->dirty_first) * b->stride;
    kiln_error why = {0};
    if (!kiln_resources_write_buffer(p->res, b->buffer, at, b->records + at, size, &why))
        return kiln_error_set(err, why.code, "instance buffer %u: %s", id, why.message);
    b->dirty_first = b->dirty_end = 0;
    return true;
}

/* A buffer waits in the upload queue while it has no GPU buffer or a run of records to upload. */
static bool needs_upload(const void *item) {
    const program_instances *b = item;
    return !b->buffer.id || b->dirty_first != b->dirty_end;
}

static const program_upload_queue UPLOADS = {
    "instance upload queue", PROGRAM_GEOMETRY_UPLOADS_PER_RECORD, needs_upload, program_instances_realize};

void program_instances_upload_queue(kiln_programs *p) {
    program_id_table_upload_step(&p->instances, &UPLOADS, p, &p->log);
}

void program_instances_free_all(kiln_programs *p) {
    for (uint32_t id = 1; id <= p->instances.count; id++) free_instances(p, program_instances_held(p, id), false);
    program_id_table_free(&p->instances);
}

void program_instances_move(kiln_programs *fresh, kiln_programs *old) {
    for (uint32_t id = 1; id <= old->instances.count; id++) {
        program_instances *b = program_instances_held(old, id);
        if (b) release_buffer(old, b, false);
    }
    program_id_table_move(&fresh->instances, &old->instances);
}
