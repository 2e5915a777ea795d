/* The render settings table (kiln/render/settings_table.h): the rows, and one value read from
 * text into its field. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/render.h>

#include "abi.h"
#include "features/features.h"

static const char *tonemapper_at(int i) { return kiln_tonemapper_name((kiln_tonemapper)i); }
static const char *debug_mode_at(int i) { return kiln_debug_mode_name((kiln_debug_mode)i); }

static const uint32_t msaa_choices[] = {1, 4};

#define FIELD(f) offsetof(kiln_render_settings, f), sizeof(((kiln_render_settings *)0)->f)
#define SWITCH(k, fl, f, d) {.key = #k, .flag = fl, .type = KILN_SETTING_SWITCH, FIELD(f), .doc = d}
#define POSITIVE(k, fl, f, def, lo, hi, ph, d)                                                                   \
    {.key = #k, .flag = fl, .type = KILN_SETTING_FLOAT, FIELD(f), .min = 0.0, .max = INFINITY,               \
     .min_exclusive = true, .default_value = def, .slider_min = lo, .slider_max = hi, .placeholder = ph, .doc = d}
#define TEXELS(k, fl, f, lo, hi, def, slo, shi, d)                                                               \
    {.key = #k, .flag = fl, .type = KILN_SETTING_UINT, FIELD(f), .min = lo, .max = hi, .default_value = def, \
     .slider_min = slo, .slider_max = shi, .placeholder = "N", .doc = d}

/* The flags of kiln-render, in its usage's order; a key's flag is the key with its underscores
 * as dashes (written out, so a grep for the flag finds its row). */
static const kiln_render_setting rows[] = {
    {.key = "tonemap", .flag = "--tonemap", .type = KILN_SETTING_ENUM, FIELD(tonemapper), .name = tonemapper_at,
     .doc = "the tone mapper"},
    POSITIVE(exposure, "--exposure", exposure, 1.0, 0.05, 16.0, "F", "scales the scene's light before the tone map"),
    {.key = "msaa", .flag = "--msaa", .type = KILN_SETTING_UINT, FIELD(msaa), .min = 1, .max = 4, .choices = msaa_choices,
     .choice_count = 2, .default_value = 1, .slider_min = 1, .slider_max = 4,
     .doc = "samples per pixel of depth, HDR colour and sky"},
    SWITCH(fxaa, "--fxaa", fxaa, "FXAA on the tone-mapped image"),
    SWITCH(no_bloom, "--no-bloom", disable_bloom, "turns bloom off"),
    POSITIVE(bloom_strength, "--bloom-strength", bloom_strength, 0.04, 0.001, 0.5, "F", "how much of the bloom chain the tone map adds"),
    POSITIVE(bloom_threshold, "--bloom-threshold", bloom_threshold, 1.0, 0.1, 16.0, "F", "the scene-linear value where bloom starts"),
    SWITCH(no_shadows, "--no-shadows", disable_shadows, "turns shadows off (the sun's cascades and the light atlas)"),
    POSITIVE(shadow_distance, "--shadow-distance", shadow_distance, 60.0, 1.0, 500.0, "M",
             "metres in front of the camera the last cascade ends (a model: fitted to it)"),
    TEXELS(cascade_resolution, "--cascade-resolution", cascade_resolution, 16, 8192, 2048, 256, 4096, "texels per side of each cascade's map"),
    TEXELS(atlas_size, "--atlas-size", atlas_size, 64, 8192, 4096, 1024, 8192, "texels per side of the spot and point lights' shadow atlas"),
    TEXELS(atlas_tile, "--atlas-tile", atlas_tile, 16, 8192, 512, 64, 1024, "texels per side of one light view's tile (divides atlas_size)"),
    SWITCH(no_ao, "--no-ao", disable_ao, "turns ambient occlusion (GTAO) off"),
    POSITIVE(ao_radius, "--ao-radius", ao_radius, 0.5, 0.05, 5.0, "M", "metres around a point within which geometry occludes it"),
    SWITCH(wireframe, "--wireframe", wireframe, "draws every triangle's edges over the shaded image"),
    SWITCH(no_culling, "--no-culling", disable_culling, "turns frustum culling of instances off"),
    POSITIVE(env_intensity, "--env-intensity", ibl_intensity, 1.0, 0.01, 8.0, "F", "scales the environment's light and the sky"),
    {.key = "background", .flag = "--background", .type = KILN_SETTING_BACKGROUND, FIELD(background),
     .doc = "what is seen behind the scene: the sky, a display colour, or transparent"},
    {.key = "debug", .flag = "--debug", .type = KILN_SETTING_ENUM, FIELD(debug), .name = debug_mode_at,
     .doc = "a debug view instead of the lit image"},
    {.key = "worker_threads", .flag = "--worker-threads", .type = KILN_SETTING_UINT, FIELD(worker_threads), .min = 0,
     .max = KILN_MAX_WORKER_THREADS, .slider_min = 0, .slider_max = 8, .placeholder = "N", .at_creation = true,
     .doc = "threads sharing a frame's per-instance work; 0: one per core up to 8"},
};
#define ROW_COUNT (uint32_t)(sizeof rows / sizeof rows[0])

