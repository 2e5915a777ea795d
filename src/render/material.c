/* A material on the GPU: the 96-byte uniform and the material group (the CPU description and its
 * validation are the assets layer's, src/assets/material.c).
 *
 * MaterialParams (material.wgsl), 96 bytes, std140-compatible:
 *    0 base_color         vec4f
 *   16 emissive           vec3f     28 emissive_strength  f32
 *   32 metallic f32       36 roughness f32   40 normal_scale f32   44 occlusion_strength f32
 *   48 alpha_cutoff f32   52 alpha_mode u32  56 double_sided u32   60 uv_rotation f32
 *   64 uv_offset vec2f    72 uv_scale vec2f
 *   80 texcoords u32 (bit i: map i reads uv1)   84..95 padding */
#include <stdlib.h>
#include <string.h>

#include "material_gpu.h"

void kiln_material_pack_uniform(const kiln_material *m, uint8_t out[KILN_MATERIAL_UNIFORM_SIZE]) {
    kiln_bytes w;
    kiln_bytes_init(&w, out, KILN_MATERIAL_UNIFORM_SIZE);
    kiln_bytes_vec4(&w, m->base_color);
    kiln_bytes_vec3(&w, m->emissive);
    kiln_bytes_f32(&w, m->emissive_strength);
    kiln_bytes_f32(&w, m->metallic);
    kiln_bytes_f32(&w, m->roughness);
    kiln_bytes_f32(&w, m->normal_scale);
    kiln_bytes_f32(&w, m->occlusion_strength);
    kiln_bytes_f32(&w, m->alpha_cutoff);
    kiln_bytes_u32(&w, (uint32_t)m->alpha_mode);
    kiln_bytes_u32(&w, m->double_sided ? 1u : 0u);
    kiln_bytes_f32(&w, m->uv_rotation);
    kiln_bytes_vec2(&w, m->uv_offset);
    kiln_bytes_vec2(&w, m->uv_scale);
    uint32_t texcoords = 0;
    for (int i = 0; i < KILN_TEX_COUNT; i++)
        if (m->texcoords[i]) texcoords |= 1u << i;
    kiln_bytes_u32(&w, texcoords);
    kiln_bytes_pad_to(&w, KILN_MATERIAL_UNIFORM_SIZE);
    /* The layout is fixed by material.wgsl; a drift here is a programming error. */
    kiln_error err;
    if (!kiln_bytes_expect(&w, KILN_MATERIAL_UNIFORM_SIZE, &err)) abort();
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
    if (!kiln_material_validate(m, registry, err)) return false;
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
    kiln_gpu_material_destroy(res, out);
    return false;
}

void kiln_gpu_material_destroy(kiln_resources *res, kiln_gpu_material *g) {
    if (g->group.id) kiln_resources_destroy_bind_group(res, g->group, NULL);
    if (g->uniform.id) kiln_resources_destroy_buffer(res, g->uniform, NULL);
    g->group = (kiln_bind_group){0};
    g->uniform = (kiln_buffer){0};
}
