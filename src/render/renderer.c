/* kiln_renderer: creation and teardown, settings, the mesh and material registries. The frame is
 * in frame.c, its passes in features/. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "abi.h"
#include "features/features.h"
#include "names.h"

static bool supported_output(WGPUTextureFormat f) {
    return kiln_gfx_format_is_srgb(f) || kiln_gfx_format_is_unorm8(f) || f == WGPUTextureFormat_RGBA16Float;
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
    kiln_buffer_desc view = {.label = "view uniform", .size = KILN_VIEW_UNIFORM_SIZE,
                             .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst};
    kiln_buffer_desc lighting = {.label = "lighting uniform", .size = KILN_LIGHTING_UNIFORM_SIZE,
                                 .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst};
    if (!(r->view_uniform = kiln_resources_create_buffer(res, &view, err)).id) return false;
    if (!(r->lighting_uniform = kiln_resources_create_buffer(res, &lighting, err)).id) return false;
    kiln_binding_resource frame[2] = {
        {.binding = 0, .buffer = r->view_uniform, .size = KILN_VIEW_UNIFORM_SIZE},
        {.binding = 1, .buffer = r->lighting_uniform, .size = KILN_LIGHTING_UNIFORM_SIZE},
    };
    r->frame_group = kiln_resources_create_bind_group(res, "frame", r->frame_layout, frame, 2, err);
    if (!r->frame_group.id) return false;
    r->views.pass_uniforms = kiln_resources_create_buffer(res, &(kiln_buffer_desc){.label = "pass uniforms",
        .size = (uint64_t)KILN_MAX_PASS_VIEWS * KILN_PASS_SLOT_SIZE, .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst}, err);
    if (!r->views.pass_uniforms.id) return false;
    return true;
}

/* settings.worker_threads, 0 resolved by the machine: on 2 cores or fewer the per-instance work
 * stays on the calling thread: a second thread was not shown to pay there (kiln-bench stress
 * --threads, docs/PERFORMANCE.md); beyond, one thread per core up to 8. */
static uint32_t automatic_worker_threads(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores <= 2) return 1;
    return cores > 8 ? 8 : (uint32_t)cores;
}

static bool create_workers(kiln_renderer *r, kiln_error *err) {
    uint32_t threads = r->settings.worker_threads ? r->settings.worker_threads : automatic_worker_threads();
    return (r->instances.workers = instance_workers_create(threads, err)) != NULL;
}

/* Allocates every feature's state and creates the features in list order. */
static bool create_features(kiln_renderer *r, kiln_error *err) {
    r->feature_state = calloc(render_feature_count, sizeof *r->feature_state);
    if (!r->feature_state) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory");
    for (uint32_t i = 0; i < render_feature_count; i++) {
        const render_feature *f = render_features[i];
        if (f->state_size && !(r->feature_state[i] = calloc(1, f->state_size)))
            return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory creating feature '%s'", f->name);
        r->features_begun = i + 1; /* destroyed from here on, even when its create fails half way */
        if (f->create && !f->create(r, r->feature_state[i], err)) return false;
    }
    return true;
}

static void destroy_features(kiln_renderer *r) {
    if (!r->feature_state) return;
    for (uint32_t i = r->features_begun; i-- > 0;)
        if (render_features[i]->destroy) render_features[i]->destroy(r, r->feature_state[i]);
    for (uint32_t i = 0; i < render_feature_count; i++) free(r->feature_state[i]);
    free(r->feature_state);
}

