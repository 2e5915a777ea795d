/* WGSL reflection: the declarations of a WGSL module that register-time validation of an authored
 * render program needs and Dawn does not expose. Pure CPU, no GPU.
 *
 * kiln_wgsl_reflect scans one module and returns what it declares: structs with their WGSL memory
 * layout, aliases, const and override declarations, module-scope vars with their address space,
 * @group/@binding and resolved type (textures and samplers classified), and entry points with
 * their stage, flattened inputs and outputs (@location, @builtin, @interpolate) and the vars each
 * one statically uses. Function bodies are not parsed: they are brace-matched, and only their
 * identifiers are read, to find which vars and functions they name.
 *
 * A module that is malformed, or that declares more than a cap below allows, is refused with an
 * error naming `source:line:col` and the token at fault. Nothing is ever read past the source and
 * recursion is bounded, so any byte string is safe input. */
#ifndef KILN_SHADER_WGSL_REFLECT_H
#define KILN_SHADER_WGSL_REFLECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kiln/core/error.h>

/* Caps. A module over one is refused with a KILN_ERR_CAPACITY error naming the cap. */
#define KILN_WGSL_NAME_MAX 64       /* bytes of a name, NUL included: names are at most 63 bytes */
#define KILN_WGSL_FORMAT_MAX 24     /* bytes of a storage texel format name, NUL included */
#define KILN_WGSL_MAX_TYPES 256     /* distinct types, slot 0 ("no type") included */
#define KILN_WGSL_MAX_STRUCTS 64
#define KILN_WGSL_MAX_MEMBERS 32    /* per struct */
#define KILN_WGSL_MAX_ALIASES 64
#define KILN_WGSL_MAX_CONSTANTS 128 /* const and override declarations together */
#define KILN_WGSL_MAX_VARS 64       /* module-scope vars of every address space (a 64-bit use mask) */
#define KILN_WGSL_MAX_FUNCTIONS 128 /* fn declarations, entry points included */
#define KILN_WGSL_MAX_ENTRIES 16
#define KILN_WGSL_MAX_IO 32         /* flattened inputs, and as many outputs, per entry point */
#define KILN_WGSL_MAX_NESTING 32    /* type nesting: template arguments, struct members, aliases */

typedef enum kiln_wgsl_scalar {
    KILN_WGSL_SCALAR_NONE = 0,
    KILN_WGSL_SCALAR_BOOL,
    KILN_WGSL_SCALAR_F32,
    KILN_WGSL_SCALAR_F16,
    KILN_WGSL_SCALAR_I32,
    KILN_WGSL_SCALAR_U32,
} kiln_wgsl_scalar;

typedef enum kiln_wgsl_type_kind {
    KILN_WGSL_TYPE_NONE = 0,
    KILN_WGSL_TYPE_SCALAR,
    KILN_WGSL_TYPE_VECTOR,
    KILN_WGSL_TYPE_MATRIX,
    KILN_WGSL_TYPE_ARRAY,
    KILN_WGSL_TYPE_STRUCT,
    KILN_WGSL_TYPE_ATOMIC,
    KILN_WGSL_TYPE_POINTER,
    KILN_WGSL_TYPE_TEXTURE,
    KILN_WGSL_TYPE_SAMPLER,
} kiln_wgsl_type_kind;

/* Which texture or sampler a handle type is. */
typedef enum kiln_wgsl_handle {
    KILN_WGSL_HANDLE_NONE = 0,
    KILN_WGSL_TEXTURE_1D,
    KILN_WGSL_TEXTURE_2D,
    KILN_WGSL_TEXTURE_2D_ARRAY,
    KILN_WGSL_TEXTURE_3D,
    KILN_WGSL_TEXTURE_CUBE,
    KILN_WGSL_TEXTURE_CUBE_ARRAY,
    KILN_WGSL_TEXTURE_MULTISAMPLED_2D,
    KILN_WGSL_TEXTURE_DEPTH_2D,
    KILN_WGSL_TEXTURE_DEPTH_2D_ARRAY,
    KILN_WGSL_TEXTURE_DEPTH_CUBE,
    KILN_WGSL_TEXTURE_DEPTH_CUBE_ARRAY,
    KILN_WGSL_TEXTURE_DEPTH_MULTISAMPLED_2D,
    KILN_WGSL_TEXTURE_STORAGE_1D,
    KILN_WGSL_TEXTURE_STORAGE_2D,
    KILN_WGSL_TEXTURE_STORAGE_2D_ARRAY,
    KILN_WGSL_TEXTURE_STORAGE_3D,
    KILN_WGSL_TEXTURE_EXTERNAL,
    KILN_WGSL_SAMPLER,
    KILN_WGSL_SAMPLER_COMPARISON,
} kiln_wgsl_handle;

