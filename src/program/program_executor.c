/* The executor: kiln_programs_record turns the queued dispatches, in arrival order, into render
 * passes on the caller's encoder.
 *
 * Per record call the uniform windows of every queued pass iteration are copied into 256-byte
 * aligned slots of one staging array and uploaded with one queue write; each iteration binds its
 * slot by dynamic offset. The dispatches are then declared into the runtime's frame graph, one
 * graph pass per iteration (program_graph.c), compiled (which places the transients in the pool
 * and derives every clear, load, store and resolve), and executed dispatch by dispatch, in ranges
 * of at most PROGRAM_PASSES_PER_SUBMIT passes per encoder segment. Bind groups are cached per pass
 * by the handles they bind, so a steady frame loop records without creating objects or
 * allocating.
 *
 * Where the device has timestamp queries, each pass of each dispatch is timed: its first render
 * pass writes a begin timestamp and its last an end one, every encoder segment's queries are
 * resolved into a kiln_timestamps readback at its end, and program_gpu_collect folds the values
 * that came back into the passes at the next record or timings call. Nothing waits for the GPU. */
#include "program_internal.h"

#include <stdlib.h>
#include <string.h>

void program_executor_free(kiln_programs *p) {
    if (p->gpu_timing) kiln_timestamps_destroy(p->gpu_timing->timestamps);
    free(p->gpu_timing);
    p->gpu_timing = NULL;
    for (uint32_t i = 0; i < p->retired_count; i++) kiln_resources_destroy_buffer(p->res, p->retired[i].buffer, NULL);
    free(p->retired);
    if (p->uniforms.buffer.id) kiln_resources_destroy_buffer(p->res, p->uniforms.buffer, NULL);
    free(p->uniforms.staging);
    p->retired = NULL;
    p->retired_count = p->retired_capacity = 0;
    p->uniforms = (program_uniform_ring){0};
    free(p->write_failures.items);
    p->write_failures = (program_write_failures){0};
    free(p->record.steps);
    free(p->record.spans);
    free(p->record.dispatch_buffers);
    p->record = (program_record){0};
}

/* A record call starts with nothing declared, no step failed and no pass scope open; the arrays
 * keep their capacity, so a steady frame loop declares without allocating. */
static void begin_record(program_record *r) {
    r->step_count = r->dispatch_buffer_count = r->next_step = 0;
    r->failed_step = r->scope_step = PROGRAM_NONE;
}

/* ---- uniforms ------------------------------------------------------------------------------------ */

/* Copies every queued iteration's window into its slot (queued_uniform_bytes in all). The slots
 * are laid out dispatch by dispatch, pass by pass, iteration by iteration: the order
 * program_graph_declare hands them to the steps in. */
static void stage_uniforms(kiln_programs *p) {
    size_t at = 0;
    for (uint32_t d = 0; d < p->queue.count; d++) {
        const program_dispatch *dispatch = &p->queue.items[d];
        const program *prog = programs_lookup(p, dispatch->program_id);
        if (!prog) continue;
        for (uint32_t i = 0; i < prog->pass_count; i++) {
            const program_pass *pass = &prog->passes[i];
            uint32_t copy = pass->spec.uniform_length < pass->uniform_bind_size ? pass->spec.uniform_length
                                                                               : pass->uniform_bind_size;
            for (uint32_t it = 0; it < pass->iterations; it++) {
                uint8_t *slot = p->uniforms.staging + at;
                size_t from = pass->spec.uniform_offset + (size_t)it * pass->spec.repeat_uniform_stride;
                if (copy) memcpy(slot, p->queue.blob + dispatch->blob_at + from, copy);
                memset(slot + copy, 0, pass->uniform_slot_size - copy);
                at += pass->uniform_slot_size;
            }
        }
    }
}

static size_t queued_uniform_bytes(const kiln_programs *p) {
    size_t total = 0;
    for (uint32_t d = 0; d < p->queue.count; d++) {
        const program *prog = programs_lookup(p, p->queue.items[d].program_id);
        if (prog) total += prog->uniform_bytes;
    }
    return total;
}

/* Keeps the outgrown buffer while an encoder recorded by one of the calls the ring protects may be
 * unsubmitted: destroying it would fail that encoder's submit. */
