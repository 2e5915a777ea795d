/* The schema of the JSON surface, as describe_kinds answers it: every kind with its fields (name,
 * type, required or optional) and reply, and every named type with its fields or enum forms.
 *
 * The kind table is also the list of kinds kiln_json_parse_message accepts, so a kind cannot be
 * answered without being described; tests/program/test_json_surface.c checks in turn that every
 * described kind reaches a handler and that every required field it lists is enforced. Texture
 * format forms come from the registry's own format table, every other form name from
 * program_forms.c's tables; this file adds only the docs of inline payload fields. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include <kiln/program_json.h>

#include "program_forms.h"
#include "program_layout.h"

typedef struct field_doc {
    const char *name;
    const char *type;   /* "u32", "string", "Blob", "array<T>", or a type of the types table */
    bool required;      /* false: may be absent or null */
    const char *doc;
} field_doc;

/* A type is a struct (fields), or an externally tagged enum (forms: a string form, or
 * {"Form": payload}) whose inline payload objects have the fields payloads[value]. */
typedef struct type_doc {
    const char *name;                 /* NULL: the forms table's type name */
    const char *doc;
    const field_doc *fields;
    const program_enum *forms;
    const field_doc *const *payloads; /* indexed by the form's value; NULL: no inline payload */
} type_doc;

typedef struct kind_doc {
    const char *kind;
    const char *doc;
    const field_doc *fields;
    const char *reply;
} kind_doc;

/* ---- kinds ------------------------------------------------------------------------------------ */

static const field_doc NO_FIELDS[] = {{0}};

static const field_doc CREATE_TEXTURE[] = {
    {"format", "TextureFormat", true, NULL},
    {"width", "u32", true, NULL},
    {"height", "u32", true, NULL},
    {"usage", "TextureUsage", true, NULL},
    {"sampling", "TextureSampling", true, NULL},
    {"pixels", "Blob", false, "width * height * format bytes, rows top-down; absent: zero-filled"},
    {0}};
static const field_doc UPDATE_TEXTURE[] = {
    {"texture_id", "u32", true, NULL},
    {"pixels", "Blob", true, "the whole texture, same size and format"},
    {0}};
static const field_doc TEXTURE_ID[] = {{"texture_id", "u32", true, NULL}, {0}};
static const field_doc CREATE_TEXTURE_ARRAY[] = {
    {"format", "TextureFormat", true, NULL},
    {"side", "u32", true, "each layer is side x side texels; 1..the device's maxTextureDimension2D"},
    {"layers", "u32", true, "1..the device's maxTextureArrayLayers"},
    {"mips", "Mips", true, "Base: one level; Chain: floor(log2(side)) + 1 levels, every write supplies them all"},
    {0}};
static const field_doc WRITE_TEXTURE_LAYER[] = {
    {"texture_id", "u32", true, "an array"},
    {"layer", "u32", true, "below the array's layer count"},
    {"pixels", "Blob", true, "every level of the layer, base level first, each row-major and top-down"},
    {0}};
static const field_doc CREATE_TEXTURE_VOLUME[] = {
    {"format", "TextureFormat", true, NULL},
    {"width", "u32", true, "1..2048"},
    {"height", "u32", true, "1..2048"},
    {"depth", "u32", true, "1..2048"},
    {"pixels", "Blob", true, "width * height * depth * format bytes: slices, slice 0 first, each row-major and top-down"},
    {0}};
static const field_doc PROGRAM_ID[] = {{"program_id", "u32", true, NULL}, {0}};
static const field_doc PROGRAM_REGISTER[] = {
    {"label", "string", false, "names the program in every register and dispatch message; cut to 63 bytes"},
    {"wgsl", "string", true, "the program's one WGSL module"},
    {"bindings", "array<SlotSpec>", true, "textures each dispatch supplies, in order"},
    {"transients", "array<TransientSpec>", true, "pooled intermediates"},
    {"geometries", "array<GeometrySlotSpec>", true, "geometry slots draw passes name; [] without draw passes"},
    {"depth_transients", "array<DepthSpec>", true, "depth slots draw passes attach; [] without draw passes"},
    {"buffers", "array<BufferSpec>", false, "program buffers compute passes write (kiln's own); absent: none"},
    {"passes", "array<PassSpec>", true, "the pass sequence"},
    {0}};
