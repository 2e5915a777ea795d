/* What the checks of program validation share (internal to src/program): the context each check
 * reads, the pass predicates that tell the stages apart, the slot queries, and the class checks
 * themselves, one function per kiln_program_class, defined in the file of their idea:
 *   program_check_graph.c   the graph on its own: stages, layouts, divisors, buffers, compute, outputs
 *   program_check_draw.c    draw passes: geometry, depth slots, input lists and read order
 *   program_check_shader.c  the graph against the shader's declarations
 * and run in class order by program_validate.c, which says what each may rely on. */
#ifndef KILN_PROGRAM_CHECK_H
#define KILN_PROGRAM_CHECK_H

#include <stdio.h>
#include <string.h>

#include "program_forms.h"
#include "program_layout.h"
#include "program_refuse.h"
#include "program_validate.h"

typedef struct check_ctx {
    const kiln_program_desc *desc;
    const kiln_wgsl_module *module;
    kiln_program_caps caps;
    kiln_program_error *err;
} check_ctx;

/* A check's refusal: the class and message into the validation's error (program_refuse.h). */
#define FAIL(c, value, ...) REFUSE((c)->err, value, __VA_ARGS__)

/* ---- pass predicates ---------------------------------------------------------------------------- */

static inline const char *plural(uint32_t n) { return n == 1 ? "" : "s"; }

/* Until bad_input refuses an over-long list, checks before it read only the inputs that fit. */
static inline uint32_t input_count(const kiln_pass_spec *p) {
    return p->input_count < KILN_PROGRAM_MAX_INPUTS ? p->input_count : KILN_PROGRAM_MAX_INPUTS;
}

/* A pass that rasterises through an authored vertex stage: a draw, indirect or draw-sets pass. */
static inline bool is_draw(const kiln_pass_spec *p) {
    return p->stage == KILN_STAGE_DRAW || p->stage == KILN_STAGE_DRAW_INDEXED_INDIRECT ||
           p->stage == KILN_STAGE_DRAW_SETS;
}

/* A draw or indirect pass: one geometry slot, declared in kiln_draw_spec. */
static inline bool draws_geometry(const kiln_pass_spec *p) {
    return p->stage == KILN_STAGE_DRAW || p->stage == KILN_STAGE_DRAW_INDEXED_INDIRECT;
}

static inline bool is_compute(const kiln_pass_spec *p) {
    return p->stage == KILN_STAGE_COMPUTE;
}

static inline bool is_sets(const kiln_pass_spec *p) {
    return p->stage == KILN_STAGE_DRAW_SETS;
}

/* The two draw stages declare their depth, load and vertex entry point in their own structs. */
static inline bool names_depth(const kiln_pass_spec *p) {
    return is_sets(p) ? p->draw_sets.depth : is_draw(p) && p->draw.depth;
}

static inline uint32_t depth_slot_of(const kiln_pass_spec *p) {
    return is_sets(p) ? p->draw_sets.depth_slot : p->draw.depth_slot;
}

static inline kiln_pass_load load_of(const kiln_pass_spec *p) {
    return is_sets(p) ? p->draw_sets.load : p->draw.load;
}

static inline const char *vertex_entry_name(const kiln_pass_spec *p) {
    return is_sets(p) ? p->draw_sets.vertex_entry_point : p->draw.vertex_entry_point;
}

/* A draw pass with no colour output: it attaches its depth slot alone. */
static inline bool is_depth_only(const kiln_pass_spec *p) {
    return is_draw(p) && p->output.kind == KILN_OUTPUT_NONE;
}

/* The depth slot a pass attaches, or NULL. Indices must be in range (bad_depth). */
static inline const kiln_depth_spec *attached_depth(const kiln_program_desc *d, const kiln_pass_spec *p) {
    return names_depth(p) ? &d->depth_transients[depth_slot_of(p)] : NULL;
}

/* ---- slots: what a pass writes and what an input reads (program_check_slots.c) ------------------- */

/* Reads and writes are compared as the output slot names them (a binding index or a transient
 * index), so an input resolves to the same form: a PassOutput becomes whatever that pass writes
 * (None when it writes nothing). Indices must already be in range (bad_input). */
