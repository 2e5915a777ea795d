/* Program scripts (program_script.h): the messages of a script sent through the JSON surface,
 * with the script-level additions: wgsl_path, "as" / "$name", typed blobs and save_texture. */
/* realpath is XSI, beyond the POSIX level the build defines. */
#define _XOPEN_SOURCE 700
#include "program_script.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <kiln/core.h>
#include <kiln/shader/library.h>

static const char out_of_memory_reply[] = "{\"Err\":{\"class\":\"out_of_memory\",\"error\":\"out of memory\"}}";

/* max_bytes and what: kiln_read_file_limited's; a script is read up to KILN_READ_FILE_MAX_BYTES,
 * a wgsl_path up to KILN_WGSL_MAX_FILE_BYTES. */
static char *read_file(const char *path, size_t max_bytes, const char *what, size_t *size, char *why, size_t why_size) {
    char *text;
    kiln_error err = {0};
    if (!kiln_read_file_limited(path, max_bytes, what, &text, size, NULL, &err)) {
        /* err reads "<path>: <reason>"; these messages read "cannot read '<path>': <reason>". */
        const char *reason = err.message;
        size_t n = strlen(path);
        if (strncmp(reason, path, n) == 0 && strncmp(reason + n, ": ", 2) == 0) reason += n + 2;
        if (strncmp(reason, "cannot open: ", 13) == 0) reason += 13;
        snprintf(why, why_size, "cannot read '%s': %s", path, reason);
        return NULL;
    }
    return text;
}

/* ---- replies ---------------------------------------------------------------------------------- */

