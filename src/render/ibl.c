/* The environment bake (ibl.h): the textures the forward pass lights with, and the compute passes
 * that fill them from the environment. */
#include <math.h>
#include <string.h>

#include "renderer_internal.h"
#include "ibl.h"

static const char *const STEP_ENTRIES[IBL_STEPS] = {"cs_environment", "cs_downsample", "cs_prefilter", "cs_irradiance",
                                                    "cs_brdf_lut"};
static const char *const STEP_LABELS[IBL_STEPS] = {"ibl environment", "ibl downsample", "ibl prefilter",
                                                   "ibl irradiance", "ibl brdf lut"};

/* Uniform slots, one Bake block each: the environment, one per prefiltered mip, the irradiance. */
enum {
    SLOT_ENVIRONMENT = 0,
    SLOT_PREFILTER = 1,
    SLOT_IRRADIANCE = SLOT_PREFILTER + KILN_IBL_PREFILTERED_MIPS,
    SLOT_COUNT,
};
#define SLOT_SIZE 256u /* the dynamic-offset alignment */

static kiln_texture make_texture(kiln_resources *res, const char *label, uint32_t size, uint32_t layers, uint32_t mips,
                                 kiln_error *err) {
    kiln_texture_desc d = {.label = label, .width = size, .height = size, .depth_or_layers = layers, .mip_levels = mips,
                           .format = WGPUTextureFormat_RGBA16Float,
                           .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_StorageBinding |
                                    WGPUTextureUsage_CopySrc}; /* CopySrc: tests and tools read them back */
    return kiln_resources_create_texture(res, &d, err);
}

static kiln_texture_view make_view(kiln_resources *res, kiln_texture t, WGPUTextureViewDimension dim, uint32_t mip,
                                   uint32_t mip_count, kiln_error *err) {
    kiln_texture_view_desc d = {.dimension = dim, .base_mip = mip, .mip_count = mip_count};
    return kiln_resources_create_texture_view(res, t, &d, err);
}

static bool create_textures(kiln_renderer *r, renderer_ibl *ibl, kiln_error *err) {
    kiln_resources *res = r->res;
    const WGPUTextureViewDimension cube = WGPUTextureViewDimension_Cube, array = WGPUTextureViewDimension_2DArray;
    if (!(ibl->environment = make_texture(res, "ibl environment", KILN_IBL_ENVIRONMENT_SIZE, 6, KILN_IBL_ENVIRONMENT_MIPS, err)).id ||
        !(ibl->prefiltered = make_texture(res, "ibl prefiltered", KILN_IBL_PREFILTERED_SIZE, 6, KILN_IBL_PREFILTERED_MIPS, err)).id ||
        !(ibl->irradiance = make_texture(res, "ibl irradiance", KILN_IBL_IRRADIANCE_SIZE, 6, 1, err)).id ||
        !(ibl->brdf_lut = make_texture(res, "ibl brdf lut", KILN_IBL_BRDF_LUT_SIZE, 1, 1, err)).id)
        return false;
    kiln_texture_desc placeholder = {.label = "no environment map", .width = 1, .height = 1,
                                     .format = WGPUTextureFormat_RGBA16Float, .usage = WGPUTextureUsage_TextureBinding};
    if (!(ibl->placeholder = kiln_resources_create_texture(res, &placeholder, err)).id) return false;
    if (!(ibl->environment_cube = make_view(res, ibl->environment, cube, 0, 0, err)).id ||
        !(ibl->prefiltered_cube = make_view(res, ibl->prefiltered, cube, 0, 0, err)).id ||
        !(ibl->irradiance_cube = make_view(res, ibl->irradiance, cube, 0, 0, err)).id ||
        !(ibl->brdf_lut_view = make_view(res, ibl->brdf_lut, WGPUTextureViewDimension_2D, 0, 0, err)).id ||
        !(ibl->placeholder_view = make_view(res, ibl->placeholder, WGPUTextureViewDimension_2D, 0, 0, err)).id ||
        !(ibl->irradiance_level = make_view(res, ibl->irradiance, array, 0, 1, err)).id)
        return false;
    for (uint32_t m = 0; m < KILN_IBL_ENVIRONMENT_MIPS; m++)
        if (!(ibl->environment_levels[m] = make_view(res, ibl->environment, array, m, 1, err)).id) return false;
    for (uint32_t m = 0; m < KILN_IBL_PREFILTERED_MIPS; m++)
        if (!(ibl->prefiltered_levels[m] = make_view(res, ibl->prefiltered, array, m, 1, err)).id) return false;
    kiln_sampler_desc s = {.label = "ibl", .linear = true, .mip_linear = true, .address_u = WGPUAddressMode_Repeat};
    return (ibl->sampler = kiln_resources_create_sampler(res, &s, err)).id != 0;
}

