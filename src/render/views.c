/* Views: per frame on the CPU, the scene's bounding spheres are transformed once; then for each
 * view they are culled four at a time against its frustum, each visible instance given its level
 * of detail (lod_select.h), the visible instances sorted by a collision-free key, the instance
 * records written in that order (each view's run contiguous in one buffer) and the sorted run
 * cut into batches drawn with first_instance. Blended instances
 * follow, sorted back to front. A view draws its batches with the scene pipelines the batch's
 * material needs. A shadow view (a cascade) is culled and batched the same way, over the
 * instances that cast shadows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lod_select.h"
#include "renderer_internal.h"

bool scratch_reserve(scratch *s, size_t bytes) {
    if (bytes <= s->capacity) return true;
    size_t cap = s->capacity ? s->capacity : 4096;
    while (cap < bytes) cap *= 2;
    void *grown = realloc(s->data, cap);
    if (!grown) return false;
    s->data = grown;
    s->capacity = cap;
    return true;
}

/* An in-place heapsort of 64-bit keys: no allocation (glibc's qsort may allocate), and the keys
 * carry the instance index in their low bits, so equal sort keys still order deterministically. */
static void sift_down(uint64_t *a, size_t start, size_t end) {
    size_t root = start;
    while (2 * root + 1 < end) {
        size_t child = 2 * root + 1;
        if (child + 1 < end && a[child] < a[child + 1]) child++;
        if (a[root] >= a[child]) return;
        uint64_t t = a[root];
        a[root] = a[child];
        a[child] = t;
        root = child;
    }
}

static void sort_keys(uint64_t *a, size_t n) {
    if (n < 2) return;
    for (size_t i = n / 2; i-- > 0;) sift_down(a, i, n);
    for (size_t end = n - 1; end > 0; end--) {
        uint64_t t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_down(a, 0, end);
    }
}

/* Largest column length of the upper 3x3: how much the transform can stretch a sphere. */
static float max_scale(const kiln_mat4 *m) {
    float best = 0.0f;
    for (int c = 0; c < 3; c++) {
        float x = m->m[c * 4], y = m->m[c * 4 + 1], z = m->m[c * 4 + 2];
        float len = sqrtf(x * x + y * y + z * z);
        if (len > best) best = len;
    }
    return best;
}

/* Orders floats as unsigned integers (larger float, larger integer), for sort keys. */
static uint32_t float_order(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

/* Unknown meshes and materials are programming errors whatever the camera sees; a removed mesh
 * has no bounds to cull with. A removed material only matters where it would be drawn. */
static bool check_instance(const kiln_renderer *r, const kiln_render_instance *inst, uint32_t i, kiln_error *err) {
    uint32_t mesh_count = kiln_geometry_registry_count(r->geometry);
    if (inst->mesh >= mesh_count || !kiln_geometry_registry_info(r->geometry, inst->mesh + 1))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: instance %u uses %s mesh %u", i,
                              inst->mesh >= mesh_count ? "unknown" : "removed", inst->mesh);
    if (inst->material >= r->material_count)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: instance %u uses unknown material %u", i,
                              inst->material);
    return true;
}

bool renderer_begin_views(kiln_renderer *r, const kiln_render_scene *scene, kiln_error *err) {
    uint32_t n = scene->instance_count;
    r->view_count = r->record_count = r->batch_count = 0;
    /* The sort key packs (mesh, material, lod) into 32 bits and the instance index into 31:
     * beyond that keys would collide, so refuse rather than mis-sort. */
    uint32_t mesh_count = kiln_geometry_registry_count(r->geometry);
    if ((uint64_t)mesh_count * (r->material_count ? r->material_count : 1) * KILN_MESH_MAX_LODS > 0xFFFFFFFFull ||
        n > 0x7FFFFFFFu)
        return kiln_error_set(err, KILN_ERR_CAPACITY, "renderer: %u meshes x %u materials x %u instances exceed the batch key",
                              mesh_count, r->material_count, n);
    if (!scratch_reserve(&r->spheres, (size_t)n * sizeof(kiln_vec4)) ||
        !scratch_reserve(&r->visible, (size_t)n * sizeof(uint32_t)) ||
        !scratch_reserve(&r->keys, (size_t)n * sizeof(uint64_t)) || !scratch_reserve(&r->lods, n))
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory for %u instances", n);
    kiln_vec4 *spheres = r->spheres.data;
    for (uint32_t i = 0; i < n; i++) {
        const kiln_render_instance *inst = &scene->instances[i];
        if (!check_instance(r, inst, i, err)) return false;
        const kiln_mesh_bounds *b = kiln_geometry_registry_bounds(r->geometry, inst->mesh + 1);
        kiln_vec3 c = kiln_mat4_transform_point(inst->transform, b->center);
        spheres[i] = (kiln_vec4){c.x, c.y, c.z, b->radius * max_scale(&inst->transform)};
    }
    r->stats.instances_submitted = n;
    return true;
}