typedef enum kiln_wgsl_address_space {
    KILN_WGSL_SPACE_NONE = 0,  /* a var whose declaration gave none */
    KILN_WGSL_SPACE_HANDLE,    /* textures and samplers: declared without <...> */
    KILN_WGSL_SPACE_FUNCTION,  /* only inside ptr<function, T> */
    KILN_WGSL_SPACE_PRIVATE,
    KILN_WGSL_SPACE_WORKGROUP,
    KILN_WGSL_SPACE_UNIFORM,
    KILN_WGSL_SPACE_STORAGE,
} kiln_wgsl_address_space;

typedef enum kiln_wgsl_access {
    KILN_WGSL_ACCESS_NONE = 0,
    KILN_WGSL_ACCESS_READ,
    KILN_WGSL_ACCESS_WRITE,
    KILN_WGSL_ACCESS_READ_WRITE,
} kiln_wgsl_access;

typedef enum kiln_wgsl_stage {
    KILN_WGSL_STAGE_NONE = 0,  /* not an entry point */
    KILN_WGSL_STAGE_VERTEX,
    KILN_WGSL_STAGE_FRAGMENT,
    KILN_WGSL_STAGE_COMPUTE,
} kiln_wgsl_stage;

typedef enum kiln_wgsl_builtin {
    KILN_WGSL_BUILTIN_NONE = 0,
    KILN_WGSL_BUILTIN_POSITION,
    KILN_WGSL_BUILTIN_FRAG_DEPTH,
    KILN_WGSL_BUILTIN_FRONT_FACING,
    KILN_WGSL_BUILTIN_VERTEX_INDEX,
    KILN_WGSL_BUILTIN_INSTANCE_INDEX,
    KILN_WGSL_BUILTIN_SAMPLE_INDEX,
    KILN_WGSL_BUILTIN_SAMPLE_MASK,
    KILN_WGSL_BUILTIN_LOCAL_INVOCATION_ID,
    KILN_WGSL_BUILTIN_LOCAL_INVOCATION_INDEX,
    KILN_WGSL_BUILTIN_GLOBAL_INVOCATION_ID,
    KILN_WGSL_BUILTIN_WORKGROUP_ID,
    KILN_WGSL_BUILTIN_NUM_WORKGROUPS,
    KILN_WGSL_BUILTIN_OTHER,   /* a name this scanner does not know (an extension's builtin) */
} kiln_wgsl_builtin;

typedef enum kiln_wgsl_interpolation {
    KILN_WGSL_INTERPOLATE_DEFAULT = 0,  /* no @interpolate: perspective for floats */
    KILN_WGSL_INTERPOLATE_PERSPECTIVE,
    KILN_WGSL_INTERPOLATE_LINEAR,
    KILN_WGSL_INTERPOLATE_FLAT,
} kiln_wgsl_interpolation;

typedef enum kiln_wgsl_sampling {
    KILN_WGSL_SAMPLING_DEFAULT = 0,
    KILN_WGSL_SAMPLING_CENTER,
    KILN_WGSL_SAMPLING_CENTROID,
    KILN_WGSL_SAMPLING_SAMPLE,
    KILN_WGSL_SAMPLING_FIRST,
    KILN_WGSL_SAMPLING_EITHER,
} kiln_wgsl_sampling;

/* One resolved type. Types are interned: two spellings of one type (vec4f, vec4<f32>, an alias of
 * either) share an index into kiln_wgsl_module.types, so equal indices mean equal types. Index 0
 * means "no type". */
typedef struct kiln_wgsl_type {
    kiln_wgsl_type_kind kind;
    kiln_wgsl_scalar scalar;        /* scalar, vector, matrix, atomic; a sampled texture's type */
    uint32_t components;            /* scalar 1, vector 2..4, matrix rows */
    uint32_t columns;               /* matrix */
    uint32_t element;               /* array element, pointer store type */
    uint32_t count;                 /* array elements; 0 for a runtime-sized array */
    uint32_t struct_index;          /* struct: index into kiln_wgsl_module.structs */
    kiln_wgsl_handle handle;        /* texture, sampler */
    kiln_wgsl_address_space space;  /* pointer */
    kiln_wgsl_access access;        /* storage texture, pointer */
    char texel_format[KILN_WGSL_FORMAT_MAX]; /* storage texture, as written ("rgba8unorm") */
    /* The WGSL memory layout (AlignOf, SizeOf, array stride), the same in every address space;
     * valid when host_shareable. A runtime-sized array has size 0, and a struct ending in one has
     * the size it would have with zero elements. */
    bool host_shareable;
    bool runtime_sized;
    uint32_t size, align, stride;
} kiln_wgsl_type;

