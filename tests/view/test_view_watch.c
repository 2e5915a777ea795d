/* kiln-view's inotify watches (tools/kiln_view_watch.c) on a scratch directory: a write that is
 * closed and a file renamed over the name are reported under their tag once, other files of the
 * directory are not, a .wgsl directory watch sees any .wgsl file, and a removed watch is silent. */
#include <stdio.h>
#include <sys/stat.h>

#include "kiln_view_watch.h"
#include "test.h"

static void scratch(char *out, size_t size, const char *name) {
    const char *tmp = getenv("KILN_TEST_TMP");
    snprintf(out, size, "%s/view_watch", tmp && *tmp ? tmp : "/tmp");
    mkdir(out, 0755);
    size_t n = strlen(out);
    snprintf(out + n, size - n, "/%s", name);
}

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (f) fputs(text, f), fclose(f);
}

TEST(a_closed_write_and_a_rename_over_the_file_are_reported_once) {
    char model[512], other[512], temp[512];
    scratch(model, sizeof model, "model.glb");
    scratch(other, sizeof other, "other.glb");
    scratch(temp, sizeof temp, "model.glb.tmp");
    write_text(model, "a");
    view_watch w;
    kiln_error err = {0};
    CHECK_MSG(view_watch_open(&w, &err), "%s", err.message);
    CHECK_MSG(view_watch_add_file(&w, model, 2, &err), "%s", err.message);
    CHECK_EQ_INT(view_watch_poll(&w), 0);
    write_text(model, "b");
    uint32_t after_write = view_watch_poll(&w), after_nothing = view_watch_poll(&w);
    write_text(other, "c");
    uint32_t after_other = view_watch_poll(&w);
    write_text(temp, "d");
    rename(temp, model); /* an editor's atomic save */
    uint32_t after_rename = view_watch_poll(&w);
    view_watch_close(&w);
    CHECK_EQ_INT(after_write, 2);
    CHECK_EQ_INT(after_nothing, 0);
    CHECK_EQ_INT(after_other, 0);
    CHECK_EQ_INT(after_rename, 2);
}

TEST(a_wgsl_directory_watch_sees_any_wgsl_file_and_a_removed_watch_nothing) {
    char dir[512], shader[512], notes[512], env[512];
    scratch(shader, sizeof shader, "post.wgsl");
    scratch(notes, sizeof notes, "notes.txt");
    scratch(env, sizeof env, "sky.hdr");
    scratch(dir, sizeof dir, "");
    view_watch w;
    kiln_error err = {0};
    CHECK_MSG(view_watch_open(&w, &err), "%s", err.message);
    CHECK_MSG(view_watch_add_wgsl_directory(&w, dir, 4, &err), "%s", err.message);
    CHECK_MSG(view_watch_add_file(&w, env, 1, &err), "%s", err.message); /* the same directory, another tag */
    write_text(shader, "fn f() {}");
    uint32_t after_shader = view_watch_poll(&w);
    write_text(notes, "x");
    uint32_t after_notes = view_watch_poll(&w);
    view_watch_remove(&w, 1);
    write_text(env, "y");
    uint32_t after_removed = view_watch_poll(&w);
    write_text(shader, "fn g() {}"); /* the directory is still watched for the other tag */
    uint32_t after_shader_again = view_watch_poll(&w);
    view_watch_close(&w);
    CHECK_EQ_INT(after_shader, 4);
    CHECK_EQ_INT(after_notes, 0);
    CHECK_EQ_INT(after_removed, 0);
    CHECK_EQ_INT(after_shader_again, 4);
}

TEST(watching_a_missing_directory_fails_naming_it) {
    view_watch w;
    kiln_error err = {0};
    CHECK(view_watch_open(&w, &err));
    bool ok = view_watch_add_file(&w, "/nonexistent-dir/model.glb", 1, &err);
    view_watch_close(&w);
    CHECK(!ok);
    CHECK_STR_CONTAINS(err.message, "watch /nonexistent-dir: No such file or directory");
}

TEST_MAIN(T(a_closed_write_and_a_rename_over_the_file_are_reported_once),
          T(a_wgsl_directory_watch_sees_any_wgsl_file_and_a_removed_watch_nothing),
          T(watching_a_missing_directory_fails_naming_it))