/* The level of detail instance `inst` (world sphere `sphere`) draws in view `v`, by its projected
 * size (lod_select.h). Shadow views take the camera's choice, so each instance casts the surface
 * it is shaded with: a shadow drawn from another level would fall on, or miss, the drawn surface
 * (acne or light leaks where the two differ), and a cascade's orthographic projection has no
 * size-by-distance to choose by. The camera is always the frame's first view (frame.c). */
static uint8_t instance_lod(const kiln_renderer *r, const render_view *v, const kiln_render_instance *inst,
                            kiln_vec4 sphere) {
    const render_view *chooser = v->shadow ? &r->views[0] : v;
    if (chooser->shadow) return 0;
    uint32_t levels = kiln_geometry_registry_info(r->geometry, inst->mesh + 1)->lod_count;
    if (levels < 2) return 0;
    return (uint8_t)kiln_lod_select(kiln_lod_screen_fraction(sphere, chooser->view, chooser->projection), levels);
}

/* The visible instances' sort keys: opaque and masked first, by (mesh, material, lod) scaled so
 * no two different tuples collide; blended after, far to near. Bit 63 separates the two runs,
 * the low 31 bits hold the instance index (a unique tiebreak). */
static bool sort_visible(kiln_renderer *r, const kiln_render_scene *scene, const render_view *v, uint32_t visible_count,
                         kiln_error *err) {
    const uint32_t *visible = r->visible.data;
    const kiln_vec4 *spheres = r->spheres.data;
    uint64_t *keys = r->keys.data;
    uint8_t *lods = r->lods.data;
    uint64_t materials = r->material_count ? r->material_count : 1;
    for (uint32_t k = 0; k < visible_count; k++) {
        uint32_t i = visible[k];
        const kiln_render_instance *inst = &scene->instances[i];
        if (!r->materials[inst->material].live)
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: instance %u uses removed material %u", i,
                                  inst->material);
        const kiln_gpu_material *m = &r->materials[inst->material].gpu;
        lods[i] = instance_lod(r, v, inst, spheres[i]);
        uint64_t key;
        if (m->alpha_mode == KILN_ALPHA_BLEND) {
            float depth = -kiln_mat4_transform_point(v->view, (kiln_vec3){spheres[i].x, spheres[i].y, spheres[i].z}).z;
            key = (1ull << 63) | ((uint64_t)(0x7FFFFFFFu - (float_order(depth) >> 1)) << 31);
        } else {
            uint64_t tuple = ((uint64_t)inst->mesh * materials + inst->material) * KILN_MESH_MAX_LODS + lods[i];
            key = tuple << 31;
        }
        keys[k] = key | i;
    }
    sort_keys(keys, visible_count);
    return true;
}

/* A new batch for scene instance `instance` at record `record`, drawing level `lod`, with the
 * pipelines its material and its deformation draw with in the view: colour and depth for a camera
 * view, the shadow pipeline alone for a shadow view. */
