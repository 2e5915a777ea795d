/* kiln-view's scene (kiln_view_scene.h): open, reload, environment. */
#include "kiln_view_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The demo has no bounds of its own to frame: its 12 m ground and what stands on it. */
static const kiln_mesh_bounds demo_bounds = {.min = {-6, 0, -6}, .max = {6, 1, 6}, .center = {0, 0.5f, 0}, .radius = 8.5f};

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The file's cameras as kiln_gltf_import places camera N, so C shows what `kiln-render --camera N`
 * renders; orthographic cameras, and cameras no node places, are left out. */
static kiln_camera *file_cameras(const kiln_gltf *doc, uint32_t *count) {
    *count = 0;
    kiln_camera *out = doc->camera_count ? calloc(doc->camera_count, sizeof *out) : NULL;
    for (uint32_t c = 0; out && c < doc->camera_count; c++)
        if (kiln_import_file_camera(doc, c, &out[*count], NULL)) ++*count;
    return out;
}

/* A loaded and imported model, not yet the scene's: what a reload builds beside the old one. */
typedef struct model_parts {
    kiln_gltf *doc;
    kiln_imported_scene model;
    kiln_light *lights;
    kiln_camera *cameras;
    uint32_t camera_count;
    bool *hidden_nodes;
    kiln_render_instance *shown;
    uint32_t *material_ids;
} model_parts;

static void model_parts_free(model_parts *m) {
    kiln_imported_scene_free(&m->model);
    kiln_gltf_free(m->doc);
    free(m->lights);
    free(m->cameras);
    free(m->hidden_nodes);
    free(m->shown);
    free(m->material_ids);
    *m = (model_parts){0};
}

/* The parts a scene's model is made of, to free it. */
static model_parts parts_of(const view_scene *vs) {
    return (model_parts){.doc = vs->doc, .model = vs->model, .lights = vs->lights, .cameras = vs->file_cameras,
                         .hidden_nodes = vs->hidden_nodes, .shown = vs->shown, .material_ids = vs->material_ids};
}

/* ---- clips ------------------------------------------------------------------------------- */

/* The document as posing sees it: itself for every clip, else a view holding clip `clip` alone,
 * so "every animation of the document" (kiln_gltf_import, kiln_imported_scene_pose) is that one.
 * A struct copy: nothing is allocated. */
static kiln_gltf clip_view(const kiln_gltf *doc, int32_t clip) {
    kiln_gltf view = *doc;
    if (clip != VIEW_SCENE_ALL_CLIPS) {
        view.animations = &doc->animations[clip];
        view.animation_count = 1;
    }
    return view;
}

static bool clip_in_range(const kiln_gltf *doc, int32_t clip) {
    return clip == VIEW_SCENE_ALL_CLIPS || (clip >= 0 && (uint32_t)clip < doc->animation_count);
}

static float clip_end(const kiln_gltf *doc, int32_t clip) {
    if (clip != VIEW_SCENE_ALL_CLIPS) return doc->animations[clip].end;
    float end = 0.0f;
    for (uint32_t i = 0; i < doc->animation_count; i++) end = fmaxf(end, doc->animations[i].end);
    return end;
}

void view_scene_clip_label(const kiln_gltf *doc, int32_t clip, char *out, size_t size) {
    if (clip == VIEW_SCENE_ALL_CLIPS) snprintf(out, size, "all %u at once", doc->animation_count);
    else if (doc->animations[clip].name[0]) snprintf(out, size, "%d '%s'", clip, doc->animations[clip].name);
    else snprintf(out, size, "%d (unnamed)", clip);
}

