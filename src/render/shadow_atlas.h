/* Shadows of spot and point lights: tiles of one square depth atlas, handed out in light order.
 * Pure math, no GPU and no allocation, so tests/render/test_shadow_atlas.c checks it without a
 * device; the frame's one loop over its lights (render_frame_lights_gather, lights.c) hands
 * them out as it packs each casting light's record, and features/shadows.c adds each tile's view
 * to the frame and draws them all in one render pass, a viewport and scissor per tile.
 *
 * A spot light gets one perspective view down its axis, of field of view 2 * outer + 0.05 (the
 * cone and a margin for filtering). A point light gets six, one per cube face in WebGPU's face
 * order (+X, -X, +Y, -Y, +Z, -Z), each a little wider than 90 degrees so the 3x3 filter at a
 * face's edge still reads inside the face. Views are reverse-Z perspective with an infinite far
 * plane, like the camera's. A light that does not fit in what is left gets no view and stays lit,
 * unshadowed. */
#ifndef KILN_RENDER_SHADOW_ATLAS_H
#define KILN_RENDER_SHADOW_ATLAS_H

#include <stdint.h>

#include <kiln/render/lights.h>

#define KILN_ATLAS_MAX_VIEWS 64         /* the views one frame shades with (the AtlasViews block) */
#define KILN_ATLAS_SPOT_MARGIN 0.05f    /* radians added to a spot's cone, 2 * outer */
#define KILN_ATLAS_FACE_MARGIN_TEXELS 2 /* texels a point light's face reaches past 90 degrees, each side */
#define KILN_ATLAS_NEAR 0.05f           /* metres: a light view's near plane */

/* One light view of the atlas. */
typedef struct kiln_shadow_view {
    kiln_mat4 view;        /* world to light space: the light at the origin looking down -Z */
    kiln_mat4 projection;  /* reverse-Z perspective, infinite far plane */
    uint32_t tile;         /* its tile: column tile % per row, row tile / per row */
    float texel_scale;     /* metres one texel covers per metre from the light: 2 tan(fov / 2) / tile */
} kiln_shadow_view;

typedef struct kiln_shadow_atlas {
    uint32_t size, tile_size;   /* texels per side of the atlas and of a tile */
    uint32_t capacity;          /* tiles: (size / tile_size)^2, at most KILN_ATLAS_MAX_VIEWS */
    uint32_t count;             /* views handed out this frame */
    kiln_shadow_view views[KILN_ATLAS_MAX_VIEWS];
} kiln_shadow_atlas;

/* An empty atlas of `size` texels in tiles of `tile_size` (which divides it). */
void kiln_shadow_atlas_init(kiln_shadow_atlas *a, uint32_t size, uint32_t tile_size);
/* Hands every tile back (a new frame); the sizes stay. */
void kiln_shadow_atlas_reset(kiln_shadow_atlas *a);
uint32_t kiln_shadow_atlas_capacity(const kiln_shadow_atlas *a);
/* The views of a spot (1) or point (6) light in the next free tiles: the index of the first, or
 * -1 when they do not all fit (nothing is then handed out) or the light is a sun. */
int32_t kiln_shadow_atlas_allocate(kiln_shadow_atlas *a, const kiln_light *light);

#endif
