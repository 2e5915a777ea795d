/* The field readers of the JSON decoder (json_fields.h).
 *
 * Enums are externally tagged, as the spec's JSON writes them: a form without a payload is a string
 * ("Full", "Texel"), a form with one is an object of exactly one key ({"Binding": {"index": 0}}).
 * The form names are program_forms.c's tables. */
#include "json_fields.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <kiln/core/base64.h>
#include <kiln/core/utf8.h>

#include "program_layout.h"

/* ---- errors and paths ------------------------------------------------------------------------- */

bool kiln_json_error_set(kiln_json_error *err, const char *cls, const char *fmt, ...) {
    if (!err) return false;
    snprintf(err->cls, sizeof err->cls, "%s", cls);
    va_list args;
    va_start(args, fmt);
    kiln_utf8_vformat(err->message, sizeof err->message, fmt, args);
    va_end(args);
    return false;
}

const char *msg_type_name(const json_t *v) {
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a real number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "an unknown value";
}

/* "passes[0]" + "entry_point" -> "passes[0].entry_point"; a top-level field is its bare name. */
/* Paths longer than PATH_MAX_CHARS are cut short: they only ever appear in messages. */
void msg_path_field(char out[PATH_MAX_CHARS], const char *path, const char *name) {
    int n = (path && *path) ? snprintf(out, PATH_MAX_CHARS, "%s.%s", path, name)
                            : snprintf(out, PATH_MAX_CHARS, "%s", name);
    if (n < 0) out[0] = '\0';
}

void msg_path_index(char out[PATH_MAX_CHARS], const char *path, size_t i) {
    if (snprintf(out, PATH_MAX_CHARS, "%s[%zu]", path, i) < 0) out[0] = '\0';
}

/* ---- scalar fields ---------------------------------------------------------------------------- */

/* The field's value: NULL and true when an optional field is absent or null. */
bool msg_field(const json_t *obj, const char *path, const char *name, bool required, json_t **out,
               kiln_json_error *err) {
    json_t *v = json_object_get(obj, name);
    if (!v || (!required && json_is_null(v))) {
        *out = NULL;
        if (!required) return true;
        char fp[PATH_MAX_CHARS];
        msg_path_field(fp, path, name);
        return BAD(err, "%s: missing required field", fp);
    }
    *out = v;
    return true;
}

bool msg_as_u32(const json_t *v, const char *fp, uint32_t *out, kiln_json_error *err) {
    if (!json_is_integer(v)) return BAD(err, "%s: expected an unsigned 32-bit integer, got %s", fp, msg_type_name(v));
    json_int_t n = json_integer_value(v);
    if (n < 0 || n > (json_int_t)UINT32_MAX)
        return BAD(err, "%s: expected an unsigned 32-bit integer, got %lld", fp, (long long)n);
    *out = (uint32_t)n;
    return true;
}

static bool as_string(const json_t *v, const char *fp, const char **out, kiln_json_error *err) {
    if (!json_is_string(v)) return BAD(err, "%s: expected a string, got %s", fp, msg_type_name(v));
    *out = json_string_value(v);
    return true;
}

bool msg_as_array(const json_t *v, const char *fp, kiln_json_error *err) {
    return json_is_array(v) || BAD(err, "%s: expected an array, got %s", fp, msg_type_name(v));
}

bool msg_as_object(const json_t *v, const char *fp, kiln_json_error *err) {
    return json_is_object(v) || BAD(err, "%s: expected an object, got %s", fp, msg_type_name(v));
}

bool msg_field_u32(const json_t *obj, const char *path, const char *name, uint32_t *out, kiln_json_error *err) {
    json_t *v;
    char fp[PATH_MAX_CHARS];
    msg_path_field(fp, path, name);
    return msg_field(obj, path, name, true, &v, err) && msg_as_u32(v, fp, out, err);
}