bool view_scene_find_clip(const kiln_gltf *doc, const char *name, const char *text, int32_t *clip, char *why, size_t why_size) {
    for (uint32_t i = 0; i < doc->animation_count; i++)
        if (!strcmp(doc->animations[i].name, text)) return *clip = (int32_t)i, true;
    char *end;
    unsigned long index = strtoul(text, &end, 10);
    if (text[0] >= '0' && text[0] <= '9' && !*end && index < doc->animation_count) return *clip = (int32_t)index, true;
    int n = snprintf(why, why_size, "'%s' names no animation of %s; ", text, name);
    if (!doc->animation_count) snprintf(why + n, why_size - (size_t)n, "it has none");
    else n += snprintf(why + n, why_size - (size_t)n, "its clips:");
    for (uint32_t i = 0; i < doc->animation_count && n > 0 && (size_t)n < why_size; i++) {
        char label[160];
        view_scene_clip_label(doc, (int32_t)i, label, sizeof label);
        n += snprintf(why + n, why_size - (size_t)n, "%s %s", i ? "," : "", label);
    }
    return false;
}

/* Loads `path` alone, warnings printed: what a reload first checks the structure of. */
static kiln_gltf *load_doc(const char *path, kiln_error *err) {
    kiln_gltf *doc = kiln_gltf_load(path, NULL, err);
    for (uint32_t i = 0; doc && i < doc->warning_count; i++) fprintf(stderr, "kiln-view: warning: %s\n", doc->warnings[i]);
    return doc;
}

/* The renderer index of each document material. kiln_renderer_add_material always appends
 * (render.h) and the import adds the document's materials in order, so they are the indices
 * from `first` on; the instances confirm it, else the ids stay unknown and a reload of this
 * model takes the full path. */
static void note_material_ids(model_parts *m, uint32_t first) {
    if (!m->doc->material_count || !(m->material_ids = calloc(m->doc->material_count, sizeof *m->material_ids))) return;
    for (uint32_t i = 0; i < m->doc->material_count; i++) m->material_ids[i] = first + i;
    const kiln_imported_scene *s = &m->model;
    for (uint32_t i = 0, p = 0; i < s->scene.instance_count; i++, p++) {
        uint32_t node = kiln_imported_scene_instance_node(s, i);
        if (i == 0 || node != kiln_imported_scene_instance_node(s, i - 1)) p = 0;
        int32_t material = m->doc->meshes[m->doc->nodes[node].mesh].primitives[p].material;
        if (material >= 0 && s->instances[i].material != m->material_ids[material]) {
            free(m->material_ids);
            m->material_ids = NULL;
            return;
        }
    }
}

/* kiln-render's import of m->doc (owned by `m` from here; freed on failure): framed for the
 * target's aspect, posed at `time` by the clip, and lit by the default sun when the file brings
 * no light of its own. */
static bool import_doc(kiln_renderer *r, const char *path, float aspect, float time, int32_t clip, model_parts *m,
                       kiln_error *err) {
    if (!clip_in_range(m->doc, clip)) {
        model_parts_free(m);
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: animations[%d]: out of range (%u animations)",
                              base_name(path), clip, m->doc->animation_count);
    }
    kiln_gltf_import_options io = {.name = base_name(path), .aspect = aspect, .time = time};
    kiln_gltf posed = clip_view(m->doc, clip);
    uint32_t first_material = kiln_renderer_material_count(r);
    if (!kiln_gltf_import(&posed, r, &io, &m->model, err)) return model_parts_free(m), false;
    note_material_ids(m, first_material);
    for (uint32_t i = 0; i < m->model.warning_count; i++) fprintf(stderr, "kiln-view: warning: %s\n", m->model.warnings[i]);
    uint32_t light_capacity = 0;
    if (!kiln_import_add_sun(&m->model.scene, &(kiln_import_sun){0}, &m->lights, &light_capacity, err))
        return model_parts_free(m), false;
    m->cameras = file_cameras(m->doc, &m->camera_count);
    m->hidden_nodes = calloc(m->doc->node_count + 1, sizeof *m->hidden_nodes);
    m->shown = calloc(m->model.scene.instance_count + 1, sizeof *m->shown);
    if (!m->hidden_nodes || !m->shown) {
        model_parts_free(m);
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory for the scene tree");
    }
    return true;
}

