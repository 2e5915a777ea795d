/* Slot queries of program validation (program_check.h): an input resolved to the slot it reads,
 * a slot's format, sampling and texture type, and the words a message names them with. */
#include "program_check.h"

/* Reads and writes are compared as the output slot names them (a binding index or a transient
 * index), so an input resolves to the same form: a PassOutput becomes whatever that pass writes
 * (None when it writes nothing). Indices must already be in range (bad_input). */
kiln_output_slot validate_input_slot(const kiln_program_desc *d, const kiln_input_slot *in) {
    kiln_output_slot slot = {KILN_OUTPUT_NONE, 0};
    switch (in->kind) {
    case KILN_INPUT_BINDING: slot = (kiln_output_slot){KILN_OUTPUT_BINDING, in->index}; break;
    case KILN_INPUT_TRANSIENT: slot = (kiln_output_slot){KILN_OUTPUT_TRANSIENT, in->index}; break;
    case KILN_INPUT_PASS_OUTPUT: slot = d->passes[in->index].output; break;
    case KILN_INPUT_DEPTH: break; /* a depth slot is no colour slot (refused before this runs) */
    }
    return slot;
}

bool validate_same_slot(kiln_output_slot a, kiln_output_slot b) {
    return a.kind != KILN_OUTPUT_NONE && a.kind == b.kind && a.index == b.index;
}

const char *validate_slot_name(kiln_output_slot slot, char *buf, size_t size) {
    switch (slot.kind) {
    case KILN_OUTPUT_BINDING: snprintf(buf, size, "binding %u", slot.index); break;
    case KILN_OUTPUT_TRANSIENT: snprintf(buf, size, "transient %u", slot.index); break;
    case KILN_OUTPUT_NONE: snprintf(buf, size, "no slot"); break;
    }
    return buf;
}

kiln_texture_format validate_slot_format(const kiln_program_desc *d, kiln_output_slot slot) {
    return slot.kind == KILN_OUTPUT_BINDING ? d->bindings[slot.index].format : d->transients[slot.index].format;
}

/* A transient is read as Filtered { Clamp, Base }: only a Texel binding goes without a sampler. */
bool validate_slot_is_texel(const kiln_program_desc *d, kiln_output_slot slot) {
    return slot.kind == KILN_OUTPUT_BINDING && d->bindings[slot.index].sampling.texel;
}

/* The texture type the shader must declare for a slot; every slot but an array or volume binding
 * (a Target or Texture binding, a transient) reads as texture_2d. */
kiln_wgsl_handle validate_slot_texture(const kiln_program_desc *d, kiln_output_slot slot) {
    if (slot.kind != KILN_OUTPUT_BINDING) return KILN_WGSL_TEXTURE_2D;
    switch (d->bindings[slot.index].shape.kind) {
    case KILN_SHAPE_TEXTURE_ARRAY: return KILN_WGSL_TEXTURE_2D_ARRAY;
    case KILN_SHAPE_TEXTURE_VOLUME: return KILN_WGSL_TEXTURE_3D;
    case KILN_SHAPE_TARGET:
    case KILN_SHAPE_TEXTURE: break;
    }
    return KILN_WGSL_TEXTURE_2D;
}

/* "binding 2, a TextureArray slot" (what decides the texture type), "binding 2, a Texel slot"
 * (what decides the sampler), "transient 0", "the output of pass 1, transient 0". */
const char *validate_describe_input(const kiln_program_desc *d, const kiln_input_slot *in, bool sampling,
                                    char *buf, size_t size) {
    char slot[48];
    kiln_output_slot s = validate_input_slot(d, in);
    if (in->kind == KILN_INPUT_DEPTH) {
        snprintf(buf, size, "depth slot %u, read %s", in->index, program_form_name(&PROGRAM_DEPTH_READS, in->depth_read));
    } else if (in->kind == KILN_INPUT_PASS_OUTPUT) {
        snprintf(buf, size, "the output of pass %u, %s", in->index, validate_slot_name(s, slot, sizeof slot));
    } else if (s.kind == KILN_OUTPUT_BINDING) {
        const kiln_slot_spec *b = &d->bindings[s.index];
        snprintf(buf, size, "binding %u, a %s slot", s.index,
                 sampling ? program_form_name(&PROGRAM_SAMPLINGS, b->sampling.texel)
                          : program_form_name(&PROGRAM_SHAPES, b->shape.kind));
    } else {
        validate_slot_name(s, buf, size);
    }
    return buf;
}


/* The attribute of a layout at a @location, or NULL. */
const kiln_vertex_attribute_spec *validate_find_location(const kiln_geometry_layout *layout, uint32_t location) {
    for (uint32_t a = 0; a < layout->attribute_count; a++)
        if (layout->attributes[a].location == location) return &layout->attributes[a];
    return NULL;
}
