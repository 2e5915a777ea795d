/* kiln-render: headless rendering from the command line.
 *
 *   kiln-render MODEL.glb|MODEL.gltf -o out.png [common flags] [--scene N] [--time SECONDS]
 *               [--camera N | --look-from X,Y,Z --look-at X,Y,Z [--up X,Y,Z] [--fov-y RADIANS]]
 *               [--sun X,Y,Z | --no-sun] [--sun-lux F]
 *   kiln-render --demo -o out/demo.png [common flags]
 *   common flags: [--size WxH] [--tonemap NAME] [--exposure F] [--msaa 1|4] [--fxaa]
 *                 [--no-bloom] [--bloom-strength F] [--bloom-threshold F]
 *                 [--no-shadows] [--shadow-distance M] [--no-ao] [--ao-radius M] [--wireframe]
 *                 [--env FILE.hdr] [--env-rotation RADIANS] [--env-intensity F]
 *                 [--debug none|normals|clusters|overdraw|albedo|cascades|ao|lod] [--stats] [--graph]
 *   kiln-render --help | --version
 *
 * Renders a glTF model (imported with kiln_gltf_import) or the built-in demo scene offscreen,
 * reads it back and writes a PNG. A model without a camera flag is framed from its bounds and the
 * framing is printed on stderr as flags that reproduce it. --stats prints the frame statistics as
 * one JSON object, with the GPU time of each pass where the device has timestamp queries (and
 * "gpu_timings": "unavailable" where it has none); --graph prints the frame graph as Graphviz
 * DOT. Exit status: 0 written, 1 the model or the GPU failed, 2 a bad command line; every
 * failure is one line on stderr. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/import.h>
#include <kiln/render.h>
#include "demo_scene.h"
#include "vulkan_driver_pin.h"

/* The default sun of a model, the golden images' set-up: a white sun of 3 lux shining along
 * (-0.5, -1.0, -0.4). */
#define DEFAULT_SUN_LUX 3.0f
static const kiln_vec3 default_sun = {-0.5f, -1.0f, -0.4f};

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
    fprintf(out, "usage: kiln-render MODEL.glb|MODEL.gltf -o OUT.png [common flags] [--scene N] [--time SECONDS]\n"
                 "                   [--camera N | --look-from X,Y,Z --look-at X,Y,Z [--up X,Y,Z] [--fov-y RADIANS]]\n"
                 "                   [--sun X,Y,Z | --no-sun] [--sun-lux F]\n"
                 "       kiln-render --demo -o OUT.png [common flags]\n"
                 "       kiln-render --help | --version\n"
                 "common flags: [--size WxH] [--tonemap %s] [--exposure F]\n"
                 "              [--msaa 1|4] [--fxaa] [--no-bloom] [--bloom-strength F] [--bloom-threshold F]\n"
                 "              [--no-shadows] [--shadow-distance M] [--no-ao] [--ao-radius M] [--wireframe]\n"
                 "              [--env FILE.hdr] [--env-rotation RADIANS] [--env-intensity F]\n"
                 "              [--debug %s] [--stats] [--graph]\n"
                 "A model without --camera or --look-from is framed from its bounds; the framing is printed on\n"
                 "stderr as flags. Without lights of its own (or with --sun) it gets a sun along (-0.5,-1,-0.4)\n"
                 "of 3 lux (--sun-lux). --time poses it with all its animations at that many seconds (default 0).\n"
                 "--env lights the scene with an equirectangular HDR map instead of the\n"
                 "procedural sky (its centre faces +X at rotation 0) and shows it behind the scene.\n", tonemaps, debugs);
    return status;
}

typedef struct options {
    const char *out_path, *model, *env_path;
    bool demo, stats, graph;
    float env_rotation;
    uint32_t width, height;
    kiln_render_settings settings;
    /* The model's flags; each *_given says the flag was on the command line. */
    bool scene_given, camera_given, look_from_given, look_at_given, up_given, fov_given, sun_given, no_sun, time_given;
    uint32_t scene, camera;
    kiln_vec3 look_from, look_at, up, sun;
    float fov_y, sun_lux, time;
} options;

/* "X,Y,Z" as three finite floats and nothing else. */
static bool parse_vec3(const char *text, kiln_vec3 *out) {
    float f[3];
    const char *p = text;
    for (int k = 0; k < 3; k++) {
        char *end;
        f[k] = strtof(p, &end);
        if (end == p || !isfinite(f[k]) || *end != (k < 2 ? ',' : '\0')) return false;
        p = end + 1;
    }
    *out = (kiln_vec3){f[0], f[1], f[2]};
    return true;
}

