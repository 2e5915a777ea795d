/* One frame: pump the device, resolve the settings, sync the registries, gather the lights (one
 * loop: records, sun, atlas views), let every feature prepare (the environment bake, the cluster
 * uniform), write the View and Lighting blocks, build the views (the camera's, then each
 * feature's: the shadow views; cull, sort, batch), upload instance records and pass views, let
 * every feature declare its passes on the frame blackboard, compile the graph and execute it into
 * the caller's encoder, every pass timed where the device has timestamp queries
 * (pass_timings.c). Nothing here waits on the GPU, and after warm-up nothing allocates. */
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "features/features.h"

static bool check_target(const kiln_renderer *r, kiln_render_target target, uint32_t *width, uint32_t *height,
                         kiln_error *err) {
    if (!target.texture || !target.view)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: the target has no %s",
                              target.texture ? "view" : "texture");
    kiln_texture_desc t = kiln_gfx_raw_texture_desc(target.texture);
    if (t.format != r->output_format)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "renderer: the target's format 0x%x is not the renderer's output format 0x%x",
                              (unsigned)t.format, (unsigned)r->output_format);
    if (!(t.usage & WGPUTextureUsage_RenderAttachment))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: the target texture is not a render attachment");
    if (t.sample_count != 1 || t.depth_or_layers != 1)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "renderer: the target must be one 2D layer of one sample, not %u layers of %u samples",
                              t.depth_or_layers, t.sample_count);
    *width = t.width;
    *height = t.height;
    return true;
}

/* One optional data output: absent (both NULL), or a texture and view of the target's size, one
 * sample, one layer, `format`, render attachment. */
static bool check_data_output(WGPUTexture texture, WGPUTextureView view, const char *name, WGPUTextureFormat format,
                              const char *format_name, uint32_t width, uint32_t height, kiln_error *err) {
    if (!texture && !view) return true;
    if (!texture || !view)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: the target's %s has a %s but no %s", name,
                              texture ? "texture" : "view", texture ? "view" : "texture");
    kiln_texture_desc t = kiln_gfx_raw_texture_desc(texture);
    if (t.format != format)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: the target's %s has format 0x%x, not %s", name,
                              (unsigned)t.format, format_name);
    if (!(t.usage & WGPUTextureUsage_RenderAttachment))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: the target's %s is not a render attachment",
                              name);
    if (t.width != width || t.height != height || t.sample_count != 1 || t.depth_or_layers != 1)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "renderer: the target's %s is %ux%u (%u layers, %u samples), not the target's %ux%u "
                              "(1 layer, 1 sample)",
                              name, t.width, t.height, t.depth_or_layers, t.sample_count, width, height);
    return true;
}

/* The View and Lighting blocks of group 0. */
static bool write_frame_blocks(kiln_renderer *r, const kiln_render_scene *scene, kiln_error *err) {
    const kiln_camera *camera = &r->frame.camera;
    const render_frame_lights *lights = &r->lights;
    kiln_view_uniform_inputs view = {
        .view = kiln_camera_view(camera),
        .projection = kiln_camera_projection(camera),
        .camera_position = camera->position,
        .near = camera->near,
        .width = r->frame.width,
        .height = r->frame.height,
        .debug = r->settings.debug,
    };
    kiln_lighting_uniform_inputs lighting = {
        .has_sun = lights->has_sun,
        .sun_direction = lights->has_sun ? lights->sun.direction : (kiln_vec3){0, -1, 0},
        .sun_color = lights->has_sun ? lights->sun.color : (kiln_vec3){0, 0, 0},
        .sun_intensity = lights->has_sun ? lights->sun.intensity : 0.0f,
        .environment = kiln_environment_resolve(&scene->environment),
        .ibl_intensity = r->settings.ibl_intensity,
    };
    uint8_t view_bytes[KILN_VIEW_UNIFORM_SIZE], lighting_bytes[KILN_LIGHTING_UNIFORM_SIZE];
    kiln_view_uniform_pack(&view, view_bytes);
    kiln_lighting_uniform_pack(&lighting, lighting_bytes);
    return kiln_resources_write_buffer(r->res, r->view_uniform, 0, view_bytes, sizeof view_bytes, err) &&
           kiln_resources_write_buffer(r->res, r->lighting_uniform, 0, lighting_bytes, sizeof lighting_bytes, err);
}

/* Every view's view-projection into its pass-uniform slot, the changed instance records and
 * the views' record indices, then the object groups rebound if a buffer they bind was replaced. */
static bool upload_views(kiln_renderer *r, kiln_error *err) {
    for (uint32_t i = 0; i < r->views.count; i++) {
        const render_view *v = &r->views.list[i];
        uint8_t pass_view[KILN_PASS_VIEW_SIZE];
        kiln_pass_view_pack(kiln_mat4_mul(v->projection, v->view), pass_view);
        if (!kiln_resources_write_buffer(r->res, r->views.pass_uniforms, (uint64_t)v->slot * KILN_PASS_SLOT_SIZE, pass_view,
                                         sizeof pass_view, err))
            return false;
    }
    return renderer_upload_records(r, r->stats.instances_submitted, err) && renderer_deform_bind(r, err);
}

