/* kiln_enums.wgsl, generated from the enum-name tables of src/render/names.c: every constant is
 * the value of its C enum (read back through kiln's WGSL reflector), nothing else is in it, its
 * names follow the table rows, a shader using one of each family compiles, and a source without
 * the generated file cannot assemble the renderer's programs. */
#include <ctype.h>

#include <kiln/render.h>
#include <kiln/shader/wgsl_reflect.h>

#include "gfx_fixture.h"
#include "render_wgsl_probe.h"

static const struct {
    const char *name;
    uint32_t value;
} EXPECTED[] = {
    {"TONEMAP_AGX", KILN_TONEMAP_AGX}, {"TONEMAP_ACES", KILN_TONEMAP_ACES},
    {"TONEMAP_ACES_HILL", KILN_TONEMAP_ACES_HILL}, {"TONEMAP_ACES_HILL_BOOST", KILN_TONEMAP_ACES_HILL_BOOST},
    {"TONEMAP_PBR_NEUTRAL", KILN_TONEMAP_PBR_NEUTRAL}, {"TONEMAP_NONE", KILN_TONEMAP_NONE},
    {"DEBUG_NONE", KILN_DEBUG_NONE}, {"DEBUG_NORMALS", KILN_DEBUG_NORMALS}, {"DEBUG_CLUSTERS", KILN_DEBUG_CLUSTERS},
    {"DEBUG_OVERDRAW", KILN_DEBUG_OVERDRAW}, {"DEBUG_ALBEDO", KILN_DEBUG_ALBEDO},
    {"DEBUG_CASCADES", KILN_DEBUG_CASCADES}, {"DEBUG_AO", KILN_DEBUG_AO}, {"DEBUG_LOD", KILN_DEBUG_LOD},
    {"BACKGROUND_SKY", KILN_BACKGROUND_SKY}, {"BACKGROUND_COLOR", KILN_BACKGROUND_COLOR},
    {"BACKGROUND_TRANSPARENT", KILN_BACKGROUND_TRANSPARENT},
    {"LIGHT_KIND_POINT", KILN_LIGHT_POINT}, {"LIGHT_KIND_SPOT", KILN_LIGHT_SPOT}, {"LIGHT_KIND_SUN", KILN_LIGHT_SUN},
    {"ALPHA_OPAQUE", KILN_ALPHA_OPAQUE}, {"ALPHA_MASK", KILN_ALPHA_MASK}, {"ALPHA_BLEND", KILN_ALPHA_BLEND},
    {"TEX_BASE_COLOR", KILN_TEX_BASE_COLOR}, {"TEX_METALLIC_ROUGHNESS", KILN_TEX_METALLIC_ROUGHNESS},
    {"TEX_NORMAL", KILN_TEX_NORMAL}, {"TEX_OCCLUSION", KILN_TEX_OCCLUSION}, {"TEX_EMISSIVE", KILN_TEX_EMISSIVE},
    {"INSTANCE_SKINNED", KILN_INSTANCE_SKINNED}, {"INSTANCE_MORPHED", KILN_INSTANCE_MORPHED},
};
#define EXPECTED_COUNT (sizeof EXPECTED / sizeof EXPECTED[0])

TEST(every_generated_constant_is_its_c_enum_value_and_there_are_no_others) {
    const kiln_wgsl_embedded_file *file = renderer_enums_wgsl();
    CHECK(strcmp(file->name, "kiln_enums.wgsl") == 0);
    kiln_error err = {0};
    kiln_wgsl_module *m = kiln_wgsl_reflect(file->text, strlen(file->text), file->name, &err);
    CHECK_MSG(m, "%s", err.message);
    char wrong[512] = "";
    for (size_t i = 0; i < EXPECTED_COUNT; i++) {
        const kiln_wgsl_constant *c = NULL;
        for (uint32_t j = 0; j < m->constant_count && !c; j++)
            if (!strcmp(m->constants[j].name, EXPECTED[i].name)) c = &m->constants[j];
        if (!c || !c->has_value || c->value != EXPECTED[i].value || c->is_override)
            snprintf(wrong + strlen(wrong), sizeof wrong - strlen(wrong), " %s", EXPECTED[i].name);
    }
    uint32_t count = m->constant_count;
    kiln_wgsl_module_free(m);
    CHECK_MSG(!wrong[0], "missing or not the C value:%s", wrong);
    CHECK_EQ_INT(count, EXPECTED_COUNT);
}

/* Each tone mapper's constant is named after kiln_tonemapper_name, so a new row there is a new
 * constant here without a shader edit. */
TEST(a_constant_is_named_by_its_table_row) {
    const char *text = renderer_enums_wgsl()->text;
    for (int i = 0; i < KILN_TONEMAPPER_COUNT; i++) {
        char want[96], upper[64];
        const char *name = kiln_tonemapper_name((kiln_tonemapper)i);
        size_t n = 0;
        for (; name[n] && n + 1 < sizeof upper; n++) upper[n] = name[n] == '-' ? '_' : (char)toupper((unsigned char)name[n]);
        upper[n] = '\0';
        snprintf(want, sizeof want, "const TONEMAP_%s: u32 = %du;\n", upper, i);
        CHECK_MSG(strstr(text, want), "no line %s", want);
    }
}

static const char PROBE[] =
    "#include \"kiln_enums.wgsl\"\n"
    "@group(0) @binding(0) var<storage, read_write> out: array<u32, 7>;\n"
    "@compute @workgroup_size(1) fn cs_main() {\n"
    "    out[0] = TONEMAP_PBR_NEUTRAL; out[1] = DEBUG_LOD; out[2] = BACKGROUND_TRANSPARENT;\n"
    "    out[3] = LIGHT_KIND_SUN; out[4] = ALPHA_BLEND; out[5] = TEX_EMISSIVE; out[6] = INSTANCE_MORPHED;\n"
    "}\n";

TEST(a_shader_using_one_of_each_family_compiles) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    WGPUShaderModule m = render_wgsl_probe_compile(f.gfx, PROBE, &err);
    if (m) wgpuShaderModuleRelease(m);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_MSG(m, "%s", err.message);
}

/* A source without the generated file cannot assemble a program that includes it: the renderer's
 * shaders depend on the generation, not on a copy somewhere. */
TEST(without_the_generated_file_the_include_is_named_missing) {
    kiln_wgsl_source bare = {.files = kiln_render_wgsl, .file_count = kiln_render_wgsl_count};
    kiln_assembled_wgsl a;
    kiln_error err = {0};
    CHECK(!kiln_wgsl_assemble(&bare, "post.wgsl", &a, &err));
    CHECK_STR_CONTAINS(err.message, "cannot include \"kiln_enums.wgsl\": No such file or directory");
}

TEST_MAIN(T(every_generated_constant_is_its_c_enum_value_and_there_are_no_others), T(a_constant_is_named_by_its_table_row),
          T(a_shader_using_one_of_each_family_compiles), T(without_the_generated_file_the_include_is_named_missing))
