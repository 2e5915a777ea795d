/* kiln_renderer: creation and teardown, the mesh and material registries, and the frame:
 * lights, uniforms, instances, then the passes (renderer_passes.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "renderer_internal.h"

static bool is_srgb(WGPUTextureFormat f) {
    return f == WGPUTextureFormat_RGBA8UnormSrgb || f == WGPUTextureFormat_BGRA8UnormSrgb;
}

static bool is_unorm8(WGPUTextureFormat f) {
    return f == WGPUTextureFormat_RGBA8Unorm || f == WGPUTextureFormat_BGRA8Unorm;
}

static bool supported_output(WGPUTextureFormat f) {
    return is_srgb(f) || is_unorm8(f) || f == WGPUTextureFormat_RGBA16Float;
}

void renderer_alloc_mark(kiln_renderer *r, const char *phase) {
    if (!r->alloc_probe) return;
    uint64_t now = r->alloc_probe();
    if (now != r->alloc_mark)
        kiln_log_add(&r->gfx->diagnostics, KILN_LOG_INFO, "render.alloc", "%s: %llu allocation(s)", phase,
                     (unsigned long long)(now - r->alloc_mark));
    r->alloc_mark = now; /* logging writes into the ring and never allocates */
}

void kiln_renderer_set_alloc_probe(kiln_renderer *r, uint64_t (*probe)(void)) {
    r->alloc_probe = probe;
    r->alloc_mark = probe ? probe() : 0;
}

static bool create_buffers(kiln_renderer *r, kiln_error *err) {
    kiln_resources *res = r->res;
    r->frame_uniform = kiln_gfx_create_buffer(res, &(kiln_buffer_desc){.label = "frame uniform", .size = KILN_FRAME_UNIFORM_SIZE,
                                              .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst}, err);
    if (!r->frame_uniform.id) return false;
    kiln_binding_resource frame = {.binding = 0, .buffer = r->frame_uniform, .size = KILN_FRAME_UNIFORM_SIZE};
    r->frame_group = kiln_gfx_create_bind_group(res, "frame", r->frame_layout, &frame, 1, err);
    if (!r->frame_group.id) return false;
    r->pass_uniforms = kiln_gfx_create_buffer(res, &(kiln_buffer_desc){.label = "pass uniforms",
        .size = (uint64_t)KILN_MAX_PASS_VIEWS * KILN_PASS_SLOT_SIZE, .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst}, err);
    if (!r->pass_uniforms.id) return false;
    r->clusters = kiln_clusters_create(res, r->library, err);
    if (!r->clusters) return false;
    kiln_binding_resource cluster[5] = {
        {.binding = 0, .buffer = kiln_clusters_uniform_buffer(r->clusters), .size = sizeof(kiln_cluster_uniform)},
        {.binding = 1, .buffer = kiln_clusters_light_buffer(r->clusters)},
        {.binding = 2, .buffer = kiln_clusters_count_buffer(r->clusters)},
        {.binding = 3, .buffer = kiln_clusters_index_buffer(r->clusters)},
        {.binding = 4, .buffer = r->pass_uniforms, .size = KILN_PASS_VIEW_SIZE},
    };
    r->cluster_group = kiln_gfx_create_bind_group(res, "pass", r->cluster_layout, cluster, 5, err);
    return r->cluster_group.id != 0;
}

/* Grows the instance buffer (by doubling) to hold `records`, rebuilding the object group. */
static bool ensure_instance_capacity(kiln_renderer *r, uint64_t records, kiln_error *err) {
    if (records == 0) records = 1;
    if (r->instances.id && records <= r->instances_capacity) return true;
    uint64_t cap = r->instances_capacity ? r->instances_capacity : 256;
    while (cap < records) cap *= 2;
    kiln_buffer grown = kiln_gfx_create_buffer(r->res, &(kiln_buffer_desc){.label = "instances", .size = cap * KILN_INSTANCE_RECORD_SIZE,
                                               .usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst}, err);
    if (!grown.id) return false;
    kiln_binding_resource entry = {.binding = 0, .buffer = grown};
    kiln_bind_group group = kiln_gfx_create_bind_group(r->res, "objects", r->object_layout, &entry, 1, err);
    if (!group.id) {
        kiln_gfx_destroy_buffer(r->res, grown, NULL);
        return false;
    }
    if (r->object_group.id) kiln_gfx_destroy_bind_group(r->res, r->object_group, NULL);
    if (r->instances.id) kiln_gfx_destroy_buffer(r->res, r->instances, NULL);
    r->instances = grown;
    r->object_group = group;
    r->instances_capacity = cap;
    return true;
}

