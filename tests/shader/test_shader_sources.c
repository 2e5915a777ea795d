/* Sources of the shader library: an embedded set assembles, maps errors and reports missing
 * includes exactly as a directory does, never reads the disk and never reloads; kiln's built-ins
 * resolve after the source, and a file of a built-in's name in the source overrides it. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kiln/shader/library.h>

#include "scratch_files.h"

/* The same program as files on disk and as an embedded set. The error is on line 3, column 13 of
 * inc/bad.wgsl, which is line 6 of the assembled text. */
static const char MAIN[] =
    "// main.wgsl\n"
    "#include \"inc/common.wgsl\"\n"
    "#include \"inc/bad.wgsl\"\n"
    "@compute @workgroup_size(1) fn cs_main() { let y = helper(); }\n";
static const char COMMON[] =
    "// common.wgsl\n"
    "const ONE: u32 = 1u;\n";
static const char BAD[] =
    "// bad.wgsl\n"
    "fn helper() -> u32 {\n"
    "    let x = undefined_thing + ONE;\n"
    "    return x;\n"
    "}\n";
static const char MISSING_INCLUDE[] = "// lit.wgsl\n#include \"nope.wgsl\"\n";
static const char USES_FULLSCREEN[] =
    "#include \"fullscreen.wgsl\"\n"
    "@fragment fn fs_main(in: FullscreenOut) -> @location(0) vec4<f32> { return vec4<f32>(in.uv, 0.0, 1.0); }\n";

static const kiln_wgsl_embedded_file PROGRAM_FILES[] = {
    {"main.wgsl", MAIN}, {"inc/common.wgsl", COMMON}, {"inc/bad.wgsl", BAD}, {"lit.wgsl", MISSING_INCLUDE},
    {"uses_fullscreen.wgsl", USES_FULLSCREEN},
};
static const kiln_wgsl_source EMBEDDED = {.files = PROGRAM_FILES, .file_count = 5};

static const char WANT_COMPILE_ERROR[] = "inc/bad.wgsl:3:13: error: unresolved value 'undefined_thing'";
static const char WANT_MISSING_INCLUDE[] = "lit.wgsl:2: cannot include \"nope.wgsl\": No such file or directory";

/* The embedded program written out as a directory. */
static bool program_dir(char *dir, size_t size, const char *name) {
    if (!scratch_dir(dir, size, "shader_sources", name)) return false;
    char inc[1100];
    snprintf(inc, sizeof inc, "%s/inc", dir);
    if (mkdir(inc, 0755) != 0 && errno != EEXIST) return false;
    for (uint32_t i = 0; i < EMBEDDED.file_count; i++)
        if (!scratch_write(dir, PROGRAM_FILES[i].name, PROGRAM_FILES[i].text)) return false;
    return true;
}

/* Loads `entry` from a fresh library over `source`: the handle, and err for why not. */
static kiln_shader load_once(const kiln_wgsl_source *source, const char *entry, kiln_error *err, uint64_t *uncaptured) {
    gfx_fixture f;
    *uncaptured = 1;
    if (!fixture_open(&f)) return (kiln_shader){0};
    kiln_shader_library *lib = kiln_shader_library_create(f.gfx, f.res, source, err);
    kiln_shader h = lib ? kiln_shader_library_load(lib, entry, err) : (kiln_shader){0};
    kiln_shader_library_destroy(lib);
    *uncaptured = fixture_close(&f);
    return h;
}

TEST(an_embedded_set_maps_each_line_to_its_file) {
    kiln_assembled_wgsl a;
    kiln_error err = {0};
    CHECK_MSG(kiln_wgsl_assemble(&EMBEDDED, "main.wgsl", &a, &err), "%s", err.message);
    CHECK_EQ_INT(a.file_count, 3);
    CHECK(strcmp(a.files[1].name, "inc/common.wgsl") == 0 && strcmp(a.files[2].name, "inc/bad.wgsl") == 0);
    CHECK(a.files[0].path == NULL && a.files[1].path == NULL && a.files[2].path == NULL); /* nothing to stat */
    uint32_t file = 0, line = 0;
    CHECK(kiln_assembled_wgsl_locate(&a, 6, &file, &line));
    CHECK_EQ_INT(file, 2);
    CHECK_EQ_INT(line, 3);
    CHECK(kiln_assembled_wgsl_locate(&a, 9, &file, &line));
    CHECK_EQ_INT(file, 0);
    CHECK_EQ_INT(line, 4);
    kiln_assembled_wgsl_free(&a);
}

