/* Shader library: #include assembly and its line map, errors that name the file at fault, hot
 * reload of a whole program when only an include changes, and watched pipelines rebuilt in place
 * under their handles (proved by what the new code writes). */
#include <errno.h>
#include <sys/stat.h>
#include <time.h>

#include <kiln/shader/library.h>

#include "gfx_fixture.h"

/* The repository's fixtures (never modified: tests that change files work on scratch copies). */
#define FIXTURES KILN_SHADER_FIXTURES

static bool write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    fputs(text, f);
    return fclose(f) == 0;
}

static bool copy_file(const char *from, const char *to) {
    FILE *in = fopen(from, "rb");
    if (!in) return false;
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, in);
    fclose(in);
    text[n] = '\0';
    return write_text(to, text);
}

/* A fresh scratch directory $KILN_TEST_TMP/shader_library/<name>, holding copies of the named
 * fixture files of `fixture_dir` (or nothing). */
static bool scratch_dir(char *out, size_t size, const char *name, const char *fixture_dir, const char *const *files,
                        int count) {
    char base[512];
    fixture_tmp_path(base, sizeof base, "shader_library");
    if (mkdir(base, 0755) != 0 && errno != EEXIST) return false;
    int n = snprintf(out, size, "%s/%s", base, name);
    if (n < 0 || (size_t)n >= size || (mkdir(out, 0755) != 0 && errno != EEXIST)) return false;
    for (int i = 0; i < count; i++) {
        char from[1024], to[1024];
        snprintf(from, sizeof from, "%s/%s", fixture_dir, files[i]);
        snprintf(to, sizeof to, "%s/%s", out, files[i]);
        if (!copy_file(from, to)) return false;
    }
    return true;
}

/* Rewrites dir/name with text and moves its mtime `seconds` past the old one, so a rewrite within
 * one clock tick is still seen as a change. */
static bool rewrite(const char *dir, const char *name, const char *text, int seconds) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    if (stat(path, &st) != 0 || !write_text(path, text)) return false;
    struct timespec times[2] = {st.st_atim, st.st_mtim};
    times[1].tv_sec += seconds;
    return utimensat(0, path, times, 0) == 0;
}

static bool log_has(const kiln_log *log, kiln_log_level level, const char *category, const char *text) {
    for (uint32_t i = 0; i < kiln_log_count(log); i++) {
        const kiln_log_record *r = kiln_log_at(log, i);
        if (r->level == level && strcmp(r->category, category) == 0 && strstr(r->message, text)) return true;
    }
    return false;
}

/* ---------------------------------------------------------------------------------------------
 * Assembly (CPU only)
 * ------------------------------------------------------------------------------------------- */

TEST(assembly_splices_each_include_once_and_maps_every_line_back) {
    kiln_assembled_wgsl a;
    kiln_error err = {0};
    CHECK_MSG(kiln_wgsl_assemble(&(kiln_wgsl_source){.directory = FIXTURES "/tree"}, "main.wgsl", &a, &err), "%s", err.message);
    CHECK_EQ_INT(a.file_count, 3);
    CHECK(strcmp(a.files[0].name, "main.wgsl") == 0);
    CHECK(strcmp(a.files[1].name, "a.wgsl") == 0);
    CHECK(strcmp(a.files[2].name, "b.wgsl") == 0);
    CHECK(strcmp(a.files[2].path, FIXTURES "/tree/b.wgsl") == 0);
    CHECK(a.files[1].size > 0 && a.files[1].mtime_ns > 0);
    static const char expected[] =
        "// main.wgsl line 1\n"
        "// a.wgsl line 1\n"
        "// b.wgsl line 1\n"
        "const B_VALUE: u32 = 1u; // b.wgsl line 2\n"
        "const A_VALUE: u32 = 2u; // a.wgsl line 3\n"
        "const MAIN_VALUE: u32 = 3u; // main.wgsl line 3\n"
        "fn total() -> u32 { return MAIN_VALUE + A_VALUE + B_VALUE; } // main.wgsl line 5\n";
    CHECK_MSG(strcmp(a.text, expected) == 0, "assembled:\n%s", a.text);
    CHECK_EQ_INT(a.length, strlen(expected));
    CHECK_EQ_INT(a.line_count, 7);

    /* Assembled line -> (file, own line): the include lines themselves are gone, and the second
     * include of a.wgsl adds nothing. */
    static const uint32_t want_file[7] = {0, 1, 2, 2, 1, 0, 0};
    static const uint32_t want_line[7] = {1, 1, 1, 2, 3, 3, 5};
    for (uint32_t line = 1; line <= 7; line++) {
        uint32_t file = 99, own = 99;
        CHECK_MSG(kiln_assembled_wgsl_locate(&a, line, &file, &own), "line %u", line);
        CHECK_EQ_INT(file, want_file[line - 1]);
        CHECK_EQ_INT(own, want_line[line - 1]);
    }
    CHECK(!kiln_assembled_wgsl_locate(&a, 0, NULL, NULL));
    CHECK(!kiln_assembled_wgsl_locate(&a, 8, NULL, NULL));
    /* b's two lines are one run: a chunk per contiguous stretch of one file. */
    CHECK_EQ_INT(a.chunk_count, 6);
    CHECK_EQ_INT(a.chunks[2].first_line, 3);
    CHECK_EQ_INT(a.chunks[2].line_count, 2);
    kiln_assembled_wgsl_free(&a);
    CHECK(a.text == NULL && a.file_count == 0);
}

