/* Materials: glTF metallic-roughness onto kiln_material, with each texture slot's image, sampler,
 * texCoord and KHR_texture_transform kept per slot in kiln_gltf_material. kiln_material has one
 * sampler and one uv transform for all its maps, so it takes those of its first textured slot
 * (base colour first): the maps of one glTF material nearly always share them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

/* A textureInfo object ("baseColorTexture"): index, texCoord, KHR_texture_transform. */
static bool read_texture_info(gltf_load *L, json_t *info, const char *path, kiln_gltf_material *m, int slot) {
    int32_t texture;
    uint64_t texcoord;
    if (!gltf_index(L, info, path, "index", true, L->texture_count, "textures", &texture) ||
        !gltf_uint(L, info, path, "texCoord", false, 0, UINT32_MAX, &texcoord) ||
        !gltf_texture_source(L, (uint32_t)texture, &m->images[slot], &m->samplers[slot]))
        return false;

    kiln_gltf_texture_transform *t = &m->transforms[slot];
    *t = (kiln_gltf_texture_transform){.scale = {1, 1}};
    json_t *transform = json_object_get(json_object_get(info, "extensions"), "KHR_texture_transform");
    if (transform) {
        char sub[128];
        snprintf(sub, sizeof sub, "%s.extensions.KHR_texture_transform", path);
        if (!json_is_object(transform)) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is not an object", sub);
        if (!gltf_numbers(L, transform, sub, "offset", 2, &t->offset.x) ||
            !gltf_numbers(L, transform, sub, "scale", 2, &t->scale.x) ||
            !gltf_number(L, transform, sub, "rotation", 0.0, &t->rotation) ||
            !gltf_uint(L, transform, sub, "texCoord", false, texcoord, UINT32_MAX, &texcoord))
            return false;
    }
    if (texcoord > 1)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.texCoord: %llu is not supported (kiln has TEXCOORD_0 and _1)",
                         path, (unsigned long long)texcoord);
    m->material.texcoords[slot] = (uint8_t)texcoord;
    if (m->images[slot] >= 0) {
        kiln_gltf_image *img = &L->doc->images[m->images[slot]];
        /* An image is decoded into the encodings its slots sample it in. */
        bool srgb = kiln_material_slot_is_srgb(slot);
        img->srgb |= srgb;
        img->linear |= !srgb;
    }
    return true;
}

/* The textureInfo member `key` of `obj`, when present. */
static bool texture_slot(gltf_load *L, json_t *obj, const char *path, const char *key, kiln_gltf_material *m,
                         int slot, json_t **info_out) {
    bool ok;
    json_t *info = gltf_object(L, obj, path, key, &ok);
    *info_out = info;
    if (!ok || !info) return ok;
    char sub[96];
    snprintf(sub, sizeof sub, "%s.%s", path, key);
    return read_texture_info(L, info, sub, m, slot);
}

