/* Shadows on the renderer's side: each frame the sun's four cascades are fitted (cascades.c) and
 * the spot and point lights that cast shadows get views in the atlas (shadow_atlas.c); all are
 * added as shadow views, so they are culled, batched and drawn like the camera. The Shadows and
 * AtlasViews blocks tell the shading passes where to look; the shading pass group binds the
 * frame's maps. The passes that draw the maps are the shadows feature's (features/shadows.c). */
#include "renderer_internal.h"

bool renderer_shadows_create(kiln_renderer *r, kiln_error *err) {
    renderer_shadows *s = &r->shadows;
    kiln_buffer_desc uniform = {.label = "shadows uniform", .size = KILN_SHADOWS_UNIFORM_SIZE,
                                .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst};
    if (!(s->uniform = kiln_resources_create_buffer(r->res, &uniform, err)).id) return false;
    if (!(s->comparison = kiln_resources_create_comparison_sampler(r->res, "shadow comparison", err)).id) return false;
    kiln_texture_desc placeholder = {.label = "no cascade maps", .width = 1, .height = 1, .format = RENDER_DEPTH_FORMAT,
                                     .usage = WGPUTextureUsage_TextureBinding};
    if (!(s->placeholder = kiln_resources_create_texture(r->res, &placeholder, err)).id) return false;
    kiln_texture_view_desc array = {.dimension = WGPUTextureViewDimension_2DArray};
    if (!(s->placeholder_view = kiln_resources_create_texture_view(r->res, s->placeholder, &array, err)).id) return false;
    placeholder.label = "no shadow atlas";
    if (!(s->atlas_placeholder = kiln_resources_create_texture(r->res, &placeholder, err)).id ||
        !(s->atlas_placeholder_view = kiln_resources_create_texture_view(r->res, s->atlas_placeholder, NULL, err)).id)
        return false;
    kiln_buffer_desc atlas = {.label = "atlas views uniform", .size = KILN_ATLAS_VIEWS_UNIFORM_SIZE,
                              .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst};
    if (!(s->atlas_uniform = kiln_resources_create_buffer(r->res, &atlas, err)).id) return false;
    /* One group per frame (by its map, atlas and AO views, or their placeholders); a few entries
     * ride out the frames a resize or a change of what casts hands out new ones. */
    s->shading_groups = kiln_bind_group_cache_create(r->res, 4, err);
    return s->shading_groups != NULL;
}

void renderer_shadows_destroy(kiln_renderer *r) {
    renderer_shadows *s = &r->shadows;
    kiln_bind_group_cache_destroy(s->shading_groups); /* before what its groups bind */
    if (s->placeholder_view.id) kiln_resources_destroy_texture_view(r->res, s->placeholder_view, NULL);
    if (s->atlas_placeholder_view.id) kiln_resources_destroy_texture_view(r->res, s->atlas_placeholder_view, NULL);
    if (s->atlas_placeholder.id) kiln_resources_destroy_texture(r->res, s->atlas_placeholder, NULL);
    if (s->atlas_uniform.id) kiln_resources_destroy_buffer(r->res, s->atlas_uniform, NULL);
    if (s->placeholder.id) kiln_resources_destroy_texture(r->res, s->placeholder, NULL);
    if (s->comparison.id) kiln_resources_destroy_sampler(r->res, s->comparison, NULL);
    if (s->uniform.id) kiln_resources_destroy_buffer(r->res, s->uniform, NULL);
}

