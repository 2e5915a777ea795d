/* GPU error scopes around a dispatch's work: the record call's setup (the uniform upload and the
 * transients the graph creates) and each pass (its bind groups and commands, every iteration) run
 * inside a validation, an internal and an out-of-memory scope, so an error Dawn raises there is
 * attributed, not left to the uncaptured-error count: the message names the program, the error's
 * class, the phase ("setup") or the pass index and entry point, the textures the dispatch supplied
 * and the slots the pass resolved.
 *
 * Dispatch checks refuse every documented bad input before anything records, so what these
 * scopes catch is a backend failure that escaped them (an allocation the driver refuses, a Dawn
 * rule kiln does not model). Errors in encoder commands are Dawn's to report at the encoder's
 * finish, outside any pass; the graph's render passes carry the pass's name as their label so
 * that message names the pass too.
 *
 * The scopes are gfx's deferred ones (kiln_gfx_defer_scope): Dawn raises no device error while a
 * pass only records commands, so a set is pushed only when the pass makes a call that can raise
 * one (a bind group its cache lacks, a view, an upload, the 1024-pass submit) and at that call,
 * which catches what a set pushed at the pass's start would. A steady pass, all of whose groups
 * are cached, then costs no scope: three pushes and three pops a pass were about a fifth of a
 * 300-pass record on lavapipe. Setup always writes the uniforms, so its set is always pushed. */
#include "program_internal.h"
#include <kiln/core/utf8.h>

#include <stdio.h>
#include <string.h>

static const char *error_class(WGPUErrorType type) {
    switch (type) {
    case WGPUErrorType_Validation: return "validation";
    case WGPUErrorType_OutOfMemory: return "out-of-memory";
    case WGPUErrorType_Internal: return "internal";
    default: return "unknown";
    }
}

/* "bindings [4, 9]": the texture ids the dispatch supplied, in binding order. */
static void supplied_bindings(const kiln_programs *p, const program *prog, const program_dispatch *d, char *buf,
                              size_t size) {
    size_t at = (size_t)snprintf(buf, size, "bindings [");
    for (uint32_t b = 0; b < prog->binding_count && at < size; b++)
        at += (size_t)snprintf(buf + at, size - at, "%s%u", b ? ", " : "", p->queue.ids[d->ids_at + b]);
    if (at < size) snprintf(buf + at, size - at, "]");
}

static const char *slot_text(program_slot s, char *buf, size_t size) {
    snprintf(buf, size, "%s %u", s.kind == PROGRAM_SLOT_TRANSIENT ? "transient" : "binding", s.index);
    return buf;
}

/* "output binding 0, inputs [transient 1, binding 2]". */
static void resolved_slots(const program_pass *pass, char *buf, size_t size) {
    char slot[32];
    size_t at = (size_t)snprintf(buf, size, "output %s, inputs [", slot_text(pass->output, slot, sizeof slot));
    for (uint32_t n = 0; n < pass->spec.input_count && at < size; n++)
        at += (size_t)snprintf(buf + at, size - at, "%s%s", n ? ", " : "",
                               slot_text(pass->inputs[n].slot, slot, sizeof slot));
    if (at < size) snprintf(buf + at, size - at, "]");
}

void program_scope_open(kiln_programs *p) {
    kiln_gfx_defer_scope(p->gfx);
}

/* The scope's first error, without Dawn's call-site context lines. */
static const char *first_line(char *message) {
    char *newline = strchr(message, '\n');
    if (newline) *newline = '\0';
    return message;
}

/* "program 3 \"blur\", program 4": the programs of the queued dispatches, at most four named. */
static void queued_programs(const kiln_programs *p, char *buf, size_t size) {
    size_t at = 0;
    buf[0] = '\0';
    for (uint32_t d = 0; d < p->queue.count && d < 4 && at < size; d++) {
        char name[PROGRAM_NAME_MAX];
        programs_name(p, p->queue.items[d].program_id, name, sizeof name);
        at += (size_t)snprintf(buf + at, size - at, "%s%s", d ? ", " : "", name);
    }
    if (p->queue.count > 4 && at < size) snprintf(buf + at, size - at, ", ...");
}

bool program_scope_close_setup(kiln_programs *p, kiln_error *err) {
    kiln_gfx_scope_result scope;
    kiln_error popped = {0};
    if (!kiln_gfx_pop_deferred_scope(p->gfx, &scope, &popped))
        return kiln_error_set(err, popped.code, "programs: setup: %s", popped.message);
    if (!scope.failed) return true;
    /* Setup is the record call's, shared by every dispatch queued for it, so it names them all. */
    char names[4 * PROGRAM_NAME_MAX + 8];
    queued_programs(p, names, sizeof names);
    kiln_error_set(err, KILN_ERR_GPU, "programs: %s error in phase setup (the uniforms and transients of the dispatches "
                   "of %s): %s", error_class(scope.type), names, first_line(scope.message));
    kiln_log_add(&p->log, KILN_LOG_ERROR, "program", "programs: %s error in phase setup (the dispatches of %s): %s",
                 error_class(scope.type), names, scope.message);
    return false;
}

bool program_close_pass_scope(kiln_programs *p, kiln_error *err) {
    if (p->record.scope_step == PROGRAM_NONE) return true;
    const program_step *step = &p->record.steps[p->record.scope_step];
    p->record.scope_step = PROGRAM_NONE;
    kiln_gfx_scope_result scope;
    kiln_error popped = {0};
    const program *prog = step->prog;
    const program_pass *pass = &prog->passes[step->pass];
    if (!kiln_gfx_pop_deferred_scope(p->gfx, &scope, &popped))
        return kiln_error_set(err, popped.code, "pass %u (%s): %s", step->pass, pass->entry, popped.message);
    if (!scope.failed) return true;
    char bindings[256], slots[256];
    supplied_bindings(p, prog, &p->queue.items[step->dispatch], bindings, sizeof bindings);
    resolved_slots(pass, slots, sizeof slots);
    /* The executor prefixes the program and the pass, as for every failure of a step. */
    return kiln_error_set(err, KILN_ERR_GPU, "%s error in its bind groups and commands (%u iteration%s): %s; %s; %s",
                          error_class(scope.type), pass->iterations, pass->iterations == 1 ? "" : "s",
                          first_line(scope.message), bindings, slots);
}

void program_fault_fire(kiln_programs *p, program_fault_phase phase, uint32_t program_id, uint32_t pass) {
    const program_fault *f = &p->fault;
    if (f->phase != phase || (phase == PROGRAM_FAULT_PASS && (f->program_id != program_id || f->pass != pass))) return;
    p->fault = (program_fault){0};
    kiln_texture texture = kiln_resources_create_texture(
        p->res, &(kiln_texture_desc){.label = "injected fault", .width = 1, .height = 1,
                                     .format = WGPUTextureFormat_R8Unorm, .usage = WGPUTextureUsage_TextureBinding},
        NULL);
    if (!texture.id) return;
    /* Mip 1 of a one-level texture: Dawn's validation error, raised at the call. */
    kiln_texture_view view = kiln_resources_create_texture_view(
        p->res, texture, &(kiln_texture_view_desc){.label = "injected fault", .base_mip = 1, .mip_count = 1}, NULL);
    if (view.id) kiln_resources_destroy_texture_view(p->res, view, NULL);
    kiln_resources_destroy_texture(p->res, texture, NULL);
}
