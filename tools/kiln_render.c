/* kiln-render: headless rendering from the command line.
 *
 *   kiln-render MODEL.glb|MODEL.gltf -o out.png [flags] [render settings]
 *   kiln-render --demo -o out/demo.png [flags] [render settings]
 *   kiln-render --batch MANIFEST.jsonl [--shard I/N] [--resume] [--jobs 1] [--report FILE]
 *   kiln-render --help | --version
 * (the flags: kiln_render_options.c; the render settings' flags: the library's settings table)
 *
 * Renders a glTF model (imported with kiln_gltf_import) or the built-in demo scene offscreen,
 * reads it back and writes a PNG. A model without a camera flag is framed from its bounds and the
 * framing is printed on stderr as flags that reproduce it. --stats prints the frame statistics as
 * one JSON object, with the GPU time of each pass where the device has timestamp queries (and
 * "gpu_timings": "unavailable" where it has none); --graph prints the frame graph as Graphviz
 * DOT. Exit status: 0 written, 1 the model or the GPU failed, 2 a bad command line; every
 * failure is one line on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kiln/import.h>
#include <kiln/render.h>
#include "demo_scene.h"
#include "kiln_render_batch.h"
#include "kiln_render_options.h"
#include "load_progress.h"
#include "vulkan_driver_pin.h"

/* Prints a JSON string; pass names are plain text, but a quote or backslash must not break the line. */
static void print_json_string(const char *text) {
    putchar('"');
    for (const char *c = text; *c; c++) {
        if (*c == '"' || *c == '\\') putchar('\\');
        if ((unsigned char)*c >= 0x20) putchar(*c);
    }
    putchar('"');
}

/* The counts, then the GPU time of each pass of the frame: "gpu_timings" says whether they were
 * measured ("ready"), and "gpu_passes" lists them, or is null where the device has no timestamp
 * queries ("unavailable"). */
static void print_stats(const kiln_frame_stats *s, const kiln_frame_timings *t) {
    printf("{\"instances_submitted\": %u, \"instances_drawn\": %u, \"draw_calls\": %u, \"prepass_draw_calls\": %u, "
           "\"shadow_draw_calls\": %u, \"shadow_views\": %u, \"shadowed_lights\": %u, \"environment_bakes\": %u, "
           "\"wireframe_draw_calls\": %u, \"lights\": %u, \"cluster_light_bound\": %u, \"cluster_list_capacity\": %u, "
           "\"passes\": %u, \"transient_textures\": %u, \"gpu_timings\": \"%s\", \"gpu_passes\": ",
           s->instances_submitted, s->instances_drawn, s->draw_calls, s->prepass_draw_calls, s->shadow_draw_calls,
           s->shadow_views, s->shadowed_lights, s->environment_bakes, s->wireframe_draw_calls, s->lights,
           s->cluster_light_bound, s->cluster_list_capacity, s->passes, s->transient_textures,
           kiln_frame_timings_status_name(t->status));
    if (t->status != KILN_FRAME_TIMINGS_READY) {
        printf("null}\n");
        return;
    }
    putchar('[');
    for (uint32_t i = 0; i < t->count; i++) {
        printf("%s{\"pass\": ", i ? ", " : "");
        print_json_string(t->passes[i].name);
        printf(", \"gpu_ms\": %.4f}", t->passes[i].gpu_ms);
    }
    printf("], \"gpu_total_ms\": %.4f}\n", t->total_ms);
}

/* What the frame draws: the demo scene, or an imported model with the command line's camera and
 * sun. */
