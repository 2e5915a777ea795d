/* Geometry resources (program.h, "geometry resources"): dense ids never reused, the CPU copy each
 * create or update takes (the source of truth), and the GPU buffers made from it, by the upload
 * queue a few per record call or by the first dispatch that draws the geometry. An update or a
 * destroy retires the old buffers rather than destroying them, since an encoder not yet submitted
 * may draw them; a device replacement moves the table to the new runtime and realizes each
 * geometry again from its copy. */
#include "program_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_layout.h"
#include "program_refuse.h"

program_geometry *program_geometry_held(const kiln_programs *p, uint32_t id) {
    return p ? program_id_table_held(&p->geometries, id) : NULL;
}

program_geometry *program_geometry_lookup(const kiln_programs *p, uint32_t id) {
    return p ? program_id_table_lookup(&p->geometries, id) : NULL;
}

static void release_buffers(kiln_programs *p, program_geometry *g, bool retire) {
    kiln_buffer buffers[2] = {g->vertex_buffer, g->index_buffer};
    for (int i = 0; i < 2; i++) {
        if (!buffers[i].id) continue;
        if (retire) program_retire_buffer(p, buffers[i]);
        else kiln_resources_destroy_buffer(p->res, buffers[i], NULL);
    }
    g->vertex_buffer = g->index_buffer = (kiln_buffer){0};
}

static void free_geometry(kiln_programs *p, program_geometry *g, bool retire) {
    if (!g) return;
    release_buffers(p, g, retire);
    free(g->vertices);
    free(g->indices);
    free(g);
}

/* Copies the desc's bytes into g (replacing what it held) once they validated. */
static bool copy_bytes(program_geometry *g, const kiln_geometry_desc *desc) {
    uint8_t *vertices = malloc(desc->vertices_size);
    uint8_t *indices = malloc(desc->indices_size);
    if (!vertices || !indices) {
        free(vertices);
        free(indices);
        return false;
    }
    memcpy(vertices, desc->vertices, desc->vertices_size);
    memcpy(indices, desc->indices, desc->indices_size);
    free(g->vertices);
    free(g->indices);
    g->vertices = vertices;
    g->indices = indices;
    g->vertices_size = desc->vertices_size;
    g->indices_size = desc->indices_size;
    g->index_count = (uint32_t)(desc->indices_size / 4);
    return true;
}

uint32_t kiln_programs_create_geometry(kiln_programs *p, const kiln_geometry_desc *desc, kiln_geometry_error *err) {
    kiln_geometry_error local;
    if (!err) err = &local;
    *err = (kiln_geometry_error){0};
    if (!p || !desc) {
        REFUSE(err, KILN_GEOMETRY_VERTEX_BYTES, "%s", p ? "no geometry given" : "no program runtime");
        return 0;
    }
    if (kiln_geometry_validate(&desc->layout, desc, err) != KILN_GEOMETRY_OK) return 0;
    program_geometry *g = program_id_table_reserve(&p->geometries, 1) ? calloc(1, sizeof *g) : NULL;
    if (!g || !copy_bytes(g, desc)) {
        free(g);
        REFUSE(err, KILN_GEOMETRY_TOO_LARGE, "out of memory copying %zu vertex and %zu index bytes",
               desc->vertices_size, desc->indices_size);
        return 0;
    }
    g->layout = desc->layout;
    g->stride = kiln_geometry_layout_stride(&desc->layout);
    p->geometries.uploads_pending = true;
    return program_id_table_add(&p->geometries, g);
}

bool kiln_programs_update_geometry(kiln_programs *p, uint32_t geometry_id, const kiln_geometry_desc *desc,
                                   kiln_geometry_error *err) {
    kiln_geometry_error local;
    if (!err) err = &local;
    *err = (kiln_geometry_error){0};
    if (!p) return REFUSE(err, KILN_GEOMETRY_UNKNOWN_ID, "no program runtime");
    program_geometry *g = program_geometry_lookup(p, geometry_id);
    bool ok = g != NULL;
    if (!g) REFUSE(err, KILN_GEOMETRY_UNKNOWN_ID, "geometry_id: geometry %u is not live", geometry_id);
    else ok = kiln_geometry_validate(&g->layout, desc, err) == KILN_GEOMETRY_OK;
    /* A set's draws were checked against these indices: while held, only the vertices' contents
     * may change. */
    uint32_t holders = program_id_table_holders(&p->geometries, geometry_id);
    if (ok && holders &&
        (desc->vertices_size != g->vertices_size || desc->indices_size != g->indices_size ||
         memcmp(desc->indices, g->indices, g->indices_size) != 0))
        ok = REFUSE(err, KILN_GEOMETRY_HELD,
                    "geometry %u is held by %u draw set%s: an update may change its vertex contents only (same "
                    "vertex count, the same indices)", geometry_id, holders, holders == 1 ? "" : "s");
    if (ok && !copy_bytes(g, desc)) ok = REFUSE(err, KILN_GEOMETRY_TOO_LARGE, "out of memory copying the geometry");
    if (!ok) {
        kiln_log_add(&p->log, KILN_LOG_WARN, "program", "dropped update_geometry of geometry %u (%s): %s; it keeps "
                     "its previous content", geometry_id, kiln_geometry_class_name(err->cls), err->message);
        return false;
    }
    /* The buffers are sized for the old bytes: made again from the new ones when next needed. */
    release_buffers(p, g, true);
    p->geometries.uploads_pending = true;
    return true;
}

