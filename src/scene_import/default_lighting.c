/* The tools' default lighting of a model (kiln/import.h): the sun it gets and the HDR map it is
 * lit by, once for kiln-render, its batch and the viewer, so their images agree. */
#include <stdlib.h>
#include <string.h>

#include <kiln/import.h>

bool kiln_import_add_sun(kiln_render_scene *scene, const kiln_import_sun *sun, kiln_light **storage, uint32_t *capacity,
                         kiln_error *err) {
    bool asked = sun->direction_given || sun->lux > 0.0f;
    if (sun->none || (!asked && scene->light_count > 0)) return true;
    uint32_t count = scene->light_count + 1;
    if (count > *capacity) {
        kiln_light *grown = realloc(*storage, count * sizeof *grown);
        if (!grown) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory for %u lights", count);
        *storage = grown, *capacity = count;
    }
    kiln_light *lights = *storage;
    if (scene->light_count) memcpy(lights + 1, scene->lights, scene->light_count * sizeof *lights);
    lights[0] = kiln_light_sun(sun->direction_given ? sun->direction : KILN_IMPORT_DEFAULT_SUN_DIRECTION, (kiln_vec3){1, 1, 1},
                               sun->lux > 0.0f ? sun->lux : KILN_IMPORT_DEFAULT_SUN_LUX);
    scene->lights = lights;
    scene->light_count = count;
    return true;
}

uint32_t kiln_import_environment(kiln_renderer *r, const kiln_image *equirect, const char *name, kiln_error *err) {
    kiln_texture_create_desc d = {.format = KILN_FORMAT_RGBA16_FLOAT, .width = equirect->width, .height = equirect->height,
                                  .pixels = equirect->pixels, .pixels_size = kiln_image_byte_size(equirect)};
    kiln_error add_err = {0};
    uint32_t id = kiln_texture_registry_add(kiln_renderer_texture_registry(r), &d, &add_err);
    if (!id) kiln_error_set(err, add_err.code, "%s: %s", name, add_err.message);
    return id;
}