kiln_renderer *kiln_renderer_create_sized(kiln_gfx *gfx, kiln_resources *res, const kiln_render_settings *settings,
                                          WGPUTextureFormat output_format, kiln_render_abi abi, kiln_error *err) {
    if (!renderer_abi_check_settings(abi.settings, err)) return NULL;
    kiln_render_settings requested = {0};
    if (settings) kiln_struct_read(&requested, sizeof requested, settings, abi.settings);
    kiln_render_settings resolved;
    if (!kiln_render_settings_resolve(&requested, &resolved, err)) return NULL;
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
    r->requested = requested;
    r->settings = resolved;
    r->output_format = output_format;
    r->output_srgb_encode = kiln_gfx_format_is_unorm8(output_format);
    /* No shader_dir: the embedded set, read from nowhere and never reloaded. */
    kiln_wgsl_source source = {.directory = r->settings.shader_dir};
    if (!source.directory) source = (kiln_wgsl_source){.files = kiln_render_wgsl, .file_count = kiln_render_wgsl_count};
    source.generated = renderer_enums_wgsl(), source.generated_count = 1; /* kiln_enums.wgsl, from names.c */
    kiln_fg_allocator allocator = kiln_fg_gpu_allocator(res);
    /* Every program the renderer loads or reloads has its shared blocks checked against the C
     * layouts before it compiles (uniforms.c). */
    r->library = kiln_shader_library_create(gfx, res, &source, err);
    if (r->library) kiln_shader_library_set_validator(r->library, renderer_check_program_layouts, NULL);
    bool ok = r->library != NULL &&
              (r->graph = kiln_frame_graph_create(&allocator, err)) != NULL &&
              (r->own_textures = kiln_texture_registry_create(res, err)) != NULL &&
              (r->geometry = kiln_geometry_registry_create(res, err)) != NULL &&
              kiln_default_textures_create(res, &r->defaults, err) && renderer_create_layouts(r, err) &&
              create_buffers(r, err) && renderer_ensure_object_buffers(r, 256, 1024, err) &&
              renderer_deform_create(r, err) && create_workers(r, err) &&
              create_features(r, err);
    if (!ok) {
        kiln_renderer_destroy(r);
        return NULL;
    }
    r->texture_registry = r->own_textures;
    renderer_timings_create(r);
    return r;
}

void kiln_renderer_destroy(kiln_renderer *r) {
    if (!r) return;
    kiln_resources *res = r->res;
    renderer_timings_destroy(r);
    renderer_shading_group_destroy(r); /* its groups, before the features' resources they bind */
    destroy_features(r);
    for (uint32_t i = 0; i < r->material_count; i++)
        if (r->materials[i].live) kiln_gpu_material_destroy(&r->materials[i].gpu, res);
    kiln_geometry_registry_destroy(r->geometry);
    free(r->materials);
    sampler_cache_destroy(&r->samplers, res);
    kiln_texture_registry_destroy(r->own_textures); /* after the material groups binding its views */
    renderer_deform_destroy(r); /* the object groups, then the joint and weight buffers */
    if (r->frame_group.id) kiln_resources_destroy_bind_group(res, r->frame_group, NULL);
    if (r->instances.buffer.id) kiln_resources_destroy_buffer(res, r->instances.buffer, NULL);
    if (r->instances.record_index_buffer.id) kiln_resources_destroy_buffer(res, r->instances.record_index_buffer, NULL);
    if (r->views.pass_uniforms.id) kiln_resources_destroy_buffer(res, r->views.pass_uniforms, NULL);
    if (r->lighting_uniform.id) kiln_resources_destroy_buffer(res, r->lighting_uniform, NULL);
    if (r->view_uniform.id) kiln_resources_destroy_buffer(res, r->view_uniform, NULL);
    if (r->library) renderer_destroy_pipelines(r);
    renderer_destroy_layouts(r);
    kiln_default_textures_destroy(&r->defaults, res);
    kiln_frame_graph_destroy(r->graph);
    kiln_shader_library_destroy(r->library);
    instance_workers_destroy(r->instances.workers);
    renderer_free_records(r);
    free(r->caller_instances.data);
    free(r->caller_lights.data);
    free(r);
}

/* A caller of a shorter struct reaches only its prefix of `requested`, so nothing is copied. */
kiln_render_settings *kiln_renderer_settings_sized(kiln_renderer *r, kiln_render_abi abi, kiln_error *err) {
    return renderer_abi_check_settings(abi.settings, err) ? &r->requested : NULL;
}
uint32_t kiln_renderer_worker_threads(const kiln_renderer *r) { return instance_workers_threads(r->instances.workers); }
const kiln_frame_stats *kiln_renderer_stats(const kiln_renderer *r) { return &r->stats; }

/* ---- registries ---------------------------------------------------------------------------- */