static const field_doc PROGRAM_DISPATCH[] = {
    {"program_id", "u32", true, NULL},
    {"bindings", "array<u32>", true, "one texture id per declared binding"},
    {"geometries", "array<u32>", true, "one geometry id per declared geometry slot"},
    {"draw_sets", "array<array<u32>>", true, "one list of draw-set ids per list slot the draw-sets passes name"},
    {"uniforms", "Blob", true, "the bytes the passes' uniform windows read"},
    {0}};
static const field_doc CREATE_GEOMETRY[] = {
    {"layout", "array<VertexAttribute>", true, "attributes in packing order; fixed for the geometry's life"},
    {"vertices", "Blob", true, "vertex after vertex, attributes packed in layout order with no padding"},
    {"indices", "Blob", true, "u32 little-endian, three per triangle, each below the vertex count"},
    {0}};
static const field_doc UPDATE_GEOMETRY[] = {
    {"geometry_id", "u32", true, NULL},
    {"vertices", "Blob", true, "the whole new vertex array, under the created layout"},
    {"indices", "Blob", true, "the whole new index array"},
    {0}};
static const field_doc GEOMETRY_ID[] = {{"geometry_id", "u32", true, NULL}, {0}};
static const field_doc CREATE_INSTANCES[] = {
    {"layout", "array<VertexAttribute>", true, "the record layout; fixed for the buffer's life"},
    {"capacity", "u32", true, "records, fixed for the buffer's life"},
    {"records", "Blob", true, "initial records from record 0; the rest start zeroed"},
    {0}};
static const field_doc UPDATE_INSTANCES[] = {
    {"instances_id", "u32", true, NULL},
    {"first", "u32", true, "the first record written"},
    {"records", "Blob", true, "a whole number of records, ending at or before the capacity"},
    {0}};
static const field_doc INSTANCES_ID[] = {{"instances_id", "u32", true, NULL}, {0}};
static const field_doc CREATE_DRAW_SET[] = {
    {"vertex_layout", "array<VertexAttribute>", true, "every draw's geometry layout"},
    {"instance_layout", "array<VertexAttribute>", true, "every draw's instance buffer layout"},
    {"draws", "array<DrawSpec>", true, NULL},
    {0}};
static const field_doc UPDATE_DRAW_SET[] = {
    {"draw_set_id", "u32", true, NULL},
    {"first", "u32", true, "at most the set's length; draws past the end extend it"},
    {"draws", "array<DrawSpec>", true, "written from first; empty: truncates the set to first draws"},
    {0}};
static const field_doc DRAW_SET_ID[] = {{"draw_set_id", "u32", true, NULL}, {0}};
static const field_doc DESCRIBE_KINDS[] = {
    {"prefix", "string", false, "only kinds whose name starts with it"},
    {0}};

