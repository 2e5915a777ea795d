/* kiln/textures/default_textures.h: the 1x1 textures a material slot samples when it names no
 * texture: white (base colour, metallic-roughness, occlusion, emissive: a factor scales it) and a
 * flat tangent-space normal (0.5, 0.5, 1). They are plain GPU textures, not registry entries, so
 * they take no registry id.
 *
 * Ownership: the struct owns its textures and views (in kiln_resources). */
#ifndef KILN_TEXTURES_DEFAULT_TEXTURES_H
#define KILN_TEXTURES_DEFAULT_TEXTURES_H

#include <stdbool.h>

#include <kiln/gfx.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The two default textures and their views; fill with kiln_default_textures_create. */
typedef struct kiln_default_textures {
    /*@{*/
    kiln_texture white, flat_normal;                /* the 1x1 textures: RGBA8 white and (128, 128, 255, 255) */
    /*@}*/
    /*@{*/
    kiln_texture_view white_view, flat_normal_view; /* their 2D views, in the same order */
    /*@}*/
} kiln_default_textures;

/* Nothing is left behind on failure. */
bool kiln_default_textures_create(kiln_resources *res, kiln_default_textures *out, kiln_error *err);
/* Destroys the textures in the kiln_resources they were created in. */
void kiln_default_textures_destroy(kiln_default_textures *d, kiln_resources *res);

#ifdef __cplusplus
}
#endif

#endif