kiln_renderer *kiln_renderer_create(kiln_gfx *gfx, kiln_resources *res, const kiln_render_settings *settings,
                                    WGPUTextureFormat output_format, kiln_error *err) {
    kiln_render_settings s = kiln_render_settings_resolve(settings);
    if (s.msaa != 1 && s.msaa != 4) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: msaa must be 1 or 4, not %u", s.msaa);
        return NULL;
    }
    if (!supported_output(output_format)) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                       "renderer: output format 0x%x is not supported (RGBA8/BGRA8 unorm or sRGB, RGBA16Float)",
                       (unsigned)output_format);
        return NULL;
    }
    kiln_renderer *r = calloc(1, sizeof *r);
    if (!r) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory");
        return NULL;
    }
    r->gfx = gfx;
    r->res = res;
    r->settings = s;
    r->output_format = output_format;
    r->output_srgb_encode = is_unorm8(output_format);
    /* No shader_dir: the embedded set, read from nowhere and never reloaded. */
    kiln_wgsl_source source = {.directory = r->settings.shader_dir};
    if (!source.directory) source = (kiln_wgsl_source){.files = kiln_render_wgsl, .file_count = kiln_render_wgsl_count};
    bool ok = (r->library = kiln_shader_library_create(gfx, res, &source, err)) != NULL &&
              (r->graph = kiln_frame_graph_create(res, err)) != NULL &&
              (r->own_textures = kiln_texture_registry_create(res, err)) != NULL &&
              kiln_default_textures_create(res, &r->defaults, err) && renderer_create_layouts(r, err) &&
              renderer_load_programs(r, err) && renderer_ensure_pipelines(r, err) && create_buffers(r, err) &&
              ensure_instance_capacity(r, 256, err);
    if (!ok) {
        kiln_renderer_destroy(r);
        return NULL;
    }
    r->texture_registry = r->own_textures;
    return r;
}

void kiln_renderer_destroy(kiln_renderer *r) {
    if (!r) return;
    kiln_resources *res = r->res;
    for (uint32_t i = 0; i < r->material_count; i++)
        if (r->materials[i].live) kiln_gpu_material_destroy(res, &r->materials[i].gpu);
    for (uint32_t i = 0; i < r->mesh_count; i++)
        if (r->meshes[i].live) kiln_gpu_mesh_destroy(res, &r->meshes[i].gpu);
    free(r->materials);
    free(r->meshes);
    sampler_cache_destroy(&r->samplers, res);
    kiln_texture_registry_destroy(r->own_textures); /* after the material groups binding its views */
    kiln_bind_group groups[] = {r->post_group, r->cluster_group, r->object_group, r->frame_group};
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
        if (groups[i].id) kiln_gfx_destroy_bind_group(res, groups[i], NULL);
    if (r->instances.id) kiln_gfx_destroy_buffer(res, r->instances, NULL);
    if (r->pass_uniforms.id) kiln_gfx_destroy_buffer(res, r->pass_uniforms, NULL);
    if (r->frame_uniform.id) kiln_gfx_destroy_buffer(res, r->frame_uniform, NULL);
    kiln_clusters_destroy(r->clusters);
    if (r->library) renderer_destroy_pipelines(r);
    kiln_pipeline_layout playouts[] = {r->scene_layout, r->sky_layout, r->post_pipeline_layout};
    for (size_t i = 0; i < sizeof playouts / sizeof playouts[0]; i++)
        if (playouts[i].id) kiln_gfx_destroy_pipeline_layout(res, playouts[i], NULL);
    kiln_bind_group_layout layouts[] = {r->frame_layout, r->object_layout, r->material_layout, r->cluster_layout,
                                        r->post_layout, r->empty_layout};
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
        if (layouts[i].id) kiln_gfx_destroy_bind_group_layout(res, layouts[i], NULL);
    kiln_default_textures_destroy(res, &r->defaults);
    kiln_frame_graph_destroy(r->graph);
    kiln_shader_library_destroy(r->library);
    scratch *scratches[] = {&r->spheres, &r->visible, &r->keys, &r->records, &r->batches};
    for (size_t i = 0; i < sizeof scratches / sizeof scratches[0]; i++) free(scratches[i]->data);
    free(r);
}

kiln_render_settings *kiln_renderer_settings(kiln_renderer *r) { return &r->settings; }
const kiln_frame_stats *kiln_renderer_stats(const kiln_renderer *r) { return &r->stats; }

/* ---- registries ---------------------------------------------------------------------------- */