static bool retire(kiln_programs *p, kiln_buffer buffer) {
    program_retired_buffer *grown =
        kiln_array_reserve(p->retired, &p->retired_capacity, p->retired_count + 1, sizeof *grown);
    if (!grown) return false;
    p->retired = grown;
    p->retired[p->retired_count++] = (program_retired_buffer){buffer, p->record_calls};
    return true;
}

void program_retire_buffer(kiln_programs *p, kiln_buffer buffer) {
    if (!retire(p, buffer)) kiln_resources_destroy_buffer(p->res, buffer, NULL);
}

static bool retire_uniforms(kiln_programs *p, kiln_error *err) {
    if (!retire(p, p->uniforms.buffer)) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "programs: out of memory growing uniforms");
    p->uniforms.buffer = (kiln_buffer){0};
    return true;
}

static void release_retired(kiln_programs *p) {
    uint32_t kept = 0;
    for (uint32_t i = 0; i < p->retired_count; i++) {
        if (p->record_calls - p->retired[i].retired_at >= PROGRAM_UNIFORM_INTACT_CALLS)
            kiln_resources_destroy_buffer(p->res, p->retired[i].buffer, NULL);
        else
            p->retired[kept++] = p->retired[i];
    }
    p->retired_count = kept;
}

/* Stages and uploads this call's windows into the ring; returns the byte offset of the first
 * slot. A call that does not fit before the ring's end starts again at 0, skipping a tail shorter
 * than one call; with the ring PROGRAM_UNIFORM_INTACT_CALLS + 2 calls long, the stretches of the
 * PROGRAM_UNIFORM_INTACT_CALLS calls before this one stay intact whichever encoders they were
 * recorded into. Writing over an older stretch is safe once its encoder was submitted: a queue
 * write lands after every submit made before it. */
static bool upload_uniforms(kiln_programs *p, size_t *base, kiln_error *err) {
    program_uniform_ring *ring = &p->uniforms;
    p->record_calls++;
    release_retired(p);
    size_t total = queued_uniform_bytes(p);
    if (total > ring->staging_capacity) {
        size_t cap = ring->staging_capacity ? ring->staging_capacity : 4096;
        while (cap < total) cap *= 2;
        uint8_t *grown = realloc(ring->staging, cap);
        if (!grown) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "programs: out of memory staging uniforms");
        ring->staging = grown;
        ring->staging_capacity = cap;
    }
    uint64_t need = (uint64_t)total * (PROGRAM_UNIFORM_INTACT_CALLS + 2);
    if (need > ring->size) {
        if (ring->buffer.id && !retire_uniforms(p, err)) return false;
        kiln_bind_group_cache_clear(p->uniform_groups); /* their groups bind the retired buffer */
        uint64_t size = ring->size ? ring->size : 64 * 1024;
        while (size < need) size *= 2;
        ring->buffer = kiln_resources_create_buffer(
            p->res, &(kiln_buffer_desc){.label = "program uniforms", .size = size,
                                        .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst}, err);
        ring->size = ring->buffer.id ? size : 0;
        ring->cursor = 0;
        if (!ring->buffer.id) return false;
    }
    if (ring->cursor + total > ring->size) ring->cursor = 0;
    *base = (size_t)ring->cursor;
    stage_uniforms(p);
    if (total && !kiln_resources_write_buffer(p->res, ring->buffer, *base, ring->staging, total, err)) return false;
    ring->cursor += total;
    return true;
}

/* ---- GPU timing ------------------------------------------------------------------------------------ */

void program_gpu_timing_init(kiln_programs *p) {
    if (!p->gfx->features.timestamp_query) return;
    kiln_error err = {0};
    program_gpu_timing *t = calloc(1, sizeof *t);
    if (!t) kiln_error_set(&err, KILN_ERR_OUT_OF_MEMORY, "out of memory");
    else t->timestamps = kiln_timestamps_create(p->res, 2 * PROGRAM_PASSES_PER_SUBMIT, &err);
    if (!t || !t->timestamps) {
        kiln_log_add(&p->log, KILN_LOG_WARN, "program", "passes will report no GPU time: %s", err.message);
        free(t);
        return;
    }
    t->next_token = 1;
    p->gpu_timing = t;
}