void renderer_shadows_assign_atlas(kiln_renderer *r, const kiln_render_scene *scene) {
    renderer_shadows *s = &r->shadows;
    kiln_shadow_atlas_init(&s->atlas, r->settings.atlas_size, r->settings.atlas_tile);
    r->stats.shadowed_lights = 0;
    if (r->settings.disable_shadows) return;
    /* The records are the scene's point and spot lights in order, as kiln_pack_lights_into
     * packed them: walk the scene the same way to find each record's light. */
    uint32_t record = 0;
    for (uint32_t i = 0; i < scene->light_count && record < r->stats.lights; i++) {
        const kiln_light *l = &scene->lights[i];
        if (l->kind == KILN_LIGHT_SUN) continue;
        if (l->cast_shadows) {
            int32_t first = kiln_shadow_atlas_allocate(&s->atlas, l);
            r->gpu_lights[record].shadow_view = first;
            r->stats.shadowed_lights += first >= 0;
        }
        record++;
    }
}

bool renderer_shadows_add_views(kiln_renderer *r, const kiln_render_scene *scene, const kiln_camera *camera,
                                const kiln_light *sun, bool has_sun, kiln_error *err) {
    renderer_shadows *s = &r->shadows;
    const kiln_render_settings *settings = &r->settings;
    s->cascade_count = 0;
    if (!settings->disable_shadows && has_sun && !sun->disable_shadow_casting &&
        camera->near < settings->shadow_distance) {
        kiln_cascades_fit_into(s->cascades, camera, sun->direction, settings->shadow_distance,
                               settings->cascade_resolution);
        s->first_view = r->view_count;
        for (uint32_t i = 0; i < KILN_CASCADE_COUNT; i++)
            if (renderer_add_view(r, scene, s->cascades[i].view, s->cascades[i].projection, true, err) == UINT32_MAX)
                return false;
        s->cascade_count = KILN_CASCADE_COUNT;
    }
    s->atlas_first_view = r->view_count;
    for (uint32_t i = 0; i < s->atlas.count; i++)
        if (renderer_add_view(r, scene, s->atlas.views[i].view, s->atlas.views[i].projection, true, err) == UINT32_MAX)
            return false;
    r->stats.shadow_views = s->cascade_count + s->atlas.count;
    uint8_t block[KILN_SHADOWS_UNIFORM_SIZE];
    kiln_shadows_uniform_pack(s->cascades, s->cascade_count, settings->cascade_resolution, block);
    if (!kiln_resources_write_buffer(r->res, s->uniform, 0, block, sizeof block, err)) return false;
    /* Only the views handed out: the shaders index no others. */
    for (uint32_t i = 0; i < s->atlas.count; i++)
        kiln_atlas_view_pack(&s->atlas.views[i], s->atlas.size, s->atlas.tile_size, s->atlas_block + i * KILN_ATLAS_VIEW_SIZE);
    return !s->atlas.count || kiln_resources_write_buffer(r->res, s->atlas_uniform, 0, s->atlas_block,
                                                          s->atlas.count * KILN_ATLAS_VIEW_SIZE, err);
}

kiln_bind_group renderer_shading_pass_group(kiln_renderer *r, kiln_fg_context *ctx, kiln_fg_resource cascade_maps,
                                            kiln_fg_resource atlas, kiln_fg_resource ao) {
    if (!cascade_maps.index && !atlas.index && !ao.index) return r->pass_group;
    kiln_texture_view maps = cascade_maps.index ? kiln_fg_context_view_handle(ctx, cascade_maps) : r->shadows.placeholder_view;
    kiln_texture_view tiles = atlas.index ? kiln_fg_context_view_handle(ctx, atlas) : r->shadows.atlas_placeholder_view;
    kiln_texture_view ao_view = ao.index ? kiln_fg_context_view_handle(ctx, ao) : r->defaults.white_view;
    if (!maps.id || !tiles.id || !ao_view.id) return (kiln_bind_group){0};
    kiln_binding_resource entries[RENDER_PASS_GROUP_ENTRIES];
    renderer_pass_group_entries(r, maps, tiles, ao_view, entries);
    return kiln_bind_group_cache_get(r->shadows.shading_groups, "shading pass", r->pass_layout, entries,
                                     RENDER_PASS_GROUP_ENTRIES, &ctx->error);
}
