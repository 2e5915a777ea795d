/* Hot reload through the renderer: editing a WGSL file in the renderer's shader directory and
 * calling kiln_renderer_reload_shaders rebuilds the pipelines that use it (the tone map pass, a
 * post pipeline the spec's engine could not rebuild) under the same handles; a broken edit keeps
 * the last good program and logs where the error is. */
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>

#include <kiln/render.h>

#include "gfx_fixture.h"

#define W 32
#define H 32

static bool copy_file(const char *from, const char *to) {
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    bool ok = in && out;
    char buf[4096];
    size_t n;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
    if (in) fclose(in);
    if (out) fclose(out);
    return ok;
}

/* Removes the .wgsl files an earlier run left in `dir`: one the source tree no longer has would
 * otherwise shadow the built-in it was moved to. */
static void clear_shader_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (strstr(e->d_name, ".wgsl")) remove(path);
    }
    closedir(d);
}

static bool copy_shader_dir(const char *to) {
    mkdir(to, 0755);
    clear_shader_dir(to);
    DIR *d = opendir(KILN_RENDER_SHADER_DIR);
    if (!d) return false;
    bool ok = true;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strstr(e->d_name, ".wgsl")) continue;
        char a[1024], b[1024];
        snprintf(a, sizeof a, "%s/%s", KILN_RENDER_SHADER_DIR, e->d_name);
        snprintf(b, sizeof b, "%s/%s", to, e->d_name);
        ok = ok && copy_file(a, b);
    }
    closedir(d);
    return ok;
}

/* Replaces `from` by `to` in the file and moves its mtime forward. */
static bool edit(const char *path, const char *from, const char *to, int bump) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    static char text[65536], out[70000];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *at = strstr(text, from);
    if (!at) return false;
    snprintf(out, sizeof out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    f = fopen(path, "wb");
    fputs(out, f);
    fclose(f);
    struct stat st;
    stat(path, &st);
    struct timespec times[2] = {st.st_atim, st.st_mtim};
    times[1].tv_sec += bump;
    return utimensat(0, path, times, 0) == 0;
}

TEST(editing_the_post_program_rebuilds_the_tonemap_pipeline) {
    char dir[512], post[600];
    fixture_tmp_path(dir, sizeof dir, "reload_shaders");
    CHECK(copy_shader_dir(dir));
    snprintf(post, sizeof post, "%s/post.wgsl", dir);

    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_render_settings s = {.shader_dir = dir};
    kiln_renderer *r = kiln_renderer_create(f.gfx, f.res, &s, WGPUTextureFormat_RGBA8Unorm, &err);
    CHECK_MSG(r, "%s", err.message);
    kiln_texture t = kiln_resources_create_texture(f.res, &(kiln_texture_desc){.width = W, .height = H, .format = WGPUTextureFormat_RGBA8Unorm,
                                             .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, &err);
    kiln_texture_view v = kiln_resources_create_texture_view(f.res, t, NULL, &err);
    kiln_render_target target = {.texture = kiln_resources_texture_raw(f.res, t, NULL), .view = kiln_resources_texture_view_raw(f.res, v, NULL)};
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 1, 0}, (kiln_vec3){0, 1, -1}, (kiln_vec3){0, 1, 0}, 1.0f, 1.0f, 0.1f)};
    kiln_image before, after, broken;
    CHECK(kiln_renderer_render(r, &scene, target, &err));
    CHECK(kiln_resources_read_texture(f.res, kiln_resources_texture_raw(f.res, t, NULL), &before, &err));

    CHECK(edit(post, "return vec4<f32>(color * step(1e-4, coverage), coverage);", "return vec4<f32>(1.0, 0.0, 1.0, 1.0);", 2));
    uint32_t reloaded = kiln_renderer_reload_shaders(r);
    CHECK(kiln_renderer_render(r, &scene, target, &err));
    CHECK(kiln_resources_read_texture(f.res, kiln_resources_texture_raw(f.res, t, NULL), &after, &err));

    CHECK(edit(post, "return vec4<f32>(1.0, 0.0, 1.0, 1.0);", "return vec4<f32>(1.0, 0.0, 1.0);", 4));
    uint32_t reloaded_broken = kiln_renderer_reload_shaders(r);
    CHECK(kiln_renderer_render(r, &scene, target, &err));
    CHECK(kiln_resources_read_texture(f.res, kiln_resources_texture_raw(f.res, t, NULL), &broken, &err));
    bool logged = false;
    for (uint32_t i = 0; i < kiln_log_count(&f.gfx->diagnostics); i++) {
        const kiln_log_record *rec = kiln_log_at(&f.gfx->diagnostics, i);
        if (rec->level == KILN_LOG_ERROR && strstr(rec->message, "post.wgsl:")) logged = true;
    }
    const uint8_t *b = before.pixels, *a = after.pixels, *k = broken.pixels;
    bool sky_before = !(b[0] == 255 && b[1] == 0 && b[2] == 255);
    bool magenta_after = a[0] == 255 && a[1] == 0 && a[2] == 255;
    bool magenta_kept = k[0] == 255 && k[1] == 0 && k[2] == 255;
    kiln_image_free(&before);
    kiln_image_free(&after);
    kiln_image_free(&broken);
    kiln_resources_destroy_texture_view(f.res, v, NULL);
    kiln_resources_destroy_texture(f.res, t, NULL);
    kiln_renderer_destroy(r);
    uint64_t errors = fixture_close(&f); /* the broken compile is caught by an error scope, not left uncaptured */
    CHECK_EQ_INT(errors, 0);
    CHECK_EQ_INT(reloaded, 1);
    CHECK(sky_before);
    CHECK(magenta_after);
    CHECK_EQ_INT(reloaded_broken, 0);
    CHECK(magenta_kept);
    CHECK(logged);
}