/* @location / @builtin / @interpolate / @invariant on an entry-point input or output. */
typedef struct kiln_wgsl_io_attrs {
    int32_t location;               /* -1 when none */
    kiln_wgsl_builtin builtin;
    kiln_wgsl_interpolation interpolation;
    kiln_wgsl_sampling sampling;
    bool invariant;
} kiln_wgsl_io_attrs;

typedef struct kiln_wgsl_member {
    char name[KILN_WGSL_NAME_MAX];
    uint32_t type;
    uint32_t size_attr, align_attr; /* @size(n) / @align(n) as written; 0 when absent */
    uint32_t offset, size, align;   /* OffsetOfMember, SizeOfMember, AlignOfMember */
    kiln_wgsl_io_attrs io;
    uint32_t line, col;
} kiln_wgsl_member;

typedef struct kiln_wgsl_struct {
    char name[KILN_WGSL_NAME_MAX];
    uint32_t type;                  /* its own index in kiln_wgsl_module.types */
    uint32_t member_count;
    kiln_wgsl_member members[KILN_WGSL_MAX_MEMBERS];
    uint32_t line, col;
} kiln_wgsl_struct;

typedef struct kiln_wgsl_alias {
    char name[KILN_WGSL_NAME_MAX];
    uint32_t type;
    uint32_t line, col;
} kiln_wgsl_alias;

/* A const or override declaration. Only integer values are evaluated: those are what array sizes
 * and attribute arguments may name. */
typedef struct kiln_wgsl_constant {
    char name[KILN_WGSL_NAME_MAX];
    bool is_override;
    bool has_value;     /* the initialiser is an integer literal, or names a constant that has one */
    int64_t value;
    int32_t override_id; /* @id(n); -1 when none */
    uint32_t line, col;
} kiln_wgsl_constant;

typedef struct kiln_wgsl_var {
    char name[KILN_WGSL_NAME_MAX];
    kiln_wgsl_address_space space;
    kiln_wgsl_access access;        /* storage: read unless declared otherwise */
    int32_t group, binding;         /* -1 when absent (private and workgroup vars) */
    uint32_t type;                  /* 0 when inferred from an initialiser */
    uint32_t line, col;
} kiln_wgsl_var;

/* One flattened entry-point input or output: a parameter, or a member of a struct-typed parameter
 * or return type. */
typedef struct kiln_wgsl_io {
    char name[KILN_WGSL_NAME_MAX];  /* parameter or member name; "" for a bare return value */
    uint32_t type;
    kiln_wgsl_io_attrs attrs;
    uint32_t line, col;
} kiln_wgsl_io;

typedef struct kiln_wgsl_entry {
    char name[KILN_WGSL_NAME_MAX];
    kiln_wgsl_stage stage;
    uint32_t workgroup_size[3];     /* compute; an argument that is not a constant reads 0 */
    uint32_t return_type;           /* 0 when the entry point returns nothing */
    uint32_t input_count, output_count;
    kiln_wgsl_io inputs[KILN_WGSL_MAX_IO];
    kiln_wgsl_io outputs[KILN_WGSL_MAX_IO];
    /* Bit i is set when vars[i] is named in the entry point's body or in the body of a function
     * it calls, directly or not. Conservative: a local that shadows a var's name counts too. */
    uint64_t var_uses;
    uint32_t line, col;
} kiln_wgsl_entry;

typedef struct kiln_wgsl_module {
    char source_name[128];          /* as given to kiln_wgsl_reflect; used in later errors */
    uint32_t type_count;
    kiln_wgsl_type types[KILN_WGSL_MAX_TYPES];
    uint32_t struct_count;
    kiln_wgsl_struct structs[KILN_WGSL_MAX_STRUCTS];
    uint32_t alias_count;
    kiln_wgsl_alias aliases[KILN_WGSL_MAX_ALIASES];
    uint32_t constant_count;
    kiln_wgsl_constant constants[KILN_WGSL_MAX_CONSTANTS];
    uint32_t var_count;
    kiln_wgsl_var vars[KILN_WGSL_MAX_VARS];
    uint32_t entry_count;
    kiln_wgsl_entry entries[KILN_WGSL_MAX_ENTRIES];
} kiln_wgsl_module;

/* A type's layout as an address space requires it. size and stride are the same everywhere;
 * align is RequiredAlignOf(T, space): rounded up to 16 for a struct or an array in the uniform
 * address space. */
typedef struct kiln_wgsl_layout {
    uint32_t size, align, stride;   /* stride: arrays only */
} kiln_wgsl_layout;

