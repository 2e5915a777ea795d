/* The batch manifest (batch_manifest.h): one table of fields per JSON object, each field with the
 * function that reads it, so the parser, its messages and the unknown-field check cannot drift. */
#include "batch_manifest.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/import.h>

/* ---- the manifest file -------------------------------------------------------------------- */

static bool is_blank(const char *text, size_t length) {
    for (size_t i = 0; i < length; i++)
        if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r') return false;
    return true;
}

static void directory_of(const char *path, char *dir, size_t size) {
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, size, ".");
    else if (slash == path) snprintf(dir, size, "/");
    else snprintf(dir, size, "%.*s", (int)(slash - path), path);
}

bool batch_manifest_load(batch_manifest *m, const char *path, char *why, size_t why_size) {
    *m = (batch_manifest){0};
    FILE *f = fopen(path, "rb");
    if (!f) return snprintf(why, why_size, "%s: cannot open: %s", path, strerror(errno)), false;
    size_t capacity = 1 << 16, size = 0;
    char *bytes = malloc(capacity);
    for (size_t got = 1; bytes && got;) {
        if (size + 1 == capacity) {
            char *grown = realloc(bytes, capacity *= 2);
            if (!grown) free(bytes);
            bytes = grown;
            if (!bytes) break;
        }
        got = fread(bytes + size, 1, capacity - 1 - size, f);
        size += got;
    }
    bool failed = !bytes || ferror(f);
    int read_errno = errno;
    fclose(f);
    if (failed) {
        free(bytes);
        return snprintf(why, why_size, "%s: cannot read: %s", path, bytes ? strerror(read_errno) : "out of memory"), false;
    }
    bytes[size] = '\0';
    uint32_t count = 0;
    for (size_t i = 0; i < size; i++) count += bytes[i] == '\n';
    m->lines = calloc((size_t)count + 1, sizeof *m->lines);
    if (!m->lines) {
        free(bytes);
        return snprintf(why, why_size, "%s: out of memory for %u lines", path, count + 1), false;
    }
    m->bytes = bytes;
    uint32_t number = 0;
    for (char *start = bytes; start < bytes + size;) {
        char *end = memchr(start, '\n', (size_t)(bytes + size - start));
        if (!end) end = bytes + size;
        number++;
        if (!is_blank(start, (size_t)(end - start)))
            m->lines[m->line_count++] = (batch_line){.number = number, .text = start, .length = (size_t)(end - start)};
        start = end + 1;
    }
    directory_of(path, m->dir, sizeof m->dir);
    return true;
}

void batch_manifest_free(batch_manifest *m) {
    free(m->bytes);
    free(m->lines);
    *m = (batch_manifest){0};
}

/* ---- one line ------------------------------------------------------------------------------ */

/* What a field's reader needs: the item, the manifest's directory and where the message goes. */
typedef struct parse_context {
    batch_item *item;
    const char *dir;
    char *why;
    size_t why_size;
    bool camera_given, view_given, index_given, look_from_given, look_at_given, up_given, fov_given;
} parse_context;

/* "line N: <field>: <reason>"; returns false so readers can `return fail(...)`. */
__attribute__((format(printf, 2, 3))) static bool fail(parse_context *c, const char *fmt, ...) {
    int n = snprintf(c->why, c->why_size, "line %u: ", c->item->line);
    va_list args;
    va_start(args, fmt);
    if (n >= 0 && (size_t)n < c->why_size) vsnprintf(c->why + n, c->why_size - (size_t)n, fmt, args);
    va_end(args);
    return false;
}

/* The value as the manifest spelled it, compact and cut to a readable length, for "got ...". */
static const char *shown(const json_t *value, char *out, size_t size) {
    char *text = json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(9));
    if (!text) return "?";
    if (strlen(text) > 40) snprintf(out, size, "%.37s...", text);
    else snprintf(out, size, "%s", text);
    free(text);
    return out;
}

static bool wrong(parse_context *c, const char *field, const char *wants, const json_t *value) {
    char got[48];
    return fail(c, "%s: wants %s, got %s", field, wants, shown(value, got, sizeof got));
}

/* A number that fits a float, finite. */
static bool read_float(parse_context *c, const char *field, const json_t *value, const char *wants, float *out) {
    double d = json_is_number(value) ? json_number_value(value) : NAN;
    if (!isfinite(d) || !isfinite((float)d)) return wrong(c, field, wants, value);
    *out = (float)d;
    return true;
}

