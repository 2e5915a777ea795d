/* Views: per frame on the CPU, each instance's world bounding sphere and the facts the views
 * need (mesh, material, skinned, morphed, blended, casting) are gathered once in scene order;
 * then for each view the instances are culled four at a time against its frustum and each
 * visible one gets its level of detail and its batch sort key (sort_keys.h), by worker range
 * (instance_workers.h); the visible instances are sorted by key in linear time (radix_sort.h),
 * their record indices written in that order (each view's run contiguous in one list) and the
 * sorted run cut into batches drawn with first_instance. Blended instances follow, sorted back to
 * front, each its own batch; so is each morphed instance, whose weights are its own. The records
 * themselves are the instances', in scene order (instance_records.c). A view draws its batches
 * with the scene pipelines the batch's material and deformation need. A shadow view is culled and batched the
 * same way, over the instances that cast shadows.
 *
 * Determinism: a range's outputs depend only on its own instances, and ranges are joined in
 * order, so the visible list is in scene order whatever the thread count; the sort is stable, so
 * equal keys keep that order. The same scene gives the same records and draws on 1 or N threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lod_select.h"
#include "radix_sort.h"
#include "renderer_internal.h"

/* The facts' deformation bits are the record's flags (uniforms.h) and deform.c's. */
_Static_assert((unsigned)FACT_SKINNED == (unsigned)KILN_INSTANCE_SKINNED && (unsigned)FACT_MORPHED == (unsigned)KILN_INSTANCE_MORPHED,
               "the facts carry the record's deformation flags");

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

/* The first failing instance of each range, so the lowest one is reported whatever the thread
 * count. */
typedef struct range_failures {
    uint32_t instance[RENDER_MAX_RANGES]; /* UINT32_MAX: none */
    uint32_t reason[RENDER_MAX_RANGES];
} range_failures;

static void clear_failures(range_failures *f) {
    for (uint32_t i = 0; i < RENDER_MAX_RANGES; i++) f->instance[i] = UINT32_MAX;
}

static uint32_t first_failure(const range_failures *f, uint32_t ranges, uint32_t *reason) {
    uint32_t best = UINT32_MAX;
    for (uint32_t i = 0; i < ranges; i++)
        if (f->instance[i] < best) best = f->instance[i], *reason = f->reason[i];
    return best;
}

/* ---- begin: spheres and facts ---------------------------------------------------------------- */

enum { BAD_UNKNOWN_MESH = 1, BAD_REMOVED_MESH, BAD_UNKNOWN_MATERIAL };

typedef struct begin_job {
    kiln_renderer *r;
    const kiln_render_scene *scene;
    uint32_t mesh_count;
    range_failures failures;
} begin_job;

/* Unknown meshes and materials are programming errors whatever the camera sees; a removed mesh
 * has no bounds to cull with. A removed material only matters where it would be drawn. */
static void begin_range(void *context, uint32_t range, uint32_t begin, uint32_t end) {
    begin_job *job = context;
    const kiln_renderer *r = job->r;
    kiln_vec4 *spheres = r->instances.spheres.data;
    instance_facts *facts = r->instances.facts.data;
    for (uint32_t i = begin; i < end; i++) {
        const kiln_render_instance *inst = &job->scene->instances[i];
        const kiln_geometry_info *info =
            inst->mesh < job->mesh_count ? kiln_geometry_registry_info(r->geometry, inst->mesh + 1) : NULL;
        uint32_t bad = inst->mesh >= job->mesh_count ? BAD_UNKNOWN_MESH
                       : !info                       ? BAD_REMOVED_MESH
                       : inst->material >= r->material_count ? BAD_UNKNOWN_MATERIAL
                                                             : 0;
        if (bad) {
            job->failures.instance[range] = i;
            job->failures.reason[range] = bad;
            return;
        }
        kiln_vec3 c = kiln_mat4_transform_point(inst->transform, info->bounds.center);
        spheres[i] = (kiln_vec4){c.x, c.y, c.z, info->bounds.radius * max_scale(&inst->transform)};
        const renderer_material *m = &r->materials[inst->material];
        bool blended = m->live && m->gpu.alpha_mode == KILN_ALPHA_BLEND;
        uint32_t flags = (info->skinned && inst->joint_offset >= 0 ? FACT_SKINNED : 0) |
                         (info->morph_target_count ? FACT_MORPHED : 0) | (blended ? FACT_BLENDED : 0) |
                         (!blended && !inst->disable_shadow_casting ? FACT_CASTS : 0) |
                         (m->live ? 0 : FACT_REMOVED_MATERIAL);
        facts[i] = (instance_facts){.mesh = inst->mesh, .material = inst->material, .flags = flags};
    }
}