uint32_t kiln_renderer_add_mesh(kiln_renderer *r, const char *label, const kiln_mesh_data *data, bool lods,
                                kiln_error *err) {
    uint32_t id = lods ? kiln_geometry_registry_add_lods(r->geometry, label, data, err)
                       : kiln_geometry_registry_add(r->geometry, label, data, err);
    return id ? id - 1 : KILN_INVALID_INDEX;
}

uint32_t kiln_renderer_mesh_lod_count(const kiln_renderer *r, uint32_t index) {
    const kiln_geometry_info *info = index < UINT32_MAX ? kiln_geometry_registry_info(r->geometry, index + 1) : NULL;
    return info ? info->lod_count : 0;
}

bool kiln_renderer_remove_mesh(kiln_renderer *r, uint32_t index, kiln_error *err) {
    uint32_t count = kiln_geometry_registry_count(r->geometry);
    if (index >= count)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: remove_mesh: index %u out of range (%u meshes)",
                              index, count);
    /* An index already removed is removed again without complaint (the registry itself refuses). */
    return !kiln_geometry_registry_info(r->geometry, index + 1) || kiln_geometry_registry_remove(r->geometry, index + 1, err);
}

bool kiln_renderer_replace_mesh(kiln_renderer *r, uint32_t index, const kiln_mesh_data *data, bool lods,
                                kiln_error *err) {
    uint32_t count = kiln_geometry_registry_count(r->geometry);
    if (index >= count)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: replace_mesh: index %u out of range (%u meshes)",
                              index, count);
    const kiln_geometry_info *info = kiln_geometry_registry_info(r->geometry, index + 1);
    if (!info)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "renderer: replace_mesh: mesh %u was removed (add_mesh takes its index again)", index);
    /* Validated here so the message names the renderer's index, not the registry's id. */
    kiln_error why = {0};
    if (!data || !kiln_mesh_data_validate(data, &why))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: replace_mesh: mesh %u '%s': %s", index,
                              info->label, data ? why.message : "data is NULL");
    return kiln_geometry_registry_replace_lods(r->geometry, index + 1, data, lods, err);
}

uint32_t kiln_renderer_mesh_count(const kiln_renderer *r) { return kiln_geometry_registry_count(r->geometry); }

kiln_geometry_registry *kiln_renderer_geometry_registry(kiln_renderer *r) { return r->geometry; }

/* Validation comes first, so a bad state never reaches the sampler cache and a refused material
 * changes nothing. */
static bool upload_material(kiln_renderer *r, const kiln_material *caller, kiln_render_abi abi, renderer_material *out,
                            kiln_error *err) {
    if (!caller) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: material is NULL");
    if (!renderer_abi_check_material(abi, err)) return false;
    renderer_material fresh = {.live = true};
    kiln_struct_read(&fresh.params, sizeof fresh.params, caller, abi.material);
    const kiln_material *m = &fresh.params;
    kiln_sampler sampler;
    bool ok = kiln_material_validate(m, r->texture_registry, err) &&
              sampler_cache_get(&r->samplers, r->res, &m->sampler, &sampler, err) &&
              kiln_gpu_material_upload(r->res, r->material_layout, &r->defaults, r->texture_registry, sampler, m,
                                       &fresh.gpu, err);
    fresh.params.label = NULL; /* the caller's string need not outlive the call */
    if (!ok) return false;
    *out = fresh;
    return true;
}

uint32_t kiln_renderer_add_material_sized(kiln_renderer *r, const kiln_material *material, kiln_render_abi abi,
                                          kiln_error *err) {
    renderer_material *materials =
        kiln_array_reserve(r->materials, &r->material_capacity, r->material_count + 1, sizeof *r->materials);
    if (materials) r->materials = materials;
    if (!materials) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory adding material '%s'",
                       material && material->label ? material->label : "");
        return KILN_INVALID_INDEX;
    }
    if (!upload_material(r, material, abi, &r->materials[r->material_count], err)) return KILN_INVALID_INDEX;
    return r->material_count++;
}

bool kiln_renderer_replace_material_sized(kiln_renderer *r, uint32_t index, const kiln_material *material,
                                          kiln_render_abi abi, kiln_error *err) {
    if (index >= r->material_count)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: replace_material: index %u out of range (%u materials)",
                              index, r->material_count);
    renderer_material fresh;
    if (!upload_material(r, material, abi, &fresh, err)) return false; /* the slot is untouched */
    if (r->materials[index].live) kiln_gpu_material_destroy(&r->materials[index].gpu, r->res);
    r->materials[index] = fresh;
    return true;
}

