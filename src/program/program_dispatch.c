/* Dispatch: the checks that run before anything is queued, each its own drop class with a warning
 * naming program, pass and binding, and the queue accepted dispatches wait in until the next
 * kiln_programs_record. The queue's arrays grow to the busiest frame and are then reused, so a
 * steady frame loop queues without allocating. */
#include "program_internal.h"
#include <kiln/core/utf8.h>
#include "program_forms.h"
#include "program_layout.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static kiln_dispatch_class drop(kiln_programs *p, kiln_dispatch_class cls, uint32_t program_id, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static kiln_dispatch_class drop(kiln_programs *p, kiln_dispatch_class cls, uint32_t program_id, const char *fmt, ...) {
    char detail[400];
    va_list args;
    va_start(args, fmt);
    kiln_utf8_vformat(detail, sizeof detail, fmt, args);
    va_end(args);
    char name[PROGRAM_NAME_MAX];
    kiln_log_add(&p->log, KILN_LOG_WARN, "program", "dropped dispatch of %s (%s): %s",
                 programs_name(p, program_id, name, sizeof name), kiln_dispatch_class_name(cls), detail);
    return cls;
}

/* "pass 2 (fs_blur), binding 1": the first pass that names the binding. */
static const char *binding_site(const program *prog, uint32_t binding, char *buf, size_t size) {
    uint32_t pass = prog->binding_pass[binding];
    if (pass == PROGRAM_NONE)
        snprintf(buf, size, "no pass, binding %u", binding);
    else
        snprintf(buf, size, "pass %u (%s), binding %u", pass, prog->passes[pass].entry, binding);
    return buf;
}

/* The highest byte a pass's windows reach: the spec's offset + (count - 1) * stride + length, a
 * zero-length window included (it reads nothing, but its offset must still lie in the blob). */
static uint64_t window_reach(const program_pass *pass) {
    return (uint64_t)pass->spec.uniform_offset + (uint64_t)(pass->iterations - 1) * pass->spec.repeat_uniform_stride +
           pass->spec.uniform_length;
}

/* Every binding-level check, class by class in the documented order. */
static kiln_dispatch_class check_bindings(kiln_programs *p, const program *prog, const uint32_t *ids,
                                          const kiln_texture_info **info) {
    char site[128];
    uint32_t pid = prog->id;
    for (uint32_t b = 0; b < prog->binding_count; b++) {
        info[b] = kiln_texture_registry_info(p->textures, ids[b]);
        if (!info[b])
            return drop(p, KILN_DISPATCH_UNKNOWN_TEXTURE, pid, "%s: unknown texture id %u",
                        binding_site(prog, b, site, sizeof site), ids[b]);
    }
    for (uint32_t b = 0; b < prog->binding_count; b++)
        if (info[b]->format != prog->bindings[b].format)
            return drop(p, KILN_DISPATCH_FORMAT_MISMATCH, pid, "%s: texture %u is %s; the binding is declared %s",
                        binding_site(prog, b, site, sizeof site), ids[b], kiln_texture_format_name(info[b]->format),
                        kiln_texture_format_name(prog->bindings[b].format));
    const kiln_texture_info *ref = info[prog->output_binding];
    for (uint32_t b = 0; b < prog->binding_count; b++) {
        const kiln_slot_shape *shape = &prog->bindings[b].shape;
        if (shape->kind != KILN_SHAPE_TARGET) continue;
        uint32_t w, h;
        program_resolve_extent(shape->extent, ref->width, ref->height, &w, &h, NULL);
        if (info[b]->width != w || info[b]->height != h)
            return drop(p, KILN_DISPATCH_TARGET_SIZE, pid,
                        "%s: texture %u is %ux%u; the Target resolves to %ux%u against the %ux%u output (binding %u)",
                        binding_site(prog, b, site, sizeof site), ids[b], info[b]->width, info[b]->height, w, h,
                        ref->width, ref->height, prog->output_binding);
    }
    for (uint32_t b = 0; b < prog->binding_count; b++) {
        kiln_texture_kind want = program_shape_texture_kind(prog->bindings[b].shape.kind);
        if (info[b]->kind != want)
            return drop(p, KILN_DISPATCH_WRONG_KIND, pid, "%s: texture %u is %s; the binding takes %s",
                        binding_site(prog, b, site, sizeof site), ids[b], program_texture_kind_text(info[b]->kind),
                        program_texture_kind_text(want));
    }
    for (uint32_t b = 0; b < prog->binding_count; b++)
        if (prog->binding_written[b] && info[b]->usage != KILN_USAGE_WRITABLE)
            return drop(p, KILN_DISPATCH_NOT_WRITABLE, pid,
                        "%s: texture %u is not Writable, and the program writes this binding",
                        binding_site(prog, b, site, sizeof site), ids[b]);
    return KILN_DISPATCH_OK;
}