/* Each step's layout holds only the bindings its entry point uses (shaders/ibl.wgsl's group 0). */
static bool create_pipelines(kiln_renderer *r, renderer_ibl *ibl, kiln_error *err) {
    const WGPUShaderStage cs = WGPUShaderStage_Compute;
    const kiln_layout_entry bake = {.binding = 0, .visibility = cs, .kind = KILN_BINDING_UNIFORM_BUFFER,
                                    .dynamic_offset = true, .min_binding_size = KILN_BAKE_UNIFORM_SIZE};
    const kiln_layout_entry sampler = {.binding = 2, .visibility = cs, .kind = KILN_BINDING_FILTERING_SAMPLER};
    const kiln_layout_entry faces = {.binding = 5, .visibility = cs, .kind = KILN_BINDING_WRITE_ONLY_STORAGE_TEXTURE_2D_ARRAY,
                                     .storage_format = WGPUTextureFormat_RGBA16Float};
    const kiln_layout_entry entries[IBL_STEPS][4] = {
        [IBL_ENVIRONMENT] = {bake, {.binding = 1, .visibility = cs, .kind = KILN_BINDING_TEXTURE_2D}, sampler, faces},
        [IBL_DOWNSAMPLE] = {{.binding = 3, .visibility = cs, .kind = KILN_BINDING_TEXTURE_2D_ARRAY}, faces},
        [IBL_PREFILTER] = {bake, sampler, {.binding = 4, .visibility = cs, .kind = KILN_BINDING_TEXTURE_CUBE}, faces},
        [IBL_IRRADIANCE] = {bake, sampler, {.binding = 4, .visibility = cs, .kind = KILN_BINDING_TEXTURE_CUBE}, faces},
        [IBL_BRDF_LUT] = {{.binding = 6, .visibility = cs, .kind = KILN_BINDING_WRITE_ONLY_STORAGE_TEXTURE_2D,
                           .storage_format = WGPUTextureFormat_RGBA16Float}},
    };
    const uint32_t counts[IBL_STEPS] = {4, 2, 4, 4, 1};
    if (!(ibl->program = kiln_shader_library_load(r->library, "ibl.wgsl", err)).id) return false;
    for (int i = 0; i < IBL_STEPS; i++) {
        if (!(ibl->layouts[i] = kiln_resources_create_bind_group_layout(r->res, STEP_LABELS[i], entries[i], counts[i], err)).id ||
            !(ibl->pipeline_layouts[i] = kiln_resources_create_pipeline_layout(r->res, STEP_LABELS[i], &ibl->layouts[i], 1, err)).id)
            return false;
        kiln_compute_pipeline_desc d = {.label = STEP_LABELS[i], .layout = ibl->pipeline_layouts[i], .shader = ibl->program,
                                        .entry = STEP_ENTRIES[i]};
        if (!(ibl->pipelines[i] = kiln_shader_library_create_watched_compute_pipeline(r->library, &d, err)).id) return false;
    }
    return true;
}

static kiln_bind_group make_group(kiln_renderer *r, const renderer_ibl *ibl, ibl_step step, const kiln_binding_resource *entries, uint32_t count,
                                  kiln_error *err) {
    return kiln_resources_create_bind_group(r->res, STEP_LABELS[step], ibl->layouts[step], entries, count, err);
}

