/* kiln-run, spawned as a user runs it (the kiln-run binary beside this test's): a fixture script
 * with "as" / "$name", wgsl_path and save_texture (PNG, and PFM plus preview for an R32Float
 * plane) exits 0 with one reply per message; a malformed script and an unreadable wgsl_path exit
 * non-zero with the reason on stderr. Fixtures are in tests/program/scripts/. */
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kiln/core.h>
#include <kiln/shader/library.h>

#include "gfx_fixture.h"

#define SCRIPTS KILN_PROGRAM_TEST_DIR "/scripts"

typedef struct run_result {
    int status;       /* the exit status; -1 when it did not exit */
    char out[8192];   /* stdout */
    char err[4096];   /* stderr */
} run_result;

static bool read_text(const char *path, char *out, size_t size) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    size_t n = fread(out, 1, size - 1, f);
    out[n] = '\0';
    fclose(f);
    return true;
}

/* Runs kiln-run on a fixture script with --out under the test scratch directory. */
/* script: a name under SCRIPTS, or an absolute path. */
/* Runs kiln-run on script (under SCRIPTS unless absolute) with --out out_dir and `flags`. */
static bool run_kiln_run_with(const char *script, const char *out_dir, const char *flags, run_result *r) {
    char self[PATH_MAX], stdout_path[PATH_MAX], stderr_path[PATH_MAX], command[4 * PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return false;
    self[n] = '\0';
    *strrchr(self, '/') = '\0';
    fixture_tmp_path(stdout_path, sizeof stdout_path, "kiln_run.stdout");
    fixture_tmp_path(stderr_path, sizeof stderr_path, "kiln_run.stderr");
    char script_path[PATH_MAX];
    if (script[0] == '/') snprintf(script_path, sizeof script_path, "%s", script);
    else snprintf(script_path, sizeof script_path, "%s/%s", SCRIPTS, script);
    snprintf(command, sizeof command, "'%s/kiln-run' '%s' --out '%s' %s >'%s' 2>'%s'", self, script_path, out_dir,
             flags, stdout_path, stderr_path);
    int status = system(command);
    r->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return read_text(stdout_path, r->out, sizeof r->out) && read_text(stderr_path, r->err, sizeof r->err);
}

static bool run_kiln_run(const char *script, const char *out_dir, run_result *r) {
    return run_kiln_run_with(script, out_dir, "", r);
}

/* The n-th line of text (0-based) into line. */
static bool nth_line(const char *text, int n, char *line, size_t size) {
    for (; n > 0 && text; n--) {
        text = strchr(text, '\n');
        if (text) text++;
    }
    if (!text || !*text) return false;
    size_t length = strcspn(text, "\n");
    snprintf(line, size, "%.*s", (int)length, text);
    return true;
}

static int line_count(const char *text) {
    int lines = 0;
    for (; *text; text++) lines += *text == '\n';
    return lines;
}

TEST(script_with_names_and_saves_exits_zero_with_one_reply_per_message) {
    char out_dir[PATH_MAX];
    fixture_tmp_path(out_dir, sizeof out_dir, "kiln_run_plane");
    run_result r;
    CHECK(run_kiln_run("run_plane.json", out_dir, &r));
    CHECK_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
    CHECK_EQ_INT(line_count(r.out), 10);
    static const char *const expected[] = {
        "{\"Ok\":{\"texture_id\":1}}", "{\"Ok\":{\"texture_id\":2}}", "{\"Ok\":{\"program_id\":1}}",
        "{\"Ok\":{}}", "{\"Ok\":{}}"};
    char line[1024];
    for (int i = 0; i < 5; i++) {
        CHECK(nth_line(r.out, i, line, sizeof line));
        CHECK_MSG(strcmp(line, expected[i]) == 0, "line %d: %s", i, line);
    }
    /* An unknown "$name" is that message's Err; the script goes on past it and past an Err reply. */
    CHECK(nth_line(r.out, 7, line, sizeof line));
    CHECK_STR_CONTAINS(line, "{\"Err\":{\"class\":\"bad_message\",\"error\":"
                             "\"texture_id: unknown name \\\"$no_such_name\\\"");
    CHECK(nth_line(r.out, 8, line, sizeof line));
    CHECK_STR_CONTAINS(line, "{\"Err\":{\"class\":\"unknown_texture\"");
    CHECK(nth_line(r.out, 9, line, sizeof line));
    CHECK_STR_CONTAINS(line, "{\"Ok\":{\"program_id\":1,\"rows\":[{\"stage\":\"Fragment\",\"width\":4,\"height\":2");
}

/* The plane's texels are x + 10 y + 0.5: exact in the PFM, bottom row first. */
TEST(save_texture_writes_the_exact_pfm_of_an_r32float_plane) {
    char out_dir[PATH_MAX], path[PATH_MAX + 32];
    fixture_tmp_path(out_dir, sizeof out_dir, "kiln_run_pfm");
    run_result r;
    CHECK(run_kiln_run("run_plane.json", out_dir, &r));
    CHECK_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
    snprintf(path, sizeof path, "%s/plane.pfm", out_dir);
    FILE *f = fopen(path, "rb");
    CHECK_MSG(f, "no %s", path);
    char header[16] = {0};
    float values[8];
    size_t header_read = fread(header, 1, 12, f);
    size_t values_read = fread(values, sizeof(float), 8, f);
    bool at_end = fgetc(f) == EOF;
    fclose(f);
    CHECK(header_read == 12 && memcmp(header, "Pf\n4 2\n-1.0\n", 12) == 0);
    CHECK_EQ_INT(values_read, 8);
    CHECK(at_end);
    static const float expected[8] = {10.5f, 11.5f, 12.5f, 13.5f, 0.5f, 1.5f, 2.5f, 3.5f};
    for (int i = 0; i < 8; i++) CHECK_MSG(values[i] == expected[i], "value %d: %g", i, values[i]);
}

TEST(save_texture_writes_a_normalised_preview_beside_the_pfm) {
    char out_dir[PATH_MAX], path[PATH_MAX + 32];
    fixture_tmp_path(out_dir, sizeof out_dir, "kiln_run_preview");
    run_result r;
    CHECK(run_kiln_run("run_plane.json", out_dir, &r));
    CHECK_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
    snprintf(path, sizeof path, "%s/plane.png", out_dir);
    kiln_image img = {0};
    kiln_error err = {0};
    CHECK_MSG(kiln_image_load(&img, path, &err), "%s", err.message);
    const uint8_t *px = img.pixels;
    /* 0.5 .. 13.5 onto 0 .. 255: (0, 0) is the minimum, (3, 1) the maximum, (0, 1) is 10/13. */
    bool mapped = img.width == 4 && img.height == 2 && px[0] == 0 && px[3] == 255 && px[(7) * 4] == 255 &&
                  px[4 * 4] == 196 && px[4 * 4 + 1] == 196 && px[4 * 4 + 2] == 196;
    kiln_image_free(&img);
    CHECK(mapped);
}

TEST(save_texture_writes_an_rgba8_texture_as_png) {
    char out_dir[PATH_MAX], path[PATH_MAX + 32];
    fixture_tmp_path(out_dir, sizeof out_dir, "kiln_run_png");
    run_result r;
    CHECK(run_kiln_run("run_plane.json", out_dir, &r));
    CHECK_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
    snprintf(path, sizeof path, "%s/source.png", out_dir);
    kiln_image img = {0};
    kiln_error err = {0};
    CHECK_MSG(kiln_image_load(&img, path, &err), "%s", err.message);
    /* The fixture's source: texel i is (40 i, 255 - 40 i, 7, 255). */
    bool same = img.width == 2 && img.height == 2;
    for (int i = 0; same && i < 4; i++) {
        const uint8_t *p = (const uint8_t *)img.pixels + 4 * i;
        same = p[0] == 40 * i && p[1] == 255 - 40 * i && p[2] == 7 && p[3] == 255;
    }
    kiln_image_free(&img);
    CHECK(same);
}

TEST(malformed_script_exits_non_zero_with_line_and_column) {
    char out_dir[PATH_MAX];
    fixture_tmp_path(out_dir, sizeof out_dir, "kiln_run_malformed");
    run_result r;
    CHECK(run_kiln_run("malformed.json", out_dir, &r));
    CHECK(r.status != 0);
    CHECK_STR_CONTAINS(r.err, "malformed.json: malformed JSON: line 3, column 19:");
    CHECK_EQ_INT(strlen(r.out), 0);
}

TEST(unreadable_wgsl_path_exits_non_zero_naming_the_file) {
    char out_dir[PATH_MAX];
    fixture_tmp_path(out_dir, sizeof out_dir, "kiln_run_missing");
    run_result r;
    CHECK(run_kiln_run("missing_wgsl.json", out_dir, &r));
    CHECK(r.status != 0);
    CHECK_STR_CONTAINS(r.err, "script[1]: wgsl_path: cannot read '");
    CHECK_STR_CONTAINS(r.err, "no_such_shader.wgsl': No such file or directory");
    /* The message before it ran; nothing after it did. */
    CHECK_EQ_INT(line_count(r.out), 1);
}

/* A wgsl_path that names what is not a readable WGSL file stops the script with the reason,
 * at once: a FIFO must not block the run, /dev/zero must not read forever, a file past the
 * WGSL size limit is refused before it is read. */
TEST(a_wgsl_path_that_is_not_a_wgsl_file_stops_the_script_naming_why) {
    char dir[PATH_MAX], fifo[PATH_MAX + 16], big[PATH_MAX + 16], script[PATH_MAX + 16];
    fixture_tmp_path(dir, sizeof dir, "kiln_run_paths");
    mkdir(dir, 0700);
    snprintf(fifo, sizeof fifo, "%s/pipe.wgsl", dir);
    snprintf(big, sizeof big, "%s/big.wgsl", dir);
    unlink(fifo);
    CHECK(mkfifo(fifo, 0600) == 0);
    FILE *f = fopen(big, "wb");
    CHECK(f);
    /* One byte past the limit, all comment: what is refused is the size, not the text. */
    fputs("//", f);
    for (size_t i = 2; i < KILN_WGSL_MAX_FILE_BYTES + 1; i++) fputc('x', f);
    fclose(f);
    char big_reason[256];
    snprintf(big_reason, sizeof big_reason, "is over the %zu-byte limit for a WGSL source (%zu bytes)",
             (size_t)KILN_WGSL_MAX_FILE_BYTES, (size_t)KILN_WGSL_MAX_FILE_BYTES + 1);
    struct {
        const char *path, *reason;
    } cases[] = {
        {dir, "is a directory"},
        {fifo, "is not a regular file (a FIFO)"},
        {"/dev/zero", "is not a regular file (a character device)"},
        {big, big_reason},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(script, sizeof script, "%s/script.json", dir);
        f = fopen(script, "wb");
        CHECK(f);
        fprintf(f, "[{\"kind\": \"frame\"}, {\"kind\": \"program.register\", \"wgsl_path\": \"%s\", \"bindings\": [], "
                   "\"transients\": [], \"geometries\": [], \"depth_transients\": [], \"passes\": []}, {\"kind\": \"frame\"}]",
                cases[i].path);
        fclose(f);
        run_result r;
        /* /dev/zero lies outside the script's directory, which only the flag permits. */
        CHECK(run_kiln_run_with(script, dir, "--allow-outside-paths", &r));
        char want[PATH_MAX + 512];
        snprintf(want, sizeof want, "script[1]: wgsl_path: cannot read '%s': %s", cases[i].path, cases[i].reason);
        CHECK_MSG(r.status != 0, "case %zu", i);
        CHECK_STR_CONTAINS(r.err, want);
        CHECK_EQ_INT(line_count(r.out), 1);
    }
    unlink(fifo);
    unlink(big);
    unlink(script);
    rmdir(dir);
}

/* #12 class 4 (invalid UTF-8 in input reported as such) and class 8 (a NUL byte in a WGSL file):
 * the reply names the field, the file and the offset, and the script goes on. */
TEST(a_wgsl_file_that_is_not_utf8_text_is_refused_naming_the_byte) {
    char dir[PATH_MAX], wgsl[PATH_MAX + 16], script[PATH_MAX + 16];
    fixture_tmp_path(dir, sizeof dir, "kiln_run_text");
    mkdir(dir, 0700);
    snprintf(wgsl, sizeof wgsl, "%s/bad.wgsl", dir);
    snprintf(script, sizeof script, "%s/script.json", dir);
    struct {
        const char *bytes;
        size_t size;
        const char *reason;
    } cases[] = {
        {"// caf\xC3\xA9 ok\n\xFF", 13, "is not UTF-8: byte 0xFF at offset 12"},
        {"// a\xC0\xAF", 6, "is not UTF-8: byte 0xC0 at offset 4"},
        {"fn f() {}\0", 10, "holds a NUL byte at offset 9"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FILE *f = fopen(wgsl, "wb");
        CHECK(f);
        fwrite(cases[i].bytes, 1, cases[i].size, f);
        fclose(f);
        f = fopen(script, "wb");
        CHECK(f);
        fprintf(f, "[{\"kind\": \"program.register\", \"wgsl_path\": \"bad.wgsl\", \"bindings\": [], "
                   "\"transients\": [], \"geometries\": [], \"depth_transients\": [], \"passes\": []}, {\"kind\": \"frame\"}]");
        fclose(f);
        run_result r;
        CHECK(run_kiln_run(script, dir, &r));
        char want[PATH_MAX + 512];
        snprintf(want, sizeof want, "{\"Err\":{\"class\":\"bad_message\",\"error\":\"wgsl_path: '%s' %s\"}}", wgsl,
                 cases[i].reason);
        CHECK_MSG(strstr(r.out, want), "case %zu: %s", i, r.out);
        CHECK_EQ_INT(line_count(r.out), 2); /* the frame after it still ran */
    }
    unlink(wgsl);
    unlink(script);
    rmdir(dir);
}

/* #12 class 8: a refused message's "as" must not leave the name bound to what it named before. */
TEST(as_on_a_refused_message_unbinds_the_name) {
    char dir[PATH_MAX], script[PATH_MAX + 16];
    fixture_tmp_path(dir, sizeof dir, "kiln_run_as");
    mkdir(dir, 0700);
    snprintf(script, sizeof script, "%s/script.json", dir);
    FILE *f = fopen(script, "wb");
    CHECK(f);
    fputs("[{\"kind\": \"create_texture\", \"format\": \"Rgba8\", \"width\": 2, \"height\": 2, \"usage\": "
          "\"Writable\", \"sampling\": \"Linear\", \"as\": \"t\"},\n"
          " {\"kind\": \"create_texture\", \"format\": \"Rgba8\", \"width\": 0, \"height\": 2, \"usage\": "
          "\"Writable\", \"sampling\": \"Linear\", \"as\": \"t\"},\n"
          " {\"kind\": \"read_texture\", \"texture_id\": \"$t\"},\n"
          " {\"kind\": \"create_texture\", \"format\": \"Rgba8\", \"width\": 2, \"height\": 2, \"usage\": "
          "\"Writable\", \"sampling\": \"Linear\", \"as\": \"t\"},\n"
          " {\"kind\": \"destroy_texture\", \"texture_id\": \"$t\"}]", f);
    fclose(f);
    run_result r;
    CHECK(run_kiln_run(script, dir, &r));
    unlink(script);
    rmdir(dir);
    CHECK_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
    CHECK_EQ_INT(line_count(r.out), 5);
    CHECK_STR_CONTAINS(r.out, "{\"Err\":{\"class\":\"bad_message\",\"error\":\"texture_id: \\\"$t\\\" names no id: "
                              "script[1], which gave it, was refused\"}}");
    /* A later Ok binds it again: texture 2 is destroyed, not texture 1. */
    CHECK_STR_CONTAINS(r.out, "{\"Ok\":{\"texture_id\":2}}\n{\"Ok\":{}}");
}

/* #12 class 8: wgsl_path stays in the script's directory and save_texture under --out, symbolic
 * links followed, unless --allow-outside-paths; a refusal is that message's Err, the script goes on. */
TEST(paths_are_confined_to_the_script_directory_and_out) {
    char root[PATH_MAX], dir[PATH_MAX + 16], out[PATH_MAX + 16], script[PATH_MAX + 32], path[PATH_MAX + 64];
    fixture_tmp_path(root, sizeof root, "kiln_run_confine");
    snprintf(dir, sizeof dir, "%s/scripts", root);
    snprintf(out, sizeof out, "%s/out", root);
    mkdir(root, 0700);
    mkdir(dir, 0700);
    mkdir(out, 0700);
    /* A WGSL file beside the scripts directory, a link to it inside, a link inside --out to outside. */
    snprintf(path, sizeof path, "%s/outside.wgsl", root);
    FILE *f = fopen(path, "wb");
    CHECK(f);
    fputs("@fragment fn f() -> @location(0) vec4f { return vec4f(1.0); }\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/linked.wgsl", dir);
    unlink(path);
    CHECK(symlink("../outside.wgsl", path) == 0);
    snprintf(path, sizeof path, "%s/escape", out);
    unlink(path);
    CHECK(symlink(root, path) == 0);
    snprintf(script, sizeof script, "%s/script.json", dir);
    f = fopen(script, "wb");
    CHECK(f);
    fputs("[{\"kind\": \"program.register\", \"wgsl_path\": \"../outside.wgsl\", \"bindings\": [], \"transients\": [], "
          "\"geometries\": [], \"depth_transients\": [], \"passes\": []},\n"
          " {\"kind\": \"program.register\", \"wgsl_path\": \"linked.wgsl\", \"bindings\": [], \"transients\": [], "
          "\"geometries\": [], \"depth_transients\": [], \"passes\": []},\n"
          " {\"kind\": \"create_texture\", \"format\": \"Rgba8\", \"width\": 2, \"height\": 2, \"usage\": \"Writable\", "
          "\"sampling\": \"Linear\", \"as\": \"t\"},\n"
          " {\"kind\": \"save_texture\", \"texture_id\": \"$t\", \"path\": \"escape/stolen.png\"}]", f);
    fclose(f);
    run_result confined, allowed;
    CHECK(run_kiln_run_with(script, out, "", &confined));
    CHECK(run_kiln_run_with(script, out, "--allow-outside-paths", &allowed));
    snprintf(path, sizeof path, "%s/stolen.png", root);
    struct stat st;
    bool stolen_after_allowed = stat(path, &st) == 0;
    unlink(path);
    char line[1024], want[PATH_MAX + 256];
    CHECK_MSG(confined.status == 0, "exit %d: %s", confined.status, confined.err);
    CHECK_EQ_INT(line_count(confined.out), 4);
    CHECK(nth_line(confined.out, 0, line, sizeof line));
    snprintf(want, sizeof want, "{\"Err\":{\"class\":\"bad_message\",\"error\":\"wgsl_path: '%s/../outside.wgsl' is outside "
             "the script's directory (kiln-run --allow-outside-paths permits it)\"}}", dir);
    CHECK_MSG(strcmp(line, want) == 0, "%s", line);
    CHECK(nth_line(confined.out, 1, line, sizeof line));
    CHECK_STR_CONTAINS(line, "linked.wgsl' is outside the script's directory");
    CHECK(nth_line(confined.out, 3, line, sizeof line));
    CHECK_MSG(strcmp(line, "{\"Err\":{\"class\":\"bad_message\",\"error\":\"path: \\\"escape/stolen.png\\\" leads outside --out "
                           "through a symbolic link (kiln-run --allow-outside-paths permits it)\"}}") == 0, "%s", line);
    /* Allowed, the files are read (the passes-less register is then refused for its own reason)
     * and the save goes through the link. */
    CHECK(nth_line(allowed.out, 0, line, sizeof line));
    CHECK_STR_CONTAINS(line, "the program declares no passes");
    CHECK(stolen_after_allowed);
    snprintf(path, sizeof path, "%s/escape", out);
    unlink(path);
    snprintf(path, sizeof path, "%s/linked.wgsl", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/outside.wgsl", root);
    unlink(path);
    unlink(script);
    rmdir(out);
    rmdir(dir);
    rmdir(root);
}

/* #11's conformance finding: invalid WGSL read through wgsl_path is reported at that file's
 * line and column, not at the library's name for an inline source ("program.wgsl"), a labelled
 * program's too (after its `program "LABEL": `). */
TEST(invalid_wgsl_from_a_wgsl_path_names_the_file) {
    char dir[PATH_MAX], wgsl[PATH_MAX + 16], script[PATH_MAX + 16];
    fixture_tmp_path(dir, sizeof dir, "kiln_run_wgsl_name");
    mkdir(dir, 0700);
    snprintf(wgsl, sizeof wgsl, "%s/broken.wgsl", dir);
    snprintf(script, sizeof script, "%s/script.json", dir);
    FILE *f = fopen(wgsl, "wb");
    CHECK(f);
    fputs("fn f( {}\n", f);
    fclose(f);
    f = fopen(script, "wb");
    CHECK(f);
    fputs("[{\"kind\": \"program.register\", \"wgsl_path\": \"broken.wgsl\", \"bindings\": [], \"transients\": [], "
          "\"geometries\": [], \"depth_transients\": [], \"passes\": [{\"stage\": \"Fragment\", \"entry_point\": \"f\", "
          "\"inputs\": [], \"output\": {\"Binding\": {\"index\": 0}}, \"blend\": \"Replace\", \"uniform_offset\": 0, "
          "\"uniform_length\": 0, \"repeat\": null}]},\n"
          " {\"kind\": \"program.register\", \"label\": \"blur\", \"wgsl_path\": \"broken.wgsl\", \"bindings\": [], "
          "\"transients\": [], \"geometries\": [], \"depth_transients\": [], \"passes\": [{\"stage\": \"Fragment\", "
          "\"entry_point\": \"f\", \"inputs\": [], \"output\": {\"Binding\": {\"index\": 0}}, \"blend\": \"Replace\", "
          "\"uniform_offset\": 0, \"uniform_length\": 0, \"repeat\": null}]}]", f);
    fclose(f);
    run_result r;
    CHECK(run_kiln_run(script, dir, &r));
    unlink(wgsl);
    unlink(script);
    rmdir(dir);
    char line[1024];
    CHECK(nth_line(r.out, 0, line, sizeof line));
    CHECK_MSG(!strcmp(line, "{\"Err\":{\"class\":\"invalid_wgsl\",\"error\":\"broken.wgsl:1:5: '(' is never closed\"}}"), "%s",
              line);
    CHECK(nth_line(r.out, 1, line, sizeof line));
    CHECK_MSG(!strcmp(line, "{\"Err\":{\"class\":\"invalid_wgsl\",\"error\":\"program \\\"blur\\\": broken.wgsl:1:5: '(' is never "
                            "closed\"}}"), "%s", line);
}

TEST(missing_script_exits_non_zero) {
    char out_dir[PATH_MAX];
    fixture_tmp_path(out_dir, sizeof out_dir, "kiln_run_none");
    run_result r;
    CHECK(run_kiln_run("no_such_script.json", out_dir, &r));
    CHECK(r.status != 0);
    CHECK_STR_CONTAINS(r.err, "no_such_script.json': No such file or directory");
}

/* run_volume.json: a volume and an array made, a layer written (and one past the end refused), a
 * program reading both, its R32Float output saved exactly; an array is not a texture save_texture
 * takes. The volume's slices hold 0.25 and 0.75, read halfway between; the layer's red is 1. */
TEST(a_script_creates_and_reads_a_volume_and_an_array) {
    char out_dir[PATH_MAX], path[PATH_MAX + 32];
    fixture_tmp_path(out_dir, sizeof out_dir, "kiln_run_volume");
    run_result r;
    CHECK(run_kiln_run("run_volume.json", out_dir, &r));
    CHECK_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
    CHECK_EQ_INT(line_count(r.out), 10);
    static const char *const expected[] = {
        "{\"Ok\":{\"texture_id\":1}}", "{\"Ok\":{\"texture_id\":2}}", "{\"Ok\":{}}",
        "{\"Err\":{\"class\":\"invalid_texture\",\"error\":\"dropped write_texture_layer: layer 2 is outside 0..1 "
        "(texture 2 has 2 layers); the layer is unchanged\"}}",
        "{\"Ok\":{\"texture_id\":3}}", "{\"Ok\":{\"program_id\":1}}", "{\"Ok\":{}}"};
    char line[1024];
    for (int i = 0; i < 7; i++) {
        CHECK(nth_line(r.out, i, line, sizeof line));
        CHECK_MSG(strcmp(line, expected[i]) == 0, "line %d: %s", i, line);
    }
    CHECK(nth_line(r.out, 8, line, sizeof line));
    CHECK(strcmp(line, "{\"Err\":{\"class\":\"unknown_texture\",\"error\":\"texture_id: texture 2 is not a plain "
                       "texture\"}}") == 0);
    CHECK(nth_line(r.out, 9, line, sizeof line) && strcmp(line, "{\"Ok\":{}}") == 0);
    snprintf(path, sizeof path, "%s/read.pfm", out_dir);
    FILE *f = fopen(path, "rb");
    CHECK_MSG(f, "no %s", path);
    char header[16] = {0};
    float values[2] = {0};
    size_t header_read = fread(header, 1, 12, f), values_read = fread(values, sizeof(float), 2, f);
    fclose(f);
    CHECK(header_read == 12 && memcmp(header, "Pf\n2 1\n-1.0\n", 12) == 0 && values_read == 2);
    CHECK_MSG(values[0] == 0.5f && values[1] == 1.0f, "%g %g", values[0], values[1]);
}


/* examples/programs/shadow.json as a user runs it: typed blobs for the geometry and uniforms, a
 * depth-only shadow-map pass, two multisampled draw passes comparing against it, and a present
 * pass. The saved sheet shows the box's shadow on the ground: darker than the lit ground beside
 * it, with the lit box top and the sky where the scene puts them. */
static void pixel(const kiln_image *img, int x, int y, int out[3]) {
    const uint8_t *p = (const uint8_t *)img->pixels + 4 * ((size_t)y * img->width + x);
    for (int c = 0; c < 3; c++) out[c] = p[c];
}

TEST(the_shadow_example_draws_a_shadow_where_the_light_puts_it) {
    char out_dir[PATH_MAX], path[PATH_MAX + 32];
    fixture_tmp_path(out_dir, sizeof out_dir, "kiln_run_shadow");
    run_result r;
    CHECK(run_kiln_run(KILN_SOURCE_DIR "/examples/programs/shadow.json", out_dir, &r));
    CHECK_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
    CHECK_MSG(strstr(r.out, "Err") == NULL, "%s", r.out);
    snprintf(path, sizeof path, "%s/shadow.png", out_dir);
    kiln_image img = {0};
    kiln_error err = {0};
    CHECK_MSG(kiln_image_load(&img, path, &err), "%s", err.message);
    CHECK(img.width == 640 && img.height == 360);
    int lit[3], shade[3], top[3], sky[3];
    pixel(&img, 150, 290, lit);
    pixel(&img, 330, 245, shade);
    pixel(&img, 320, 140, top);
    pixel(&img, 20, 20, sky);
    kiln_image_free(&img);
    int lit_sum = lit[0] + lit[1] + lit[2], shade_sum = shade[0] + shade[1] + shade[2];
    CHECK_MSG(shade_sum * 10 < lit_sum * 7, "shadow %d %d %d against lit ground %d %d %d", shade[0], shade[1], shade[2],
              lit[0], lit[1], lit[2]);
    CHECK_MSG(top[0] > top[1] + 40 && top[0] > 180, "box top %d %d %d", top[0], top[1], top[2]);
    CHECK_MSG(sky[2] > sky[0] + 30, "sky %d %d %d", sky[0], sky[1], sky[2]);
}

/* A typed blob that does not hold its type is refused naming the element; the script goes on. */
TEST(a_typed_blob_names_the_element_it_cannot_hold) {
    char dir[PATH_MAX], script[PATH_MAX + 32];
    fixture_tmp_path(dir, sizeof dir, "kiln_run_typed");
    mkdir(dir, 0755);
    snprintf(script, sizeof script, "%s/typed.json", dir);
    FILE *f = fopen(script, "wb");
    CHECK(f);
    fputs("[{\"kind\": \"create_geometry\", \"layout\": [{\"location\": 0, \"format\": \"Float32\"}],"
          " \"vertices\": {\"f32\": [0, 1, 2]}, \"indices\": {\"u32\": [0, 1, -2]}},"
          " {\"kind\": \"create_geometry\", \"layout\": [{\"location\": 0, \"format\": \"Float32\"}],"
          " \"vertices\": {\"f32\": [0, 1, 2]}, \"indices\": {\"u32\": [0, 1, 2]}}]", f);
    fclose(f);
    run_result r;
    CHECK(run_kiln_run(script, dir, &r));
    CHECK_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
    char line[512];
    CHECK(nth_line(r.out, 0, line, sizeof line));
    CHECK_STR_CONTAINS(line, "\"class\":\"bad_message\",\"error\":\"indices.u32[2]: expected a u32 integer\"");
    CHECK(nth_line(r.out, 1, line, sizeof line));
    CHECK(strcmp(line, "{\"Ok\":{\"geometry_id\":1}}") == 0);
}

TEST_MAIN(T(the_shadow_example_draws_a_shadow_where_the_light_puts_it), T(a_typed_blob_names_the_element_it_cannot_hold),
          T(script_with_names_and_saves_exits_zero_with_one_reply_per_message),
          T(save_texture_writes_the_exact_pfm_of_an_r32float_plane),
          T(save_texture_writes_a_normalised_preview_beside_the_pfm), T(save_texture_writes_an_rgba8_texture_as_png),
          T(malformed_script_exits_non_zero_with_line_and_column),
          T(unreadable_wgsl_path_exits_non_zero_naming_the_file),
          T(a_wgsl_path_that_is_not_a_wgsl_file_stops_the_script_naming_why), T(a_wgsl_file_that_is_not_utf8_text_is_refused_naming_the_byte), T(as_on_a_refused_message_unbinds_the_name), T(paths_are_confined_to_the_script_directory_and_out), T(invalid_wgsl_from_a_wgsl_path_names_the_file), T(missing_script_exits_non_zero),
          T(a_script_creates_and_reads_a_volume_and_an_array))