/* A reload is checked like a load: an edit that moves a shared block's member away from its C
 * layout is refused before it compiles, the last good module stays, and the log names the block. */
TEST(a_reload_whose_blocks_drifted_keeps_the_last_good_program) {
    char dir[512], post[600];
    fixture_tmp_path(dir, sizeof dir, "reload_drift");
    CHECK(copy_shader_dir(dir));
    snprintf(post, sizeof post, "%s/post.wgsl", dir);
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_renderer *r = kiln_renderer_create(f.gfx, f.res, &(kiln_render_settings){.shader_dir = dir},
                                            WGPUTextureFormat_RGBA8Unorm, &err);
    CHECK_MSG(r, "%s", err.message);
    kiln_texture t = kiln_resources_create_texture(f.res, &(kiln_texture_desc){.width = W, .height = H, .format = WGPUTextureFormat_RGBA8Unorm,
                                             .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, &err);
    kiln_texture_view v = kiln_resources_create_texture_view(f.res, t, NULL, &err);
    kiln_render_target target = {.texture = kiln_resources_texture_raw(f.res, t, NULL), .view = kiln_resources_texture_view_raw(f.res, v, NULL)};
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 1, 0}, (kiln_vec3){0, 1, -1}, (kiln_vec3){0, 1, 0}, 1.0f, 1.0f, 0.1f)};
    kiln_image before, after;
    CHECK(kiln_renderer_render(r, &scene, target, &err));
    CHECK(kiln_resources_read_texture(f.res, kiln_resources_texture_raw(f.res, t, NULL), &before, &err));
    /* Valid WGSL, and it would compile: exposure and tonemapper swapped. */
    CHECK(edit(post, "    exposure: f32,\n    tonemapper: u32,\n", "    tonemapper: u32,\n    exposure: f32,\n", 2));
    uint32_t reloaded = kiln_renderer_reload_shaders(r);
    CHECK(kiln_renderer_render(r, &scene, target, &err));
    CHECK(kiln_resources_read_texture(f.res, kiln_resources_texture_raw(f.res, t, NULL), &after, &err));
    bool logged = false;
    for (uint32_t i = 0; i < kiln_log_count(&f.gfx->diagnostics); i++) {
        const kiln_log_record *rec = kiln_log_at(&f.gfx->diagnostics, i);
        if (rec->level == KILN_LOG_ERROR &&
            strstr(rec->message, "reload of post.wgsl failed, keeping the last good module: renderer: Post.exposure in "
                                 "post.wgsl is 4 bytes at 4 in WGSL but 4 at 0 in C"))
            logged = true;
    }
    bool same = memcmp(before.pixels, after.pixels, (size_t)W * H * 4) == 0;
    kiln_image_free(&before);
    kiln_image_free(&after);
    kiln_resources_destroy_texture_view(f.res, v, NULL);
    kiln_resources_destroy_texture(f.res, t, NULL);
    kiln_renderer_destroy(r);
    CHECK_EQ_INT(fixture_close(&f), 0);
    CHECK_EQ_INT(reloaded, 0);
    CHECK(same);
    CHECK(logged);
}

TEST_MAIN(T(editing_the_post_program_rebuilds_the_tonemap_pipeline), T(a_reload_whose_blocks_drifted_keeps_the_last_good_program))