bool renderer_begin_views(kiln_renderer *r, const kiln_render_scene *scene, kiln_error *err) {
    uint32_t n = scene->instance_count;
    r->views.count = r->views.record_count = r->views.batch_count = 0;
    if (!scratch_reserve(&r->instances.spheres, (size_t)n * sizeof(kiln_vec4)) ||
        !scratch_reserve(&r->instances.facts, (size_t)n * sizeof(instance_facts)) ||
        !scratch_reserve(&r->instances.camera_lods, n) || !scratch_reserve(&r->views.view_items, (size_t)n * sizeof(view_item)) ||
        !scratch_reserve(&r->views.blend_items, (size_t)n * sizeof(view_item)) ||
        !scratch_reserve(&r->views.sort_keys, (size_t)n * sizeof(uint64_t)) ||
        !scratch_reserve(&r->views.sort_keys_spare, (size_t)n * sizeof(uint64_t)) ||
        !scratch_reserve(&r->views.sort_order, (size_t)n * sizeof(uint32_t)) ||
        !scratch_reserve(&r->views.sort_order_spare, (size_t)n * sizeof(uint32_t)))
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory for %u instances", n);
    if (n) memset(r->instances.camera_lods.data, 0, n); /* an empty scene may have no scratch yet */
    begin_job job = {.r = r, .scene = scene, .mesh_count = kiln_geometry_registry_count(r->geometry)};
    clear_failures(&job.failures);
    uint32_t ranges = instance_workers_ranges(r->instances.workers, n, RENDER_RECORD_CHUNK, RENDER_MIN_WORKER_RANGE);
    instance_workers_run(r->instances.workers, n, RENDER_RECORD_CHUNK, ranges, begin_range, &job);
    uint32_t reason = 0, i = first_failure(&job.failures, ranges, &reason);
    if (i != UINT32_MAX) {
        const kiln_render_instance *inst = &scene->instances[i];
        if (reason == BAD_UNKNOWN_MATERIAL)
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: instance %u uses unknown material %u", i,
                                  inst->material);
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: instance %u uses %s mesh %u", i,
                              reason == BAD_UNKNOWN_MESH ? "unknown" : "removed", inst->mesh);
    }
    r->stats.instances_submitted = n;
    return true;
}

/* ---- a view: cull, level, key -------------------------------------------------------------- */

typedef struct view_job {
    kiln_renderer *r;
    const render_view *v;
    batch_key_layout layout;
    uint32_t opaque[RENDER_MAX_RANGES], blended[RENDER_MAX_RANGES]; /* visible ones of each range */
    range_failures failures;       /* visible instances naming a removed material */
} view_job;

/* The level of detail an instance of `mesh` (world sphere `sphere`) draws in view `v`, by its
 * projected size (lod_select.h). Shadow views take the camera's choice, so each instance casts
 * the surface it is shaded with: a shadow drawn from another level would fall on, or miss, the
 * drawn surface (acne or light leaks where the two differ), and a cascade's orthographic
 * projection has no size-by-distance to choose by. The camera is always the frame's first view
 * (frame.c). */