typedef struct frame_scene {
    demo_scene demo;
    kiln_imported_scene model;
    kiln_light *lights;              /* the model's lights behind the added sun; NULL: none added */
    uint32_t light_capacity;
    const kiln_render_scene *scene;  /* demo.scene or model.scene */
} frame_scene;

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static bool build_model(kiln_renderer *r, const kiln_render_options *o, const kiln_gltf *doc, frame_scene *f, kiln_error *err) {
    float aspect = (float)o->width / (float)o->height;
    kiln_gltf_import_options io = {.name = base_name(o->model), .use_camera = o->camera_given, .camera = o->camera,
                                   .fov_y = o->fov_y, .aspect = aspect, .time = o->time};
    if (!kiln_gltf_import(doc, r, &io, &f->model, err)) return false;
    for (uint32_t i = 0; i < f->model.warning_count; i++) fprintf(stderr, "kiln-render: warning: %s\n", f->model.warnings[i]);
    kiln_render_scene *s = &f->model.scene;
    f->scene = s;
    if (o->look_from_given) {
        s->camera = kiln_import_look_at(&f->model.bounds, o->look_from, o->look_at, o->up_given ? o->up : (kiln_vec3){0, 1, 0},
                                        o->fov_given ? o->fov_y : KILN_IMPORT_DEFAULT_FOV_Y, aspect);
    } else if (f->model.framed) {
        kiln_vec3 e = s->camera.position, t = f->model.bounds.center;
        fprintf(stderr, "kiln-render: framing: --look-from %.9g,%.9g,%.9g --look-at %.9g,%.9g,%.9g --fov-y %.9g\n",
                (double)e.x, (double)e.y, (double)e.z, (double)t.x, (double)t.y, (double)t.z, (double)s->camera.fov_y);
    }
    /* Unless --shadow-distance says otherwise, the cascades cover the model and no more. */
    if (o->settings.shadow_distance == 0.0f)
        kiln_renderer_settings(r)->shadow_distance = kiln_import_shadow_distance(&f->model.bounds, &s->camera);
    kiln_import_sun sun = {.none = o->no_sun, .direction_given = o->sun_given, .direction = o->sun, .lux = o->sun_lux};
    return kiln_import_add_sun(s, &sun, &f->lights, &f->light_capacity, err);
}

static void free_scene(frame_scene *f) {
    demo_scene_free(&f->demo);
    kiln_imported_scene_free(&f->model);
    free(f->lights);
}

/* The --env map into the renderer's texture registry, named by the scene's environment. */
static bool use_environment(kiln_renderer *r, const kiln_render_options *o, const kiln_image *env, kiln_render_scene *scene,
                            kiln_error *err) {
    scene->environment.equirect = kiln_import_environment(r, env, o->env_path, err);
    scene->environment.rotation = o->env_rotation;
    return scene->environment.equirect != 0;
}

/* The --lut table into the renderer's texture registry, named by the settings. */
static bool use_color_lut(kiln_renderer *r, const kiln_render_options *o, const kiln_color_lut *lut, kiln_error *err) {
    uint32_t id = kiln_import_color_lut(r, lut, o->lut_path, err);
    kiln_renderer_settings(r)->color_lut = id;
    return id != 0;
}

