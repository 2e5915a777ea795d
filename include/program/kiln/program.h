/* kiln/program: authored render programs.
 *
 * A user registers one WGSL module plus a declared pass graph once (kiln_programs_register), then
 * dispatches it any number of times with registry texture ids and a uniform byte blob
 * (kiln_programs_dispatch). Structure is validated and compiled at register; every failure class
 * has its own stable identifier and message naming the pass and slot. A dispatch is checked
 * before anything is recorded; a mismatch drops the whole dispatch with a warning in the program
 * log. Accepted dispatches record, in arrival order, at the next kiln_programs_record (the frame's
 * encoder, before the scene passes).
 *
 * The shader contract (both are spelled out in docs/guides/programs.md):
 *   @group(0) @binding(0) var<uniform>: the pass's window of the uniform blob;
 *   @group(1) @binding(2n): input n's texture (texture_2d<f32>, texture_2d_array<f32> for a
 *   TextureArray binding, texture_3d<f32> for a TextureVolume binding); @binding(2n + 1) its sampler
 *   (absent for a Texel binding). A fragment pass's entry point may take @location(0) uv: vec2<f32>
 *   ((0, 0) top left) and returns @location(0) vec4<f32>.
 *
 * Ownership: kiln_programs owns registered programs, their pipelines, a frame graph (whose pool
 * holds the transients; a renderer's graph has its own) and the log ring. The kiln_gfx,
 * kiln_resources and kiln_texture_registry it was created with must outlive it. Descriptors passed to register are copied; nothing they point at is kept. */
#ifndef KILN_PROGRAM_H
#define KILN_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kiln/gfx.h>
#include <kiln/textures.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the pass graph -------------------------------------------------------------------------- */

/* The kind of work a pass does: FRAGMENT (a fullscreen triangle into the output), DRAW (a
 * geometry slot's triangles through an authored vertex stage), DRAW_INDEXED_INDIRECT (the same,
 * with the draw's arguments read from a program buffer), DRAW_SETS (the retained draw sets a
 * dispatch lists) and COMPUTE (workgroups writing program buffers; docs/adr/002-program-compute-and-indirect-draws.md). */
typedef enum kiln_pass_stage {
    KILN_STAGE_FRAGMENT,
    KILN_STAGE_DRAW,
    KILN_STAGE_DRAW_INDEXED_INDIRECT,
    KILN_STAGE_DRAW_SETS,
    KILN_STAGE_COMPUTE,
} kiln_pass_stage;
/* The name the JSON surface spells a stage by ("Fragment", "DrawSets"); "?" outside the enum. */
const char *kiln_pass_stage_name(kiln_pass_stage stage);

/* ---- geometry ------------------------------------------------------------------------------------
 * A geometry is a triangle list: packed vertex bytes, little-endian u32 indices and the layout that
 * says how to read them (docs/guides/programs.md, "Geometry"). Attributes pack in declaration order
 * with no padding, so a vertex's stride is the sum of its formats' widths; every format is a
 * multiple of four bytes. The set is closed: */
typedef enum kiln_vertex_format {
    KILN_VERTEX_FLOAT32,        /*  4 bytes, read as f32 */
    KILN_VERTEX_FLOAT32X2,      /*  8 bytes, vec2<f32> */
    KILN_VERTEX_FLOAT32X3,      /* 12 bytes, vec3<f32> */
    KILN_VERTEX_FLOAT32X4,      /* 16 bytes, vec4<f32> */
    KILN_VERTEX_UINT32,         /*  4 bytes, u32 */
    KILN_VERTEX_UINT32X2,       /*  8 bytes, vec2<u32> */
    KILN_VERTEX_UINT32X3,       /* 12 bytes, vec3<u32> */
    KILN_VERTEX_UINT32X4,       /* 16 bytes, vec4<u32> */
    KILN_VERTEX_SINT32,         /*  4 bytes, i32 */
    KILN_VERTEX_SINT32X2,       /*  8 bytes, vec2<i32> */
    KILN_VERTEX_SINT32X3,       /* 12 bytes, vec3<i32> */
    KILN_VERTEX_SINT32X4,       /* 16 bytes, vec4<i32> */
    KILN_VERTEX_UINT8X4,        /*  4 bytes, vec4<u32>: four joint indices */
    KILN_VERTEX_UNORM8X4,       /*  4 bytes, vec4<f32> in 0..1: four weights, a colour */
    KILN_VERTEX_UINT16X2,       /*  4 bytes, vec2<u32> */
    KILN_VERTEX_UINT16X4,       /*  8 bytes, vec4<u32>: four joint indices past 255 */
    KILN_VERTEX_UNORM16X2,      /*  4 bytes, vec2<f32> in 0..1 */
    KILN_VERTEX_UNORM16X4,      /*  8 bytes, vec4<f32> in 0..1 */
    KILN_VERTEX_FLOAT16X2,      /*  4 bytes, vec2<f32> from IEEE halves */
    KILN_VERTEX_FLOAT16X4,      /*  8 bytes, vec4<f32> from IEEE halves */
    KILN_VERTEX_FORMAT_COUNT
} kiln_vertex_format;

/* The bytes one attribute of the format takes; 0 for a value outside the enum. */
uint32_t kiln_vertex_format_bytes(kiln_vertex_format f);
/* The name the JSON surface spells it by ("Float32x3"); "?" outside the enum. */
const char *kiln_vertex_format_name(kiln_vertex_format f);

#define KILN_PROGRAM_MAX_ATTRIBUTES 8    /* most attributes one layout declares */
#define KILN_PROGRAM_MAX_LOCATION 15     /* highest @location an attribute may bind at */

/* One attribute: the @location the vertex stage reads it at, and its format. */
typedef struct kiln_vertex_attribute_spec {
    uint32_t location;          /* 0..KILN_PROGRAM_MAX_LOCATION, once per layout */
    kiln_vertex_format format;  /* one of the closed set */
} kiln_vertex_attribute_spec;

/* A vertex layout: attributes in packing order (the order fixes byte offsets, the locations the
 * shader side; the two are independent). */
