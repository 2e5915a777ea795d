/* The WGSL declaration scanner: layouts against hand-computed WGSL examples, bindings and their
 * kinds, entry points and their flattened inputs and outputs, usage through helper functions,
 * aliases and constants, every error with its line:col, and prefixes and byte flips of a real
 * module (run under ASan). */
#include <kiln/shader/wgsl_reflect.h>

#include <stdint.h>

#include "test.h"

static kiln_wgsl_module *reflect(const char *source, kiln_error *err) {
    kiln_error_clear(err);
    return kiln_wgsl_reflect(source, strlen(source), "t.wgsl", err);
}

/* Checks that `source` is refused, with a message holding `needle` (usually "t.wgsl:L:C"). */
#define CHECK_REFUSED(source, needle)                                                   \
    do {                                                                                \
        kiln_error _err;                                                                \
        kiln_wgsl_module *_m = reflect((source), &_err);                                \
        if (_m) kiln_wgsl_module_free(_m);                                              \
        CHECK_MSG(_m == NULL, "accepted: %s", (source));                                \
        CHECK_STR_CONTAINS(_err.message, (needle));                                     \
    } while (0)

static const kiln_wgsl_member *member(const kiln_wgsl_struct *s, const char *name) {
    for (uint32_t i = 0; s && i < s->member_count; i++)
        if (strcmp(s->members[i].name, name) == 0) return &s->members[i];
    return NULL;
}

static uint32_t struct_size(const kiln_wgsl_module *m, const char *name) {
    const kiln_wgsl_struct *s = kiln_wgsl_find_struct(m, name);
    return s ? m->types[s->type].size : 0;
}

static uint32_t struct_align(const kiln_wgsl_module *m, const kiln_wgsl_struct *s) {
    return m->types[s->type].align;
}

static uint32_t var_type(const kiln_wgsl_module *m, const char *name) {
    const kiln_wgsl_var *v = kiln_wgsl_find_var(m, name);
    return v ? v->type : 0;
}

/* ---- layout ------------------------------------------------------------------------------------ */

TEST(a_scalar_after_a_vec3_fills_its_fourth_lane) {
    kiln_error err;
    kiln_wgsl_module *m = reflect("struct S { a: vec3f, b: f32 }", &err);
    CHECK_MSG(m, "%s", err.message);
    const kiln_wgsl_struct *s = kiln_wgsl_find_struct(m, "S");
    CHECK_EQ_INT(member(s, "b")->offset, 12);
    CHECK_EQ_INT(struct_size(m, "S"), 16);
    CHECK_EQ_INT(struct_align(m, s), 16);
    kiln_wgsl_module_free(m);
}

TEST(a_vec3_after_a_scalar_starts_at_sixteen) {
    kiln_error err;
    kiln_wgsl_module *m = reflect("struct S { a: f32, b: vec3f }", &err);
    CHECK_MSG(m, "%s", err.message);
    CHECK_EQ_INT(member(kiln_wgsl_find_struct(m, "S"), "b")->offset, 16);
    CHECK_EQ_INT(struct_size(m, "S"), 32);
    kiln_wgsl_module_free(m);
}

TEST(the_wgsl_spec_example_struct_lays_out_as_published) {
    /* The memory-layout example of the WGSL specification, offsets as it lists them. */
    static const char *src =
        "struct A { u: f32, v: f32, w: vec2<f32>, x: f32 }\n"
        "struct B { a: vec2<f32>, b: vec3<f32>, c: f32, d: f32, e: A, f: vec3<f32>,\n"
        "           g: array<A, 3>, h: i32 }\n";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    const kiln_wgsl_struct *a = kiln_wgsl_find_struct(m, "A"), *b = kiln_wgsl_find_struct(m, "B");
    CHECK_EQ_INT(member(a, "w")->offset, 8);
    CHECK_EQ_INT(member(a, "x")->offset, 16);
    CHECK_EQ_INT(struct_size(m, "A"), 24);
    CHECK_EQ_INT(struct_align(m, a), 8);
    static const struct { const char *name; uint32_t offset, size; } expected[] = {
        {"a", 0, 8}, {"b", 16, 12}, {"c", 28, 4}, {"d", 32, 4},
        {"e", 40, 24}, {"f", 64, 12}, {"g", 80, 72}, {"h", 152, 4},
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        const kiln_wgsl_member *mb = member(b, expected[i].name);
        CHECK_MSG(mb, "member %s", expected[i].name);
        CHECK_MSG(mb->offset == expected[i].offset, "%s at %u", mb->name, mb->offset);
        CHECK_MSG(mb->size == expected[i].size, "%s size %u", mb->name, mb->size);
    }
    CHECK_EQ_INT(struct_size(m, "B"), 160);
    CHECK_EQ_INT(struct_align(m, b), 16);
    CHECK_EQ_INT(m->types[member(b, "g")->type].stride, 24);
    kiln_wgsl_module_free(m);
}

TEST(a_storage_f32_array_has_stride_four) {
    kiln_error err;
    kiln_wgsl_module *m = reflect("@group(0) @binding(0) var<storage> a: array<f32, 4>;", &err);
    CHECK_MSG(m, "%s", err.message);
    kiln_wgsl_layout layout;
    CHECK_MSG(kiln_wgsl_type_layout(m, var_type(m, "a"), KILN_WGSL_SPACE_STORAGE, &layout, &err),
              "%s", err.message);
    CHECK_EQ_INT(layout.stride, 4);
    CHECK_EQ_INT(layout.size, 16);
    CHECK_EQ_INT(layout.align, 4);
    kiln_wgsl_module_free(m);
}

TEST(a_uniform_f32_array_is_refused_for_its_stride_of_four) {
    /* WGSL does not pad a uniform array to 16 as std140 would; it refuses the stride. */
    kiln_error err;
    kiln_wgsl_module *m = reflect("@group(0) @binding(0) var<uniform> a: array<f32, 4>;", &err);
    CHECK_MSG(m, "%s", err.message);
    kiln_wgsl_layout layout;
    CHECK(!kiln_wgsl_type_layout(m, var_type(m, "a"), KILN_WGSL_SPACE_UNIFORM, &layout, &err));
    CHECK_STR_CONTAINS(err.message, "stride 4");
    CHECK_STR_CONTAINS(err.message, "multiple of 16");
    kiln_wgsl_module_free(m);
}

TEST(a_uniform_vec4_array_has_stride_sixteen_and_aligns_to_sixteen) {
    kiln_error err;
    kiln_wgsl_module *m = reflect("@group(0) @binding(0) var<uniform> a: array<vec4f, 4>;", &err);
    CHECK_MSG(m, "%s", err.message);
    kiln_wgsl_layout layout;
    CHECK_MSG(kiln_wgsl_type_layout(m, var_type(m, "a"), KILN_WGSL_SPACE_UNIFORM, &layout, &err),
              "%s", err.message);
    CHECK_EQ_INT(layout.stride, 16);
    CHECK_EQ_INT(layout.size, 64);
    CHECK_EQ_INT(layout.align, 16);
    kiln_wgsl_module_free(m);
}

TEST(a_padded_struct_element_makes_a_uniform_scalar_array_legal) {
    static const char *src = "struct Slot { @size(16) v: f32 }\n"
                             "@group(0) @binding(0) var<uniform> a: array<Slot, 3>;";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    kiln_wgsl_layout layout;
    CHECK_MSG(kiln_wgsl_type_layout(m, var_type(m, "a"), KILN_WGSL_SPACE_UNIFORM, &layout, &err),
              "%s", err.message);
    CHECK_EQ_INT(layout.stride, 16);
    CHECK_EQ_INT(layout.size, 48);
    kiln_wgsl_module_free(m);
}

TEST(a_uniform_struct_aligns_to_sixteen_but_keeps_its_size) {
    kiln_error err;
    kiln_wgsl_module *m = reflect("struct P { a: f32, b: f32 }", &err);
    CHECK_MSG(m, "%s", err.message);
    uint32_t type = kiln_wgsl_find_struct(m, "P")->type;
    kiln_wgsl_layout uniform, storage;
    CHECK(kiln_wgsl_type_layout(m, type, KILN_WGSL_SPACE_UNIFORM, &uniform, &err));
    CHECK(kiln_wgsl_type_layout(m, type, KILN_WGSL_SPACE_STORAGE, &storage, &err));
    CHECK_EQ_INT(uniform.size, 8);
    CHECK_EQ_INT(uniform.align, 16);
    CHECK_EQ_INT(storage.size, 8);
    CHECK_EQ_INT(storage.align, 4);
    kiln_wgsl_module_free(m);
}