/* Adds one piece to its pass's measurement. A lost piece (its readback buffer was busy, its pass
 * failed, its timestamps read 0 because they were never written) drops the whole measurement: the
 * pass keeps its previous GPU time rather than report part of one. */
static void fold_piece(const kiln_programs *p, const program_gpu_piece *piece, uint64_t begin, uint64_t end) {
    program *prog = programs_lookup(p, piece->program_id);
    if (!piece->measurement || !prog || piece->pass_index >= prog->pass_count) return;
    program_pass *pass = &prog->passes[piece->pass_index];
    if (piece->measurement <= pass->gpu_done) return;
    if (!begin || !end || end < begin) {
        pass->gpu_open = 0;
        return;
    }
    if (piece->first) {
        pass->gpu_open = piece->measurement;
        pass->gpu_sum_ns = 0;
    } else if (pass->gpu_open != piece->measurement) {
        return;
    }
    pass->gpu_sum_ns += (double)(end - begin);
    if (piece->last) {
        pass->gpu_ns = pass->gpu_sum_ns;
        pass->gpu_done = piece->measurement;
        pass->gpu_open = 0;
    }
}

void program_gpu_collect(const kiln_programs *p) {
    program_gpu_timing *t = p ? p->gpu_timing : NULL;
    if (!t) return;
    uint64_t token;
    uint32_t n;
    while ((n = kiln_timestamps_poll(t->timestamps, t->values, 2 * PROGRAM_PASSES_PER_SUBMIT, &token))) {
        program_gpu_segment *seg = &t->segments[token % PROGRAM_GPU_SEGMENTS];
        if (seg->token != token) continue; /* its record was reused: a readback that arrived too late */
        for (uint32_t k = 0; k < seg->count && 2 * k + 1 < n; k++)
            fold_piece(p, &seg->pieces[k], t->values[2 * k], t->values[2 * k + 1]);
        seg->token = 0;
    }
}

/* ---- executing the graph ------------------------------------------------------------------------ */

typedef struct record_state {
    kiln_programs *p;
    kiln_encoder *enc;
    uint32_t passes_in_encoder;
    bool encoder_failed;
    program_gpu_segment *segment;     /* the pieces timed in this encoder segment; NULL: untimed */
    program_gpu_piece *piece;         /* the piece of the pass being timed */
    uint64_t measurement;             /* the measurement of the pass being timed */
} record_state;

static void begin_segment(record_state *s) {
    program_gpu_timing *t = s->p->gpu_timing;
    if (!t) return;
    s->segment = &t->segments[t->next_token % PROGRAM_GPU_SEGMENTS];
    s->segment->token = t->next_token;
    s->segment->count = 0;
}

/* Resolves the segment's queries into its encoder. A refused resolve (every readback buffer still
 * in flight because nobody pumped) only loses these measurements; the token is then reused. */
static void end_segment(record_state *s) {
    program_gpu_segment *seg = s->segment;
    s->segment = NULL;
    if (!seg || !seg->count) return;
    program_gpu_timing *t = s->p->gpu_timing;
    if (kiln_timestamps_resolve(t->timestamps, s->enc, 2 * seg->count, seg->token, NULL))
        t->next_token++;
    else
        seg->token = 0;
}

/* The timestamp writes of a step, placed before its range executes: a begin where the
 * measurement's piece in this segment starts (the pass's first iteration, or the first after a
 * split), an end where it stops (its last iteration, or the last before the segment fills); none
 * in between. `in_encoder` is the step's position in the segment. */