static const kind_doc KINDS[] = {
    {"create_texture", "creates a registry texture", CREATE_TEXTURE, "{\"texture_id\": u32}"},
    {"update_texture", "replaces a plain texture's pixels", UPDATE_TEXTURE, "{}"},
    {"destroy_texture", "releases a texture, array or volume; its id is never handed out again", TEXTURE_ID, "{}"},
    {"read_texture", "records queued dispatches, then reads a plain texture's current pixels", TEXTURE_ID,
     "{\"texture_id\": u32, \"format\": TextureFormat, \"width\": u32, \"height\": u32, \"pixels\": base64}"},
    {"create_texture_array", "creates a texture array; every layer reads zero until written", CREATE_TEXTURE_ARRAY,
     "{\"texture_id\": u32}"},
    {"write_texture_layer", "replaces one layer of an array, every level; Err (logged, layer unchanged) when dropped",
     WRITE_TEXTURE_LAYER, "{}"},
    {"create_texture_volume", "creates an immutable volume texture from its whole contents", CREATE_TEXTURE_VOLUME,
     "{\"texture_id\": u32}"},
    {"create_geometry", "validates and stages a triangle list; its GPU buffers follow", CREATE_GEOMETRY,
     "{\"geometry_id\": u32}"},
    {"update_geometry", "replaces a geometry's bytes wholesale; refused: logged, the old content stays",
     UPDATE_GEOMETRY, "{}"},
    {"destroy_geometry", "releases a geometry; its id is never handed out again", GEOMETRY_ID, "{}"},
    {"create_instances", "an instance buffer of capacity records under a layout", CREATE_INSTANCES,
     "{\"instances_id\": u32}"},
    {"update_instances", "overwrites a run of records in place; refused: logged, every record as it was",
     UPDATE_INSTANCES, "{}"},
    {"destroy_instances", "retires an instance buffer's id; a draw set holding it keeps drawing it", INSTANCES_ID,
     "{}"},
    {"create_draw_set", "a retained list of draws, every draw checked now", CREATE_DRAW_SET,
     "{\"draw_set_id\": u32}"},
    {"update_draw_set", "overwrites, extends or truncates a set's draws; refused: the set as it was",
     UPDATE_DRAW_SET, "{}"},
    {"destroy_draw_set", "releases a set and what it holds; its id is never handed out again", DRAW_SET_ID, "{}"},
    {"program.register", "validates and compiles a program", PROGRAM_REGISTER, "{\"program_id\": u32}"},
    {"program.dispatch", "checks and queues a dispatch (recorded at the next frame); Err when dropped",
     PROGRAM_DISPATCH, "{}"},
    {"program.destroy", "releases a program's pipelines", PROGRAM_ID, "{}"},
    {"program.timings", "one row per pass of the program's last accepted dispatch", PROGRAM_ID,
     "{\"program_id\": u32, \"rows\": [{\"stage\": string, \"width\": u32, \"height\": u32, \"divisor\": u32, "
     "\"cpu_record_ns\": number, \"gpu_ns\": number|null}]}"},
    {"logs", "drains the program log", NO_FIELDS,
     "{\"records\": [{\"level\": string, \"category\": string, \"message\": string}], \"dropped\": u64}"},
    {"describe_kinds", "this schema", DESCRIBE_KINDS, "{\"kinds\": [...], \"types\": {...}}"},
    {"frame", "records every queued dispatch, in arrival order, and submits", NO_FIELDS, "{}"},
};

#define KIND_COUNT (sizeof KINDS / sizeof KINDS[0])

uint32_t kiln_json_kind_count(void) {
    return (uint32_t)KIND_COUNT;
}

const char *kiln_json_kind_name(uint32_t i) {
    return i < KIND_COUNT ? KINDS[i].kind : NULL;
}

/* ---- types ------------------------------------------------------------------------------------ */

static const field_doc INDEX[] = {{"index", "u32", true, NULL}, {0}};
static const field_doc PASS_INDEX[] = {{"pass", "u32", true, "an earlier pass whose output is read"}, {0}};
static const field_doc DEPTH_INPUT[] = {{"index", "u32", true, NULL}, {"read", "DepthRead", true, NULL}, {0}};
static const field_doc DIVIDED[] = {{"divisor", "u32", true, "at least 1"}, {0}};
static const field_doc FIXED[] = {{"side", "u32", true, "texels square, 1..the device's maxTextureDimension2D"}, {0}};
static const field_doc VERTEX_ATTRIBUTE[] = {
    {"location", "u32", true, "the @location the vertex stage reads it at, 0..15, once per layout"},
    {"format", "VertexFormat", true, NULL},
    {0}};
static const field_doc GEOMETRY_SLOT_SPEC[] = {
    {"layout", "array<VertexAttribute>", true, "the layout a dispatch's geometry must have been created with"},
    {0}};
static const field_doc DEPTH_SPEC[] = {
    {"extent", "DepthExtent", true, NULL},
    {"samples", "Samples", true, "a Four slot is attached only, never read"},
    {0}};
static const field_doc DRAW_PASS[] = {
    {"vertex_entry_point", "string", true, "a @vertex entry point of the module"},
    {"geometry", "u32", true, "the geometry slot drawn"},
    {"depth", "u32", true, "the depth slot attached, or null for none (later triangles paint over)"},
    {"load", "PassLoad", true, "Clear: the first iteration clears the output; Load: none does"},
    {0}};
static const field_doc FILTERED[] = {{"wrap", "Wrap", true, NULL}, {"mips", "Mips", true, NULL}, {0}};

static const field_doc SLOT_SPEC[] = {
    {"format", "TextureFormat", true, NULL},
    {"shape", "SlotShape", true, NULL},
    {"sampling", "Sampling", true, NULL},
    {0}};
static const field_doc TRANSIENT_SPEC[] = {
    {"format", "TextureFormat", true, NULL},
    {"extent", "SlotExtent", true, NULL},
    {"samples", "Samples", true, NULL},
    {0}};