/* The target is the frame's, not a feature's: imported and exported here as "target", so
 * whichever feature writes it last (the tone map or FXAA) is kept, and nothing else may claim
 * it; the same for the data outputs the target has. "display" starts as the target: it is where
 * the tone map writes, which a filter of the display image moves (features/fxaa.c). */
static void publish_target(kiln_renderer *r, render_frame *f) {
    kiln_fg_texture_desc out = {.width = f->width, .height = f->height, .format = r->output_format,
                                .usage = WGPUTextureUsage_RenderAttachment};
    kiln_fg_resource target = kiln_frame_graph_import_view(r->graph, "target", f->target.view, f->target.texture, &out);
    kiln_frame_graph_export(r->graph, target);
    render_blackboard_put(&f->board, "target", target);
    render_blackboard_put(&f->board, "display", target);
    kiln_fg_texture_desc data = {.width = f->width, .height = f->height, .format = WGPUTextureFormat_R32Float,
                                 .usage = WGPUTextureUsage_RenderAttachment};
    kiln_fg_resource linear_depth = {0}, object_ids = {0};
    if (f->target.linear_depth) {
        linear_depth = kiln_frame_graph_import_view(r->graph, "linear depth", f->target.linear_depth_view,
                                                    f->target.linear_depth, &data);
        kiln_frame_graph_export(r->graph, linear_depth);
    }
    data.format = WGPUTextureFormat_R32Uint;
    if (f->target.object_ids) {
        object_ids = kiln_frame_graph_import_view(r->graph, "object ids", f->target.object_ids_view, f->target.object_ids,
                                                  &data);
        kiln_frame_graph_export(r->graph, object_ids);
    }
    render_blackboard_put(&f->board, "linear depth", linear_depth); /* absent where the target has none */
    render_blackboard_put(&f->board, "object ids", object_ids);
}

static bool run_graph(kiln_renderer *r, kiln_encoder *enc, kiln_error *err) {
    kiln_frame_graph_reset(r->graph);
    render_frame *f = &r->frame;
    publish_target(r, f);
    for (uint32_t i = 0; i < render_feature_count; i++) {
        if (!render_features[i]->declare) continue;
        f->board.feature = render_features[i]->name;
        render_features[i]->declare(r, r->feature_state[i], f);
    }
    if (!render_blackboard_check(&f->board, err)) return false;
    renderer_alloc_mark(r, "graph declare");
    if (!kiln_frame_graph_compile(r->graph, err)) return false;
    renderer_timings_place(r);
    renderer_alloc_mark(r, "graph compile");
    uint32_t passes;
    kiln_frame_graph_order(r->graph, &passes);
    r->stats.passes = passes;
    r->stats.transient_textures = kiln_frame_graph_physical_count(r->graph);
    if (!kiln_frame_graph_execute(r->graph, enc, err)) return false;
    renderer_timings_resolve(r, enc);
    for (uint32_t i = 0; i < render_feature_count; i++)
        if (render_features[i]->finish) render_features[i]->finish(r, r->feature_state[i], enc);
    renderer_alloc_mark(r, "recording");
    return true;
}

/* Each feature's prepare, in list order: before anything of the frame is recorded, so a bake is
 * its own submit, ahead of the frame's. */
static bool prepare_features(kiln_renderer *r, const kiln_render_scene *scene, kiln_error *err) {
    for (uint32_t i = 0; i < render_feature_count; i++)
        if (render_features[i]->prepare && !render_features[i]->prepare(r, r->feature_state[i], scene, err))
            return false;
    return true;
}

/* The camera's view first (it chooses each instance's level of detail), then every feature's. */
static bool add_views(kiln_renderer *r, const kiln_render_scene *scene, kiln_error *err) {
    if (!renderer_begin_views(r, scene, err)) return false;
    const kiln_camera *camera = &r->frame.camera;
    uint32_t camera_view =
        renderer_add_view(r, scene, kiln_camera_view(camera), kiln_camera_projection(camera), false, err);
    if (camera_view == UINT32_MAX) return false;
    r->frame.camera_view = &r->views.list[camera_view];
    for (uint32_t i = 0; i < render_feature_count; i++)
        if (render_features[i]->add_views && !render_features[i]->add_views(r, r->feature_state[i], scene, err))
            return false;
    return true;
}

/* The caller's scene and target in the library's layout: each struct read as far as the caller's
 * size goes, the arrays at the caller's stride. */
