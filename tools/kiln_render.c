/* kiln-render: headless rendering from the command line.
 *
 *   kiln-render --demo -o out/demo.png [--size WxH] [--tonemap NAME] [--exposure F]
 *               [--msaa 1|4] [--fxaa] [--no-shadows] [--shadow-distance M]
 *               [--debug none|normals|clusters|overdraw|albedo|cascades] [--stats] [--graph]
 *   kiln-render --help | --version
 *
 * Renders the built-in demo scene offscreen, reads it back and writes a PNG. --stats prints the
 * frame statistics as one JSON object; --graph prints the frame graph as Graphviz DOT. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/render.h>
#include "demo_scene.h"

/* "agx|aces|none": the names the renderer's table gives, so the usage cannot drift from it. */
static void list_names(const char *(*name)(int), char *out, size_t size) {
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; name(i) && n < size; i++) n += (size_t)snprintf(out + n, size - n, "%s%s", i ? "|" : "", name(i));
}

static const char *tonemapper_at(int i) { return kiln_tonemapper_name((kiln_tonemapper)i); }
static const char *debug_mode_at(int i) { return kiln_debug_mode_name((kiln_debug_mode)i); }

/* The usage on out (stdout for --help, stderr for a bad command line); returns status. */
static int usage(FILE *out, int status) {
    char tonemaps[128], debugs[128];
    list_names(tonemapper_at, tonemaps, sizeof tonemaps);
    list_names(debug_mode_at, debugs, sizeof debugs);
    fprintf(out, "usage: kiln-render --demo -o OUT.png [--size WxH] [--tonemap %s] [--exposure F]\n"
                 "                   [--msaa 1|4] [--fxaa] [--no-shadows] [--shadow-distance M]\n"
                 "                   [--debug %s] [--stats] [--graph]\n"
                 "       kiln-render --help | --version\n", tonemaps, debugs);
    return status;
}

typedef struct options {
    const char *out_path;
    bool demo, stats, graph;
    uint32_t width, height;
    kiln_render_settings settings;
} options;

static int parse(int argc, char **argv, options *o) {
    *o = (options){.width = 1280, .height = 720};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--demo")) o->demo = true;
        else if (!strcmp(a, "--stats")) o->stats = true;
        else if (!strcmp(a, "--graph")) o->graph = true;
        else if (!strcmp(a, "--fxaa")) o->settings.fxaa = true;
        else if (!strcmp(a, "--no-shadows")) o->settings.disable_shadows = true;
        else if (!strcmp(a, "-o") && v) o->out_path = v, i++;
        else if (!strcmp(a, "--size") && v) {
            if (sscanf(v, "%ux%u", &o->width, &o->height) != 2 || !o->width || !o->height || o->width > 8192 || o->height > 8192) {
                fprintf(stderr, "kiln-render: --size wants WxH (1..8192), got '%s'\n", v);
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--tonemap") && v) {
            if (!kiln_tonemapper_from_name(v, &o->settings.tonemapper))
                return fprintf(stderr, "kiln-render: unknown tone mapper '%s'\n", v), 2;
            i++;
        } else if (!strcmp(a, "--debug") && v) {
            if (!kiln_debug_mode_from_name(v, &o->settings.debug))
                return fprintf(stderr, "kiln-render: unknown debug mode '%s'\n", v), 2;
            i++;
        } else if (!strcmp(a, "--msaa") && v) {
            if (strcmp(v, "1") && strcmp(v, "4")) return fprintf(stderr, "kiln-render: --msaa wants 1 or 4, got '%s'\n", v), 2;
            o->settings.msaa = (uint32_t)atoi(v);
            i++;
        } else if (!strcmp(a, "--exposure") && v) {
            char *end;
            o->settings.exposure = strtof(v, &end);
            if (*end || !(o->settings.exposure > 0.0f)) return fprintf(stderr, "kiln-render: --exposure wants a positive number, got '%s'\n", v), 2;
            i++;
        } else if (!strcmp(a, "--shadow-distance") && v) {
            char *end;
            o->settings.shadow_distance = strtof(v, &end);
            if (*end || !(o->settings.shadow_distance > 0.0f) || isinf(o->settings.shadow_distance))
                return fprintf(stderr, "kiln-render: --shadow-distance wants a positive number of metres, got '%s'\n", v), 2;
            i++;
        } else {
            fprintf(stderr, "kiln-render: unknown argument '%s'\n", a);
            return usage(stderr, 2);
        }
    }
    return (o->demo && o->out_path) ? 0 : usage(stderr, 2);
}

