/* Materials: the 96-byte uniform, default textures, image upload with CPU mips, material groups.
 *
 * MaterialParams (material.wgsl), 96 bytes, std140-compatible:
 *    0 base_color         vec4f
 *   16 emissive           vec3f     28 emissive_strength  f32
 *   32 metallic f32       36 roughness f32   40 normal_scale f32   44 occlusion_strength f32
 *   48 alpha_cutoff f32   52 alpha_mode u32  56 double_sided u32   60 uv_rotation f32
 *   64 uv_offset vec2f    72 uv_scale vec2f
 *   80 texcoords u32 (bit i: map i reads uv1)   84..95 padding */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/core/color.h>
#include <kiln/render/material.h>

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

uint32_t kiln_mip_count(uint32_t width, uint32_t height) {
    uint32_t largest = width > height ? width : height, levels = 1;
    while (largest > 1) largest >>= 1, levels++;
    return levels;
}

/* Halves an RGBA8 level with a 2x2 box filter (edge texels repeat for odd sizes). */
static void downsample(const uint8_t *src, uint32_t sw, uint32_t sh, uint8_t *dst, uint32_t dw, uint32_t dh, bool srgb) {
    for (uint32_t y = 0; y < dh; y++)
        for (uint32_t x = 0; x < dw; x++)
            for (int c = 0; c < 4; c++) {
                float sum = 0;
                for (uint32_t dy = 0; dy < 2; dy++)
                    for (uint32_t dx = 0; dx < 2; dx++) {
                        uint32_t sx = 2 * x + dx < sw ? 2 * x + dx : sw - 1, sy = 2 * y + dy < sh ? 2 * y + dy : sh - 1;
                        float v = src[((size_t)sy * sw + sx) * 4 + c] / 255.0f;
                        sum += (srgb && c < 3) ? kiln_srgb_to_linear(v) : v;
                    }
                float avg = sum * 0.25f;
                if (srgb && c < 3) avg = kiln_linear_to_srgb(avg);
                dst[((size_t)y * dw + x) * 4 + c] = kiln_unorm8_from_float(avg);
            }
}

bool kiln_upload_image(kiln_resources *res, const char *label, const kiln_image *img, bool srgb, bool mips,
                       kiln_gpu_texture *out, kiln_error *err) {
    *out = (kiln_gpu_texture){0};
    if (img->format != KILN_IMAGE_RGBA8)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "upload_image '%s': only RGBA8 images are uploaded",
                              label ? label : "");
    uint32_t levels = mips ? kiln_mip_count(img->width, img->height) : 1;
    kiln_texture_desc td = {.label = label, .width = img->width, .height = img->height, .mip_levels = levels,
                            .format = srgb ? WGPUTextureFormat_RGBA8UnormSrgb : WGPUTextureFormat_RGBA8Unorm,
                            .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst};
    out->texture = kiln_gfx_create_texture(res, &td, err);
    if (!out->texture.id) return false;
    /* Two scratch levels, ping-ponged down the chain. */
    size_t bytes = (size_t)img->width * img->height * 4;
    uint8_t *a = levels > 1 ? malloc(bytes) : NULL, *b = levels > 1 ? malloc(bytes) : NULL;
    bool ok = levels == 1 || (a && b);
    if (!ok) kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "upload_image '%s': out of memory for mips", label ? label : "");
    const uint8_t *level = img->pixels;
    uint32_t w = img->width, h = img->height;
    for (uint32_t mip = 0; ok && mip < levels; mip++) {
        ok = kiln_gfx_write_texture(res, out->texture, mip, 0, level, (size_t)w * h * 4, w * 4, w, h, err);
        if (!ok || mip + 1 == levels) break;
        uint32_t nw = w > 1 ? w / 2 : 1, nh = h > 1 ? h / 2 : 1;
        uint8_t *next = (level == a) ? b : a;
        downsample(level, w, h, next, nw, nh, srgb);
        level = next, w = nw, h = nh;
    }
    free(a);
    free(b);
    if (ok) {
        out->view = kiln_gfx_create_texture_view(res, out->texture, NULL, err);
        ok = out->view.id != 0;
    }
    if (!ok) {
        kiln_gpu_texture_destroy(res, out);
        return false;
    }
    out->width = img->width, out->height = img->height, out->mip_levels = levels;
    return true;
}

void kiln_gpu_texture_destroy(kiln_resources *res, kiln_gpu_texture *t) {
    if (t->view.id) kiln_gfx_destroy_texture_view(res, t->view, NULL);
    if (t->texture.id) kiln_gfx_destroy_texture(res, t->texture, NULL);
    *t = (kiln_gpu_texture){0};
}

static bool one_texel(kiln_resources *res, const char *label, const uint8_t rgba[4], kiln_texture *tex,
                      kiln_texture_view *view, kiln_error *err) {
    kiln_texture_desc td = {.label = label, .width = 1, .height = 1, .format = WGPUTextureFormat_RGBA8Unorm,
                            .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst};
    *tex = kiln_gfx_create_texture(res, &td, err);
    if (!tex->id || !kiln_gfx_write_texture(res, *tex, 0, 0, rgba, 4, 4, 1, 1, err)) return false;
    *view = kiln_gfx_create_texture_view(res, *tex, NULL, err);
    return view->id != 0;
}

