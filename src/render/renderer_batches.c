/* Per frame on the CPU: transform bounding spheres, cull them four at a time, sort the visible
 * instances by a collision-free key, write the instance records in that order and cut the sorted
 * run into batches drawn with first_instance. Blended instances follow, sorted back to front. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

static bool check_instance(const kiln_renderer *r, const kiln_render_instance *inst, uint32_t i, kiln_error *err) {
    if (inst->mesh >= r->mesh_count || !r->meshes[inst->mesh].live)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: instance %u uses %s mesh %u", i,
                              inst->mesh >= r->mesh_count ? "unknown" : "removed", inst->mesh);
    if (inst->material >= r->material_count)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: instance %u uses unknown material %u", i,
                              inst->material);
    if (!r->materials[inst->material].live)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: instance %u uses removed material %u", i,
                              inst->material);
    return true;
}

bool renderer_build_batches(kiln_renderer *r, const kiln_render_scene *scene, kiln_error *err) {
    uint32_t n = scene->instance_count;
    r->batch_count = r->opaque_batch_count = 0;
    /* The sort key packs (mesh, material, lod, skinned, morphed) into 32 bits and the instance
     * index into 31: beyond that keys would collide, so refuse rather than mis-sort. */
    if ((uint64_t)r->mesh_count * (r->material_count ? r->material_count : 1) * KILN_MESH_MAX_LODS * 4 > 0xFFFFFFFFull ||
        n > 0x7FFFFFFFu)
        return kiln_error_set(err, KILN_ERR_CAPACITY, "renderer: %u meshes x %u materials x %u instances exceed the batch key",
                              r->mesh_count, r->material_count, n);
    if (!scratch_reserve(&r->spheres, (size_t)n * sizeof(kiln_vec4)) ||
        !scratch_reserve(&r->visible, (size_t)n * sizeof(uint32_t)) ||
        !scratch_reserve(&r->keys, (size_t)n * sizeof(uint64_t)) ||
        !scratch_reserve(&r->records, (size_t)n * KILN_INSTANCE_RECORD_SIZE) ||
        !scratch_reserve(&r->batches, (size_t)n * sizeof(renderer_batch)))
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory for %u instances", n);

    kiln_vec4 *spheres = r->spheres.data;
    uint32_t *visible = r->visible.data;
    for (uint32_t i = 0; i < n; i++) {
        const kiln_render_instance *inst = &scene->instances[i];
        if (!check_instance(r, inst, i, err)) return false;
        const kiln_mesh_bounds *b = &r->meshes[inst->mesh].gpu.bounds;
        kiln_vec3 c = kiln_mat4_transform_point(inst->transform, b->center);
        spheres[i] = (kiln_vec4){c.x, c.y, c.z, b->radius * max_scale(&inst->transform)};
    }
    uint32_t visible_count = n;
    if (r->settings.disable_culling) {
        for (uint32_t i = 0; i < n; i++) visible[i] = i;
    } else {
        kiln_frustum f = kiln_camera_frustum(&scene->camera);
        visible_count = kiln_frustum_cull_spheres_into(&f, spheres, n, visible);
    }

    /* Keys: opaque and masked first, by (mesh, material, lod, skinned, morphed) scaled so no two
     * different tuples collide; blended after, far to near. Bit 63 separates the two runs. */
    uint64_t *keys = r->keys.data;
    uint64_t materials = r->material_count ? r->material_count : 1;
    kiln_mat4 view = kiln_camera_view(&scene->camera);
    for (uint32_t v = 0; v < visible_count; v++) {
        uint32_t i = visible[v];
        const kiln_render_instance *inst = &scene->instances[i];
        const kiln_gpu_material *m = &r->materials[inst->material].gpu;
        uint64_t key;
        if (m->alpha_mode == KILN_ALPHA_BLEND) {
            float depth = -kiln_mat4_transform_point(view, (kiln_vec3){spheres[i].x, spheres[i].y, spheres[i].z}).z;
            key = (1ull << 63) | ((uint64_t)(0x7FFFFFFFu - (float_order(depth) >> 1)) << 31);
        } else {
            uint64_t lod = 0, skinned = 0, morphed = 0;
            uint64_t tuple = ((((uint64_t)inst->mesh * materials + inst->material) * KILN_MESH_MAX_LODS + lod) * 2 + skinned) * 2 + morphed;
            key = tuple << 31;
        }
        keys[v] = key | i; /* instance index: unique tiebreak (instance counts stay below 2^31) */
    }
    sort_keys(keys, visible_count);

    renderer_batch *batches = r->batches.data;
    uint8_t *records = r->records.data;
    for (uint32_t v = 0; v < visible_count; v++) {
        uint32_t i = (uint32_t)(keys[v] & 0x7FFFFFFFu);
        const kiln_render_instance *inst = &scene->instances[i];
        bool blended = keys[v] >> 63;
        kiln_instance_record_pack(inst->transform, inst->material, 0, 0, inst->joint_offset, 0,
                                  records + (size_t)v * KILN_INSTANCE_RECORD_SIZE);
        renderer_batch *last = r->batch_count ? &batches[r->batch_count - 1] : NULL;
        /* Blended instances are each their own batch: their order is by depth, not by key. */
        if (!blended && last && last->mesh == inst->mesh && last->material == inst->material && last->lod == 0 &&
            r->batch_count == r->opaque_batch_count) {
            last->instance_count++;
        } else {
            batches[r->batch_count++] = (renderer_batch){inst->mesh, inst->material, 0, v, 1};
            if (!blended) r->opaque_batch_count = r->batch_count;
        }
    }
    r->stats.instances_submitted = n;
    r->stats.instances_drawn = visible_count;
    return true;
}