TEST(matrices_are_columns_of_vectors) {
    static const char *src =
        "struct M { a: mat3x3f, b: mat2x2<f32>, c: mat4x3f, d: mat3x2f, e: mat4x4f, f: mat2x2h }";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    const kiln_wgsl_struct *s = kiln_wgsl_find_struct(m, "M");
    static const struct { const char *name; uint32_t size, align; } expected[] = {
        {"a", 48, 16}, {"b", 16, 8}, {"c", 64, 16}, {"d", 24, 8}, {"e", 64, 16}, {"f", 8, 4},
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        const kiln_wgsl_type *t = &m->types[member(s, expected[i].name)->type];
        CHECK_MSG(t->size == expected[i].size && t->align == expected[i].align, "%s: %u/%u",
                  expected[i].name, t->size, t->align);
    }
    kiln_wgsl_module_free(m);
}

TEST(f16_vectors_are_half_the_size) {
    kiln_error err;
    kiln_wgsl_module *m = reflect("enable f16;\nstruct H { a: f16, b: vec3h, c: vec2<f16> }", &err);
    CHECK_MSG(m, "%s", err.message);
    const kiln_wgsl_struct *s = kiln_wgsl_find_struct(m, "H");
    CHECK_EQ_INT(member(s, "b")->offset, 8);
    CHECK_EQ_INT(m->types[member(s, "b")->type].size, 6);
    CHECK_EQ_INT(m->types[member(s, "b")->type].align, 8);
    CHECK_EQ_INT(member(s, "c")->offset, 16);
    CHECK_EQ_INT(struct_size(m, "H"), 24);
    kiln_wgsl_module_free(m);
}

TEST(an_array_of_vec3_has_stride_sixteen) {
    kiln_error err;
    kiln_wgsl_module *m = reflect("struct S { a: array<vec3f, 2>, b: f32 }", &err);
    CHECK_MSG(m, "%s", err.message);
    const kiln_wgsl_struct *s = kiln_wgsl_find_struct(m, "S");
    CHECK_EQ_INT(m->types[member(s, "a")->type].stride, 16);
    CHECK_EQ_INT(member(s, "b")->offset, 32);
    CHECK_EQ_INT(struct_size(m, "S"), 48);
    kiln_wgsl_module_free(m);
}

TEST(nested_structs_align_to_their_largest_member) {
    static const char *src = "struct Inner { a: vec2f }\n"
                             "struct Outer { x: f32, inner: Inner, y: f32 }";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    const kiln_wgsl_struct *s = kiln_wgsl_find_struct(m, "Outer");
    CHECK_EQ_INT(member(s, "inner")->offset, 8);
    CHECK_EQ_INT(member(s, "y")->offset, 16);
    CHECK_EQ_INT(struct_size(m, "Outer"), 24);
    CHECK_EQ_INT(struct_align(m, s), 8);
    kiln_wgsl_module_free(m);
}

TEST(a_uniform_struct_member_off_sixteen_is_refused_naming_it) {
    static const char *src = "struct Inner { a: vec2f }\n"
                             "struct Outer { x: f32, inner: Inner }\n"
                             "@group(0) @binding(0) var<uniform> u: Outer;\n"
                             "@fragment fn fs() { _ = u.x; }";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    uint32_t size;
    CHECK(!kiln_wgsl_uniform_block_size(m, kiln_wgsl_find_entry(m, "fs"), 0, 0, &size, &err));
    CHECK_STR_CONTAINS(err.message, "t.wgsl:2:24:");
    CHECK_STR_CONTAINS(err.message, "member 'inner'");
    CHECK_STR_CONTAINS(err.message, "@align(16)");
    kiln_wgsl_module_free(m);
}

TEST(a_uniform_member_too_close_after_a_struct_member_is_refused) {
    static const char *src = "struct Inner { a: f32 }\n"
                             "struct Outer { @align(16) s: Inner, t: f32 }";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    kiln_wgsl_layout layout;
    uint32_t type = kiln_wgsl_find_struct(m, "Outer")->type;
    CHECK(kiln_wgsl_type_layout(m, type, KILN_WGSL_SPACE_STORAGE, &layout, &err));
    CHECK(!kiln_wgsl_type_layout(m, type, KILN_WGSL_SPACE_UNIFORM, &layout, &err));
    CHECK_STR_CONTAINS(err.message, "member 't'");
    CHECK_STR_CONTAINS(err.message, "follows struct member 's'");
    kiln_wgsl_module_free(m);
}

TEST(size_and_align_attributes_move_members) {
    kiln_error err;
    kiln_wgsl_module *m = reflect("struct S { @size(20) a: f32, @align(32) b: f32, c: f32 }", &err);
    CHECK_MSG(m, "%s", err.message);
    const kiln_wgsl_struct *s = kiln_wgsl_find_struct(m, "S");
    CHECK_EQ_INT(member(s, "a")->size, 20);
    CHECK_EQ_INT(member(s, "a")->size_attr, 20);
    CHECK_EQ_INT(member(s, "b")->offset, 32);
    CHECK_EQ_INT(member(s, "b")->align_attr, 32);
    CHECK_EQ_INT(member(s, "c")->offset, 36);
    CHECK_EQ_INT(struct_align(m, s), 32);
    CHECK_EQ_INT(struct_size(m, "S"), 64);
    kiln_wgsl_module_free(m);
}

TEST(a_size_attribute_smaller_than_the_type_is_refused) {
    CHECK_REFUSED("struct S {\n  @size(8) a: vec4f,\n}", "t.wgsl:2:12: struct 'S' member 'a'");
}

TEST(an_align_attribute_that_is_not_a_power_of_two_is_refused) {
    CHECK_REFUSED("struct S { @align(12) a: f32 }", "t.wgsl:1:13: @align(12) is not a power of two");
}

TEST(a_runtime_sized_array_may_end_a_storage_struct_only) {
    static const char *src = "struct Buf { n: u32, data: array<vec4f> }\n"
                             "@group(0) @binding(0) var<storage, read_write> buf: Buf;";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    uint32_t type = var_type(m, "buf");
    CHECK(m->types[type].runtime_sized);
    CHECK_EQ_INT(member(kiln_wgsl_find_struct(m, "Buf"), "data")->offset, 16);
    kiln_wgsl_layout layout;
    CHECK(kiln_wgsl_type_layout(m, type, KILN_WGSL_SPACE_STORAGE, &layout, &err));
    CHECK_EQ_INT(layout.size, 16);
    CHECK(!kiln_wgsl_type_layout(m, type, KILN_WGSL_SPACE_UNIFORM, &layout, &err));
    CHECK_STR_CONTAINS(err.message, "runtime-sized");
    kiln_wgsl_module_free(m);
}

TEST(a_runtime_sized_array_before_another_member_is_refused) {
    CHECK_REFUSED("struct S { a: array<f32>, b: f32 }",
                  "t.wgsl:1:12: struct 'S' member 'a': a runtime-sized array must be the last member");
}

TEST(a_bool_is_fine_in_private_memory_and_not_host_shareable) {
    kiln_error err;
    kiln_wgsl_module *m = reflect("struct F { on: bool, v: f32 }\nvar<private> f: F;", &err);
    CHECK_MSG(m, "%s", err.message);
    kiln_wgsl_layout layout;
    CHECK(!m->types[var_type(m, "f")].host_shareable);
    CHECK(!kiln_wgsl_type_layout(m, var_type(m, "f"), KILN_WGSL_SPACE_UNIFORM, &layout, &err));
    CHECK_STR_CONTAINS(err.message, "not host-shareable");
    kiln_wgsl_module_free(m);
}

/* ---- uniform blocks ----------------------------------------------------------------------------- */