static void place_timestamps(record_state *s, uint32_t k, uint32_t in_encoder) {
    program_gpu_segment *seg = s->segment;
    if (!seg) return;
    const program_step *step = &s->p->record.steps[k];
    uint32_t iterations = step->prog->passes[step->pass].iterations;
    if (step->iteration == 0) s->measurement = ++s->p->gpu_timing->next_measurement;
    bool starts = step->iteration == 0 || in_encoder == 0;
    bool stops = step->iteration + 1 == iterations || in_encoder + 1 == PROGRAM_PASSES_PER_SUBMIT;
    if (starts) {
        s->piece = &seg->pieces[seg->count++];
        *s->piece = (program_gpu_piece){.program_id = step->prog->id, .pass_index = step->pass,
                                        .measurement = s->measurement, .first = step->iteration == 0};
    }
    if (!starts && !stops) {
        kiln_frame_graph_timestamps(s->p->graph, k, NULL);
        return;
    }
    uint32_t q = (uint32_t)(s->piece - seg->pieces);
    if (stops) s->piece->last = step->iteration + 1 == iterations;
    kiln_pass_timestamps writes = kiln_timestamps_pass(s->p->gpu_timing->timestamps,
                                                       starts ? 2 * q : WGPU_QUERY_SET_INDEX_UNDEFINED,
                                                       stops ? 2 * q + 1 : WGPU_QUERY_SET_INDEX_UNDEFINED);
    kiln_frame_graph_timestamps(s->p->graph, k, &writes);
}

/* Submits the encoder and continues in a fresh one once it holds PROGRAM_PASSES_PER_SUBMIT passes. */
static bool make_room(record_state *s, kiln_error *err) {
    if (s->passes_in_encoder < PROGRAM_PASSES_PER_SUBMIT) return true;
    end_segment(s);
    if (!kiln_encoder_finish_and_submit(s->enc, err) || !kiln_encoder_begin(s->enc, s->p->res, "programs", err)) {
        s->encoder_failed = true;
        return false;
    }
    s->passes_in_encoder = 0;
    begin_segment(s);
    return true;
}

/* The measurements a failed dispatch left in this segment are dropped: the pass that failed
 * measured part of itself, the ones after it were never begun. */
static void drop_pieces(record_state *s, uint32_t from) {
    for (uint32_t k = from; s->segment && k < s->segment->count; k++) s->segment->pieces[k].measurement = 0;
}

static bool step_failed(kiln_programs *p, const program_step *step, const kiln_error *why, kiln_error *err) {
    const program_pass *pass = &step->prog->passes[step->pass];
    char name[PROGRAM_NAME_MAX];
    program_name(step->prog, name, sizeof name);
    kiln_log_add(&p->log, KILN_LOG_ERROR, "program", "%s: pass %u (%s): %s", name, step->pass, pass->entry,
                 why->message);
    return kiln_error_set(err, why->code, "%s: pass %u (%s): %s", name, step->pass, pass->entry, why->message);
}

/* Executes one dispatch's steps, segment by segment. A failure stops its remaining passes and is
 * logged naming the program and pass; the dispatches after it still record. */
/* Every registry texture the span's dispatch binds, viewable now (realized and uploaded if its CPU
 * copy changed): checked before any of its passes records, so a texture removed after the
 * dispatch was accepted fails the dispatch whole. */
static bool dispatch_textures_ready(kiln_programs *p, const program_span *span, kiln_error *err) {
    if (span->count == 0) return true;
    const program_step *first = &p->record.steps[span->first];
    const program_dispatch *d = &p->queue.items[first->dispatch];
    for (uint32_t b = 0; b < first->prog->binding_count; b++) {
        kiln_error why = {0};
        char name[PROGRAM_NAME_MAX];
        if (!kiln_texture_registry_view_handle(p->textures, p->queue.ids[d->ids_at + b], &why).id)
            return kiln_error_set(err, why.code, "%s: binding %u: %s; the dispatch records nothing",
                                  program_name(first->prog, name, sizeof name), b, why.message);
    }
    return true;
}

/* Every geometry the dispatch draws, still live and realized on the GPU: a geometry destroyed after
 * the dispatch was accepted drops it whole, as the unknown_geometry drop class would have. */