static json_t *err_reply(const char *cls, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static json_t *err_reply(const char *cls, const char *fmt, ...) {
    char message[1024];
    va_list args;
    va_start(args, fmt);
    kiln_utf8_vformat(message, sizeof message, fmt, args);
    va_end(args);
    return json_pack("{s:{s:s,s:s}}", "Err", "class", cls, "error", message);
}

/* The reply's compact text (released); the out-of-memory reply when there is none. */
static char *reply_text(json_t *reply) {
    char *text = reply ? json_dumps(reply, JSON_COMPACT) : NULL;
    json_decref(reply);
    return text ? text : strdup(out_of_memory_reply);
}

/* ---- "as" names ------------------------------------------------------------------------------- */

/* A name "as" gave. When the message that gave it was refused, the name names no id (whatever
 * it named before), and `refused_at` keeps that message's index for the error of a later use. */
struct program_script_name {
    char *name;
    uint32_t id;
    bool refused;
    size_t refused_at;
};


/* Binds name to id, or with `refused` marks it as naming nothing since message `index`. */
static bool bind_name(program_script *s, const char *name, uint32_t id, bool refused, size_t index) {
    program_script_name binding = {NULL, id, refused, index};
    for (size_t i = 0; i < s->name_count; i++) {
        if (strcmp(s->names[i].name, name) == 0) {
            binding.name = s->names[i].name;
            s->names[i] = binding;
            return true;
        }
    }
    program_script_name *grown = realloc(s->names, (s->name_count + 1) * sizeof *grown);
    char *copy = strdup(name);
    if (!grown || !copy) {
        free(copy);
        if (grown) s->names = grown;
        return false;
    }
    s->names = grown;
    binding.name = copy;
    s->names[s->name_count++] = binding;
    return true;
}

/* Replaces a "$name" string with its id; fills why and returns false for an unknown name. */
static bool resolve_value(const program_script *s, json_t *holder, const char *key, size_t index, const char *path,
                          char *why, size_t why_size) {
    json_t *v = key ? json_object_get(holder, key) : json_array_get(holder, index);
    if (!json_is_string(v) || json_string_value(v)[0] != '$') return true;
    const char *name = json_string_value(v) + 1;
    for (size_t i = 0; i < s->name_count; i++) {
        if (strcmp(s->names[i].name, name) != 0) continue;
        if (s->names[i].refused) {
            snprintf(why, why_size, "%s: \"$%s\" names no id: script[%zu], which gave it, was refused", path, name,
                     s->names[i].refused_at);
            return false;
        }
        json_t *id = json_integer(s->names[i].id);
        return key ? json_object_set_new(holder, key, id) == 0 : json_array_set_new(holder, index, id) == 0;
    }
    snprintf(why, why_size, "%s: unknown name \"$%s\" (no earlier message has \"as\": \"%s\")", path, name, name);
    return false;
}

static bool resolve_list(const program_script *s, json_t *list, const char *path, char *why, size_t why_size) {
    for (size_t i = 0; i < json_array_size(list); i++) {
        char ep[256];
        snprintf(ep, sizeof ep, "%s[%zu]", path, i);
        json_t *e = json_array_get(list, i);
        bool ok = json_is_array(e) ? resolve_list(s, e, ep, why, why_size)
                                   : resolve_value(s, list, NULL, i, ep, why, why_size);
        if (!ok) return false;
    }
    return true;
}

static bool resolve_names(const program_script *s, json_t *msg, char *why, size_t why_size) {
    const char *key;
    json_t *value;
    size_t length;
    json_object_foreach(msg, key, value) {
        length = strlen(key);
        bool id_field = length > 3 && strcmp(key + length - 3, "_id") == 0;
        bool id_list = strcmp(key, "bindings") == 0 || strcmp(key, "geometries") == 0 || strcmp(key, "draw_sets") == 0;
        if (id_field && !resolve_value(s, msg, key, 0, key, why, why_size)) return false;
        if (id_list && json_is_array(value) && !resolve_list(s, value, key, why, why_size)) return false;
    }
    return true;
}

/* ---- save_texture ----------------------------------------------------------------------------- */

static bool write_rgba_png(const char *path, uint32_t width, uint32_t height, uint8_t *rgba, char *why, size_t n) {
    kiln_image img = {width, height, KILN_IMAGE_RGBA8, rgba};
    kiln_error err = {0};
    if (kiln_image_write_png(&img, path, &err)) return true;
    snprintf(why, n, "%s", err.message);
    return false;
}

/* The texel's channels as floats: 1 for R32Float / R16Float, 3 (alpha dropped: PFM has no alpha)
 * for Rgba16Float. */
static uint32_t float_channels(kiln_texture_format f) {
    return f == KILN_FORMAT_RGBA16_FLOAT ? 3 : 1;
}

static float texel_channel(kiln_texture_format f, const uint8_t *pixels, size_t texel, uint32_t c) {
    if (f == KILN_FORMAT_R32_FLOAT) {
        float v;
        memcpy(&v, pixels + texel * 4, 4);
        return v;
    }
    uint16_t h;
    memcpy(&h, pixels + texel * kiln_texture_format_bytes(f) + c * 2, 2);
    return kiln_half_to_float(h);
}

/* PFM: "Pf" (grey) or "PF" (RGB), width height, scale -1.0 (little-endian), rows bottom to top. */
static bool write_pfm(const char *path, const kiln_texture_info *info, const uint8_t *pixels, char *why, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(why, n, "cannot write '%s': %s", path, strerror(errno));
        return false;
    }
    uint32_t channels = float_channels(info->format);
    fprintf(f, "%s\n%u %u\n-1.0\n", channels == 3 ? "PF" : "Pf", info->width, info->height);
    for (uint32_t row = info->height; row-- > 0;) {
        for (uint32_t x = 0; x < info->width; x++) {
            for (uint32_t c = 0; c < channels; c++) {
                float v = texel_channel(info->format, pixels, (size_t)row * info->width + x, c);
                uint32_t bits;
                memcpy(&bits, &v, 4);
                uint8_t le[4] = {(uint8_t)bits, (uint8_t)(bits >> 8), (uint8_t)(bits >> 16), (uint8_t)(bits >> 24)};
                fwrite(le, 1, 4, f);
            }
        }
    }
    bool ok = !ferror(f);
    ok = fclose(f) == 0 && ok;
    if (!ok) snprintf(why, n, "cannot write '%s'", path);
    return ok;
}