static bool read_positive(parse_context *c, const char *field, const json_t *value, float *out) {
    float f = 0.0f;
    if (!read_float(c, field, value, "a positive number", &f)) return false;
    if (!(f > 0.0f)) return wrong(c, field, "a positive number", value);
    *out = f;
    return true;
}

static bool read_bool(parse_context *c, const char *field, const json_t *value, bool *out) {
    if (!json_is_boolean(value)) return wrong(c, field, "true or false", value);
    *out = json_is_true(value);
    return true;
}

static bool read_vec3(parse_context *c, const char *field, const json_t *value, kiln_vec3 *out) {
    float f[3] = {0};
    if (!json_is_array(value) || json_array_size(value) != 3) return wrong(c, field, "[X, Y, Z]", value);
    for (size_t i = 0; i < 3; i++) {
        double d = json_is_number(json_array_get(value, i)) ? json_number_value(json_array_get(value, i)) : NAN;
        if (!isfinite(d) || !isfinite((float)d)) return wrong(c, field, "[X, Y, Z]", value);
        f[i] = (float)d;
    }
    *out = (kiln_vec3){f[0], f[1], f[2]};
    return true;
}

/* A path, taken from the manifest's directory unless absolute. */
static bool read_path(parse_context *c, const char *field, const json_t *value, char *out) {
    const char *text = json_string_value(value);
    if (!text || !*text) return wrong(c, field, "a non-empty string", value);
    int n = text[0] == '/' ? snprintf(out, BATCH_PATH_MAX, "%s", text)
                           : snprintf(out, BATCH_PATH_MAX, "%s/%s", c->dir, text);
    if (n < 0 || n >= BATCH_PATH_MAX) return fail(c, "%s: the path is longer than %d bytes", field, BATCH_PATH_MAX - 1);
    return true;
}

/* A field of one object: its name and its reader. */
typedef struct field_reader {
    const char *name;
    bool (*read)(parse_context *c, const char *field, const json_t *value);
} field_reader;

/* Reads every member of object through table; a name the table lacks is refused. `prefix` is
 * the object's name in messages ("settings."), empty for the line itself. */
static bool read_object(parse_context *c, const char *prefix, const json_t *object, const field_reader *table, size_t count) {
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)object, key, value) {
        char field[96];
        snprintf(field, sizeof field, "%s%s", prefix, key);
        size_t i = 0;
        while (i < count && strcmp(table[i].name, key)) i++;
        if (i == count) return fail(c, "unknown field \"%s\"", field);
        if (!table[i].read(c, field, value)) return false;
    }
    return true;
}

/* ---- the line's fields --------------------------------------------------------------------- */

static bool read_model(parse_context *c, const char *f, const json_t *v) { return read_path(c, f, v, c->item->model); }
static bool read_env(parse_context *c, const char *f, const json_t *v) { return read_path(c, f, v, c->item->env); }
static bool read_lut(parse_context *c, const char *f, const json_t *v) { return read_path(c, f, v, c->item->lut); }

static bool read_out(parse_context *c, const char *f, const json_t *v) {
    const char *text = json_string_value(v);
    size_t n = text ? strlen(text) : 0;
    if (n < 5 || strcmp(text + n - 4, ".png")) return wrong(c, f, "a path ending in .png", v);
    return read_path(c, f, v, c->item->out);
}

static bool read_size(parse_context *c, const char *f, const json_t *v) {
    const char *wants = "[W, H], two integers in 1..8192";
    if (!json_is_array(v) || json_array_size(v) != 2) return wrong(c, f, wants, v);
    json_int_t dims[2];
    for (size_t i = 0; i < 2; i++) {
        const json_t *d = json_array_get(v, i);
        if (!json_is_integer(d) || (dims[i] = json_integer_value(d)) < 1 || dims[i] > 8192) return wrong(c, f, wants, v);
    }
    c->item->width = (uint32_t)dims[0];
    c->item->height = (uint32_t)dims[1];
    return true;
}

static bool read_time(parse_context *c, const char *f, const json_t *v) {
    const char *wants = "a finite number of seconds >= 0";
    if (!read_float(c, f, v, wants, &c->item->time)) return false;
    return c->item->time >= 0.0f || wrong(c, f, wants, v);
}

static bool read_env_rotation(parse_context *c, const char *f, const json_t *v) {
    return read_float(c, f, v, "radians", &c->item->env_rotation);
}

static bool read_sun(parse_context *c, const char *f, const json_t *v) {
    c->item->sun_given = true;
    return read_vec3(c, f, v, &c->item->sun);
}
static bool read_sun_lux(parse_context *c, const char *f, const json_t *v) { return read_positive(c, f, v, &c->item->sun_lux); }
static bool read_no_sun(parse_context *c, const char *f, const json_t *v) { return read_bool(c, f, v, &c->item->no_sun); }