bool msg_field_string(const json_t *obj, const char *path, const char *name, const char **out, kiln_json_error *err) {
    json_t *v;
    char fp[PATH_MAX_CHARS];
    msg_path_field(fp, path, name);
    return msg_field(obj, path, name, true, &v, err) && as_string(v, fp, out, err);
}

/* An optional string: NULL when absent or null. */
bool msg_field_optional_string(const json_t *obj, const char *path, const char *name, const char **out,
                               kiln_json_error *err) {
    json_t *v;
    char fp[PATH_MAX_CHARS];
    msg_path_field(fp, path, name);
    *out = NULL;
    return msg_field(obj, path, name, false, &v, err) && (!v || as_string(v, fp, out, err));
}

bool msg_field_array(const json_t *obj, const char *path, const char *name, json_t **out, kiln_json_error *err) {
    char fp[PATH_MAX_CHARS];
    msg_path_field(fp, path, name);
    return msg_field(obj, path, name, true, out, err) && msg_as_array(*out, fp, err);
}

bool kiln_json_decode_u32_field(const json_t *message, const char *name, uint32_t *out, kiln_json_error *err) {
    return msg_field_u32(message, "", name, out, err);
}

/* ---- enum forms ------------------------------------------------------------------------------- */

/* Splits an externally tagged value into its form name and payload (NULL for a string form). */
static bool enum_split(const json_t *v, const char *fp, const char *what, const char **name, json_t **payload,
                       kiln_json_error *err) {
    if (json_is_string(v)) {
        *name = json_string_value(v);
        *payload = NULL;
        return true;
    }
    if (!json_is_object(v))
        return BAD(err, "%s: expected %s form (a string or an object of one key), got %s", fp, what, msg_type_name(v));
    if (json_object_size(v) != 1)
        return BAD(err, "%s: %s form is an object of exactly one key, got %zu keys", fp, what, json_object_size(v));
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)v, key, value) {
        *name = key;
        *payload = value;
    }
    return true;
}

/* Checks that form `name` was written with a payload exactly when it takes one. */
static bool payload_matches(const char *fp, const char *what, const char *name, const json_t *payload, bool takes,
                            kiln_json_error *err) {
    if (takes && !payload)
        return BAD(err, "%s: the %s form \"%s\" takes a payload: {\"%s\": ...}", fp, what, name, name);
    if (!takes && payload)
        return BAD(err, "%s: the %s form \"%s\" is written as the string \"%s\"", fp, what, name, name);
    return true;
}

/* One of e's forms: *value is its C value and *payload its payload (NULL for a string form). */
bool msg_decode_form(const json_t *v, const char *fp, const program_enum *e, int *value, json_t **payload,
                     kiln_json_error *err) {
    const char *name = NULL;
    if (!enum_split(v, fp, e->what, &name, payload, err)) return false;
    int i = program_form_find(e, name);
    if (i < 0) return BAD(err, "%s: unknown %s form \"%s\"", fp, e->what, name);
    if (!payload_matches(fp, e->what, name, *payload, e->forms[i].payload, err)) return false;
    *value = i;
    return true;
}

/* A required field holding one of e's forms, all of them written as strings. */
bool msg_field_unit_enum(const json_t *obj, const char *path, const char *name, const program_enum *e, int *out,
                         kiln_json_error *err) {
    json_t *v, *payload;
    char fp[PATH_MAX_CHARS];
    msg_path_field(fp, path, name);
    return msg_field(obj, path, name, true, &v, err) && msg_decode_form(v, fp, e, out, &payload, err);
}

/* The path of a form's payload: "bindings[0].shape" + "Target". */
void msg_path_payload(char out[PATH_MAX_CHARS], const char *fp, const program_enum *e, int value) {
    msg_path_field(out, fp, e->forms[value].name);
}