/* The groups that bind only the renderer's own textures, made once. */
static bool create_groups(kiln_renderer *r, renderer_ibl *ibl, kiln_error *err) {
    kiln_binding_resource bake = {.binding = 0, .buffer = ibl->uniform, .size = KILN_BAKE_UNIFORM_SIZE};
    kiln_binding_resource sampler = {.binding = 2, .sampler = ibl->sampler};
    kiln_binding_resource environment = {.binding = 4, .view = ibl->environment_cube};
    for (uint32_t m = 1; m < KILN_IBL_ENVIRONMENT_MIPS; m++) {
        kiln_binding_resource e[2] = {{.binding = 3, .view = ibl->environment_levels[m - 1]},
                                      {.binding = 5, .view = ibl->environment_levels[m]}};
        if (!(ibl->downsample_groups[m - 1] = make_group(r, ibl, IBL_DOWNSAMPLE, e, 2, err)).id) return false;
    }
    for (uint32_t m = 0; m < KILN_IBL_PREFILTERED_MIPS; m++) {
        kiln_binding_resource e[4] = {bake, sampler, environment, {.binding = 5, .view = ibl->prefiltered_levels[m]}};
        if (!(ibl->prefilter_groups[m] = make_group(r, ibl, IBL_PREFILTER, e, 4, err)).id) return false;
    }
    kiln_binding_resource irradiance[4] = {bake, sampler, environment, {.binding = 5, .view = ibl->irradiance_level}};
    kiln_binding_resource table = {.binding = 6, .view = ibl->brdf_lut_view};
    return (ibl->irradiance_group = make_group(r, ibl, IBL_IRRADIANCE, irradiance, 4, err)).id &&
           (ibl->brdf_lut_group = make_group(r, ibl, IBL_BRDF_LUT, &table, 1, err)).id;
}

bool renderer_ibl_create(kiln_renderer *r, renderer_ibl *ibl, kiln_error *err) {
    kiln_buffer_desc uniform = {.label = "ibl bake uniform", .size = SLOT_COUNT * SLOT_SIZE,
                                .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst};
    if (!(ibl->uniform = kiln_resources_create_buffer(r->res, &uniform, err)).id) return false;
    kiln_layout_entry sky[2] = {
        {.binding = 0, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_TEXTURE_2D},
        {.binding = 1, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_FILTERING_SAMPLER},
    };
    if (!(ibl->sky_layout = kiln_resources_create_bind_group_layout(r->res, "sky source", sky, 2, err)).id) return false;
    return create_textures(r, ibl, err) && create_pipelines(r, ibl, err) && create_groups(r, ibl, err);
}

void renderer_ibl_destroy(kiln_renderer *r, renderer_ibl *ibl) {
    kiln_resources *res = r->res;
    kiln_bind_group groups[KILN_IBL_ENVIRONMENT_MIPS - 1 + KILN_IBL_PREFILTERED_MIPS + 3];
    uint32_t n = 0;
    for (uint32_t m = 0; m + 1 < KILN_IBL_ENVIRONMENT_MIPS; m++) groups[n++] = ibl->downsample_groups[m];
    for (uint32_t m = 0; m < KILN_IBL_PREFILTERED_MIPS; m++) groups[n++] = ibl->prefilter_groups[m];
    groups[n++] = ibl->irradiance_group;
    groups[n++] = ibl->brdf_lut_group;
    groups[n++] = ibl->sky_group;
    for (uint32_t i = 0; i < n; i++)
        if (groups[i].id) kiln_resources_destroy_bind_group(res, groups[i], NULL);
    for (int i = 0; i < IBL_STEPS; i++) {
        kiln_shader_library_destroy_watched_compute_pipeline(r->library, ibl->pipelines[i]);
        if (ibl->pipeline_layouts[i].id) kiln_resources_destroy_pipeline_layout(res, ibl->pipeline_layouts[i], NULL);
        if (ibl->layouts[i].id) kiln_resources_destroy_bind_group_layout(res, ibl->layouts[i], NULL);
    }
    if (ibl->sky_layout.id) kiln_resources_destroy_bind_group_layout(res, ibl->sky_layout, NULL);
    kiln_texture_view views[5 + 1 + KILN_IBL_ENVIRONMENT_MIPS + KILN_IBL_PREFILTERED_MIPS];
    n = 0;
    views[n++] = ibl->environment_cube, views[n++] = ibl->prefiltered_cube, views[n++] = ibl->irradiance_cube;
    views[n++] = ibl->brdf_lut_view, views[n++] = ibl->placeholder_view, views[n++] = ibl->irradiance_level;
    for (uint32_t m = 0; m < KILN_IBL_ENVIRONMENT_MIPS; m++) views[n++] = ibl->environment_levels[m];
    for (uint32_t m = 0; m < KILN_IBL_PREFILTERED_MIPS; m++) views[n++] = ibl->prefiltered_levels[m];
    for (uint32_t i = 0; i < n; i++)
        if (views[i].id) kiln_resources_destroy_texture_view(res, views[i], NULL);
    kiln_texture textures[] = {ibl->environment, ibl->prefiltered, ibl->irradiance, ibl->brdf_lut, ibl->placeholder};
    for (size_t i = 0; i < sizeof textures / sizeof textures[0]; i++)
        if (textures[i].id) kiln_resources_destroy_texture(res, textures[i], NULL);
    if (ibl->sampler.id) kiln_resources_destroy_sampler(res, ibl->sampler, NULL);
    if (ibl->uniform.id) kiln_resources_destroy_buffer(res, ibl->uniform, NULL);
}