/* "pass 1 (fs_mesh), geometry slot 0": the first draw pass that names the slot. */
static const char *geometry_site(const program *prog, uint32_t slot, char *buf, size_t size) {
    for (uint32_t i = 0; i < prog->pass_count; i++)
        if (prog->passes[i].draw && !prog->passes[i].sets && prog->passes[i].spec.draw.geometry == slot) {
            snprintf(buf, size, "pass %u (%s), geometry slot %u", i, prog->passes[i].entry, slot);
            return buf;
        }
    snprintf(buf, size, "no pass, geometry slot %u", slot);
    return buf;
}

static kiln_dispatch_class check_geometries(kiln_programs *p, const program *prog, const uint32_t *ids) {
    char site[128];
    for (uint32_t g = 0; g < prog->geometry_count; g++)
        if (!program_geometry_lookup(p, ids[g]))
            return drop(p, KILN_DISPATCH_UNKNOWN_GEOMETRY, prog->id, "%s: unknown geometry id %u",
                        geometry_site(prog, g, site, sizeof site), ids[g]);
    for (uint32_t g = 0; g < prog->geometry_count; g++) {
        const program_geometry *geometry = program_geometry_lookup(p, ids[g]);
        if (kiln_geometry_layout_equal(&geometry->layout, &prog->geometries[g])) continue;
        char have[160], want[160];
        return drop(p, KILN_DISPATCH_GEOMETRY_LAYOUT, prog->id,
                    "%s: geometry %u was created with layout %s; the slot declares %s",
                    geometry_site(prog, g, site, sizeof site), ids[g],
                    program_layout_text(&geometry->layout, have, sizeof have),
                    program_layout_text(&prog->geometries[g], want, sizeof want));
    }
    return KILN_DISPATCH_OK;
}

/* The dispatch's lists: one per list slot, each set live and under the layouts of every pass that
 * draws its list (one comparison per listed set per pass, nothing per draw). */
static kiln_dispatch_class check_lists(kiln_programs *p, const program *prog, const kiln_dispatch_desc *d) {
    const uint32_t *ids = d->draw_set_ids;
    size_t at = 0;
    for (uint32_t l = 0; l < d->draw_set_list_count; l++) {
        uint32_t length = d->draw_set_list_lengths ? d->draw_set_list_lengths[l] : 0;
        for (uint32_t k = 0; k < length; k++, at++) {
            const program_draw_set *set = ids ? program_draw_set_lookup(p, ids[at]) : NULL;
            if (!set)
                return drop(p, KILN_DISPATCH_UNKNOWN_DRAW_SET, prog->id, "draw-set list %u, entry %u: %s", l, k,
                            ids ? "names no live draw set" : "draw_set_ids is NULL");
            for (uint32_t i = 0; i < prog->pass_count; i++) {
                const program_pass *pass = &prog->passes[i];
                if (!pass->sets || pass->spec.draw_sets.list != l) continue;
                bool vertex = kiln_geometry_layout_equal(&set->vertex_layout, &pass->spec.draw_sets.vertex_layout);
                if (vertex && kiln_geometry_layout_equal(&set->instance_layout, &pass->spec.draw_sets.instance_layout))
                    continue;
                char have[160], want[160];
                const kiln_geometry_layout *a = vertex ? &set->instance_layout : &set->vertex_layout;
                const kiln_geometry_layout *b = vertex ? &pass->spec.draw_sets.instance_layout
                                                       : &pass->spec.draw_sets.vertex_layout;
                return drop(p, KILN_DISPATCH_DRAW_SET_LAYOUT, prog->id,
                            "pass %u (%s), draw-set list %u: draw set %u has the %s layout %s; the pass declares %s", i,
                            pass->entry, l, ids[at], vertex ? "instance" : "vertex",
                            program_layout_text(a, have, sizeof have), program_layout_text(b, want, sizeof want));
            }
        }
    }
    return KILN_DISPATCH_OK;
}

