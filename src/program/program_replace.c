/* Device replacement (docs/guides/programs.md, "Device replacement"): after the device is lost,
 * a runtime on the new device with every registered program rebuilt under its id from what the
 * runtime kept (the authored WGSL, the validated plan) and its folded timings carried over. A
 * program whose pipelines do not build on the new device is quarantined: its id stays taken and
 * its dispatches warn-drop, while the others carry on. Transients and timing queries, which are
 * device-bound, start afresh; the registry's Writable textures come back cleared (moved by the
 * caller with kiln_texture_registry_move_to), and nothing is replayed: the next dispatch paints
 * them again. */
#include "program_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The descriptor a registered program was built from, pointing into the program (the entry
 * points into its passes' names, since the caller's strings are gone). */
static bool program_desc_of(const program *prog, kiln_program_desc *desc, kiln_pass_spec **passes) {
    *passes = calloc(prog->pass_count ? prog->pass_count : 1, sizeof **passes);
    if (!*passes) return false;
    for (uint32_t i = 0; i < prog->pass_count; i++) {
        (*passes)[i] = prog->passes[i].spec;
        (*passes)[i].entry_point = prog->passes[i].entry;
    }
    *desc = (kiln_program_desc){.label = prog->label, .wgsl = prog->wgsl, .binding_count = prog->binding_count,
                                .bindings = prog->bindings, .transient_count = prog->transient_count, .transients = prog->transients,
                                .geometry_count = prog->geometry_count, .geometries = prog->geometries,
                                .depth_transient_count = prog->depth_count, .depth_transients = prog->depths,
                                .buffer_count = prog->buffer_count, .buffers = prog->buffers,
                                .pass_count = prog->pass_count, .passes = *passes};
    return true;
}

/* What a program keeps across the replacement besides its plan: the last dispatch's sizes and the
 * folded timing samples of every pass. */
static void carry_timings(program *to, const program *from) {
    for (uint32_t i = 0; i < to->pass_count; i++) {
        program_pass *t = &to->passes[i];
        const program_pass *f = &from->passes[i];
        t->width = f->width;
        t->height = f->height;
        t->divisor = f->divisor;
        t->cpu_record_ns = f->cpu_record_ns;
        t->gpu_ns = f->gpu_ns;
        t->gpu_done = f->gpu_done; /* the fresh runtime's measurements are numbered after the old ones' */
    }
}

/* Rebuilds one program in `fresh`; NULL when its pipelines do not build there (err says why). */
static program *rebuild(kiln_programs *fresh, const program *old, kiln_program_error *err) {
    kiln_program_desc desc;
    kiln_pass_spec *passes = NULL;
    if (!program_desc_of(old, &desc, &passes)) {
        err->cls = KILN_PROGRAM_PIPELINE_FAILED;
        snprintf(err->message, sizeof err->message, "out of memory rebuilding the program");
        return NULL;
    }
    program *prog = program_compile(fresh, &desc, strlen(old->wgsl), err);
    free(passes);
    if (prog) {
        prog->id = old->id;
        carry_timings(prog, old);
    }
    return prog;
}

kiln_programs *kiln_programs_recreate(kiln_programs *old, kiln_gfx *gfx, kiln_resources *res,
                                      kiln_texture_registry *textures, kiln_error *err) {
    if (!old) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "kiln_programs_recreate needs the old runtime");
        return NULL;
    }
    kiln_programs *fresh = kiln_programs_create(gfx, res, textures, err);
    if (!fresh) return NULL;
    uint32_t count = old->programs.count;
    if (count) {
        fresh->quarantined = calloc(count, 1);
        fresh->quarantine_count = fresh->quarantined ? count : 0;
        if (!fresh->quarantined || !program_id_table_reserve(&fresh->programs, count)) {
            kiln_programs_destroy(fresh);
            kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "kiln_programs_recreate: out of memory for %u programs", count);
            return NULL;
        }
    }
    /* A carried measurement keeps its number, so the new device's ones must come after it. */
    if (fresh->gpu_timing && old->gpu_timing) fresh->gpu_timing->next_measurement = old->gpu_timing->next_measurement;
    /* Geometries come back under their ids from their CPU copies, realized on the new device when
     * next drawn (or by the upload queue). */
    program_geometry_move(fresh, old);
    program_instances_move(fresh, old);
    program_draw_sets_move(fresh, old);
    /* Ids are never reused, so the id sequence goes on from where it was, holes and all. */
    for (uint32_t i = 0; i < count; i++) {
        const program *prog = programs_lookup(old, i + 1);
        program *rebuilt = NULL;
        kiln_program_error why = {0};
        if (!prog) fresh->quarantined[i] = i < old->quarantine_count ? old->quarantined[i] : 0;
        else if (!(rebuilt = rebuild(fresh, prog, &why))) {
            fresh->quarantined[i] = 1;
            kiln_log_add(&fresh->log, KILN_LOG_WARN, "program",
                         "program %u is quarantined: its pipelines did not build on the replacement device (%s: %s)",
                         i + 1, kiln_program_class_name(why.cls), why.message);
        }
        program_id_table_add(&fresh->programs, rebuilt);
    }
    kiln_programs_destroy(old);
    return fresh;
}