TEST(the_uniform_block_size_is_the_struct_size) {
    static const char *src = "struct Params { color: vec4<f32>, depth: f32 }\n"
                             "@group(0) @binding(0) var<uniform> params: Params;\n"
                             "@fragment fn fs() -> @location(0) vec4f { return params.color; }";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    uint32_t size = 0;
    CHECK_MSG(kiln_wgsl_uniform_block_size(m, kiln_wgsl_find_entry(m, "fs"), 0, 0, &size, &err),
              "%s", err.message);
    CHECK_EQ_INT(size, 32);
    kiln_wgsl_module_free(m);
}

TEST(an_eight_byte_uniform_block_needs_eight_bytes) {
    /* Dawn's minimum binding size is SizeOf, not rounded to 16. */
    static const char *src = "struct P { exposure: f32, gamma: f32 }\n"
                             "@group(0) @binding(0) var<uniform> p: P;\n"
                             "@fragment fn fs() -> @location(0) vec4f { return vec4f(p.exposure); }";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    uint32_t size = 0;
    CHECK(kiln_wgsl_uniform_block_size(m, kiln_wgsl_find_entry(m, "fs"), 0, 0, &size, &err));
    CHECK_EQ_INT(size, 8);
    kiln_wgsl_module_free(m);
}

TEST(an_entry_that_does_not_read_the_uniform_has_no_block) {
    static const char *src = "@group(0) @binding(0) var<uniform> p: vec4f;\n"
                             "@fragment fn uses() -> @location(0) vec4f { return p; }\n"
                             "@fragment fn ignores() -> @location(0) vec4f { return vec4f(1.0); }";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    uint32_t size = 99;
    CHECK(!kiln_wgsl_uniform_block_size(m, kiln_wgsl_find_entry(m, "ignores"), 0, 0, &size, &err));
    CHECK_EQ_INT(size, 0);
    CHECK_STR_CONTAINS(err.message, "entry point 'ignores' uses no var at @group(0) @binding(0)");
    CHECK(kiln_wgsl_uniform_block_size(m, kiln_wgsl_find_entry(m, "uses"), 0, 0, &size, &err));
    CHECK_EQ_INT(size, 16);
    kiln_wgsl_module_free(m);
}

TEST(a_storage_var_at_the_uniform_slot_has_no_uniform_block) {
    static const char *src = "@group(0) @binding(0) var<storage> s: array<f32>;\n"
                             "@compute @workgroup_size(1) fn cs() { _ = s[0]; }";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    uint32_t size;
    CHECK(!kiln_wgsl_uniform_block_size(m, kiln_wgsl_find_entry(m, "cs"), 0, 0, &size, &err));
    CHECK_STR_CONTAINS(err.message, "t.wgsl:1:36: var 's'");
    CHECK_STR_CONTAINS(err.message, "storage address space, not uniform");
    kiln_wgsl_module_free(m);
}

TEST(an_unknown_type_in_a_uniform_block_is_refused_at_its_position) {
    CHECK_REFUSED("struct Params {\n  color: vec4f,\n  tint: Colour,\n}\n"
                  "@group(0) @binding(0) var<uniform> params: Params;",
                  "t.wgsl:3:9: unknown type 'Colour'");
}

/* ---- bindings ----------------------------------------------------------------------------------- */

TEST(bindings_are_classified_by_texture_and_sampler_kind) {
    static const char *src =
        "@group(1) @binding(0) var t2: texture_2d<f32>;\n"
        "@group(1) @binding(1) var s: sampler;\n"
        "@group(1) @binding(2) var ta: texture_2d_array<f32>;\n"
        "@group(1) @binding(4) var t3: texture_3d<f32>;\n"
        "@group(1) @binding(6) var tc: texture_cube<f32>;\n"
        "@group(1) @binding(8) var ms: texture_multisampled_2d<f32>;\n"
        "@group(1) @binding(10) var d: texture_depth_2d;\n"
        "@group(1) @binding(11) var cmp: sampler_comparison;\n"
        "@group(1) @binding(12) var da: texture_depth_2d_array;\n"
        "@group(1) @binding(14) var dm: texture_depth_multisampled_2d;\n"
        "@group(1) @binding(16) var st: texture_storage_2d<rgba8unorm, write>;\n"
        "@group(1) @binding(18) var ti: texture_2d<i32>;\n"
        "@group(1) @binding(20) var tu: texture_2d<u32>;\n";
    static const struct { uint32_t binding; kiln_wgsl_handle handle; kiln_wgsl_scalar scalar; } expected[] = {
        {0, KILN_WGSL_TEXTURE_2D, KILN_WGSL_SCALAR_F32},
        {1, KILN_WGSL_SAMPLER, KILN_WGSL_SCALAR_NONE},
        {2, KILN_WGSL_TEXTURE_2D_ARRAY, KILN_WGSL_SCALAR_F32},
        {4, KILN_WGSL_TEXTURE_3D, KILN_WGSL_SCALAR_F32},
        {6, KILN_WGSL_TEXTURE_CUBE, KILN_WGSL_SCALAR_F32},
        {8, KILN_WGSL_TEXTURE_MULTISAMPLED_2D, KILN_WGSL_SCALAR_F32},
        {10, KILN_WGSL_TEXTURE_DEPTH_2D, KILN_WGSL_SCALAR_NONE},
        {11, KILN_WGSL_SAMPLER_COMPARISON, KILN_WGSL_SCALAR_NONE},
        {12, KILN_WGSL_TEXTURE_DEPTH_2D_ARRAY, KILN_WGSL_SCALAR_NONE},
        {14, KILN_WGSL_TEXTURE_DEPTH_MULTISAMPLED_2D, KILN_WGSL_SCALAR_NONE},
        {16, KILN_WGSL_TEXTURE_STORAGE_2D, KILN_WGSL_SCALAR_NONE},
        {18, KILN_WGSL_TEXTURE_2D, KILN_WGSL_SCALAR_I32},
        {20, KILN_WGSL_TEXTURE_2D, KILN_WGSL_SCALAR_U32},
    };
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        const kiln_wgsl_var *v = kiln_wgsl_find_binding(m, 1, expected[i].binding);
        CHECK_MSG(v, "binding %u", expected[i].binding);
        CHECK_EQ_INT(v->space, KILN_WGSL_SPACE_HANDLE);
        const kiln_wgsl_type *t = &m->types[v->type];
        CHECK_MSG(t->handle == expected[i].handle, "binding %u is %s", expected[i].binding,
                  kiln_wgsl_handle_name(t->handle));
        CHECK_MSG(t->scalar == expected[i].scalar, "binding %u holds %s", expected[i].binding,
                  kiln_wgsl_scalar_name(t->scalar));
    }
    const kiln_wgsl_type *st = &m->types[kiln_wgsl_find_binding(m, 1, 16)->type];
    CHECK(strcmp(st->texel_format, "rgba8unorm") == 0);
    CHECK_EQ_INT(st->access, KILN_WGSL_ACCESS_WRITE);
    CHECK(kiln_wgsl_find_binding(m, 1, 3) == NULL);
    CHECK(kiln_wgsl_find_binding(m, 0, 0) == NULL);
    kiln_wgsl_module_free(m);
}

TEST(buffer_vars_carry_their_address_space_and_access) {
    static const char *src = "@group(0) @binding(0) var<uniform> u: vec4f;\n"
                             "@group(2) @binding(3) var<storage> ro: array<u32>;\n"
                             "@group(2) @binding(4) var<storage, read_write> rw: array<u32>;\n"
                             "var<private> counter: u32;\n"
                             "var<workgroup> tile: array<f32, 64>;";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    const kiln_wgsl_var *u = kiln_wgsl_find_var(m, "u"), *ro = kiln_wgsl_find_var(m, "ro");
    const kiln_wgsl_var *rw = kiln_wgsl_find_var(m, "rw"), *c = kiln_wgsl_find_var(m, "counter");
    CHECK_EQ_INT(u->space, KILN_WGSL_SPACE_UNIFORM);
    CHECK_EQ_INT(ro->space, KILN_WGSL_SPACE_STORAGE);
    CHECK_EQ_INT(ro->access, KILN_WGSL_ACCESS_READ);
    CHECK_EQ_INT(ro->group, 2);
    CHECK_EQ_INT(ro->binding, 3);
    CHECK_EQ_INT(rw->access, KILN_WGSL_ACCESS_READ_WRITE);
    CHECK_EQ_INT(c->space, KILN_WGSL_SPACE_PRIVATE);
    CHECK_EQ_INT(c->group, -1);
    CHECK_EQ_INT(kiln_wgsl_find_var(m, "tile")->space, KILN_WGSL_SPACE_WORKGROUP);
    kiln_wgsl_module_free(m);
}