static uint32_t instance_lod(const kiln_renderer *r, const render_view *v, uint32_t mesh, kiln_vec4 sphere) {
    const render_view *chooser = v->shadow ? &r->views.list[0] : v;
    if (chooser->shadow) return 0;
    uint32_t levels = kiln_geometry_registry_info(r->geometry, mesh + 1)->lod_count;
    if (levels < 2) return 0;
    return kiln_lod_select(kiln_lod_screen_fraction(sphere, chooser->view, chooser->projection), levels);
}

/* One visible instance's level and key: opaque and masked ones by (mesh, material, level,
 * skinned, morphed); blended ones far to near by the view depth of their sphere's centre. */
static view_item view_instance(const view_job *job, uint32_t i, const instance_facts *f, kiln_vec4 sphere) {
    uint32_t lod = instance_lod(job->r, job->v, f->mesh, sphere);
    view_item item = {.instance = i, .lod = lod};
    if (f->flags & FACT_BLENDED) {
        const kiln_mat4 *view = &job->v->view;
        float depth = -(view->m[2] * sphere.x + view->m[6] * sphere.y + view->m[10] * sphere.z + view->m[14]);
        item.key.low = UINT32_MAX - float_order(depth);
    } else {
        item.key = batch_key_make(&job->layout, f->mesh, f->material, lod, f->flags & FACT_SKINNED,
                                  f->flags & FACT_MORPHED);
    }
    return item;
}

/* Culls the range's spheres, then gives each visible instance its item: opaque ones from the
 * range's start upwards, blended ones from its end downwards, in the view's item array. The
 * camera view also notes each instance's level for the records (0 where culled). */
static void view_range(void *context, uint32_t range, uint32_t begin, uint32_t end) {
    view_job *job = context;
    kiln_renderer *r = job->r;
    const render_view *v = job->v;
    const kiln_vec4 *spheres = r->instances.spheres.data;
    const instance_facts *facts = r->instances.facts.data;
    view_item *items = r->views.view_items.data;
    uint8_t *camera_lods = r->instances.camera_lods.data;
    /* The visible indices go to the sort-order scratch first: one view at a time uses it. */
    uint32_t *visible = (uint32_t *)r->views.sort_order.data + begin, count = end - begin;
    if (r->settings.disable_culling) {
        for (uint32_t k = 0; k < count; k++) visible[k] = k;
    } else {
        count = kiln_frustum_cull_spheres_into(&v->frustum, spheres + begin, count, visible);
    }
    uint32_t opaque = begin, blended = end;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t i = begin + visible[k];
        const instance_facts *f = &facts[i];
        if (v->shadow && !(f->flags & FACT_CASTS)) continue;
        if ((f->flags & FACT_REMOVED_MATERIAL) && job->failures.instance[range] == UINT32_MAX) {
            job->failures.instance[range] = i;
            continue;
        }
        view_item item = view_instance(job, i, f, spheres[i]);
        if (!v->shadow) camera_lods[i] = (uint8_t)item.lod;
        if (f->flags & FACT_BLENDED) items[--blended] = item;
        else items[opaque++] = item;
    }
    job->opaque[range] = opaque - begin;
    job->blended[range] = end - blended;
}

/* Joins the ranges' items in range order: the opaque ones packed from the start of the view's
 * item array, the blended ones (stored backwards) into the blend array, in scene order. */
static void join_ranges(kiln_renderer *r, const view_job *job, uint32_t n, uint32_t ranges, uint32_t *opaque_count,
                        uint32_t *blended_count) {
    view_item *items = r->views.view_items.data, *blend = r->views.blend_items.data;
    uint32_t blended = 0, opaque = 0;
    for (uint32_t g = 0; g < ranges; g++) {
        uint32_t begin, end;
        instance_workers_range(n, RENDER_RECORD_CHUNK, ranges, g, &begin, &end);
        for (uint32_t k = 0; k < job->blended[g]; k++) blend[blended++] = items[end - 1 - k];
    }
    for (uint32_t g = 0; g < ranges; g++) {
        uint32_t begin, end;
        instance_workers_range(n, RENDER_RECORD_CHUNK, ranges, g, &begin, &end);
        if (opaque != begin) memmove(items + opaque, items + begin, job->opaque[g] * sizeof *items);
        opaque += job->opaque[g];
    }
    *opaque_count = opaque;
    *blended_count = blended;
}