typedef struct kiln_geometry_layout {
    uint32_t attribute_count;   /* 1..KILN_PROGRAM_MAX_ATTRIBUTES */
    kiln_vertex_attribute_spec attributes[KILN_PROGRAM_MAX_ATTRIBUTES]; /* the first attribute_count, in packing order */
} kiln_geometry_layout;

/* The stride of a vertex under the layout (the sum of its formats' widths). */
uint32_t kiln_geometry_layout_stride(const kiln_geometry_layout *layout);
/* Whether two layouts declare the same attributes in the same order. */
bool kiln_geometry_layout_equal(const kiln_geometry_layout *a, const kiln_geometry_layout *b);

/* What create_geometry and update_geometry take. The bytes are copied. */
typedef struct kiln_geometry_desc {
    kiln_geometry_layout layout; /* fixed at create; update_geometry checks against it and ignores this */
    const void *vertices;       /* vertex_count * stride bytes, vertex after vertex */
    size_t vertices_size;       /* bytes at vertices */
    const void *indices;        /* u32 little-endian, three per triangle, each below the vertex count */
    size_t indices_size;        /* bytes at indices */
} kiln_geometry_desc;

/* Bytes of vertices or of indices one geometry may hold: the default maxBufferSize every device
 * offers, so the check needs no device. */
#define KILN_GEOMETRY_MAX_BYTES (256u << 20)

/* Why create_geometry (or update_geometry) refused a geometry, in check order. */
typedef enum kiln_geometry_class {
    KILN_GEOMETRY_OK,
    KILN_GEOMETRY_EMPTY_LAYOUT,         /* "empty_layout": no attributes */
    KILN_GEOMETRY_LAYOUT_TOO_LONG,      /* "layout_too_long": more than KILN_PROGRAM_MAX_ATTRIBUTES */
    KILN_GEOMETRY_UNKNOWN_FORMAT,       /* "unknown_vertex_format": a value outside kiln_vertex_format */
    KILN_GEOMETRY_BAD_LOCATION,         /* "bad_location": a location past KILN_PROGRAM_MAX_LOCATION */
    KILN_GEOMETRY_DUPLICATE_LOCATION,   /* "duplicate_location": two attributes at one location */
    KILN_GEOMETRY_TOO_LARGE,            /* "geometry_too_large": vertices or indices past KILN_GEOMETRY_MAX_BYTES */
    KILN_GEOMETRY_VERTEX_BYTES,         /* "vertex_bytes": no vertices, or not a whole number of vertices */
    KILN_GEOMETRY_INDEX_BYTES,          /* "index_bytes": not a whole number of u32 indices */
    KILN_GEOMETRY_INDEX_COUNT,          /* "index_count": no triangle, or a count not a multiple of 3 */
    KILN_GEOMETRY_INDEX_RANGE,          /* "index_out_of_range": an index at or past the vertex count */
    KILN_GEOMETRY_UNKNOWN_ID,           /* "unknown_geometry": update or destroy of an id not live */
    KILN_GEOMETRY_HELD,                 /* "geometry_held": an update that resizes a geometry a draw set holds */
    KILN_GEOMETRY_CLASS_COUNT
} kiln_geometry_class;

/* The stable identifier of a class ("index_out_of_range"); "invalid_class" outside the enum. */
const char *kiln_geometry_class_name(kiln_geometry_class c);

/* Why a geometry was refused. */
typedef struct kiln_geometry_error {
    kiln_geometry_class cls;    /* the first failure class met */
    char message[256];          /* NUL-terminated, naming the attribute or index at fault */
} kiln_geometry_error;

/* Checks a desc against the rules above (update_geometry's check: `layout` is the created one). */
kiln_geometry_class kiln_geometry_validate(const kiln_geometry_layout *layout, const kiln_geometry_desc *desc,
                                           kiln_geometry_error *err);

/* What a binding slot holds, which decides how it may be bound and used. */
typedef enum kiln_slot_shape_kind {
    KILN_SHAPE_TARGET,          /* sized from the output; may be written; bound size must match */
    KILN_SHAPE_TEXTURE,         /* any size, read only */
    KILN_SHAPE_TEXTURE_ARRAY,   /* a texture array, read only */
    KILN_SHAPE_TEXTURE_VOLUME,  /* a volume texture, read only */
} kiln_slot_shape_kind;

/* Full (divisor 0 with divided false) or Divided { divisor }: the reference size floor-divided by
 * divisor on both axes, at least one texel. divided with divisor 0 is refused at register. */
typedef struct kiln_slot_extent {
    bool divided;               /* false: Full, the reference size itself */
    uint32_t divisor;           /* Divided only: the factor both axes are floor-divided by, >= 1 */
} kiln_slot_extent;

/* A binding slot's shape: its kind and, for a Target, its extent. */
typedef struct kiln_slot_shape {
    kiln_slot_shape_kind kind;  /* Target, Texture, TextureArray or TextureVolume */
    kiln_slot_extent extent;    /* Target only */
} kiln_slot_shape;

/* A filtered slot's sampler address mode, on every axis: clamp to edge, or repeat. */
typedef enum kiln_wrap { KILN_WRAP_CLAMP, KILN_WRAP_REPEAT } kiln_wrap;
/* Which mip levels a filtered slot's sampler reads: the base level only, or the whole chain. */
typedef enum kiln_mips { KILN_MIPS_BASE, KILN_MIPS_CHAIN } kiln_mips;

/* Filtered { wrap, mips } binds a sampler; Texel binds none (textureLoad). */
typedef struct kiln_slot_sampling {
    bool texel;                 /* true: Texel, no sampler; wrap and mips are ignored */
    kiln_wrap wrap;             /* Filtered: address mode */
    kiln_mips mips;             /* Filtered: mip levels sampled */
} kiln_slot_sampling;

/* One binding slot of a program: a texture the dispatch supplies by registry id, in slot order. */
typedef struct kiln_slot_spec {
    kiln_texture_format format; /* the format a bound texture must have */
    kiln_slot_shape shape;      /* kind and, for a Target, extent */
    kiln_slot_sampling sampling; /* how a pass reading it samples it */
} kiln_slot_spec;

/* A transient's sample count: 1, or 4 (only for a format that can resolve). */
typedef enum kiln_samples { KILN_SAMPLES_ONE, KILN_SAMPLES_FOUR } kiln_samples;

