/* The form tables of program_forms.h. A table is an array indexed by the C value with designated
 * initializers, so a name sits next to the value it names, and a static assertion per table fails
 * the build when an enum gains a value without a name. These names are the JSON surface's and
 * appear in caller-visible messages: they never change once shipped.
 *
 * Why a data table and not an X-macro: the enums are public and stay ordinary declarations in
 * program.h, and the schema, the decoder and the docs test walk the names at run time, which a
 * data table gives directly; an X-macro would have generated either the public enums or this same
 * table. */
#include "program_forms.h"

#include <string.h>

#define UNIT(n) {n, false, NULL}
#define OBJECT(n) {n, true, NULL}
#define NAMED(n, type) {n, true, type}

static const program_form STAGES[] = {
    [KILN_STAGE_FRAGMENT] = UNIT("Fragment"),
    [KILN_STAGE_DRAW] = NAMED("Draw", "DrawPass"),
    [KILN_STAGE_DRAW_INDEXED_INDIRECT] = NAMED("DrawIndexedIndirect", "IndirectDrawPass"),
    [KILN_STAGE_DRAW_SETS] = NAMED("DrawSets", "DrawSetsPass"),
    [KILN_STAGE_COMPUTE] = NAMED("Compute", "ComputePass"),
};
_Static_assert(KILN_ARRAY_COUNT(STAGES) == KILN_STAGE_COMPUTE + 1, "a kiln_pass_stage without a name");

static const program_form SHAPES[] = {
    [KILN_SHAPE_TARGET] = NAMED("Target", "SlotExtent"),
    [KILN_SHAPE_TEXTURE] = UNIT("Texture"),
    [KILN_SHAPE_TEXTURE_ARRAY] = UNIT("TextureArray"),
    [KILN_SHAPE_TEXTURE_VOLUME] = UNIT("TextureVolume"),
};
_Static_assert(KILN_ARRAY_COUNT(SHAPES) == KILN_SHAPE_TEXTURE_VOLUME + 1, "a kiln_slot_shape_kind without a name");

static const program_form EXTENTS[] = {
    [PROGRAM_EXTENT_FULL] = UNIT("Full"),
    [PROGRAM_EXTENT_DIVIDED] = OBJECT("Divided"),
};

static const program_form SAMPLINGS[] = {
    [PROGRAM_SAMPLING_FILTERED] = OBJECT("Filtered"),
    [PROGRAM_SAMPLING_TEXEL] = UNIT("Texel"),
};

static const program_form WRAPS[] = {[KILN_WRAP_CLAMP] = UNIT("Clamp"), [KILN_WRAP_REPEAT] = UNIT("Repeat")};
_Static_assert(KILN_ARRAY_COUNT(WRAPS) == KILN_WRAP_REPEAT + 1, "a kiln_wrap without a name");

static const program_form MIPS[] = {[KILN_MIPS_BASE] = UNIT("Base"), [KILN_MIPS_CHAIN] = UNIT("Chain")};
_Static_assert(KILN_ARRAY_COUNT(MIPS) == KILN_MIPS_CHAIN + 1, "a kiln_mips without a name");

static const program_form SAMPLES[] = {[KILN_SAMPLES_ONE] = UNIT("One"), [KILN_SAMPLES_FOUR] = UNIT("Four")};
_Static_assert(KILN_ARRAY_COUNT(SAMPLES) == KILN_SAMPLES_FOUR + 1, "a kiln_samples without a name");

static const program_form INPUTS[] = {
    [KILN_INPUT_BINDING] = OBJECT("Binding"),
    [KILN_INPUT_TRANSIENT] = OBJECT("Transient"),
    [KILN_INPUT_PASS_OUTPUT] = OBJECT("PassOutput"),
    [KILN_INPUT_DEPTH] = OBJECT("Depth"),
};
_Static_assert(KILN_ARRAY_COUNT(INPUTS) == KILN_INPUT_DEPTH + 1, "a kiln_input_kind without a name");

static const program_form DEPTH_READS[] = {
    [KILN_DEPTH_READ_TEXEL] = UNIT("Texel"),
    [KILN_DEPTH_READ_COMPARE] = UNIT("Compare"),
};
_Static_assert(KILN_ARRAY_COUNT(DEPTH_READS) == KILN_DEPTH_READ_COMPARE + 1, "a kiln_depth_read without a name");