TEST(a_resource_var_without_a_binding_is_refused) {
    CHECK_REFUSED("@group(1) var t: texture_2d<f32>;", "t.wgsl:1:15: var 't' needs both @group and @binding");
}

TEST(a_var_without_an_address_space_is_refused) {
    CHECK_REFUSED("var x: f32;", "t.wgsl:1:5: var 'x' needs an address space");
}

TEST(a_sampled_texture_of_bool_is_refused) {
    CHECK_REFUSED("@group(1) @binding(0) var t: texture_2d<bool>;",
                  "t.wgsl:1:41: 'texture_2d' cannot hold 'bool'");
}

/* ---- entry points ------------------------------------------------------------------------------- */

TEST(entry_points_have_their_stage) {
    static const char *src = "@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0); }\n"
                             "@fragment fn fs() {}\n"
                             "@compute @workgroup_size(8, 4) fn cs() {}\n"
                             "fn helper() {}";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    CHECK_EQ_INT(m->entry_count, 3);
    CHECK_EQ_INT(kiln_wgsl_find_entry(m, "vs")->stage, KILN_WGSL_STAGE_VERTEX);
    CHECK_EQ_INT(kiln_wgsl_find_entry(m, "fs")->stage, KILN_WGSL_STAGE_FRAGMENT);
    const kiln_wgsl_entry *cs = kiln_wgsl_find_entry(m, "cs");
    CHECK_EQ_INT(cs->stage, KILN_WGSL_STAGE_COMPUTE);
    CHECK_EQ_INT(cs->workgroup_size[0], 8);
    CHECK_EQ_INT(cs->workgroup_size[1], 4);
    CHECK_EQ_INT(cs->workgroup_size[2], 1);
    CHECK(kiln_wgsl_find_entry(m, "helper") == NULL);
    kiln_wgsl_module_free(m);
}

TEST(a_workgroup_size_may_name_constants) {
    static const char *src = "const WG = 16u;\noverride DEPTH: u32;\n"
                             "@compute @workgroup_size(WG, WG, DEPTH) fn cs() {}";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    const kiln_wgsl_entry *cs = kiln_wgsl_find_entry(m, "cs");
    CHECK_EQ_INT(cs->workgroup_size[0], 16);
    CHECK_EQ_INT(cs->workgroup_size[1], 16);
    CHECK_EQ_INT(cs->workgroup_size[2], 0); /* an override without a value */
    kiln_wgsl_module_free(m);
}

TEST(vertex_inputs_are_read_at_their_locations_with_their_types) {
    static const char *src = "@vertex fn vs_placed(\n"
                             "    @location(0) corner: vec3<f32>,\n"
                             "    @location(4) offset: vec3<f32>,\n"
                             "    @location(5) color: vec4<f32>,\n"
                             "    @location(6) id: u32,\n"
                             "    @builtin(instance_index) instance: u32,\n"
                             ") -> @builtin(position) vec4<f32> { return vec4f(corner + offset, 1.0); }";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    const kiln_wgsl_entry *vs = kiln_wgsl_find_entry(m, "vs_placed");
    CHECK_EQ_INT(vs->input_count, 5);
    kiln_wgsl_scalar scalar;
    uint32_t count;
    const kiln_wgsl_io *offset = kiln_wgsl_entry_input_location(vs, 4);
    CHECK(offset && strcmp(offset->name, "offset") == 0);
    CHECK_EQ_INT(offset->line, 3);
    CHECK(kiln_wgsl_type_components(m, offset->type, &scalar, &count));
    CHECK_EQ_INT(scalar, KILN_WGSL_SCALAR_F32);
    CHECK_EQ_INT(count, 3);
    CHECK(kiln_wgsl_type_components(m, kiln_wgsl_entry_input_location(vs, 6)->type, &scalar, &count));
    CHECK_EQ_INT(scalar, KILN_WGSL_SCALAR_U32);
    CHECK_EQ_INT(count, 1);
    CHECK(kiln_wgsl_entry_input_location(vs, 1) == NULL);
    CHECK(kiln_wgsl_entry_input_builtin(vs, KILN_WGSL_BUILTIN_INSTANCE_INDEX) != NULL);
    CHECK(kiln_wgsl_entry_output_builtin(vs, KILN_WGSL_BUILTIN_POSITION) != NULL);
    kiln_wgsl_module_free(m);
}

TEST(struct_parameters_and_returns_are_flattened) {
    static const char *src = "struct VsIn { @location(0) pos: vec3f, @builtin(vertex_index) vi: u32 }\n"
                             "struct Placed {\n"
                             "    @builtin(position) position: vec4<f32>,\n"
                             "    @location(0) color: vec4<f32>,\n"
                             "    @location(1) @interpolate(flat) id: u32,\n"
                             "}\n"
                             "@vertex fn vs(in: VsIn, @location(3) extra: vec2f) -> Placed {\n"
                             "    return Placed(vec4f(in.pos, 1.0), vec4f(1.0), 0u);\n"
                             "}\n"
                             "@fragment fn fs(in: Placed) -> @location(0) vec4f { return in.color; }";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    const kiln_wgsl_entry *vs = kiln_wgsl_find_entry(m, "vs"), *fs = kiln_wgsl_find_entry(m, "fs");
    CHECK_EQ_INT(vs->input_count, 3);
    CHECK(strcmp(kiln_wgsl_entry_input_location(vs, 0)->name, "pos") == 0);
    CHECK(kiln_wgsl_entry_input_builtin(vs, KILN_WGSL_BUILTIN_VERTEX_INDEX) != NULL);
    CHECK(strcmp(kiln_wgsl_entry_input_location(vs, 3)->name, "extra") == 0);
    CHECK_EQ_INT(vs->output_count, 3);
    CHECK(vs->return_type == kiln_wgsl_find_struct(m, "Placed")->type);
    CHECK(kiln_wgsl_entry_output_builtin(vs, KILN_WGSL_BUILTIN_POSITION) != NULL);
    CHECK(strcmp(kiln_wgsl_entry_output_location(vs, 1)->name, "id") == 0);
    CHECK_EQ_INT(fs->input_count, 3);
    CHECK(kiln_wgsl_entry_input_location(fs, 0) != NULL);
    CHECK_EQ_INT(fs->output_count, 1);
    CHECK(strcmp(fs->outputs[0].name, "") == 0);
    kiln_wgsl_module_free(m);
}

TEST(integer_varyings_report_whether_they_are_flat) {
    static const char *src = "struct V {\n"
                             "    @builtin(position) p: vec4f,\n"
                             "    @location(0) @interpolate(flat) id: u32,\n"
                             "    @location(1) cell: vec2<i32>,\n"
                             "    @location(2) uv: vec2f,\n"
                             "    @location(3) @interpolate(linear, centroid) w: f32,\n"
                             "}\n"
                             "@vertex fn vs() -> V { var v: V; return v; }";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    const kiln_wgsl_entry *vs = kiln_wgsl_find_entry(m, "vs");
    const kiln_wgsl_io *id = kiln_wgsl_entry_output_location(vs, 0);
    const kiln_wgsl_io *cell = kiln_wgsl_entry_output_location(vs, 1);
    const kiln_wgsl_io *w = kiln_wgsl_entry_output_location(vs, 3);
    CHECK_EQ_INT(id->attrs.interpolation, KILN_WGSL_INTERPOLATE_FLAT);
    CHECK(!kiln_wgsl_io_missing_flat(m, id));
    CHECK(kiln_wgsl_io_missing_flat(m, cell));
    CHECK_EQ_INT(cell->line, 4);
    CHECK(!kiln_wgsl_io_missing_flat(m, kiln_wgsl_entry_output_location(vs, 2)));
    CHECK_EQ_INT(w->attrs.interpolation, KILN_WGSL_INTERPOLATE_LINEAR);
    CHECK_EQ_INT(w->attrs.sampling, KILN_WGSL_SAMPLING_CENTROID);
    CHECK(!kiln_wgsl_io_missing_flat(m, kiln_wgsl_entry_output_builtin(vs, KILN_WGSL_BUILTIN_POSITION)));
    kiln_wgsl_module_free(m);
}