static const field_doc PASS_SPEC[] = {
    {"stage", "PassStage", true, NULL},
    {"entry_point", "string", true, "the @fragment entry point"},
    {"inputs", "array<InputSlot>", true, "at most 8; input n binds at @group(1) @binding(2n) (+1: its sampler)"},
    {"output", "OutputSlot", true, NULL},
    {"blend", "Blend", true, NULL},
    {"uniform_offset", "u32", true, "bytes into the dispatch's uniforms"},
    {"uniform_length", "u32", true, "0: the entry point reads no uniform block"},
    {"repeat", "PassRepeat", false, "absent or null: the pass records once"},
    {"buffers", "array<BufferUse>", false, "program buffers bound at @group(2) @binding(k); absent: none"},
    {0}};
static const field_doc PASS_REPEAT[] = {
    {"count", "u32", true, "1..4096"},
    {"uniform_stride", "u32", true, "iteration i reads its window at uniform_offset + i * uniform_stride"},
    {0}};

/* The fields of each inline payload object, by form. */
static const field_doc *const EXTENT_PAYLOADS[] = {[PROGRAM_EXTENT_DIVIDED] = DIVIDED};
static const field_doc *const SAMPLING_PAYLOADS[] = {[PROGRAM_SAMPLING_FILTERED] = FILTERED};
static const field_doc *const INPUT_PAYLOADS[] = {
    [KILN_INPUT_BINDING] = INDEX,
    [KILN_INPUT_TRANSIENT] = INDEX,
    [KILN_INPUT_PASS_OUTPUT] = PASS_INDEX,
    [KILN_INPUT_DEPTH] = DEPTH_INPUT,
};
static const field_doc *const OUTPUT_PAYLOADS[] = {[KILN_OUTPUT_BINDING] = INDEX, [KILN_OUTPUT_TRANSIENT] = INDEX};
static const field_doc *const DEPTH_EXTENT_PAYLOADS[] = {[PROGRAM_DEPTH_EXTENT_FIXED] = FIXED};
static const field_doc RANGE[] = {{"first", "u32", true, NULL}, {"count", "u32", true, "0 draws nothing"}, {0}};
static const field_doc DRAW_SPEC[] = {
    {"geometry_id", "u32", true, NULL},
    {"indices", "Range", true, "counts indices"},
    {"instances_id", "u32", true, NULL},
    {"instances", "Range", true, "counts records"},
    {0}};
static const field_doc DEPTH_USE[] = {
    {"slot", "u32", true, "the depth transient attached"},
    {"write", "DepthWrite", true, NULL},
    {0}};
static const field_doc BUFFER_SPEC[] = {{"size", "u32", true, "bytes, a non-zero multiple of 4"}, {0}};
static const field_doc BUFFER_USE[] = {
    {"index", "u32", true, "the program buffer"},
    {"write", "bool", true, "var<storage, read_write>; compute passes only"},
    {0}};
static const field_doc COMPUTE_PASS[] = {
    {"workgroups", "array<u32>", true, "three fixed counts, or \"Output\": enough to cover the output at the entry's @workgroup_size"},
    {0}};
static const field_doc INDIRECT_ARGS[] = {
    {"buffer", "u32", true, "the program buffer holding the five u32 arguments"},
    {"offset", "u32", true, "a multiple of 4"},
    {0}};
static const field_doc INDIRECT_DRAW_PASS[] = {
    {"vertex_entry_point", "string", true, "a @vertex entry point of the module"},
    {"geometry", "u32", true, "the geometry slot drawn"},
    {"depth", "u32", true, "the depth slot attached, or null for none"},
    {"load", "PassLoad", true, NULL},
    {"args", "IndirectArgs", true, "index count, instance count, first index, base vertex, first instance"},
    {0}};
static const field_doc DRAW_SETS_PASS[] = {
    {"vertex_entry_point", "string", true, "a @vertex entry point of the module"},
    {"vertex_layout", "array<VertexAttribute>", true, "buffer 0, per vertex: every drawn geometry's layout"},
    {"instance_layout", "array<VertexAttribute>", true, "buffer 1, per instance: every drawn instance buffer's layout"},
    {"draw_sets", "u32", true, "the dispatch's draw-set list this pass draws"},
    {"cull", "Cull", true, NULL},
    {"depth", "DepthUse", true, "or null for no depth test"},
    {"load", "PassLoad", true, NULL},
    {0}};