uint32_t kiln_renderer_add_mesh(kiln_renderer *r, const char *label, const kiln_mesh_data *data, bool lods,
                                kiln_error *err) {
    (void)lods; /* LOD levels come with the LOD issue; every mesh has one level until then */
    renderer_mesh *meshes = kiln_array_reserve(r->meshes, &r->mesh_capacity, r->mesh_count + 1, sizeof *r->meshes);
    if (meshes) r->meshes = meshes;
    if (!meshes) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory adding mesh '%s'", label ? label : "");
        return KILN_INVALID_INDEX;
    }
    renderer_mesh m = {.live = true};
    if (!kiln_gpu_mesh_upload(r->res, data, label, &m.gpu, err)) return KILN_INVALID_INDEX;
    r->meshes[r->mesh_count] = m;
    return r->mesh_count++;
}

bool kiln_renderer_remove_mesh(kiln_renderer *r, uint32_t index, kiln_error *err) {
    if (index >= r->mesh_count)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: remove_mesh: index %u out of range (%u meshes)",
                              index, r->mesh_count);
    if (r->meshes[index].live) kiln_gpu_mesh_destroy(r->res, &r->meshes[index].gpu);
    r->meshes[index].live = false;
    return true;
}

uint32_t kiln_renderer_mesh_count(const kiln_renderer *r) { return r->mesh_count; }

/* Validation comes first, so a bad state never reaches the sampler cache and a refused material
 * changes nothing. */
static bool upload_material(kiln_renderer *r, const kiln_material *m, renderer_material *out, kiln_error *err) {
    if (!m) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: material is NULL");
    renderer_material fresh = {.params = *m, .live = true};
    fresh.params.label = NULL; /* the caller's string need not outlive the call */
    kiln_sampler sampler;
    if (!kiln_material_validate(m, r->texture_registry, err) ||
        !sampler_cache_get(&r->samplers, r->res, &m->sampler, &sampler, err) ||
        !kiln_gpu_material_upload(r->res, r->material_layout, &r->defaults, r->texture_registry, sampler, m, &fresh.gpu,
                                  err))
        return false;
    *out = fresh;
    return true;
}

uint32_t kiln_renderer_add_material(kiln_renderer *r, const kiln_material *material, kiln_error *err) {
    renderer_material *materials =
        kiln_array_reserve(r->materials, &r->material_capacity, r->material_count + 1, sizeof *r->materials);
    if (materials) r->materials = materials;
    if (!materials) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory adding material '%s'",
                       material && material->label ? material->label : "");
        return KILN_INVALID_INDEX;
    }
    if (!upload_material(r, material, &r->materials[r->material_count], err)) return KILN_INVALID_INDEX;
    return r->material_count++;
}

bool kiln_renderer_replace_material(kiln_renderer *r, uint32_t index, const kiln_material *material, kiln_error *err) {
    if (index >= r->material_count)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: replace_material: index %u out of range (%u materials)",
                              index, r->material_count);
    renderer_material fresh;
    if (!upload_material(r, material, &fresh, err)) return false; /* the slot is untouched */
    if (r->materials[index].live) kiln_gpu_material_destroy(r->res, &r->materials[index].gpu);
    r->materials[index] = fresh;
    return true;
}

bool kiln_renderer_remove_material(kiln_renderer *r, uint32_t index, kiln_error *err) {
    if (index >= r->material_count)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: remove_material: index %u out of range (%u materials)",
                              index, r->material_count);
    if (!r->materials[index].live) return true;
    kiln_gpu_material_destroy(r->res, &r->materials[index].gpu);
    r->materials[index].live = false;
    return true;
}

bool kiln_renderer_material_is_live(const kiln_renderer *r, uint32_t index) {
    return index < r->material_count && r->materials[index].live;
}

uint32_t kiln_renderer_material_count(const kiln_renderer *r) { return r->material_count; }

static bool names_a_texture(const kiln_material *m) {
    for (int i = 0; i < KILN_TEX_COUNT; i++)
        if (m->textures[i]) return true;
    return false;
}

/* A live material's group binds views of the current registry's textures, and its ids mean
 * nothing in another registry: switching under it would leave it naming the wrong textures. */
bool kiln_renderer_set_texture_registry(kiln_renderer *r, kiln_texture_registry *registry, kiln_error *err) {
    kiln_texture_registry *next = registry ? registry : r->own_textures;
    if (next == r->texture_registry) return true;
    for (uint32_t i = 0; i < r->material_count; i++)
        if (r->materials[i].live && names_a_texture(&r->materials[i].params))
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                  "renderer: set_texture_registry: material %u names textures of the current registry; "
                                  "set the registry before adding textured materials", i);
    r->texture_registry = next;
    return true;
}

kiln_texture_registry *kiln_renderer_texture_registry(kiln_renderer *r) { return r->texture_registry; }

/* ---- the frame ------------------------------------------------------------------------------- */

