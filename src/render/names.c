/* The names of the renderer's enums, one table each: what kiln-render's flags accept, what its
 * usage lists, and what the render guide documents (tests/render/test_render_names.c checks the
 * guide names every one). The same tables generate the WGSL constants of those enums
 * (renderer_enums_wgsl), so adding a value is one row here and no shader edit. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <kiln/render.h>

#include "names.h"


static const char *const TONEMAPPER_NAMES[KILN_TONEMAPPER_COUNT] = {
    [KILN_TONEMAP_AGX] = "agx",
    [KILN_TONEMAP_ACES] = "aces",
    [KILN_TONEMAP_ACES_HILL] = "aces-hill",
    [KILN_TONEMAP_ACES_HILL_BOOST] = "aces-hill-boost",
    [KILN_TONEMAP_PBR_NEUTRAL] = "pbr-neutral",
    [KILN_TONEMAP_NONE] = "none",
};

static const char *const DEBUG_MODE_NAMES[KILN_DEBUG_COUNT] = {
    [KILN_DEBUG_NONE] = "none",
    [KILN_DEBUG_NORMALS] = "normals",
    [KILN_DEBUG_CLUSTERS] = "clusters",
    [KILN_DEBUG_OVERDRAW] = "overdraw",
    [KILN_DEBUG_ALBEDO] = "albedo",
    [KILN_DEBUG_CASCADES] = "cascades",
    [KILN_DEBUG_AO] = "ao",
    [KILN_DEBUG_LOD] = "lod",
};

/* The enums the shaders read but no flag names: their tables serve the WGSL alone. */
static const char *const BACKGROUND_NAMES[] = {
    [KILN_BACKGROUND_SKY] = "sky",
    [KILN_BACKGROUND_COLOR] = "color",
    [KILN_BACKGROUND_TRANSPARENT] = "transparent",
};

static const char *const LIGHT_KIND_NAMES[] = {
    [KILN_LIGHT_POINT] = "point",
    [KILN_LIGHT_SPOT] = "spot",
    [KILN_LIGHT_SUN] = "sun",
};

static const char *const ALPHA_MODE_NAMES[] = {
    [KILN_ALPHA_OPAQUE] = "opaque",
    [KILN_ALPHA_MASK] = "mask",
    [KILN_ALPHA_BLEND] = "blend",
};

static const char *const TEXTURE_SLOT_NAMES[KILN_TEX_COUNT] = {
    [KILN_TEX_BASE_COLOR] = "base-color",
    [KILN_TEX_METALLIC_ROUGHNESS] = "metallic-roughness",
    [KILN_TEX_NORMAL] = "normal",
    [KILN_TEX_OCCLUSION] = "occlusion",
    [KILN_TEX_EMISSIVE] = "emissive",
};

/* The instance record's flags (KILN_INSTANCE_*, uniforms.h), by bit: row b is the value 1 << b. */
static const char *const INSTANCE_FLAG_NAMES[] = {[0] = "skinned", [1] = "morphed"};

static int find_name(const char *const *names, int count, const char *name) {
    for (int i = 0; name && i < count; i++)
        if (!strcmp(names[i], name)) return i;
    return -1;
}

const char *kiln_tonemapper_name(kiln_tonemapper t) {
    return (unsigned)t < KILN_TONEMAPPER_COUNT ? TONEMAPPER_NAMES[t] : NULL;
}

bool kiln_tonemapper_from_name(const char *name, kiln_tonemapper *out) {
    int i = find_name(TONEMAPPER_NAMES, KILN_TONEMAPPER_COUNT, name);
    if (i >= 0) *out = (kiln_tonemapper)i;
    return i >= 0;
}

const char *kiln_debug_mode_name(kiln_debug_mode m) {
    return (unsigned)m < KILN_DEBUG_COUNT ? DEBUG_MODE_NAMES[m] : NULL;
}

bool kiln_debug_mode_from_name(const char *name, kiln_debug_mode *out) {
    int i = find_name(DEBUG_MODE_NAMES, KILN_DEBUG_COUNT, name);
    if (i >= 0) *out = (kiln_debug_mode)i;
    return i >= 0;
}

