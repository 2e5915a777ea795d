/* The executor: kiln_programs_record turns the queued dispatches, in arrival order, into render
 * passes on the caller's encoder.
 *
 * Per record call the uniform windows of every queued pass iteration are copied into 256-byte
 * aligned slots of one staging array and uploaded with one queue write; each iteration binds its
 * slot by dynamic offset. Per dispatch the transients are placed in the pool by live range
 * (transient_pool.h); per pass and iteration one render pass: the first write a dispatch makes to
 * a slot clears it to transparent black and every later write loads, a Four output attaches its
 * samples and resolves in the last iteration of a writer the plan marked, and the draw is one
 * fullscreen triangle. Bind groups are cached per pass by the handles they bind, so a steady frame
 * loop records without creating objects or allocating.
 *
 * Where the device has timestamp queries, each pass of each dispatch is timed: its first render
 * pass writes a begin timestamp and its last an end one, every encoder segment's queries are
 * resolved into a kiln_timestamps readback at its end, and program_gpu_collect folds the values
 * that came back into the passes at the next record or timings call. Nothing waits for the GPU. */
#include "program_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

void program_executor_free(kiln_programs *p) {
    if (p->gpu_timing) kiln_timestamps_destroy(p->gpu_timing->timestamps);
    free(p->gpu_timing);
    p->gpu_timing = NULL;
    for (uint32_t i = 0; i < p->retired_count; i++) kiln_gfx_destroy_buffer(p->res, p->retired[i].buffer, NULL);
    free(p->retired);
    if (p->uniforms.id) kiln_gfx_destroy_buffer(p->res, p->uniforms, NULL);
    free(p->staging);
    p->retired = NULL;
    p->retired_count = p->retired_capacity = 0;
    p->uniforms = (kiln_buffer){0};
    p->staging = NULL;
}

/* ---- uniforms ------------------------------------------------------------------------------------ */

/* Copies every queued iteration's window into its slot (queued_uniform_bytes in all). The slots
 * are laid out dispatch by dispatch, pass by pass, iteration by iteration: the order
 * record_dispatch binds them in. */
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
                uint8_t *slot = p->staging + at;
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
static bool retire_uniforms(kiln_programs *p, kiln_error *err) {
    program_retired_buffer *grown =
        kiln_array_reserve(p->retired, &p->retired_capacity, p->retired_count + 1, sizeof *grown);
    if (!grown) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "programs: out of memory growing uniforms");
    p->retired = grown;
    p->retired[p->retired_count++] = (program_retired_buffer){p->uniforms, p->record_calls};
    p->uniforms = (kiln_buffer){0};
    return true;
}

