/* Render settings: where their defaults are applied and their ranges checked, at creation and at
 * the start of every frame: the renderer's own here, the features' rows from the settings table
 * (renderer_resolve_feature_settings, settings_table.c). */
#include <math.h>

#include <kiln/render.h>

#include "abi.h"
#include "features/features.h"

bool kiln_render_settings_resolve_sized(const kiln_render_settings *in, kiln_render_settings *out, size_t size,
                                       kiln_error *err) {
    if (!renderer_abi_check_settings(size, err)) return false;
    kiln_render_settings s = {0};
    if (in) kiln_struct_read(&s, sizeof s, in, size);
    if (!(s.exposure >= 0.0f) || isinf(s.exposure))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: settings.exposure %g is not a positive number",
                              (double)s.exposure);
    if (!(s.ibl_intensity >= 0.0f) || isinf(s.ibl_intensity))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "renderer: settings.ibl_intensity %g is not a positive number", (double)s.ibl_intensity);
    if (!(s.bloom_strength >= 0.0f) || isinf(s.bloom_strength))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "renderer: settings.bloom_strength %g is not a positive number", (double)s.bloom_strength);
    if (!(s.bloom_threshold >= 0.0f) || isinf(s.bloom_threshold))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "renderer: settings.bloom_threshold %g is not a positive number",
                              (double)s.bloom_threshold);
    if ((unsigned)s.tonemapper >= KILN_TONEMAPPER_COUNT)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: settings.tonemapper %d is not a tone mapper",
                              (int)s.tonemapper);
    if ((unsigned)s.debug >= KILN_DEBUG_COUNT)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: settings.debug %d is not a debug mode",
                              (int)s.debug);
    if (s.msaa != 0 && s.msaa != 1 && s.msaa != 4)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: settings.msaa %u must be 1 or 4", s.msaa);
    if (!(s.shadow_distance >= 0.0f) || isinf(s.shadow_distance))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "renderer: settings.shadow_distance %g is not a positive number of metres",
                              (double)s.shadow_distance);
    if (s.cascade_resolution != 0 && (s.cascade_resolution < 16 || s.cascade_resolution > 8192))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "renderer: settings.cascade_resolution %u must be between 16 and 8192 texels",
                              s.cascade_resolution);
    uint32_t atlas_size = s.atlas_size ? s.atlas_size : 4096, atlas_tile = s.atlas_tile ? s.atlas_tile : 512;
    if (atlas_size < 64 || atlas_size > 8192)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "renderer: settings.atlas_size %u must be between 64 and 8192 texels", s.atlas_size);
    if (atlas_tile < 16 || atlas_tile > atlas_size || atlas_size % atlas_tile)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "renderer: settings.atlas_tile %u must be at least 16 texels and divide settings.atlas_size %u",
                              atlas_tile, atlas_size);
    s.atlas_size = atlas_size;
    s.atlas_tile = atlas_tile;
    if (!(s.ao_radius >= 0.0f) || isinf(s.ao_radius))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "renderer: settings.ao_radius %g is not a positive number of metres", (double)s.ao_radius);
    if ((unsigned)s.background > KILN_BACKGROUND_TRANSPARENT)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: settings.background %d is not a background mode",
                              (int)s.background);
    for (int c = 0; c < 3; c++) {
        float v = c == 0 ? s.background_color.x : c == 1 ? s.background_color.y : s.background_color.z;
        if (!(v >= 0.0f && v <= 1.0f))
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                  "renderer: settings.background_color (%g, %g, %g) is not a display colour in 0..1",
                                  (double)s.background_color.x, (double)s.background_color.y,
                                  (double)s.background_color.z);
    }
    if (s.worker_threads > KILN_MAX_WORKER_THREADS)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "renderer: settings.worker_threads %u must be at most %d (0: automatic)",
                              s.worker_threads, KILN_MAX_WORKER_THREADS);
    if (s.exposure == 0.0f) s.exposure = 1.0f;
    if (s.shadow_distance == 0.0f) s.shadow_distance = 60.0f;
    if (s.cascade_resolution == 0) s.cascade_resolution = 2048;
    if (s.msaa == 0) s.msaa = 1;
    if (s.ibl_intensity == 0.0f) s.ibl_intensity = 1.0f;
    if (s.bloom_strength == 0.0f) s.bloom_strength = 0.04f;
    if (s.bloom_threshold == 0.0f) s.bloom_threshold = 1.0f;
    if (s.ao_radius == 0.0f) s.ao_radius = 0.5f;
    if (!renderer_resolve_feature_settings(&s, err)) return false;
    kiln_struct_write(out, size, &s, sizeof s);
    return true;
}