static const char *const PASS_TIMINGS_STATUS_NAMES[] = {
    [KILN_FRAME_TIMINGS_UNAVAILABLE] = "unavailable",
    [KILN_FRAME_TIMINGS_PENDING] = "pending",
    [KILN_FRAME_TIMINGS_READY] = "ready",
};

const char *kiln_frame_timings_status_name(kiln_frame_timings_status status) {
    return (unsigned)status < sizeof PASS_TIMINGS_STATUS_NAMES / sizeof PASS_TIMINGS_STATUS_NAMES[0]
               ? PASS_TIMINGS_STATUS_NAMES[status]
               : NULL;
}

/* Each table the WGSL sees, with the prefix its constants take: value v of the tone mappers is
 * `const TONEMAP_ACES_HILL: u32 = 2u;`, the name upper-cased with '-' as '_'; a table of bits
 * gives row b the value 1 << b. */
static const struct {
    const char *prefix;
    const char *const *names;
    uint32_t count;
    bool bits;
} WGSL_ENUMS[] = {
    {"TONEMAP_", TONEMAPPER_NAMES, KILN_TONEMAPPER_COUNT, false},
    {"DEBUG_", DEBUG_MODE_NAMES, KILN_DEBUG_COUNT, false},
    {"BACKGROUND_", BACKGROUND_NAMES, KILN_ARRAY_COUNT(BACKGROUND_NAMES), false},
    {"LIGHT_KIND_", LIGHT_KIND_NAMES, KILN_ARRAY_COUNT(LIGHT_KIND_NAMES), false},
    {"ALPHA_", ALPHA_MODE_NAMES, KILN_ARRAY_COUNT(ALPHA_MODE_NAMES), false},
    {"TEX_", TEXTURE_SLOT_NAMES, KILN_TEX_COUNT, false},
    {"INSTANCE_", INSTANCE_FLAG_NAMES, KILN_ARRAY_COUNT(INSTANCE_FLAG_NAMES), true},
};

/* Room for every constant: about 30 lines of at most 64 bytes, and the header. */
static char enums_text[4096];
static const kiln_wgsl_embedded_file enums_file = {RENDERER_ENUMS_WGSL, enums_text};
static pthread_once_t enums_once = PTHREAD_ONCE_INIT;

static size_t put_constant(char *out, size_t room, const char *prefix, const char *name, uint32_t value) {
    char upper[64];
    size_t n = 0;
    for (; name[n] && n + 1 < sizeof upper; n++)
        upper[n] = name[n] == '-' ? '_' : (char)(name[n] >= 'a' && name[n] <= 'z' ? name[n] - 'a' + 'A' : name[n]);
    upper[n] = '\0';
    int written = snprintf(out, room, "const %s%s: u32 = %uu;\n", prefix, upper, value);
    return written < 0 ? 0 : (size_t)written < room ? (size_t)written : room - 1;
}

static void write_enums_text(void) {
    size_t n = (size_t)snprintf(enums_text, sizeof enums_text,
                                "// kiln_enums.wgsl: generated when a renderer is created from the enum-name tables of\n"
                                "// src/render/names.c, the values of the C enums. There is no such file on disk.\n");
    for (uint32_t t = 0; t < KILN_ARRAY_COUNT(WGSL_ENUMS); t++)
        for (uint32_t v = 0; v < WGSL_ENUMS[t].count; v++)
            if (WGSL_ENUMS[t].names[v]) /* a value without a row has no constant: its use fails to compile */
                n += put_constant(enums_text + n, sizeof enums_text - n, WGSL_ENUMS[t].prefix, WGSL_ENUMS[t].names[v],
                                  WGSL_ENUMS[t].bits ? 1u << v : v);
}

const kiln_wgsl_embedded_file *renderer_enums_wgsl(void) {
    pthread_once(&enums_once, write_enums_text);
    return &enums_file;
}