/* Loads and imports `path`: a new model's parts. */
static bool load_model(kiln_renderer *r, const char *path, float aspect, float time, int32_t clip, model_parts *m,
                       kiln_error *err) {
    *m = (model_parts){0};
    if (!(m->doc = load_doc(path, err))) return false;
    return import_doc(r, path, aspect, time, clip, m, err);
}

/* kiln-render's shadow distance for a model: the cascades cover the model as the start camera
 * sees it, and no more (kiln_import_shadow_distance). */
static void fit_shadows(const view_scene *vs, kiln_renderer *r) {
    kiln_renderer_settings(r)->shadow_distance = kiln_import_shadow_distance(&vs->bounds, &vs->scene.camera);
}

/* The parts become the scene; the camera and environment the scene had stay. */
static void adopt_model(view_scene *vs, model_parts *m) {
    kiln_camera camera = vs->scene.camera;
    kiln_environment environment = vs->scene.environment;
    vs->doc = m->doc;
    vs->model = m->model;
    vs->lights = m->lights;
    vs->file_cameras = m->cameras;
    vs->file_camera_count = m->camera_count;
    vs->hidden_nodes = m->hidden_nodes;
    vs->shown = m->shown;
    vs->material_ids = m->material_ids;
    vs->bounds = m->model.bounds;
    vs->scene = m->model.scene;
    vs->scene.camera = camera;
    vs->scene.environment = environment;
    vs->posed_time = m->model.time;
    vs->animation_end = clip_end(vs->doc, vs->clip);
    if (vs->animation_end == 0.0f) vs->playing = false;
    *m = (model_parts){0};
}

/* What the old model put in the registries: its instances' meshes and materials, then its
 * images' textures (after the materials that sample them). Removing an index twice does nothing. */
static void remove_model_entries(kiln_renderer *r, const view_scene *vs) {
    const kiln_imported_scene *old = &vs->model;
    for (uint32_t i = 0; i < old->scene.instance_count; i++) {
        kiln_renderer_remove_mesh(r, old->instances[i].mesh, NULL);
        if (kiln_renderer_material_is_live(r, old->instances[i].material))
            kiln_renderer_remove_material(r, old->instances[i].material, NULL);
    }
    for (uint32_t i = 0; vs->material_ids && i < vs->doc->material_count; i++)
        if (kiln_renderer_material_is_live(r, vs->material_ids[i])) kiln_renderer_remove_material(r, vs->material_ids[i], NULL);
    kiln_texture_registry *textures = kiln_renderer_texture_registry(r);
    for (uint32_t i = 0; i < old->image_count; i++) {
        if (old->images[i].srgb) kiln_texture_registry_remove(textures, old->images[i].srgb, NULL);
        if (old->images[i].linear) kiln_texture_registry_remove(textures, old->images[i].linear, NULL);
    }
}

bool view_scene_open(view_scene *vs, kiln_renderer *r, const char *path, float aspect, float time, int32_t clip,
                     kiln_error *err) {
    *vs = (view_scene){.aspect = aspect, .time = time, .clip = path ? clip : VIEW_SCENE_ALL_CLIPS};
    if (path && !(vs->model_path = strdup(path))) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory");
    if (!path) {
        if (!demo_scene_build(r, aspect, &vs->demo, err)) return false;
        vs->scene = vs->demo.scene;
        vs->bounds = demo_bounds;
        return true;
    }
    model_parts m;
    if (!load_model(r, path, aspect, time, clip, &m, err)) return false;
    vs->scene.camera = m.model.scene.camera; /* the import's framing, or the file's camera */
    vs->scene.environment = m.model.scene.environment;
    adopt_model(vs, &m);
    fit_shadows(vs, r);
    return true;
}

/* The scene draws every instance of the model, or, while some node is hidden, a copy of those
 * whose node is shown. */
static void show_instances(view_scene *vs) {
    const kiln_imported_scene *m = &vs->model;
    bool any_hidden = false;
    for (uint32_t i = 0; i < vs->doc->node_count && !any_hidden; i++) any_hidden = vs->hidden_nodes[i];
    if (!any_hidden) {
        vs->scene.instances = m->instances;
        vs->scene.instance_count = m->scene.instance_count;
        return;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->scene.instance_count; i++)
        if (view_scene_node_shown(vs, kiln_imported_scene_instance_node(m, i))) vs->shown[n++] = m->instances[i];
    vs->scene.instances = vs->shown;
    vs->scene.instance_count = n;
}