bool kiln_renderer_remove_material(kiln_renderer *r, uint32_t index, kiln_error *err) {
    if (index >= r->material_count)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: remove_material: index %u out of range (%u materials)",
                              index, r->material_count);
    if (!r->materials[index].live) return true;
    kiln_gpu_material_destroy(&r->materials[index].gpu, r->res);
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

uint32_t kiln_renderer_reload_shaders(kiln_renderer *r) {
    kiln_shader reloaded[8];
    uint32_t count = kiln_shader_library_check_for_changes(r->library, reloaded, 8);
    /* The bake's pipelines may be new, and the sky they bake with may have changed. */
    if (count) kiln_renderer_invalidate_environment(r);
    return count;
}

/* ---- a new device ----------------------------------------------------------------------------- */

/* Hands the registries back and forth between two renderers, each moved to its new owner's
 * resources: once forward for recreate, once back when recreate must undo itself. */
static void swap_registries(kiln_renderer *a, kiln_renderer *b) {
    kiln_geometry_registry *geometry = a->geometry;
    a->geometry = b->geometry;
    b->geometry = geometry;
    kiln_texture_registry *own = a->own_textures;
    a->own_textures = b->own_textures;
    b->own_textures = own;
    /* A renderer drawing from its own registry follows it; a shared one stays where it is. */
    if (a->texture_registry == b->own_textures) a->texture_registry = a->own_textures;
    if (b->texture_registry == a->own_textures) b->texture_registry = b->own_textures;
    kiln_geometry_registry_move_to(a->geometry, a->res);
    kiln_geometry_registry_move_to(b->geometry, b->res);
    kiln_texture_registry_move_to(a->own_textures, a->res);
    kiln_texture_registry_move_to(b->own_textures, b->res);
}

/* Every material slot of `old` under the same index in `fresh`: live ones uploaded from their CPU
 * descriptions, removed ones left as holes. */
static bool copy_materials(kiln_renderer *fresh, const kiln_renderer *old, kiln_error *err) {
    if (old->material_count) {
        renderer_material *materials =
            kiln_array_reserve(fresh->materials, &fresh->material_capacity, old->material_count, sizeof *materials);
        if (!materials) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: recreate: out of memory for materials");
        fresh->materials = materials;
    }
    for (uint32_t i = 0; i < old->material_count; i++) {
        fresh->materials[i] = (renderer_material){0};
        fresh->material_count = i + 1;
        if (!old->materials[i].live) continue;
        kiln_error why = {0};
        if (!upload_material(fresh, &old->materials[i].params, KILN_RENDER_ABI, &fresh->materials[i], &why))
            return kiln_error_set(err, why.code, "renderer: recreate: material %u: %s", i, why.message);
    }
    return true;
}

kiln_renderer *kiln_renderer_recreate(kiln_renderer *old, kiln_gfx *gfx, kiln_resources *res, kiln_error *err) {
    if (!old || !gfx || !res) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: recreate needs the old renderer, a gfx and resources");
        return NULL;
    }
    bool shared = old->texture_registry != old->own_textures;
    if (shared && kiln_texture_registry_resources(old->texture_registry) != res) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                       "renderer: recreate: the texture registry set with kiln_renderer_set_texture_registry still lives "
                       "in the old resources; move it first (kiln_texture_registry_move_to)");
        return NULL;
    }
    kiln_renderer *fresh = kiln_renderer_create(gfx, res, &old->requested, old->output_format, err);
    if (!fresh) return NULL;
    fresh->alloc_probe = old->alloc_probe;
    if (shared) fresh->texture_registry = old->texture_registry;
    swap_registries(fresh, old);
    if (!copy_materials(fresh, old, err)) {
        /* Undo: old gets its registries back, in its own resources, as they were. */
        swap_registries(fresh, old);
        kiln_renderer_destroy(fresh);
        return NULL;
    }
    kiln_renderer_destroy(old);
    return fresh;
}
