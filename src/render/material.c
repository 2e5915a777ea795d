/* Materials: the 96-byte uniform, validation of the CPU description, material groups.
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

kiln_material kiln_material_default(const char *label) {
    return (kiln_material){
        .label = label,
        .base_color = {1, 1, 1, 1},
        .metallic = 1.0f,   /* glTF's defaults: a factor of 1 scales the texture (white if absent) */
        .roughness = 1.0f,
        .emissive_strength = 1.0f,
        .normal_scale = 1.0f,
        .occlusion_strength = 1.0f,
        .alpha_cutoff = 0.5f,
        .uv_scale = {1, 1},
    };
}

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

static const char *const slot_names[KILN_TEX_COUNT] = {"base colour", "metallic-roughness", "normal", "occlusion",
                                                        "emissive"};

static bool validate_slot(const kiln_material *m, const kiln_texture_registry *registry, int i, kiln_error *err) {
    uint32_t id = m->textures[i];
    if (!id) return true;
    const char *label = m->label ? m->label : "";
    const kiln_texture_info *info = registry ? kiln_texture_registry_info(registry, id) : NULL;
    if (!info || info->kind != KILN_TEXTURE_PLAIN)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "material '%s': %s slot names unknown texture id %u", label,
                              slot_names[i], id);
    if (!kiln_texture_format_filterable(info->format))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "material '%s': %s slot names texture %u, an %s texture a material cannot filter", label,
                              slot_names[i], id, kiln_texture_format_name(info->format));
    return true;
}

/* One row per sampler field, so each range check and its message are stated once. */
static bool validate_sampler(const kiln_material *m, kiln_error *err) {
    const kiln_sampler_state *s = &m->sampler;
    const struct { const char *name; unsigned value, count; } fields[] = {
        {"wrap_u", (unsigned)s->wrap_u, KILN_SAMPLER_WRAP_COUNT},         {"wrap_v", (unsigned)s->wrap_v, KILN_SAMPLER_WRAP_COUNT},
        {"mag_filter", (unsigned)s->mag_filter, KILN_SAMPLER_FILTER_COUNT}, {"min_filter", (unsigned)s->min_filter, KILN_SAMPLER_FILTER_COUNT},
        {"mip_filter", (unsigned)s->mip_filter, KILN_SAMPLER_FILTER_COUNT},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (fields[i].value >= fields[i].count)
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "material '%s': sampler %s %u is out of range (0..%u)",
                                  m->label ? m->label : "", fields[i].name, fields[i].value, fields[i].count - 1);
    return true;
}

bool kiln_material_validate(const kiln_material *m, const kiln_texture_registry *registry, kiln_error *err) {
    if (!m) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "material is NULL");
    for (int i = 0; i < KILN_TEX_COUNT; i++)
        if (!validate_slot(m, registry, i, err)) return false;
    return validate_sampler(m, err);
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