static kiln_dispatch_class check_passes(kiln_programs *p, const program *prog, const uint32_t *ids,
                                        size_t uniforms_size) {
    for (uint32_t i = 0; i < prog->pass_count; i++) {
        const program_pass *pass = &prog->passes[i];
        uint64_t reach = window_reach(pass);
        if (uniforms_size < reach)
            return drop(p, KILN_DISPATCH_UNIFORMS_SHORT, prog->id,
                        "pass %u (%s), uniform window: reaches byte %llu (offset %u, %u iteration%s of stride %u, "
                        "length %u); the blob has %zu bytes", i, pass->entry, (unsigned long long)reach,
                        pass->spec.uniform_offset, pass->iterations, pass->iterations == 1 ? "" : "s",
                        pass->spec.repeat_uniform_stride, pass->spec.uniform_length, uniforms_size);
    }
    for (uint32_t i = 0; i < prog->pass_count; i++) {
        const program_pass *pass = &prog->passes[i];
        if (pass->colourless || pass->output.kind != PROGRAM_SLOT_BINDING) continue;
        for (uint32_t n = 0; n < pass->spec.input_count; n++) {
            program_slot in = pass->inputs[n].slot;
            if (in.kind == PROGRAM_SLOT_BINDING && ids[in.index] == ids[pass->output.index])
                return drop(p, KILN_DISPATCH_INPUT_IS_OUTPUT, prog->id,
                            "pass %u (%s), binding %u: texture %u is bound as input %u and as the output (binding %u)",
                            i, pass->entry, in.index, ids[in.index], n, pass->output.index);
        }
    }
    return KILN_DISPATCH_OK;
}

/* Grows a queue array to hold `need` elements of `size` bytes, doubling. */
static bool reserve(void **items, size_t *capacity, size_t need, size_t size) {
    if (need <= *capacity) return true;
    size_t cap = *capacity ? *capacity : 16;
    while (cap < need) cap *= 2;
    void *grown = realloc(*items, cap * size);
    if (!grown) return false;
    *items = grown;
    *capacity = cap;
    return true;
}