static bool read_fov_y(parse_context *c, const char *f, const json_t *v) {
    c->fov_given = true;
    if (!read_float(c, f, v, "radians in (0, pi)", &c->item->fov_y)) return false;
    return (c->item->fov_y > 0.0f && c->item->fov_y < 3.1415926f) || wrong(c, f, "radians in (0, pi)", v);
}

/* ---- "camera" ---- */

static bool read_camera_index(parse_context *c, const char *f, const json_t *v) {
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > UINT32_MAX) return wrong(c, f, "an index", v);
    c->item->camera_index = (uint32_t)json_integer_value(v);
    c->index_given = true;
    return true;
}
static bool read_look_from(parse_context *c, const char *f, const json_t *v) {
    c->look_from_given = true;
    return read_vec3(c, f, v, &c->item->look_from);
}
static bool read_look_at(parse_context *c, const char *f, const json_t *v) {
    c->look_at_given = true;
    return read_vec3(c, f, v, &c->item->look_at);
}
static bool read_up(parse_context *c, const char *f, const json_t *v) {
    c->up_given = true;
    return read_vec3(c, f, v, &c->item->up);
}

static const field_reader camera_fields[] = {
    {"index", read_camera_index}, {"look_from", read_look_from}, {"look_at", read_look_at},
    {"up", read_up},              {"fov_y", read_fov_y},
};

static bool read_camera(parse_context *c, const char *f, const json_t *v) {
    if (!json_is_object(v)) return wrong(c, f, "an object", v);
    c->camera_given = true;
    if (!read_object(c, "camera.", v, camera_fields, sizeof camera_fields / sizeof camera_fields[0])) return false;
    if (c->index_given && (c->look_from_given || c->look_at_given || c->up_given || c->fov_given))
        return fail(c, "camera: \"index\" is exclusive with \"look_from\", \"look_at\", \"up\" and \"fov_y\"");
    if (!c->index_given && !(c->look_from_given && c->look_at_given))
        return fail(c, "camera: wants \"index\", or \"look_from\" and \"look_at\"");
    c->item->camera = c->index_given ? BATCH_CAMERA_FILE : BATCH_CAMERA_LOOK_AT;
    return true;
}

/* ---- "view" ---- */

static bool read_azimuth(parse_context *c, const char *f, const json_t *v) { return read_float(c, f, v, "radians", &c->item->azimuth); }
static bool read_elevation(parse_context *c, const char *f, const json_t *v) {
    const char *wants = "radians in (-pi/2, pi/2)";
    if (!read_float(c, f, v, wants, &c->item->elevation)) return false;
    return fabsf(c->item->elevation) < 1.5707963f || wrong(c, f, wants, v);
}
static bool read_distance_scale(parse_context *c, const char *f, const json_t *v) {
    return read_positive(c, f, v, &c->item->distance_scale);
}

static const field_reader view_fields[] = {
    {"azimuth", read_azimuth}, {"elevation", read_elevation}, {"distance_scale", read_distance_scale}, {"fov_y", read_fov_y},
};

static bool read_view(parse_context *c, const char *f, const json_t *v) {
    if (!json_is_object(v)) return wrong(c, f, "an object", v);
    c->view_given = true;
    c->item->camera = BATCH_CAMERA_VIEW;
    return read_object(c, "view.", v, view_fields, sizeof view_fields / sizeof view_fields[0]);
}

/* ---- the render settings: the library's table (kiln/render/settings_table.h) ---- */