/* ---- the bake ------------------------------------------------------------------------------- */

static bool vec3_equal(kiln_vec3 a, kiln_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

/* Whether two sources show the same environment: a map by its view and rotation alone, the
 * procedural sky by its colours and the sun it glows around. */
static bool same_source(const ibl_source *a, const ibl_source *b) {
    const kiln_environment *x = &a->environment, *y = &b->environment;
    if (x->equirect != y->equirect) return false;
    if (x->equirect) return a->equirect.id == b->equirect.id && x->rotation == y->rotation;
    if (!vec3_equal(x->zenith, y->zenith) || !vec3_equal(x->ground, y->ground) || x->sun_intensity != y->sun_intensity ||
        a->has_sun != b->has_sun)
        return false;
    return !a->has_sun || (vec3_equal(a->sun_direction, b->sun_direction) && vec3_equal(a->sun_color, b->sun_color));
}

/* The map's view, after checking that the id names a plain Rgba16Float texture. */
static bool resolve_equirect(kiln_renderer *r, uint32_t id, kiln_texture_view *out, kiln_error *err) {
    const kiln_texture_info *info = kiln_texture_registry_info(r->texture_registry, id);
    if (!info)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: environment.equirect names unknown texture id %u", id);
    if (info->kind != KILN_TEXTURE_PLAIN || info->format != KILN_FORMAT_RGBA16_FLOAT)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "renderer: environment.equirect texture %u is %s%s; it must be a plain Rgba16Float texture",
                              id, info->kind == KILN_TEXTURE_PLAIN ? "" : "an array or volume of ",
                              kiln_texture_format_name(info->format));
    kiln_error view_err = {0};
    *out = kiln_texture_registry_view_handle(r->texture_registry, id, &view_err);
    if (!out->id)
        return kiln_error_set(err, view_err.code, "renderer: environment.equirect texture %u: %s", id, view_err.message);
    return true;
}

/* The sky pass's group for the map (or the placeholder), remade when the map's view changes. */
static bool update_sky_group(kiln_renderer *r, renderer_ibl *ibl, kiln_texture_view map, kiln_error *err) {
    kiln_texture_view view = map.id ? map : ibl->placeholder_view;
    if (ibl->sky_group.id && ibl->sky_group_view.id == view.id) return true;
    kiln_binding_resource e[2] = {{.binding = 0, .view = view}, {.binding = 1, .sampler = ibl->sampler}};
    kiln_bind_group group = kiln_resources_create_bind_group(r->res, "sky source", ibl->sky_layout, e, 2, err);
    if (!group.id) return false;
    if (ibl->sky_group.id) kiln_resources_destroy_bind_group(r->res, ibl->sky_group, NULL);
    ibl->sky_group = group;
    ibl->sky_group_view = view;
    return true;
}

static void dispatch(kiln_compute_pass *pass, const renderer_ibl *ibl, ibl_step step, kiln_bind_group group,
                     int slot, uint32_t size, uint32_t layers) {
    uint32_t offset = slot >= 0 ? (uint32_t)slot * SLOT_SIZE : 0;
    kiln_compute_pass_set_pipeline(pass, ibl->pipelines[step], NULL);
    kiln_compute_pass_set_bind_group(pass, 0, group, slot >= 0 ? &offset : NULL, slot >= 0 ? 1 : 0, NULL);
    kiln_compute_pass_dispatch(pass, (size + 7) / 8, (size + 7) / 8, layers);
}

/* Writes the Bake slots, then records every step in order into one compute pass: a pass's
 * dispatches are ordered, and each reads what the one before wrote. */
