/* Shaders: diagnostics point at the right file, line and column; hot reload swaps the module
 * behind the same handle, and a failing reload keeps the last good one. */
#include <sys/stat.h>
#include <time.h>

#include "gfx_fixture.h"

static const char *GOOD_V1 =
    "@compute @workgroup_size(1) fn cs_main() {}\n";
static const char *GOOD_V2 =
    "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n"
    "@compute @workgroup_size(1) fn cs_main() { data[0] = 7u; }\n";
/* Line 3, column 13: `undefined_thing` is the unresolved identifier. */
static const char *BROKEN =
    "@compute @workgroup_size(1)\n"
    "fn cs_main() {\n"
    "    let x = undefined_thing + 1;\n"
    "}\n";

static bool write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    fputs(text, f);
    fclose(f);
    return true;
}

/* Moves the file's mtime forward so a rewrite within one clock tick is still seen as a change. */
static void bump_mtime(const char *path, int seconds) {
    struct stat st;
    stat(path, &st);
    struct timespec times[2] = {st.st_atim, st.st_mtim};
    times[1].tv_sec += seconds;
    utimensat(0, path, times, 0);
}

TEST(a_broken_shader_reports_file_line_and_column) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_shaders *sh = kiln_shaders_create(f.gfx, f.res, NULL);
    kiln_shader_report report;
    kiln_error err = {0};
    WGPUShaderModule m = kiln_shaders_compile(sh, "shaders/broken.wgsl", BROKEN, &report, &err);
    kiln_shaders_destroy(sh);
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

TEST(load_reports_a_missing_file_by_name) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_shaders *sh = kiln_shaders_create(f.gfx, f.res, NULL);
    kiln_error err = {0};
    kiln_shader h = kiln_shaders_load(sh, "/nonexistent/kiln/missing.wgsl", NULL, &err);
    kiln_shaders_destroy(sh);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(h.id, 0);
    CHECK_STR_CONTAINS(err.message, "/nonexistent/kiln/missing.wgsl");
}

TEST(hot_reload_swaps_the_module_and_keeps_the_last_good_on_failure) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    char path[512];
    fixture_tmp_path(path, sizeof path, "hot_reload.wgsl");
    CHECK(write_text(path, GOOD_V1));
    kiln_shaders *sh = kiln_shaders_create(f.gfx, f.res, NULL);
    kiln_error err = {0};
    kiln_shader h = kiln_shaders_load(sh, path, NULL, &err);
    CHECK_MSG(h.id, "%s", err.message);
    WGPUShaderModule first = kiln_gfx_shader_raw(f.res, h, NULL);
    kiln_shader_reload results[4];

    CHECK_EQ_INT(kiln_shaders_check_for_changes(sh, results, 4), 0); /* unchanged */

    CHECK(write_text(path, GOOD_V2));
    bump_mtime(path, 1);
    CHECK_EQ_INT(kiln_shaders_check_for_changes(sh, results, 4), 1);
    CHECK(results[0].success);
    CHECK_EQ_INT(results[0].shader.id, h.id);
    WGPUShaderModule second = kiln_gfx_shader_raw(f.res, h, NULL);
    CHECK(second != NULL && second != first);
    /* The new module is the one with a binding: a pipeline with that layout builds from it. */
    kiln_compute_pipeline p = kiln_gfx_create_compute_pipeline(f.res, &(kiln_compute_pipeline_desc){.label = "v2", .shader = h}, &err);
    CHECK_MSG(p.id, "%s", err.message);

    CHECK(write_text(path, BROKEN));
    bump_mtime(path, 2);
    CHECK_EQ_INT(kiln_shaders_check_for_changes(sh, results, 4), 1);
    CHECK(!results[0].success);
    CHECK_EQ_INT(kiln_shaders_reload_failures(sh), 1);
    CHECK(kiln_gfx_shader_raw(f.res, h, NULL) == second); /* last good kept */
    bool logged = false;
    for (uint32_t i = 0; i < kiln_log_count(&f.gfx->diagnostics); i++) {
        const kiln_log_record *r = kiln_log_at(&f.gfx->diagnostics, i);
        if (r->level == KILN_LOG_ERROR && strstr(r->message, "keeping last good module") && strstr(r->message, ":3:13: error"))
            logged = true;
    }
    CHECK(logged);
    kiln_shaders_destroy(sh);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_broken_pipeline_fails_at_creation_naming_it) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_shaders *sh = kiln_shaders_create(f.gfx, f.res, NULL);
    kiln_error err = {0};
    WGPUShaderModule m = kiln_shaders_compile(sh, "vs.wgsl", "@vertex fn vs_main() -> @builtin(position) vec4f { return vec4f(0.0); }\n", NULL, &err);
    CHECK_MSG(m, "%s", err.message);
    kiln_shader s = kiln_gfx_adopt_shader(f.res, m, "vs", &err);
    kiln_render_pipeline_desc pd = {.label = "no fragment entry", .shader = s, .target_count = 1,
                                    .targets = {{.format = WGPUTextureFormat_RGBA8Unorm}}};
    kiln_render_pipeline p = kiln_gfx_create_render_pipeline(f.res, &pd, &err);
    kiln_shaders_destroy(sh);
    uint64_t errors = fixture_close(&f);
    CHECK_EQ_INT(p.id, 0);
    CHECK_EQ_INT(err.code, KILN_ERR_PIPELINE);
    CHECK_STR_CONTAINS(err.message, "pipeline 'no fragment entry' is invalid: ");
    CHECK_EQ_INT(errors, 0);
}

TEST_MAIN(T(a_broken_shader_reports_file_line_and_column), T(load_reports_a_missing_file_by_name),
          T(hot_reload_swaps_the_module_and_keeps_the_last_good_on_failure),
          T(a_broken_pipeline_fails_at_creation_naming_it))