TEST(an_unknown_interpolation_is_refused) {
    CHECK_REFUSED("@fragment fn fs(@location(0) @interpolate(smooth) x: f32) {}",
                  "t.wgsl:1:43: interpolation type is not one WGSL knows: 'smooth'");
}

TEST(fragment_returns_are_a_colour_nothing_or_frag_depth) {
    static const char *src =
        "@fragment fn colour() -> @location(0) vec4f { return vec4f(1.0); }\n"
        "@fragment fn nothing() {}\n"
        "@fragment fn depth() -> @builtin(frag_depth) f32 { return 0.5; }\n"
        "struct Both { @location(0) c: vec4f, @builtin(frag_depth) d: f32 }\n"
        "@fragment fn both() -> Both { return Both(vec4f(1.0), 0.5); }";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    const kiln_wgsl_entry *colour = kiln_wgsl_find_entry(m, "colour");
    const kiln_wgsl_entry *nothing = kiln_wgsl_find_entry(m, "nothing");
    const kiln_wgsl_entry *depth = kiln_wgsl_find_entry(m, "depth");
    const kiln_wgsl_entry *both = kiln_wgsl_find_entry(m, "both");
    CHECK(kiln_wgsl_entry_output_location(colour, 0) != NULL);
    CHECK(kiln_wgsl_entry_output_builtin(colour, KILN_WGSL_BUILTIN_FRAG_DEPTH) == NULL);
    CHECK_EQ_INT(nothing->output_count, 0);
    CHECK_EQ_INT(nothing->return_type, 0);
    CHECK(kiln_wgsl_entry_output_location(depth, 0) == NULL);
    CHECK(kiln_wgsl_entry_output_builtin(depth, KILN_WGSL_BUILTIN_FRAG_DEPTH) != NULL);
    CHECK(kiln_wgsl_entry_output_location(both, 0) != NULL);
    CHECK(kiln_wgsl_entry_output_builtin(both, KILN_WGSL_BUILTIN_FRAG_DEPTH) != NULL);
    kiln_wgsl_module_free(m);
}

TEST(an_unknown_builtin_reads_as_other) {
    kiln_error err;
    kiln_wgsl_module *m = reflect("@fragment fn fs(@builtin(barycentric_coord) b: vec3f) {}", &err);
    CHECK_MSG(m, "%s", err.message);
    CHECK_EQ_INT(m->entries[0].inputs[0].attrs.builtin, KILN_WGSL_BUILTIN_OTHER);
    kiln_wgsl_module_free(m);
}

/* ---- usage -------------------------------------------------------------------------------------- */

TEST(usage_follows_calls_through_helper_functions) {
    static const char *src =
        "struct Params { scale: f32 }\n"
        "@group(0) @binding(0) var<uniform> params: Params;\n"
        "@group(1) @binding(0) var tex: texture_2d<f32>;\n"
        "@group(1) @binding(1) var samp: sampler;\n"
        "fn scale_of() -> f32 { return params.scale; }\n"
        "fn shade(uv: vec2f) -> vec4f { return textureSample(tex, samp, uv) * scale_of(); }\n"
        "@vertex fn vs(@location(0) p: vec3f) -> @builtin(position) vec4f { return vec4f(p, 1.0); }\n"
        "@fragment fn fs(@location(0) uv: vec2f) -> @location(0) vec4f { return shade(uv); }";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    const kiln_wgsl_entry *vs = kiln_wgsl_find_entry(m, "vs"), *fs = kiln_wgsl_find_entry(m, "fs");
    CHECK(kiln_wgsl_entry_uses(m, fs, kiln_wgsl_find_var(m, "params")));
    CHECK(kiln_wgsl_entry_uses(m, fs, kiln_wgsl_find_var(m, "tex")));
    CHECK(kiln_wgsl_entry_uses(m, fs, kiln_wgsl_find_var(m, "samp")));
    CHECK_EQ_INT(vs->var_uses, 0);
    CHECK(kiln_wgsl_entry_binding(m, fs, 0, 0) == kiln_wgsl_find_var(m, "params"));
    CHECK(kiln_wgsl_entry_binding(m, vs, 0, 0) == NULL);
    kiln_wgsl_module_free(m);
}

TEST(a_member_named_like_a_var_is_not_a_use) {
    static const char *src = "struct S { params: f32 }\n"
                             "@group(0) @binding(0) var<uniform> params: vec4f;\n"
                             "@fragment fn fs() { var s: S; s.params = 1.0; }";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    CHECK_EQ_INT(kiln_wgsl_find_entry(m, "fs")->var_uses, 0);
    kiln_wgsl_module_free(m);
}

TEST(recursive_calls_end_the_usage_analysis) {
    static const char *src = "var<private> x: f32;\n"
                             "fn a() { b(); }\nfn b() { a(); x = 1.0; }\n"
                             "@compute @workgroup_size(1) fn cs() { a(); }";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    CHECK(kiln_wgsl_entry_uses(m, kiln_wgsl_find_entry(m, "cs"), kiln_wgsl_find_var(m, "x")));
    kiln_wgsl_module_free(m);
}

TEST(shared_bindings_resolve_per_entry_point) {
    static const char *src = "@group(0) @binding(0) var<uniform> a: vec4f;\n"
                             "@group(0) @binding(0) var<uniform> b: mat4x4f;\n"
                             "@fragment fn fa() -> @location(0) vec4f { return a; }\n"
                             "@fragment fn fb() -> @location(0) vec4f { return b[0]; }";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    uint32_t size;
    CHECK(kiln_wgsl_uniform_block_size(m, kiln_wgsl_find_entry(m, "fa"), 0, 0, &size, &err));
    CHECK_EQ_INT(size, 16);
    CHECK(kiln_wgsl_uniform_block_size(m, kiln_wgsl_find_entry(m, "fb"), 0, 0, &size, &err));
    CHECK_EQ_INT(size, 64);
    kiln_wgsl_module_free(m);
}

/* ---- aliases and constants ---------------------------------------------------------------------- */

TEST(predeclared_aliases_are_their_full_spellings) {
    static const char *src = "struct S { a: vec4f, b: vec4<f32>, c: vec3u, d: vec3<u32>,\n"
                             "           e: mat4x4f, f: mat4x4<f32>, g: vec2i, h: vec2<i32> }";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    const kiln_wgsl_struct *s = kiln_wgsl_find_struct(m, "S");
    CHECK_EQ_INT(member(s, "a")->type, member(s, "b")->type);
    CHECK_EQ_INT(member(s, "c")->type, member(s, "d")->type);
    CHECK_EQ_INT(member(s, "e")->type, member(s, "f")->type);
    CHECK_EQ_INT(member(s, "g")->type, member(s, "h")->type);
    CHECK(member(s, "a")->type != member(s, "c")->type);
    kiln_wgsl_module_free(m);
}

TEST(aliases_resolve_in_any_order) {
    static const char *src = "struct S { c: Color, n: Count }\n"
                             "alias Color = Rgba;\n"
                             "alias Rgba = vec4<f32>;\n"
                             "alias Count = u32;";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    char name[64];
    const kiln_wgsl_struct *s = kiln_wgsl_find_struct(m, "S");
    CHECK(strcmp(kiln_wgsl_type_name(m, member(s, "c")->type, name, sizeof name), "vec4<f32>") == 0);
    CHECK(strcmp(kiln_wgsl_type_name(m, member(s, "n")->type, name, sizeof name), "u32") == 0);
    CHECK_EQ_INT(m->alias_count, 3);
    CHECK_EQ_INT(struct_size(m, "S"), 32);
    kiln_wgsl_module_free(m);
}

TEST(an_alias_of_itself_is_refused) {
    CHECK_REFUSED("alias A = B;\nalias B = array<A, 2>;", "alias 'A' refers to itself");
}