/* ---- a view: sort and batch ---------------------------------------------------------------- */

/* A new batch for the instance in the record index list at `record`, with the pipelines its
 * material draws with in the view: colour and depth for a camera view, the shadow pipeline alone
 * for a shadow view. */
static bool start_batch(kiln_renderer *r, const render_view *v, uint32_t instance, const instance_facts *f,
                        uint32_t lod, uint32_t record, kiln_error *err) {
    const kiln_gpu_material *m = &r->materials[f->material].gpu;
    render_batch b = {.mesh = f->mesh, .material = f->material, .lod = lod, .first_instance = record,
                      .instance_count = 1};
    renderer_deform_start_batch(r, instance, &b);
    pipeline_key deform = renderer_deform_key(b.deform);
    if (v->shadow) {
        b.depth_pipeline = renderer_scene_pipeline(r, renderer_material_key(r, m, RENDER_PASS_SHADOW) | deform, err);
        if (!b.depth_pipeline.id) return false;
        ((render_batch *)r->views.batches.data)[r->views.batch_count++] = b;
        return true;
    }
    b.color_pipeline = renderer_scene_pipeline(r, renderer_material_key(r, m, RENDER_PASS_COLOR) | deform, err);
    if (!b.color_pipeline.id) return false;
    if (m->alpha_mode != KILN_ALPHA_BLEND) {
        b.depth_pipeline = renderer_scene_pipeline(r, renderer_material_key(r, m, RENDER_PASS_DEPTH) | deform, err);
        if (!b.depth_pipeline.id) return false;
        if (r->data_outputs) {
            b.data_pipeline = renderer_scene_pipeline(r, renderer_material_key(r, m, RENDER_PASS_DATA) | deform, err);
            if (!b.data_pipeline.id) return false;
        }
    }
    ((render_batch *)r->views.batches.data)[r->views.batch_count++] = b;
    return true;
}

/* Sorts `count` items by key and appends their record indices and batches: equal keys in a row
 * are one batch, unless `own_batches` (blended items) or the instance is morphed. */
static bool sort_and_batch(kiln_renderer *r, render_view *v, const view_item *items, uint32_t count, bool wide,
                           bool own_batches, kiln_error *err) {
    if (count == 0) return true; /* and the item array may not exist yet */
    uint32_t *order = r->views.sort_order.data;
    batch_keys_sort(&items[0].key, sizeof *items, count, wide, order, r->views.sort_keys.data, r->views.sort_keys_spare.data,
                    r->views.sort_order_spare.data);
    const instance_facts *facts = r->instances.facts.data;
    uint32_t *record_indices = r->views.record_indices.data;
    render_batch *batches = r->views.batches.data;
    const view_item *previous = NULL;
    for (uint32_t j = 0; j < count; j++) {
        const view_item *item = &items[order[j]];
        const instance_facts *f = &facts[item->instance];
        uint32_t record = r->views.record_count++;
        record_indices[record] = item->instance;
        if (!own_batches && previous && !(f->flags & FACT_MORPHED) && batch_key_equal(previous->key, item->key)) {
            batches[r->views.batch_count - 1].instance_count++;
            continue;
        }
        if (!start_batch(r, v, item->instance, f, item->lod, record, err)) return false;
        previous = item;
    }
    return true;
}