static bool enqueue(program_queue *q, const kiln_dispatch_desc *d, const kiln_texture_info *ref) {
    size_t item_cap = q->capacity;
    uint32_t id_count = d->texture_count, geometry_count = d->geometry_count;
    size_t set_count = 0;
    for (uint32_t l = 0; d->draw_set_list_lengths && l < d->draw_set_list_count; l++)
        set_count += d->draw_set_list_lengths[l];
    const void *uniforms = d->uniforms;
    size_t uniforms_size = d->uniforms_size;
    if (!reserve((void **)&q->items, &item_cap, (size_t)q->count + 1, sizeof *q->items) ||
        !reserve((void **)&q->ids, &q->ids_capacity, q->ids_count + id_count, sizeof *q->ids) ||
        !reserve((void **)&q->geometry_ids, &q->geometry_ids_capacity, q->geometry_ids_count + geometry_count,
                 sizeof *q->geometry_ids) ||
        !reserve((void **)&q->list_starts, &q->list_starts_capacity, q->list_starts_count + d->draw_set_list_count + 1,
                 sizeof *q->list_starts) ||
        !reserve((void **)&q->set_ids, &q->set_ids_capacity, q->set_ids_count + set_count, sizeof *q->set_ids) ||
        !reserve((void **)&q->blob, &q->blob_capacity, q->blob_size + uniforms_size, 1)) {
        q->capacity = (uint32_t)item_cap;
        return false;
    }
    q->capacity = (uint32_t)item_cap;
    q->items[q->count++] = (program_dispatch){
        .program_id = d->program_id, .reference_width = ref->width, .reference_height = ref->height,
        .ids_at = q->ids_count, .geometries_at = q->geometry_ids_count, .lists_at = q->list_starts_count,
        .blob_at = q->blob_size,
        .blob_size = uniforms_size,
    };
    if (id_count) memcpy(q->ids + q->ids_count, d->texture_ids, id_count * sizeof *q->ids);
    q->ids_count += id_count;
    if (geometry_count)
        memcpy(q->geometry_ids + q->geometry_ids_count, d->geometry_ids, geometry_count * sizeof *q->geometry_ids);
    q->geometry_ids_count += geometry_count;
    for (uint32_t l = 0; l < d->draw_set_list_count; l++) {
        q->list_starts[q->list_starts_count++] = (uint32_t)q->set_ids_count;
        q->set_ids_count += d->draw_set_list_lengths ? d->draw_set_list_lengths[l] : 0;
    }
    q->list_starts[q->list_starts_count++] = (uint32_t)q->set_ids_count;
    if (set_count) memcpy(q->set_ids + q->set_ids_count - set_count, d->draw_set_ids, set_count * sizeof *q->set_ids);
    if (uniforms_size) memcpy(q->blob + q->blob_size, uniforms, uniforms_size);
    q->blob_size += uniforms_size;
    return true;
}

void program_queue_free(program_queue *q) {
    free(q->items);
    free(q->ids);
    free(q->geometry_ids);
    free(q->list_starts);
    free(q->set_ids);
    free(q->blob);
    *q = (program_queue){0};
}

kiln_dispatch_class kiln_programs_dispatch(kiln_programs *p, uint32_t program_id, const uint32_t *texture_ids,
                                           uint32_t texture_count, const void *uniforms, size_t uniforms_size) {
    kiln_dispatch_desc d = {.program_id = program_id, .texture_ids = texture_ids, .texture_count = texture_count,
                            .uniforms = uniforms, .uniforms_size = uniforms_size};
    return kiln_programs_dispatch_with(p, &d);
}