uint32_t kiln_render_setting_count(void) {
    uint32_t count = ROW_COUNT;
    for (uint32_t f = 0; f < render_feature_count; f++) count += render_features[f]->setting_count;
    return count;
}

/* The renderer's rows, then each feature's in list order. */
const kiln_render_setting *kiln_render_setting_at(uint32_t index) {
    if (index < ROW_COUNT) return &rows[index];
    index -= ROW_COUNT;
    for (uint32_t f = 0; f < render_feature_count; f++) {
        if (index < render_features[f]->setting_count) return &render_features[f]->settings[index];
        index -= render_features[f]->setting_count;
    }
    return NULL;
}

const kiln_render_setting *kiln_render_setting_find(const char *key_or_flag) {
    bool flag = !strncmp(key_or_flag, "--", 2);
    const kiln_render_setting *row;
    for (uint32_t i = 0; (row = kiln_render_setting_at(i)); i++)
        if (!strcmp(flag ? row->flag : row->key, key_or_flag)) return row;
    return NULL;
}

/* ---- reading one value --------------------------------------------------------------------- */

/* What a refusal needs: how the caller spells the setting, and where the message goes. */
typedef struct setting_text {
    const kiln_render_setting *row;
    const char *spelled, *text;
    kiln_error *err;
} setting_text;

static bool refuse(const setting_text *t, const char *what) {
    return kiln_error_set(t->err, KILN_ERR_INVALID_ARGUMENT, "%s: \"%s\" is not %s", t->spelled, t->text, what);
}

/* "agx|aces|none", "1|4": the values a row allows. */
static void list_values(const kiln_render_setting *row, char *out, size_t size) {
    size_t n = 0;
    out[0] = '\0';
    for (uint32_t i = 0; n < size; i++) {
        if (row->type == KILN_SETTING_ENUM && !row->name((int)i)) break;
        if (row->type == KILN_SETTING_UINT && i == row->choice_count) break;
        n += row->type == KILN_SETTING_ENUM ? (size_t)snprintf(out + n, size - n, "%s%s", i ? "|" : "", row->name((int)i))
                                            : (size_t)snprintf(out + n, size - n, "%s%u", i ? "|" : "", row->choices[i]);
    }
}

static bool set_switch(const setting_text *t, bool *field) {
    if (strcmp(t->text, "true") && strcmp(t->text, "false")) return refuse(t, "true or false");
    *field = !strcmp(t->text, "true");
    return true;
}

static bool set_uint(const setting_text *t, uint32_t *field) {
    const kiln_render_setting *row = t->row;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(t->text, &end, 10);
    if (t->text[0] < '0' || t->text[0] > '9' || *end || errno) return refuse(t, "a whole number");
    bool allowed = !row->choices && v >= row->min && v <= row->max;
    for (uint32_t i = 0; row->choices && i < row->choice_count; i++) allowed |= v == row->choices[i];
    if (!allowed && row->choices) {
        char values[64];
        list_values(row, values, sizeof values);
        return kiln_error_set(t->err, KILN_ERR_INVALID_ARGUMENT, "%s: %llu is not one of %s", t->spelled, v, values);
    }
    if (!allowed)
        return kiln_error_set(t->err, KILN_ERR_INVALID_ARGUMENT, "%s: %llu is not in [%g, %g]", t->spelled, v, row->min,
                              row->max);
    *field = (uint32_t)v;
    return true;
}

/* A finite number that stays finite as a float. */
static bool parse_float(const char *text, float *out) {
    char *end;
    double d = strtod(text, &end);
    if (end == text || *end || !isfinite(d) || !isfinite((float)d)) return false;
    *out = (float)d;
    return true;
}

/* A row's range as its refusals write it: "[-1, 1]", "(0, 4]", "(0, inf)". */
static void range_text(const kiln_render_setting *row, char *out, size_t size) {
    snprintf(out, size, "%s%g, %g%s", row->min_exclusive ? "(" : "[", row->min, row->max, isinf(row->max) ? ")" : "]");
}

static bool outside(const kiln_render_setting *row, float v) {
    return !isfinite(v) || v < row->min || (row->min_exclusive && v == row->min) || v > row->max;
}

static bool set_float(const setting_text *t, float *field) {
    const kiln_render_setting *row = t->row;
    float v;
    if (!parse_float(t->text, &v)) return refuse(t, "a finite number");
    char range[64];
    range_text(row, range, sizeof range);
    if (outside(row, v))
        return kiln_error_set(t->err, KILN_ERR_INVALID_ARGUMENT, "%s: %g is not in %s", t->spelled, (double)v, range);
    *field = v;
    return true;
}

static bool set_enum(const setting_text *t, int *field) {
    for (int i = 0; t->row->name(i); i++)
        if (!strcmp(t->row->name(i), t->text)) return *field = i, true;
    char values[128], what[160];
    list_values(t->row, values, sizeof values);
    snprintf(what, sizeof what, "one of %s", values);
    return refuse(t, what);
}