static bool start_batch(kiln_renderer *r, const render_view *v, const kiln_render_instance *inst, uint32_t instance,
                        uint32_t lod, uint32_t record, kiln_error *err) {
    const kiln_gpu_material *m = &r->materials[inst->material].gpu;
    render_batch b = {.mesh = inst->mesh, .material = inst->material, .lod = lod, .first_instance = record,
                      .instance_count = 1};
    renderer_deform_start_batch(r, instance, &b);
    pipeline_key deform = renderer_deform_key(b.deform);
    if (v->shadow) {
        b.depth_pipeline = renderer_scene_pipeline(r, renderer_material_key(r, m, RENDER_PASS_SHADOW) | deform, err);
        if (!b.depth_pipeline.id) return false;
        ((render_batch *)r->batches.data)[r->batch_count++] = b;
        return true;
    }
    b.color_pipeline = renderer_scene_pipeline(r, renderer_material_key(r, m, RENDER_PASS_COLOR) | deform, err);
    if (!b.color_pipeline.id) return false;
    if (m->alpha_mode != KILN_ALPHA_BLEND) {
        b.depth_pipeline = renderer_scene_pipeline(r, renderer_material_key(r, m, RENDER_PASS_DEPTH) | deform, err);
        if (!b.depth_pipeline.id) return false;
    }
    ((render_batch *)r->batches.data)[r->batch_count++] = b;
    return true;
}

/* Drops from the visible list what a shadow view does not draw: instances that do not cast, and
 * blended ones (a map holds one depth per texel, which a translucent surface cannot give). A
 * removed material is reported by the sort, as for any view. */
static uint32_t keep_casters(const kiln_renderer *r, const kiln_render_scene *scene, uint32_t *visible, uint32_t count) {
    uint32_t kept = 0;
    for (uint32_t k = 0; k < count; k++) {
        const kiln_render_instance *inst = &scene->instances[visible[k]];
        const renderer_material *m = &r->materials[inst->material];
        if (inst->disable_shadow_casting || (m->live && m->gpu.alpha_mode == KILN_ALPHA_BLEND)) continue;
        visible[kept++] = visible[k];
    }
    return kept;
}

uint32_t renderer_add_view(kiln_renderer *r, const kiln_render_scene *scene, kiln_mat4 view, kiln_mat4 projection,
                           bool shadow, kiln_error *err) {
    if (r->view_count == RENDER_MAX_VIEWS) {
        kiln_error_set(err, KILN_ERR_CAPACITY, "renderer: more than %d views in one frame", RENDER_MAX_VIEWS);
        return UINT32_MAX;
    }
    uint32_t n = scene->instance_count;
    size_t record_need = (size_t)r->record_count + n, batch_need = (size_t)r->batch_count + n;
    if (!scratch_reserve(&r->records, record_need * KILN_INSTANCE_RECORD_SIZE) ||
        !scratch_reserve(&r->batches, batch_need * sizeof(render_batch))) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory for %u instances", n);
        return UINT32_MAX;
    }
    render_view *v = &r->views[r->view_count];
    *v = (render_view){.shadow = shadow, .view = view, .projection = projection, .slot = r->view_count,
                       .first_batch = r->batch_count, .first_record = r->record_count};
    v->frustum = kiln_frustum_from_view_proj(kiln_mat4_mul(projection, view));

    uint32_t *visible = r->visible.data;
    uint32_t visible_count = n;
    if (r->settings.disable_culling) {
        for (uint32_t i = 0; i < n; i++) visible[i] = i;
    } else {
        visible_count = kiln_frustum_cull_spheres_into(&v->frustum, r->spheres.data, n, visible);
    }
    if (shadow) visible_count = keep_casters(r, scene, visible, visible_count);
    if (!sort_visible(r, scene, v, visible_count, err)) return UINT32_MAX;

    const uint64_t *keys = r->keys.data;
    const uint8_t *lods = r->lods.data;
    uint8_t *records = r->records.data;
    render_batch *all = r->batches.data;
    for (uint32_t k = 0; k < visible_count; k++) {
        uint32_t i = (uint32_t)(keys[k] & 0x7FFFFFFFu);
        const kiln_render_instance *inst = &scene->instances[i];
        bool blended = keys[k] >> 63;
        uint32_t record = r->record_count++;
        renderer_deform_pack_record(r, inst, i, lods[i], records + (size_t)record * KILN_INSTANCE_RECORD_SIZE);
        render_batch *last = r->batch_count > v->first_batch ? &all[r->batch_count - 1] : NULL;
        /* Blended instances are each their own batch: their order is by depth, not by key; so is a
         * morphed instance, whose weights are its own slot. */
        if (!blended && last && last->mesh == inst->mesh && last->material == inst->material && last->lod == lods[i] &&
            renderer_deform_joins_batch(r, i, last) && r->batch_count - v->first_batch == v->opaque_batch_count) {
            last->instance_count++;
            continue;
        }
        if (!start_batch(r, v, inst, i, lods[i], record, err)) return UINT32_MAX;
        if (!blended) v->opaque_batch_count = r->batch_count - v->first_batch;
    }
    v->batch_count = r->batch_count - v->first_batch;
    v->record_count = r->record_count - v->first_record;
    return r->view_count++;
}