static bool parse_index(const char *text, uint32_t *out) {
    char *end;
    unsigned long n = strtoul(text, &end, 10);
    if (end == text || *end || text[0] == '-' || n > UINT32_MAX) return false;
    *out = (uint32_t)n;
    return true;
}

/* "WxH": two decimal integers in 1..8192 joined by 'x', nothing before, between or after (no
 * sign, no space, no wrap-around of a huge number). */
static bool parse_size(const char *text, uint32_t *width, uint32_t *height) {
    const char *p = text;
    unsigned long dims[2];
    for (int k = 0; k < 2; k++) {
        if (*p < '0' || *p > '9') return false;
        char *end;
        errno = 0;
        dims[k] = strtoul(p, &end, 10);
        if (errno || dims[k] < 1 || dims[k] > 8192 || *end != (k == 0 ? 'x' : '\0')) return false;
        p = end + 1;
    }
    *width = (uint32_t)dims[0];
    *height = (uint32_t)dims[1];
    return true;
}

/* The flags that take a value, so a missing one is named as missing, not as unknown. */
static bool takes_value(const char *flag) {
    static const char *const flags[] = {"--scene", "--time", "--camera", "--look-from", "--look-at", "--up", "--sun", "--fov-y",
                                        "--sun-lux", "-o", "--size", "--tonemap", "--debug", "--msaa", "--exposure",
                                        "--bloom-strength", "--bloom-threshold", "--env", "--env-rotation",
                                        "--env-intensity", "--shadow-distance", "--ao-radius"};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (!strcmp(flag, flags[i])) return true;
    return false;
}

static bool parse_positive(const char *text, float *out) {
    char *end;
    float f = strtof(text, &end);
    if (end == text || *end || !(f > 0.0f) || !isfinite(f)) return false;
    *out = f;
    return true;
}

/* A flag's value that must be a number above 0 (0 would mean the setting's default, which
 * leaving the flag out already says); false with the message printed otherwise. */
static bool positive_number(const char *flag, const char *v, float *out) {
    if (parse_positive(v, out)) return true;
    fprintf(stderr, "kiln-render: %s wants a positive number, got '%s'\n", flag, v);
    return false;
}

/* The model-only flags, checked against each other once all are read; 0 or 2. */
static int check_model_flags(const options *o) {
    bool any = o->scene_given || o->camera_given || o->look_from_given || o->look_at_given || o->up_given ||
               o->fov_given || o->sun_given || o->no_sun || o->sun_lux > 0.0f || o->time_given;
    const char *why = NULL;
    if (o->demo && o->model) why = "--demo and a model are exclusive";
    else if (o->demo && any) why = "--scene, --time, --camera, --look-from, --look-at, --up, --fov-y and the sun flags are for a model, not --demo";
    else if (o->camera_given && (o->look_from_given || o->look_at_given || o->up_given || o->fov_given))
        why = "--camera is exclusive with --look-from, --look-at, --up and --fov-y";
    else if (o->look_from_given != o->look_at_given) why = "--look-from and --look-at go together";
    else if (o->up_given && !o->look_from_given) why = "--up needs --look-from and --look-at";
    else if (o->sun_given && o->no_sun) why = "--sun and --no-sun are exclusive";
    else if (o->no_sun && o->sun_lux > 0.0f) why = "--sun-lux and --no-sun are exclusive";
    if (why) fprintf(stderr, "kiln-render: %s\n", why);
    return why ? 2 : 0;
}