static bool load_material(gltf_load *L, json_t *item, uint32_t i) {
    char path[64];
    snprintf(path, sizeof path, "materials[%u]", i);
    if (!json_is_object(item)) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is not an object", path);
    kiln_gltf_material *m = &L->doc->materials[i];
    if (!(m->name = gltf_name(L, item, path))) return false;
    m->material = kiln_material_default(m->name);
    kiln_material *k = &m->material;
    json_t *info;

    bool ok;
    json_t *pbr = gltf_object(L, item, path, "pbrMetallicRoughness", &ok);
    if (!ok) return false;
    if (pbr) {
        char sub[96];
        snprintf(sub, sizeof sub, "%s.pbrMetallicRoughness", path);
        if (!gltf_numbers(L, pbr, sub, "baseColorFactor", 4, &k->base_color.x) ||
            !gltf_number(L, pbr, sub, "metallicFactor", 1.0, &k->metallic) ||
            !gltf_number(L, pbr, sub, "roughnessFactor", 1.0, &k->roughness) ||
            !texture_slot(L, pbr, sub, "baseColorTexture", m, KILN_TEX_BASE_COLOR, &info) ||
            !texture_slot(L, pbr, sub, "metallicRoughnessTexture", m, KILN_TEX_METALLIC_ROUGHNESS, &info))
            return false;
    }
    char info_path[96];
    snprintf(info_path, sizeof info_path, "%s.normalTexture", path);
    if (!texture_slot(L, item, path, "normalTexture", m, KILN_TEX_NORMAL, &info)) return false;
    if (info && !gltf_number(L, info, info_path, "scale", 1.0, &k->normal_scale)) return false;
    snprintf(info_path, sizeof info_path, "%s.occlusionTexture", path);
    if (!texture_slot(L, item, path, "occlusionTexture", m, KILN_TEX_OCCLUSION, &info)) return false;
    if (info && !gltf_number(L, info, info_path, "strength", 1.0, &k->occlusion_strength)) return false;
    if (!texture_slot(L, item, path, "emissiveTexture", m, KILN_TEX_EMISSIVE, &info) ||
        !gltf_numbers(L, item, path, "emissiveFactor", 3, &k->emissive.x) ||
        !gltf_number(L, item, path, "alphaCutoff", 0.5, &k->alpha_cutoff))
        return false;

    json_t *strength = json_object_get(json_object_get(item, "extensions"), "KHR_materials_emissive_strength");
    if (strength) {
        char sub[128];
        snprintf(sub, sizeof sub, "%s.extensions.KHR_materials_emissive_strength", path);
        if (!gltf_number(L, strength, sub, "emissiveStrength", 1.0, &k->emissive_strength)) return false;
    }

    const char *mode;
    if (!gltf_string(L, item, path, "alphaMode", "OPAQUE", &mode)) return false;
    if (strcmp(mode, "OPAQUE") == 0) k->alpha_mode = KILN_ALPHA_OPAQUE;
    else if (strcmp(mode, "MASK") == 0) k->alpha_mode = KILN_ALPHA_MASK;
    else if (strcmp(mode, "BLEND") == 0) k->alpha_mode = KILN_ALPHA_BLEND;
    else return gltf_fail(L, KILN_ERR_FORMAT, "%s.alphaMode: \"%s\" is not OPAQUE, MASK or BLEND", path, mode);
    json_t *sided = json_object_get(item, "doubleSided");
    if (sided && !json_is_boolean(sided))
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.doubleSided: is not a boolean", path);
    k->double_sided = json_is_true(sided);

    for (int slot = 0; slot < KILN_TEX_COUNT; slot++) {
        if (m->images[slot] < 0) continue;
        if (m->samplers[slot] >= 0) k->sampler = L->doc->samplers[m->samplers[slot]];
        k->uv_offset = m->transforms[slot].offset;
        k->uv_scale = m->transforms[slot].scale;
        k->uv_rotation = m->transforms[slot].rotation;
        break;
    }
    return true;
}

bool gltf_materials_load(gltf_load *L) {
    bool ok;
    json_t *materials = gltf_array(L, L->root, "", "materials", &ok);
    if (!ok) return false;
    uint32_t n = materials ? (uint32_t)json_array_size(materials) : 0;
    kiln_gltf *doc = L->doc;
    doc->materials = calloc(n + 1, sizeof *doc->materials);
    if (!doc->materials) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "materials: out of memory");
    for (uint32_t i = 0; i < n; i++) {
        doc->material_count = i + 1;
        kiln_gltf_material *m = &doc->materials[i];
        for (int slot = 0; slot < KILN_TEX_COUNT; slot++) {
            m->images[slot] = m->samplers[slot] = -1;
            m->transforms[slot] = (kiln_gltf_texture_transform){.scale = {1, 1}};
        }
        if (!load_material(L, json_array_get(materials, i), i)) return false;
    }
    return true;
}
