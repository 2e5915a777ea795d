/* kiln-render's command line (kiln_render_options.h): strict values with ranges, finite floats,
 * a missing value named as missing. Moved out of kiln_render.c unchanged, apart from writing its
 * messages to the stream it is given instead of stderr. */
#include "kiln_render_options.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "agx|aces|none": the names the renderer's table gives, so the usage cannot drift from it. */
static void list_names(const char *(*name)(int), char *out, size_t size) {
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; name(i) && n < size; i++) n += (size_t)snprintf(out + n, size - n, "%s%s", i ? "|" : "", name(i));
}

static const char *tonemapper_at(int i) { return kiln_tonemapper_name((kiln_tonemapper)i); }
static const char *debug_mode_at(int i) { return kiln_debug_mode_name((kiln_debug_mode)i); }

int kiln_render_options_usage(FILE *out, int status) {
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
                 "              [--background sky|transparent|R,G,B] [--debug %s] [--stats] [--graph]\n"
                 "A model without --camera or --look-from is framed from its bounds; the framing is printed on\n"
                 "stderr as flags. Without lights of its own (or with --sun) it gets a sun along (-0.5,-1,-0.4)\n"
                 "of 3 lux (--sun-lux). --time poses it with all its animations at that many seconds (default 0).\n"
                 "--env lights the scene with an equirectangular HDR map instead of the\n"
                 "procedural sky (its centre faces +X at rotation 0) and shows it behind the scene.\n"
                 "--background replaces what is seen behind the scene (not what lights it): a solid display\n"
                 "colour, or transparent (the PNG's alpha is the scene's coverage).\n", tonemaps, debugs);
    return status;
}

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

/* "sky", "transparent", or "R,G,B" of display values in 0..1 (a solid colour). */
static bool parse_background(const char *text, kiln_render_settings *settings) {
    kiln_vec3 c;
    if (!strcmp(text, "sky")) settings->background = KILN_BACKGROUND_SKY;
    else if (!strcmp(text, "transparent")) settings->background = KILN_BACKGROUND_TRANSPARENT;
    else if (parse_vec3(text, &c) && c.x >= 0 && c.x <= 1 && c.y >= 0 && c.y <= 1 && c.z >= 0 && c.z <= 1)
        settings->background = KILN_BACKGROUND_COLOR, settings->background_color = c;
    else return false;
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
                                        "--env-intensity", "--shadow-distance", "--ao-radius", "--background"};
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
 * leaving the flag out already says); false with the message written to messages otherwise. */
static bool positive_number(const char *flag, const char *v, float *out, FILE *messages) {
    if (parse_positive(v, out)) return true;
    fprintf(messages, "kiln-render: %s wants a positive number, got '%s'\n", flag, v);
    return false;
}

/* The model-only flags, checked against each other once all are read; 0 or 2. */
static int check_model_flags(const kiln_render_options *o, FILE *messages) {
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
    if (why) fprintf(messages, "kiln-render: %s\n", why);
    return why ? 2 : 0;
}