/* Groups 0 and 3; group 3's dynamic offset selects the pass view slot the pass renders from.
 * Group 1 is bound per batch (renderer_deform_bind_objects). */
static void bind_scene_groups(kiln_renderer *r, kiln_render_pass *pass, kiln_bind_group pass_group, uint32_t slot) {
    uint32_t offset = slot * KILN_PASS_SLOT_SIZE;
    kiln_render_pass_set_bind_group(pass, 0, r->frame_group, NULL, 0, NULL);
    kiln_render_pass_set_bind_group(pass, 3, pass_group, &offset, 1, NULL);
}

void renderer_draw_view(kiln_renderer *r, kiln_render_pass *pass, const render_view *v, bool depth_only, bool blended,
                        kiln_bind_group pass_group, uint32_t *draws) {
    const render_batch *batches = (const render_batch *)r->batches.data + v->first_batch;
    uint32_t first = blended ? v->opaque_batch_count : 0, end = blended ? v->batch_count : v->opaque_batch_count;
    if (first == end) return;
    bind_scene_groups(r, pass, depth_only ? r->pass_group : pass_group, v->slot);
    kiln_render_pipeline bound = {0};
    uint32_t bound_mesh = UINT32_MAX, bound_material = UINT32_MAX;
    object_binding objects = {0};
    for (uint32_t b = first; b < end && !pass->failed; b++) {
        const render_batch *batch = &batches[b];
        /* The frame's geometry sync put every live mesh on the GPU, so this uploads nothing. */
        kiln_error why = {0};
        const kiln_gpu_mesh *mesh = kiln_geometry_registry_gpu_mesh(r->geometry, batch->mesh + 1, &why);
        if (!mesh) {
            kiln_render_pass_fail(pass, &why);
            break;
        }
        if (!renderer_deform_bind_objects(r, pass, batch, mesh, &objects)) break;
        kiln_render_pipeline p = depth_only ? batch->depth_pipeline : batch->color_pipeline;
        if (p.id != bound.id) {
            kiln_render_pass_set_pipeline(pass, p, NULL);
            bound = p;
        }
        if (batch->material != bound_material) {
            kiln_render_pass_set_bind_group(pass, 2, r->materials[batch->material].gpu.group, NULL, 0, NULL);
            bound_material = batch->material;
        }
        if (batch->mesh != bound_mesh) {
            kiln_render_pass_set_vertex_buffer(pass, 0, mesh->vertices, 0, NULL);
            if (mesh->skinned) kiln_render_pass_set_vertex_buffer(pass, 1, mesh->skin, 0, NULL);
            kiln_render_pass_set_index_buffer(pass, mesh->indices, WGPUIndexFormat_Uint32, 0, NULL);
            bound_mesh = batch->mesh;
        }
        const kiln_mesh_lod *lod = &mesh->lods[batch->lod < mesh->lod_count ? batch->lod : 0];
        kiln_render_pass_draw_indexed(pass, lod->index_count, batch->instance_count, lod->first_index, 0,
                                      batch->first_instance);
        (*draws)++;
    }
}
