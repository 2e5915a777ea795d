/* The names of the program enums' forms (internal to src/program): one table per enum, indexed by
 * the C value, read by everything that spells a name. The JSON decoder looks names up in it, the
 * schema lists its forms, the validator, dispatch and the JSON runtime name values by it, and
 * tests/program/test_program_forms.c checks every name appears in docs/guides/programs.md.
 * Texture formats are not here: the registry's own table (kiln_texture_format_name) names them. */
#ifndef KILN_PROGRAM_FORMS_H
#define KILN_PROGRAM_FORMS_H

#include <stdbool.h>
#include <stdint.h>

#include <kiln/program.h>

/* One form: how the JSON surface writes it (externally tagged: "Name" or {"Name": payload}). */
typedef struct program_form {
    const char *name;
    bool payload;             /* written {"Name": payload}; false: the string "Name" */
    const char *payload_type; /* the schema type a payload is ("SlotExtent"); NULL: none, or an
                                 object the schema lists field by field */
} program_form;

typedef struct program_enum {
    const char *what;         /* the word refusals use: `unknown stage form "Vertex"` */
    const char *type;         /* the schema's type name: "PassStage" */
    const char *c_type;       /* the C enum a value outside the table is refused as; NULL: none */
    uint32_t count;
    const program_form *forms; /* indexed by the C value */
} program_enum;

/* Extents and samplings are a bool in C (kiln_slot_extent.divided, kiln_slot_sampling.texel);
 * their forms are indexed by these. */
enum { PROGRAM_EXTENT_FULL, PROGRAM_EXTENT_DIVIDED };
/* kiln_depth_extent.fixed, likewise. */
enum { PROGRAM_DEPTH_EXTENT_OUTPUT, PROGRAM_DEPTH_EXTENT_FIXED };
enum { PROGRAM_SAMPLING_FILTERED, PROGRAM_SAMPLING_TEXEL };

extern const program_enum PROGRAM_STAGES;            /* kiln_pass_stage */
extern const program_enum PROGRAM_SHAPES;            /* kiln_slot_shape_kind */
extern const program_enum PROGRAM_EXTENTS;           /* PROGRAM_EXTENT_* */
extern const program_enum PROGRAM_SAMPLINGS;         /* PROGRAM_SAMPLING_* */
extern const program_enum PROGRAM_WRAPS;             /* kiln_wrap */
extern const program_enum PROGRAM_MIPS;              /* kiln_mips */
extern const program_enum PROGRAM_SAMPLES;           /* kiln_samples */
extern const program_enum PROGRAM_INPUTS;            /* kiln_input_kind */
extern const program_enum PROGRAM_DEPTH_READS;       /* kiln_depth_read */
extern const program_enum PROGRAM_OUTPUTS;           /* kiln_output_kind */
extern const program_enum PROGRAM_BLENDS;            /* kiln_program_blend */
extern const program_enum PROGRAM_TEXTURE_USAGES;    /* kiln_texture_usage */
extern const program_enum PROGRAM_TEXTURE_SAMPLINGS; /* kiln_texture_sampling */
extern const program_enum PROGRAM_LOADS;             /* kiln_pass_load */
extern const program_enum PROGRAM_DEPTH_EXTENTS;     /* PROGRAM_DEPTH_EXTENT_* */
extern const program_enum PROGRAM_CULLS;             /* kiln_cull */
extern const program_enum PROGRAM_DEPTH_WRITES;      /* kiln_depth_write */

/* Every table above, for whoever walks them all (the docs test). */
extern const program_enum *const PROGRAM_ENUMS[];
extern const uint32_t PROGRAM_ENUM_COUNT;

/* The form's name; "?" for a value outside the table (a cast integer), so a message can always
 * print it. */
const char *program_form_name(const program_enum *e, int value);
/* The value whose form is named `name`, or -1. */
int program_form_find(const program_enum *e, const char *name);
/* Whether value is one of the table's. */
bool program_form_valid(const program_enum *e, int value);

/* The registry texture kind a slot shape binds, and how dispatch warnings name a kind ("a texture
 * array"). */
kiln_texture_kind program_shape_texture_kind(kiln_slot_shape_kind shape);
const char *program_texture_kind_text(kiln_texture_kind kind);

#endif
