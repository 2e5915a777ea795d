/* kiln/render/lights: scene lights.
 *
 * Conventions: metres, right-handed world space, `direction` is the way the light travels (a sun
 * with direction (0, -1, 0) shines straight down), angles in radians. Sun intensity is in lux,
 * point and spot intensity in watts. Colours are linear RGB.
 *
 * Ownership: kiln_light is a plain value; the renderer packs a scene's lights into GPU records
 * every frame (src/render/light_records.h) without allocating. */
#ifndef KILN_RENDER_LIGHTS_H
#define KILN_RENDER_LIGHTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <kiln/core/error.h>
#include <kiln/core/math.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Point and spot lights kept per frame; later ones in scene order are dropped. */
#define KILN_MAX_LIGHTS 1024u

/* POINT is zero so that a zero-initialised kiln_light is a harmless black point light, never a
 * sun with no direction. The values are also the `kind` the shaders read (LIGHT_KIND_* in
 * src/render/shaders/lights.wgsl). */
typedef enum kiln_light_kind {
    KILN_LIGHT_POINT = 0,
    KILN_LIGHT_SPOT = 1,
    KILN_LIGHT_SUN = 2,
} kiln_light_kind;

/* One light of a scene, in the units above. Which fields apply depends on `kind`. A field added
 * in a later release goes at the end, and its zero keeps the light as it was before the field. */
typedef struct kiln_light {
    kiln_light_kind kind;   /* point, spot or sun */
    kiln_vec3 position;     /* world space, metres; point and spot */
    kiln_vec3 direction;    /* unit length, the way light travels; sun and spot */
    kiln_vec3 color;        /* linear RGB */
    float intensity;        /* lux for the sun, watts for point and spot */
    float range;            /* metres: the culling sphere's radius and where falloff reaches 0 */
    float inner_angle;      /* spot: half-angle from the axis of full intensity */
    float outer_angle;      /* spot: half-angle from the axis where intensity reaches 0 */
    bool disable_shadow_casting; /* sun: casts cascaded shadows by default (zero); set, the sun
                                  * lights everything unshadowed. Ignored for other kinds */
    bool cast_shadows;      /* point and spot: off by default; set, the light gets views in the
                             * shadow atlas (one for a spot, six for a point light), handed out
                             * in scene order while tiles last; the rest stay unshadowed.
                             * Ignored for the sun (see disable_shadow_casting) */
} kiln_light;

/* Constructors normalise `direction` (a zero vector stays zero). Each stable entry point writes
 * the light into the caller's kiln_light of `size` bytes (its sizeof), no further, and refuses a
 * size this library does not know, writing nothing (docs/ARCHITECTURE.md, "ABI of the public
 * structs"); the documented names pass the sizeof of the header they were compiled with. */
bool kiln_light_sun_into(kiln_light *out, size_t size, kiln_vec3 direction, kiln_vec3 color, float lux,
                         kiln_error *err);
/* A point light into the caller's kiln_light (see kiln_light_point). */
bool kiln_light_point_into(kiln_light *out, size_t size, kiln_vec3 position, kiln_vec3 color, float watts,
                           float range, kiln_error *err);
/* A spot light into the caller's kiln_light (see kiln_light_spot). */
bool kiln_light_spot_into(kiln_light *out, size_t size, kiln_vec3 position, kiln_vec3 direction, kiln_vec3 color,
                          float watts, float range, float inner_angle, float outer_angle, kiln_error *err);

/* A sun of `lux` shining along `direction`. */
static inline kiln_light kiln_light_sun(kiln_vec3 direction, kiln_vec3 color, float lux) {
    kiln_light light;
    memset(&light, 0, sizeof light); /* what a refused size leaves */
    kiln_light_sun_into(&light, sizeof light, direction, color, lux, NULL);
    return light;
}
/* A point light of `watts` at `position`, reaching 0 at `range` metres. */
static inline kiln_light kiln_light_point(kiln_vec3 position, kiln_vec3 color, float watts, float range) {
    kiln_light light;
    memset(&light, 0, sizeof light); /* what a refused size leaves */
    kiln_light_point_into(&light, sizeof light, position, color, watts, range, NULL);
    return light;
}
/* A spot light of `watts` at `position` pointing along `direction`, reaching 0 at `range` metres,
 * full intensity within `inner_angle` of its axis and 0 beyond `outer_angle` (half-angles,
 * radians). */
static inline kiln_light kiln_light_spot(kiln_vec3 position, kiln_vec3 direction, kiln_vec3 color, float watts,
                                         float range, float inner_angle, float outer_angle) {
    kiln_light light;
    memset(&light, 0, sizeof light); /* what a refused size leaves */
    kiln_light_spot_into(&light, sizeof light, position, direction, color, watts, range, inner_angle, outer_angle,
                         NULL);
    return light;
}

#ifdef __cplusplus
}
#endif

#endif