TEST(one_file_under_two_names_is_spliced_once) {
    char dir[512];
    CHECK(scratch_dir(dir, sizeof dir, "two_names", NULL, NULL, 0));
    char path[1024];
    snprintf(path, sizeof path, "%s/main.wgsl", dir);
    CHECK(write_text(path, "#include \"a.wgsl\"\n#include \"./a.wgsl\"\nconst M: u32 = A;"));
    snprintf(path, sizeof path, "%s/a.wgsl", dir);
    CHECK(write_text(path, "const A: u32 = 1u;\n"));
    kiln_assembled_wgsl a;
    kiln_error err = {0};
    CHECK_MSG(kiln_wgsl_assemble(&(kiln_wgsl_source){.directory = dir}, "main.wgsl", &a, &err), "%s", err.message);
    /* The last line had no newline; the assembled text still ends every line with one. */
    CHECK_MSG(strcmp(a.text, "const A: u32 = 1u;\nconst M: u32 = A;\n") == 0, "%s", a.text);
    CHECK_EQ_INT(a.file_count, 2);
    uint32_t file = 0, own = 0;
    CHECK(kiln_assembled_wgsl_locate(&a, 2, &file, &own));
    CHECK_EQ_INT(file, 0);
    CHECK_EQ_INT(own, 3);
    kiln_assembled_wgsl_free(&a);
}

/* Writes d0.wgsl .. d<last>.wgsl, each including the next. */
static bool write_chain(const char *dir, int last) {
    for (int i = 0; i <= last; i++) {
        char path[1024], text[128];
        snprintf(path, sizeof path, "%s/d%d.wgsl", dir, i);
        if (i < last) snprintf(text, sizeof text, "#include \"d%d.wgsl\"\nconst D%d: u32 = %du;\n", i + 1, i, i);
        else snprintf(text, sizeof text, "const D%d: u32 = %du;\n", i, i);
        if (!write_text(path, text)) return false;
    }
    return true;
}