/* `value`'s JSON text into out, NUL-terminated; false when it does not fit. */
static bool dump_into(const json_t *value, char *out, size_t size) {
    size_t n = json_dumpb(value, out, size - 1, JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
    if (n == 0 || n > size - 1) return false;
    out[n] = '\0';
    return true;
}

/* The value as the table reads it from text: a string's contents, an array's items joined by
 * commas ([R, G, B] as "R,G,B"), any other value as its JSON (true, 0.5); false when it does
 * not fit in size. */
static bool setting_text(const json_t *value, char *out, size_t size) {
    if (json_is_string(value)) return (size_t)snprintf(out, size, "%s", json_string_value(value)) < size;
    if (!json_is_array(value)) return dump_into(value, out, size);
    out[0] = '\0';
    for (size_t i = 0, n = 0; i < json_array_size(value); i++, n = strlen(out)) {
        if (i && n + 1 < size) out[n++] = ',', out[n] = '\0';
        if (n + 1 >= size || !dump_into(json_array_get(value, i), out + n, size - n)) return false;
    }
    return true;
}

static bool all_numbers(const json_t *array, size_t count) {
    if (!json_is_array(array) || json_array_size(array) != count) return false;
    for (size_t i = 0; i < count; i++)
        if (!json_is_number(json_array_get(array, i))) return false;
    return true;
}

/* What JSON a row's value is written as, or NULL when `value` is of that kind: a switch a
 * boolean, a number a number, a name a string, a per-channel row a number or [R, G, B], the
 * background a name or [R, G, B]. */
static const char *json_kind_wanted(const kiln_render_setting *row, const json_t *value) {
    switch (row->type) {
    case KILN_SETTING_SWITCH: return json_is_boolean(value) ? NULL : "true or false";
    case KILN_SETTING_UINT:
    case KILN_SETTING_FLOAT: return json_is_number(value) ? NULL : "a number";
    case KILN_SETTING_ENUM: return json_is_string(value) ? NULL : "a name";
    case KILN_SETTING_VEC3: return json_is_number(value) || all_numbers(value, 3) ? NULL : "a number or [R, G, B]";
    case KILN_SETTING_BACKGROUND:
        return json_is_string(value) || all_numbers(value, 3) ? NULL : "\"sky\", \"transparent\" or [R, G, B]";
    }
    return "a value";
}

/* `key` of the settings table set from `value`, refused in the table's words behind the field's
 * path ("line 3: settings.msaa: 2 is not one of 1|4"); a value of the wrong JSON kind is refused
 * first ("settings.fxaa: wants true or false, got \"true\""). Keys are the rows' keys, never their
 * flags. */
static bool read_setting(parse_context *c, const char *field, const char *key, const json_t *value) {
    const kiln_render_setting *row = strncmp(key, "--", 2) ? kiln_render_setting_find(key) : NULL;
    if (!row) return fail(c, "unknown field \"%s\"", field);
    const char *wants = json_kind_wanted(row, value);
    if (wants) return wrong(c, field, wants, value);
    if (row->at_creation) return fail(c, "%s: is read when the renderer is made, not per item", field);
    char text[256], got[48];
    if (!setting_text(value, text, sizeof text)) return fail(c, "%s: %s is too long", field, shown(value, got, sizeof got));
    kiln_error err = {0};
    return kiln_render_setting_set(row, &c->item->settings, text, field, &err) || fail(c, "%s", err.message);
}

/* "tonemap" and "exposure" on the line itself, as kiln-render's first flags. */
static bool read_line_setting(parse_context *c, const char *f, const json_t *v) { return read_setting(c, f, f, v); }

static bool read_settings(parse_context *c, const char *f, const json_t *v) {
    if (!json_is_object(v)) return wrong(c, f, "an object", v);
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)v, key, value) {
        char field[96];
        snprintf(field, sizeof field, "settings.%s", key);
        if (!read_setting(c, field, key, value)) return false;
    }
    return true;
}

/* ---- "outputs" ---- */

static const struct {
    const char *name;
    unsigned bit;
} output_names[] = {{"color", BATCH_OUTPUT_COLOR}, {"normals", BATCH_OUTPUT_NORMALS}, {"depth", BATCH_OUTPUT_DEPTH},
                    {"mask", BATCH_OUTPUT_MASK}};

const unsigned batch_outputs[BATCH_OUTPUT_KINDS] = {BATCH_OUTPUT_COLOR, BATCH_OUTPUT_NORMALS, BATCH_OUTPUT_DEPTH,
                                                    BATCH_OUTPUT_MASK};

const char *batch_output_name(unsigned output) {
    for (size_t i = 0; i < sizeof output_names / sizeof output_names[0]; i++)
        if (output_names[i].bit == output) return output_names[i].name;
    return NULL;
}

static bool read_outputs(parse_context *c, const char *f, const json_t *v) {
    if (!json_is_array(v) || !json_array_size(v)) return wrong(c, f, "a non-empty array of output names", v);
    unsigned bits = 0;
    for (size_t i = 0; i < json_array_size(v); i++) {
        const char *name = json_string_value(json_array_get(v, i));
        size_t k = 0;
        while (name && k < sizeof output_names / sizeof output_names[0] && strcmp(output_names[k].name, name)) k++;
        char got[48];
        if (!name || k == sizeof output_names / sizeof output_names[0])
            return fail(c, "%s[%zu]: wants color, normals, depth or mask, got %s", f, i, shown(json_array_get(v, i), got, sizeof got));
        if (bits & output_names[k].bit) return fail(c, "%s[%zu]: %s is listed twice", f, i, name);
        bits |= output_names[k].bit;
    }
    c->item->outputs = bits;
    return true;
}

