/* The shadow atlas's tiles and light views (shadow_atlas.h). */
#include <math.h>
#include <string.h>

#include "shadow_atlas.h"

void kiln_shadow_atlas_init(kiln_shadow_atlas *a, uint32_t size, uint32_t tile_size) {
    memset(a, 0, sizeof *a);
    a->size = size;
    a->tile_size = tile_size;
    uint32_t per_row = tile_size ? size / tile_size : 0;
    uint64_t tiles = (uint64_t)per_row * per_row;
    a->capacity = tiles < KILN_ATLAS_MAX_VIEWS ? (uint32_t)tiles : KILN_ATLAS_MAX_VIEWS;
}

void kiln_shadow_atlas_reset(kiln_shadow_atlas *a) { a->count = 0; }

uint32_t kiln_shadow_atlas_capacity(const kiln_shadow_atlas *a) { return a->capacity; }

/* A view from `position` looking along `forward` with field of view `fov`. */
static void add_view(kiln_shadow_atlas *a, kiln_vec3 position, kiln_vec3 forward, kiln_vec3 up, float fov) {
    kiln_shadow_view *v = &a->views[a->count];
    kiln_vec3 target = {position.x + forward.x, position.y + forward.y, position.z + forward.z};
    v->view = kiln_mat4_look_at(position, target, up);
    v->projection = kiln_mat4_perspective_reverse_z_infinite(fov, 1.0f, KILN_ATLAS_NEAR);
    v->tile = a->count;
    v->texel_scale = 2.0f * tanf(0.5f * fov) / (float)a->tile_size;
    a->count++;
}

int32_t kiln_shadow_atlas_allocate(kiln_shadow_atlas *a, const kiln_light *light) {
    uint32_t need = light->kind == KILN_LIGHT_SPOT ? 1 : light->kind == KILN_LIGHT_POINT ? 6 : 0;
    if (!need || a->count + need > a->capacity) return -1;
    int32_t first = (int32_t)a->count;
    if (light->kind == KILN_LIGHT_SPOT) {
        /* A cone of outer half-angle up to 90 degrees; a perspective view stops short of 180. */
        float outer = fminf(fmaxf(light->outer_angle, 0.0f), 1.5707964f);
        float fov = fminf(2.0f * outer + KILN_ATLAS_SPOT_MARGIN, 2.8f);
        kiln_vec3 d = kiln_vec3_normalize(light->direction);
        kiln_vec3 up = fabsf(d.y) > 0.99f ? (kiln_vec3){0, 0, 1} : (kiln_vec3){0, 1, 0};
        add_view(a, light->position, d, up, fov);
        return first;
    }
    /* 90 degrees and KILN_ATLAS_FACE_MARGIN_TEXELS more on each side of the tile. */
    float half = (float)a->tile_size * 0.5f;
    float fov = 2.0f * atanf(half / (half - (float)KILN_ATLAS_FACE_MARGIN_TEXELS));
    static const kiln_vec3 forward[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    static const kiln_vec3 up[6] = {{0, 1, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 1}, {0, 1, 0}, {0, 1, 0}};
    for (int f = 0; f < 6; f++) add_view(a, light->position, forward[f], up[f], fov);
    return first;
}