int kiln_render_options_parse(int argc, char **argv, kiln_render_options *o, FILE *messages) {
    *o = (kiln_render_options){.width = 1280, .height = 720};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v && takes_value(a)) return fprintf(messages, "kiln-render: %s needs a value\n", a), 2;
        if (!strcmp(a, "--demo")) o->demo = true;
        else if (!strcmp(a, "--no-sun")) o->no_sun = true;
        else if (!strcmp(a, "--scene") && v) {
            if (!parse_index(v, &o->scene)) return fprintf(messages, "kiln-render: --scene wants an index, got '%s'\n", v), 2;
            o->scene_given = true, i++;
        } else if (!strcmp(a, "--time") && v) {
            char *end;
            o->time = strtof(v, &end);
            if (end == v || *end || !isfinite(o->time) || o->time < 0.0f)
                return fprintf(messages, "kiln-render: --time wants a finite number of seconds >= 0, got '%s'\n", v), 2;
            o->time_given = true, i++;
        } else if (!strcmp(a, "--camera") && v) {
            if (!parse_index(v, &o->camera)) return fprintf(messages, "kiln-render: --camera wants an index, got '%s'\n", v), 2;
            o->camera_given = true, i++;
        } else if ((!strcmp(a, "--look-from") || !strcmp(a, "--look-at") || !strcmp(a, "--up") || !strcmp(a, "--sun")) && v) {
            bool from = !strcmp(a, "--look-from"), at = !strcmp(a, "--look-at"), up = !strcmp(a, "--up");
            kiln_vec3 *dst = from ? &o->look_from : at ? &o->look_at : up ? &o->up : &o->sun;
            if (!parse_vec3(v, dst)) return fprintf(messages, "kiln-render: %s wants X,Y,Z, got '%s'\n", a, v), 2;
            *(from ? &o->look_from_given : at ? &o->look_at_given : up ? &o->up_given : &o->sun_given) = true;
            i++;
        } else if (!strcmp(a, "--fov-y") && v) {
            if (!parse_positive(v, &o->fov_y) || o->fov_y >= 3.1415926f)
                return fprintf(messages, "kiln-render: --fov-y wants radians in (0, pi), got '%s'\n", v), 2;
            o->fov_given = true, i++;
        } else if (!strcmp(a, "--sun-lux") && v) {
            if (!positive_number(a, v, &o->sun_lux, messages)) return 2;
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
                fprintf(messages, "kiln-render: --size wants WxH (1..8192), got '%s'\n", v);
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--tonemap") && v) {
            if (!kiln_tonemapper_from_name(v, &o->settings.tonemapper))
                return fprintf(messages, "kiln-render: unknown tone mapper '%s'\n", v), 2;
            i++;
        } else if (!strcmp(a, "--background") && v) {
            if (!parse_background(v, &o->settings))
                return fprintf(messages, "kiln-render: --background wants sky, transparent or R,G,B (each 0..1), got '%s'\n",
                               v), 2;
            i++;
        } else if (!strcmp(a, "--debug") && v) {
            if (!kiln_debug_mode_from_name(v, &o->settings.debug))
                return fprintf(messages, "kiln-render: unknown debug mode '%s'\n", v), 2;
            i++;
        } else if (!strcmp(a, "--msaa") && v) {
            if (strcmp(v, "1") && strcmp(v, "4")) return fprintf(messages, "kiln-render: --msaa wants 1 or 4, got '%s'\n", v), 2;
            o->settings.msaa = (uint32_t)atoi(v);
            i++;
        } else if (!strcmp(a, "--exposure") && v) {
            if (!positive_number(a, v, &o->settings.exposure, messages)) return 2;
            i++;
        } else if (!strcmp(a, "--bloom-strength") && v) {
            if (!positive_number(a, v, &o->settings.bloom_strength, messages)) return 2;
            i++;
        } else if (!strcmp(a, "--bloom-threshold") && v) {
            if (!positive_number(a, v, &o->settings.bloom_threshold, messages)) return 2;
            i++;
        } else if (!strcmp(a, "--env") && v) {
            o->env_path = v, i++;
        } else if (!strcmp(a, "--env-rotation") && v) {
            char *end;
            o->env_rotation = strtof(v, &end);
            if (end == v || *end || !isfinite(o->env_rotation))
                return fprintf(messages, "kiln-render: --env-rotation wants radians, got '%s'\n", v), 2;
            i++;
        } else if (!strcmp(a, "--env-intensity") && v) {
            if (!positive_number(a, v, &o->settings.ibl_intensity, messages)) return 2;
            i++;
        } else if (!strcmp(a, "--shadow-distance") && v) {
            if (!parse_positive(v, &o->settings.shadow_distance))
                return fprintf(messages, "kiln-render: --shadow-distance wants a positive number of metres, got '%s'\n", v), 2;
            i++;
        } else if (!strcmp(a, "--ao-radius") && v) {
            if (!parse_positive(v, &o->settings.ao_radius))
                return fprintf(messages, "kiln-render: --ao-radius wants a positive number of metres, got '%s'\n", v), 2;
            i++;
        } else if (a[0] != '-' && !o->model) {
            o->model = a;
        } else {
            fprintf(messages, "kiln-render: unknown argument '%s'\n", a);
            return kiln_render_options_usage(messages, 2);
        }
    }
    return (o->demo || o->model) && o->out_path ? check_model_flags(o, messages) : kiln_render_options_usage(messages, 2);
}