static void print_stats(const kiln_frame_stats *s) {
    printf("{\"instances_submitted\": %u, \"instances_drawn\": %u, \"draw_calls\": %u, \"prepass_draw_calls\": %u, "
           "\"shadow_draw_calls\": %u, \"shadow_views\": %u, \"lights\": %u, \"passes\": %u, "
           "\"transient_textures\": %u}\n",
           s->instances_submitted, s->instances_drawn, s->draw_calls, s->prepass_draw_calls, s->shadow_draw_calls,
           s->shadow_views, s->lights, s->passes, s->transient_textures);
}

static bool render_demo(kiln_gfx *gfx, kiln_resources *res, const options *o, kiln_image *img, kiln_error *err) {
    WGPUTextureFormat format = WGPUTextureFormat_RGBA8UnormSrgb;
    kiln_renderer *r = kiln_renderer_create(gfx, res, &o->settings, format, err);
    if (!r) return false;
    demo_scene demo;
    bool ok = demo_scene_build(r, (float)o->width / (float)o->height, &demo, err);
    kiln_texture target = {0};
    kiln_texture_view view = {0};
    if (ok) {
        target = kiln_resources_create_texture(res, &(kiln_texture_desc){.label = "kiln-render target", .width = o->width,
            .height = o->height, .format = format, .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, err);
        ok = target.id && (view = kiln_resources_create_texture_view(res, target, NULL, err)).id;
    }
    ok = ok && kiln_renderer_render(r, &demo.scene, (kiln_render_target){kiln_resources_texture_raw(res, target, NULL), kiln_resources_texture_view_raw(res, view, NULL)}, err);
    ok = ok && kiln_resources_read_texture(res, kiln_resources_texture_raw(res, target, NULL), img, err);
    if (ok && o->stats) print_stats(kiln_renderer_stats(r));
    if (ok && o->graph) {
        size_t n = kiln_renderer_graph_dot(r, NULL, 0) + 1;
        char *dot = malloc(n);
        if (dot) kiln_renderer_graph_dot(r, dot, n), fputs(dot, stdout);
        free(dot);
    }
    if (view.id) kiln_resources_destroy_texture_view(res, view, NULL);
    if (target.id) kiln_resources_destroy_texture(res, target, NULL);
    demo_scene_free(&demo);
    kiln_renderer_destroy(r);
    return ok;
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) return usage(stdout, 0);
        if (!strcmp(argv[i], "--version")) return printf("kiln-render %s\n", kiln_version()), 0;
    }
    options o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc;
    kiln_error err = {0};
    kiln_gfx *gfx = kiln_gfx_create(&(kiln_gfx_desc){.label = "kiln-render"}, &err);
    if (!gfx) {
        fprintf(stderr, "kiln-render: %s\n", err.message);
        return 1;
    }
    kiln_resources *res = kiln_resources_create(gfx, 0, &err);
    kiln_image img = {0};
    bool ok = res && render_demo(gfx, res, &o, &img, &err) && kiln_image_write_png(&img, o.out_path, &err);
    kiln_gfx_pump(gfx, true);
    if (ok && gfx->error_count) {
        ok = false;
        snprintf(err.message, sizeof err.message, "%llu validation error(s) from Dawn", (unsigned long long)gfx->error_count);
    }
    for (uint32_t i = 0; i < kiln_log_count(&gfx->diagnostics); i++) {
        const kiln_log_record *rec = kiln_log_at(&gfx->diagnostics, i);
        if (rec->level >= KILN_LOG_WARN) fprintf(stderr, "kiln-render: [%s] %s\n", rec->category, rec->message);
    }
    if (ok) fprintf(stderr, "kiln-render: wrote %s (%ux%u) on %s\n", o.out_path, o.width, o.height, gfx->adapter_name);
    else fprintf(stderr, "kiln-render: %s\n", err.message);
    kiln_image_free(&img);
    kiln_resources_destroy(res);
    kiln_gfx_destroy(gfx);
    return ok ? 0 : 1;
}
