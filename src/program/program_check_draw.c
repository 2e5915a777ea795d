/* The checks of a program's draw passes and input lists (program_check.h): geometry and depth
 * slots (extents, samples, depth-only passes), draw-sets lists, what each input reads and whether
 * an earlier pass wrote it, and the final pass's binding. */
#include "program_check.h"

bool program_check_draw_geometry(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        if (draws_geometry(p) && p->draw.geometry >= d->geometry_count)
            return FAIL(c, KILN_PROGRAM_BAD_GEOMETRY,
                        "pass %u: geometry slot %u is out of range (the program declares %u geometry slot%s)", i,
                        p->draw.geometry, d->geometry_count, plural(d->geometry_count));
    }
    return true;
}

bool program_check_draw_depth(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        if (names_depth(p) && depth_slot_of(p) >= d->depth_transient_count)
            return FAIL(c, KILN_PROGRAM_BAD_DEPTH,
                        "pass %u: depth slot %u is out of range (the program declares %u depth transient%s)", i,
                        depth_slot_of(p), d->depth_transient_count, plural(d->depth_transient_count));
    }
    return true;
}

/* A depth attachment must be the size of the colour attachment it tests for, which for a Fixed
 * slot is not known until a dispatch binds the output. */
bool program_check_fixed_depth(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        const kiln_depth_spec *depth = attached_depth(d, p);
        if (depth && !is_depth_only(p) && depth->extent.fixed)
            return FAIL(c, KILN_PROGRAM_FIXED_DEPTH,
                        "pass %u: depth slot %u is Fixed (side %u) beside a colour output; a Fixed slot attaches "
                        "only under a depth-only pass", i, depth_slot_of(p), depth->extent.side);
    }
    return true;
}

/* The extent of the colour output a pass writes: a Target binding's, or a transient's. */
static kiln_slot_extent output_extent(const kiln_program_desc *d, kiln_output_slot out) {
    return out.kind == KILN_OUTPUT_BINDING ? d->bindings[out.index].shape.extent : d->transients[out.index].extent;
}

static kiln_samples output_samples(const kiln_program_desc *d, kiln_output_slot out) {
    return out.kind == KILN_OUTPUT_TRANSIENT ? d->transients[out.index].samples : KILN_SAMPLES_ONE;
}

/* Full and Divided { 1 } resolve alike, so they count as one extent. */
static uint32_t effective_divisor(kiln_slot_extent e) {
    return e.divided ? e.divisor : 1;
}

static const char *extent_text(kiln_slot_extent e, char *buf, size_t size) {
    if (e.divided) snprintf(buf, size, "Divided %u", e.divisor);
    else snprintf(buf, size, "Full");
    return buf;
}

bool program_check_depth_extents(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    char slot[48], want[32], got[32];
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        const kiln_depth_spec *depth = attached_depth(d, p);
        if (!depth || is_depth_only(p)) continue;
        kiln_slot_extent out = output_extent(d, p->output);
        if (effective_divisor(depth->extent.output) != effective_divisor(out))
            return FAIL(c, KILN_PROGRAM_DEPTH_EXTENT,
                        "pass %u: depth slot %u is Output(%s) beside %s, which is %s; a depth slot beside a colour "
                        "output declares Output of that output's extent", i, depth_slot_of(p),
                        extent_text(depth->extent.output, got, sizeof got), validate_slot_name(p->output, slot, sizeof slot),
                        extent_text(out, want, sizeof want));
    }
    return true;
}

bool program_check_depth_samples(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    char slot[48];
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        const kiln_depth_spec *depth = attached_depth(d, p);
        if (!depth || is_depth_only(p)) continue;
        kiln_samples out = output_samples(d, p->output);
        if (depth->samples != out)
            return FAIL(c, KILN_PROGRAM_DEPTH_SAMPLES,
                        "pass %u: depth slot %u has samples %s beside %s, which has %s; the attachments of one pass "
                        "share one sample count", i, depth_slot_of(p),
                        program_form_name(&PROGRAM_SAMPLES, depth->samples), validate_slot_name(p->output, slot, sizeof slot),
                        program_form_name(&PROGRAM_SAMPLES, out));
    }
    return true;
}

/* A depth-only pass has no colour output for a blend or a colour load to describe, and one that
 * named no depth slot would attach nothing at all. */