static void release_retired(kiln_programs *p) {
    uint32_t kept = 0;
    for (uint32_t i = 0; i < p->retired_count; i++) {
        if (p->record_calls - p->retired[i].retired_at >= PROGRAM_UNIFORM_INTACT_CALLS)
            kiln_gfx_destroy_buffer(p->res, p->retired[i].buffer, NULL);
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
    p->record_calls++;
    release_retired(p);
    size_t total = queued_uniform_bytes(p);
    if (total > p->staging_capacity) {
        size_t cap = p->staging_capacity ? p->staging_capacity : 4096;
        while (cap < total) cap *= 2;
        uint8_t *grown = realloc(p->staging, cap);
        if (!grown) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "programs: out of memory staging uniforms");
        p->staging = grown;
        p->staging_capacity = cap;
    }
    uint64_t need = (uint64_t)total * (PROGRAM_UNIFORM_INTACT_CALLS + 2);
    if (need > p->uniforms_size) {
        if (p->uniforms.id && !retire_uniforms(p, err)) return false;
        uint64_t size = p->uniforms_size ? p->uniforms_size : 64 * 1024;
        while (size < need) size *= 2;
        p->uniforms = kiln_gfx_create_buffer(
            p->res, &(kiln_buffer_desc){.label = "program uniforms", .size = size,
                                        .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst}, err);
        p->uniforms_size = p->uniforms.id ? size : 0;
        p->uniforms_cursor = 0;
        if (!p->uniforms.id) return false;
    }
    if (p->uniforms_cursor + total > p->uniforms_size) p->uniforms_cursor = 0;
    *base = (size_t)p->uniforms_cursor;
    stage_uniforms(p);
    if (total && !kiln_gfx_write_buffer(p->res, p->uniforms, *base, p->staging, total, err)) return false;
    p->uniforms_cursor += total;
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

/* ---- one dispatch ---------------------------------------------------------------------------------- */

typedef struct record_state {
    kiln_programs *p;
    kiln_encoder *enc;
    uint32_t passes_in_encoder;
    bool encoder_failed;
    program_gpu_segment *segment;     /* the pieces timed in this encoder segment; NULL: untimed */
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

/* The timestamp writes of iteration `it` of a pass: a begin where the measurement's piece in this
 * segment starts (its first iteration, or the first after a split), an end where it stops (its
 * last iteration, or the last before the segment fills). NULL when untimed or in between. */
static const kiln_pass_timestamps *iteration_timestamps(record_state *s, const program *prog, uint32_t index,
                                                        uint32_t it, uint64_t measurement, program_gpu_piece **piece,
                                                        kiln_pass_timestamps *out) {
    program_gpu_segment *seg = s->segment;
    if (!seg) return NULL;
    uint32_t iterations = prog->passes[index].iterations;
    bool starts = it == 0 || s->passes_in_encoder == 0;
    bool stops = it + 1 == iterations || s->passes_in_encoder + 1 == PROGRAM_PASSES_PER_SUBMIT;
    if (starts) {
        *piece = &seg->pieces[seg->count++];
        **piece = (program_gpu_piece){.program_id = prog->id, .pass_index = index, .measurement = measurement,
                                      .first = it == 0};
    }
    if (!starts && !stops) return NULL;
    uint32_t k = (uint32_t)(*piece - seg->pieces);
    if (stops) (*piece)->last = it + 1 == iterations;
    *out = kiln_timestamps_pass(s->p->gpu_timing->timestamps, starts ? 2 * k : WGPU_QUERY_SET_INDEX_UNDEFINED,
                                stops ? 2 * k + 1 : WGPU_QUERY_SET_INDEX_UNDEFINED);
    return out;
}

static const uint32_t *dispatch_ids(const kiln_programs *p, const program_dispatch *d) {
    return p->queue.ids + d->ids_at;
}

/* Claims a pool texture for every virtual the program has, at this dispatch's reference size. */
static bool place_transients(kiln_programs *p, program *prog, const program_dispatch *d, kiln_error *err) {
    transient_pool_begin_dispatch(&p->pool);
    for (uint32_t v = 0; v < prog->virtual_count; v++) {
        const program_virtual *virt = &prog->virtuals[v];
        const kiln_transient_spec *t = &prog->transients[virt->transient];
        uint32_t w, h;
        program_resolve_extent(t->extent, d->reference_width, d->reference_height, &w, &h, NULL);
        kiln_samples samples = virt->resolve ? KILN_SAMPLES_ONE : t->samples;
        prog->physical[v] = transient_pool_claim(&p->pool, w, h, t->format, samples, virt->first, virt->last, err);
        if (prog->physical[v] == TRANSIENT_POOL_NONE) return false;
    }
    return true;
}

static const transient_texture *transient_texture_of(const kiln_programs *p, const program *prog, uint32_t virt) {
    return &p->pool.items[prog->physical[virt]];
}

/* The view and sampler input n binds: a binding's registry texture (uploaded if its CPU copy
 * changed) under a sampler for its declared wrap and mips, read linear when its format filters and
 * it was created Linear; a transient's pool texture (a Four one's resolve texture), clamped at the
 * base level, linear when its format filters. */
static bool input_resources(kiln_programs *p, const program *prog, const program_pass *pass, const uint32_t *ids,
                            uint32_t n, kiln_texture_view *view, kiln_sampler *sampler, kiln_error *err) {
    const program_input *in = &pass->inputs[n];
    kiln_texture_format format = program_slot_format(prog, in->slot);
    bool linear = kiln_texture_format_filterable(format);
    if (in->slot.kind == PROGRAM_SLOT_BINDING) {
        uint32_t id = ids[in->slot.index];
        if (!kiln_textures_gpu_view(p->textures, id, err)) return false;
        *view = kiln_textures_view_handle(p->textures, id, err);
        if (!view->id) return false;
        const kiln_texture_info *info = kiln_textures_info(p->textures, id);
        linear = linear && info && info->sampling == KILN_SAMPLING_LINEAR;
    } else {
        uint32_t t = in->slot.index;
        bool four = prog->transients[t].samples == KILN_SAMPLES_FOUR;
        *view = transient_texture_of(p, prog, four ? prog->resolve_virtual[t] : prog->main_virtual[t])->view;
    }
    *sampler = in->texel ? (kiln_sampler){0} : p->samplers[in->wrap][in->mips][linear];
    return true;
}

/* The pass's input bind group: found in its cache by the handles it binds, else created (the least
 * recently used entry makes room when the cache is full). */
static bool input_group(kiln_programs *p, program *prog, program_pass *pass, const uint32_t *ids, kiln_bind_group *out,
                        kiln_error *err) {
    uint32_t n_inputs = pass->spec.input_count;
    uint32_t key[2 * KILN_PROGRAM_MAX_INPUTS] = {0};
    kiln_binding_resource entries[2 * KILN_PROGRAM_MAX_INPUTS];
    uint32_t count = 0;
    for (uint32_t n = 0; n < n_inputs; n++) {
        kiln_texture_view view;
        kiln_sampler sampler;
        if (!input_resources(p, prog, pass, ids, n, &view, &sampler, err)) return false;
        key[2 * n] = view.id;
        key[2 * n + 1] = sampler.id;
        entries[count++] = (kiln_binding_resource){.binding = 2 * n, .view = view};
        if (sampler.id) entries[count++] = (kiln_binding_resource){.binding = 2 * n + 1, .sampler = sampler};
    }
    p->bind_stamp++;
    uint32_t oldest = 0;
    for (uint32_t i = 0; i < pass->cache_count; i++) {
        program_bind_entry *e = &pass->cache[i];
        if (memcmp(e->key, key, sizeof key) == 0) {
            e->used = p->bind_stamp;
            *out = e->group;
            return true;
        }
        if (e->used < pass->cache[oldest].used) oldest = i;
    }
    kiln_bind_group group = kiln_gfx_create_bind_group(p->res, "program inputs", pass->group1_layout, entries, count, err);
    if (!group.id) return false;
    program_bind_entry *slot;
    if (pass->cache_count < PROGRAM_BIND_CACHE) {
        slot = &pass->cache[pass->cache_count++];
    } else {
        slot = &pass->cache[oldest];
        kiln_gfx_destroy_bind_group(p->res, slot->group, NULL);
    }
    memcpy(slot->key, key, sizeof key);
    slot->group = group;
    slot->used = p->bind_stamp;
    *out = group;
    return true;
}

/* The pass's uniform bind group, rebuilt when the uniform buffer was regrown. */
static bool uniform_group(kiln_programs *p, program_pass *pass, kiln_error *err) {
    if (pass->group0.id && pass->group0_buffer.id == p->uniforms.id) return true;
    if (pass->group0.id) kiln_gfx_destroy_bind_group(p->res, pass->group0, NULL);
    kiln_binding_resource entry = {.binding = 0, .buffer = p->uniforms, .size = pass->uniform_bind_size};
    pass->group0 = kiln_gfx_create_bind_group(p->res, "program uniforms", pass->group0_layout, &entry, 1, err);
    pass->group0_buffer = pass->group0.id ? p->uniforms : (kiln_buffer){0};
    return pass->group0.id != 0;
}

/* The attachment views of a pass's output: a binding's registry texture; a transient's pool
 * texture; for a Four transient its samples' texture, plus the resolve texture when it resolves. */
static bool output_views(kiln_programs *p, const program *prog, const program_pass *pass, const uint32_t *ids,
                         WGPUTextureView *view, WGPUTextureView *resolve, kiln_error *err) {
    *resolve = NULL;
    if (pass->output.kind == PROGRAM_SLOT_BINDING) {
        *view = kiln_textures_gpu_view(p->textures, ids[pass->output.index], err);
        return *view != NULL;
    }
    uint32_t t = pass->output.index;
    *view = transient_texture_of(p, prog, prog->main_virtual[t])->raw_view;
    if (pass->resolves) *resolve = transient_texture_of(p, prog, prog->resolve_virtual[t])->raw_view;
    return true;
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

static bool record_pass(record_state *s, program *prog, uint32_t index, const program_dispatch *d, size_t *uniform_at,
                        kiln_error *err) {
    kiln_programs *p = s->p;
    const uint32_t *ids = dispatch_ids(p, d);
    program_pass *pass = &prog->passes[index];
    double start = now_ns();
    WGPUTextureView view, resolve;
    kiln_bind_group inputs = {0};
    if (!output_views(p, prog, pass, ids, &view, &resolve, err) || !uniform_group(p, pass, err)) return false;
    if (pass->spec.input_count && !input_group(p, prog, pass, ids, &inputs, err)) return false;
    uint32_t w, h;
    program_slot_extent(prog, pass->output, d->reference_width, d->reference_height, &w, &h, NULL);
    uint64_t measurement = p->gpu_timing ? ++p->gpu_timing->next_measurement : 0;
    program_gpu_piece *piece = NULL;
    for (uint32_t it = 0; it < pass->iterations; it++) {
        if (!make_room(s, err)) return false;
        kiln_color_attachment color =
            pass->clears && it == 0 ? kiln_color_cleared(view, 0, 0, 0, 0) : kiln_color_loaded(view);
        if (resolve && it + 1 == pass->iterations) {
            color.resolve_target = resolve;
            color.keep_samples = pass->keep_samples;
        }
        kiln_pass_timestamps writes;
        const kiln_pass_timestamps *timed = iteration_timestamps(s, prog, index, it, measurement, &piece, &writes);
        kiln_render_pass rp;
        if (!kiln_encoder_begin_render_pass_timed(s->enc, pass->entry, &color, 1, NULL, timed, &rp, err)) {
            if (piece) piece->measurement = 0;
            return false;
        }
        s->passes_in_encoder++;
        uint32_t offset = (uint32_t)*uniform_at;
        *uniform_at += pass->uniform_slot_size;
        bool ok = kiln_render_pass_set_pipeline(&rp, pass->pipeline, err) &&
                  kiln_render_pass_set_bind_group(&rp, 0, pass->group0, &offset, 1, err) &&
                  (!inputs.id || kiln_render_pass_set_bind_group(&rp, 1, inputs, NULL, 0, err));
        if (ok) {
            kiln_render_pass_set_viewport(&rp, 0, 0, (float)w, (float)h);
            kiln_render_pass_draw(&rp, 3, 1, 0, 0);
        }
        kiln_render_pass_end(&rp);
        if (!ok) {
            if (piece) piece->measurement = 0;
            return false;
        }
    }
    pass->cpu_record_ns = now_ns() - start;
    return true;
}

/* Records one dispatch. A failure stops its remaining passes and is logged naming the program and
 * pass; the dispatches after it still record. */
static bool record_dispatch(record_state *s, program *prog, const program_dispatch *d, size_t uniform_at,
                            kiln_error *err) {
    kiln_error e = {0};
    bool ok = place_transients(s->p, prog, d, &e);
    if (!ok) {
        kiln_log_add(&s->p->log, KILN_LOG_ERROR, "program", "program %u: transients: %s", prog->id, e.message);
        kiln_error_set(err, e.code, "program %u: transients: %s", prog->id, e.message);
        return false;
    }
    for (uint32_t i = 0; i < prog->pass_count; i++) {
        if (record_pass(s, prog, i, d, &uniform_at, &e)) continue;
        kiln_log_add(&s->p->log, KILN_LOG_ERROR, "program", "program %u: pass %u (%s): %s", prog->id, i,
                     prog->passes[i].entry, e.message);
        kiln_error_set(err, e.code, "program %u: pass %u (%s): %s", prog->id, i, prog->passes[i].entry, e.message);
        return false;
    }
    return true;
}

bool kiln_programs_record(kiln_programs *p, kiln_encoder *enc, kiln_error *err) {
    if (!p || !enc || !enc->raw)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "kiln_programs_record needs a runtime and an open encoder");
    if (enc->pass_open)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "kiln_programs_record: end the open pass first");
    program_gpu_collect(p);
    /* Registry textures updated on the CPU go up before any pass samples them. */
    if (!kiln_texture_registry_sync(p->textures, err)) return false;
    if (p->queue.count == 0) return true;

    size_t uniform_at = 0;
    bool ok = upload_uniforms(p, &uniform_at, err);
    record_state s = {.p = p, .enc = enc};
    kiln_error first = {0};
    bool dispatch_failed = false;
    if (ok) {
        begin_segment(&s);
        transient_pool_begin_record(&p->pool);
        for (uint32_t d = 0; d < p->queue.count && !s.encoder_failed; d++) {
            const program_dispatch *dispatch = &p->queue.items[d];
            program *prog = programs_lookup(p, dispatch->program_id);
            if (!prog) {
                kiln_log_add(&p->log, KILN_LOG_WARN, "program",
                             "dropped dispatch of program %u: the program was destroyed before it recorded",
                             dispatch->program_id);
                continue;
            }
            kiln_error e = {0};
            if (!record_dispatch(&s, prog, dispatch, uniform_at, &e) && !dispatch_failed) {
                first = e;
                dispatch_failed = true;
            }
            uniform_at += prog->uniform_bytes;
        }
        transient_pool_end_record(&p->pool);
        if (!s.encoder_failed) end_segment(&s);
    }
    p->queue.count = 0;
    p->queue.ids_count = 0;
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