uint32_t renderer_add_view(kiln_renderer *r, const kiln_render_scene *scene, kiln_mat4 view, kiln_mat4 projection,
                           bool shadow, kiln_error *err) {
    if (r->views.count == RENDER_MAX_VIEWS) {
        kiln_error_set(err, KILN_ERR_CAPACITY, "renderer: more than %d views in one frame", RENDER_MAX_VIEWS);
        return UINT32_MAX;
    }
    uint32_t n = scene->instance_count;
    size_t record_need = (size_t)r->views.record_count + n, batch_need = (size_t)r->views.batch_count + n;
    if (!scratch_reserve(&r->views.record_indices, record_need * sizeof(uint32_t)) ||
        !scratch_reserve(&r->views.batches, batch_need * sizeof(render_batch))) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory for %u instances", n);
        return UINT32_MAX;
    }
    render_view *v = &r->views.list[r->views.count];
    *v = (render_view){.shadow = shadow, .view = view, .projection = projection, .slot = r->views.count,
                       .first_batch = r->views.batch_count, .first_record = r->views.record_count};
    v->frustum = kiln_frustum_from_view_proj(kiln_mat4_mul(projection, view));

    view_job job = {.r = r, .v = v,
                    .layout = batch_key_layout_make(kiln_geometry_registry_count(r->geometry), r->material_count,
                                                    KILN_MESH_MAX_LODS)};
    clear_failures(&job.failures);
    uint32_t ranges = instance_workers_ranges(r->instances.workers, n, RENDER_RECORD_CHUNK, RENDER_MIN_WORKER_RANGE);
    instance_workers_run(r->instances.workers, n, RENDER_RECORD_CHUNK, ranges, view_range, &job);
    uint32_t reason = 0, bad = first_failure(&job.failures, ranges, &reason);
    if (bad != UINT32_MAX) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: instance %u uses removed material %u", bad,
                       scene->instances[bad].material);
        return UINT32_MAX;
    }
    uint32_t opaque_count, blended_count;
    join_ranges(r, &job, n, ranges, &opaque_count, &blended_count);
    if (!sort_and_batch(r, v, r->views.view_items.data, opaque_count, job.layout.wide, false, err)) return UINT32_MAX;
    v->opaque_batch_count = r->views.batch_count - v->first_batch;
    if (!sort_and_batch(r, v, r->views.blend_items.data, blended_count, false, true, err)) return UINT32_MAX;
    v->batch_count = r->views.batch_count - v->first_batch;
    v->record_count = r->views.record_count - v->first_record;
    return r->views.count++;
}

/* ---- drawing ------------------------------------------------------------------------------- */

/* Groups 0 and 3; group 3's dynamic offset selects the pass view slot the pass renders from.
 * Group 1 is bound per batch (renderer_deform_bind_objects). */
static void bind_scene_groups(kiln_renderer *r, kiln_render_pass *pass, kiln_bind_group pass_group, uint32_t slot) {
    uint32_t offset = slot * KILN_PASS_SLOT_SIZE;
    kiln_render_pass_set_bind_group(pass, 0, r->frame_group, NULL, 0, NULL);
    kiln_render_pass_set_bind_group(pass, 3, pass_group, &offset, 1, NULL);
}

void renderer_draw_view(kiln_renderer *r, kiln_render_pass *pass, const render_view *v, render_draw_mode mode,
                        bool blended, kiln_bind_group pass_group, uint32_t *draws) {
    const render_batch *batches = (const render_batch *)r->views.batches.data + v->first_batch;
    uint32_t first = blended ? v->opaque_batch_count : 0, end = blended ? v->batch_count : v->opaque_batch_count;
    if (first == end) return;
    bind_scene_groups(r, pass, pass_group, v->slot);
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
        kiln_render_pipeline p = mode == RENDER_DRAW_COLOR   ? batch->color_pipeline
                                 : mode == RENDER_DRAW_DEPTH ? batch->depth_pipeline
                                                             : batch->data_pipeline;
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