bool kiln_programs_destroy_geometry(kiln_programs *p, uint32_t geometry_id) {
    if (!program_geometry_lookup(p, geometry_id)) {
        if (p) kiln_log_add(&p->log, KILN_LOG_WARN, "program", "destroy_geometry: unknown geometry id %u", geometry_id);
        return false;
    }
    /* A held geometry is drawn on by its sets until the last lets go: the release frees it. */
    free_geometry(p, program_id_table_retire(&p->geometries, geometry_id), true);
    return true;
}

void program_geometry_hold(kiln_programs *p, uint32_t id) {
    program_id_table_hold(&p->geometries, id);
}

void program_geometry_release(kiln_programs *p, uint32_t id) {
    free_geometry(p, program_id_table_release(&p->geometries, id), true);
}

const kiln_geometry_layout *kiln_programs_geometry_layout(const kiln_programs *p, uint32_t geometry_id) {
    const program_geometry *g = program_geometry_lookup(p, geometry_id);
    return g ? &g->layout : NULL;
}

kiln_geometry_stats kiln_programs_geometry_stats(const kiln_programs *p) {
    kiln_geometry_stats stats = {0};
    for (uint32_t id = 1; p && id <= p->geometries.count; id++) {
        const program_geometry *g = program_geometry_lookup(p, id);
        if (!g) continue;
        stats.live++;
        stats.on_gpu += g->vertex_buffer.id != 0;
    }
    return stats;
}

/* ---- the GPU side ------------------------------------------------------------------------------- */

static kiln_buffer make_buffer(kiln_programs *p, const char *label, WGPUBufferUsage usage, const void *bytes,
                               size_t size, kiln_error *err) {
    kiln_buffer_desc desc = {.label = label, .size = size, .usage = usage | WGPUBufferUsage_CopyDst};
    kiln_buffer b = kiln_resources_create_buffer(p->res, &desc, err);
    if (b.id && !kiln_resources_write_buffer(p->res, b, 0, bytes, size, err)) {
        kiln_resources_destroy_buffer(p->res, b, NULL);
        b = (kiln_buffer){0};
    }
    return b;
}

bool program_geometry_realize(kiln_programs *p, uint32_t id, kiln_error *err) {
    program_geometry *g = program_geometry_held(p, id);
    if (!g) return kiln_error_set(err, KILN_ERR_INVALID_HANDLE, "geometry %u is not live", id);
    if (g->vertex_buffer.id) return true;
    kiln_error why = {0};
    g->vertex_buffer = make_buffer(p, "program geometry vertices", WGPUBufferUsage_Vertex, g->vertices,
                                   g->vertices_size, &why);
    if (g->vertex_buffer.id)
        g->index_buffer = make_buffer(p, "program geometry indices", WGPUBufferUsage_Index, g->indices,
                                      g->indices_size, &why);
    if (!g->index_buffer.id) {
        release_buffers(p, g, false);
        return kiln_error_set(err, why.code, "geometry %u: %s", id, why.message);
    }
    return true;
}

/* A geometry waits in the upload queue until it has buffers (retired ones too: their sets draw them). */
static bool needs_upload(const void *item) {
    const program_geometry *g = item;
    return !g->vertex_buffer.id;
}

static const program_upload_queue UPLOADS = {
    "geometry upload queue", PROGRAM_GEOMETRY_UPLOADS_PER_RECORD, needs_upload, program_geometry_realize};

void program_geometry_upload_queue(kiln_programs *p) {
    program_id_table_upload_step(&p->geometries, &UPLOADS, p, &p->log);
}

void program_geometry_free_all(kiln_programs *p) {
    for (uint32_t id = 1; id <= p->geometries.count; id++) free_geometry(p, program_geometry_held(p, id), false);
    program_id_table_free(&p->geometries);
}

void program_geometry_move(kiln_programs *fresh, kiln_programs *old) {
    for (uint32_t id = 1; id <= old->geometries.count; id++) {
        program_geometry *g = program_geometry_held(old, id);
        if (g) release_buffers(old, g, false);
    }
    program_id_table_move(&fresh->geometries, &old->geometries);
}