/* Renders the demo scene, or `doc` when a model was given, and reads the frame back into img. */
static bool render_frame(kiln_gfx *gfx, kiln_resources *res, const kiln_render_options *o, const kiln_gltf *doc,
                         const kiln_image *env, const kiln_color_lut *lut, kiln_image *img, kiln_error *err) {
    WGPUTextureFormat format = WGPUTextureFormat_RGBA8UnormSrgb;
    kiln_renderer *r = kiln_renderer_create(gfx, res, &o->settings, format, err);
    if (!r) return false;
    if (lut->rgb && !use_color_lut(r, o, lut, err)) {
        kiln_renderer_destroy(r);
        return false;
    }
    frame_scene f = {0};
    bool ok = doc ? build_model(r, o, doc, &f, err)
                  : (f.scene = &f.demo.scene, demo_scene_build(r, (float)o->width / (float)o->height, &f.demo, err));
    kiln_render_scene scene = {0};
    if (ok) {
        scene = *f.scene;
        f.scene = &scene;
        ok = !env->pixels || use_environment(r, o, env, &scene, err);
    }
    kiln_texture target = {0};
    kiln_texture_view view = {0};
    if (ok) {
        target = kiln_resources_create_texture(res, &(kiln_texture_desc){.label = "kiln-render target", .width = o->width,
            .height = o->height, .format = format, .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, err);
        ok = target.id && (view = kiln_resources_create_texture_view(res, target, NULL, err)).id;
    }
    ok = ok && kiln_renderer_render(r, f.scene, (kiln_render_target){.texture = kiln_resources_texture_raw(res, target, NULL), .view = kiln_resources_texture_view_raw(res, view, NULL)}, err);
    ok = ok && kiln_resources_read_texture(res, kiln_resources_texture_raw(res, target, NULL), img, err);
    if (ok && o->stats) {
        /* The readback above waited for the frame; one pump brings its timestamps in. */
        kiln_gfx_pump(gfx, true);
        kiln_frame_timings timings = kiln_renderer_pass_timings(r);
        print_stats(kiln_renderer_stats(r), &timings);
    }
    if (ok && o->graph) {
        size_t n = kiln_renderer_graph_dot(r, NULL, 0) + 1;
        char *dot = malloc(n);
        if (dot) kiln_renderer_graph_dot(r, dot, n), fputs(dot, stdout);
        free(dot);
    }
    if (view.id) kiln_resources_destroy_texture_view(res, view, NULL);
    if (target.id) kiln_resources_destroy_texture(res, target, NULL);
    free_scene(&f);
    kiln_renderer_destroy(r);
    return ok;
}

/* Long GPU work (a large frame on a software rasteriser) shows it is alive rather than hung. */
static void report_wait(void *user, const char *what, double seconds) {
    (void)user;
    fprintf(stderr, "kiln-render: still waiting for %s: %.0f s\n", what, seconds);
}

static double monotonic_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The loader's progress, as lines on stderr once loading has taken a second (load_progress.h). */
static void report_load(void *user, const char *stage, uint32_t done, uint32_t total) {
    load_progress_report(user, stage, done, total, monotonic_seconds());
}

int main(int argc, char **argv) {
    if (kiln_render_batch_requested(argc, argv)) return kiln_render_batch_main(argc, argv);
    kiln_render_options o;
    int rc = kiln_render_options_parse(argc, argv, &o, stdout, stderr);
    if (rc != TOOL_RUN) return rc;
    kiln_error err = {0};
    /* The model is read before a device is made, so a bad file fails at once. */
    kiln_gltf *doc = NULL;
    load_progress progress;
    load_progress_start(&progress, stderr, o.model ? base_name(o.model) : "", monotonic_seconds());
    kiln_gltf_options load_options = {.pick_scene = o.scene_given, .scene = o.scene, .progress = report_load,
                                      .progress_user = &progress};
    if (o.model && !(doc = kiln_gltf_load(o.model, &load_options, &err))) {
        fprintf(stderr, "kiln-render: %s\n", err.message);
        return 1;
    }
    if (doc) load_progress_finish(&progress, monotonic_seconds());
    for (uint32_t i = 0; doc && i < doc->warning_count; i++) fprintf(stderr, "kiln-render: warning: %s\n", doc->warnings[i]);
    kiln_image env = {0};
    kiln_color_lut lut = {0};
    /* Like the model, the map and the table are read before a device is made. */
    if ((o.env_path && !kiln_image_load_hdr(&env, o.env_path, &err)) ||
        (o.lut_path && !kiln_color_lut_load(o.lut_path, &lut, &err))) {
        fprintf(stderr, "kiln-render: %s\n", err.message);
        kiln_image_free(&env);
        kiln_gltf_free(doc);
        return 1;
    }
    kiln_gfx *gfx = kiln_gfx_create(&(kiln_gfx_desc){.label = "kiln-render"}, &err);
    if (gfx) gfx->wait_observer = report_wait;
    if (!gfx) {
        fprintf(stderr, "kiln-render: %s\n", err.message);
        kiln_gltf_free(doc);
        kiln_image_free(&env);
        kiln_color_lut_free(&lut);
        return 1;
    }
    kiln_resources *res = kiln_resources_create(gfx, 0, &err);
    kiln_image img = {0};
    bool ok = res && render_frame(gfx, res, &o, doc, &env, &lut, &img, &err) && kiln_image_write_png(&img, o.out_path, &err);
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
    kiln_image_free(&env);
    kiln_color_lut_free(&lut);
    kiln_gltf_free(doc);
    kiln_resources_destroy(res);
    kiln_gfx_destroy(gfx);
    return ok ? 0 : 1;
}
