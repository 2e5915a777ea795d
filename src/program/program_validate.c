/* Register-time validation of an authored program: the declared pass graph on its own, then the
 * graph against the shader's declarations as the WGSL scanner read them.
 *
 * Each failure class of program.h is one check function, and the checks run in the enum's order,
 * each over the whole program, so the class a program reports does not depend on which pass holds
 * the fault: the earliest class wins, and within a class the first pass (or slot) in list order.
 * Every later check may rely on what earlier ones established: after unsupported_stage every enum
 * value is in range and every list pointer is readable, after bad_output and bad_input every index
 * names a declared slot, and after missing_entry_point every pass has its @fragment entry. */
#include "program_check.h"

typedef bool (*check_fn)(const check_ctx *c);

/* One function per class, in the order of kiln_program_class (empty_graph runs first, inline,
 * since every other check reads the pass list). */
static const check_fn checks[] = {
    program_check_supported,          /* unsupported_stage */
    program_check_geometry_slots,     /* bad_geometry_slot */
    program_check_draw_sets_layouts,  /* bad_draw_sets_layout */
    program_check_divisors,           /* zero_divisor */
    program_check_depth_sides,        /* bad_depth_side */
    program_check_samples,            /* unresolvable_samples */
    program_check_buffers,            /* bad_buffer */
    program_check_buffer_uses,        /* bad_buffer_use */
    program_check_compute_output,     /* compute_output */
    program_check_workgroups,         /* bad_workgroups */
    program_check_indirect,           /* bad_indirect */
    program_check_outputs,            /* bad_output */
    program_check_missing_output,     /* missing_output */
    program_check_draw_geometry,      /* bad_geometry */
    program_check_draw_depth,         /* bad_depth */
    program_check_fixed_depth,        /* fixed_depth_with_output */
    program_check_depth_extents,      /* depth_extent_mismatch */
    program_check_depth_samples,      /* depth_samples_mismatch */
    program_check_depth_only,         /* bad_depth_only */
    program_check_lists,              /* bad_list */
    program_check_inputs,             /* bad_input */
    program_check_depth_inputs,       /* bad_depth_input */
    program_check_read_order,         /* read_before_write */
    program_check_own_output,         /* reads_own_output */
    program_check_final_binding,      /* final_pass_not_binding */
    program_check_reference_full,     /* reference_not_full */
    program_check_repeats,            /* bad_repeat */
    program_check_entry_points,       /* missing_entry_point */
    program_check_vertex_entries,     /* missing_vertex_entry_point */
    program_check_vertex_layouts,     /* vertex_layout_mismatch */
    program_check_uniform_windows,    /* uniform_window_short */
    program_check_shader_inputs,      /* input_mismatch */
    program_check_buffer_bindings,    /* buffer_mismatch */
    program_check_depth_only_color,   /* depth_only_returns_color */
    program_check_frag_depth,         /* frag_depth_without_slot */
    program_check_blendable,          /* pipeline_creation_failed */
};
_Static_assert(sizeof checks / sizeof checks[0] == KILN_PROGRAM_PIPELINE_FAILED - KILN_PROGRAM_UNSUPPORTED_STAGE + 1,
               "one check per register class from unsupported_stage to pipeline_creation_failed");

bool kiln_program_validate(const kiln_program_desc *desc, const kiln_wgsl_module *module,
                           const kiln_program_caps *caps, kiln_program_error *err) {
    check_ctx c = {desc, module, caps ? *caps : (kiln_program_caps){0}, err};
    if (err) {
        err->cls = KILN_PROGRAM_OK;
        err->message[0] = '\0';
    }
    if (!desc) return REFUSE(err, KILN_PROGRAM_EMPTY_GRAPH, "no program descriptor");
    if (desc->pass_count == 0) return REFUSE(err, KILN_PROGRAM_EMPTY_GRAPH, "the program declares no passes");
    if (!desc->passes)
        return REFUSE(err, KILN_PROGRAM_EMPTY_GRAPH, "passes: %u declared but the list is NULL", desc->pass_count);
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
        if (!checks[i](&c)) return false;
    return true;
}

bool kiln_program_check_flat(const kiln_wgsl_module *m, kiln_program_error *err) {
    for (uint32_t i = 0; m && i < m->entry_count; i++) {
        const kiln_wgsl_entry *e = &m->entries[i];
        bool vertex = e->stage == KILN_WGSL_STAGE_VERTEX;
        if (!vertex && e->stage != KILN_WGSL_STAGE_FRAGMENT) continue;
        const kiln_wgsl_io *list = vertex ? e->outputs : e->inputs;
        uint32_t count = vertex ? e->output_count : e->input_count;
        for (uint32_t k = 0; k < count; k++) {
            if (!kiln_wgsl_io_missing_flat(m, &list[k])) continue;
            char type[96];
            return REFUSE(err, KILN_PROGRAM_INVALID_WGSL,
                          "%s:%u:%u: error: %s's %s @location(%d) is %s, an integer varying, and must be declared "
                          "@interpolate(flat)", m->source_name, list[k].line, list[k].col, e->name,
                          vertex ? "output" : "input", list[k].attrs.location,
                          kiln_wgsl_type_name(m, list[k].type, type, sizeof type));
        }
    }
    return true;
}

uint32_t kiln_program_list_count(const kiln_program_desc *desc) {
    uint32_t count = 0;
    for (uint32_t i = 0; desc && desc->passes && i < desc->pass_count; i++) {
        const kiln_pass_spec *p = &desc->passes[i];
        if (is_sets(p) && p->draw_sets.list >= count)
            count = p->draw_sets.list == UINT32_MAX ? UINT32_MAX : p->draw_sets.list + 1;
    }
    return count;
}