static bool dispatch_geometries_ready(kiln_programs *p, const program_span *span, kiln_error *err) {
    if (span->count == 0) return true;
    const program_step *first = &p->record.steps[span->first];
    const program_dispatch *d = &p->queue.items[first->dispatch];
    for (uint32_t g = 0; g < first->prog->geometry_count; g++) {
        uint32_t id = p->queue.geometry_ids[d->geometries_at + g];
        kiln_error why = {0};
        char name[PROGRAM_NAME_MAX];
        program_name(first->prog, name, sizeof name);
        if (!program_geometry_lookup(p, id))
            return kiln_error_set(err, KILN_ERR_INVALID_HANDLE,
                                  "dropped dispatch of %s (%s): geometry slot %u: geometry %u was destroyed after the "
                                  "dispatch was accepted; the dispatch records nothing", name,
                                  kiln_dispatch_class_name(KILN_DISPATCH_UNKNOWN_GEOMETRY), g, id);
        if (!program_geometry_realize(p, id, &why))
            return kiln_error_set(err, why.code, "%s: geometry slot %u: %s; the dispatch records nothing", name, g,
                                  why.message);
    }
    /* Every listed set, still live, with every buffer it holds on the GPU (one lookup per distinct
     * buffer per listed set). */
    const uint32_t *starts = p->queue.list_starts + d->lists_at;
    for (uint32_t l = 0; l < first->prog->list_count; l++)
        for (uint32_t k = starts[l]; k < starts[l + 1]; k++) {
            uint32_t id = p->queue.set_ids[k];
            const program_draw_set *set = program_draw_set_lookup(p, id);
            kiln_error why = {0};
            char name[PROGRAM_NAME_MAX];
            program_name(first->prog, name, sizeof name);
            if (!set)
                return kiln_error_set(err, KILN_ERR_INVALID_HANDLE,
                                      "dropped dispatch of %s (%s): draw-set list %u: draw set %u was destroyed after "
                                      "the dispatch was accepted; the dispatch records nothing", name,
                                      kiln_dispatch_class_name(KILN_DISPATCH_UNKNOWN_DRAW_SET), l, id);
            if (!program_draw_set_realize(p, set, &why))
                return kiln_error_set(err, why.code, "%s: draw-set list %u, draw set %u: %s; the dispatch records "
                                      "nothing", name, l, id, why.message);
        }
    return true;
}

static bool execute_dispatch(record_state *s, const program_span *span, kiln_error *err) {
    kiln_programs *p = s->p;
    kiln_error missing = {0};
    if (!dispatch_textures_ready(p, span, &missing) || !dispatch_geometries_ready(p, span, &missing)) {
        kiln_log_add(&p->log, KILN_LOG_ERROR, "program", "%s", missing.message);
        *err = missing;
        return false;
    }
    /* A dispatch that could not be declared whole (a registry texture it names is gone) records
     * none of its passes: the spec's rejected dispatch records nothing, and its output keeps its
     * prior content rather than holding the passes before the failure. */
    if (span->failed) {
        kiln_log_add(&p->log, KILN_LOG_ERROR, "program", "%s", span->error.message);
        *err = span->error;
        return false;
    }
    uint32_t k = span->first, end = span->first + span->count;
    uint32_t first_piece = s->segment ? s->segment->count : 0;
    while (k < end) {
        kiln_error e = {0};
        if (!make_room(s, &e)) return step_failed(p, &p->record.steps[k], &e, err);
        if (s->passes_in_encoder == 0) first_piece = 0;
        uint32_t room = PROGRAM_PASSES_PER_SUBMIT - s->passes_in_encoder;
        uint32_t count = end - k < room ? end - k : room;
        for (uint32_t j = 0; j < count; j++) place_timestamps(s, k + j, s->passes_in_encoder + j);
        p->record.failed_step = PROGRAM_NONE;
        p->record.next_step = k;
        if (!kiln_frame_graph_execute_range(p->graph, s->enc, k, count, &e)) {
            program_close_pass_scope(p, NULL); /* a render pass that could not begin left it open */
            drop_pieces(s, first_piece);
            /* A record function's own failure names its step; a render pass the graph could not
             * begin is the first of the range not yet recorded, and only the graph knows why. */
            if (p->record.failed_step != PROGRAM_NONE) return step_failed(p, &p->record.steps[p->record.failed_step], &p->record.step_error, err);
            return step_failed(p, &p->record.steps[p->record.next_step], &e, err);
        }
        s->passes_in_encoder += count;
        k += count;
    }
    return true;
}

/* Compiles the declared frame; a failure (a transient Dawn refuses) fails every dispatch. Steps
 * are executed by their index as an order position, which holds because every step writes the
 * one exported ordering buffer: none is culled and they run as declared. Checked, not assumed. */
