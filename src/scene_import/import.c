/* kiln_gltf_import (kiln/import.h): the document's textures, materials and meshes into the
 * renderer's registries, then the loaded scene's instances (posed at the time asked, through
 * import_pose.c), lights, bounds and camera into a kiln_imported_scene. */
#include <kiln/core/utf8.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "import_internal.h"

bool import_fail(import_context *c, int code, const char *fmt, ...) {
    char what[sizeof c->err->message];
    va_list args;
    va_start(args, fmt);
    kiln_utf8_vformat(what, sizeof what, fmt, args);
    va_end(args);
    return kiln_error_set(c->err, code, "%s: %s", c->name, what);
}

bool import_warn(import_context *c, const char *fmt, ...) {
    kiln_imported_scene *out = c->out;
    char line[512];
    va_list args;
    va_start(args, fmt);
    kiln_utf8_vformat(line, sizeof line, fmt, args);
    va_end(args);
    char **grown = realloc(out->warnings, (out->warning_count + 1) * sizeof *grown);
    char *copy = strdup(line);
    if (grown) out->warnings = grown;
    if (!grown || !copy) {
        free(copy);
        return import_fail(c, KILN_ERR_OUT_OF_MEMORY, "warnings: out of memory");
    }
    out->warnings[out->warning_count++] = copy;
    return true;
}

/* Every primitive of every document mesh becomes one renderer mesh: primitive p of mesh m is
 * renderer mesh ids[first[m] + p]. */
typedef struct mesh_table {
    uint32_t *first; /* per document mesh, where its primitives start in ids */
    uint32_t *ids;   /* per primitive of the document, its renderer index */
} mesh_table;

static bool import_meshes(import_context *c, mesh_table *t) {
    const kiln_gltf *doc = c->doc;
    uint32_t total = 0;
    for (uint32_t m = 0; m < doc->mesh_count; m++) total += doc->meshes[m].primitive_count;
    if (!total) return true;
    t->first = calloc(doc->mesh_count, sizeof *t->first);
    t->ids = calloc(total, sizeof *t->ids);
    if (!t->first || !t->ids) return import_fail(c, KILN_ERR_OUT_OF_MEMORY, "meshes: out of memory (%u primitives)", total);
    uint32_t n = 0;
    for (uint32_t m = 0; m < doc->mesh_count; m++) {
        const kiln_gltf_mesh *mesh = &doc->meshes[m];
        t->first[m] = n;
        for (uint32_t p = 0; p < mesh->primitive_count; p++) {
            char label[256];
            snprintf(label, sizeof label, "%s meshes[%u].primitives[%u]", c->name, m, p);
            kiln_error why = {0};
            t->ids[n] = kiln_renderer_add_mesh(c->r, label, &mesh->primitives[p].mesh, true, &why);
            if (t->ids[n++] == KILN_INVALID_INDEX)
                return import_fail(c, why.code, "meshes[%u].primitives[%u]: %s", m, p, why.message);
        }
    }
    return true;
}

static uint32_t scene_primitive_count(const kiln_gltf *doc) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < doc->node_count; i++)
        if (doc->nodes[i].in_scene && doc->nodes[i].mesh >= 0) n += doc->meshes[doc->nodes[i].mesh].primitive_count;
    return n;
}

/* One instance per node of the scene and primitive of its mesh, in node order, posed at
 * `time`, and the world bounds over all of them as posed. */
static bool import_instances(import_context *c, const mesh_table *t, const kiln_gltf_import_options *o) {
    const kiln_gltf *doc = c->doc;
    kiln_imported_scene *out = c->out;
    uint32_t count = scene_primitive_count(doc);
    if (!import_pose_create(c, count, o->pick_animation, o->animation)) return false;
    out->time = o->time;
    if (!count) return true;
    kiln_mesh_bounds *model_bounds = calloc(count, sizeof *model_bounds);
    out->instances = calloc(count, sizeof *out->instances);
    if (!model_bounds || !out->instances) {
        free(model_bounds);
        return import_fail(c, KILN_ERR_OUT_OF_MEMORY, "instances: out of memory (%u)", count);
    }
    uint32_t n = 0;
    bool ok = true;
    for (uint32_t i = 0; ok && i < doc->node_count; i++) {
        const kiln_gltf_node *node = &doc->nodes[i];
        if (!node->in_scene || node->mesh < 0) continue;
        const kiln_gltf_mesh *mesh = &doc->meshes[node->mesh];
        for (uint32_t p = 0; ok && p < mesh->primitive_count; p++, n++) {
            kiln_render_instance *inst = &out->instances[n];
            inst->mesh = t->ids[t->first[node->mesh] + p];
            inst->object_id = i + 1; /* the node, for the data outputs' object ids */
            out->pose->instance_nodes[n] = i;
            ok = import_material_index(c, mesh->primitives[p].material, &inst->material);
        }
    }
    out->scene.instances = out->instances;
    out->scene.instance_count = count;
    if (ok) {
        import_pose_apply(out->pose, doc, o->time, out->instances, count);
        n = 0;
        for (uint32_t i = 0; i < doc->node_count; i++) {
            const kiln_gltf_node *node = &doc->nodes[i];
            if (!node->in_scene || node->mesh < 0) continue;
            const kiln_gltf_mesh *mesh = &doc->meshes[node->mesh];
            for (uint32_t p = 0; p < mesh->primitive_count; p++, n++)
                model_bounds[n] = import_pose_mesh_bounds(out->pose, &out->instances[n], &mesh->primitives[p].mesh);
        }
        out->bounds = bounds_of_instances(out->instances, model_bounds, count);
    }
    free(model_bounds);
    return ok;
}

