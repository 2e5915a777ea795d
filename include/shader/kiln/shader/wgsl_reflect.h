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
#define KILN_WGSL_MAX_STRUCTS 64    /* struct declarations */
#define KILN_WGSL_MAX_MEMBERS 32    /* per struct */
#define KILN_WGSL_MAX_ALIASES 64    /* alias declarations */
#define KILN_WGSL_MAX_CONSTANTS 128 /* const and override declarations together */
#define KILN_WGSL_MAX_VARS 64       /* module-scope vars of every address space (a 64-bit use mask) */
#define KILN_WGSL_MAX_FUNCTIONS 128 /* fn declarations, entry points included */
#define KILN_WGSL_MAX_ENTRIES 16    /* entry points (@vertex, @fragment, @compute functions) */
#define KILN_WGSL_MAX_IO 32         /* flattened inputs, and as many outputs, per entry point */
#define KILN_WGSL_MAX_NESTING 32    /* type nesting: template arguments, struct members, aliases */

/* The scalar type of a scalar, vector, matrix or atomic, or of a sampled texture's texels. */
typedef enum kiln_wgsl_scalar {
    KILN_WGSL_SCALAR_NONE = 0,
    KILN_WGSL_SCALAR_BOOL,
    KILN_WGSL_SCALAR_F32,
    KILN_WGSL_SCALAR_F16,
    KILN_WGSL_SCALAR_I32,
    KILN_WGSL_SCALAR_U32,
} kiln_wgsl_scalar;

/* What kind of type a kiln_wgsl_type is; says which of its fields are meaningful. */
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

/* The address space of a module-scope var or of a pointer type. */
typedef enum kiln_wgsl_address_space {
    KILN_WGSL_SPACE_NONE = 0,  /* a var whose declaration gave none */
    KILN_WGSL_SPACE_HANDLE,    /* textures and samplers: declared without <...> */
    KILN_WGSL_SPACE_FUNCTION,  /* only inside ptr<function, T> */
    KILN_WGSL_SPACE_PRIVATE,
    KILN_WGSL_SPACE_WORKGROUP,
    KILN_WGSL_SPACE_UNIFORM,
    KILN_WGSL_SPACE_STORAGE,
} kiln_wgsl_address_space;

/* The access mode of a storage var, a storage texture or a pointer; NONE where none applies. */
typedef enum kiln_wgsl_access {
    KILN_WGSL_ACCESS_NONE = 0,
    KILN_WGSL_ACCESS_READ,
    KILN_WGSL_ACCESS_WRITE,
    KILN_WGSL_ACCESS_READ_WRITE,
} kiln_wgsl_access;

/* The shader stage an entry point's attribute names. */
typedef enum kiln_wgsl_stage {
    KILN_WGSL_STAGE_NONE = 0,  /* not an entry point */
    KILN_WGSL_STAGE_VERTEX,
    KILN_WGSL_STAGE_FRAGMENT,
    KILN_WGSL_STAGE_COMPUTE,
} kiln_wgsl_stage;

/* The @builtin(...) value an entry-point input or output names; NONE when it has none. */
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

/* The interpolation type of @interpolate(type, ...). */
typedef enum kiln_wgsl_interpolation {
    KILN_WGSL_INTERPOLATE_DEFAULT = 0,  /* no @interpolate: perspective for floats */
    KILN_WGSL_INTERPOLATE_PERSPECTIVE,
    KILN_WGSL_INTERPOLATE_LINEAR,
    KILN_WGSL_INTERPOLATE_FLAT,
} kiln_wgsl_interpolation;

/* The sampling of @interpolate(type, sampling); DEFAULT when not written. */
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
    kiln_wgsl_type_kind kind;       /* which of the fields below apply */
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
    bool host_shareable;            /* numeric, atomic, or an array or struct of those: no bool, no handle */
    bool runtime_sized;             /* a runtime-sized array, or a struct whose last member is one */
    /*@{*/
    /* The WGSL memory layout in bytes (SizeOf, AlignOf, and the element stride of an array or the
     * column stride of a matrix, else 0), the same in every address space; valid when
     * host_shareable, all 0 otherwise. A runtime-sized array has size 0, and a struct ending in one
     * has the size it would have with zero elements. */
    uint32_t size, align, stride;
    /*@}*/
} kiln_wgsl_type;