static bool compile_graph(kiln_programs *p, kiln_error *err) {
    kiln_error e = {0};
    if (!kiln_frame_graph_compile(p->graph, &e)) {
        kiln_log_add(&p->log, KILN_LOG_ERROR, "program", "programs: transients: %s", e.message);
        return kiln_error_set(err, e.code, "programs: transients: %s", e.message);
    }
    uint32_t count;
    const uint32_t *order = kiln_frame_graph_order(p->graph, &count);
    bool declared_order = count == kiln_frame_graph_pass_count(p->graph);
    for (uint32_t k = 0; k < count && declared_order; k++) declared_order = order[k] == k;
    if (!declared_order)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "programs: the steps did not keep their declared order");
    return true;
}

/* Notes every texture the failed dispatch writes, so readers of other textures are not blamed. */
static void note_write_failure(kiln_programs *p, const program *prog, const program_dispatch *dispatch,
                               const kiln_error *e) {
    program_write_failures *failures = &p->write_failures;
    failures->dispatches++;
    for (uint32_t b = 0; b < prog->binding_count; b++) {
        if (!prog->binding_written[b]) continue;
        uint32_t id = p->queue.ids[dispatch->ids_at + b];
        if (kiln_programs_write_failure(p, id)) continue;
        program_write_failure *grown =
            kiln_array_reserve(failures->items, &failures->capacity, failures->count + 1, sizeof *grown);
        if (!grown) return; /* the record still returns false with the first error */
        failures->items = grown;
        grown[failures->count++] = (program_write_failure){.texture_id = id, .error = *e};
    }
}

static void execute_queue(kiln_programs *p, record_state *s, kiln_error *first, bool *failed) {
    const program *last = NULL;
    for (uint32_t d = 0; d < p->queue.count && !s->encoder_failed; d++) {
        const program_dispatch *dispatch = &p->queue.items[d];
        const program *prog = programs_lookup(p, dispatch->program_id);
        if (!prog) {
            kiln_log_add(&p->log, KILN_LOG_WARN, "program",
                         "dropped dispatch of program %u: the program was destroyed before it recorded",
                         dispatch->program_id);
            continue;
        }
        last = prog;
        kiln_error e = {0};
        if (!execute_dispatch(s, &p->record.spans[d], &e)) {
            note_write_failure(p, prog, dispatch, &e);
            if (!*failed) *first = e;
            *failed = true;
        }
    }
    if (last) p->textures_last_dispatch = program_graph_dispatch_textures(p, last);
}

bool kiln_programs_record(kiln_programs *p, kiln_encoder *enc, kiln_error *err) {
    if (!p || !enc || !enc->raw)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "kiln_programs_record needs a runtime and an open encoder");
    if (enc->pass_open)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "kiln_programs_record: end the open pass first");
    program_gpu_collect(p);
    /* The failures stay readable until a record with dispatches of its own replaces them, so a
     * read after the frame that failed still learns why. */
    if (p->queue.count) p->write_failures.count = p->write_failures.dispatches = 0;
    /* Registry textures updated on the CPU go up before any pass samples them. */
    if (!kiln_texture_registry_sync(p->textures, err)) return false;
    program_geometry_upload_queue(p);
    program_instances_upload_queue(p);
    if (p->queue.count == 0) return true;

    size_t uniform_at = 0;
    begin_record(&p->record);
    program_scope_open(p);
    program_fault_fire(p, PROGRAM_FAULT_SETUP, 0, 0);
    bool ok = upload_uniforms(p, &uniform_at, err) && program_graph_declare(p, uniform_at, err) &&
              compile_graph(p, err);
    kiln_error setup = {0};
    if (!program_scope_close_setup(p, &setup) && ok) {
        if (err) *err = setup;
        ok = false;
    }
    record_state s = {.p = p, .enc = enc};
    kiln_error first = {0};
    bool dispatch_failed = false;
    if (ok) {
        begin_segment(&s);
        execute_queue(p, &s, &first, &dispatch_failed);
        if (!s.encoder_failed) end_segment(&s);
    }
    p->queue.count = 0;
    p->queue.graph_passes = 0;
    p->queue.uniform_bytes = 0;
    p->queue.ids_count = 0;
    p->queue.geometry_ids_count = 0;
    p->queue.list_starts_count = 0;
    p->queue.set_ids_count = 0;
    p->queue.blob_size = 0;
    if (!ok) return false;
    if (dispatch_failed && err) *err = first;
    return !dispatch_failed;
}
bool kiln_programs_frame(kiln_programs *p, kiln_error *err) {
    if (!p) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "kiln_programs_frame needs a runtime");
    kiln_encoder enc;
    if (!kiln_encoder_begin(&enc, p->res, "programs", err)) return false;
    bool recorded = kiln_programs_record(p, &enc, err);
    if (!enc.raw) return false; /* a mid-frame submit failed: nothing left to submit */
    if (!kiln_encoder_finish_and_submit(&enc, recorded ? err : NULL)) return false;
    return recorded;
}