static int parse(int argc, char **argv, options *o) {
    *o = (options){.width = 1280, .height = 720};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v && takes_value(a)) return fprintf(stderr, "kiln-render: %s needs a value\n", a), 2;
        if (!strcmp(a, "--demo")) o->demo = true;
        else if (!strcmp(a, "--no-sun")) o->no_sun = true;
        else if (!strcmp(a, "--scene") && v) {
            if (!parse_index(v, &o->scene)) return fprintf(stderr, "kiln-render: --scene wants an index, got '%s'\n", v), 2;
            o->scene_given = true, i++;
        } else if (!strcmp(a, "--time") && v) {
            char *end;
            o->time = strtof(v, &end);
            if (end == v || *end || !isfinite(o->time) || o->time < 0.0f)
                return fprintf(stderr, "kiln-render: --time wants a finite number of seconds >= 0, got '%s'\n", v), 2;
            o->time_given = true, i++;
        } else if (!strcmp(a, "--camera") && v) {
            if (!parse_index(v, &o->camera)) return fprintf(stderr, "kiln-render: --camera wants an index, got '%s'\n", v), 2;
            o->camera_given = true, i++;
        } else if ((!strcmp(a, "--look-from") || !strcmp(a, "--look-at") || !strcmp(a, "--up") || !strcmp(a, "--sun")) && v) {
            bool from = !strcmp(a, "--look-from"), at = !strcmp(a, "--look-at"), up = !strcmp(a, "--up");
            kiln_vec3 *dst = from ? &o->look_from : at ? &o->look_at : up ? &o->up : &o->sun;
            if (!parse_vec3(v, dst)) return fprintf(stderr, "kiln-render: %s wants X,Y,Z, got '%s'\n", a, v), 2;
            *(from ? &o->look_from_given : at ? &o->look_at_given : up ? &o->up_given : &o->sun_given) = true;
            i++;
        } else if (!strcmp(a, "--fov-y") && v) {
            if (!parse_positive(v, &o->fov_y) || o->fov_y >= 3.1415926f)
                return fprintf(stderr, "kiln-render: --fov-y wants radians in (0, pi), got '%s'\n", v), 2;
            o->fov_given = true, i++;
        } else if (!strcmp(a, "--sun-lux") && v) {
            if (!positive_number(a, v, &o->sun_lux)) return 2;
            i++;
        }
        else if (!strcmp(a, "--stats")) o->stats = true;
        else if (!strcmp(a, "--graph")) o->graph = true;
        else if (!strcmp(a, "--fxaa")) o->settings.fxaa = true;
        else if (!strcmp(a, "--wireframe")) o->settings.wireframe = true;
        else if (!strcmp(a, "--no-bloom")) o->settings.disable_bloom = true;
        else if (!strcmp(a, "--no-shadows")) o->settings.disable_shadows = true;
        else if (!strcmp(a, "--no-ao")) o->settings.disable_ao = true;
        else if (!strcmp(a, "-o") && v) o->out_path = v, i++;
        else if (!strcmp(a, "--size") && v) {
            if (!parse_size(v, &o->width, &o->height)) {
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
            if (!positive_number(a, v, &o->settings.exposure)) return 2;
            i++;
        } else if (!strcmp(a, "--bloom-strength") && v) {
            if (!positive_number(a, v, &o->settings.bloom_strength)) return 2;
            i++;
        } else if (!strcmp(a, "--bloom-threshold") && v) {
            if (!positive_number(a, v, &o->settings.bloom_threshold)) return 2;
            i++;
        } else if (!strcmp(a, "--env") && v) {
            o->env_path = v, i++;
        } else if (!strcmp(a, "--env-rotation") && v) {
            char *end;
            o->env_rotation = strtof(v, &end);
            if (end == v || *end || !isfinite(o->env_rotation))
                return fprintf(stderr, "kiln-render: --env-rotation wants radians, got '%s'\n", v), 2;
            i++;
        } else if (!strcmp(a, "--env-intensity") && v) {
            if (!positive_number(a, v, &o->settings.ibl_intensity)) return 2;
            i++;
        } else if (!strcmp(a, "--shadow-distance") && v) {
            if (!parse_positive(v, &o->settings.shadow_distance))
                return fprintf(stderr, "kiln-render: --shadow-distance wants a positive number of metres, got '%s'\n", v), 2;
            i++;
        } else if (!strcmp(a, "--ao-radius") && v) {
            if (!parse_positive(v, &o->settings.ao_radius))
                return fprintf(stderr, "kiln-render: --ao-radius wants a positive number of metres, got '%s'\n", v), 2;
            i++;
        } else if (a[0] != '-' && !o->model) {
            o->model = a;
        } else {
            fprintf(stderr, "kiln-render: unknown argument '%s'\n", a);
            return usage(stderr, 2);
        }
    }
    return (o->demo || o->model) && o->out_path ? check_model_flags(o) : usage(stderr, 2);
}

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
    const kiln_render_scene *scene;  /* demo.scene or model.scene */
} frame_scene;

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The sun goes first, so it is the one the renderer uses (it keeps a scene's first sun). */
static bool add_sun(const options *o, frame_scene *f, kiln_error *err) {
    kiln_render_scene *s = &f->model.scene;
    if (!(f->lights = malloc((s->light_count + 1) * sizeof *f->lights)))
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory for %u lights", s->light_count + 1);
    f->lights[0] = kiln_light_sun(o->sun_given ? o->sun : default_sun, (kiln_vec3){1, 1, 1},
                                  o->sun_lux > 0.0f ? o->sun_lux : DEFAULT_SUN_LUX);
    if (s->light_count) memcpy(f->lights + 1, s->lights, s->light_count * sizeof *f->lights);
    s->lights = f->lights;
    s->light_count++;
    return true;
}

static bool build_model(kiln_renderer *r, const options *o, const kiln_gltf *doc, frame_scene *f, kiln_error *err) {
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
    bool sun = !o->no_sun && (o->sun_given || o->sun_lux > 0.0f || s->light_count == 0);
    return !sun || add_sun(o, f, err);
}

static void free_scene(frame_scene *f) {
    demo_scene_free(&f->demo);
    kiln_imported_scene_free(&f->model);
    free(f->lights);
}

/* Renders the demo scene, or `doc` when a model was given, and reads the frame back into img. */
/* The map into the renderer's texture registry, named by the scene's environment. */
static bool use_environment(kiln_renderer *r, const options *o, const kiln_image *env, kiln_render_scene *scene,
                            kiln_error *err) {
    kiln_texture_create_desc d = {.format = KILN_FORMAT_RGBA16_FLOAT, .width = env->width, .height = env->height,
                                  .pixels = env->pixels, .pixels_size = kiln_image_byte_size(env)};
    kiln_error add_err = {0};
    uint32_t id = kiln_texture_registry_add(kiln_renderer_texture_registry(r), &d, &add_err);
    if (!id) return kiln_error_set(err, add_err.code, "%s: %s", o->env_path, add_err.message);
    scene->environment.equirect = id;
    scene->environment.rotation = o->env_rotation;
    return true;
}

static bool render_frame(kiln_gfx *gfx, kiln_resources *res, const options *o, const kiln_gltf *doc,
                         const kiln_image *env, kiln_image *img, kiln_error *err) {
    WGPUTextureFormat format = WGPUTextureFormat_RGBA8UnormSrgb;
    kiln_renderer *r = kiln_renderer_create(gfx, res, &o->settings, format, err);
    if (!r) return false;
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
    ok = ok && kiln_renderer_render(r, f.scene, (kiln_render_target){kiln_resources_texture_raw(res, target, NULL), kiln_resources_texture_view_raw(res, view, NULL)}, err);
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

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) return usage(stdout, 0);
        if (!strcmp(argv[i], "--version")) return printf("kiln-render %s\n", kiln_version()), 0;
    }
    options o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc;
    kiln_error err = {0};
    /* The model is read before a device is made, so a bad file fails at once. */
    kiln_gltf *doc = NULL;
    if (o.model && !(doc = kiln_gltf_load(o.model, &(kiln_gltf_options){.pick_scene = o.scene_given, .scene = o.scene}, &err))) {
        fprintf(stderr, "kiln-render: %s\n", err.message);
        return 1;
    }
    for (uint32_t i = 0; doc && i < doc->warning_count; i++) fprintf(stderr, "kiln-render: warning: %s\n", doc->warnings[i]);
    kiln_image env = {0};
    if (o.env_path && !kiln_image_load_hdr(&env, o.env_path, &err)) {
        fprintf(stderr, "kiln-render: %s\n", err.message);
        kiln_gltf_free(doc);
        return 1;
    }
    kiln_gfx *gfx = kiln_gfx_create(&(kiln_gfx_desc){.label = "kiln-render"}, &err);
    if (gfx) gfx->wait_observer = report_wait;
    if (!gfx) {
        fprintf(stderr, "kiln-render: %s\n", err.message);
        kiln_gltf_free(doc);
        kiln_image_free(&env);
        return 1;
    }
    kiln_resources *res = kiln_resources_create(gfx, 0, &err);
    kiln_image img = {0};
    bool ok = res && render_frame(gfx, res, &o, doc, &env, &img, &err) && kiln_image_write_png(&img, o.out_path, &err);
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
    kiln_gltf_free(doc);
    kiln_resources_destroy(res);
    kiln_gfx_destroy(gfx);
    return ok ? 0 : 1;
}
