/* Images and materials: each image becomes a registry texture in the encoding its users sample it
 * in (sRGB for colour maps, linear for data maps, both when both sample it), each material a
 * renderer material naming those textures. */
#include <stdlib.h>

#include "import_internal.h"

static uint32_t add_texture(import_context *c, uint32_t index, kiln_texture_format format) {
    const kiln_image *img = &c->doc->images[index].image;
    kiln_error why = {0};
    uint32_t id = kiln_texture_registry_add(kiln_renderer_texture_registry(c->r), &(kiln_texture_create_desc){
        .format = format, .width = img->width, .height = img->height, .pixels = img->pixels,
        .pixels_size = (size_t)img->width * img->height * 4, .mips = true}, &why);
    if (!id) import_fail(c, why.code, "images[%u]: %s", index, why.message);
    return id;
}

bool import_images(import_context *c) {
    const kiln_gltf *doc = c->doc;
    kiln_imported_scene *out = c->out;
    out->image_count = doc->image_count;
    if (!doc->image_count) return true;
    out->images = calloc(doc->image_count, sizeof *out->images);
    if (!out->images) return import_fail(c, KILN_ERR_OUT_OF_MEMORY, "images: out of memory (%u)", doc->image_count);
    for (uint32_t i = 0; i < doc->image_count; i++) {
        const kiln_gltf_image *img = &doc->images[i];
        if (img->srgb && !(out->images[i].srgb = add_texture(c, i, KILN_FORMAT_RGBA8_SRGB))) return false;
        if (img->linear && !(out->images[i].linear = add_texture(c, i, KILN_FORMAT_RGBA8))) return false;
    }
    return true;
}

kiln_material kiln_gltf_material_import(const kiln_gltf_material *gm, const kiln_imported_image *images) {
    kiln_material m = gm->material;
    for (int slot = 0; slot < KILN_TEX_COUNT; slot++) {
        if (gm->images[slot] < 0) continue;
        const kiln_imported_image *ids = &images[gm->images[slot]];
        m.textures[slot] = kiln_material_slot_is_srgb(slot) ? ids->srgb : ids->linear;
    }
    return m;
}

bool import_materials(import_context *c) {
    const kiln_gltf *doc = c->doc;
    if (!doc->material_count) return true;
    c->materials = calloc(doc->material_count, sizeof *c->materials);
    if (!c->materials) return import_fail(c, KILN_ERR_OUT_OF_MEMORY, "materials: out of memory (%u)", doc->material_count);
    for (uint32_t i = 0; i < doc->material_count; i++) {
        kiln_material m = kiln_gltf_material_import(&doc->materials[i], c->out->images);
        kiln_error why = {0};
        c->materials[i] = kiln_renderer_add_material(c->r, &m, &why);
        if (c->materials[i] == KILN_INVALID_INDEX) return import_fail(c, why.code, "materials[%u]: %s", i, why.message);
    }
    return true;
}

bool import_material_index(import_context *c, int32_t index, uint32_t *out) {
    if (index >= 0) {
        *out = c->materials[index];
        return true;
    }
    if (c->default_material == KILN_INVALID_INDEX) {
        kiln_material m = kiln_material_default("glTF default material");
        kiln_error why = {0};
        c->default_material = kiln_renderer_add_material(c->r, &m, &why);
        if (c->default_material == KILN_INVALID_INDEX) return import_fail(c, why.code, "default material: %s", why.message);
    }
    *out = c->default_material;
    return true;
}
