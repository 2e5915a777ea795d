/* Lights: constructors, and packing a scene's lights into the GPU records the cluster culling
 * and the forward pass read (layout in src/render/light_records.h). */
#include "light_records.h"

#include <kiln/core/struct_size.h>

#include <math.h>

/* Below this cosine gap the cone edge is a step; the clamp keeps spot_scale finite. */
#define SPOT_MIN_COS_GAP 1e-4f

/* sizeof(kiln_light) in the first release (tests/render/test_public_abi.c pins it). */
#define LIGHT_FIRST_RELEASE_SIZE 60

static bool light_into(kiln_light *out, size_t size, kiln_light light, kiln_error *err) {
    if (!kiln_struct_size_check("light", "kiln_light", size, LIGHT_FIRST_RELEASE_SIZE, sizeof light, err)) return false;
    kiln_struct_write(out, size, &light, sizeof light);
    return true;
}

bool kiln_light_sun_into(kiln_light *out, size_t size, kiln_vec3 direction, kiln_vec3 color, float lux,
                         kiln_error *err) {
    return light_into(out, size,
                      (kiln_light){
                          .kind = KILN_LIGHT_SUN,
                          .direction = kiln_vec3_normalize(direction),
                          .color = color,
                          .intensity = lux,
                      },
                      err);
}

bool kiln_light_point_into(kiln_light *out, size_t size, kiln_vec3 position, kiln_vec3 color, float watts,
                           float range, kiln_error *err) {
    return light_into(out, size,
                      (kiln_light){
                          .kind = KILN_LIGHT_POINT,
                          .position = position,
                          .color = color,
                          .intensity = watts,
                          .range = range,
                      },
                      err);
}

bool kiln_light_spot_into(kiln_light *out, size_t size, kiln_vec3 position, kiln_vec3 direction, kiln_vec3 color,
                          float watts, float range, float inner_angle, float outer_angle, kiln_error *err) {
    return light_into(out, size,
                      (kiln_light){
                          .kind = KILN_LIGHT_SPOT,
                          .position = position,
                          .direction = kiln_vec3_normalize(direction),
                          .color = color,
                          .intensity = watts,
                          .range = range,
                          .inner_angle = inner_angle,
                          .outer_angle = outer_angle,
                      },
                      err);
}

static float clampf(float v, float lo, float hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

kiln_gpu_light kiln_gpu_light_from(const kiln_light *light) {
    kiln_gpu_light g = {
        .position = light->position,
        .range = light->range > 0.0f ? light->range : 0.0f,
        .color_intensity = kiln_vec3_scale(light->color, light->intensity),
        .kind = KILN_LIGHT_POINT,
        .shadow_view = -1,
        /* A point light is a spot whose cone is the whole sphere: factor = 0 * c + 1. */
        .cos_inner = -1.0f,
        .cos_outer = -1.0f,
        .spot_scale = 0.0f,
        .spot_offset = 1.0f,
    };
    if (light->kind != KILN_LIGHT_SPOT) return g;
    /* Beyond a half-angle of pi/2 a cone stops being a cone (and its shadow view, a perspective
     * frustum, stops existing), so the outer angle is clamped there, as glTF does. */
    float outer = clampf(light->outer_angle, 0.0f, KILN_PI * 0.5f);
    float inner = clampf(light->inner_angle, 0.0f, outer);
    g.kind = KILN_LIGHT_SPOT;
    g.direction = kiln_vec3_normalize(light->direction);
    g.cos_inner = cosf(inner);
    g.cos_outer = cosf(outer);
    float gap = g.cos_inner - g.cos_outer;
    g.spot_scale = 1.0f / (gap > SPOT_MIN_COS_GAP ? gap : SPOT_MIN_COS_GAP);
    g.spot_offset = -g.cos_outer * g.spot_scale;
    return g;
}

/* The one loop over a scene's lights: the first sun aside, the point and spot lights packed in
 * order, each casting one handed its atlas views as it is packed when `atlas` is given. */
static uint32_t gather(const kiln_light *lights, uint32_t count, kiln_gpu_light *out, uint32_t max_out,
                       kiln_light *sun_out, bool *has_sun, kiln_shadow_atlas *atlas, uint32_t *shadowed) {
    bool found_sun = false;
    uint32_t packed = 0;
    for (uint32_t i = 0; lights && i < count; i++) {
        const kiln_light *l = &lights[i];
        if (l->kind == KILN_LIGHT_SUN) {
            /* Only the first sun lights the scene: the Lighting block has one sun. */
            if (!found_sun && sun_out) *sun_out = *l;
            found_sun = true;
            continue;
        }
        if (packed == max_out) continue;
        kiln_gpu_light record = kiln_gpu_light_from(l);
        if (atlas && l->cast_shadows) {
            record.shadow_view = kiln_shadow_atlas_allocate(atlas, l);
            *shadowed += record.shadow_view >= 0;
        }
        out[packed++] = record;
    }
    if (has_sun) *has_sun = found_sun;
    return packed;
}

uint32_t kiln_pack_lights_into(const kiln_light *lights, uint32_t count, kiln_gpu_light *out, uint32_t max_out,
                               kiln_light *sun_out, bool *has_sun) {
    return gather(lights, count, out, max_out, sun_out, has_sun, NULL, NULL);
}

void render_frame_lights_gather(render_frame_lights *out, const kiln_light *lights, uint32_t count, bool shadows,
                                uint32_t atlas_size, uint32_t atlas_tile) {
    kiln_shadow_atlas_init(&out->atlas, atlas_size, atlas_tile);
    out->shadowed = 0;
    out->sun = (kiln_light){0};
    out->count = gather(lights, count, out->records, KILN_MAX_LIGHTS, &out->sun, &out->has_sun,
                        shadows ? &out->atlas : NULL, &out->shadowed);
}
