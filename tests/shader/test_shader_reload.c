/* Hot reload of a single-file program through the shader library (what gfx's own file reload
 * proved before the library became kiln's one reload path): an unchanged file is not reloaded, a
 * change swaps the module behind the same handle, and a broken change keeps the last good module,
 * counts a failure and logs the file:line:col message. */
#include <kiln/shader/library.h>

#include "scratch_files.h"

static const char *GOOD_V1 = "@compute @workgroup_size(1) fn cs_main() {}\n";
static const char *GOOD_V2 =
    "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n"
    "@compute @workgroup_size(1) fn cs_main() { data[0] = 7u; }\n";
/* Line 3, column 13: `undefined_thing` is the unresolved identifier. */
static const char *BROKEN =
    "@compute @workgroup_size(1)\n"
    "fn cs_main() {\n"
    "    let x = undefined_thing + 1;\n"
    "}\n";

static bool logged(const kiln_log *log, kiln_log_level level, const char *message) {
    for (uint32_t i = 0; i < kiln_log_count(log); i++) {
        const kiln_log_record *r = kiln_log_at(log, i);
        if (r->level == level && strcmp(r->category, "render.shaders") == 0 && strcmp(r->message, message) == 0)
            return true;
    }
    return false;
}

TEST(loading_a_missing_entry_names_its_path) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_shader_library *lib =
        kiln_shader_library_create(f.gfx, f.res, &(kiln_wgsl_source){.directory = "/nonexistent/kiln"}, &err);
    CHECK_MSG(lib, "%s", err.message);
    kiln_shader h = kiln_shader_library_load(lib, "missing.wgsl", &err);
    kiln_shader_library_destroy(lib);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(h.id, 0);
    CHECK_EQ_INT(err.code, KILN_ERR_IO);
    CHECK_MSG(strcmp(err.message, "/nonexistent/kiln/missing.wgsl: cannot open: No such file or directory") == 0, "%s",
              err.message);
}

TEST(hot_reload_swaps_the_module_and_keeps_the_last_good_on_failure) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    char dir[1024];
    CHECK(scratch_dir(dir, sizeof dir, "shader_reload", "single_file"));
    CHECK(scratch_write(dir, "hot_reload.wgsl", GOOD_V1));
    kiln_error err = {0};
    kiln_shader_library *lib = kiln_shader_library_create(f.gfx, f.res, &(kiln_wgsl_source){.directory = dir}, &err);
    CHECK_MSG(lib, "%s", err.message);
    kiln_shader h = kiln_shader_library_load(lib, "hot_reload.wgsl", &err);
    CHECK_MSG(h.id, "%s", err.message);
    WGPUShaderModule first = kiln_resources_shader_raw(f.res, h, NULL);
    kiln_shader reloaded[4] = {{0}};

    CHECK_EQ_INT(kiln_shader_library_check_for_changes(lib, reloaded, 4), 0); /* unchanged */

    CHECK(scratch_rewrite(dir, "hot_reload.wgsl", GOOD_V2, 1));
    CHECK_EQ_INT(kiln_shader_library_check_for_changes(lib, reloaded, 4), 1);
    CHECK_EQ_INT(reloaded[0].id, h.id);
    WGPUShaderModule second = kiln_resources_shader_raw(f.res, h, NULL);
    CHECK(second != NULL && second != first);
    CHECK(logged(&f.gfx->diagnostics, KILN_LOG_INFO, "reloaded hot_reload.wgsl"));
    /* The new module is the one with a binding: a pipeline with that layout builds from it. */
    kiln_compute_pipeline p =
        kiln_resources_create_compute_pipeline(f.res, &(kiln_compute_pipeline_desc){.label = "v2", .shader = h}, &err);
    CHECK_MSG(p.id, "%s", err.message);

    CHECK(scratch_rewrite(dir, "hot_reload.wgsl", BROKEN, 2));
    CHECK_EQ_INT(kiln_shader_library_check_for_changes(lib, reloaded, 4), 0);
    CHECK_EQ_INT(kiln_shader_library_reload_failures(lib), 1);
    CHECK(kiln_resources_shader_raw(f.res, h, NULL) == second); /* last good kept */
    CHECK(logged(&f.gfx->diagnostics, KILN_LOG_ERROR,
                 "reload of hot_reload.wgsl failed, keeping the last good module: "
                 "hot_reload.wgsl:3:13: error: unresolved value 'undefined_thing'"));
    kiln_shader_library_destroy(lib);
    FIXTURE_CLOSE_CLEAN(f);
}

/* Refuses any program whose text mentions `data`: a stand-in for a user's check of the
 * assembled text (the renderer's is its block layouts). */
static bool refuse_data(void *user, const char *entry, const char *text, size_t length, kiln_error *err) {
    (*(int *)user)++;
    if (length && strstr(text, "data"))
        return kiln_error_set(err, KILN_ERR_SHADER, "%s: the validator refuses 'data'", entry);
    return true;
}

TEST(a_validator_sees_each_load_and_reload_and_may_refuse_them) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    char dir[1024];
    CHECK(scratch_dir(dir, sizeof dir, "shader_validator", "single_file"));
    CHECK(scratch_write(dir, "checked.wgsl", GOOD_V1));
    CHECK(scratch_write(dir, "refused.wgsl", GOOD_V2));
    kiln_error err = {0};
    kiln_shader_library *lib = kiln_shader_library_create(f.gfx, f.res, &(kiln_wgsl_source){.directory = dir}, &err);
    CHECK_MSG(lib, "%s", err.message);
    int calls = 0;
    kiln_shader_library_set_validator(lib, refuse_data, &calls);
    kiln_shader refused = kiln_shader_library_load(lib, "refused.wgsl", &err);
    char load_message[512];
    snprintf(load_message, sizeof load_message, "%s", err.message);
    kiln_shader h = kiln_shader_library_load(lib, "checked.wgsl", &err);
    CHECK_MSG(h.id, "%s", err.message);
    WGPUShaderModule first = kiln_resources_shader_raw(f.res, h, NULL);
    kiln_shader reloaded[4] = {{0}};
    CHECK(scratch_rewrite(dir, "checked.wgsl", GOOD_V2, 1)); /* would compile, but mentions data */
    uint32_t reloads = kiln_shader_library_check_for_changes(lib, reloaded, 4);
    bool kept = kiln_resources_shader_raw(f.res, h, NULL) == first;
    uint32_t failures = kiln_shader_library_reload_failures(lib);
    kiln_shader_library_destroy(lib);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(refused.id, 0);
    CHECK_MSG(strcmp(load_message, "refused.wgsl: the validator refuses 'data'") == 0, "%s", load_message);
    CHECK_EQ_INT(reloads, 0);
    CHECK(kept);
    CHECK_EQ_INT(failures, 1);
    CHECK_EQ_INT(calls, 3);
}

TEST_MAIN(T(loading_a_missing_entry_names_its_path), T(hot_reload_swaps_the_module_and_keeps_the_last_good_on_failure),
          T(a_validator_sees_each_load_and_reload_and_may_refuse_them))