static const program_form OUTPUTS[] = {
    [KILN_OUTPUT_BINDING] = OBJECT("Binding"),
    [KILN_OUTPUT_TRANSIENT] = OBJECT("Transient"),
    [KILN_OUTPUT_NONE] = UNIT("None"),
};
_Static_assert(KILN_ARRAY_COUNT(OUTPUTS) == KILN_OUTPUT_NONE + 1, "a kiln_output_kind without a name");

static const program_form BLENDS[] = {
    [KILN_PROGRAM_BLEND_ALPHA] = UNIT("Alpha"),
    [KILN_PROGRAM_BLEND_REPLACE] = UNIT("Replace"),
    [KILN_PROGRAM_BLEND_ADDITIVE] = UNIT("Additive"),
};
_Static_assert(KILN_ARRAY_COUNT(BLENDS) == KILN_PROGRAM_BLEND_ADDITIVE + 1, "a kiln_program_blend without a name");

static const program_form TEXTURE_USAGES[] = {
    [KILN_USAGE_SAMPLED] = UNIT("Sampled"),
    [KILN_USAGE_WRITABLE] = UNIT("Writable"),
};
_Static_assert(KILN_ARRAY_COUNT(TEXTURE_USAGES) == KILN_USAGE_WRITABLE + 1, "a kiln_texture_usage without a name");

static const program_form TEXTURE_SAMPLINGS[] = {
    [KILN_SAMPLING_LINEAR] = UNIT("Linear"),
    [KILN_SAMPLING_NEAREST] = UNIT("Nearest"),
};
_Static_assert(KILN_ARRAY_COUNT(TEXTURE_SAMPLINGS) == KILN_SAMPLING_NEAREST + 1, "a kiln_texture_sampling without a name");

static const program_form LOADS[] = {[KILN_LOAD_CLEAR] = UNIT("Clear"), [KILN_LOAD_LOAD] = UNIT("Load")};
_Static_assert(KILN_ARRAY_COUNT(LOADS) == KILN_LOAD_LOAD + 1, "a kiln_pass_load without a name");

static const program_form DEPTH_EXTENTS[] = {
    [PROGRAM_DEPTH_EXTENT_OUTPUT] = NAMED("Output", "SlotExtent"),
    [PROGRAM_DEPTH_EXTENT_FIXED] = OBJECT("Fixed"),
};

static const program_form CULLS[] = {
    [KILN_CULL_NONE] = UNIT("None"), [KILN_CULL_BACK] = UNIT("Back"), [KILN_CULL_FRONT] = UNIT("Front")};
_Static_assert(KILN_ARRAY_COUNT(CULLS) == KILN_CULL_FRONT + 1, "a kiln_cull without a name");

static const program_form DEPTH_WRITES[] = {[KILN_DEPTH_WRITE] = UNIT("Write"), [KILN_DEPTH_TEST_ONLY] = UNIT("TestOnly")};
_Static_assert(KILN_ARRAY_COUNT(DEPTH_WRITES) == KILN_DEPTH_TEST_ONLY + 1, "a kiln_depth_write without a name");

#define ENUM(what, type, c_type, forms) {what, type, c_type, KILN_ARRAY_COUNT(forms), forms}

const program_enum PROGRAM_STAGES = ENUM("stage", "PassStage", "kiln_pass_stage", STAGES);
const program_enum PROGRAM_SHAPES = ENUM("shape", "SlotShape", "kiln_slot_shape_kind", SHAPES);
const program_enum PROGRAM_EXTENTS = ENUM("extent", "SlotExtent", NULL, EXTENTS);
const program_enum PROGRAM_SAMPLINGS = ENUM("sampling", "Sampling", NULL, SAMPLINGS);
const program_enum PROGRAM_WRAPS = ENUM("wrap", "Wrap", "kiln_wrap", WRAPS);
const program_enum PROGRAM_MIPS = ENUM("mips", "Mips", "kiln_mips", MIPS);
const program_enum PROGRAM_SAMPLES = ENUM("samples", "Samples", "kiln_samples", SAMPLES);
const program_enum PROGRAM_INPUTS = ENUM("input", "InputSlot", "kiln_input_kind", INPUTS);
const program_enum PROGRAM_DEPTH_READS = ENUM("depth read", "DepthRead", "kiln_depth_read", DEPTH_READS);
const program_enum PROGRAM_OUTPUTS = ENUM("output", "OutputSlot", "kiln_output_kind", OUTPUTS);
const program_enum PROGRAM_BLENDS = ENUM("blend", "Blend", "kiln_program_blend", BLENDS);
const program_enum PROGRAM_TEXTURE_USAGES = ENUM("usage", "TextureUsage", "kiln_texture_usage", TEXTURE_USAGES);
const program_enum PROGRAM_TEXTURE_SAMPLINGS =
    ENUM("sampling", "TextureSampling", "kiln_texture_sampling", TEXTURE_SAMPLINGS);