/* The preview maps the finite range min..max of the written channels onto 0..255 (a constant image
 * is black; +inf is white, -inf and NaN black). */
static bool write_preview(const char *path, const kiln_texture_info *info, const uint8_t *pixels, char *why,
                          size_t n) {
    size_t texels = (size_t)info->width * info->height;
    uint32_t channels = float_channels(info->format);
    float lo = INFINITY, hi = -INFINITY;
    for (size_t t = 0; t < texels; t++) {
        for (uint32_t c = 0; c < channels; c++) {
            float v = texel_channel(info->format, pixels, t, c);
            if (isfinite(v)) lo = fminf(lo, v), hi = fmaxf(hi, v);
        }
    }
    uint8_t *rgba = malloc(texels * 4);
    if (!rgba) return snprintf(why, n, "out of memory"), false;
    for (size_t t = 0; t < texels; t++) {
        for (uint32_t c = 0; c < 3; c++) {
            float v = texel_channel(info->format, pixels, t, channels == 3 ? c : 0);
            float unit = v == INFINITY ? 1.0f : 0.0f;
            if (isfinite(v) && hi > lo) unit = (v - lo) / (hi - lo);
            rgba[t * 4 + c] = kiln_unorm8_from_float(unit);
        }
        rgba[t * 4 + 3] = 255;
    }
    bool ok = write_rgba_png(path, info->width, info->height, rgba, why, n);
    free(rgba);
    return ok;
}

static bool write_8bit_png(const char *path, const kiln_texture_info *info, uint8_t *pixels, char *why, size_t n) {
    if (info->format == KILN_FORMAT_RGBA8) return write_rgba_png(path, info->width, info->height, pixels, why, n);
    size_t texels = (size_t)info->width * info->height;
    uint8_t *rgba = malloc(texels * 4);
    if (!rgba) return snprintf(why, n, "out of memory"), false;
    for (size_t t = 0; t < texels; t++) {
        memset(rgba + t * 4, pixels[t], 3);
        rgba[t * 4 + 3] = 255;
    }
    bool ok = write_rgba_png(path, info->width, info->height, rgba, why, n);
    free(rgba);
    return ok;
}

/* mkdir -p: every missing directory along path. */
static bool make_dirs(const char *path, char *why, size_t n) {
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        if (snprintf(why, n, "output path too long: %.64s...", path) < 0) why[0] = '\0';
        return false;
    }
    for (char *p = buf + 1;; p++) {
        if (*p != '/' && *p != '\0') continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) {
            /* The message is cut short if the path is long: it is only a message. */
            if (snprintf(why, n, "cannot create '%s': %s", buf, strerror(errno)) < 0) why[0] = '\0';
            return false;
        }
        if (!saved) return true;
        *p = saved;
    }
}

/* True when `path` (which exists) resolves, symbolic links followed, to `dir` or below it. */
static bool resolves_within(const char *dir, const char *path) {
    char real_dir[PATH_MAX], real_path[PATH_MAX];
    if (!realpath(dir, real_dir) || !realpath(path, real_path)) return false;
    size_t n = strlen(real_dir);
    if (n == 1) return true; /* the root holds everything */
    return strncmp(real_path, real_dir, n) == 0 && (real_path[n] == '/' || real_path[n] == '\0');
}