bool msg_field_format(const json_t *obj, const char *path, kiln_texture_format *out, kiln_json_error *err) {
    json_t *v;
    const char *name = NULL;
    char fp[PATH_MAX_CHARS];
    msg_path_field(fp, path, "format");
    if (!msg_field(obj, path, "format", true, &v, err) || !as_string(v, fp, &name, err)) return false;
    return kiln_texture_format_from_name(name, out) || BAD(err, "%s: unknown format \"%s\"", fp, name);
}

/* "Full" or {"Divided": {"divisor": N}}. A zero divisor decodes; register refuses it by class. */
bool msg_decode_extent(const json_t *v, const char *fp, kiln_slot_extent *out, kiln_json_error *err) {
    int form;
    json_t *payload;
    char pp[PATH_MAX_CHARS];
    if (!msg_decode_form(v, fp, &PROGRAM_EXTENTS, &form, &payload, err)) return false;
    *out = (kiln_slot_extent){.divided = form == PROGRAM_EXTENT_DIVIDED};
    if (!out->divided) return true;
    msg_path_payload(pp, fp, &PROGRAM_EXTENTS, form);
    return msg_as_object(payload, pp, err) && msg_field_u32(payload, pp, "divisor", &out->divisor, err);
}

bool msg_decode_shape(const json_t *v, const char *fp, kiln_slot_shape *out, kiln_json_error *err) {
    int form;
    json_t *payload;
    char pp[PATH_MAX_CHARS];
    if (!msg_decode_form(v, fp, &PROGRAM_SHAPES, &form, &payload, err)) return false;
    *out = (kiln_slot_shape){.kind = (kiln_slot_shape_kind)form};
    if (out->kind != KILN_SHAPE_TARGET) return true;
    msg_path_payload(pp, fp, &PROGRAM_SHAPES, form);
    return msg_decode_extent(payload, pp, &out->extent, err);
}

bool msg_decode_sampling(const json_t *v, const char *fp, kiln_slot_sampling *out, kiln_json_error *err) {
    int form, wrap, mip;
    json_t *payload;
    char pp[PATH_MAX_CHARS];
    if (!msg_decode_form(v, fp, &PROGRAM_SAMPLINGS, &form, &payload, err)) return false;
    *out = (kiln_slot_sampling){.texel = form == PROGRAM_SAMPLING_TEXEL};
    if (out->texel) return true;
    msg_path_payload(pp, fp, &PROGRAM_SAMPLINGS, form);
    if (!msg_as_object(payload, pp, err) || !msg_field_unit_enum(payload, pp, "wrap", &PROGRAM_WRAPS, &wrap, err) ||
        !msg_field_unit_enum(payload, pp, "mips", &PROGRAM_MIPS, &mip, err))
        return false;
    out->wrap = (kiln_wrap)wrap;
    out->mips = (kiln_mips)mip;
    return true;
}

/* ---- blobs ------------------------------------------------------------------------------------ */

static bool decode_base64(const char *text, size_t length, const char *fp, kiln_json_blob *out, kiln_json_error *err) {
    kiln_error e;
    if (!kiln_base64_decode(text, length, &out->bytes, &out->size, &e))
        return kiln_json_error_set(err, e.code == KILN_ERR_OUT_OF_MEMORY ? "out_of_memory" : "bad_message", "%s: %s",
                                   fp, e.message);
    return true;
}

static bool decode_byte_array(const json_t *v, const char *fp, kiln_json_blob *out, kiln_json_error *err) {
    size_t size = json_array_size(v);
    uint8_t *bytes = size ? malloc(size) : NULL;
    if (size && !bytes) return kiln_json_error_set(err, "out_of_memory", "%s: %zu bytes", fp, size);
    for (size_t i = 0; i < size; i++) {
        const json_t *e = json_array_get(v, i);
        json_int_t n = json_is_integer(e) ? json_integer_value(e) : -1;
        if (n < 0 || n > 255) {
            free(bytes);
            if (json_is_integer(e)) return BAD(err, "%s[%zu]: expected a byte 0..255, got %lld", fp, i, (long long)n);
            return BAD(err, "%s[%zu]: expected a byte 0..255, got %s", fp, i, msg_type_name(e));
        }
        bytes[i] = (uint8_t)n;
    }
    *out = (kiln_json_blob){bytes, size};
    return true;
}