bool kiln_programs_queue_uses_texture(const kiln_programs *p, uint32_t texture_id) {
    if (!p) return false;
    for (uint32_t d = 0; d < p->queue.count; d++) {
        const program *prog = programs_lookup(p, p->queue.items[d].program_id);
        for (uint32_t b = 0; prog && b < prog->binding_count; b++)
            if (p->queue.ids[p->queue.items[d].ids_at + b] == texture_id) return true;
    }
    return false;
}

bool kiln_programs_queue_uses_geometry(const kiln_programs *p, uint32_t geometry_id) {
    if (!p) return false;
    for (uint32_t d = 0; d < p->queue.count; d++) {
        const program *prog = programs_lookup(p, p->queue.items[d].program_id);
        for (uint32_t g = 0; prog && g < prog->geometry_count; g++)
            if (p->queue.geometry_ids[p->queue.items[d].geometries_at + g] == geometry_id) return true;
    }
    return false;
}

/* Whether the set, or one holding the instance buffer (instances_id non-zero), is listed by a
 * queued dispatch. */
static bool queue_lists(const kiln_programs *p, uint32_t draw_set_id, uint32_t instances_id) {
    if (!p) return false;
    for (uint32_t d = 0; d < p->queue.count; d++) {
        const program *prog = programs_lookup(p, p->queue.items[d].program_id);
        if (!prog || !prog->list_count) continue;
        const uint32_t *starts = p->queue.list_starts + p->queue.items[d].lists_at;
        for (uint32_t k = starts[0]; k < starts[prog->list_count]; k++) {
            uint32_t id = p->queue.set_ids[k];
            if (!instances_id && id == draw_set_id) return true;
            const program_draw_set *set = instances_id ? program_draw_set_lookup(p, id) : NULL;
            for (uint32_t h = 0; set && h < set->instance_hold_count; h++)
                if (set->instance_holds[h].id == instances_id) return true;
        }
    }
    return false;
}

bool kiln_programs_queue_uses_draw_set(const kiln_programs *p, uint32_t draw_set_id) {
    return draw_set_id && queue_lists(p, draw_set_id, 0);
}

bool kiln_programs_queue_uses_instances(const kiln_programs *p, uint32_t instances_id) {
    return instances_id && queue_lists(p, 0, instances_id);
}

const char *kiln_programs_write_failure(const kiln_programs *p, uint32_t texture_id) {
    if (!p) return NULL;
    for (uint32_t i = 0; i < p->write_failures.count; i++)
        if (p->write_failures.items[i].texture_id == texture_id) return p->write_failures.items[i].error.message;
    return NULL;
}

uint32_t kiln_programs_failed_dispatches(const kiln_programs *p) { return p ? p->write_failures.dispatches : 0; }

bool kiln_programs_frame_for_read(kiln_programs *p, uint32_t texture_id, kiln_error *err) {
    kiln_error frame_err = {0};
    bool recorded = kiln_programs_frame(p, &frame_err);
    const char *writer = kiln_programs_write_failure(p, texture_id);
    if (writer) return kiln_error_set(err, KILN_ERR_GPU, "%s", writer);
    if (!recorded && kiln_programs_failed_dispatches(p) == 0) {
        if (err) *err = frame_err;
        return false;
    }
    return true;
}