/* A transient: sized from the output, read as Filtered { Clamp, Base }. */
typedef struct kiln_transient_spec {
    kiln_texture_format format; /* the texture's format */
    kiln_slot_extent extent;    /* Full or Divided, relative to the output binding's size */
    kiln_samples samples;       /* sample count */
} kiln_transient_spec;

/* Where a pass input reads from; kiln_input_slot.index counts in that kind's own list. */
typedef enum kiln_input_kind {
    KILN_INPUT_BINDING,         /* index: a binding */
    KILN_INPUT_TRANSIENT,       /* index: a transient */
    KILN_INPUT_PASS_OUTPUT,     /* index: an earlier pass whose output slot is read */
    KILN_INPUT_DEPTH,           /* index: a depth transient, read as texture_depth_2d (docs: "Reading a depth slot") */
} kiln_input_kind;

/* How a depth input is read: loaded texel by texel, or through a comparison sampler. */
typedef enum kiln_depth_read { KILN_DEPTH_READ_TEXEL, KILN_DEPTH_READ_COMPARE } kiln_depth_read;

/* One input of a pass: input n binds at @group(1) @binding(2n) (and its sampler at 2n + 1). */
typedef struct kiln_input_slot {
    kiln_input_kind kind;       /* which list index counts in */
    uint32_t index;             /* 0-based, into the list kind names (see kiln_input_kind) */
    kiln_depth_read depth_read; /* KILN_INPUT_DEPTH only */
} kiln_input_slot;

/* Where a pass writes: a binding (which must be a Target), a transient, or nothing: a depth-only
 * draw pass (refused for a fragment pass). */
typedef enum kiln_output_kind { KILN_OUTPUT_BINDING, KILN_OUTPUT_TRANSIENT, KILN_OUTPUT_NONE } kiln_output_kind;

/* The output of a pass. */
typedef struct kiln_output_slot {
    kiln_output_kind kind;      /* binding, transient or none */
    uint32_t index;             /* 0-based, into the program's bindings or transients; unused for none */
} kiln_output_slot;

/* What a pass's result composes with what its output holds (docs/guides/programs.md, "Blend"):
 * Alpha is straight-alpha source over, Replace overwrites (alpha included), Additive adds. */
typedef enum kiln_program_blend {
    KILN_PROGRAM_BLEND_ALPHA,
    KILN_PROGRAM_BLEND_REPLACE,
    KILN_PROGRAM_BLEND_ADDITIVE,
} kiln_program_blend;

#define KILN_PROGRAM_MAX_REPEAT 4096 /* most times one pass may repeat (kiln_pass_spec.repeat_count) */
#define KILN_PROGRAM_MAX_INPUTS 8    /* most inputs one pass may read */

/* What a draw pass does to its colour output first: clear it to transparent black (its first
 * iteration; later ones load), or load what it holds (no iteration clears). */
typedef enum kiln_pass_load { KILN_LOAD_CLEAR, KILN_LOAD_LOAD } kiln_pass_load;

/* A draw pass: the geometry in slot `geometry` through `vertex_entry_point` and the pass's
 * fragment entry point, as an indexed u32 triangle list, counter-clockwise front, no culling.
 * Naming a depth slot attaches it (Depth32Float, LessEqual, writes on): the first pass of a
 * dispatch to name a slot clears it to the far plane (1.0), later ones load it. */
typedef struct kiln_draw_spec {
    const char *vertex_entry_point;         /* a @vertex entry point of the module */
    uint32_t geometry;                      /* index into kiln_program_desc.geometries */
    bool depth;                             /* false: no depth attachment (later triangles paint over) */
    uint32_t depth_slot;                    /* depth only: index into kiln_program_desc.depth_transients */
    kiln_pass_load load;                    /* the colour output's load; a depth-only pass declares Load */
    /* DRAW_INDEXED_INDIRECT only: the program buffer holding the five u32 arguments (index count,
     * instance count, first index, base vertex, first instance) and their byte offset there. */
    uint32_t args_buffer;
    uint32_t args_offset;                   /* a multiple of 4, with 20 bytes after it in the buffer */
} kiln_draw_spec;

/* A compute pass's workgroup counts: fixed, or from the output extent (ceil(reference width /
 * workgroup_size.x), ceil(height / workgroup_size.y), 1, the entry point's constant sizes). */
typedef struct kiln_compute_spec {
    bool from_output;                       /* true: counts from the reference extent */
    /*@{*/
    uint32_t x, y, z;                       /* fixed counts, each 1..maxComputeWorkgroupsPerDimension */
    /*@}*/
} kiln_compute_spec;

/* A program buffer a pass binds: input k of the pass's buffer list binds at @group(2)
 * @binding(k) as var<storage, read_write> (write, compute passes only) or var<storage, read>. */
typedef struct kiln_buffer_use {
    uint32_t index;                         /* into kiln_program_desc.buffers */
    bool write;                             /* compute passes only */
} kiln_buffer_use;

#define KILN_PROGRAM_MAX_BUFFER_USES 4      /* most program buffers one pass binds */

/* Which windings a draw-sets pass discards: none, clockwise (Back) or counter-clockwise (Front)
 * triangles; the front face is counter-clockwise. */
typedef enum kiln_cull { KILN_CULL_NONE, KILN_CULL_BACK, KILN_CULL_FRONT } kiln_cull;
/* Whether a draw-sets pass writes the depth slot it tests against, or only tests. */
typedef enum kiln_depth_write { KILN_DEPTH_WRITE, KILN_DEPTH_TEST_ONLY } kiln_depth_write;

/* A draw-sets pass: one render pass issuing every draw of every set the dispatch lists at index
 * `list`, sets in list order and each set's draws in order. Buffer 0 is a draw's geometry (per
 * vertex, vertex_layout), buffer 1 its instance records (per instance, instance_layout); the two
 * layouts share no location. A set is drawn by a pass whose two layouts equal the set's. */