#define STRUCT(name, doc, fields) {name, doc, fields, NULL, NULL}
#define FORMS(doc, e) {NULL, doc, NULL, &(e), NULL}
#define FORMS_WITH(doc, e, payloads) {NULL, doc, NULL, &(e), payloads}
#define OPAQUE(name, doc) {name, doc, NULL, NULL, NULL}

static const type_doc TYPES[] = {
    OPAQUE("TextureFormat", "a texture format"), /* forms from the registry's format table */
    FORMS("Writable: a program may render into it", PROGRAM_TEXTURE_USAGES),
    FORMS("how the texture filters when a program samples it", PROGRAM_TEXTURE_SAMPLINGS),
    OPAQUE("Blob", "an array of byte values 0..255, or a base64 string (standard or URL-safe alphabet, padding optional)"),
    STRUCT("SlotSpec", "a binding's declaration", SLOT_SPEC),
    FORMS("what a binding takes; only a Target may be written", PROGRAM_SHAPES),
    FORMS_WITH("the output's size, or it floor-divided by divisor (at least one texel)", PROGRAM_EXTENTS,
               EXTENT_PAYLOADS),
    FORMS_WITH("Filtered binds a sampler; Texel binds none (textureLoad)", PROGRAM_SAMPLINGS, SAMPLING_PAYLOADS),
    FORMS(NULL, PROGRAM_WRAPS),
    FORMS(NULL, PROGRAM_MIPS),
    STRUCT("TransientSpec", "a pooled intermediate, sized from the output", TRANSIENT_SPEC),
    FORMS(NULL, PROGRAM_SAMPLES),
    STRUCT("GeometrySlotSpec", "a geometry slot: the layout of the geometry a dispatch supplies", GEOMETRY_SLOT_SPEC),
    STRUCT("VertexAttribute", "one attribute of a layout", VERTEX_ATTRIBUTE),
    OPAQUE("VertexFormat", "a vertex attribute format: its width and the WGSL type it is read as"),
    STRUCT("DepthSpec", "a pooled Depth32Float slot draw passes clear and test against (LessEqual)", DEPTH_SPEC),
    FORMS_WITH("Output: sized from the output as a transient is; Fixed: side texels square (depth-only passes)",
               PROGRAM_DEPTH_EXTENTS, DEPTH_EXTENT_PAYLOADS),
    STRUCT("PassSpec", "one pass of the sequence", PASS_SPEC),
    FORMS("Fragment and Draw run; the other stages decode and are refused at register (unsupported_stage)",
          PROGRAM_STAGES),
    STRUCT("DrawPass", "a draw pass: a geometry slot through an authored vertex stage", DRAW_PASS),
    FORMS(NULL, PROGRAM_LOADS),
    STRUCT("DrawSetsPass", "a pass drawing the retained sets of one dispatch list", DRAW_SETS_PASS),
    STRUCT("ComputePass", "workgroups writing program buffers (docs/adr/002-program-compute-and-indirect-draws.md)", COMPUTE_PASS),
    STRUCT("IndirectDrawPass", "a draw pass whose arguments a program buffer holds", INDIRECT_DRAW_PASS),
    STRUCT("IndirectArgs", "where an indirect draw's arguments are", INDIRECT_ARGS),
    STRUCT("BufferSpec", "a program buffer, zeroed for each dispatch", BUFFER_SPEC),
    STRUCT("BufferUse", "a program buffer a pass binds", BUFFER_USE),
    STRUCT("DepthUse", "the depth slot a draw-sets pass tests against", DEPTH_USE),
    FORMS("TestOnly tests and leaves the slot as it was", PROGRAM_DEPTH_WRITES),
    FORMS("Back discards clockwise triangles, Front counter-clockwise ones", PROGRAM_CULLS),
    STRUCT("DrawSpec", "one draw: a run of a geometry's indices, once per record of a run of an instance buffer",
           DRAW_SPEC),
    STRUCT("Range", "a run", RANGE),
    FORMS_WITH(NULL, PROGRAM_INPUTS, INPUT_PAYLOADS),
    FORMS(NULL, PROGRAM_DEPTH_READS),
    FORMS_WITH("None: a depth-only draw pass (compute passes later)", PROGRAM_OUTPUTS, OUTPUT_PAYLOADS),
    FORMS("Alpha: straight-alpha over; Replace: overwrite; Additive: add", PROGRAM_BLENDS),
    STRUCT("PassRepeat", "records the pass count times over a strided uniform table", PASS_REPEAT),
};

