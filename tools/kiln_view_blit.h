/* kiln-view's program view: a texture of the program's registry drawn into the window, fitted
 * with its aspect kept and centred on a dark background, each window pixel showing the texel
 * under its centre (nearest), so a window of the texture's size shows it pixel for pixel.
 *
 * Colours are shown as kiln-run's save_texture writes them into a PNG: 8-bit texels (and float
 * texels, clamped to 0..1) are the display's values, a one-channel format is grey, alpha is
 * left out; an Rgba8Srgb texture's texels are linear. Into an sRGB surface the display values
 * are decoded first, so the surface's encode stores them as they were. */
#ifndef KILN_VIEW_BLIT_H
#define KILN_VIEW_BLIT_H

#include <stdbool.h>
#include <stdint.h>

#include <kiln/gfx.h>
#include <kiln/textures.h>

typedef struct view_blit {
    kiln_resources *res;             /* where its objects live; NULL: released */
    WGPUTextureFormat format;        /* of the targets it draws into */
    kiln_shader shader;
    kiln_bind_group_layout group_layout;
    kiln_pipeline_layout layout;
    kiln_render_pipeline pipeline;
    kiln_buffer uniforms;
    kiln_bind_group group;           /* binds `bound`; made again when the view shown changes */
    kiln_texture_view bound;
} view_blit;

/* The pipeline for targets of `format`, on `res`. */
bool view_blit_create(view_blit *b, kiln_resources *res, WGPUTextureFormat format, kiln_error *err);
/* Releases its objects through the resources it was made on (before a lost device's go). */
void view_blit_release(view_blit *b);
/* Records one render pass into `enc` that fills `target` (width x height) with the texture of
 * `info` behind `view`, fitted and centred; with `info` NULL, the background alone. */
bool view_blit_draw(view_blit *b, kiln_encoder *enc, kiln_texture_view view, const kiln_texture_info *info,
                    WGPUTextureView target, uint32_t width, uint32_t height, kiln_error *err);

#endif