typedef struct kiln_draw_sets_spec {
    const char *vertex_entry_point;         /* a @vertex entry point of the module */
    kiln_geometry_layout vertex_layout;     /* every drawn geometry's layout */
    kiln_geometry_layout instance_layout;   /* every drawn instance buffer's layout */
    uint32_t list;                          /* index into the dispatch's draw-set lists */
    kiln_cull cull;                         /* None, Back or Front */
    bool depth;                             /* false: no depth attachment */
    uint32_t depth_slot;                    /* depth only: index into kiln_program_desc.depth_transients */
    kiln_depth_write depth_write;           /* depth only: Write, or TestOnly (never for a depth-only pass) */
    kiln_pass_load load;                    /* the colour output's load; a depth-only pass declares Load */
} kiln_draw_sets_spec;

/* One pass of a program's graph. Passes record in array order. */
typedef struct kiln_pass_spec {
    kiln_pass_stage stage;                  /* FRAGMENT, DRAW or DRAW_SETS run */
    const char *entry_point;                /* the fragment entry point */
    kiln_draw_spec draw;                    /* DRAW and DRAW_INDEXED_INDIRECT */
    kiln_draw_sets_spec draw_sets;          /* DRAW_SETS only */
    kiln_compute_spec compute;              /* COMPUTE only; entry_point names the @compute function */
    uint32_t buffer_count;                  /* program buffers the pass binds, at most KILN_PROGRAM_MAX_BUFFER_USES */
    kiln_buffer_use buffers[KILN_PROGRAM_MAX_BUFFER_USES]; /* buffer k binds at @group(2) @binding(k) */
    uint32_t input_count;                   /* inputs in use, at most KILN_PROGRAM_MAX_INPUTS */
    kiln_input_slot inputs[KILN_PROGRAM_MAX_INPUTS]; /* input n binds at @group(1) @binding(2n) */
    kiln_output_slot output;                /* where the pass writes */
    kiln_program_blend blend;               /* how its result composes with the output */
    /*@{*/
    uint32_t uniform_offset, uniform_length; /* bytes into the dispatch's blob; length 0: no block */
    /*@}*/
    uint32_t repeat_count;                  /* 0: no repeat (the pass records once) */
    uint32_t repeat_uniform_stride;         /* bytes the uniform window moves on per repetition */
} kiln_pass_spec;

/* A depth transient's size: Output of an extent (sized from the program's output, as a transient
 * is), or Fixed { side } texels square whatever the output (a shadow map; depth-only passes only). */
typedef struct kiln_depth_extent {
    bool fixed;                 /* false: Output(output) */
    kiln_slot_extent output;    /* Output only: Full or Divided */
    uint32_t side;              /* Fixed only: 1..the device's maxTextureDimension2D */
} kiln_depth_extent;

/* A depth transient: a pooled Depth32Float target draw passes clear and test against. Each slot
 * some pass names is its own texture; the pool never merges two. */
typedef struct kiln_depth_spec {
    kiln_depth_extent extent;   /* Output or Fixed */
    kiln_samples samples;       /* a Four slot is attached only, never read */
} kiln_depth_spec;

/* A program buffer: `size` bytes of storage (usable as indirect arguments) each dispatch gets
 * zeroed, which its compute passes write and later passes read. */
typedef struct kiln_buffer_spec {
    uint32_t size;                          /* a multiple of 4, 4..the device's maxStorageBufferBindingSize */
} kiln_buffer_spec;

/* Bytes of a program's label kept, NUL included. */
#define KILN_PROGRAM_LABEL_MAX 64

/* A program to register: one WGSL module and the pass graph that runs it. Copied at register;
 * nothing it points at is kept. */
typedef struct kiln_program_desc {
    const char *label;                      /* optional: names the program in every register and dispatch
                                             * message (`program "blur": ...`); NULL or "" for none; cut
                                             * to KILN_PROGRAM_LABEL_MAX - 1 bytes */
    const char *wgsl;                       /* the module's source, NUL-terminated */
    uint32_t binding_count;                 /* entries of bindings */
    const kiln_slot_spec *bindings;         /* the slots a dispatch binds, by texture id, in order */
    uint32_t transient_count;               /* entries of transients */
    const kiln_transient_spec *transients;  /* intermediate textures, from the runtime's pool */
    uint32_t geometry_count;                /* entries of geometries */
    const kiln_geometry_layout *geometries; /* geometry slots: the layout a dispatch's geometry must have */
    uint32_t depth_transient_count;         /* entries of depth_transients */
    const kiln_depth_spec *depth_transients; /* depth slots draw passes name */
    uint32_t buffer_count;                  /* entries of buffers */
    const kiln_buffer_spec *buffers;        /* program buffers compute passes write */
    uint32_t pass_count;                    /* entries of passes; 0 is refused (empty_graph) */
    const kiln_pass_spec *passes;           /* the graph, in record order */
} kiln_program_desc;

/* ---- register-time failure classes, in check order ---------------------------------------------
 * Each has a stable identifier (kiln_program_class_name) and its own message naming the pass and
 * slot at fault; docs/guides/programs.md lists them with their reasons. */