static bool bake(kiln_renderer *r, renderer_ibl *ibl, const ibl_source *source, kiln_error *err) {
    uint8_t slots[SLOT_COUNT * SLOT_SIZE] = {0};
    kiln_bake_uniform_inputs in = {.environment = source->environment, .has_sun = source->has_sun,
                                   .sun_direction = source->sun_direction, .sun_color = source->sun_color,
                                   .source_size = KILN_IBL_ENVIRONMENT_SIZE, .source_mips = KILN_IBL_ENVIRONMENT_MIPS};
    kiln_bake_uniform_pack(&in, slots + SLOT_ENVIRONMENT * SLOT_SIZE);
    for (uint32_t m = 0; m < KILN_IBL_PREFILTERED_MIPS; m++) {
        in.roughness = (float)m / (float)(KILN_IBL_PREFILTERED_MIPS - 1);
        kiln_bake_uniform_pack(&in, slots + (SLOT_PREFILTER + m) * SLOT_SIZE);
    }
    in.roughness = 0.0f;
    kiln_bake_uniform_pack(&in, slots + SLOT_IRRADIANCE * SLOT_SIZE);
    if (!kiln_resources_write_buffer(r->res, ibl->uniform, 0, slots, sizeof slots, err)) return false;

    kiln_binding_resource e[4] = {
        {.binding = 0, .buffer = ibl->uniform, .size = KILN_BAKE_UNIFORM_SIZE},
        {.binding = 1, .view = source->environment.equirect ? source->equirect : ibl->placeholder_view},
        {.binding = 2, .sampler = ibl->sampler},
        {.binding = 5, .view = ibl->environment_levels[0]},
    };
    kiln_bind_group environment = make_group(r, ibl, IBL_ENVIRONMENT, e, 4, err);
    if (!environment.id) return false;
    kiln_encoder enc;
    kiln_compute_pass pass;
    bool ok = kiln_encoder_begin(&enc, r->res, "environment bake", err);
    if (ok && !kiln_encoder_begin_compute_pass(&enc, "environment bake", &pass, err)) {
        kiln_encoder_discard(&enc);
        ok = false;
    }
    if (ok) {
        if (!ibl->brdf_lut_baked) dispatch(&pass, ibl, IBL_BRDF_LUT, ibl->brdf_lut_group, -1, KILN_IBL_BRDF_LUT_SIZE, 1);
        dispatch(&pass, ibl, IBL_ENVIRONMENT, environment, SLOT_ENVIRONMENT, KILN_IBL_ENVIRONMENT_SIZE, 6);
        for (uint32_t m = 1; m < KILN_IBL_ENVIRONMENT_MIPS; m++)
            dispatch(&pass, ibl, IBL_DOWNSAMPLE, ibl->downsample_groups[m - 1], -1, KILN_IBL_ENVIRONMENT_SIZE >> m, 6);
        for (uint32_t m = 0; m < KILN_IBL_PREFILTERED_MIPS; m++)
            dispatch(&pass, ibl, IBL_PREFILTER, ibl->prefilter_groups[m], (int)(SLOT_PREFILTER + m),
                     KILN_IBL_PREFILTERED_SIZE >> m, 6);
        dispatch(&pass, ibl, IBL_IRRADIANCE, ibl->irradiance_group, SLOT_IRRADIANCE, KILN_IBL_IRRADIANCE_SIZE, 6);
        kiln_compute_pass_end(&pass);
        if (pass.failed) {
            kiln_error_set(err, pass.error.code, "environment bake: %s", pass.error.message);
            kiln_encoder_discard(&enc);
            ok = false;
        } else {
            ok = kiln_encoder_finish_and_submit(&enc, err);
        }
    }
    /* Dawn keeps what a submitted command buffer uses alive; the group can go now. */
    kiln_resources_destroy_bind_group(r->res, environment, NULL);
    if (ok) ibl->brdf_lut_baked = true;
    return ok;
}

bool renderer_ibl_update(kiln_renderer *r, renderer_ibl *ibl, const kiln_environment *environment, const kiln_light *sun,
                         bool has_sun, kiln_error *err) {
    r->stats.environment_bakes = 0;
    ibl_source source = {.environment = kiln_environment_resolve(environment), .has_sun = has_sun};
    if (!isfinite(source.environment.rotation))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: environment.rotation %g is not finite",
                              (double)source.environment.rotation);
    if (source.environment.equirect &&
        !resolve_equirect(r, source.environment.equirect, &source.equirect, err))
        return false;
    if (has_sun) {
        source.sun_direction = sun->direction;
        source.sun_color = sun->color;
    }
    if (!update_sky_group(r, ibl, source.equirect, err)) return false;
    if (ibl->baked && !ibl->invalidated && same_source(&source, &ibl->last)) return true;
    if (!bake(r, ibl, &source, err)) return false;
    ibl->baked = true;
    ibl->invalidated = false;
    ibl->last = source;
    r->stats.environment_bakes = 1;
    return true;
}
