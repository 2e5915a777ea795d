/* The built-in demo scene (demo_scene.h): meshes, materials, lights and instances through the public API. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "demo_scene.h"

#define SPHERES_PER_ROW 7

static uint32_t add_mesh(kiln_renderer *r, const char *label, kiln_mesh_data *md, bool ok, kiln_error *err) {
    uint32_t index = ok ? kiln_renderer_add_mesh(r, label, md, true, err) : KILN_INVALID_INDEX;
    kiln_mesh_data_free(md);
    return index;
}

static kiln_render_instance instance(uint32_t mesh, uint32_t material, kiln_mat4 transform) {
    return (kiln_render_instance){.mesh = mesh, .material = material, .transform = transform};
}

bool demo_scene_build(kiln_renderer *r, float aspect, demo_scene *d, kiln_error *err) {
    *d = (demo_scene){0};
    kiln_mesh_data md = {0};
    uint32_t ground = add_mesh(r, "ground", &md, kiln_mesh_plane(&md, 12.0f, 8, err), err);
    uint32_t sphere = ground == KILN_INVALID_INDEX ? ground : add_mesh(r, "sphere", &md, kiln_mesh_uv_sphere(&md, 0.45f, 24, 48, err), err);
    uint32_t cube = sphere == KILN_INVALID_INDEX ? sphere : add_mesh(r, "cube", &md, kiln_mesh_cube(&md, 0.5f, err), err);
    if (cube == KILN_INVALID_INDEX) return false;

    kiln_material m = kiln_material_default("ground");
    m.base_color = (kiln_vec4){0.42f, 0.42f, 0.4f, 1.0f};
    m.metallic = 0.0f;
    m.roughness = 0.85f;
    uint32_t ground_material = kiln_renderer_add_material(r, &m, err);
    uint32_t rough_first = KILN_INVALID_INDEX, metal_first = KILN_INVALID_INDEX;
    for (int i = 0; i < SPHERES_PER_ROW && ground_material != KILN_INVALID_INDEX; i++) {
        float t = (float)i / (SPHERES_PER_ROW - 1);
        m = kiln_material_default("roughness sweep");
        m.base_color = (kiln_vec4){0.8f, 0.12f, 0.1f, 1.0f};
        m.metallic = 0.0f;
        m.roughness = 0.05f + 0.95f * t;
        uint32_t a = kiln_renderer_add_material(r, &m, err);
        m = kiln_material_default("metallic sweep");
        m.base_color = (kiln_vec4){0.95f, 0.75f, 0.35f, 1.0f};
        m.metallic = t;
        m.roughness = 0.3f;
        uint32_t b = kiln_renderer_add_material(r, &m, err);
        if (a == KILN_INVALID_INDEX || b == KILN_INVALID_INDEX) return false;
        if (i == 0) rough_first = a, metal_first = b;
    }
    m = kiln_material_default("cube");
    m.base_color = (kiln_vec4){0.2f, 0.35f, 0.8f, 1.0f};
    m.metallic = 0.0f;
    m.roughness = 0.5f;
    uint32_t cube_material = kiln_renderer_add_material(r, &m, err);
    m = kiln_material_default("glowing cube");
    m.base_color = (kiln_vec4){0.1f, 0.1f, 0.1f, 1.0f};
    m.metallic = 0.0f;
    m.roughness = 0.4f;
    m.emissive = (kiln_vec3){1.0f, 0.45f, 0.1f};
    m.emissive_strength = 6.0f;
    uint32_t glow_material = kiln_renderer_add_material(r, &m, err);
    if (cube_material == KILN_INVALID_INDEX || glow_material == KILN_INVALID_INDEX) return false;

    enum { INSTANCES = 1 + 2 * SPHERES_PER_ROW + 4, LIGHTS = 1 + 8 + 2 };
    d->instances = calloc(INSTANCES, sizeof *d->instances);
    d->lights = calloc(LIGHTS, sizeof *d->lights);
    if (!d->instances || !d->lights) {
        demo_scene_free(d);
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "demo scene: out of memory");
    }
    uint32_t n = 0;
    d->instances[n++] = instance(ground, ground_material, kiln_mat4_identity());
    for (int i = 0; i < SPHERES_PER_ROW; i++) {
        float x = ((float)i - (SPHERES_PER_ROW - 1) * 0.5f) * 1.15f;
        d->instances[n++] = instance(sphere, rough_first + 2 * (uint32_t)i, kiln_mat4_translation((kiln_vec3){x, 0.45f, 0.0f}));
        d->instances[n++] = instance(sphere, metal_first + 2 * (uint32_t)i, kiln_mat4_translation((kiln_vec3){x, 0.45f, -1.4f}));
    }
    kiln_quat turn = kiln_quat_from_axis_angle((kiln_vec3){0, 1, 0}, 0.6f);
    d->instances[n++] = instance(cube, cube_material, kiln_mat4_trs((kiln_vec3){-3.2f, 0.5f, 1.6f}, turn, (kiln_vec3){1, 1, 1}));
    d->instances[n++] = instance(cube, cube_material, kiln_mat4_trs((kiln_vec3){3.3f, 0.35f, 1.4f}, kiln_quat_identity(), (kiln_vec3){0.7f, 0.7f, 0.7f}));
    d->instances[n++] = instance(cube, glow_material, kiln_mat4_trs((kiln_vec3){0.0f, 0.25f, 1.5f}, turn, (kiln_vec3){0.5f, 0.5f, 0.5f}));
    d->instances[n++] = instance(cube, cube_material, kiln_mat4_trs((kiln_vec3){2.2f, 1.1f, -3.0f}, turn, (kiln_vec3){1.4f, 2.2f, 1.4f}));

    uint32_t l = 0;
    d->lights[l++] = kiln_light_sun((kiln_vec3){-0.55f, -0.55f, -0.65f}, (kiln_vec3){1.0f, 0.82f, 0.62f}, 2.0f);
    static const kiln_vec3 colors[8] = {{1, 0.2f, 0.2f}, {0.2f, 1, 0.3f}, {0.25f, 0.4f, 1}, {1, 0.8f, 0.2f},
                                        {0.9f, 0.3f, 1}, {0.2f, 1, 1}, {1, 0.5f, 0.1f}, {0.6f, 1, 0.3f}};
    for (int i = 0; i < 8; i++) {
        float angle = (float)i / 8.0f * 6.2831853f;
        kiln_vec3 p = {cosf(angle) * 4.2f, 0.6f + 0.3f * (float)(i % 2), sinf(angle) * 3.0f - 0.7f};
        d->lights[l++] = kiln_light_point(p, colors[i], 60.0f, 4.5f);
    }
    /* The blue point light in front of the glowing cube, and the warm spot over the big cube on
     * the left, cast shadows through the atlas (seven views). */
    d->lights[3].cast_shadows = true;
    d->lights[l++] = kiln_light_spot((kiln_vec3){-2.0f, 3.5f, 2.5f}, (kiln_vec3){0.35f, -1.0f, -0.6f}, (kiln_vec3){1, 0.9f, 0.7f},
                                     140.0f, 9.0f, 0.25f, 0.4f);
    d->lights[l - 1].cast_shadows = true;
    d->lights[l++] = kiln_light_spot((kiln_vec3){3.0f, 3.0f, -0.5f}, (kiln_vec3){-0.5f, -1.0f, -0.3f}, (kiln_vec3){0.5f, 0.7f, 1},
                                     120.0f, 8.0f, 0.2f, 0.35f);

    d->scene = (kiln_render_scene){
        .camera = kiln_camera_look_at((kiln_vec3){0.0f, 3.4f, 7.2f}, (kiln_vec3){0.0f, 0.3f, -0.6f}, (kiln_vec3){0, 1, 0},
                                      0.85f, aspect, 0.1f),
        .lights = d->lights,
        .light_count = l,
        .instances = d->instances,
        .instance_count = n,
        /* Dusk: a dim sky so the coloured lights read against the sun. */
        .environment = {.zenith = {0.2f, 0.3f, 0.6f}, .ground = {0.16f, 0.13f, 0.1f}},
    };
    return true;
}

void demo_scene_free(demo_scene *d) {
    free(d->instances);
    free(d->lights);
    *d = (demo_scene){0};
}