TEST(includes_nest_at_most_sixteen_deep) {
    char dir[512];
    kiln_assembled_wgsl a;
    kiln_error err = {0};
    CHECK(scratch_dir(dir, sizeof dir, "depth16", NULL, NULL, 0));
    CHECK(write_chain(dir, 16)); /* d16 sits at depth 16: allowed */
    CHECK_MSG(kiln_wgsl_assemble(&(kiln_wgsl_source){.directory = dir}, "d0.wgsl", &a, &err), "%s", err.message);
    CHECK_EQ_INT(a.file_count, 17);
    kiln_assembled_wgsl_free(&a);

    CHECK(scratch_dir(dir, sizeof dir, "depth17", NULL, NULL, 0));
    CHECK(write_chain(dir, 17)); /* d17 would sit at depth 17 */
    CHECK(!kiln_wgsl_assemble(&(kiln_wgsl_source){.directory = dir}, "d0.wgsl", &a, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_FORMAT);
    CHECK_MSG(strcmp(err.message, "d16.wgsl:1: cannot include \"d17.wgsl\": includes nest deeper than 16") == 0, "%s",
              err.message);
    CHECK(a.text == NULL && a.file_count == 0 && a.chunks == NULL);
}

TEST(a_missing_include_names_the_including_file_and_line) {
    kiln_assembled_wgsl a;
    kiln_error err = {0};
    CHECK(!kiln_wgsl_assemble(&(kiln_wgsl_source){.directory = FIXTURES "/missing"}, "lit.wgsl", &a, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_IO);
    CHECK_MSG(strcmp(err.message, "lit.wgsl:4: cannot include \"missing.wgsl\": No such file or directory") == 0, "%s",
              err.message);
}

TEST(a_missing_entry_names_its_path) {
    kiln_assembled_wgsl a;
    kiln_error err = {0};
    CHECK(!kiln_wgsl_assemble(&(kiln_wgsl_source){.directory = FIXTURES "/missing"}, "nope.wgsl", &a, &err));
    CHECK_MSG(strcmp(err.message, FIXTURES "/missing/nope.wgsl: cannot open: No such file or directory") == 0, "%s",
              err.message);
}

TEST(a_malformed_include_line_is_an_error) {
    char dir[512], path[1024];
    CHECK(scratch_dir(dir, sizeof dir, "malformed", NULL, NULL, 0));
    snprintf(path, sizeof path, "%s/main.wgsl", dir);
    CHECK(write_text(path, "const A: u32 = 1u;\n#include common.wgsl\n"));
    kiln_assembled_wgsl a;
    kiln_error err = {0};
    CHECK(!kiln_wgsl_assemble(&(kiln_wgsl_source){.directory = dir}, "main.wgsl", &a, &err));
    CHECK_MSG(strcmp(err.message, "main.wgsl:2: malformed #include (expected #include \"file.wgsl\")") == 0, "%s",
              err.message);
}

/* ---------------------------------------------------------------------------------------------
 * The library (GPU)
 * ------------------------------------------------------------------------------------------- */

typedef struct library_fixture {
    gfx_fixture f;
    kiln_shader_library *lib;
} library_fixture;

static bool library_open(library_fixture *l, const char *directory) {
    *l = (library_fixture){0};
    if (!fixture_open(&l->f)) return false;
    kiln_error err = {0};
    l->lib = kiln_shader_library_create(l->f.gfx, l->f.res, &(kiln_wgsl_source){.directory = directory}, &err);
    if (!l->lib) fprintf(stderr, "library: %s\n", err.message);
    return l->lib != NULL;
}

static uint64_t library_close(library_fixture *l) {
    kiln_shader_library_destroy(l->lib);
    return fixture_close(&l->f);
}

TEST(a_compile_error_in_an_include_names_that_file_line_and_column) {
    library_fixture l;
    CHECK_MSG(library_open(&l, FIXTURES "/broken"), "no GPU device");
    kiln_error err = {0};
    kiln_shader h = kiln_shader_library_load(l.lib, "main.wgsl", &err);
    uint64_t errors = library_close(&l);
    CHECK_EQ_INT(h.id, 0);
    CHECK_EQ_INT(err.code, KILN_ERR_SHADER);
    /* Line 3 of inc/bad.wgsl is line 7 of the assembled text; the column is unchanged. */
    static const char want[] = "inc/bad.wgsl:3:13: error: unresolved value 'undefined_thing'";
    CHECK_MSG(strcmp(err.message, want) == 0, "%s", err.message);
    CHECK_EQ_INT(errors, 0);
}

TEST(loading_an_entry_twice_returns_the_same_handle) {
    library_fixture l;
    CHECK_MSG(library_open(&l, FIXTURES "/reload"), "no GPU device");
    kiln_error err = {0};
    kiln_shader first = kiln_shader_library_load(l.lib, "compute.wgsl", &err);
    CHECK_MSG(first.id, "%s", err.message);
    kiln_shader second = kiln_shader_library_load(l.lib, "compute.wgsl", &err);
    CHECK_EQ_INT(second.id, first.id);
    CHECK_EQ_INT(kiln_resources_live_counts(l.f.res).shaders, 1);
    CHECK_EQ_INT(library_close(&l), 0);
}

static const char *VALUE_V2 =
    "// value.wgsl, second version\n"
    "const VALUE: u32 = 2u;\n"
    "const COLOR: vec4f = vec4f(0.0, 1.0, 0.0, 1.0);\n";
/* Line 2, column 20 of value.wgsl (line 4 of compute.wgsl's assembled text). */
static const char *VALUE_BROKEN =
    "// value.wgsl, broken\n"
    "const VALUE: u32 = undefined_thing;\n"
    "const COLOR: vec4f = vec4f(0.0, 0.0, 1.0, 1.0);\n";

static const char *const RELOAD_FILES[] = {"value.wgsl", "compute.wgsl", "draw.wgsl"};

TEST(changing_only_an_include_reloads_the_program_under_the_same_handle) {
    char dir[512];
    CHECK(scratch_dir(dir, sizeof dir, "reload_include", FIXTURES "/reload", RELOAD_FILES, 3));
    library_fixture l;
    CHECK_MSG(library_open(&l, dir), "no GPU device");
    kiln_error err = {0};
    kiln_shader h = kiln_shader_library_load(l.lib, "compute.wgsl", &err);
    CHECK_MSG(h.id, "%s", err.message);
    WGPUShaderModule before = kiln_resources_shader_raw(l.f.res, h, NULL);
    kiln_shader reloaded[4] = {{0}};
    CHECK_EQ_INT(kiln_shader_library_check_for_changes(l.lib, reloaded, 4), 0); /* nothing changed */

    CHECK(rewrite(dir, "value.wgsl", VALUE_V2, 1));
    CHECK_EQ_INT(kiln_shader_library_check_for_changes(l.lib, reloaded, 4), 1);
    CHECK_EQ_INT(reloaded[0].id, h.id);
    WGPUShaderModule after = kiln_resources_shader_raw(l.f.res, h, NULL);
    CHECK(after != NULL && after != before);
    CHECK(log_has(&l.f.gfx->diagnostics, KILN_LOG_INFO, "render.shaders", "reloaded compute.wgsl"));
    CHECK_EQ_INT(kiln_shader_library_check_for_changes(l.lib, reloaded, 4), 0); /* seen once */
    CHECK_EQ_INT(kiln_shader_library_reload_failures(l.lib), 0);
    CHECK_EQ_INT(library_close(&l), 0);
}

TEST(a_failing_reload_keeps_the_last_good_module_and_logs_the_mapped_error) {
    char dir[512];
    CHECK(scratch_dir(dir, sizeof dir, "reload_broken", FIXTURES "/reload", RELOAD_FILES, 3));
    library_fixture l;
    CHECK_MSG(library_open(&l, dir), "no GPU device");
    kiln_error err = {0};
    kiln_shader h = kiln_shader_library_load(l.lib, "compute.wgsl", &err);
    CHECK_MSG(h.id, "%s", err.message);
    WGPUShaderModule good = kiln_resources_shader_raw(l.f.res, h, NULL);

    CHECK(rewrite(dir, "value.wgsl", VALUE_BROKEN, 1));
    kiln_shader reloaded[4] = {{0}};
    CHECK_EQ_INT(kiln_shader_library_check_for_changes(l.lib, reloaded, 4), 0);
    CHECK_EQ_INT(reloaded[0].id, 0);
    CHECK_EQ_INT(kiln_shader_library_reload_failures(l.lib), 1);
    CHECK(kiln_resources_shader_raw(l.f.res, h, NULL) == good);
    CHECK(log_has(&l.f.gfx->diagnostics, KILN_LOG_ERROR, "render.shaders",
                  "reload of compute.wgsl failed, keeping the last good module: "
                  "value.wgsl:2:20: error: unresolved value 'undefined_thing'"));
    /* Reported once per change, not at every check. */
    CHECK_EQ_INT(kiln_shader_library_check_for_changes(l.lib, reloaded, 4), 0);
    CHECK_EQ_INT(kiln_shader_library_reload_failures(l.lib), 1);
    CHECK_EQ_INT(library_close(&l), 0);
}

TEST(an_include_added_by_a_failed_reload_is_watched_for_the_fix) {
    char dir[512];
    CHECK(scratch_dir(dir, sizeof dir, "reload_new_include", FIXTURES "/reload", RELOAD_FILES, 3));
    library_fixture l;
    CHECK_MSG(library_open(&l, dir), "no GPU device");
    kiln_error err = {0};
    kiln_shader h = kiln_shader_library_load(l.lib, "draw.wgsl", &err);
    CHECK_MSG(h.id, "%s", err.message);
    char path[1024];
    snprintf(path, sizeof path, "%s/extra.wgsl", dir);
    CHECK(write_text(path, "const EXTRA: f32 = undefined_thing;\n"));
    CHECK(rewrite(dir, "draw.wgsl",
                  "#include \"value.wgsl\"\n#include \"extra.wgsl\"\n"
                  "@vertex fn vs_main() -> @builtin(position) vec4f { return vec4f(EXTRA); }\n", 1));
    CHECK_EQ_INT(kiln_shader_library_check_for_changes(l.lib, NULL, 0), 0);
    CHECK(log_has(&l.f.gfx->diagnostics, KILN_LOG_ERROR, "render.shaders", "extra.wgsl:1:20: error: "));

    CHECK(rewrite(dir, "extra.wgsl", "const EXTRA: f32 = 0.5;\n", 1)); /* only the new include changes */
    kiln_shader reloaded[4] = {{0}};
    CHECK_EQ_INT(kiln_shader_library_check_for_changes(l.lib, reloaded, 4), 1);
    CHECK_EQ_INT(reloaded[0].id, h.id);
    CHECK_EQ_INT(kiln_shader_library_reload_failures(l.lib), 1);
    CHECK_EQ_INT(library_close(&l), 0);
}

/* A storage buffer the compute program writes into, its bind group, and the layout to build with. */
typedef struct compute_rig {
    kiln_buffer storage, readback;
    kiln_pipeline_layout layout;
    kiln_bind_group group;
} compute_rig;

static bool compute_rig_init(compute_rig *c, kiln_resources *res, kiln_error *err) {
    c->storage = kiln_resources_create_buffer(res, &(kiln_buffer_desc){.label = "value", .size = 16,
        .usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc}, err);
    c->readback = kiln_resources_create_buffer(res, &(kiln_buffer_desc){.label = "value readback", .size = 16,
        .usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst}, err);
    kiln_layout_entry entry = {.binding = 0, .visibility = WGPUShaderStage_Compute, .kind = KILN_BINDING_STORAGE_BUFFER};
    kiln_bind_group_layout bgl = kiln_resources_create_bind_group_layout(res, "value", &entry, 1, err);
    c->layout = kiln_resources_create_pipeline_layout(res, "value", &bgl, 1, err);
    c->group = kiln_resources_create_bind_group(res, "value", bgl, &(kiln_binding_resource){.binding = 0, .buffer = c->storage}, 1, err);
    return c->group.id != 0 && c->layout.id != 0;
}

/* Dispatches the pipeline once and returns the word it wrote (0 on failure). */
static uint32_t run_compute(kiln_resources *res, const compute_rig *c, kiln_compute_pipeline p) {
    kiln_error err = {0};
    kiln_encoder enc;
    kiln_compute_pass pass;
    uint32_t value = 0;
    if (!kiln_encoder_begin(&enc, res, "compute", &err)) return 0;
    bool ok = kiln_encoder_begin_compute_pass(&enc, "write value", &pass, &err) &&
              kiln_compute_pass_set_pipeline(&pass, p, &err) &&
              kiln_compute_pass_set_bind_group(&pass, 0, c->group, NULL, 0, &err);
    if (ok) kiln_compute_pass_dispatch(&pass, 1, 1, 1);
    kiln_compute_pass_end(&pass);
    ok = ok && kiln_encoder_copy_buffer_to_buffer(&enc, c->storage, 0, c->readback, 0, 16, &err);
    if (!ok) {
        kiln_encoder_discard(&enc);
        return 0;
    }
    if (kiln_encoder_finish_and_submit(&enc, &err)) kiln_resources_read_buffer(res, c->readback, 0, &value, sizeof value, &err);
    return value;
}

/* Draws the pipeline over a 4x4 target and returns the centre pixel as 0xRRGGBBAA (0 on failure). */
static uint32_t run_draw(kiln_resources *res, kiln_texture target, kiln_texture_view view, kiln_render_pipeline p) {
    kiln_error err = {0};
    kiln_encoder enc;
    kiln_render_pass pass;
    if (!kiln_encoder_begin(&enc, res, "draw", &err)) return 0;
    kiln_color_attachment color = kiln_color_cleared(kiln_resources_texture_view_raw(res, view, NULL), 0, 0, 0, 0);
    if (!kiln_encoder_begin_render_pass(&enc, "fill", &color, 1, NULL, &pass, &err)) {
        kiln_encoder_discard(&enc);
        return 0;
    }
    bool ok = kiln_render_pass_set_pipeline(&pass, p, &err);
    if (ok) kiln_render_pass_draw(&pass, 3, 1, 0, 0);
    kiln_render_pass_end(&pass);
    if (!ok || !kiln_encoder_finish_and_submit(&enc, &err)) return 0;
    kiln_image img;
    if (!kiln_resources_read_texture(res, kiln_resources_texture_raw(res, target, NULL), &img, &err)) return 0;
    const uint8_t *px = (const uint8_t *)img.pixels + (2 * 4 + 2) * 4;
    uint32_t rgba = (uint32_t)px[0] << 24 | (uint32_t)px[1] << 16 | (uint32_t)px[2] << 8 | px[3];
    kiln_image_free(&img);
    return rgba;
}

TEST(watched_pipelines_are_rebuilt_from_the_reloaded_code) {
    char dir[512];
    CHECK(scratch_dir(dir, sizeof dir, "reload_pipelines", FIXTURES "/reload", RELOAD_FILES, 3));
    library_fixture l;
    CHECK_MSG(library_open(&l, dir), "no GPU device");
    kiln_resources *res = l.f.res;
    kiln_error err = {0};
    kiln_shader cs = kiln_shader_library_load(l.lib, "compute.wgsl", &err);
    CHECK_MSG(cs.id, "%s", err.message);
    kiln_shader draw = kiln_shader_library_load(l.lib, "draw.wgsl", &err);
    CHECK_MSG(draw.id, "%s", err.message);

    compute_rig rig = {0};
    CHECK_MSG(compute_rig_init(&rig, res, &err), "%s", err.message);
    /* Descriptors on the stack with a label in a buffer that is overwritten before the reload:
     * the library must have kept its own copies. */
    char label[32] = "writer";
    kiln_compute_pipeline_desc cd = {.label = label, .layout = rig.layout, .shader = cs, .entry = "cs_main"};
    kiln_compute_pipeline writer = kiln_resources_create_compute_pipeline(res, &cd, &err);
    CHECK_MSG(writer.id, "%s", err.message);
    CHECK_MSG(kiln_shader_library_watch_compute_pipeline(l.lib, cs, writer, &cd, &err), "%s", err.message);

    kiln_render_pipeline_desc rd = {.label = "fill", .shader = draw, .target_count = 1,
                                    .targets = {{.format = WGPUTextureFormat_RGBA8Unorm}}};
    kiln_render_pipeline fill = kiln_resources_create_render_pipeline(res, &rd, &err);
    CHECK_MSG(fill.id, "%s", err.message);
    CHECK_MSG(kiln_shader_library_watch_render_pipeline(l.lib, draw, fill, &rd, &err), "%s", err.message);
    kiln_texture target = kiln_resources_create_texture(res, &(kiln_texture_desc){.label = "target", .width = 4, .height = 4,
        .format = WGPUTextureFormat_RGBA8Unorm, .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, &err);
    kiln_texture_view view = kiln_resources_create_texture_view(res, target, NULL, &err);
    CHECK_MSG(view.id, "%s", err.message);

    CHECK_EQ_INT(run_compute(res, &rig, writer), 1);
    CHECK_EQ_INT(run_draw(res, target, view, fill), 0xFF0000FF); /* red */
    WGPUComputePipeline old_writer = kiln_resources_compute_pipeline_raw(res, writer, NULL);
    WGPURenderPipeline old_fill = kiln_resources_render_pipeline_raw(res, fill, NULL);
    memset(label, 'x', sizeof label - 1);

    CHECK(rewrite(dir, "value.wgsl", VALUE_V2, 1));
    kiln_shader reloaded[4] = {{0}};
    CHECK_EQ_INT(kiln_shader_library_check_for_changes(l.lib, reloaded, 4), 2); /* both programs include it */
    CHECK(kiln_resources_compute_pipeline_raw(res, writer, NULL) != old_writer);
    CHECK(kiln_resources_render_pipeline_raw(res, fill, NULL) != old_fill);
    CHECK_EQ_INT(run_compute(res, &rig, writer), 2);
    CHECK_EQ_INT(run_draw(res, target, view, fill), 0x00FF00FF); /* green */
    CHECK(!log_has(&l.f.gfx->diagnostics, KILN_LOG_ERROR, "render.shaders", ""));
    CHECK_EQ_INT(library_close(&l), 0);
}

TEST(a_watched_pipeline_that_no_longer_builds_keeps_the_old_one) {
    char dir[512];
    CHECK(scratch_dir(dir, sizeof dir, "reload_pipeline_fails", FIXTURES "/reload", RELOAD_FILES, 3));
    library_fixture l;
    CHECK_MSG(library_open(&l, dir), "no GPU device");
    kiln_resources *res = l.f.res;
    kiln_error err = {0};
    kiln_shader draw = kiln_shader_library_load(l.lib, "draw.wgsl", &err);
    CHECK_MSG(draw.id, "%s", err.message);
    kiln_render_pipeline_desc rd = {.label = "fill", .shader = draw, .target_count = 1,
                                    .targets = {{.format = WGPUTextureFormat_RGBA8Unorm}}};
    kiln_render_pipeline fill = kiln_resources_create_render_pipeline(res, &rd, &err);
    CHECK_MSG(fill.id, "%s", err.message);
    CHECK(kiln_shader_library_watch_render_pipeline(l.lib, draw, fill, &rd, &err));
    WGPURenderPipeline old_fill = kiln_resources_render_pipeline_raw(res, fill, NULL);

    /* Still valid WGSL, but fs_main is gone: the module reloads, the pipeline cannot be rebuilt. */
    CHECK(rewrite(dir, "draw.wgsl",
                  "#include \"value.wgsl\"\n"
                  "@vertex fn vs_main() -> @builtin(position) vec4f { return vec4f(0.0); }\n", 1));
    kiln_shader reloaded[4] = {{0}};
    CHECK_EQ_INT(kiln_shader_library_check_for_changes(l.lib, reloaded, 4), 1);
    CHECK(kiln_resources_render_pipeline_raw(res, fill, NULL) == old_fill);
    CHECK(log_has(&l.f.gfx->diagnostics, KILN_LOG_ERROR, "render.shaders",
                  "render pipeline 'fill' not rebuilt after reloading draw.wgsl, keeping the old one: "
                  "pipeline 'fill' is invalid: "));
    CHECK_EQ_INT(library_close(&l), 0);
}

TEST(an_unwatched_pipeline_is_left_alone_on_reload) {
    char dir[512];
    CHECK(scratch_dir(dir, sizeof dir, "reload_unwatched", FIXTURES "/reload", RELOAD_FILES, 3));
    library_fixture l;
    CHECK_MSG(library_open(&l, dir), "no GPU device");
    kiln_resources *res = l.f.res;
    kiln_error err = {0};
    kiln_shader draw = kiln_shader_library_load(l.lib, "draw.wgsl", &err);
    CHECK_MSG(draw.id, "%s", err.message);
    kiln_render_pipeline_desc rd = {.label = "fill", .shader = draw, .target_count = 1,
                                    .targets = {{.format = WGPUTextureFormat_RGBA8Unorm}}};
    kiln_render_pipeline fill = kiln_resources_create_render_pipeline(res, &rd, &err);
    CHECK(kiln_shader_library_watch_render_pipeline(l.lib, draw, fill, &rd, &err));
    CHECK(kiln_shader_library_unwatch_render_pipeline(l.lib, fill, &err));
    CHECK(!kiln_shader_library_unwatch_render_pipeline(l.lib, fill, &err));
    char want[64];
    snprintf(want, sizeof want, "render pipeline %u is not watched", fill.id);
    CHECK_MSG(strcmp(err.message, want) == 0, "%s", err.message);
    WGPURenderPipeline old_fill = kiln_resources_render_pipeline_raw(res, fill, NULL);
    CHECK(rewrite(dir, "value.wgsl", VALUE_V2, 1));
    CHECK_EQ_INT(kiln_shader_library_check_for_changes(l.lib, NULL, 0), 1);
    CHECK(kiln_resources_render_pipeline_raw(res, fill, NULL) == old_fill);
    CHECK_EQ_INT(library_close(&l), 0);
}

TEST(watching_needs_a_program_of_this_library) {
    library_fixture l;
    CHECK_MSG(library_open(&l, FIXTURES "/reload"), "no GPU device");
    kiln_error err = {0};
    kiln_shader cs = kiln_shader_library_load(l.lib, "compute.wgsl", &err);
    CHECK_MSG(cs.id, "%s", err.message);
    kiln_shader draw = kiln_shader_library_load(l.lib, "draw.wgsl", &err);
    kiln_render_pipeline_desc rd = {.label = "fill", .shader = draw, .target_count = 1,
                                    .targets = {{.format = WGPUTextureFormat_RGBA8Unorm}}};
    kiln_render_pipeline fill = kiln_resources_create_render_pipeline(l.f.res, &rd, &err);
    CHECK_MSG(fill.id, "%s", err.message);
    bool stranger = kiln_shader_library_watch_render_pipeline(l.lib, (kiln_shader){12345}, fill, &rd, &err);
    char stranger_message[512];
    snprintf(stranger_message, sizeof stranger_message, "%s", err.message);
    bool mismatch = kiln_shader_library_watch_render_pipeline(l.lib, cs, fill, &rd, &err);
    CHECK_EQ_INT(library_close(&l), 0);
    CHECK(!stranger);
    CHECK_MSG(strcmp(stranger_message, "shader 12345 is not a program loaded by this library") == 0, "%s",
              stranger_message);
    CHECK(!mismatch);
    CHECK_STR_CONTAINS(err.message, "render pipeline descriptor names shader");
}

TEST(a_built_pipeline_follows_reloads_until_it_is_destroyed) {
    char dir[512];
    CHECK(scratch_dir(dir, sizeof dir, "reload_built", FIXTURES "/reload", RELOAD_FILES, 3));
    library_fixture l;
    CHECK_MSG(library_open(&l, dir), "no GPU device");
    kiln_resources *res = l.f.res;
    kiln_error err = {0};
    kiln_shader draw = kiln_shader_library_load(l.lib, "draw.wgsl", &err);
    CHECK_MSG(draw.id, "%s", err.message);
    kiln_render_pipeline_desc rd = {.label = "fill", .shader = draw, .target_count = 1,
                                    .targets = {{.format = WGPUTextureFormat_RGBA8Unorm}}};
    kiln_render_pipeline fill = kiln_shader_library_create_watched_render_pipeline(l.lib, &rd, &err);
    CHECK_MSG(fill.id, "%s", err.message);
    WGPURenderPipeline old_fill = kiln_resources_render_pipeline_raw(res, fill, NULL);
    CHECK(rewrite(dir, "value.wgsl", VALUE_V2, 1));
    CHECK_EQ_INT(kiln_shader_library_check_for_changes(l.lib, NULL, 0), 1);
    CHECK(kiln_resources_render_pipeline_raw(res, fill, NULL) != old_fill); /* rebuilt: it was watched */
    kiln_shader_library_destroy_watched_render_pipeline(l.lib, fill);
    CHECK(!kiln_resources_render_pipeline_raw(res, fill, NULL));
    CHECK(!kiln_shader_library_unwatch_render_pipeline(l.lib, fill, &err)); /* and no longer watched */
    /* A descriptor Dawn refuses builds nothing and leaves nothing watched or alive. */
    rd.fragment_entry = "fs_missing";
    kiln_render_pipeline bad = kiln_shader_library_create_watched_render_pipeline(l.lib, &rd, &err);
    CHECK_EQ_INT(bad.id, 0);
    CHECK_STR_CONTAINS(err.message, "pipeline 'fill' is invalid");
    CHECK_EQ_INT(library_close(&l), 0);
}

TEST_MAIN(T(assembly_splices_each_include_once_and_maps_every_line_back), T(one_file_under_two_names_is_spliced_once),
          T(includes_nest_at_most_sixteen_deep), T(a_missing_include_names_the_including_file_and_line),
          T(a_missing_entry_names_its_path), T(a_malformed_include_line_is_an_error),
          T(a_compile_error_in_an_include_names_that_file_line_and_column),
          T(loading_an_entry_twice_returns_the_same_handle),
          T(changing_only_an_include_reloads_the_program_under_the_same_handle),
          T(a_failing_reload_keeps_the_last_good_module_and_logs_the_mapped_error),
          T(an_include_added_by_a_failed_reload_is_watched_for_the_fix),
          T(watched_pipelines_are_rebuilt_from_the_reloaded_code),
          T(a_watched_pipeline_that_no_longer_builds_keeps_the_old_one),
          T(an_unwatched_pipeline_is_left_alone_on_reload), T(watching_needs_a_program_of_this_library),
          T(a_built_pipeline_follows_reloads_until_it_is_destroyed))