static bool read_caller_frame(kiln_renderer *r, const kiln_render_scene *caller_scene,
                              const kiln_render_target *caller_target, kiln_render_abi abi, kiln_render_scene *scene,
                              kiln_render_target *target, kiln_error *err) {
    if (!caller_scene) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: scene is NULL");
    if (!caller_target) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: target is NULL");
    if (!renderer_abi_check_scene(abi, err)) return false;
    kiln_struct_read(scene, sizeof *scene, caller_scene, abi.scene);
    kiln_struct_read(target, sizeof *target, caller_target, abi.target);
    const kiln_render_instance *instances = scene->instances;
    const kiln_light *lights = scene->lights;
    scene->instances = renderer_abi_array(instances, scene->instance_count, abi.instance,
                                          sizeof(kiln_render_instance), &r->caller_instances);
    scene->lights = renderer_abi_array(lights, scene->light_count, abi.light, sizeof(kiln_light), &r->caller_lights);
    if ((instances && !scene->instances) || (lights && !scene->lights))
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY,
                              "renderer: out of memory reading the caller's %u instances and %u lights",
                              scene->instance_count, scene->light_count);
    return true;
}

bool kiln_renderer_record_sized(kiln_renderer *r, const kiln_render_scene *caller_scene,
                                const kiln_render_target *caller_target, kiln_encoder *enc, kiln_render_abi abi,
                                kiln_error *err) {
    kiln_render_scene scene_copy;
    kiln_render_target target;
    if (!read_caller_frame(r, caller_scene, caller_target, abi, &scene_copy, &target, err)) return false;
    const kiln_render_scene *scene = &scene_copy;
    kiln_gfx_pump(r->gfx, false);
    if (r->gfx->lost) return kiln_error_set(err, KILN_ERR_DEVICE_LOST, "renderer: device lost; recreate the renderer");
    renderer_timings_collect(r);
    r->frames_recorded++;
    r->stats = (kiln_frame_stats){0};
    uint32_t width = 0, height = 0;
    if (!check_target(r, target, &width, &height, err) ||
        !check_data_output(target.linear_depth, target.linear_depth_view, "linear_depth", WGPUTextureFormat_R32Float,
                           "R32Float", width, height, err) ||
        !check_data_output(target.object_ids, target.object_ids_view, "object_ids", WGPUTextureFormat_R32Uint, "R32Uint",
                           width, height, err))
        return false;
    r->data_outputs = target.linear_depth || target.object_ids;
    if (!kiln_camera_check(&scene->camera, err)) return false;
    kiln_render_settings settings;
    if (!kiln_render_settings_resolve(&r->requested, &settings, err)) return false;
    settings.shader_dir = r->settings.shader_dir; /* read at creation only */
    r->settings = settings;
    renderer_alloc_mark(r, "start");
    /* Material bind groups hold registry views made once; the pixels behind them go up here. */
    if (!kiln_texture_registry_sync(r->texture_registry, err)) return false;
    if (!kiln_geometry_registry_sync(r->geometry, err)) return false;
    /* Joint offsets and morph weights are checked before anything of the frame is recorded. */
    if (!renderer_deform_prepare(r, scene, err)) return false;
    renderer_alloc_mark(r, "joints and morph weights");

    render_frame *f = &r->frame;
    f->width = width;
    f->height = height;
    f->target = target;
    f->camera = scene->camera;
    kiln_camera_set_viewport(&f->camera, width, height);
    f->camera_view = NULL;
    render_blackboard_clear(&f->board);
    /* The one loop over the lights: records in scene order, each casting light its atlas views. */
    render_frame_lights_gather(&r->lights, scene->lights, scene->light_count, !r->settings.disable_shadows,
                               r->settings.atlas_size, r->settings.atlas_tile);
    r->stats.lights = r->lights.count;
    r->stats.shadowed_lights = r->lights.shadowed;
    if (!prepare_features(r, scene, err)) return false;
    renderer_alloc_mark(r, "features prepared");
    if (!write_frame_blocks(r, scene, err)) return false;
    renderer_alloc_mark(r, "view and lighting");

    if (!add_views(r, scene, err)) return false;
    renderer_pack_records(r, scene);
    if (!upload_views(r, err)) return false;
    r->stats.instances_drawn = r->frame.camera_view->record_count;
    renderer_alloc_mark(r, "instances");
    /* The group the depth passes bind this frame: after prepare, which may replace a buffer. */
    if (!(r->depth_group = renderer_shading_group(r, NULL, err)).id) return false;
    return run_graph(r, enc, err);
}

bool kiln_renderer_render_sized(kiln_renderer *r, const kiln_render_scene *scene, const kiln_render_target *target,
                                kiln_render_abi abi, kiln_error *err) {
    kiln_encoder enc;
    if (!kiln_encoder_begin(&enc, r->res, "kiln frame", err)) return false;
    if (!kiln_renderer_record_sized(r, scene, target, &enc, abi, err)) {
        kiln_encoder_discard(&enc);
        return false;
    }
    return kiln_encoder_finish_and_submit(&enc, err);
}

size_t kiln_renderer_graph_dot(const kiln_renderer *r, char *out, size_t size) {
    return kiln_frame_graph_to_graphviz(r->graph, out, size);
}