/* @location / @builtin / @interpolate / @invariant on an entry-point input or output. */
typedef struct kiln_wgsl_io_attrs {
    int32_t location;               /* -1 when none */
    kiln_wgsl_builtin builtin;      /* NONE when there is no @builtin */
    kiln_wgsl_interpolation interpolation; /* @interpolate's type */
    kiln_wgsl_sampling sampling;    /* @interpolate's sampling */
    bool invariant;                 /* @invariant is present */
} kiln_wgsl_io_attrs;

/* One member of a struct declaration, in declaration order. */
typedef struct kiln_wgsl_member {
    char name[KILN_WGSL_NAME_MAX];  /* the member's name, NUL-terminated */
    uint32_t type;                  /* index into kiln_wgsl_module.types */
    /*@{*/
    uint32_t size_attr, align_attr; /* @size(n) / @align(n) as written; 0 when absent */
    /*@}*/
    /*@{*/
    uint32_t offset, size, align;   /* OffsetOfMember, SizeOfMember, AlignOfMember, in bytes */
    /*@}*/
    kiln_wgsl_io_attrs io;          /* IO attributes, for a struct used as entry-point IO */
    /*@{*/
    uint32_t line, col;             /* 1-based line and column of the name; col counts characters */
    /*@}*/
} kiln_wgsl_member;

/* A struct declaration. Its layout is that of its type, types[type]. */
typedef struct kiln_wgsl_struct {
    char name[KILN_WGSL_NAME_MAX];  /* the struct's name, NUL-terminated */
    uint32_t type;                  /* its own index in kiln_wgsl_module.types */
    uint32_t member_count;          /* members in use, at most KILN_WGSL_MAX_MEMBERS */
    kiln_wgsl_member members[KILN_WGSL_MAX_MEMBERS]; /* in declaration order */
    /*@{*/
    uint32_t line, col;             /* 1-based line and column of the name; col counts characters */
    /*@}*/
} kiln_wgsl_struct;

/* An alias declaration: `alias name = type;`. */
typedef struct kiln_wgsl_alias {
    char name[KILN_WGSL_NAME_MAX];  /* the alias's name, NUL-terminated */
    uint32_t type;                  /* the aliased type: index into kiln_wgsl_module.types */
    /*@{*/
    uint32_t line, col;             /* 1-based line and column of the name; col counts characters */
    /*@}*/
} kiln_wgsl_alias;

/* A const or override declaration. Only integer values are evaluated: those are what array sizes
 * and attribute arguments may name. */
typedef struct kiln_wgsl_constant {
    char name[KILN_WGSL_NAME_MAX];  /* the constant's name, NUL-terminated */
    bool is_override;               /* declared with override rather than const */
    bool has_value;     /* the initialiser is an integer literal, or names a constant that has one */
    int64_t value;                  /* the integer value when has_value, else 0 */
    int32_t override_id; /* @id(n); -1 when none */
    /*@{*/
    uint32_t line, col;             /* 1-based line and column of the name; col counts characters */
    /*@}*/
} kiln_wgsl_constant;

/* A module-scope var declaration. Its index in kiln_wgsl_module.vars is its bit in
 * kiln_wgsl_entry.var_uses. */
typedef struct kiln_wgsl_var {
    char name[KILN_WGSL_NAME_MAX];  /* the var's name, NUL-terminated */
    kiln_wgsl_address_space space;  /* as declared; HANDLE for textures and samplers */
    kiln_wgsl_access access;        /* storage: read unless declared otherwise */
    /*@{*/
    int32_t group, binding;         /* @group(n) / @binding(n); -1 when absent (private and workgroup vars) */
    /*@}*/
    uint32_t type;                  /* 0 when inferred from an initialiser */
    /*@{*/
    uint32_t line, col;             /* 1-based line and column of the name; col counts characters */
    /*@}*/
} kiln_wgsl_var;

/* One flattened entry-point input or output: a parameter, or a member of a struct-typed parameter
 * or return type. */
typedef struct kiln_wgsl_io {
    char name[KILN_WGSL_NAME_MAX];  /* parameter or member name; "" for a bare return value */
    uint32_t type;                  /* index into kiln_wgsl_module.types */
    kiln_wgsl_io_attrs attrs;       /* its @location, @builtin, @interpolate and @invariant */
    /*@{*/
    uint32_t line, col;             /* 1-based position of the parameter, member or return type */
    /*@}*/
} kiln_wgsl_io;