bool program_check_depth_only(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (!is_depth_only(p)) continue;
        if (!names_depth(p))
            return FAIL(c, KILN_PROGRAM_BAD_DEPTH_ONLY,
                        "pass %u: a depth-only pass (output None) must name a depth slot to write", i);
        if (is_sets(p) && p->draw_sets.depth_write == KILN_DEPTH_TEST_ONLY)
            return FAIL(c, KILN_PROGRAM_BAD_DEPTH_ONLY,
                        "pass %u: a depth-only pass declares depth write Write, not TestOnly (it would write nothing)",
                        i);
        if (p->blend != KILN_PROGRAM_BLEND_REPLACE)
            return FAIL(c, KILN_PROGRAM_BAD_DEPTH_ONLY,
                        "pass %u: a depth-only pass declares blend Replace, not %s (it has no colour output)", i,
                        program_form_name(&PROGRAM_BLENDS, p->blend));
        if (load_of(p) != KILN_LOAD_LOAD)
            return FAIL(c, KILN_PROGRAM_BAD_DEPTH_ONLY,
                        "pass %u: a depth-only pass declares load Load, not Clear (it has no colour output to clear)",
                        i);
    }
    return true;
}

bool program_check_inputs(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        if (p->input_count > KILN_PROGRAM_MAX_INPUTS)
            return FAIL(c, KILN_PROGRAM_BAD_INPUT, "pass %u: %u inputs declared; a pass reads at most %d", i,
                        p->input_count, KILN_PROGRAM_MAX_INPUTS);
        for (uint32_t n = 0; n < p->input_count; n++) {
            const kiln_input_slot *in = &p->inputs[n];
            if (in->kind == KILN_INPUT_BINDING && in->index >= d->binding_count)
                return FAIL(c, KILN_PROGRAM_BAD_INPUT,
                            "pass %u: input %u reads binding %u, which is out of range (the program declares %u "
                            "binding%s)", i, n, in->index, d->binding_count, plural(d->binding_count));
            if (in->kind == KILN_INPUT_TRANSIENT && in->index >= d->transient_count)
                return FAIL(c, KILN_PROGRAM_BAD_INPUT,
                            "pass %u: input %u reads transient %u, which is out of range (the program declares %u "
                            "transient%s)", i, n, in->index, d->transient_count, plural(d->transient_count));
            if (in->kind == KILN_INPUT_DEPTH && in->index >= d->depth_transient_count)
                return FAIL(c, KILN_PROGRAM_BAD_INPUT,
                            "pass %u: input %u reads depth slot %u, which is out of range (the program declares %u "
                            "depth transient%s)", i, n, in->index, d->depth_transient_count,
                            plural(d->depth_transient_count));
            if (in->kind == KILN_INPUT_PASS_OUTPUT && in->index >= d->pass_count)
                return FAIL(c, KILN_PROGRAM_BAD_INPUT,
                            "pass %u: input %u reads the output of pass %u, which is out of range (the program "
                            "declares %u pass%s)", i, n, in->index, d->pass_count, d->pass_count == 1 ? "" : "es");
        }
    }
    return true;
}

/* The list count is one more than the highest list a pass names, and every list below it is named:
 * a dispatch never carries a list nothing draws. */
bool program_check_lists(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    uint32_t count = kiln_program_list_count(d), sets = 0, highest = 0;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        sets += is_sets(p);
        if (is_sets(p) && p->draw_sets.list > highest) highest = p->draw_sets.list;
    }
    /* S passes name at most S lists, so a gap, if any, lies at or below S. */
    for (uint32_t l = 0; l < count && l <= sets; l++) {
        bool named = false;
        for (uint32_t i = 0; i < d->pass_count && !named; i++)
            named = is_sets(&d->passes[i]) && d->passes[i].draw_sets.list == l;
        if (!named)
            return FAIL(c, KILN_PROGRAM_BAD_LIST,
                        "draw-set list %u is named by no pass, and a pass names list %u: lists are numbered densely "
                        "from 0", l, highest);
    }
    return true;
}

static bool attaches(const kiln_pass_spec *p, uint32_t depth_slot) {
    return names_depth(p) && depth_slot_of(p) == depth_slot;
}

/* A depth slot holds only what the passes attaching it drew, a multisampled one cannot be read,
 * and a texture cannot be attached and bound in one pass. */