/* "R,G,B", three finite numbers in [0, 1] and nothing else. */
static bool parse_display_colour(const char *text, kiln_vec3 *out) {
    float c[3];
    const char *p = text;
    for (int k = 0; k < 3; k++) {
        char *end;
        c[k] = strtof(p, &end);
        if (end == p || !(c[k] >= 0.0f && c[k] <= 1.0f) || *end != (k < 2 ? ',' : '\0')) return false;
        p = end + 1;
    }
    *out = (kiln_vec3){c[0], c[1], c[2]};
    return true;
}

static bool set_background(const setting_text *t, kiln_render_settings *s) {
    kiln_vec3 colour;
    if (!strcmp(t->text, "sky")) s->background = KILN_BACKGROUND_SKY;
    else if (!strcmp(t->text, "transparent")) s->background = KILN_BACKGROUND_TRANSPARENT;
    else if (parse_display_colour(t->text, &colour)) s->background = KILN_BACKGROUND_COLOR, s->background_color = colour;
    else return refuse(t, "sky, transparent or R,G,B in [0, 1]");
    return true;
}

/* "X,Y,Z" or "V" (all three), each finite and in the row's range. */
static bool set_vec3(const setting_text *t, kiln_vec3 *field) {
    const kiln_render_setting *row = t->row;
    float c[3];
    char part[64];
    const char *p = t->text;
    int n = 0;
    for (; n < 3; n++) {
        size_t len = strcspn(p, ",");
        if (len >= sizeof part) return refuse(t, "X,Y,Z or one number");
        memcpy(part, p, len);
        part[len] = '\0';
        if (!parse_float(part, &c[n])) return refuse(t, "X,Y,Z or one number");
        p += len;
        if (!*p) break;
        p++;
    }
    if (*p || n == 1) return refuse(t, "X,Y,Z or one number");
    if (n == 0) c[1] = c[2] = c[0];
    char range[64];
    range_text(row, range, sizeof range);
    for (int k = 0; k < 3; k++)
        if (outside(row, c[k]))
            return kiln_error_set(t->err, KILN_ERR_INVALID_ARGUMENT, "%s: %g is not in %s", t->spelled, (double)c[k],
                                  range);
    *field = (kiln_vec3){c[0], c[1], c[2]};
    return true;
}

bool kiln_render_setting_set_sized(const kiln_render_setting *row, kiln_render_settings *s, size_t size,
                                   const char *text, const char *spelled, kiln_error *err) {
    setting_text t = {.row = row, .spelled = spelled ? spelled : row->key, .text = text, .err = err};
    if (!renderer_abi_check_settings(size, err)) return false;
    if (row->offset + row->size > size)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "%s: the caller's kiln_render_settings is %zu bytes and ends before this setting's field "
                              "at byte %zu",
                              t.spelled, size, row->offset);
    void *field = (char *)s + row->offset;
    switch (row->type) {
    case KILN_SETTING_SWITCH: return set_switch(&t, field);
    case KILN_SETTING_UINT: return set_uint(&t, field);
    case KILN_SETTING_FLOAT: return set_float(&t, field);
    case KILN_SETTING_ENUM: return set_enum(&t, field);
    case KILN_SETTING_BACKGROUND: return set_background(&t, s);
    case KILN_SETTING_VEC3: return set_vec3(&t, field);
    }
    return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: the row's type %d is unknown", t.spelled, (int)row->type);
}

/* ---- the features' rows in the resolver --------------------------------------------------- */

/* A value of a row with a default other than zero may be zero (meaning that default); any other
 * must lie in the range. */
static bool in_range(const kiln_render_setting *row, float v) {
    return (v == 0.0f && row->default_value != 0.0) || !outside(row, v);
}

static float or_default(const kiln_render_setting *row, float v) { return v == 0.0f ? (float)row->default_value : v; }

static bool resolve_row(const kiln_render_setting *row, kiln_render_settings *s, kiln_error *err) {
    char *field = (char *)s + row->offset;
    char range[64];
    range_text(row, range, sizeof range);
    if (row->type == KILN_SETTING_FLOAT) {
        float *v = (float *)field;
        if (!in_range(row, *v))
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: settings.%s %g is not in %s", row->key,
                                  (double)*v, range);
        *v = or_default(row, *v);
    } else if (row->type == KILN_SETTING_VEC3) {
        kiln_vec3 *v = (kiln_vec3 *)field;
        if (!in_range(row, v->x) || !in_range(row, v->y) || !in_range(row, v->z))
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                  "renderer: settings.%s (%g, %g, %g) is not in %s in every channel", row->key,
                                  (double)v->x, (double)v->y, (double)v->z, range);
        *v = (kiln_vec3){or_default(row, v->x), or_default(row, v->y), or_default(row, v->z)};
    }
    return true;
}

bool renderer_resolve_feature_settings(kiln_render_settings *s, kiln_error *err) {
    for (uint32_t f = 0; f < render_feature_count; f++)
        for (uint32_t i = 0; i < render_features[f]->setting_count; i++)
            if (!resolve_row(&render_features[f]->settings[i], s, err)) return false;
    return true;
}