/* Scans `length` bytes of WGSL (no NUL needed). `source_name` prefixes error positions
 * ("name:line:col: ..."); NULL reads "wgsl". Returns a module to free with
 * kiln_wgsl_module_free, or NULL with err filled. */
kiln_wgsl_module *kiln_wgsl_reflect(const char *source, size_t length, const char *source_name,
                                    kiln_error *err);
void kiln_wgsl_module_free(kiln_wgsl_module *module);

/* Lookups; NULL when there is no such thing. find_binding returns the first var declared at
 * (group, binding): WGSL lets two vars share a binding when no entry point uses both, so prefer
 * kiln_wgsl_entry_binding when an entry point is known. */
const kiln_wgsl_entry *kiln_wgsl_find_entry(const kiln_wgsl_module *m, const char *name);
const kiln_wgsl_var *kiln_wgsl_find_binding(const kiln_wgsl_module *m, uint32_t group,
                                            uint32_t binding);
const kiln_wgsl_var *kiln_wgsl_entry_binding(const kiln_wgsl_module *m, const kiln_wgsl_entry *entry,
                                             uint32_t group, uint32_t binding);
const kiln_wgsl_struct *kiln_wgsl_find_struct(const kiln_wgsl_module *m, const char *name);
const kiln_wgsl_var *kiln_wgsl_find_var(const kiln_wgsl_module *m, const char *name);
bool kiln_wgsl_entry_uses(const kiln_wgsl_module *m, const kiln_wgsl_entry *entry,
                          const kiln_wgsl_var *var);

/* The input (or output) of an entry point at @location(location) or @builtin(builtin). */
const kiln_wgsl_io *kiln_wgsl_entry_input_location(const kiln_wgsl_entry *entry, uint32_t location);
const kiln_wgsl_io *kiln_wgsl_entry_output_location(const kiln_wgsl_entry *entry, uint32_t location);
const kiln_wgsl_io *kiln_wgsl_entry_input_builtin(const kiln_wgsl_entry *entry, kiln_wgsl_builtin b);
const kiln_wgsl_io *kiln_wgsl_entry_output_builtin(const kiln_wgsl_entry *entry, kiln_wgsl_builtin b);

/* The size of the uniform block `entry` reads at (group, binding): SizeOf of the var's type, which
 * is what Dawn takes as the binding's minimum size. False when the entry point uses no var there,
 * when that var is not var<uniform>, or when its type breaks a uniform layout rule (the message
 * names the member). */
bool kiln_wgsl_uniform_block_size(const kiln_wgsl_module *m, const kiln_wgsl_entry *entry,
                                  uint32_t group, uint32_t binding, uint32_t *size, kiln_error *err);

/* The layout of `type` in the uniform or storage address space, after checking WGSL's rules for
 * that space: host-shareable, member offsets at RequiredAlignOf, and in the uniform space array
 * strides a multiple of 16, a struct member's successor at least roundUp(16, its size) further,
 * no runtime-sized array and no atomic. A rule broken is an error naming the struct member. */
bool kiln_wgsl_type_layout(const kiln_wgsl_module *m, uint32_t type, kiln_wgsl_address_space space,
                           kiln_wgsl_layout *out, kiln_error *err);

/* The scalar kind and component count (1..4) of a numeric scalar or vector type, which is what a
 * vertex attribute format or a colour target is matched against. False for anything else. */
bool kiln_wgsl_type_components(const kiln_wgsl_module *m, uint32_t type, kiln_wgsl_scalar *scalar,
                               uint32_t *count);

/* True when an io is an integer @location (i32 or u32 scalar or vector) not declared
 * @interpolate(flat): WGSL requires flat there, and render programs refuse the module. */
bool kiln_wgsl_io_missing_flat(const kiln_wgsl_module *m, const kiln_wgsl_io *io);

/* Writes the WGSL spelling of a type ("vec4<f32>", "array<f32, 4>", "texture_depth_2d", a struct's
 * name) into buf, truncated to size; returns buf. */
const char *kiln_wgsl_type_name(const kiln_wgsl_module *m, uint32_t type, char *buf, size_t size);

/* Names for messages: "f32", "texture_2d", "vertex", "frag_depth", "uniform". */
const char *kiln_wgsl_scalar_name(kiln_wgsl_scalar scalar);
const char *kiln_wgsl_handle_name(kiln_wgsl_handle handle);
const char *kiln_wgsl_stage_name(kiln_wgsl_stage stage);
const char *kiln_wgsl_builtin_name(kiln_wgsl_builtin builtin);
const char *kiln_wgsl_space_name(kiln_wgsl_address_space space);

#endif