TEST(an_embedded_compile_error_names_the_included_file_line_and_column) {
    kiln_error err = {0};
    uint64_t uncaptured;
    kiln_shader h = load_once(&EMBEDDED, "main.wgsl", &err, &uncaptured);
    CHECK_EQ_INT(h.id, 0);
    CHECK_EQ_INT(err.code, KILN_ERR_SHADER);
    CHECK_MSG(strcmp(err.message, WANT_COMPILE_ERROR) == 0, "%s", err.message);
    CHECK_EQ_INT(uncaptured, 0);
}

TEST(a_one_shot_compile_reports_the_same_error_as_a_library_load) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0}, missing = {0};
    WGPUShaderModule m = kiln_wgsl_compile(f.gfx, &EMBEDDED, "main.wgsl", &err);
    WGPUShaderModule absent = kiln_wgsl_compile(f.gfx, &EMBEDDED, "lit.wgsl", &missing);
    WGPUShaderModule fullscreen = kiln_wgsl_compile(f.gfx, &EMBEDDED, "uses_fullscreen.wgsl", &err);
    if (fullscreen) wgpuShaderModuleRelease(fullscreen);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(m == NULL && absent == NULL);
    CHECK(fullscreen != NULL); /* a built-in included */
    CHECK_EQ_INT(err.code, KILN_ERR_SHADER);
    CHECK_MSG(strcmp(err.message, WANT_COMPILE_ERROR) == 0, "%s", err.message);
    CHECK_MSG(strcmp(missing.message, WANT_MISSING_INCLUDE) == 0, "%s", missing.message);
}

TEST(a_directory_reports_the_same_compile_error) {
    char dir[1024];
    CHECK(program_dir(dir, sizeof dir, "same_error"));
    kiln_error err = {0};
    uint64_t uncaptured;
    kiln_shader h = load_once(&(kiln_wgsl_source){.directory = dir}, "main.wgsl", &err, &uncaptured);
    CHECK_EQ_INT(h.id, 0);
    CHECK_MSG(strcmp(err.message, WANT_COMPILE_ERROR) == 0, "%s", err.message);
    CHECK_EQ_INT(uncaptured, 0);
}

TEST(a_missing_include_reads_the_same_for_a_set_and_a_directory) {
    char dir[1024];
    CHECK(program_dir(dir, sizeof dir, "missing_include"));
    kiln_assembled_wgsl a;
    kiln_error from_set = {0}, from_dir = {0};
    CHECK(!kiln_wgsl_assemble(&EMBEDDED, "lit.wgsl", &a, &from_set));
    CHECK(!kiln_wgsl_assemble(&(kiln_wgsl_source){.directory = dir}, "lit.wgsl", &a, &from_dir));
    CHECK_EQ_INT(from_set.code, KILN_ERR_IO);
    CHECK_MSG(strcmp(from_set.message, WANT_MISSING_INCLUDE) == 0, "%s", from_set.message);
    CHECK_MSG(strcmp(from_dir.message, WANT_MISSING_INCLUDE) == 0, "%s", from_dir.message);
}

TEST(a_missing_embedded_entry_is_named) {
    kiln_assembled_wgsl a;
    kiln_error err = {0};
    CHECK(!kiln_wgsl_assemble(&EMBEDDED, "absent.wgsl", &a, &err));
    CHECK_MSG(strcmp(err.message, "absent.wgsl: cannot open: No such file or directory") == 0, "%s", err.message);
}

/* The current directory holds a broken file of the entry's name and is then removed: an embedded
 * load that read the disk would either find the broken text or fail to open. */