/* An entry point: a function declared @vertex, @fragment or @compute. */
typedef struct kiln_wgsl_entry {
    char name[KILN_WGSL_NAME_MAX];  /* the function's name, NUL-terminated */
    kiln_wgsl_stage stage;          /* never NONE */
    uint32_t workgroup_size[3];     /* compute; an argument that is not a constant reads 0 */
    uint32_t return_type;           /* 0 when the entry point returns nothing */
    /*@{*/
    uint32_t input_count, output_count; /* entries in use in inputs and outputs */
    /*@}*/
    kiln_wgsl_io inputs[KILN_WGSL_MAX_IO];  /* flattened parameters, in declaration order */
    kiln_wgsl_io outputs[KILN_WGSL_MAX_IO]; /* the flattened return value */
    /* Bit i is set when vars[i] is named in the entry point's body or in the body of a function
     * it calls, directly or not. Conservative: a local that shadows a var's name counts too. */
    uint64_t var_uses;
    /*@{*/
    uint32_t line, col;             /* 1-based line and column of the name; col counts characters */
    /*@}*/
} kiln_wgsl_entry;

/* A scanned WGSL module, as kiln_wgsl_reflect returns it; owned by the caller, freed with
 * kiln_wgsl_module_free. Each array holds its declarations in source order, and its _count says
 * how many of its slots are in use. */
typedef struct kiln_wgsl_module {
    char source_name[128];          /* as given to kiln_wgsl_reflect; used in later errors */
    uint32_t type_count;            /* types in use, slot 0 included */
    kiln_wgsl_type types[KILN_WGSL_MAX_TYPES]; /* interned types; index 0 is "no type" */
    uint32_t struct_count;          /* structs in use */
    kiln_wgsl_struct structs[KILN_WGSL_MAX_STRUCTS]; /* struct declarations */
    uint32_t alias_count;           /* aliases in use */
    kiln_wgsl_alias aliases[KILN_WGSL_MAX_ALIASES]; /* alias declarations */
    uint32_t constant_count;        /* constants in use */
    kiln_wgsl_constant constants[KILN_WGSL_MAX_CONSTANTS]; /* const and override declarations */
    uint32_t var_count;             /* vars in use */
    kiln_wgsl_var vars[KILN_WGSL_MAX_VARS]; /* module-scope vars; index i is bit i of var_uses */
    uint32_t entry_count;           /* entries in use */
    kiln_wgsl_entry entries[KILN_WGSL_MAX_ENTRIES]; /* entry points */
} kiln_wgsl_module;

/* A type's layout as an address space requires it. size and stride are the same everywhere;
 * align is RequiredAlignOf(T, space): rounded up to 16 for a struct or an array in the uniform
 * address space. */
typedef struct kiln_wgsl_layout {
    /*@{*/
    uint32_t size, align, stride;   /* in bytes; stride: arrays and matrices only, else 0 */
    /*@}*/
} kiln_wgsl_layout;

/* Scans `length` bytes of WGSL (no NUL needed). `source_name` prefixes error positions
 * ("name:line:col: ..."); NULL reads "wgsl". Returns a module to free with
 * kiln_wgsl_module_free, or NULL with err filled. */
kiln_wgsl_module *kiln_wgsl_reflect(const char *source, size_t length, const char *source_name,
                                    kiln_error *err);
/* Frees a module from kiln_wgsl_reflect, and every pointer the lookups returned into it. NULL is a
 * no-op. */
void kiln_wgsl_module_free(kiln_wgsl_module *module);

/* Lookups; NULL when there is no such thing (or when an argument is NULL). The results point
 * into the module. This one finds the entry point called `name`. */
const kiln_wgsl_entry *kiln_wgsl_find_entry(const kiln_wgsl_module *m, const char *name);
/* The first var declared at (group, binding): WGSL lets two vars share a binding when no entry
 * point uses both, so prefer kiln_wgsl_entry_binding when an entry point is known. */
const kiln_wgsl_var *kiln_wgsl_find_binding(const kiln_wgsl_module *m, uint32_t group,
                                            uint32_t binding);
/* The var at (group, binding) that `entry` statically uses (kiln_wgsl_entry.var_uses). */
const kiln_wgsl_var *kiln_wgsl_entry_binding(const kiln_wgsl_module *m, const kiln_wgsl_entry *entry,
                                             uint32_t group, uint32_t binding);
/* The struct declaration called `name`; aliases are not followed. */
const kiln_wgsl_struct *kiln_wgsl_find_struct(const kiln_wgsl_module *m, const char *name);
/* The module-scope var called `name`. */
const kiln_wgsl_var *kiln_wgsl_find_var(const kiln_wgsl_module *m, const char *name);
/* True when `entry` statically uses `var`, which must point into m->vars (false otherwise). */
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