typedef enum kiln_program_class {
    KILN_PROGRAM_OK,
    KILN_PROGRAM_INVALID_WGSL,            /* "invalid_wgsl": the module does not compile or cannot be read, or an
                                           * integer varying lacks @interpolate(flat) */
    KILN_PROGRAM_EMPTY_GRAPH,             /* "empty_graph": no passes */
    KILN_PROGRAM_UNSUPPORTED_STAGE,       /* "unsupported_stage": a stage, input or list this build does not run */
    KILN_PROGRAM_BAD_GEOMETRY_SLOT,       /* "bad_geometry_slot": a geometry slot's layout breaks a layout rule */
    KILN_PROGRAM_BAD_DRAW_SETS_LAYOUT,    /* "bad_draw_sets_layout": a draw-sets pass's vertex or instance layout breaks a
                                           * layout rule, or the two share a location */
    KILN_PROGRAM_ZERO_DIVISOR,            /* "zero_divisor": a Divided extent with divisor 0 */
    KILN_PROGRAM_BAD_DEPTH_SIDE,          /* "bad_depth_side": a Fixed depth side outside 1..maxTextureDimension2D */
    KILN_PROGRAM_UNRESOLVABLE_SAMPLES,    /* "unresolvable_samples": a Four transient of a format that cannot resolve (R32Float) */
    KILN_PROGRAM_BAD_BUFFER,              /* "bad_buffer": a program buffer's size is 0, not a multiple of 4, or past
                                           * maxStorageBufferBindingSize */
    KILN_PROGRAM_BAD_BUFFER_USE,          /* "bad_buffer_use": a pass binds a buffer out of range, more than 4, one
                                           * twice, or writes one outside a compute pass */
    KILN_PROGRAM_COMPUTE_OUTPUT,          /* "compute_output": a compute pass declaring a colour output or a blend
                                           * other than Replace */
    KILN_PROGRAM_BAD_WORKGROUPS,          /* "bad_workgroups": a fixed count outside 1..maxComputeWorkgroupsPerDimension,
                                           * or counts from the output under a workgroup size that is not constant */
    KILN_PROGRAM_BAD_INDIRECT,            /* "bad_indirect": an indirect draw's argument buffer out of range, or its
                                           * offset not a multiple of 4 or leaving less than 20 bytes */
    KILN_PROGRAM_BAD_OUTPUT,              /* "bad_output": an output index out of range, or a non-Target binding as output */
    KILN_PROGRAM_MISSING_OUTPUT,          /* "missing_output": a fragment pass declaring output None */
    KILN_PROGRAM_BAD_GEOMETRY,            /* "bad_geometry": a draw pass's geometry slot out of range */
    KILN_PROGRAM_BAD_DEPTH,               /* "bad_depth": a draw pass's depth slot out of range */
    KILN_PROGRAM_FIXED_DEPTH,             /* "fixed_depth_with_output": a Fixed depth slot beside a colour output */
    KILN_PROGRAM_DEPTH_EXTENT,            /* "depth_extent_mismatch": a depth slot beside a colour output not
                                           * Output of that output's extent */
    KILN_PROGRAM_DEPTH_SAMPLES,           /* "depth_samples_mismatch": a depth slot's samples not the colour output's */
    KILN_PROGRAM_BAD_DEPTH_ONLY,          /* "bad_depth_only": a depth-only pass naming no depth slot, testing
                                           * only, or not declaring Blend Replace and Load */
    KILN_PROGRAM_BAD_LIST,                /* "bad_list": a draw-set list slot below the highest named that no pass
                                           * names */
    KILN_PROGRAM_BAD_INPUT,               /* "bad_input": an input index out of range */
    KILN_PROGRAM_BAD_DEPTH_INPUT,         /* "bad_depth_input": a depth input of a Four slot, of a slot no earlier
                                           * pass attaches, or of the slot the pass attaches */
    KILN_PROGRAM_READ_BEFORE_WRITE,       /* "read_before_write": a transient or PassOutput read before it is written */
    KILN_PROGRAM_READS_OWN_OUTPUT,        /* "reads_own_output": a pass reads the slot it writes */
    KILN_PROGRAM_FINAL_PASS_NOT_BINDING,  /* "final_pass_not_binding": the last pass does not write a binding */
    KILN_PROGRAM_REFERENCE_NOT_FULL,      /* "reference_not_full": the output binding is not Target(Full) */
    KILN_PROGRAM_BAD_REPEAT,              /* "bad_repeat": a repeat count outside 1..4096 */
    KILN_PROGRAM_MISSING_ENTRY_POINT,     /* "missing_entry_point": no @fragment function of that name (a @compute
                                           * one for a compute pass) */
    KILN_PROGRAM_MISSING_VERTEX_ENTRY,    /* "missing_vertex_entry_point": a draw pass's vertex entry point is no
                                           * @vertex function of the module */
    KILN_PROGRAM_VERTEX_LAYOUT_MISMATCH,  /* "vertex_layout_mismatch": the vertex stage reads a location its
                                           * geometry slot does not declare, or as another type */
    KILN_PROGRAM_UNIFORM_WINDOW_SHORT,    /* "uniform_window_short": the window does not cover the block at
                                           * @group(0) @binding(0) (of either stage of a draw pass) */
    KILN_PROGRAM_INPUT_MISMATCH,          /* "input_mismatch": the shader's group 1 declaration disagrees with an input */
    KILN_PROGRAM_BUFFER_MISMATCH,         /* "buffer_mismatch": the shader's group 2 declaration disagrees with the
                                           * pass's buffers */
    KILN_PROGRAM_DEPTH_ONLY_COLOR,        /* "depth_only_returns_color": a depth-only pass's fragment entry point
                                           * returns a colour */
    KILN_PROGRAM_UNDECLARED_DEPTH,        /* "frag_depth_without_slot": a fragment entry point writes frag_depth in
                                           * a pass that attaches no depth slot */
    KILN_PROGRAM_PIPELINE_FAILED,         /* "pipeline_creation_failed": Dawn refused a pipeline (or blending on a format the device cannot blend) */
    KILN_PROGRAM_DEVICE_LIMIT,            /* "device_limit" (kiln's own): the program needs more than a device limit allows, named in the message */
    KILN_PROGRAM_CLASS_COUNT
} kiln_program_class;

/* The stable identifier of a class ("bad_input"); "invalid_class" for a value outside the enum. */
const char *kiln_program_class_name(kiln_program_class c);

/* Why kiln_programs_register refused a program. */
typedef struct kiln_program_error {
    kiln_program_class cls;     /* the first failure class met, in check order */
    char message[512];          /* NUL-terminated, naming the pass and slot at fault */
} kiln_program_error;

/* ---- the runtime ---------------------------------------------------------------------------------- */

/* The program runtime: registered programs, their pipelines, a frame graph and the log. Opaque. */
typedef struct kiln_programs kiln_programs;

/* Creates an empty runtime over gfx, res and textures (all borrowed; they must outlive it), or
 * returns NULL with err filled. */
kiln_programs *kiln_programs_create(kiln_gfx *gfx, kiln_resources *res, kiln_texture_registry *textures,
                                    kiln_error *err);
/* Destroys the runtime with every program, pipeline and pooled transient; NULL is a no-op. */
void kiln_programs_destroy(kiln_programs *p);
/* Device replacement, after the device was lost: a runtime on the new gfx and res, over
 * `textures` (the old registry moved with kiln_texture_registry_move_to, or another), with every
 * geometry back under its id from its CPU copy (its buffers made again on the new device when
 * next drawn) and every registered program rebuilt under its id from its kept WGSL and validated
 * plan, its timings carried over; a program whose pipelines do not build on the new device is quarantined (its id
 * stays taken, its dispatches warn-drop as unknown_program saying so) while the others carry
 * on. Queued dispatches are dropped, never replayed. Returns the new runtime and destroys `old`
 * (destroy the old resources and gfx after); NULL with err, `old` untouched, when the new
 * runtime cannot be made. */