kiln_output_slot validate_input_slot(const kiln_program_desc *d, const kiln_input_slot *in);
bool validate_same_slot(kiln_output_slot a, kiln_output_slot b);
const char *validate_slot_name(kiln_output_slot slot, char *buf, size_t size);
kiln_texture_format validate_slot_format(const kiln_program_desc *d, kiln_output_slot slot);
/* A transient is read as Filtered { Clamp, Base }: only a Texel binding goes without a sampler. */
bool validate_slot_is_texel(const kiln_program_desc *d, kiln_output_slot slot);
/* The texture type the shader must declare for a slot; every slot but an array or volume binding
 * (a Target or Texture binding, a transient) reads as texture_2d. */
kiln_wgsl_handle validate_slot_texture(const kiln_program_desc *d, kiln_output_slot slot);
/* "binding 2, a TextureArray slot" (what decides the texture type), "binding 2, a Texel slot"
 * (what decides the sampler), "transient 0", "the output of pass 1, transient 0". */
const char *validate_describe_input(const kiln_program_desc *d, const kiln_input_slot *in, bool sampling,
                                    char *buf, size_t size);
/* The attribute of a layout at a @location, or NULL. */
const kiln_vertex_attribute_spec *validate_find_location(const kiln_geometry_layout *layout, uint32_t location);

/* ---- the class checks, in class order: each false with c->err filled --------------------------- */

bool program_check_supported(const check_ctx *c); /* unsupported_stage */
bool program_check_geometry_slots(const check_ctx *c); /* bad_geometry_slot */
bool program_check_draw_sets_layouts(const check_ctx *c); /* bad_draw_sets_layout */
bool program_check_divisors(const check_ctx *c); /* zero_divisor */
bool program_check_depth_sides(const check_ctx *c); /* bad_depth_side */
bool program_check_samples(const check_ctx *c); /* unresolvable_samples */
bool program_check_buffers(const check_ctx *c); /* bad_buffer */
bool program_check_buffer_uses(const check_ctx *c); /* bad_buffer_use */
bool program_check_compute_output(const check_ctx *c); /* compute_output */
bool program_check_workgroups(const check_ctx *c); /* bad_workgroups */
bool program_check_indirect(const check_ctx *c); /* bad_indirect */
bool program_check_outputs(const check_ctx *c); /* bad_output */
bool program_check_missing_output(const check_ctx *c); /* missing_output */
bool program_check_draw_geometry(const check_ctx *c); /* bad_geometry */
bool program_check_draw_depth(const check_ctx *c); /* bad_depth */
bool program_check_fixed_depth(const check_ctx *c); /* fixed_depth_with_output */
bool program_check_depth_extents(const check_ctx *c); /* depth_extent_mismatch */
bool program_check_depth_samples(const check_ctx *c); /* depth_samples_mismatch */
bool program_check_depth_only(const check_ctx *c); /* bad_depth_only */
bool program_check_lists(const check_ctx *c); /* bad_list */
bool program_check_inputs(const check_ctx *c); /* bad_input */
bool program_check_depth_inputs(const check_ctx *c); /* bad_depth_input */
bool program_check_read_order(const check_ctx *c); /* read_before_write */
bool program_check_own_output(const check_ctx *c); /* reads_own_output */
bool program_check_final_binding(const check_ctx *c); /* final_pass_not_binding */
bool program_check_reference_full(const check_ctx *c); /* reference_not_full */
bool program_check_repeats(const check_ctx *c); /* bad_repeat */
bool program_check_entry_points(const check_ctx *c); /* missing_entry_point */
bool program_check_vertex_entries(const check_ctx *c); /* missing_vertex_entry_point */
bool program_check_vertex_layouts(const check_ctx *c); /* vertex_layout_mismatch */
bool program_check_uniform_windows(const check_ctx *c); /* uniform_window_short */
bool program_check_shader_inputs(const check_ctx *c); /* input_mismatch */
bool program_check_buffer_bindings(const check_ctx *c); /* buffer_mismatch */
bool program_check_depth_only_color(const check_ctx *c); /* depth_only_returns_color */
bool program_check_frag_depth(const check_ctx *c); /* frag_depth_without_slot */
bool program_check_blendable(const check_ctx *c); /* pipeline_creation_failed */

#endif