/* Poses the instances at vs->time by the clip (in place, kiln_imported_scene_pose). */
static bool pose(view_scene *vs, kiln_error *err) {
    kiln_gltf posed = clip_view(vs->doc, vs->clip);
    if (!kiln_imported_scene_pose(&vs->model, &posed, vs->time, err)) return false;
    vs->posed_time = vs->time;
    show_instances(vs); /* the poses were written into the model's instances */
    return true;
}

/* ---- reload in place ---------------------------------------------------------------------- */

static bool lights_equal(const kiln_gltf_light *a, const kiln_gltf_light *b) {
    return a->kind == b->kind && !memcmp(&a->color, &b->color, sizeof a->color) && a->intensity == b->intensity &&
           a->range == b->range && a->inner_cone_angle == b->inner_cone_angle && a->outer_cone_angle == b->outer_cone_angle;
}

/* Whether `doc` can take the place of the scene's document under the same registry slots and
 * the same pose state (view_scene_reload_model lists what is compared); else `why` says what
 * differs first. */
static bool same_structure(const view_scene *vs, const kiln_gltf *doc, char *why, size_t size) {
    const kiln_gltf *old = vs->doc;
    if (old->material_count && !vs->material_ids)
        return snprintf(why, size, "the material slots of the old model are not known"), false;
    if (doc->mesh_count != old->mesh_count) return snprintf(why, size, "%u meshes, was %u", doc->mesh_count, old->mesh_count), false;
    for (uint32_t m = 0; m < doc->mesh_count; m++) {
        const kiln_gltf_mesh *a = &doc->meshes[m], *b = &old->meshes[m];
        if (a->primitive_count != b->primitive_count)
            return snprintf(why, size, "meshes[%u]: %u primitives, was %u", m, a->primitive_count, b->primitive_count), false;
        for (uint32_t p = 0; p < a->primitive_count; p++)
            if (a->primitives[p].material != b->primitives[p].material)
                return snprintf(why, size, "meshes[%u].primitives[%u]: material %d, was %d", m, p, a->primitives[p].material,
                                b->primitives[p].material), false;
    }
    if (doc->material_count != old->material_count)
        return snprintf(why, size, "%u materials, was %u", doc->material_count, old->material_count), false;
    if (doc->node_count != old->node_count) return snprintf(why, size, "%u nodes, was %u", doc->node_count, old->node_count), false;
    for (uint32_t n = 0; n < doc->node_count; n++) {
        const kiln_gltf_node *a = &doc->nodes[n], *b = &old->nodes[n];
        if (a->parent != b->parent || a->mesh != b->mesh || a->skin != b->skin || a->light != b->light || a->in_scene != b->in_scene)
            return snprintf(why, size, "nodes[%u]: another parent, mesh, skin, light or scene", n), false;
        if (a->light >= 0 && a->in_scene && memcmp(&a->world, &b->world, sizeof a->world))
            return snprintf(why, size, "nodes[%u]: its light moved", n), false;
    }
    if (doc->skin_count != old->skin_count) return snprintf(why, size, "%u skins, was %u", doc->skin_count, old->skin_count), false;
    for (uint32_t k = 0; k < doc->skin_count; k++)
        if (doc->skins[k].joint_count != old->skins[k].joint_count)
            return snprintf(why, size, "skins[%u]: %u joints, was %u", k, doc->skins[k].joint_count, old->skins[k].joint_count), false;
    if (doc->light_count != old->light_count) return snprintf(why, size, "%u lights, was %u", doc->light_count, old->light_count), false;
    for (uint32_t l = 0; l < doc->light_count; l++)
        if (!lights_equal(&doc->lights[l], &old->lights[l])) return snprintf(why, size, "lights[%u] changed", l), false;
    return true;
}