kiln_dispatch_class kiln_programs_dispatch_with(kiln_programs *p, const kiln_dispatch_desc *desc) {
    if (!p || !desc) return KILN_DISPATCH_UNKNOWN_PROGRAM;
    kiln_dispatch_desc d = *desc;
    if (!d.texture_ids) d.texture_count = 0;
    if (!d.geometry_ids) d.geometry_count = 0;
    if (!d.uniforms) d.uniforms_size = 0;
    uint32_t program_id = d.program_id;
    const uint32_t *texture_ids = d.texture_ids;
    uint32_t texture_count = d.texture_count;
    size_t uniforms_size = d.uniforms_size;
    program *prog = programs_lookup(p, program_id);
    if (!prog && program_id && program_id <= p->quarantine_count && p->quarantined[program_id - 1])
        return drop(p, KILN_DISPATCH_UNKNOWN_PROGRAM, program_id,
                    "program_id: program %u is quarantined: its pipelines did not build on the replacement device",
                    program_id);
    if (!prog)
        return drop(p, KILN_DISPATCH_UNKNOWN_PROGRAM, program_id, "program_id: program %u is not registered",
                    program_id);
    if (texture_count != prog->binding_count)
        return drop(p, KILN_DISPATCH_BINDING_COUNT, program_id,
                    "the dispatch names %u texture%s; the program declares %u binding%s",
                    texture_count, texture_count == 1 ? "" : "s", prog->binding_count,
                    prog->binding_count == 1 ? "" : "s");
    if (d.geometry_count != prog->geometry_count)
        return drop(p, KILN_DISPATCH_GEOMETRY_COUNT, program_id,
                    "the dispatch names %u geometr%s; the program declares %u geometry slot%s", d.geometry_count,
                    d.geometry_count == 1 ? "y" : "ies", prog->geometry_count, prog->geometry_count == 1 ? "" : "s");
    const kiln_texture_info **info = prog->binding_info;
    kiln_dispatch_class cls = check_bindings(p, prog, texture_ids, info);
    if (cls == KILN_DISPATCH_OK) cls = check_geometries(p, prog, d.geometry_ids);
    if (cls == KILN_DISPATCH_OK && d.draw_set_list_count != prog->list_count)
        cls = drop(p, KILN_DISPATCH_DRAW_SET_COUNT, program_id,
                   "the dispatch names %u draw-set list%s; the program's draw-sets passes draw %u",
                   d.draw_set_list_count, d.draw_set_list_count == 1 ? "" : "s", prog->list_count);
    if (cls == KILN_DISPATCH_OK) cls = check_lists(p, prog, &d);
    if (cls == KILN_DISPATCH_OK) cls = check_passes(p, prog, texture_ids, uniforms_size);
    if (cls != KILN_DISPATCH_OK) return cls;
    /* Last, so a dispatch wrong in itself reports that first; the frame's budget is a fact of
     * what else is queued. */
    if ((uint64_t)p->queue.graph_passes + prog->graph_passes > KILN_PROGRAMS_MAX_FRAME_PASSES)
        return drop(p, KILN_DISPATCH_FRAME_PASS_LIMIT, program_id,
                    "the dispatch records %u passes and %u are queued: a frame records at most %u (record the "
                    "queued ones with a frame first)", prog->graph_passes, p->queue.graph_passes,
                    KILN_PROGRAMS_MAX_FRAME_PASSES);
    /* The executor stages the frame's uniforms into a ring of PROGRAM_UNIFORM_INTACT_CALLS + 2
     * frames' worth in one buffer; past the device's largest buffer it could not be made. */
    uint64_t ring = ((uint64_t)p->queue.uniform_bytes + prog->uniform_bytes) * (PROGRAM_UNIFORM_INTACT_CALLS + 2);
    if (ring > p->gfx->limits.maxBufferSize)
        return drop(p, KILN_DISPATCH_DEVICE_LIMIT, program_id,
                    "the frame's uniforms would need a ring of %llu bytes, past the device's maxBufferSize (%llu): "
                    "record the queued dispatches with a frame first", (unsigned long long)ring,
                    (unsigned long long)p->gfx->limits.maxBufferSize);

    const kiln_texture_info *ref = info[prog->output_binding];
    if (!enqueue(&p->queue, &d, ref)) {
        char name[PROGRAM_NAME_MAX];
        kiln_log_add(&p->log, KILN_LOG_ERROR, "program", "dropped dispatch of %s: out of memory queueing it",
                     program_name(prog, name, sizeof name));
        return KILN_DISPATCH_CLASS_COUNT;
    }
    p->queue.graph_passes += prog->graph_passes;
    p->queue.uniform_bytes += prog->uniform_bytes;
    /* The timings report the sizes of the last accepted dispatch. */
    for (uint32_t i = 0; i < prog->pass_count; i++) {
        program_pass *pass = &prog->passes[i];
        if (pass->compute) {
            pass->width = ref->width;
            pass->height = ref->height;
            pass->divisor = 1;
        } else if (pass->depth_only)
            program_depth_extent(&prog->depths[pass->depth_slot], ref->width, ref->height, &pass->width,
                                 &pass->height, &pass->divisor);
        else
            program_slot_extent(prog, pass->output, ref->width, ref->height, &pass->width, &pass->height,
                                &pass->divisor);
    }
    return KILN_DISPATCH_OK;
}