bool kiln_default_textures_create(kiln_resources *res, kiln_default_textures *d, kiln_error *err) {
    *d = (kiln_default_textures){0};
    static const uint8_t white[4] = {255, 255, 255, 255}, normal[4] = {128, 128, 255, 255}, black[4] = {0, 0, 0, 255};
    bool ok = one_texel(res, "default white", white, &d->white, &d->white_view, err) &&
              one_texel(res, "default flat normal", normal, &d->flat_normal, &d->flat_normal_view, err) &&
              one_texel(res, "default black", black, &d->black, &d->black_view, err);
    if (ok) {
        d->linear_repeat = kiln_gfx_create_sampler(res, &(kiln_sampler_desc){.label = "linear repeat", .linear = true,
                                                   .mip_linear = true, .address = WGPUAddressMode_Repeat, .max_anisotropy = 8}, err);
        d->linear_clamp = kiln_gfx_create_sampler(res, &(kiln_sampler_desc){.label = "linear clamp", .linear = true,
                                                  .mip_linear = true}, err);
        ok = d->linear_repeat.id && d->linear_clamp.id;
    }
    if (!ok) kiln_default_textures_destroy(res, d);
    return ok;
}

void kiln_default_textures_destroy(kiln_resources *res, kiln_default_textures *d) {
    kiln_texture_view views[3] = {d->white_view, d->flat_normal_view, d->black_view};
    kiln_texture textures[3] = {d->white, d->flat_normal, d->black};
    for (int i = 0; i < 3; i++) {
        if (views[i].id) kiln_gfx_destroy_texture_view(res, views[i], NULL);
        if (textures[i].id) kiln_gfx_destroy_texture(res, textures[i], NULL);
    }
    if (d->linear_repeat.id) kiln_gfx_destroy_sampler(res, d->linear_repeat, NULL);
    if (d->linear_clamp.id) kiln_gfx_destroy_sampler(res, d->linear_clamp, NULL);
    *d = (kiln_default_textures){0};
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
    return kiln_gfx_create_bind_group_layout(res, "material", entries, KILN_TEX_COUNT + 2, err);
}

static const char *const slot_names[KILN_TEX_COUNT] = {"base colour", "metallic-roughness", "normal", "occlusion",
                                                        "emissive"};

/* The view bound in slot i: a registry texture, the material's own view, or the default. */
static bool slot_view(kiln_texture_registry *registry, const kiln_material *m, int i, kiln_texture_view fallback,
                      kiln_texture_view *out, kiln_error *err) {
    uint32_t id = m->registry_textures[i];
    if (!id) {
        *out = m->textures[i].id ? m->textures[i] : fallback;
        return true;
    }
    if (!registry)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "material '%s': %s slot names registry texture %u but the renderer has no texture registry",
                              m->label ? m->label : "", slot_names[i], id);
    const kiln_texture_info *info = kiln_textures_info(registry, id);
    if (!info || info->kind != KILN_TEXTURE_PLAIN)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "material '%s': %s slot names unknown texture id %u",
                              m->label ? m->label : "", slot_names[i], id);
    if (info->format == KILN_FORMAT_R32_FLOAT)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "material '%s': %s slot names texture %u, an R32Float texture a material cannot filter",
                              m->label ? m->label : "", slot_names[i], id);
    *out = kiln_textures_view_handle(registry, id, err);
    return out->id != 0;
}

bool kiln_gpu_material_upload(kiln_resources *res, kiln_bind_group_layout layout, const kiln_default_textures *d,
                              kiln_texture_registry *registry, const kiln_material *m, kiln_gpu_material *out,
                              kiln_error *err) {
    *out = (kiln_gpu_material){.alpha_mode = m->alpha_mode, .double_sided = m->double_sided};
    const kiln_texture_view fallback[KILN_TEX_COUNT] = {d->white_view, d->white_view, d->flat_normal_view, d->white_view,
                                                        d->white_view};
    kiln_texture_view views[KILN_TEX_COUNT];
    for (int i = 0; i < KILN_TEX_COUNT; i++)
        if (!slot_view(registry, m, i, fallback[i], &views[i], err)) return false;
    uint8_t params[KILN_MATERIAL_UNIFORM_SIZE];
    kiln_material_pack_uniform(m, params);
    out->uniform = kiln_gfx_create_buffer(res, &(kiln_buffer_desc){.label = m->label, .size = KILN_MATERIAL_UNIFORM_SIZE,
                                          .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst}, err);
    if (!out->uniform.id) return false;
    if (!kiln_gfx_write_buffer(res, out->uniform, 0, params, sizeof params, err)) goto fail;
    kiln_binding_resource entries[KILN_TEX_COUNT + 2];
    entries[0] = (kiln_binding_resource){.binding = 0, .buffer = out->uniform, .size = KILN_MATERIAL_UNIFORM_SIZE};
    for (int i = 0; i < KILN_TEX_COUNT; i++)
        entries[1 + i] = (kiln_binding_resource){.binding = 1 + (uint32_t)i, .view = views[i]};
    entries[KILN_TEX_COUNT + 1] = (kiln_binding_resource){.binding = KILN_TEX_COUNT + 1,
                                                          .sampler = m->sampler.id ? m->sampler : d->linear_repeat};
    out->group = kiln_gfx_create_bind_group(res, m->label, layout, entries, KILN_TEX_COUNT + 2, err);
    if (out->group.id) return true;
fail:
    kiln_gpu_material_destroy(res, out);
    return false;
}

void kiln_gpu_material_destroy(kiln_resources *res, kiln_gpu_material *g) {
    if (g->group.id) kiln_gfx_destroy_bind_group(res, g->group, NULL);
    if (g->uniform.id) kiln_gfx_destroy_buffer(res, g->uniform, NULL);
    g->group = (kiln_bind_group){0};
    g->uniform = (kiln_buffer){0};
}