/* Per primitive of the document (mesh by mesh), the renderer mesh the scene draws it with;
 * KILN_INVALID_INDEX for a primitive no instance draws (it is never replaced). */
static uint32_t *drawn_meshes(const view_scene *vs, uint32_t *count) {
    const kiln_gltf *doc = vs->doc;
    uint32_t *first = calloc(doc->mesh_count + 1, sizeof *first);
    if (!first) return NULL;
    for (uint32_t m = 0; m < doc->mesh_count; m++) first[m + 1] = first[m] + doc->meshes[m].primitive_count;
    *count = first[doc->mesh_count];
    uint32_t *ids = malloc((*count + 1) * sizeof *ids);
    for (uint32_t i = 0; ids && i < *count; i++) ids[i] = KILN_INVALID_INDEX;
    const kiln_imported_scene *s = &vs->model;
    for (uint32_t i = 0, p = 0; ids && i < s->scene.instance_count; i++, p++) {
        uint32_t node = kiln_imported_scene_instance_node(s, i);
        if (i == 0 || node != kiln_imported_scene_instance_node(s, i - 1)) p = 0;
        ids[first[doc->nodes[node].mesh] + p] = s->instances[i].mesh;
    }
    free(first);
    return ids;
}

static void remove_textures(kiln_renderer *r, const kiln_imported_image *images, uint32_t count) {
    kiln_texture_registry *textures = kiln_renderer_texture_registry(r);
    for (uint32_t i = 0; images && i < count; i++) {
        if (images[i].srgb) kiln_texture_registry_remove(textures, images[i].srgb, NULL);
        if (images[i].linear) kiln_texture_registry_remove(textures, images[i].linear, NULL);
    }
}

/* The document's images as new textures, as kiln_gltf_import makes them (an sRGB one for colour
 * use, a linear one for data, with mips); NULL with err, none left behind, on failure. */
static kiln_imported_image *add_images(kiln_renderer *r, const kiln_gltf *doc, const char *name, kiln_error *err) {
    kiln_imported_image *images = calloc(doc->image_count + 1, sizeof *images);
    if (!images) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "%s: images: out of memory", name), NULL;
    kiln_texture_registry *textures = kiln_renderer_texture_registry(r);
    for (uint32_t i = 0; i < doc->image_count; i++) {
        const kiln_image *img = &doc->images[i].image;
        kiln_texture_create_desc d = {.width = img->width, .height = img->height, .pixels = img->pixels,
                                      .pixels_size = (size_t)img->width * img->height * 4, .mips = true};
        kiln_error why = {0};
        bool ok = true;
        if (doc->images[i].srgb) {
            d.format = KILN_FORMAT_RGBA8_SRGB;
            ok = (images[i].srgb = kiln_texture_registry_add(textures, &d, &why)) != 0;
        }
        if (ok && doc->images[i].linear) {
            d.format = KILN_FORMAT_RGBA8;
            ok = (images[i].linear = kiln_texture_registry_add(textures, &d, &why)) != 0;
        }
        if (!ok) {
            remove_textures(r, images, i + 1);
            free(images);
            return kiln_error_set(err, why.code, "%s: images[%u]: %s", name, i, why.message), NULL;
        }
    }
    return images;
}

typedef enum swap_result {
    SWAP_DONE,     /* the new document is the scene's, under the old slots */
    SWAP_REFUSED,  /* nothing changed: the new file does not validate, or memory ran out */
    SWAP_PARTIAL,  /* the renderer refused a replace part way: some slots hold the new model */
} swap_result;

/* Validates everything first, so that only a failed upload can stop the replacing part way;
 * then the new textures are `*added` (for the caller to remove after a full reload then). */