TEST(an_embedded_set_never_touches_the_disk_or_reloads) {
    char cwd[1024], decoy[1024];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    CHECK(scratch_dir(decoy, sizeof decoy, "shader_sources", "decoy_cwd"));
    CHECK(scratch_write(decoy, "uses_fullscreen.wgsl", "this is not WGSL\n"));
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_shader_library *lib = kiln_shader_library_create(f.gfx, f.res, &EMBEDDED, &err);
    CHECK_MSG(lib, "%s", err.message);
    CHECK(chdir(decoy) == 0);
    kiln_shader h = kiln_shader_library_load(lib, "uses_fullscreen.wgsl", &err);
    CHECK(scratch_rewrite(".", "uses_fullscreen.wgsl", "still not WGSL\n", 1));
    uint32_t reloaded = kiln_shader_library_check_for_changes(lib, NULL, 0);
    CHECK(unlink("uses_fullscreen.wgsl") == 0 && rmdir(decoy) == 0);
    kiln_shader again = kiln_shader_library_load(lib, "main.wgsl", &err); /* from a deleted cwd */
    bool back = chdir(cwd) == 0;
    uint32_t failures = kiln_shader_library_reload_failures(lib);
    kiln_shader_library_destroy(lib);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(back);
    CHECK_MSG(h.id, "the embedded program did not load");
    CHECK_EQ_INT(reloaded, 0);
    CHECK_EQ_INT(failures, 0);
    CHECK_EQ_INT(again.id, 0);
    CHECK_MSG(strcmp(err.message, WANT_COMPILE_ERROR) == 0, "%s", err.message);
}

TEST(a_builtin_resolves_when_the_directory_lacks_it) {
    char dir[1024];
    CHECK(scratch_dir(dir, sizeof dir, "shader_sources", "builtin_fallback"));
    CHECK(scratch_write(dir, "uses_fullscreen.wgsl", USES_FULLSCREEN));
    kiln_assembled_wgsl a;
    kiln_error err = {0};
    CHECK_MSG(kiln_wgsl_assemble(&(kiln_wgsl_source){.directory = dir}, "uses_fullscreen.wgsl", &a, &err), "%s",
              err.message);
    CHECK_EQ_INT(a.file_count, 2);
    CHECK(strcmp(a.files[1].name, "fullscreen.wgsl") == 0);
    CHECK(a.files[0].path != NULL && a.files[1].path == NULL); /* the built-in is not watched */
    CHECK_STR_CONTAINS(a.text, "fn vs_fullscreen(");
    kiln_assembled_wgsl_free(&a);
}

TEST(a_directory_file_overrides_the_builtin_of_its_name) {
    char dir[1024];
    CHECK(scratch_dir(dir, sizeof dir, "shader_sources", "builtin_override"));
    CHECK(scratch_write(dir, "uses_fullscreen.wgsl", USES_FULLSCREEN));
    CHECK(scratch_write(dir, "fullscreen.wgsl", "// the directory's own fullscreen.wgsl\n"));
    kiln_assembled_wgsl a;
    kiln_error err = {0};
    CHECK_MSG(kiln_wgsl_assemble(&(kiln_wgsl_source){.directory = dir}, "uses_fullscreen.wgsl", &a, &err), "%s",
              err.message);
    CHECK_EQ_INT(a.file_count, 2);
    CHECK(a.files[1].path != NULL);
    CHECK_STR_CONTAINS(a.text, "// the directory's own fullscreen.wgsl\n");
    CHECK(strstr(a.text, "vs_fullscreen") == NULL);
    kiln_assembled_wgsl_free(&a);
}

/* A generated file (a text its user built from C tables) resolves beside a directory, which lacks
 * it, and before a directory file of its name, which is stale: what C says wins; never watched. */
TEST(a_generated_file_resolves_first_beside_a_directory_and_is_not_watched) {
    char dir[1024];
    CHECK(scratch_dir(dir, sizeof dir, "shader_sources", "generated"));
    CHECK(scratch_write(dir, "uses.wgsl", "#include \"enums.wgsl\"\nconst B: u32 = A;\n"));
    CHECK(scratch_write(dir, "enums.wgsl", "const A: u32 = 1u; // a stale copy\n"));
    const kiln_wgsl_embedded_file generated = {"enums.wgsl", "const A: u32 = 2u;\n"};
    kiln_wgsl_source source = {.directory = dir, .generated = &generated, .generated_count = 1};
    kiln_assembled_wgsl a;
    kiln_error err = {0};
    CHECK_MSG(kiln_wgsl_assemble(&source, "uses.wgsl", &a, &err), "%s", err.message);
    CHECK_EQ_INT(a.file_count, 2);
    CHECK(a.files[0].path != NULL && a.files[1].path == NULL);
    CHECK_STR_CONTAINS(a.text, "const A: u32 = 2u;\n");
    CHECK(strstr(a.text, "stale") == NULL);
    kiln_assembled_wgsl_free(&a);
}