static const field_reader line_fields[] = {
    {"model", read_model},       {"out", read_out},         {"size", read_size},
    {"camera", read_camera},     {"view", read_view},       {"time", read_time},
    {"env", read_env},           {"env_rotation", read_env_rotation}, {"lut", read_lut},
    {"tonemap", read_line_setting}, {"exposure", read_line_setting}, {"settings", read_settings},
    {"outputs", read_outputs},   {"sun", read_sun},         {"sun_lux", read_sun_lux},
    {"no_sun", read_no_sun},
};

static const char *json_type_name(const json_t *v) {
    switch (json_typeof(v)) {
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    default: return "an object";
    }
}

bool batch_item_parse(const batch_line *line, const char *dir, batch_item *item, char *why, size_t why_size) {
    *item = (batch_item){.line = line->number, .width = 1280, .height = 720, .up = {0, 1, 0},
                         .azimuth = KILN_IMPORT_FRAME_AZIMUTH, .elevation = KILN_IMPORT_FRAME_ELEVATION,
                         .distance_scale = 1.0f, .outputs = BATCH_OUTPUT_COLOR};
    parse_context c = {.item = item, .dir = dir, .why = why, .why_size = why_size};
    json_error_t jerr;
    json_t *root = json_loadb(line->text, line->length, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (!root) return fail(&c, "JSON: column %d: %s", jerr.column, jerr.text);
    bool ok = json_is_object(root) || fail(&c, "wants a JSON object, got %s", json_type_name(root));
    ok = ok && read_object(&c, "", root, line_fields, sizeof line_fields / sizeof line_fields[0]);
    if (ok && !json_object_get(root, "model")) ok = fail(&c, "missing \"model\"");
    if (ok && !json_object_get(root, "out")) ok = fail(&c, "missing \"out\"");
    if (ok && c.camera_given && c.view_given) ok = fail(&c, "\"camera\" and \"view\" are exclusive");
    if (ok && item->no_sun && (item->sun_given || item->sun_lux > 0.0f))
        ok = fail(&c, "\"no_sun\" is exclusive with \"sun\" and \"sun_lux\"");
    json_decref(root);
    return ok;
}

bool batch_item_output_path(const batch_item *item, unsigned output, char *path, size_t size) {
    int n = output == BATCH_OUTPUT_COLOR
                ? snprintf(path, size, "%s", item->out)
                : snprintf(path, size, "%.*s.%s.%s", (int)(strlen(item->out) - 4), item->out, batch_output_name(output),
                           output == BATCH_OUTPUT_DEPTH ? "pfm" : "png");
    return n >= 0 && (size_t)n < size;
}

/* One item's output path and where the item is, sorted to find repeats. */
typedef struct output_entry {
    char *out;
    uint32_t index;
} output_entry;

static int compare_outputs(const void *a, const void *b) {
    const output_entry *x = a, *y = b;
    int c = strcmp(x->out, y->out);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

bool batch_manifest_find_repeated_outputs(const batch_manifest *m, uint32_t *earlier_line, char *why, size_t why_size) {
    memset(earlier_line, 0, m->line_count * sizeof *earlier_line);
    output_entry *entries = calloc(m->line_count ? m->line_count : 1, sizeof *entries);
    static batch_item item;
    char ignored[512];
    uint32_t count = 0;
    bool ok = entries != NULL;
    for (uint32_t i = 0; ok && i < m->line_count; i++) {
        if (!batch_item_parse(&m->lines[i], m->dir, &item, ignored, sizeof ignored)) continue;
        ok = (entries[count].out = strdup(item.out)) != NULL;
        entries[count++].index = i;
    }
    if (ok) {
        qsort(entries, count, sizeof *entries, compare_outputs);
        /* Within a run of one path the entries are in manifest order: the first is the earliest. */
        for (uint32_t k = 1, first = 0; k < count; k++) {
            if (strcmp(entries[k].out, entries[first].out)) first = k;
            else earlier_line[entries[k].index] = m->lines[entries[first].index].number;
        }
    }
    for (uint32_t k = 0; entries && k < count; k++) free(entries[k].out);
    free(entries);
    if (!ok) snprintf(why, why_size, "out of memory for the outputs of %u lines", m->line_count);
    return ok;
}
