/* Checked reads of glTF JSON members: each getter checks the member's type and range and fails
 * naming "<path>.<key>", so no step of the loader looks at an unchecked json_t. */
#include <kiln/core/utf8.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

bool gltf_fail(gltf_load *L, int code, const char *fmt, ...) {
    char text[448];
    va_list args;
    va_start(args, fmt);
    kiln_utf8_vformat(text, sizeof text, fmt, args);
    va_end(args);
    return kiln_error_set(L->err, code, "%s: %s", L->name, text);
}

bool gltf_warn(gltf_load *L, const char *fmt, ...) {
    char text[448];
    va_list args;
    va_start(args, fmt);
    kiln_utf8_vformat(text, sizeof text, fmt, args);
    va_end(args);
    kiln_gltf *doc = L->doc;
    char **grown = kiln_array_reserve(doc->warnings, &L->warning_capacity, doc->warning_count + 1,
                                      sizeof *grown);
    char *copy = gltf_strdup(text);
    if (!grown || !copy) {
        free(copy);
        return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "out of memory for warnings");
    }
    doc->warnings = grown;
    doc->warnings[doc->warning_count++] = copy;
    return true;
}

char *gltf_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *copy = malloc(n);
    if (copy) memcpy(copy, s, n);
    return copy;
}

json_t *gltf_array(gltf_load *L, json_t *obj, const char *path, const char *key, bool *ok) {
    json_t *v = json_object_get(obj, key);
    *ok = true;
    if (v && !json_is_array(v)) {
        *ok = false;
        gltf_fail(L, KILN_ERR_FORMAT, "%s%s%s: is not an array", path, *path ? "." : "", key);
        return NULL;
    }
    return v;
}

json_t *gltf_object(gltf_load *L, json_t *obj, const char *path, const char *key, bool *ok) {
    json_t *v = json_object_get(obj, key);
    *ok = true;
    if (v && !json_is_object(v)) {
        *ok = false;
        gltf_fail(L, KILN_ERR_FORMAT, "%s%s%s: is not an object", path, *path ? "." : "", key);
        return NULL;
    }
    return v;
}

bool gltf_uint(gltf_load *L, json_t *obj, const char *path, const char *key, bool required,
               uint64_t fallback, uint64_t max, uint64_t *out) {
    json_t *v = json_object_get(obj, key);
    *out = fallback;
    if (!v) {
        if (required) return gltf_fail(L, KILN_ERR_FORMAT, "%s%s%s: is required", path, *path ? "." : "", key);
        return true;
    }
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s%s%s: is not a non-negative integer", path, *path ? "." : "", key);
    uint64_t value = (uint64_t)json_integer_value(v);
    if (value > max)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s%s%s: %llu is too large (at most %llu)", path, *path ? "." : "", key,
                         (unsigned long long)value, (unsigned long long)max);
    *out = value;
    return true;
}

bool gltf_index(gltf_load *L, json_t *obj, const char *path, const char *key, bool required,
                uint32_t count, const char *what, int32_t *out) {
    json_t *v = json_object_get(obj, key);
    *out = -1;
    if (!v) {
        if (required) return gltf_fail(L, KILN_ERR_FORMAT, "%s%s%s: is required", path, *path ? "." : "", key);
        return true;
    }
    if (!json_is_integer(v))
        return gltf_fail(L, KILN_ERR_FORMAT, "%s%s%s: is not an index", path, *path ? "." : "", key);
    json_int_t value = json_integer_value(v);
    if (value < 0 || value >= (json_int_t)count)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s%s%s: %lld is out of range (%u %s)", path, *path ? "." : "", key,
                         (long long)value, count, what);
    *out = (int32_t)value;
    return true;
}

bool gltf_number(gltf_load *L, json_t *obj, const char *path, const char *key, double fallback,
                 float *out) {
    json_t *v = json_object_get(obj, key);
    *out = (float)fallback;
    if (!v) return true;
    if (!json_is_number(v) || !isfinite((float)json_number_value(v)))
        return gltf_fail(L, KILN_ERR_FORMAT, "%s%s%s: is not a finite number", path, *path ? "." : "", key);
    *out = (float)json_number_value(v);
    return true;
}

bool gltf_numbers(gltf_load *L, json_t *obj, const char *path, const char *key, size_t n, float *out) {
    json_t *v = json_object_get(obj, key);
    if (!v) return true;
    if (!json_is_array(v) || json_array_size(v) != n)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s%s%s: is not an array of %zu numbers", path, *path ? "." : "", key, n);
    for (size_t i = 0; i < n; i++) {
        json_t *item = json_array_get(v, i);
        if (!json_is_number(item) || !isfinite((float)json_number_value(item)))
            return gltf_fail(L, KILN_ERR_FORMAT, "%s.%s[%zu]: is not a finite number", path, key, i);
        out[i] = (float)json_number_value(item);
    }
    return true;
}

bool gltf_string(gltf_load *L, json_t *obj, const char *path, const char *key, const char *fallback,
                 const char **out) {
    json_t *v = json_object_get(obj, key);
    *out = fallback;
    if (!v) return true;
    if (!json_is_string(v))
        return gltf_fail(L, KILN_ERR_FORMAT, "%s%s%s: is not a string", path, *path ? "." : "", key);
    *out = json_string_value(v);
    return true;
}

char *gltf_name(gltf_load *L, json_t *obj, const char *path) {
    const char *name;
    if (!gltf_string(L, obj, path, "name", "", &name)) return NULL;
    char *copy = gltf_strdup(name);
    if (!copy) gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "%s.name: out of memory", path);
    return copy;
}

bool gltf_count(gltf_load *L, const char *key, uint32_t *out) {
    bool ok;
    json_t *a = gltf_array(L, L->root, "", key, &ok);
    *out = a ? (uint32_t)json_array_size(a) : 0;
    return ok;
}

bool gltf_float_array(gltf_load *L, json_t *obj, const char *path, const char *key, uint32_t count,
                      const char *why, float **out) {
    json_t *v = json_object_get(obj, key);
    *out = NULL;
    if (!v) return true;
    if (!json_is_array(v)) return gltf_fail(L, KILN_ERR_FORMAT, "%s.%s: is not an array", path, key);
    if (json_array_size(v) != count)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.%s: %zu %s, but %s", path, key, json_array_size(v), key, why);
    float *values = calloc((size_t)count + 1, sizeof *values);
    if (!values) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "%s.%s: out of memory", path, key);
    for (uint32_t i = 0; i < count; i++) {
        json_t *item = json_array_get(v, i);
        if (!json_is_number(item) || !isfinite((float)json_number_value(item))) {
            free(values);
            return gltf_fail(L, KILN_ERR_FORMAT, "%s.%s[%u]: is not a finite number", path, key, i);
        }
        values[i] = (float)json_number_value(item);
    }
    *out = values;
    return true;
}