kiln_programs *kiln_programs_recreate(kiln_programs *old, kiln_gfx *gfx, kiln_resources *res,
                                      kiln_texture_registry *textures, kiln_error *err);

/* Returns the program id (dense from 1, never reused), or 0 with err filled. A rejected register
 * consumes no id. */
uint32_t kiln_programs_register(kiln_programs *p, const kiln_program_desc *desc, kiln_program_error *err);
/* Releases the program's pipelines; pooled transients stay in the pool. An unknown id is a
 * warn-drop (logged, false). */
bool kiln_programs_destroy_program(kiln_programs *p, uint32_t program_id);

/* The most graph passes (a pass's iterations count one each: repeat 4096 is 4096) that the
 * dispatches queued for one frame may record together. Work per frame stays bounded by what a
 * message can ask for: 100 passes repeated 4096 times is 28 s on a software rasteriser, and past
 * this limit such a dispatch is refused whole (frame_pass_limit) before anything records. A
 * single pass at the largest repeat (4096) always fits, sixteen times over. */
#define KILN_PROGRAMS_MAX_FRAME_PASSES 65536u

/* Dispatch drop classes: the dispatch is dropped whole, before anything is recorded, with a
 * warning naming program, pass and binding in the log. */
typedef enum kiln_dispatch_class {
    KILN_DISPATCH_OK,
    KILN_DISPATCH_UNKNOWN_PROGRAM,        /* "unknown_program" */
    KILN_DISPATCH_BINDING_COUNT,          /* "binding_count" */
    KILN_DISPATCH_GEOMETRY_COUNT,         /* "geometry_count" */
    KILN_DISPATCH_UNKNOWN_TEXTURE,        /* "unknown_texture" */
    KILN_DISPATCH_FORMAT_MISMATCH,        /* "format_mismatch" */
    KILN_DISPATCH_TARGET_SIZE,            /* "target_size_mismatch" */
    KILN_DISPATCH_WRONG_KIND,             /* "wrong_texture_kind" */
    KILN_DISPATCH_NOT_WRITABLE,           /* "not_writable" */
    KILN_DISPATCH_UNKNOWN_GEOMETRY,       /* "unknown_geometry": a geometry slot names no live geometry */
    KILN_DISPATCH_GEOMETRY_LAYOUT,        /* "geometry_layout_mismatch": the geometry was created with another layout */
    KILN_DISPATCH_DRAW_SET_COUNT,         /* "draw_set_count": the list count differs from the program's list slots */
    KILN_DISPATCH_UNKNOWN_DRAW_SET,       /* "unknown_draw_set": a list names a draw set not live */
    KILN_DISPATCH_DRAW_SET_LAYOUT,        /* "draw_set_layout_mismatch": a listed set's layouts are not those of a
                                           * pass drawing its list */
    KILN_DISPATCH_UNIFORMS_SHORT,         /* "uniforms_short" */
    KILN_DISPATCH_INPUT_IS_OUTPUT,        /* "input_is_output" */
    KILN_DISPATCH_FRAME_PASS_LIMIT,       /* "frame_pass_limit": the frame would record more than
                                           * KILN_PROGRAMS_MAX_FRAME_PASSES passes (kiln's own) */
    KILN_DISPATCH_DEVICE_LIMIT,           /* "device_limit": the frame's uniform ring would pass the
                                           * device's maxBufferSize (kiln's own) */
    KILN_DISPATCH_CLASS_COUNT
} kiln_dispatch_class;

/* The stable identifier of a class ("unknown_texture"); "invalid_class" for a value outside the
 * enum. */
const char *kiln_dispatch_class_name(kiln_dispatch_class c);

/* Checks and queues a dispatch of a program without geometry slots; returns its class
 * (KILN_DISPATCH_OK when queued). The blob is copied. */
kiln_dispatch_class kiln_programs_dispatch(kiln_programs *p, uint32_t program_id, const uint32_t *texture_ids,
                                           uint32_t texture_count, const void *uniforms, size_t uniforms_size);

/* A dispatch of any program: its textures, one per binding, and its geometries, one per geometry
 * slot, by id, in declaration order. */
typedef struct kiln_dispatch_desc {
    uint32_t program_id;        /* as kiln_programs_register returned it */
    const uint32_t *texture_ids; /* one registry id per binding */
    uint32_t texture_count;     /* entries of texture_ids */
    const uint32_t *geometry_ids; /* one geometry id per geometry slot */
    uint32_t geometry_count;    /* entries of geometry_ids */
    uint32_t draw_set_list_count; /* lists, one per list slot the program's draw-sets passes name */
    const uint32_t *draw_set_list_lengths; /* per list: how many set ids it holds (0 is an empty list) */
    const uint32_t *draw_set_ids; /* every list's set ids, list after list */
    const void *uniforms;       /* the blob the passes' windows read; copied */
    size_t uniforms_size;       /* bytes at uniforms */
} kiln_dispatch_desc;
/* kiln_programs_dispatch with geometries. A geometry named here and destroyed before the frame
 * records drops the dispatch whole then (logged), as a destroyed texture does. */
kiln_dispatch_class kiln_programs_dispatch_with(kiln_programs *p, const kiln_dispatch_desc *desc);

/* ---- instance buffers -----------------------------------------------------------------------------
 * An instance buffer holds `capacity` records, each one instance's attributes under a layout (the
 * geometry vocabulary and stride rule); kiln does not interpret them. Ids are dense from 1, never
 * reused. The CPU copy is the source of truth; the GPU buffer is made by the upload queue or the
 * first draw that needs it, and afterwards receives only the records written since. */

/* What create_instances takes: the layout and capacity fixed for the buffer's life, and initial
 * records from record 0 (fewer than the capacity is fine; the rest start zeroed). */