static bool write_frame_uniform(kiln_renderer *r, const kiln_render_scene *scene, const kiln_camera *camera,
                                const kiln_light *sun, bool has_sun, uint32_t w, uint32_t h,
                                kiln_error *err) {
    kiln_frame_uniform_inputs in = {
        .view = kiln_camera_view(camera),
        .projection = kiln_camera_projection(camera),
        .camera_position = camera->position,
        .near = camera->near,
        .width = w,
        .height = h,
        .has_sun = has_sun,
        .sun_direction = has_sun ? sun->direction : (kiln_vec3){0, -1, 0},
        .sun_color = has_sun ? sun->color : (kiln_vec3){0, 0, 0},
        .sun_intensity = has_sun ? sun->intensity : 0.0f,
        .environment = kiln_environment_resolve(&scene->environment),
        .settings = &r->settings,
        .output_srgb_encode = r->output_srgb_encode,
    };
    uint8_t bytes[KILN_FRAME_UNIFORM_SIZE];
    if (!kiln_frame_uniform_pack(&in, bytes, err) || !kiln_gfx_write_buffer(r->res, r->frame_uniform, 0, bytes, sizeof bytes, err))
        return false;
    /* The camera's pass slot follows the cascades and the atlas views (none until shadows). */
    kiln_mat4 view_projection = kiln_mat4_mul(in.projection, in.view);
    r->camera_slot = KILN_PASS_SLOT_FIRST_ATLAS;
    return kiln_gfx_write_buffer(r->res, r->pass_uniforms, (uint64_t)r->camera_slot * KILN_PASS_SLOT_SIZE,
                                 view_projection.m, sizeof view_projection.m, err);
}

bool kiln_renderer_record(kiln_renderer *r, const kiln_render_scene *scene, WGPUTextureView target, uint32_t width,
                          uint32_t height, kiln_encoder *enc, kiln_error *err) {
    kiln_gfx_pump(r->gfx, false);
    if (r->gfx->lost) return kiln_error_set(err, KILN_ERR_DEVICE_LOST, "renderer: device lost; recreate the renderer");
    r->stats = (kiln_frame_stats){0};
    if (!width || !height) return true;
    if (!target) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: target view is NULL");
    renderer_alloc_mark(r, "start");
    /* Material bind groups hold registry views made once; the pixels behind them go up here. */
    if (!kiln_texture_registry_sync(r->texture_registry, err)) return false;
    if (!renderer_ensure_pipelines(r, err)) return false;

    kiln_camera camera = scene->camera;
    kiln_camera_set_viewport(&camera, width, height);
    kiln_light sun;
    bool has_sun = false;
    uint32_t light_count = kiln_pack_lights_into(scene->lights, scene->light_count, r->gpu_lights, KILN_MAX_LIGHTS, &sun,
                                                 &has_sun);
    r->stats.lights = light_count;
    if (!kiln_clusters_update(r->clusters, kiln_camera_view(&camera), kiln_camera_projection(&camera), camera.near,
                              width, height, r->gpu_lights, light_count, err))
        return false;
    renderer_alloc_mark(r, "lights");
    if (!write_frame_uniform(r, scene, &camera, &sun, has_sun, width, height, err)) return false;
    renderer_alloc_mark(r, "frame uniform");

    kiln_render_scene framed = *scene;
    framed.camera = camera;
    if (!renderer_build_batches(r, &framed, err)) return false;
    uint32_t drawn = r->stats.instances_drawn;
    if (!ensure_instance_capacity(r, drawn, err)) return false;
    if (drawn && !kiln_gfx_write_buffer(r->res, r->instances, 0, r->records.data, (size_t)drawn * KILN_INSTANCE_RECORD_SIZE, err))
        return false;
    renderer_alloc_mark(r, "instances");
    return renderer_record_frame(r, target, width, height, enc, err);
}

bool kiln_renderer_render(kiln_renderer *r, const kiln_render_scene *scene, WGPUTextureView target, uint32_t width,
                          uint32_t height, kiln_error *err) {
    if (!width || !height) {
        r->stats = (kiln_frame_stats){0};
        kiln_gfx_pump(r->gfx, false);
        return r->gfx->lost ? kiln_error_set(err, KILN_ERR_DEVICE_LOST, "renderer: device lost; recreate the renderer") : true;
    }
    kiln_encoder enc;
    if (!kiln_encoder_begin(&enc, r->res, "kiln frame", err)) return false;
    if (!kiln_renderer_record(r, scene, target, width, height, &enc, err)) {
        kiln_encoder_discard(&enc);
        return false;
    }
    return kiln_encoder_finish_and_submit(&enc, err);
}

size_t kiln_renderer_graph_dot(const kiln_renderer *r, char *out, size_t size) {
    return kiln_frame_graph_to_graphviz(r->graph, out, size);
}

uint32_t kiln_renderer_reload_shaders(kiln_renderer *r) {
    kiln_shader reloaded[8];
    return kiln_shader_library_check_for_changes(r->library, reloaded, 8);
}