TEST(a_generated_file_without_text_is_refused_naming_it) {
    const kiln_wgsl_embedded_file generated[2] = {{"enums.wgsl", "const A: u32 = 2u;\n"}, {"more.wgsl", NULL}};
    kiln_wgsl_source source = EMBEDDED;
    source.generated = generated;
    source.generated_count = 2;
    kiln_assembled_wgsl a;
    kiln_error err = {0};
    CHECK(!kiln_wgsl_assemble(&source, "main.wgsl", &a, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_INVALID_ARGUMENT);
    CHECK_MSG(strcmp(err.message, "generated WGSL file 1 has no text") == 0, "%s", err.message);
}

TEST(a_library_without_a_source_loads_a_builtin_entry) {
    kiln_error err = {0};
    uint64_t uncaptured;
    kiln_shader h = load_once(NULL, "fullscreen.wgsl", &err, &uncaptured);
    CHECK_MSG(h.id, "%s", err.message);
    CHECK_EQ_INT(uncaptured, 0);
}

/* A directory's file that is a FIFO is refused at once (opened without blocking), and one over
 * KILN_WGSL_MAX_FILE_BYTES before it is read, each naming the file and why. */
TEST(a_fifo_or_an_oversized_file_in_a_shader_directory_is_refused_naming_it) {
    char dir[1024], fifo[1100], big[1100];
    CHECK(scratch_dir(dir, sizeof dir, "shader_sources", "not_regular"));
    CHECK(scratch_write(dir, "main.wgsl", "#include \"pipe.wgsl\"\n"));
    snprintf(fifo, sizeof fifo, "%s/pipe.wgsl", dir);
    snprintf(big, sizeof big, "%s/big.wgsl", dir);
    unlink(fifo);
    CHECK(mkfifo(fifo, 0600) == 0);
    FILE *f = fopen(big, "wb");
    CHECK(f);
    CHECK(fseek(f, (long)KILN_WGSL_MAX_FILE_BYTES, SEEK_SET) == 0 && fputc('\n', f) == '\n');
    fclose(f);
    kiln_assembled_wgsl a;
    kiln_error err = {0};
    bool included = kiln_wgsl_assemble(&(kiln_wgsl_source){.directory = dir}, "main.wgsl", &a, &err);
    char included_message[1024];
    snprintf(included_message, sizeof included_message, "%s", err.message);
    err = (kiln_error){0};
    bool opened = kiln_wgsl_assemble(&(kiln_wgsl_source){.directory = dir}, "big.wgsl", &a, &err);
    char want[1300];
    snprintf(want, sizeof want, "%s: cannot open: is over the 4194304-byte limit for a WGSL file (KILN_WGSL_MAX_FILE_BYTES)", big);
    unlink(fifo);
    unlink(big);
    CHECK(!included && !opened);
    CHECK_MSG(!strcmp(included_message,
                      "main.wgsl:1: cannot include \"pipe.wgsl\": is not a regular file (a FIFO, device or socket)"),
              "'%s'", included_message);
    CHECK_MSG(!strcmp(err.message, want), "'%s'", err.message);
}

TEST(a_source_with_a_directory_and_a_set_is_refused) {
    kiln_wgsl_source both = EMBEDDED;
    both.directory = "/tmp";
    kiln_assembled_wgsl a;
    kiln_error err = {0};
    CHECK(!kiln_wgsl_assemble(&both, "main.wgsl", &a, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_INVALID_ARGUMENT);
    CHECK_MSG(strcmp(err.message, "a WGSL source is a directory or an embedded set, not both (directory /tmp, 5 files)") == 0,
              "%s", err.message);
}

TEST_MAIN(T(an_embedded_set_maps_each_line_to_its_file),
          T(an_embedded_compile_error_names_the_included_file_line_and_column),
          T(a_one_shot_compile_reports_the_same_error_as_a_library_load),
          T(a_directory_reports_the_same_compile_error), T(a_missing_include_reads_the_same_for_a_set_and_a_directory),
          T(a_missing_embedded_entry_is_named), T(an_embedded_set_never_touches_the_disk_or_reloads),
          T(a_builtin_resolves_when_the_directory_lacks_it), T(a_directory_file_overrides_the_builtin_of_its_name),
          T(a_generated_file_resolves_first_beside_a_directory_and_is_not_watched),
          T(a_generated_file_without_text_is_refused_naming_it), T(a_library_without_a_source_loads_a_builtin_entry),
          T(a_fifo_or_an_oversized_file_in_a_shader_directory_is_refused_naming_it),
          T(a_source_with_a_directory_and_a_set_is_refused))