typedef struct kiln_instances_desc {
    kiln_geometry_layout layout; /* the record layout */
    uint32_t capacity;          /* records, at least 1 */
    const void *records;        /* a whole number of records; NULL with records_size 0: all zero */
    size_t records_size;        /* bytes at records */
} kiln_instances_desc;

/* Why create_instances or update_instances refused, in check order. The layout classes are the
 * geometry ones (kiln_geometry_class_name names them); these follow. */
typedef enum kiln_instances_class {
    KILN_INSTANCES_OK,
    KILN_INSTANCES_BAD_LAYOUT,          /* "bad_instance_layout": the layout breaks a layout rule */
    KILN_INSTANCES_ZERO_CAPACITY,       /* "zero_capacity": a capacity of 0 */
    KILN_INSTANCES_TOO_LARGE,           /* "instances_too_large": capacity * stride past KILN_GEOMETRY_MAX_BYTES */
    KILN_INSTANCES_RECORD_BYTES,        /* "record_bytes": not a whole number of records */
    KILN_INSTANCES_PAST_CAPACITY,       /* "records_past_capacity": the records (from first) pass the capacity */
    KILN_INSTANCES_UNKNOWN_ID,          /* "unknown_instances": update or destroy of an id not live */
    KILN_INSTANCES_CLASS_COUNT
} kiln_instances_class;
/* The stable identifier of a class; "invalid_class" outside the enum. */
const char *kiln_instances_class_name(kiln_instances_class c);

/* Why an instance buffer was refused. */
typedef struct kiln_instances_error {
    kiln_instances_class cls;   /* the first failure class met */
    char message[256];          /* NUL-terminated, naming the value at fault */
} kiln_instances_error;

/* Validates and copies; returns the id, or 0 with err filled. */
uint32_t kiln_programs_create_instances(kiln_programs *p, const kiln_instances_desc *desc, kiln_instances_error *err);
/* Overwrites records [first, first + size / stride) in place. Fire-and-forget: an unknown id, a
 * length off the stride or a run past the capacity is a warn-drop (logged, false) and no record
 * changes; an empty run writes nothing (true). */
bool kiln_programs_update_instances(kiln_programs *p, uint32_t instances_id, uint32_t first, const void *records,
                                    size_t records_size, kiln_instances_error *err);
/* Retires the id at once; the records live on while a draw set holds the buffer. An unknown id
 * is a warn-drop. */
bool kiln_programs_destroy_instances(kiln_programs *p, uint32_t instances_id);

/* ---- draw sets -------------------------------------------------------------------------------------
 * A draw set is a retained list of draws under two layouts fixed at create; every check runs when
 * it is made or patched, so a pass walking it checks nothing per draw. A set holds the geometries
 * and instance buffers its draws name: destroyed under it, they retire their ids and keep drawing
 * for the set until its last draw of them goes. */

/* One draw: indices [first, first + count) of a geometry, once per record of a run of an instance
 * buffer. A zero count draws nothing (and blanks the entry without moving the others). */
typedef struct kiln_draw {
    uint32_t geometry_id;       /* a live geometry under the set's vertex layout */
    /*@{*/
    uint32_t index_first, index_count;      /* the run of indices drawn */
    /*@}*/
    uint32_t instances_id;      /* a live instance buffer under the set's instance layout */
    /*@{*/
    uint32_t instance_first, instance_count; /* the run of records drawn, one instance each */
    /*@}*/
} kiln_draw;

/* Why create_draw_set or update_draw_set refused, in check order; a per-draw reason starts
 * `draw N: `, N the draw's position in the call's draws. */
typedef enum kiln_draw_set_class {
    KILN_DRAW_SET_OK,
    KILN_DRAW_SET_BAD_LAYOUT,           /* "bad_draw_set_layout": a layout breaks a layout rule, or the two share a location */
    KILN_DRAW_SET_UNKNOWN_ID,           /* "unknown_draw_set": update or destroy of an id not live */
    KILN_DRAW_SET_BAD_FIRST,            /* "patch_past_end": a patch starting past the set's length */
    KILN_DRAW_SET_UNKNOWN_GEOMETRY,     /* "unknown_geometry": a draw names a geometry id not live */
    KILN_DRAW_SET_GEOMETRY_LAYOUT,      /* "geometry_layout_mismatch": the geometry's layout is not the vertex layout */
    KILN_DRAW_SET_INDEX_RANGE,          /* "index_range": the index run ends past the geometry's indices */
    KILN_DRAW_SET_UNKNOWN_INSTANCES,    /* "unknown_instances": a draw names an instance buffer not live */
    KILN_DRAW_SET_INSTANCES_LAYOUT,     /* "instances_layout_mismatch": the buffer's layout is not the instance layout */
    KILN_DRAW_SET_INSTANCE_RANGE,       /* "instance_range": the record run ends past the buffer's capacity */
    KILN_DRAW_SET_CLASS_COUNT
} kiln_draw_set_class;
/* The stable identifier of a class; "invalid_class" outside the enum. */
const char *kiln_draw_set_class_name(kiln_draw_set_class c);

/* Why a draw set was refused. */
typedef struct kiln_draw_set_error {
    kiln_draw_set_class cls;    /* the first failure class met */
    char message[256];          /* NUL-terminated, naming the draw and value at fault */
} kiln_draw_set_error;

/* Checks every draw and makes the set; returns its id (dense from 1, never reused), or 0 with err
 * filled, holding nothing. */
uint32_t kiln_programs_create_draw_set(kiln_programs *p, const kiln_geometry_layout *vertex_layout,
                                       const kiln_geometry_layout *instance_layout, const kiln_draw *draws,
                                       uint32_t draw_count, kiln_draw_set_error *err);
/* Writes `draws` over the set from position `first` (at most the set's length): entries inside are
 * overwritten, a run past the end extends it, and an empty run truncates the set to `first`
 * entries. A refused patch leaves the set exactly as it was. */
bool kiln_programs_update_draw_set(kiln_programs *p, uint32_t draw_set_id, uint32_t first, const kiln_draw *draws,
                                   uint32_t draw_count, kiln_draw_set_error *err);
/* Releases the set and everything it holds; the id is never handed out again. An unknown id is a
 * warn-drop. */