TEST(a_struct_that_contains_itself_is_refused) {
    CHECK_REFUSED("struct Node { next: array<Node, 2> }", "t.wgsl:1:27: struct 'Node' contains itself");
}

TEST(array_sizes_may_name_integer_constants) {
    static const char *src = "const N = 4u;\nconst M: i32 = 3i;\nconst K = N;\noverride W = 0x10;\n"
                             "struct S { a: array<f32, N>, b: array<vec4f, M>, c: array<u32, K>,\n"
                             "           d: array<u32, 2u>, e: array<f32, W> }";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    const kiln_wgsl_struct *s = kiln_wgsl_find_struct(m, "S");
    CHECK_EQ_INT(m->types[member(s, "a")->type].count, 4);
    CHECK_EQ_INT(m->types[member(s, "b")->type].count, 3);
    CHECK_EQ_INT(m->types[member(s, "c")->type].count, 4);
    CHECK_EQ_INT(m->types[member(s, "d")->type].count, 2);
    CHECK_EQ_INT(m->types[member(s, "e")->type].count, 16);
    kiln_wgsl_module_free(m);
}

TEST(constants_and_overrides_are_listed) {
    static const char *src = "const PI = 3.14159;\n@id(7) override QUALITY: u32 = 2u;\nconst N = 8;";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    CHECK_EQ_INT(m->constant_count, 3);
    CHECK(!m->constants[0].has_value);
    CHECK(m->constants[1].is_override);
    CHECK_EQ_INT(m->constants[1].override_id, 7);
    CHECK(m->constants[1].has_value);
    CHECK_EQ_INT(m->constants[1].value, 2);
    CHECK(!m->constants[2].is_override);
    CHECK_EQ_INT(m->constants[2].value, 8);
    kiln_wgsl_module_free(m);
}

TEST(an_array_size_may_be_an_integer_constant_expression) {
    kiln_error err;
    kiln_wgsl_module *m = reflect("const X = 16u;\nconst Y = 9u;\nconst XY: u32 = X * Y;\n"
                                  "struct S {\n  a: array<f32, (XY + 2) / 2 - u32(1)>,\n}", &err);
    CHECK_MSG(m, "%s", err.message);
    CHECK_EQ_INT(m->constants[2].value, 144);
    const kiln_wgsl_struct *s = kiln_wgsl_find_struct(m, "S");
    kiln_wgsl_layout layout;
    CHECK(s && kiln_wgsl_type_layout(m, s->type, KILN_WGSL_SPACE_STORAGE, &layout, &err));
    CHECK_EQ_INT(layout.size, 72 * 4);
    kiln_wgsl_module_free(m);
}

TEST(an_array_size_expression_that_cannot_be_evaluated_is_refused_naming_it) {
    CHECK_REFUSED("const N = 4;\nstruct S {\n  a: array<f32, N << 1>,\n}",
                  "t.wgsl:3:17: array element count 'N << 1' is not an integer literal or a named integer constant");
}

/* #12 class 5: constant arithmetic is checked (it overflowed, undefined behaviour, before the range
 * check); an overflow is the shader error WGSL makes of it, naming the operator. */
TEST(constant_overflow_is_a_shader_error_naming_the_operator) {
    static const struct {
        const char *src, *error;
    } cases[] = {
        {"const K = (-2147483648)*(-2147483648) + (-2147483648)*(-2147483648);", "t.wgsl:1:39: the constant expression overflows at '+'"},
        {"const A = 4294967295 * 4294967295 * 4294967295;", "t.wgsl:1:22: the constant expression overflows at '*'"},
        {"const A = 4294967296 * 4294967296;", NULL}, /* a literal past u32 is not an integer token: no value, no error */
        {"const B = 2147483648 * 2147483648 * 2;\nconst C = -(B + B);\nconst D = -C - 1;", "t.wgsl:1:35: the constant expression overflows at '*'"},
        {"const B = 2147483648 * 2147483648 - 1 + 2147483648 * 2147483648;\nconst C = -B - 1;\nconst D = -C;", "t.wgsl:3:11: the constant expression overflows at '-'"},
        {"const B = 2147483648 * 2147483648 - 1 + 2147483648 * 2147483648;\nconst C = -B - 1;\nconst D = C / -1;", "t.wgsl:3:13: the constant expression overflows at '/'"},
        {"const B = 2147483648 * 2147483648 - 1 + 2147483648 * 2147483648;\nconst C = -B - 1;\nconst D = C % -1;", "t.wgsl:3:13: the constant expression overflows at '%'"},
        {"var<private> a: array<f32, 4294967295 * 4294967295 * 4294967295>;", "t.wgsl:1:39: the constant expression overflows at '*'"},
        {"const B = 2147483648 * 2147483648 - 1 + 2147483648 * 2147483648;\nconst C = B + 1 - 1;", "t.wgsl:2:13: the constant expression overflows at '+'"},
        {"const B = 2147483648 * 2147483648 - 1 + 2147483648 * 2147483648;\nconst C = -B - 1;", NULL}, /* exactly INT64_MIN fits */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kiln_error err = {0};
        kiln_wgsl_module *m = reflect(cases[i].src, &err);
        if (!cases[i].error) {
            CHECK_MSG(m, "case %zu: %s", i, err.message);
        } else {
            CHECK_MSG(!m && strstr(err.message, cases[i].error), "case %zu: %s", i, m ? "(accepted)" : err.message);
        }
        kiln_wgsl_module_free(m);
    }
}

TEST(an_array_size_naming_a_float_constant_is_refused) {
    CHECK_REFUSED("const F = 2.5;\nvar<private> a: array<f32, F>;",
                  "t.wgsl:2:28: array element count 'F' is not a constant with an integer literal value");
}

TEST(an_array_size_of_zero_is_refused) {
    CHECK_REFUSED("var<private> a: array<f32, 0>;", "t.wgsl:1:28: array element count must be at least 1");
}

TEST(locations_may_name_constants) {
    kiln_error err;
    kiln_wgsl_module *m = reflect("const COLOR = 2;\n@fragment fn fs(@location(COLOR) c: vec4f) {}", &err);
    CHECK_MSG(m, "%s", err.message);
    CHECK(kiln_wgsl_entry_input_location(&m->entries[0], 2) != NULL);
    kiln_wgsl_module_free(m);
}

/* ---- syntax ------------------------------------------------------------------------------------- */

TEST(nested_template_closers_need_no_space) {
    static const char *src = "@group(0) @binding(0) var<storage> a: array<vec4<f32>>;\n"
                             "var<private> b: array<array<vec2<f32>, 2>, 3>;\n"
                             "var<private> c: array<vec4<f32>,2>=array<vec4<f32>,2>();";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    char name[64];
    CHECK(strcmp(kiln_wgsl_type_name(m, var_type(m, "a"), name, sizeof name), "array<vec4<f32>>") == 0);
    CHECK(strcmp(kiln_wgsl_type_name(m, var_type(m, "b"), name, sizeof name),
                 "array<array<vec2<f32>, 2>, 3>") == 0);
    CHECK_EQ_INT(m->types[var_type(m, "b")].size, 48);
    CHECK(strcmp(kiln_wgsl_type_name(m, var_type(m, "c"), name, sizeof name), "array<vec4<f32>, 2>") == 0);
    kiln_wgsl_module_free(m);
}

TEST(directives_and_diagnostics_are_skipped) {
    static const char *src = "enable f16;\nrequires readonly_and_readwrite_storage_textures;\n"
                             "diagnostic(off, derivative_uniformity);\n"
                             "const_assert 1 < 2;\n"
                             "@diagnostic(warning, derivative_uniformity) @must_use\n"
                             "fn f() -> f32 { return 1.0; }\n"
                             "@fragment fn fs() {};";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    CHECK_EQ_INT(m->entry_count, 1);
    kiln_wgsl_module_free(m);
}