const program_enum PROGRAM_LOADS = ENUM("load", "PassLoad", "kiln_pass_load", LOADS);
const program_enum PROGRAM_DEPTH_EXTENTS = ENUM("depth extent", "DepthExtent", NULL, DEPTH_EXTENTS);
const program_enum PROGRAM_CULLS = ENUM("cull", "Cull", "kiln_cull", CULLS);
const program_enum PROGRAM_DEPTH_WRITES = ENUM("depth write", "DepthWrite", "kiln_depth_write", DEPTH_WRITES);

const program_enum *const PROGRAM_ENUMS[] = {
    &PROGRAM_STAGES, &PROGRAM_SHAPES, &PROGRAM_EXTENTS, &PROGRAM_SAMPLINGS, &PROGRAM_WRAPS,
    &PROGRAM_MIPS, &PROGRAM_SAMPLES, &PROGRAM_INPUTS, &PROGRAM_DEPTH_READS, &PROGRAM_OUTPUTS,
    &PROGRAM_BLENDS, &PROGRAM_TEXTURE_USAGES, &PROGRAM_TEXTURE_SAMPLINGS, &PROGRAM_LOADS, &PROGRAM_DEPTH_EXTENTS,
    &PROGRAM_CULLS, &PROGRAM_DEPTH_WRITES,
};
const uint32_t PROGRAM_ENUM_COUNT = KILN_ARRAY_COUNT(PROGRAM_ENUMS);

bool program_form_valid(const program_enum *e, int value) {
    return value >= 0 && (uint32_t)value < e->count;
}

const char *program_form_name(const program_enum *e, int value) {
    return program_form_valid(e, value) ? e->forms[value].name : "?";
}

const char *kiln_pass_stage_name(kiln_pass_stage stage) {
    return program_form_name(&PROGRAM_STAGES, stage);
}

int program_form_find(const program_enum *e, const char *name) {
    for (uint32_t i = 0; i < e->count; i++)
        if (strcmp(name, e->forms[i].name) == 0) return (int)i;
    return -1;
}

/* ---- what a shape binds ----------------------------------------------------------------------- */

static const kiln_texture_kind SHAPE_TEXTURE_KINDS[] = {
    [KILN_SHAPE_TARGET] = KILN_TEXTURE_PLAIN,
    [KILN_SHAPE_TEXTURE] = KILN_TEXTURE_PLAIN,
    [KILN_SHAPE_TEXTURE_ARRAY] = KILN_TEXTURE_ARRAY,
    [KILN_SHAPE_TEXTURE_VOLUME] = KILN_TEXTURE_VOLUME,
};
_Static_assert(KILN_ARRAY_COUNT(SHAPE_TEXTURE_KINDS) == KILN_ARRAY_COUNT(SHAPES), "a slot shape without a texture kind");

static const char *const TEXTURE_KIND_TEXTS[] = {
    [KILN_TEXTURE_PLAIN] = "a plain texture",
    [KILN_TEXTURE_ARRAY] = "a texture array",
    [KILN_TEXTURE_VOLUME] = "a volume texture",
};
_Static_assert(KILN_ARRAY_COUNT(TEXTURE_KIND_TEXTS) == KILN_TEXTURE_VOLUME + 1, "a kiln_texture_kind without a text");

kiln_texture_kind program_shape_texture_kind(kiln_slot_shape_kind shape) {
    return (unsigned)shape < KILN_ARRAY_COUNT(SHAPE_TEXTURE_KINDS) ? SHAPE_TEXTURE_KINDS[shape] : KILN_TEXTURE_PLAIN;
}

const char *program_texture_kind_text(kiln_texture_kind kind) {
    return TEXTURE_KIND_TEXTS[(unsigned)kind < KILN_ARRAY_COUNT(TEXTURE_KIND_TEXTS) ? kind : KILN_TEXTURE_PLAIN];
}