bool kiln_programs_destroy_draw_set(kiln_programs *p, uint32_t draw_set_id);
/* The number of draws a live set holds; 0 for an unknown id (or an empty set). */
uint32_t kiln_programs_draw_set_length(const kiln_programs *p, uint32_t draw_set_id);

/* ---- geometry resources ------------------------------------------------------------------------
 * Geometry ids are dense from 1 and never reused; a refused create takes none. The bytes given are
 * the source of truth: GPU buffers are made from them by the upload queue (a few per record call)
 * or by the first dispatch that draws the geometry, and made again after a device replacement. */

/* Validates and copies the geometry; returns its id, or 0 with err filled. */
uint32_t kiln_programs_create_geometry(kiln_programs *p, const kiln_geometry_desc *desc, kiln_geometry_error *err);
/* Replaces both byte arrays wholesale under the layout fixed at create (desc->layout is ignored);
 * lengths may change, except while a draw set holds the geometry: then only the vertex contents
 * may change (same vertex count, byte-identical indices). Fire-and-forget: an unknown id or bytes that fail the create rules are a
 * warn-drop (logged, false, err filled when given) and the previous content stays. */
bool kiln_programs_update_geometry(kiln_programs *p, uint32_t geometry_id, const kiln_geometry_desc *desc,
                                   kiln_geometry_error *err);
/* Retires the id for good and releases its bytes and buffers (once no draw set holds it); an
 * unknown id is a warn-drop. */
bool kiln_programs_destroy_geometry(kiln_programs *p, uint32_t geometry_id);
/* The layout a live geometry was created with; NULL for an unknown or destroyed id. */
const kiln_geometry_layout *kiln_programs_geometry_layout(const kiln_programs *p, uint32_t geometry_id);
/* Geometry statistics: live geometries, and those whose GPU buffers exist. */
typedef struct kiln_geometry_stats {
    uint32_t live;              /* geometries created and not destroyed */
    uint32_t on_gpu;            /* of those, realized on the current device */
} kiln_geometry_stats;
/* The runtime's geometry statistics now. */
kiln_geometry_stats kiln_programs_geometry_stats(const kiln_programs *p);

/* Records every queued dispatch, in arrival order, into enc; the encoder is submitted and
 * continued in a fresh one after every 1024 program passes (enc is updated). */
bool kiln_programs_record(kiln_programs *p, kiln_encoder *enc, kiln_error *err);
/* Convenience: a fresh encoder, record, submit. */
bool kiln_programs_frame(kiln_programs *p, kiln_error *err);

/* Whether a queued dispatch names the texture (as any binding): a caller about to change or
 * destroy it records the queue first, so the dispatches see the texture as it was when they
 * arrived (the JSON surface does this for update_texture and destroy_texture). */
bool kiln_programs_queue_uses_texture(const kiln_programs *p, uint32_t texture_id);
/* The same for a geometry (the JSON surface records first for update_geometry and
 * destroy_geometry; a C caller that does not, and destroys one, has the dispatch dropped). */
bool kiln_programs_queue_uses_geometry(const kiln_programs *p, uint32_t geometry_id);
/* The same for a draw set a queued dispatch lists, and for an instance buffer a listed set holds
 * (the JSON surface records first for update_draw_set, destroy_draw_set and update_instances). */
bool kiln_programs_queue_uses_draw_set(const kiln_programs *p, uint32_t draw_set_id);
bool kiln_programs_queue_uses_instances(const kiln_programs *p, uint32_t instances_id);
/* The error of the first dispatch which failed and writes the texture, in the last record that
 * had dispatches to record, or NULL. A failure belongs to the dispatch that failed: a reader of a texture no
 * failed dispatch wrote reads it as the successful dispatches left it. */
const char *kiln_programs_write_failure(const kiln_programs *p, uint32_t texture_id);
/* How many dispatches of the last record that had any failed (each logged; the record returned
 * false). */
uint32_t kiln_programs_failed_dispatches(const kiln_programs *p);
/* kiln_programs_frame for a reader of one texture: succeeds when the frame recorded, or when only
 * dispatches that do not write the texture failed; fails with the failing writer's error, or
 * the record's own when it failed as a whole. read_texture and kiln-run's save_texture use it. */
bool kiln_programs_frame_for_read(kiln_programs *p, uint32_t texture_id, kiln_error *err);

/* One row per pass of a program: stage, the resolved size and divisor of the last accepted
 * dispatch (0 / 0 before the first), CPU record time, and GPU time where timestamp queries exist
 * (gpu_ns < 0 otherwise). Returns the number of rows written (at most max). */
typedef struct kiln_pass_timing {
    kiln_pass_stage stage;      /* the pass's declared stage */
    /*@{*/
    uint32_t width, height, divisor; /* output size in texels and divisor (1 for Full) of the last accepted dispatch */
    /*@}*/
    double cpu_record_ns;       /* CPU time recording the pass, nanoseconds */
    double gpu_ns;              /* GPU time, nanoseconds; < 0 until measured, or without timestamps */
} kiln_pass_timing;
/* Writes up to max kiln_pass_timing rows for program_id, in pass order; 0 for an unknown id. */
uint32_t kiln_programs_timings(const kiln_programs *p, uint32_t program_id, kiln_pass_timing *rows, uint32_t max);
/* Waits for the GPU work submitted so far and delivers its timestamp readbacks, so that the next
 * kiln_programs_timings reports the GPU time of every frame submitted before this call (it
 * otherwise reports what the pumps since have delivered). Blocks until the queue is idle: for a
 * caller between frames, as the JSON surface's program.timings is. Returns at once without
 * timestamp queries or a runtime. */
void kiln_programs_await_timings(kiln_programs *p);

/* Transient pool statistics, read from the runtime's frame graph pool. */
typedef struct kiln_pool_stats {
    uint32_t classes;             /* distinct (size, format, samples) classes held */
    uint32_t textures;            /* physical textures held: used by the last record call or kept idle */
    uint32_t textures_last_dispatch; /* physical textures the last dispatch recorded used */
} kiln_pool_stats;
/* The runtime's current transient pool statistics. */
kiln_pool_stats kiln_programs_pool_stats(const kiln_programs *p);

/* Warnings (drops) and errors, category "program". */
kiln_log *kiln_programs_log(kiln_programs *p);

#ifdef __cplusplus
}
#endif

#endif