TEST(comments_are_allowed_everywhere) {
    static const char *src = "/* a /* nested */ comment */ struct /* here */ S // and here\n"
                             "{ @location /* in */ (/* an */ 0) a /**/ : vec4 /* x */ < /* y */ f32 >, }\n"
                             "@fragment // the entry\n fn fs(/* no params */) {}";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    const kiln_wgsl_struct *s = kiln_wgsl_find_struct(m, "S");
    CHECK(s && s->member_count == 1);
    CHECK_EQ_INT(s->members[0].io.location, 0);
    CHECK_EQ_INT(s->members[0].line, 2);
    kiln_wgsl_module_free(m);
}

TEST(an_unterminated_block_comment_is_refused_where_it_opens) {
    CHECK_REFUSED("struct S { a: f32 }\n  /* one /* two */ never closed\n",
                  "t.wgsl:2:3: unterminated block comment");
}

TEST(an_unclosed_function_body_is_refused_naming_its_brace) {
    CHECK_REFUSED("@fragment fn fs() {\n  if (true) {\n    return;\n}\n", "t.wgsl:1:19: '{' is never closed");
}

TEST(a_stray_closing_brace_is_refused) {
    CHECK_REFUSED("struct S { a: f32 }\n}\n", "t.wgsl:2:1: expected a declaration");
}

TEST(a_mismatched_bracket_is_refused) {
    CHECK_REFUSED("fn f() { let a = (1 + 2]; }", "t.wgsl:1:24: ']' does not close the '(' opened at 1:18");
}

TEST(a_missing_semicolon_is_refused) {
    CHECK_REFUSED("const A = 1\nstruct S { a: f32 }", "t.wgsl:2:20: expected ';' to end the 'const' that starts at 1:1");
}

TEST(an_unexpected_character_is_refused_at_its_position) {
    CHECK_REFUSED("struct S { a: f32 }\n#include \"x.wgsl\"\n", "t.wgsl:2:1: unexpected character '#'");
}

TEST(columns_count_code_points_and_crlf_is_one_line_break) {
    CHECK_REFUSED("// \xc3\xa9t\xc3\xa9\r\n/* \xe2\x82\xac */ $", "t.wgsl:2:9: unexpected character '$'");
}

TEST(a_name_declared_twice_is_refused) {
    CHECK_REFUSED("struct A { x: f32 }\nfn A() {}", "t.wgsl:2:4: 'A' is already declared at 1:8");
}

TEST(a_var_used_as_a_type_is_refused) {
    CHECK_REFUSED("var<private> v: f32;\nvar<private> w: v;", "t.wgsl:2:17: 'v' is a var, not a type");
}

TEST(an_entry_with_garbage_before_its_body_is_refused) {
    CHECK_REFUSED("@fragment fn fs() -> vec4f junk { return vec4f(); }",
                  "t.wgsl:1:28: expected '{' to begin the entry point's body, found 'junk'");
}

TEST(a_struct_with_too_many_members_names_the_cap) {
    char src[4096];
    size_t n = (size_t)snprintf(src, sizeof src, "struct Big {");
    for (int i = 0; i <= KILN_WGSL_MAX_MEMBERS; i++)
        n += (size_t)snprintf(src + n, sizeof src - n, " m%d: f32,", i);
    snprintf(src + n, sizeof src - n, " }");
    CHECK_REFUSED(src, "KILN_WGSL_MAX_MEMBERS");
}

TEST(a_name_longer_than_the_cap_is_refused) {
    char src[256];
    snprintf(src, sizeof src, "struct %0*d { a: f32 }", KILN_WGSL_NAME_MAX, 0);
    src[7] = 'S';
    CHECK_REFUSED(src, "KILN_WGSL_NAME_MAX");
}

TEST(types_nested_past_the_cap_are_refused) {
    char src[2048];
    size_t n = (size_t)snprintf(src, sizeof src, "var<private> a: ");
    for (int i = 0; i < KILN_WGSL_MAX_NESTING + 2; i++) n += (size_t)snprintf(src + n, sizeof src - n, "array<");
    n += (size_t)snprintf(src + n, sizeof src - n, "f32");
    for (int i = 0; i < KILN_WGSL_MAX_NESTING + 2; i++) n += (size_t)snprintf(src + n, sizeof src - n, ", 1>");
    snprintf(src + n, sizeof src - n, ";");
    CHECK_REFUSED(src, "KILN_WGSL_MAX_NESTING");
}

TEST(an_empty_module_declares_nothing) {
    kiln_error err;
    kiln_wgsl_module *m = kiln_wgsl_reflect(NULL, 0, NULL, &err);
    CHECK_MSG(m, "%s", err.message);
    CHECK_EQ_INT(m->entry_count + m->var_count + m->struct_count, 0);
    CHECK(strcmp(m->source_name, "wgsl") == 0);
    kiln_wgsl_module_free(m);
}

TEST(type_names_are_written_as_wgsl_spells_them) {
    static const char *src = "@group(0) @binding(0) var st: texture_storage_2d<r32float, read_write>;\n"
                             "@group(0) @binding(1) var<storage, read_write> c: atomic<u32>;\n"
                             "@group(0) @binding(2) var d: texture_depth_2d;\n"
                             "alias P = ptr<function, mat3x3f>;";
    kiln_error err;
    kiln_wgsl_module *m = reflect(src, &err);
    CHECK_MSG(m, "%s", err.message);
    char name[64];
    CHECK(strcmp(kiln_wgsl_type_name(m, var_type(m, "st"), name, sizeof name),
                 "texture_storage_2d<r32float, read_write>") == 0);
    CHECK(strcmp(kiln_wgsl_type_name(m, var_type(m, "c"), name, sizeof name), "atomic<u32>") == 0);
    CHECK(strcmp(kiln_wgsl_type_name(m, var_type(m, "d"), name, sizeof name), "texture_depth_2d") == 0);
    CHECK(strcmp(kiln_wgsl_type_name(m, m->aliases[0].type, name, sizeof name),
                 "ptr<function, mat3x3<f32>>") == 0);
    CHECK(strcmp(kiln_wgsl_type_name(m, var_type(m, "st"), name, 8), "texture") == 0);
    kiln_wgsl_module_free(m);
}

/* ---- robustness --------------------------------------------------------------------------------- */

static const char REALISTIC[] =
    "// A draw program: a mesh pass reading a shadow map.\n"
    "enable f16;\n"
    "const CASCADES = 4u;\n"
    "alias Mat = mat4x4<f32>;\n"
    "struct DrawParams {\n"
    "    view_proj: Mat,\n"
    "    light: array<Mat, CASCADES>,\n"
    "    color: vec4<f32>,\n"
    "    @align(16) depth_bias: f32,\n"
    "}\n"
    "@group(0) @binding(0) var<uniform> draw_params: DrawParams;\n"
    "@group(1) @binding(0) var shadow_map: texture_depth_2d;      /* input 0 */\n"
    "@group(1) @binding(1) var shadow_compare: sampler_comparison;\n"
    "@group(1) @binding(2) var table: texture_2d<f32>;\n"
    "struct Placed {\n"
    "    @builtin(position) position: vec4<f32>,\n"
    "    @location(0) color: vec4<f32>,\n"
    "    @location(1) @interpolate(flat) id: u32,\n"
    "    @location(2) world: vec3f,\n"
    "}\n"
    "fn shadow(world: vec3f) -> f32 {\n"
    "    let p = draw_params.light[0] * vec4f(world, 1.0);\n"
    "    return textureSampleCompareLevel(shadow_map, shadow_compare, p.xy, p.z - draw_params.depth_bias);\n"
    "}\n"
    "@vertex\n"
    "fn vs_placed(@location(0) corner: vec3<f32>, @location(4) offset: vec3<f32>,\n"
    "             @builtin(instance_index) instance: u32) -> Placed {\n"
    "    let tint = textureLoad(table, vec2i(i32(instance), 0), 0);\n"
    "    return Placed(draw_params.view_proj * vec4f(corner + offset, 1.0), tint, instance,\n"
    "                  corner + offset);\n"
    "}\n"
    "@fragment\n"
    "fn fs(in: Placed) -> @location(0) vec4<f32> {\n"
    "    /* nested /* comment */ */\n"
    "    if (in.id > 3u && in.color.a >= 0.5) { discard; }\n"
    "    return in.color * shadow(in.world);\n"
    "}\n";

