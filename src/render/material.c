/* A material on the GPU: the 96-byte uniform (MaterialParams in material.wgsl, laid out below and
 * checked against the WGSL when the renderer is created) and the material group. The CPU
 * description and its validation are the assets layer's (src/assets/material.c). */
#include <stdlib.h>
#include <string.h>

#include "material_gpu.h"

enum {
    MATERIAL_BASE_COLOR, MATERIAL_EMISSIVE, MATERIAL_EMISSIVE_STRENGTH, MATERIAL_METALLIC, MATERIAL_ROUGHNESS,
    MATERIAL_NORMAL_SCALE, MATERIAL_OCCLUSION_STRENGTH, MATERIAL_ALPHA_CUTOFF, MATERIAL_ALPHA_MODE,
    MATERIAL_DOUBLE_SIDED, MATERIAL_UV_ROTATION, MATERIAL_UV_OFFSET, MATERIAL_UV_SCALE, MATERIAL_TEXCOORDS,
    MATERIAL_TEXTURES, MATERIAL_PAD1, MATERIAL_PAD2, MATERIAL_MEMBERS
};
static const block_member MATERIAL_MEMBERS_[MATERIAL_MEMBERS] = {
    [MATERIAL_BASE_COLOR] = {"base_color", 0, 16},
    [MATERIAL_EMISSIVE] = {"emissive", 16, 12},
    [MATERIAL_EMISSIVE_STRENGTH] = {"emissive_strength", 28, 4},
    [MATERIAL_METALLIC] = {"metallic", 32, 4},
    [MATERIAL_ROUGHNESS] = {"roughness", 36, 4},
    [MATERIAL_NORMAL_SCALE] = {"normal_scale", 40, 4},
    [MATERIAL_OCCLUSION_STRENGTH] = {"occlusion_strength", 44, 4},
    [MATERIAL_ALPHA_CUTOFF] = {"alpha_cutoff", 48, 4},
    [MATERIAL_ALPHA_MODE] = {"alpha_mode", 52, 4},
    [MATERIAL_DOUBLE_SIDED] = {"double_sided", 56, 4},
    [MATERIAL_UV_ROTATION] = {"uv_rotation", 60, 4},
    [MATERIAL_UV_OFFSET] = {"uv_offset", 64, 8},
    [MATERIAL_UV_SCALE] = {"uv_scale", 72, 8},
    [MATERIAL_TEXCOORDS] = {"texcoords", 80, 4}, /* bit i: map i reads uv1 */
    [MATERIAL_TEXTURES] = {"textures", 84, 4}, /* bit i: map i names a texture */
    [MATERIAL_PAD1] = {"pad1", 88, 4},
    [MATERIAL_PAD2] = {"pad2", 92, 4},
};
const block_layout kiln_material_block = {"MaterialParams", KILN_MATERIAL_UNIFORM_SIZE, MATERIAL_MEMBERS_,
                                          MATERIAL_MEMBERS, "src/render/material.c"};

void kiln_material_pack_uniform(const kiln_material *m, uint8_t out[KILN_MATERIAL_UNIFORM_SIZE]) {
    const block_layout *b = &kiln_material_block;
    uint32_t alpha_mode = (uint32_t)m->alpha_mode, double_sided = m->double_sided ? 1u : 0u, texcoords = 0, textures = 0;
    for (int i = 0; i < KILN_TEX_COUNT; i++) {
        if (m->texcoords[i]) texcoords |= 1u << i;
        if (m->textures[i]) textures |= 1u << i;
    }
    memset(out, 0, b->size);
    block_put(out, b, MATERIAL_BASE_COLOR, &m->base_color);
    block_put(out, b, MATERIAL_EMISSIVE, &m->emissive);
    block_put(out, b, MATERIAL_EMISSIVE_STRENGTH, &m->emissive_strength);
    block_put(out, b, MATERIAL_METALLIC, &m->metallic);
    block_put(out, b, MATERIAL_ROUGHNESS, &m->roughness);
    block_put(out, b, MATERIAL_NORMAL_SCALE, &m->normal_scale);
    block_put(out, b, MATERIAL_OCCLUSION_STRENGTH, &m->occlusion_strength);
    block_put(out, b, MATERIAL_ALPHA_CUTOFF, &m->alpha_cutoff);
    block_put(out, b, MATERIAL_ALPHA_MODE, &alpha_mode);
    block_put(out, b, MATERIAL_DOUBLE_SIDED, &double_sided);
    block_put(out, b, MATERIAL_UV_ROTATION, &m->uv_rotation);
    block_put(out, b, MATERIAL_UV_OFFSET, &m->uv_offset);
    block_put(out, b, MATERIAL_UV_SCALE, &m->uv_scale);
    block_put(out, b, MATERIAL_TEXCOORDS, &texcoords);
    block_put(out, b, MATERIAL_TEXTURES, &textures);
}