bool kiln_json_decode_blob(const json_t *value, const char *path, kiln_json_blob *out, kiln_json_error *err) {
    *out = (kiln_json_blob){0};
    if (json_is_string(value))
        return decode_base64(json_string_value(value), json_string_length(value), path, out, err);
    if (json_is_array(value)) return decode_byte_array(value, path, out, err);
    return BAD(err, "%s: expected a blob (an array of bytes 0..255 or a base64 string), got %s", path,
               value ? msg_type_name(value) : "nothing");
}

void kiln_json_blob_free(kiln_json_blob *blob) {
    if (!blob) return;
    free(blob->bytes);
    *blob = (kiln_json_blob){0};
}

char *kiln_json_base64_encode(const void *bytes, size_t size) { return kiln_base64_encode(bytes, size); }

/* ---- blob, layout and list fields ------------------------------------------------------------- */

/* A required blob field; an empty blob points at "" so the registry refuses its length rather than
 * reading it as absent. */
bool msg_field_blob(const json_t *message, const char *name, kiln_json_blob *blob, const void **bytes,
                    kiln_json_error *err) {
    json_t *v;
    if (!msg_field(message, "", name, true, &v, err) || !kiln_json_decode_blob(v, name, blob, err)) return false;
    *bytes = blob->bytes ? (const void *)blob->bytes : (const void *)"";
    return true;
}

/* [{"location", "format"}, ...]. A list longer than a layout holds keeps its length, so register
 * and create refuse it by class; the attributes past the cap are not read. */
bool msg_decode_layout(const json_t *v, const char *fp, kiln_geometry_layout *out, kiln_json_error *err) {
    *out = (kiln_geometry_layout){0};
    if (!msg_as_array(v, fp, err)) return false;
    size_t n = json_array_size(v);
    out->attribute_count = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
    for (size_t i = 0; i < n && i < KILN_PROGRAM_MAX_ATTRIBUTES; i++) {
        char ap[PATH_MAX_CHARS], fmt[PATH_MAX_CHARS];
        const json_t *a = json_array_get(v, i);
        const char *name = NULL;
        msg_path_index(ap, fp, i);
        msg_path_field(fmt, ap, "format");
        if (!msg_as_object(a, ap, err) || !msg_field_u32(a, ap, "location", &out->attributes[i].location, err) ||
            !msg_field_string(a, ap, "format", &name, err))
            return false;
        if (!program_vertex_format_find(name, &out->attributes[i].format))
            return BAD(err, "%s: unknown vertex format \"%s\"", fmt, name);
    }
    return true;
}

bool msg_field_layout(const json_t *obj, const char *path, const char *name, kiln_geometry_layout *out,
                      kiln_json_error *err) {
    json_t *v;
    char fp[PATH_MAX_CHARS];
    msg_path_field(fp, path, name);
    return msg_field(obj, path, name, true, &v, err) && msg_decode_layout(v, fp, out, err);
}

bool msg_decode_list(const json_t *message, const char *name, size_t size, element_decoder decode, void **out,
                     uint32_t *count, kiln_json_error *err) {
    json_t *list;
    *out = NULL;
    if (!msg_field_array(message, "", name, &list, err)) return false;
    *count = (uint32_t)json_array_size(list);
    uint8_t *items = calloc(*count ? *count : 1, size);
    if (!items) return kiln_json_error_set(err, "out_of_memory", "%s: %u elements", name, *count);
    for (uint32_t i = 0; i < *count; i++) {
        char fp[PATH_MAX_CHARS];
        msg_path_index(fp, name, i);
        if (!decode(json_array_get(list, i), fp, items + i * size, err)) {
            free(items);
            return false;
        }
    }
    *out = items;
    return true;
}