bool program_check_depth_inputs(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        for (uint32_t n = 0; n < p->input_count; n++) {
            const kiln_input_slot *in = &p->inputs[n];
            if (in->kind != KILN_INPUT_DEPTH) continue;
            if (d->depth_transients[in->index].samples != KILN_SAMPLES_ONE)
                return FAIL(c, KILN_PROGRAM_BAD_DEPTH_INPUT,
                            "pass %u: input %u reads depth slot %u, which has samples Four; only a One depth slot is "
                            "read (draw the geometry again depth-only onto a One slot)", i, n, in->index);
            bool earlier = false;
            for (uint32_t j = 0; j < i && !earlier; j++) earlier = attaches(&d->passes[j], in->index);
            if (!earlier)
                return FAIL(c, KILN_PROGRAM_BAD_DEPTH_INPUT,
                            "pass %u: input %u reads depth slot %u, which no earlier pass attaches", i, n, in->index);
            if (attaches(p, in->index))
                return FAIL(c, KILN_PROGRAM_BAD_DEPTH_INPUT,
                            "pass %u: input %u reads depth slot %u, which this pass attaches", i, n, in->index);
        }
    }
    return true;
}

static bool written_before(const kiln_program_desc *d, uint32_t pass, kiln_output_slot slot) {
    for (uint32_t j = 0; j < pass; j++)
        if (validate_same_slot(d->passes[j].output, slot)) return true;
    return false;
}

/* The graph is a sequence: reading only what an earlier pass wrote makes acyclicity one index
 * comparison. A binding needs no earlier writer: the dispatch supplies it with its own pixels. */
bool program_check_read_order(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        for (uint32_t n = 0; n < p->input_count; n++) {
            const kiln_input_slot *in = &p->inputs[n];
            if (in->kind == KILN_INPUT_TRANSIENT && !written_before(d, i, validate_input_slot(d, in)))
                return FAIL(c, KILN_PROGRAM_READ_BEFORE_WRITE,
                            "pass %u: input %u reads transient %u before any pass writes it", i, n, in->index);
            if (in->kind != KILN_INPUT_PASS_OUTPUT) continue;
            if (in->index >= i)
                return FAIL(c, KILN_PROGRAM_READ_BEFORE_WRITE,
                            "pass %u: input %u reads the output of pass %u; a pass reads only the output of an "
                            "earlier pass", i, n, in->index);
            if (d->passes[in->index].output.kind == KILN_OUTPUT_NONE)
                return FAIL(c, KILN_PROGRAM_READ_BEFORE_WRITE,
                            "pass %u: input %u reads the output of pass %u, which writes no colour output", i, n,
                            in->index);
        }
    }
    return true;
}

/* A texture cannot be a render attachment and a bound texture in one pass. */
bool program_check_own_output(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    char slot[48];
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        for (uint32_t n = 0; n < p->input_count; n++) {
            const kiln_input_slot *in = &p->inputs[n];
            kiln_output_slot s = validate_input_slot(d, in);
            if (!validate_same_slot(s, p->output)) continue;
            if (in->kind == KILN_INPUT_PASS_OUTPUT)
                return FAIL(c, KILN_PROGRAM_READS_OWN_OUTPUT,
                            "pass %u: input %u reads the output of pass %u (%s), the slot this pass writes", i, n,
                            in->index, validate_slot_name(s, slot, sizeof slot));
            return FAIL(c, KILN_PROGRAM_READS_OWN_OUTPUT, "pass %u: input %u reads %s, the slot this pass writes", i,
                        n, validate_slot_name(s, slot, sizeof slot));
        }
    }
    return true;
}

bool program_check_final_binding(const check_ctx *c) {
    uint32_t last = c->desc->pass_count - 1;
    kiln_output_slot out = c->desc->passes[last].output;
    char slot[48];
    if (out.kind != KILN_OUTPUT_BINDING)
        return FAIL(c, KILN_PROGRAM_FINAL_PASS_NOT_BINDING,
                    "pass %u: the final pass writes %s; the final pass must write a binding", last,
                    validate_slot_name(out, slot, sizeof slot));
    return true;
}

/* The binding the final pass writes is the reference every other extent divides. */
bool program_check_reference_full(const check_ctx *c) {
    uint32_t last = c->desc->pass_count - 1;
    uint32_t b = c->desc->passes[last].output.index;
    const kiln_slot_extent *e = &c->desc->bindings[b].shape.extent;
    if (e->divided)
        return FAIL(c, KILN_PROGRAM_REFERENCE_NOT_FULL,
                    "pass %u: output binding %u is Target(Divided %u); the final pass's output sets the reference "
                    "size and must be Target(Full)", last, b, e->divisor);
    return true;
}

/* repeat_count 0 means "no repeat"; a declared repeat of count 0 is the JSON layer's to refuse. */
bool program_check_repeats(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        uint32_t count = c->desc->passes[i].repeat_count;
        if (count > KILN_PROGRAM_MAX_REPEAT)
            return FAIL(c, KILN_PROGRAM_BAD_REPEAT, "pass %u: repeat count %u is outside 1..%d", i, count,
                        KILN_PROGRAM_MAX_REPEAT);
    }
    return true;
}
