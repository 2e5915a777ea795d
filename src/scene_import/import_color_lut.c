/* A .cube colour table into the renderer's texture registry as the volume colour grading
 * samples (kiln_import_color_lut, kiln/import.h). */
#include <stdlib.h>

#include <kiln/import.h>

uint32_t kiln_import_color_lut(kiln_renderer *r, const kiln_color_lut *lut, const char *name, kiln_error *err) {
    const char *label = name ? name : "colour table";
    if (!lut || !lut->rgb || lut->size < 2) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: not a parsed colour table", label);
        return 0;
    }
    kiln_vec3 lo = lut->domain_min, hi = lut->domain_max;
    if (lo.x != 0.0f || lo.y != 0.0f || lo.z != 0.0f || hi.x != 1.0f || hi.y != 1.0f || hi.z != 1.0f) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                       "%s: the table's domain (%g %g %g) .. (%g %g %g) is not 0..1: kiln applies a table to display "
                       "values in 0..1", label, (double)lo.x, (double)lo.y, (double)lo.z, (double)hi.x, (double)hi.y,
                       (double)hi.z);
        return 0;
    }
    size_t entries = (size_t)lut->size * lut->size * lut->size;
    uint16_t *texels = malloc(entries * 4 * sizeof *texels);
    if (!texels) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory for a %u^3 table", label, lut->size);
        return 0;
    }
    /* The file's order is the volume's: red fastest (x), then green (rows), then blue (slices). */
    for (size_t i = 0; i < entries; i++) {
        for (int c = 0; c < 3; c++) texels[i * 4 + c] = kiln_float_to_half(lut->rgb[i * 3 + c]);
        texels[i * 4 + 3] = kiln_float_to_half(1.0f);
    }
    kiln_texture_volume_desc desc = {.format = KILN_FORMAT_RGBA16_FLOAT, .width = lut->size, .height = lut->size,
                                     .depth = lut->size, .pixels = texels, .pixels_size = entries * 8};
    kiln_error why = {0};
    uint32_t id = kiln_texture_registry_add_volume(kiln_renderer_texture_registry(r), &desc, &why);
    free(texels);
    if (!id) kiln_error_set(err, why.code, "%s: %s", label, why.message);
    return id;
}