/* True when path exists and is a symbolic link (a save never writes through one). */
static bool is_symlink(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

static bool path_escapes(const char *path) {
    if (path[0] == '/') return true;
    for (const char *p = path; (p = strstr(p, "..")) != NULL; p += 2)
        if ((p == path || p[-1] == '/') && (p[2] == '/' || p[2] == '\0')) return true;
    return false;
}

static json_t *save_texture(program_script *s, const json_t *msg) {
    kiln_json_error jerr = {0};
    uint32_t id;
    const json_t *path_value = json_object_get(msg, "path");
    if (!kiln_json_decode_u32_field(msg, "texture_id", &id, &jerr)) return err_reply(jerr.cls, "%s", jerr.message);
    if (!json_is_string(path_value)) return err_reply("bad_message", "path: expected a string");
    const char *path = json_string_value(path_value);
    if (!*path || path_escapes(path))
        return err_reply("bad_message", "path: \"%s\" is not a relative path under --out", path);
    const kiln_texture_info *found = kiln_texture_registry_info(kiln_json_runtime_textures(s->rt), id);
    if (!found) return err_reply("unknown_texture", "texture_id: unknown texture %u", id);
    if (found->kind != KILN_TEXTURE_PLAIN)
        return err_reply("unknown_texture", "texture_id: texture %u is not a plain texture", id);
    kiln_texture_info info = *found;

    /* As read_texture does, the save sees every dispatch queued before it. */
    kiln_error kerr = {0};
    void *pixels = NULL;
    size_t size;
    if (!kiln_programs_frame_for_read(kiln_json_runtime_programs(s->rt), id, &kerr))
        return err_reply("frame_failed", "%s", kerr.message);
    if (!s->out_dir) return json_pack("{s:{s:[]}}", "Ok", "files");
    if (!kiln_texture_registry_read(kiln_json_runtime_textures(s->rt), id, &pixels, &size, &kerr))
        return err_reply("read_failed", "%s", kerr.message);

    char stem[4096], png[4200], pfm[4200], why[1024] = "";
    snprintf(stem, sizeof stem, "%s/%s", s->out_dir, path);
    size_t length = strlen(stem);
    if (length > 4 && (strcmp(stem + length - 4, ".png") == 0 || strcmp(stem + length - 4, ".pfm") == 0))
        stem[length - 4] = '\0';
    snprintf(png, sizeof png, "%s.png", stem);
    snprintf(pfm, sizeof pfm, "%s.pfm", stem);
    char *slash = strrchr(stem, '/');
    if (slash) *slash = '\0';
    bool is_float = info.format != KILN_FORMAT_RGBA8 && info.format != KILN_FORMAT_R8;
    bool ok = make_dirs(stem, why, sizeof why);
    /* The path's text stays under --out (path_escapes); a symbolic link inside --out must not
     * lead the write elsewhere either. */
    if (ok && !s->allow_outside_paths &&
        (!resolves_within(s->out_dir, stem) || is_symlink(png) || (is_float && is_symlink(pfm)))) {
        free(pixels);
        return err_reply("bad_message", "path: \"%s\" leads outside --out through a symbolic link "
                                        "(%s --allow-outside-paths permits it)", path, s->tool);
    }
    if (ok && is_float)
        ok = write_pfm(pfm, &info, pixels, why, sizeof why) && write_preview(png, &info, pixels, why, sizeof why);
    else if (ok)
        ok = write_8bit_png(png, &info, pixels, why, sizeof why);
    free(pixels);
    if (!ok) return err_reply("io", "%s", why);
    if (is_float) return json_pack("{s:{s:[s,s]}}", "Ok", "files", pfm, png);
    return json_pack("{s:{s:[s]}}", "Ok", "files", png);
}

/* ---- one message ------------------------------------------------------------------------------ */

/* Remembers a wgsl_path file the run reads, once (kiln-view watches them). */
static void note_file(program_script *s, const char *path) {
    for (size_t i = 0; i < s->file_count; i++)
        if (strcmp(s->files[i], path) == 0) return;
    char **grown = realloc(s->files, (s->file_count + 1) * sizeof *grown);
    if (!grown) return;
    s->files = grown;
    if ((s->files[s->file_count] = strdup(path))) s->file_count++;
}

/* Replaces "wgsl_path" by "wgsl" holding the file. False (with s->fatal) when it cannot be
 * read; *reply is set instead when the field itself is wrong. */
static bool inline_wgsl(program_script *s, json_t *msg, size_t index, json_t **reply) {
    json_t *path_value = json_object_get(msg, "wgsl_path");
    if (!path_value) return true;
    if (!json_is_string(path_value)) return (*reply = err_reply("bad_message", "wgsl_path: expected a string")), true;
    if (json_object_get(msg, "wgsl"))
        return (*reply = err_reply("bad_message", "wgsl_path: give \"wgsl\" or \"wgsl_path\", not both")), true;
    const char *relative = json_string_value(path_value);
    char path[8192], why[1024];
    if (relative[0] == '/') snprintf(path, sizeof path, "%s", relative);
    else snprintf(path, sizeof path, "%s/%s", s->dir, relative);
    /* A script reads WGSL beside it or below, not any file of the machine, unless allowed. A path
     * that does not resolve is left to read_file, whose message says why. */
    char resolved[PATH_MAX];
    if (!s->allow_outside_paths && realpath(path, resolved) && !resolves_within(s->dir, path))
        return (*reply = err_reply("bad_message", "wgsl_path: '%s' is outside the script's directory "
                                                  "(%s --allow-outside-paths permits it)", path, s->tool)), true;
    note_file(s, path);
    size_t size;
    char *text = read_file(path, KILN_WGSL_MAX_FILE_BYTES, "a WGSL source", &size, why, sizeof why);
    if (!text) {
        snprintf(s->fatal, sizeof s->fatal, "script[%zu]: wgsl_path: %s", index, why);
        return false;
    }
    /* WGSL is UTF-8 text without NUL bytes; say where a file breaks that rather than letting the
     * JSON layer fail on it later under a name that points at neither the field nor the file. */
    size_t bad = 0;
    const char *nul = memchr(text, '\0', size);
    size_t nul_offset = nul ? (size_t)(nul - text) : 0;
    bool utf8 = kiln_utf8_check(text, size, &bad);
    uint8_t bad_byte = utf8 ? 0 : (uint8_t)text[bad];
    json_t *wgsl = nul || !utf8 ? NULL : json_stringn(text, size);
    free(text);
    if (nul)
        return (*reply = err_reply("bad_message", "wgsl_path: '%s' holds a NUL byte at offset %zu", path,
                                   nul_offset)), true;
    if (!utf8)
        return (*reply = err_reply("bad_message", "wgsl_path: '%s' is not UTF-8: byte 0x%02X at offset %zu", path,
                                   bad_byte, bad)), true;
    if (!wgsl) return (*reply = err_reply("out_of_memory", "wgsl_path: '%s': out of memory", path)), true;
    json_object_set_new(msg, "wgsl", wgsl);
    json_object_del(msg, "wgsl_path");
    return true;
}

/* ---- typed blobs ------------------------------------------------------------------------------ */

/* The little-endian bytes of one typed-blob element: false (with why) for a value the type cannot
 * hold. */
static bool typed_element(const char *type, const json_t *v, const char *path, size_t i, uint8_t out[4], char *why,
                          size_t why_size) {
    uint32_t bits = 0;
    if (strcmp(type, "f32") == 0) {
        if (!json_is_number(v)) return snprintf(why, why_size, "%s.f32[%zu]: expected a number", path, i), false;
        float f = (float)json_number_value(v);
        memcpy(&bits, &f, 4);
    } else {
        json_int_t n = json_is_integer(v) ? json_integer_value(v) : 0;
        bool fits = json_is_integer(v) && (strcmp(type, "u32") == 0 ? n >= 0 && n <= (json_int_t)UINT32_MAX
                                                                    : n >= INT32_MIN && n <= INT32_MAX);
        if (!fits) return snprintf(why, why_size, "%s.%s[%zu]: expected a %s integer", path, type, i, type), false;
        bits = (uint32_t)n;
    }
    for (int b = 0; b < 4; b++) out[b] = (uint8_t)(bits >> (8 * b));
    return true;
}

/* Replaces every top-level {"f32" | "u32" | "i32": [...]} value by the base64 of its bytes. */
static bool expand_typed_blobs(json_t *msg, char *why, size_t why_size) {
    const char *key;
    json_t *value;
    void *tmp;
    json_object_foreach_safe(msg, tmp, key, value) {
        if (!json_is_object(value) || json_object_size(value) != 1) continue;
        const char *type = json_object_iter_key(json_object_iter(value));
        if (strcmp(type, "f32") != 0 && strcmp(type, "u32") != 0 && strcmp(type, "i32") != 0) continue;
        json_t *list = json_object_get(value, type);
        if (!json_is_array(list)) return snprintf(why, why_size, "%s.%s: expected an array", key, type), false;
        size_t n = json_array_size(list);
        uint8_t *bytes = malloc(n ? 4 * n : 1);
        if (!bytes) return snprintf(why, why_size, "%s: out of memory", key), false;
        for (size_t i = 0; i < n; i++)
            if (!typed_element(type, json_array_get(list, i), key, i, bytes + 4 * i, why, why_size)) {
                free(bytes);
                return false;
            }
        char *text = kiln_json_base64_encode(bytes, 4 * n);
        free(bytes);
        if (!text) return snprintf(why, why_size, "%s: out of memory", key), false;
        json_object_set_new(msg, key, json_string(text));
        free(text);
    }
    return true;
}

/* Whether reply is an Ok reply, and the id it assigned (0: none), for "as". */
static bool reply_outcome(const json_t *reply, uint32_t *id) {
    json_t *ok = json_object_get(reply, "Ok");
    json_t *v = json_object_get(ok, "program_id");
    if (!v) v = json_object_get(ok, "texture_id");
    if (!v) v = json_object_get(ok, "geometry_id");
    if (!v) v = json_object_get(ok, "instances_id");
    if (!v) v = json_object_get(ok, "draw_set_id");
    *id = json_is_integer(v) ? (uint32_t)json_integer_value(v) : 0;
    return ok != NULL;
}

/* The library names an inline WGSL source "program.wgsl" in its messages, after the
 * `program "LABEL": ` of a labelled program; when the source came from a wgsl_path, the reply
 * names that file instead, so its line:column points somewhere real. Edits the reply in place;
 * when memory runs out it keeps the library's name. */
static void name_wgsl_file(json_t *reply, const char *wgsl_path) {
    static const char inline_name[] = "program.wgsl:", labelled[] = "\": program.wgsl:";
    json_t *err = json_object_get(reply, "Err");
    const char *text = json_string_value(json_object_get(err, "error"));
    const char *at = text && !strncmp(text, inline_name, sizeof inline_name - 1) ? text : NULL;
    const char *label_end = text && !strncmp(text, "program \"", 9) ? strstr(text, labelled) : NULL;
    if (!at && label_end) at = label_end + 3;
    if (!at) return;
    size_t n = strlen(wgsl_path) + strlen(text) + 2;
    char *message = malloc(n);
    if (!message) return;
    snprintf(message, n, "%.*s%s:%s", (int)(at - text), text, wgsl_path, at + sizeof inline_name - 1);
    json_object_set_new(err, "error", json_string(message));
    free(message);
}

/* A reply the script itself gave (a refusal before the surface saw the message, or a save). */
static void own_reply(program_script *s, program_script_reply *out, json_t *reply, json_t *msg, const char *as_name,
                      size_t index) {
    out->ok = json_object_get(reply, "Ok") != NULL;
    out->text = reply_text(reply);
    out->sent = msg;
    if (as_name) bind_name(s, as_name, 0, true, index);
}

bool program_script_step(program_script *s, const json_t *original, size_t index, program_script_reply *out) {
    *out = (program_script_reply){0};
    if (!json_is_object(original)) {
        out->text = reply_text(err_reply("bad_message", "message: expected an object"));
        return true;
    }
    json_t *msg = json_deep_copy(original);
    json_t *reply = NULL;
    const json_t *as = json_object_get(msg, "as");
    char why[1024], *as_name = NULL;
    if (as && !json_is_string(as)) reply = err_reply("bad_message", "as: expected a string");
    else if (as) as_name = strdup(json_string_value(as));
    json_object_del(msg, "as");
    const json_t *path_value = json_object_get(msg, "wgsl_path");
    char *wgsl_path = json_is_string(path_value) ? strdup(json_string_value(path_value)) : NULL;
    if (!reply && !resolve_names(s, msg, why, sizeof why)) reply = err_reply("bad_message", "%s", why);
    if (!reply && !expand_typed_blobs(msg, why, sizeof why)) reply = err_reply("bad_message", "%s", why);
    if (!reply && !inline_wgsl(s, msg, index, &reply)) {
        json_decref(msg);
        free(as_name);
        free(wgsl_path);
        return false;
    }
    const char *kind = json_string_value(json_object_get(msg, "kind"));
    if (reply) {
        json_decref(msg);
        own_reply(s, out, reply, NULL, as_name, index);
    } else if (kind && strcmp(kind, "save_texture") == 0) {
        own_reply(s, out, save_texture(s, msg), msg, as_name, index);
    } else {
        /* The surface takes the value as resolved here: no text round trip. */
        json_t *answer = kiln_json_runtime_handle_value(s->rt, msg);
        if (answer && wgsl_path) name_wgsl_file(answer, wgsl_path);
        out->ok = answer && reply_outcome(answer, &out->assigned);
        out->text = reply_text(answer);
        out->sent = msg;
        if (as_name) bind_name(s, as_name, out->assigned, out->assigned == 0, index);
    }
    free(as_name);
    free(wgsl_path);
    return true;
}

void program_script_reply_free(program_script_reply *reply) {
    free(reply->text);
    json_decref(reply->sent);
    *reply = (program_script_reply){0};
}

json_t *program_script_load(const char *path, char *why, size_t why_size) {
    size_t size;
    char *text = read_file(path, KILN_READ_FILE_MAX_BYTES, "a script", &size, why, why_size);
    if (!text) return NULL;
    json_error_t jerr;
    json_t *script = json_loadb(text, size, JSON_REJECT_DUPLICATES, &jerr);
    free(text);
    if (!script) {
        snprintf(why, why_size, "%s: malformed JSON: line %d, column %d: %s", path, jerr.line, jerr.column, jerr.text);
        return NULL;
    }
    if (!json_is_array(script)) {
        snprintf(why, why_size, "%s: expected a JSON array of messages", path);
        json_decref(script);
        return NULL;
    }
    return script;
}

void program_script_init(program_script *s, kiln_json_runtime *rt, const char *script_path, const char *tool,
                         const char *out_dir, bool allow_outside_paths) {
    *s = (program_script){.rt = rt, .tool = tool, .out_dir = out_dir, .allow_outside_paths = allow_outside_paths};
    const char *slash = strrchr(script_path, '/');
    if (slash) snprintf(s->dir, sizeof s->dir, "%.*s", (int)(slash - script_path), script_path);
    else snprintf(s->dir, sizeof s->dir, ".");
}

bool program_script_lookup(const program_script *s, const char *name, uint32_t *id) {
    for (size_t i = 0; i < s->name_count; i++) {
        if (strcmp(s->names[i].name, name) != 0) continue;
        if (s->names[i].refused) return false;
        *id = s->names[i].id;
        return true;
    }
    return false;
}

void program_script_free(program_script *s) {
    for (size_t i = 0; i < s->name_count; i++) free(s->names[i].name);
    for (size_t i = 0; i < s->file_count; i++) free(s->files[i]);
    free(s->names);
    free(s->files);
    s->names = NULL, s->files = NULL;
    s->name_count = s->file_count = 0;
}