/* Runs the scanner and asserts it either succeeded or failed with a positioned message. */
static bool scans_cleanly(const char *src, size_t length) {
    kiln_error err;
    kiln_error_clear(&err);
    kiln_wgsl_module *m = kiln_wgsl_reflect(src, length, "fuzz.wgsl", &err);
    if (m) {
        kiln_wgsl_module_free(m);
        return true;
    }
    return err.code != KILN_ERR_NONE && strncmp(err.message, "fuzz.wgsl", 9) == 0;
}

TEST(the_realistic_module_scans) {
    kiln_error err;
    kiln_wgsl_module *m = kiln_wgsl_reflect(REALISTIC, sizeof REALISTIC - 1, "r.wgsl", &err);
    CHECK_MSG(m, "%s", err.message);
    uint32_t size;
    CHECK(kiln_wgsl_uniform_block_size(m, kiln_wgsl_find_entry(m, "vs_placed"), 0, 0, &size, &err));
    CHECK_EQ_INT(size, 64 + 4 * 64 + 16 + 16);
    const kiln_wgsl_entry *fs = kiln_wgsl_find_entry(m, "fs");
    CHECK(kiln_wgsl_entry_uses(m, fs, kiln_wgsl_find_binding(m, 1, 0)));
    CHECK(!kiln_wgsl_entry_uses(m, fs, kiln_wgsl_find_binding(m, 1, 2)));
    kiln_wgsl_module_free(m);
}

TEST(every_prefix_of_a_module_scans_cleanly) {
    size_t n = sizeof REALISTIC - 1;
    /* Each prefix is copied to an exact-size heap block, so ASan sees any read past its end. */
    for (size_t len = 0; len <= n; len++) {
        char *copy = malloc(len ? len : 1);
        CHECK(copy);
        memcpy(copy, REALISTIC, len);
        bool clean = scans_cleanly(copy, len);
        free(copy);
        CHECK_MSG(clean, "prefix of %zu bytes", len);
    }
}

TEST(random_byte_flips_scan_cleanly) {
    size_t n = sizeof REALISTIC - 1;
    static const char interesting[] = "{}()[]<>;:,@/*=.-0aZ_\x80\xff\n\r\t ";
    uint32_t state = 0x9E3779B9u; /* fixed seed: failures reproduce */
    char *copy = malloc(n);
    CHECK(copy);
    for (int round = 0; round < 4000; round++) {
        memcpy(copy, REALISTIC, n);
        int flips = 1 + round % 4;
        for (int f = 0; f < flips; f++) {
            state = state * 1664525u + 1013904223u;
            size_t at = (state >> 8) % n;
            state = state * 1664525u + 1013904223u;
            copy[at] = (state >> 24) & 1 ? (char)(state >> 8)
                                         : interesting[(state >> 12) % (sizeof interesting - 1)];
        }
        if (!scans_cleanly(copy, n)) {
            free(copy);
            CHECK_MSG(false, "round %d", round);
        }
    }
    free(copy);
}

TEST(deep_bracket_nesting_is_refused_without_recursion) {
    size_t depth = 100000;
    char *src = malloc(depth * 2 + 32);
    CHECK(src);
    size_t n = (size_t)sprintf(src, "fn f() {");
    for (size_t i = 0; i < depth; i++) src[n++] = '(';
    for (size_t i = 0; i < depth; i++) src[n++] = ')';
    src[n++] = '}';
    bool clean = scans_cleanly(src, n);
    kiln_error err;
    kiln_wgsl_module *m = kiln_wgsl_reflect(src, n, "deep.wgsl", &err);
    free(src);
    CHECK(clean);
    CHECK(m == NULL);
    CHECK_STR_CONTAINS(err.message, "brackets nest deeper than");
}

TEST_MAIN(
    T(a_scalar_after_a_vec3_fills_its_fourth_lane),
    T(a_vec3_after_a_scalar_starts_at_sixteen),
    T(the_wgsl_spec_example_struct_lays_out_as_published),
    T(a_storage_f32_array_has_stride_four),
    T(a_uniform_f32_array_is_refused_for_its_stride_of_four),
    T(a_uniform_vec4_array_has_stride_sixteen_and_aligns_to_sixteen),
    T(a_padded_struct_element_makes_a_uniform_scalar_array_legal),
    T(a_uniform_struct_aligns_to_sixteen_but_keeps_its_size),
    T(matrices_are_columns_of_vectors),
    T(f16_vectors_are_half_the_size),
    T(an_array_of_vec3_has_stride_sixteen),
    T(nested_structs_align_to_their_largest_member),
    T(a_uniform_struct_member_off_sixteen_is_refused_naming_it),
    T(a_uniform_member_too_close_after_a_struct_member_is_refused),
    T(size_and_align_attributes_move_members),
    T(a_size_attribute_smaller_than_the_type_is_refused),
    T(an_align_attribute_that_is_not_a_power_of_two_is_refused),
    T(a_runtime_sized_array_may_end_a_storage_struct_only),
    T(a_runtime_sized_array_before_another_member_is_refused),
    T(a_bool_is_fine_in_private_memory_and_not_host_shareable),
    T(the_uniform_block_size_is_the_struct_size),
    T(an_eight_byte_uniform_block_needs_eight_bytes),
    T(an_entry_that_does_not_read_the_uniform_has_no_block),
    T(a_storage_var_at_the_uniform_slot_has_no_uniform_block),
    T(an_unknown_type_in_a_uniform_block_is_refused_at_its_position),
    T(bindings_are_classified_by_texture_and_sampler_kind),
    T(buffer_vars_carry_their_address_space_and_access),
    T(a_resource_var_without_a_binding_is_refused),
    T(a_var_without_an_address_space_is_refused),
    T(a_sampled_texture_of_bool_is_refused),
    T(entry_points_have_their_stage),
    T(a_workgroup_size_may_name_constants),
    T(vertex_inputs_are_read_at_their_locations_with_their_types),
    T(struct_parameters_and_returns_are_flattened),
    T(integer_varyings_report_whether_they_are_flat),
    T(an_unknown_interpolation_is_refused),
    T(fragment_returns_are_a_colour_nothing_or_frag_depth),
    T(an_unknown_builtin_reads_as_other),
    T(usage_follows_calls_through_helper_functions),
    T(a_member_named_like_a_var_is_not_a_use),
    T(recursive_calls_end_the_usage_analysis),
    T(shared_bindings_resolve_per_entry_point),
    T(predeclared_aliases_are_their_full_spellings),
    T(aliases_resolve_in_any_order),
    T(an_alias_of_itself_is_refused),
    T(a_struct_that_contains_itself_is_refused),
    T(array_sizes_may_name_integer_constants),
    T(constants_and_overrides_are_listed),
    T(an_array_size_may_be_an_integer_constant_expression), T(an_array_size_expression_that_cannot_be_evaluated_is_refused_naming_it),
    T(constant_overflow_is_a_shader_error_naming_the_operator), T(an_array_size_naming_a_float_constant_is_refused),
    T(an_array_size_of_zero_is_refused),
    T(locations_may_name_constants),
    T(nested_template_closers_need_no_space),
    T(directives_and_diagnostics_are_skipped),
    T(comments_are_allowed_everywhere),
    T(an_unterminated_block_comment_is_refused_where_it_opens),
    T(an_unclosed_function_body_is_refused_naming_its_brace),
    T(a_stray_closing_brace_is_refused),
    T(a_mismatched_bracket_is_refused),
    T(a_missing_semicolon_is_refused),
    T(an_unexpected_character_is_refused_at_its_position),
    T(columns_count_code_points_and_crlf_is_one_line_break),
    T(a_name_declared_twice_is_refused),
    T(a_var_used_as_a_type_is_refused),
    T(an_entry_with_garbage_before_its_body_is_refused),
    T(a_struct_with_too_many_members_names_the_cap),
    T(a_name_longer_than_the_cap_is_refused),
    T(types_nested_past_the_cap_are_refused),
    T(an_empty_module_declares_nothing),
    T(type_names_are_written_as_wgsl_spells_them),
    T(the_realistic_module_scans),
    T(every_prefix_of_a_module_scans_cleanly),
    T(random_byte_flips_scan_cleanly),
    T(deep_bracket_nesting_is_refused_without_recursion))