/* The time and the animation asked for, before anything is added to the renderer. */
static bool check_pose_options(import_context *c, const kiln_gltf_import_options *o) {
    if (!isfinite(o->time) || o->time < 0.0f)
        return import_fail(c, KILN_ERR_INVALID_ARGUMENT, "time %g is not a finite number of seconds >= 0", (double)o->time);
    if (o->pick_animation && o->animation >= c->doc->animation_count)
        return import_fail(c, KILN_ERR_INVALID_ARGUMENT, "animations[%u]: out of range (%u animation%s)", o->animation,
                           c->doc->animation_count, c->doc->animation_count == 1 ? "" : "s");
    return true;
}

/* Lights at their nodes: the node's origin places a point or spot light, its -Z aims a sun or
 * spot (kiln_light_* normalise the direction, so a scaled node changes nothing). */
static bool import_lights(import_context *c) {
    const kiln_gltf *doc = c->doc;
    kiln_imported_scene *out = c->out;
    uint32_t count = 0;
    for (uint32_t i = 0; i < doc->node_count; i++) count += doc->nodes[i].in_scene && doc->nodes[i].light >= 0;
    if (count && !(out->lights = calloc(count, sizeof *out->lights)))
        return import_fail(c, KILN_ERR_OUT_OF_MEMORY, "lights: out of memory (%u)", count);
    uint32_t n = 0;
    for (uint32_t i = 0; i < doc->node_count; i++) {
        const kiln_gltf_node *node = &doc->nodes[i];
        if (!node->in_scene || node->light < 0) continue;
        const kiln_gltf_light *l = &doc->lights[node->light];
        kiln_vec3 at = kiln_mat4_transform_point(node->world, (kiln_vec3){0, 0, 0});
        kiln_vec3 dir = kiln_mat4_transform_direction(node->world, (kiln_vec3){0, 0, -1});
        switch (l->kind) {
        case KILN_GLTF_LIGHT_DIRECTIONAL: out->lights[n++] = kiln_light_sun(dir, l->color, l->intensity); break;
        case KILN_GLTF_LIGHT_POINT: out->lights[n++] = kiln_light_point(at, l->color, l->intensity, l->range); break;
        case KILN_GLTF_LIGHT_SPOT:
            out->lights[n++] = kiln_light_spot(at, dir, l->color, l->intensity, l->range, l->inner_cone_angle, l->outer_cone_angle);
            break;
        }
    }
    out->scene.lights = out->lights;
    out->scene.light_count = n;
    return true;
}

/* The file's camera at the first node of the scene that names it (kiln_import_file_camera). */
static bool import_file_camera(import_context *c, uint32_t index) {
    kiln_error why = {0};
    if (kiln_import_file_camera(c->doc, index, &c->out->scene.camera, &why)) return true;
    return import_fail(c, why.code, "%s", why.message);
}

bool kiln_gltf_import(const kiln_gltf *doc, kiln_renderer *r, const kiln_gltf_import_options *options,
                      kiln_imported_scene *out, kiln_error *err) {
    kiln_gltf_import_options o = options ? *options : (kiln_gltf_import_options){0};
    *out = (kiln_imported_scene){0};
    import_context c = {.doc = doc, .r = r, .name = o.name ? o.name : "model", .out = out,
                        .default_material = KILN_INVALID_INDEX, .err = err};
    mesh_table meshes = {0};
    bool ok = check_pose_options(&c, &o) && import_images(&c) && import_materials(&c) && import_meshes(&c, &meshes) &&
              import_instances(&c, &meshes, &o) && import_lights(&c);
    if (ok && o.use_camera) ok = import_file_camera(&c, o.camera);
    else if (ok) {
        out->scene.camera = kiln_import_frame(&out->bounds, o.fov_y > 0 ? o.fov_y : KILN_IMPORT_DEFAULT_FOV_Y,
                                              o.aspect > 0 ? o.aspect : 1.0f);
        out->framed = true;
    }
    free(meshes.first);
    free(meshes.ids);
    free(c.materials);
    if (!ok) kiln_imported_scene_free(out);
    return ok;
}

void kiln_imported_scene_free(kiln_imported_scene *s) {
    free(s->instances);
    free(s->lights);
    free(s->images);
    for (uint32_t i = 0; i < s->warning_count; i++) free(s->warnings[i]);
    free(s->warnings);
    import_pose_free(s->pose);
    *s = (kiln_imported_scene){0};
}

bool kiln_imported_scene_pose(kiln_imported_scene *s, const kiln_gltf *doc, float time, kiln_error *err) {
    if (!s || !s->pose || !doc)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "pose: %s", !doc ? "no document" : "the scene was not imported");
    if (!isfinite(time) || time < 0.0f)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "pose: time %g is not a finite number of seconds >= 0",
                              (double)time);
    if (doc->node_count != s->pose->node_count)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "pose: the document has %u nodes, but the scene was imported "
                              "from one with %u", doc->node_count, s->pose->node_count);
    import_pose_apply(s->pose, doc, time, s->instances, s->scene.instance_count);
    s->time = time;
    return true;
}