static swap_result swap_in_place(view_scene *vs, kiln_renderer *r, kiln_gltf *doc, kiln_imported_image **added, kiln_error *err) {
    const char *name = base_name(vs->model_path);
    kiln_error why = {0};
    uint32_t primitives = 0;
    uint32_t *meshes = drawn_meshes(vs, &primitives);
    if (!meshes) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory", name), SWAP_REFUSED;
    for (uint32_t m = 0, n = 0; m < doc->mesh_count; m++)
        for (uint32_t p = 0; p < doc->meshes[m].primitive_count; p++, n++)
            if (meshes[n] != KILN_INVALID_INDEX && !kiln_mesh_data_validate(&doc->meshes[m].primitives[p].mesh, &why)) {
                free(meshes);
                return kiln_error_set(err, why.code, "%s: meshes[%u].primitives[%u]: %s", name, m, p, why.message), SWAP_REFUSED;
            }
    kiln_imported_image *images = add_images(r, doc, name, err);
    if (!images) return free(meshes), SWAP_REFUSED;
    for (uint32_t i = 0; i < doc->material_count; i++) {
        kiln_material m = kiln_gltf_material_import(&doc->materials[i], images);
        if (!kiln_material_validate(&m, kiln_renderer_texture_registry(r), &why)) {
            remove_textures(r, images, doc->image_count);
            free(images);
            free(meshes);
            return kiln_error_set(err, why.code, "%s: materials[%u]: %s", name, i, why.message), SWAP_REFUSED;
        }
    }
    *added = images;
    bool ok = true;
    for (uint32_t i = 0; ok && i < doc->material_count; i++) {
        kiln_material m = kiln_gltf_material_import(&doc->materials[i], images);
        ok = kiln_renderer_replace_material(r, vs->material_ids[i], &m, &why);
    }
    for (uint32_t m = 0, n = 0; ok && m < doc->mesh_count; m++)
        for (uint32_t p = 0; ok && p < doc->meshes[m].primitive_count; p++, n++)
            if (meshes[n] != KILN_INVALID_INDEX)
                ok = kiln_renderer_replace_mesh(r, meshes[n], &doc->meshes[m].primitives[p].mesh, true, &why);
    free(meshes);
    if (!ok) return kiln_error_set(err, why.code, "%s", why.message), SWAP_PARTIAL;
    /* The new document is the scene's: its textures, cameras and animations, posed at once. */
    remove_textures(r, vs->model.images, vs->model.image_count);
    free(vs->model.images);
    vs->model.images = images;
    vs->model.image_count = doc->image_count;
    *added = NULL;
    free(vs->file_cameras);
    vs->file_cameras = file_cameras(doc, &vs->file_camera_count);
    kiln_gltf_free(vs->doc);
    vs->doc = doc;
    if (!clip_in_range(doc, vs->clip)) vs->clip = VIEW_SCENE_ALL_CLIPS;
    vs->animation_end = clip_end(doc, vs->clip);
    if (vs->animation_end == 0.0f) vs->playing = false;
    pose(vs, NULL); /* cannot fail: a time the scene was posed at, the same node count */
    return SWAP_DONE;
}

/* The full path: `doc` imported next to the old model, which is then removed. */
static bool reload_full(view_scene *vs, kiln_renderer *r, kiln_gltf *doc, kiln_error *err) {
    model_parts m = {.doc = doc};
    if (!clip_in_range(doc, vs->clip)) vs->clip = VIEW_SCENE_ALL_CLIPS;
    if (!import_doc(r, vs->model_path, vs->aspect, vs->time, vs->clip, &m, err)) return false;
    remove_model_entries(r, vs);
    model_parts old = parts_of(vs);
    model_parts_free(&old);
    adopt_model(vs, &m);
    return true;
}