/* ---- encoding --------------------------------------------------------------------------------- */

/* json_object_set_new and json_array_append_new take their value even on failure, so building
 * stays leak-free; a failed build is caught by the NULL checks at the end. */
static json_t *fields_json(const field_doc *fields) {
    json_t *list = json_array();
    for (const field_doc *f = fields; list && f->name; f++) {
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(f->name));
        json_object_set_new(o, "type", json_string(f->type));
        json_object_set_new(o, "required", json_boolean(f->required));
        if (f->doc) json_object_set_new(o, "doc", json_string(f->doc));
        json_array_append_new(list, o);
    }
    return list;
}

/* payloads is read only at inline forms, so its table need not reach past the last one. */
static json_t *forms_json(const type_doc *t) {
    json_t *list = json_array();
    for (uint32_t i = 0; list && i < t->forms->count; i++) {
        const program_form *f = &t->forms->forms[i];
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(f->name));
        if (f->payload_type) json_object_set_new(o, "payload", json_string(f->payload_type));
        if (f->payload && !f->payload_type) json_object_set_new(o, "fields", fields_json(t->payloads[i]));
        json_array_append_new(list, o);
    }
    return list;
}

static json_t *format_forms_json(void) {
    json_t *list = json_array();
    for (int f = 0; list && f < KILN_FORMAT_COUNT; f++) {
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(kiln_texture_format_name((kiln_texture_format)f)));
        json_array_append_new(list, o);
    }
    return list;
}

static json_t *vertex_format_forms_json(void) {
    json_t *list = json_array();
    for (int f = 0; list && f < KILN_VERTEX_FORMAT_COUNT; f++) {
        const program_vertex_format *row = program_vertex_format_of((kiln_vertex_format)f);
        char type[24];
        if (row->components == 1) snprintf(type, sizeof type, "%s", kiln_wgsl_scalar_name(row->scalar));
        else snprintf(type, sizeof type, "vec%u<%s>", row->components, kiln_wgsl_scalar_name(row->scalar));
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(row->name));
        json_object_set_new(o, "bytes", json_integer(row->bytes));
        json_object_set_new(o, "wgsl", json_string(type));
        json_array_append_new(list, o);
    }
    return list;
}

static json_t *type_json(const type_doc *t) {
    json_t *o = json_object();
    if (!o) return NULL;
    if (t->doc) json_object_set_new(o, "doc", json_string(t->doc));
    if (t->fields) json_object_set_new(o, "fields", fields_json(t->fields));
    if (t->forms) json_object_set_new(o, "forms", forms_json(t));
    if (t->name && strcmp(t->name, "TextureFormat") == 0) json_object_set_new(o, "forms", format_forms_json());
    if (t->name && strcmp(t->name, "VertexFormat") == 0) json_object_set_new(o, "forms", vertex_format_forms_json());
    return o;
}

json_t *kiln_json_describe_kinds(const char *prefix) {
    size_t prefix_length = prefix ? strlen(prefix) : 0;
    json_t *kinds = json_array(), *types = json_object(), *out = json_object();
    for (size_t i = 0; kinds && i < KIND_COUNT; i++) {
        if (prefix_length && strncmp(KINDS[i].kind, prefix, prefix_length) != 0) continue;
        json_t *k = json_object();
        json_object_set_new(k, "kind", json_string(KINDS[i].kind));
        json_object_set_new(k, "doc", json_string(KINDS[i].doc));
        json_object_set_new(k, "fields", fields_json(KINDS[i].fields));
        json_object_set_new(k, "reply", json_string(KINDS[i].reply));
        json_array_append_new(kinds, k);
    }
    for (size_t i = 0; types && i < sizeof TYPES / sizeof TYPES[0]; i++)
        json_object_set_new(types, TYPES[i].name ? TYPES[i].name : TYPES[i].forms->type, type_json(&TYPES[i]));
    if (!kinds || !types || !out) {
        json_decref(kinds);
        json_decref(types);
        json_decref(out);
        return NULL;
    }
    json_object_set_new(out, "kinds", kinds);
    json_object_set_new(out, "types", types);
    return out;
}
