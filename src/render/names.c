/* The names of the renderer's enums, one table each: what kiln-render's flags accept, what its
 * usage lists, and what the render guide documents (tests/render/test_render_names.c checks the
 * guide names every one). */
#include <string.h>

#include <kiln/render.h>

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