bool view_scene_reload_model(view_scene *vs, kiln_renderer *r, view_reload_report *report, kiln_error *err) {
    view_reload_report unused;
    if (!report) report = &unused;
    *report = (view_reload_report){.path = VIEW_RELOAD_FULL};
    if (!vs->model_path) return true;
    kiln_gltf *doc = load_doc(vs->model_path, err);
    if (!doc) return false;
    char why_structure[200];
    if (!same_structure(vs, doc, why_structure, sizeof why_structure)) {
        snprintf(report->why_full, sizeof report->why_full, "the structure changed (%s)", why_structure);
        return reload_full(vs, r, doc, err);
    }
    kiln_error why = {0};
    kiln_imported_image *added = NULL;
    switch (swap_in_place(vs, r, doc, &added, &why)) {
    case SWAP_DONE: report->path = VIEW_RELOAD_IN_PLACE; return true;
    case SWAP_REFUSED: kiln_gltf_free(doc); return kiln_error_set(err, why.code, "%s", why.message);
    case SWAP_PARTIAL: break;
    }
    snprintf(report->why_full, sizeof report->why_full, "a replace failed part way: %s", why.message);
    uint32_t added_count = doc->image_count;
    bool ok = reload_full(vs, r, doc, err);
    if (ok) remove_textures(r, added, added_count); /* the materials naming them are gone */
    free(added);
    return ok;
}

bool view_scene_replace_model(view_scene *vs, kiln_renderer *r, const char *path, float aspect, kiln_error *err) {
    char *copy = strdup(path);
    if (!copy) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory");
    model_parts m;
    if (!load_model(r, path, aspect, 0.0f, VIEW_SCENE_ALL_CLIPS, &m, err)) return free(copy), false;
    vs->time = 0.0f;
    vs->clip = VIEW_SCENE_ALL_CLIPS;
    if (vs->model_path) remove_model_entries(r, vs);
    model_parts old = parts_of(vs);
    model_parts_free(&old);
    demo_scene_free(&vs->demo);
    free(vs->model_path);
    vs->model_path = copy;
    vs->aspect = aspect;
    vs->scene.camera = m.model.scene.camera;
    kiln_environment environment = m.model.scene.environment; /* the model's sky, not the demo's */
    environment.equirect = vs->environment;
    vs->scene.environment = environment;
    adopt_model(vs, &m);
    fit_shadows(vs, r);
    return true;
}

bool view_scene_advance(view_scene *vs, double seconds, kiln_error *err) {
    if (!vs->doc) return true;
    if (vs->playing && vs->animation_end > 0.0f && seconds > 0.0) {
        double t = fmod((double)vs->time + seconds, (double)vs->animation_end);
        vs->time = (float)t;
    }
    if (vs->time == vs->posed_time) return true;
    return pose(vs, err);
}

bool view_scene_set_clip(view_scene *vs, int32_t clip, kiln_error *err) {
    if (!vs->doc) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "no model to animate");
    if (!clip_in_range(vs->doc, clip))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "animations[%d]: out of range (%u animations)", clip,
                              vs->doc->animation_count);
    vs->clip = clip;
    vs->animation_end = clip_end(vs->doc, clip);
    if (vs->animation_end == 0.0f) vs->playing = false;
    return pose(vs, err);
}

bool view_scene_node_shown(const view_scene *vs, uint32_t node) {
    for (int32_t n = (int32_t)node; vs->doc && n >= 0 && (uint32_t)n < vs->doc->node_count; n = vs->doc->nodes[n].parent)
        if (vs->hidden_nodes[n]) return false;
    return vs->doc != NULL;
}

bool view_scene_set_node_hidden(view_scene *vs, uint32_t node, bool hidden) {
    if (!vs->doc || node >= vs->doc->node_count) return false;
    vs->hidden_nodes[node] = hidden;
    show_instances(vs);
    return true;
}

bool view_scene_set_environment(view_scene *vs, kiln_renderer *r, const char *hdr_path, kiln_error *err) {
    kiln_image env = {0};
    if (!kiln_image_load_hdr(&env, hdr_path, err)) return false;
    uint32_t id = kiln_import_environment(r, &env, hdr_path, err);
    kiln_image_free(&env);
    if (!id) return false;
    if (vs->environment) kiln_texture_registry_remove(kiln_renderer_texture_registry(r), vs->environment, NULL);
    vs->environment = id;
    vs->scene.environment.equirect = id;
    return true;
}

void view_scene_close(view_scene *vs) {
    model_parts m = parts_of(vs);
    model_parts_free(&m);
    demo_scene_free(&vs->demo);
    free(vs->model_path);
    *vs = (view_scene){0};
}
