/* Shader compilation: diagnostics point at the right file, line and column, caught by the error
 * scope. (Loading files and hot reload are the shader library's: tests/shader.) */
#include "gfx_fixture.h"

/* Line 3, column 13: `undefined_thing` is the unresolved identifier. */
static const char *BROKEN =
    "@compute @workgroup_size(1)\n"
    "fn cs_main() {\n"
    "    let x = undefined_thing + 1;\n"
    "}\n";

TEST(a_broken_shader_reports_file_line_and_column) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_shader_report report;
    kiln_error err = {0};
    WGPUShaderModule m = kiln_gfx_compile_shader(f.gfx, "shaders/broken.wgsl", BROKEN, &report, &err);
    uint64_t errors = fixture_close(&f);
    CHECK(m == NULL);
    CHECK_EQ_INT(err.code, KILN_ERR_SHADER);
    CHECK(report.count >= 1);
    CHECK_EQ_INT(report.messages[0].line, 3);
    CHECK_EQ_INT(report.messages[0].column, 13);
    CHECK_STR_CONTAINS(err.message, "shaders/broken.wgsl:3:13: error: ");
    CHECK_STR_CONTAINS(err.message, "undefined_thing");
    CHECK_EQ_INT(errors, 0); /* caught by the error scope, not left uncaptured */
}

TEST(a_broken_pipeline_fails_at_creation_naming_it) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    WGPUShaderModule m = kiln_gfx_compile_shader(f.gfx, "vs.wgsl", "@vertex fn vs_main() -> @builtin(position) vec4f { return vec4f(0.0); }\n", NULL, &err);
    CHECK_MSG(m, "%s", err.message);
    kiln_shader s = kiln_resources_adopt_shader(f.res, m, "vs", &err);
    kiln_render_pipeline_desc pd = {.label = "no fragment entry", .shader = s, .target_count = 1,
                                    .targets = {{.format = WGPUTextureFormat_RGBA8Unorm}}};
    kiln_render_pipeline p = kiln_resources_create_render_pipeline(f.res, &pd, &err);
    uint64_t errors = fixture_close(&f);
    CHECK_EQ_INT(p.id, 0);
    CHECK_EQ_INT(err.code, KILN_ERR_PIPELINE);
    CHECK_STR_CONTAINS(err.message, "pipeline 'no fragment entry' is invalid: ");
    CHECK_EQ_INT(errors, 0);
}

TEST_MAIN(T(a_broken_shader_reports_file_line_and_column), T(a_broken_pipeline_fails_at_creation_naming_it))