kiln_bind_group_layout kiln_material_layout_create(kiln_resources *res, kiln_error *err) {
    kiln_layout_entry entries[KILN_TEX_COUNT + 2];
    WGPUShaderStage stages = WGPUShaderStage_Vertex | WGPUShaderStage_Fragment;
    entries[0] = (kiln_layout_entry){.binding = 0, .visibility = stages, .kind = KILN_BINDING_UNIFORM_BUFFER,
                                     .min_binding_size = KILN_MATERIAL_UNIFORM_SIZE};
    for (int i = 0; i < KILN_TEX_COUNT; i++)
        entries[1 + i] = (kiln_layout_entry){.binding = 1 + (uint32_t)i, .visibility = WGPUShaderStage_Fragment,
                                             .kind = KILN_BINDING_TEXTURE_2D};
    entries[KILN_TEX_COUNT + 1] = (kiln_layout_entry){.binding = KILN_TEX_COUNT + 1, .visibility = WGPUShaderStage_Fragment,
                                                      .kind = KILN_BINDING_FILTERING_SAMPLER};
    return kiln_resources_create_bind_group_layout(res, "material", entries, KILN_TEX_COUNT + 2, err);
}

bool kiln_gpu_material_upload(kiln_resources *res, kiln_bind_group_layout layout, const kiln_default_textures *d,
                              kiln_texture_registry *registry, kiln_sampler sampler, const kiln_material *m,
                              kiln_gpu_material *out, kiln_error *err) {
    *out = (kiln_gpu_material){.alpha_mode = m->alpha_mode, .double_sided = m->double_sided};
    const kiln_texture_view fallback[KILN_TEX_COUNT] = {d->white_view, d->white_view, d->flat_normal_view, d->white_view,
                                                        d->white_view};
    kiln_texture_view views[KILN_TEX_COUNT];
    for (int i = 0; i < KILN_TEX_COUNT; i++) {
        views[i] = m->textures[i] ? kiln_texture_registry_view_handle(registry, m->textures[i], err) : fallback[i];
        if (!views[i].id) return false;
    }
    uint8_t params[KILN_MATERIAL_UNIFORM_SIZE];
    kiln_material_pack_uniform(m, params);
    out->uniform = kiln_resources_create_buffer(res, &(kiln_buffer_desc){.label = m->label, .size = KILN_MATERIAL_UNIFORM_SIZE,
                                          .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst}, err);
    if (!out->uniform.id) return false;
    if (!kiln_resources_write_buffer(res, out->uniform, 0, params, sizeof params, err)) goto fail;
    kiln_binding_resource entries[KILN_TEX_COUNT + 2];
    entries[0] = (kiln_binding_resource){.binding = 0, .buffer = out->uniform, .size = KILN_MATERIAL_UNIFORM_SIZE};
    for (int i = 0; i < KILN_TEX_COUNT; i++)
        entries[1 + i] = (kiln_binding_resource){.binding = 1 + (uint32_t)i, .view = views[i]};
    entries[KILN_TEX_COUNT + 1] = (kiln_binding_resource){.binding = KILN_TEX_COUNT + 1, .sampler = sampler};
    out->group = kiln_resources_create_bind_group(res, m->label, layout, entries, KILN_TEX_COUNT + 2, err);
    if (out->group.id) return true;
fail:
    kiln_gpu_material_destroy(out, res);
    return false;
}

void kiln_gpu_material_destroy(kiln_gpu_material *g, kiln_resources *res) {
    if (g->group.id) kiln_resources_destroy_bind_group(res, g->group, NULL);
    if (g->uniform.id) kiln_resources_destroy_buffer(res, g->uniform, NULL);
    g->group = (kiln_bind_group){0};
    g->uniform = (kiln_buffer){0};
}
