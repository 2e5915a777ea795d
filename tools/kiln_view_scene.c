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
} model_parts;

static void model_parts_free(model_parts *m) {
    kiln_imported_scene_free(&m->model);
    kiln_gltf_free(m->doc);
    free(m->lights);
    free(m->cameras);
    free(m->hidden_nodes);
    free(m->shown);
    *m = (model_parts){0};
}

/* The parts a scene's model is made of, to free it. */
static model_parts parts_of(const view_scene *vs) {
    return (model_parts){.doc = vs->doc, .model = vs->model, .lights = vs->lights, .cameras = vs->file_cameras,
                         .hidden_nodes = vs->hidden_nodes, .shown = vs->shown};
}

/* kiln-render's import: framed for the target's aspect, posed at time 0, and lit by the default
 * sun when the file brings no light of its own. */
static bool load_model(kiln_renderer *r, const char *path, float aspect, float time, model_parts *m, kiln_error *err) {
    *m = (model_parts){0};
    if (!(m->doc = kiln_gltf_load(path, NULL, err))) return false;
    for (uint32_t i = 0; i < m->doc->warning_count; i++) fprintf(stderr, "kiln-view: warning: %s\n", m->doc->warnings[i]);
    kiln_gltf_import_options io = {.name = base_name(path), .aspect = aspect, .time = time};
    if (!kiln_gltf_import(m->doc, r, &io, &m->model, err)) return model_parts_free(m), false;
    for (uint32_t i = 0; i < m->model.warning_count; i++) fprintf(stderr, "kiln-view: warning: %s\n", m->model.warnings[i]);
    if (m->model.scene.light_count == 0) {
        if (!(m->lights = malloc(sizeof *m->lights))) {
            model_parts_free(m);
            return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory for the default sun");
        }
        m->lights[0] = kiln_light_sun((kiln_vec3){-0.5f, -1.0f, -0.4f}, (kiln_vec3){1, 1, 1}, VIEW_SCENE_SUN_LUX);
        m->model.scene.lights = m->lights;
        m->model.scene.light_count = 1;
    }
    m->cameras = file_cameras(m->doc, &m->camera_count);
    m->hidden_nodes = calloc(m->doc->node_count + 1, sizeof *m->hidden_nodes);
    m->shown = calloc(m->model.scene.instance_count + 1, sizeof *m->shown);
    if (!m->hidden_nodes || !m->shown) {
        model_parts_free(m);
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory for the scene tree");
    }
    return true;
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
    vs->bounds = m->model.bounds;
    vs->scene = m->model.scene;
    vs->scene.camera = camera;
    vs->scene.environment = environment;
    vs->posed_time = m->model.time;
    vs->animation_end = 0.0f;
    for (uint32_t i = 0; i < vs->doc->animation_count; i++) vs->animation_end = fmaxf(vs->animation_end, vs->doc->animations[i].end);
    if (vs->animation_end == 0.0f) vs->playing = false;
    *m = (model_parts){0};
}

/* What the old model put in the registries: its instances' meshes and materials, then its
 * images' textures (after the materials that sample them). Removing an index twice does nothing. */
static void remove_model_entries(kiln_renderer *r, const kiln_imported_scene *old) {
    for (uint32_t i = 0; i < old->scene.instance_count; i++) {
        kiln_renderer_remove_mesh(r, old->instances[i].mesh, NULL);
        if (kiln_renderer_material_is_live(r, old->instances[i].material))
            kiln_renderer_remove_material(r, old->instances[i].material, NULL);
    }
    kiln_texture_registry *textures = kiln_renderer_texture_registry(r);
    for (uint32_t i = 0; i < old->image_count; i++) {
        if (old->images[i].srgb) kiln_texture_registry_remove(textures, old->images[i].srgb, NULL);
        if (old->images[i].linear) kiln_texture_registry_remove(textures, old->images[i].linear, NULL);
    }
}

bool view_scene_open(view_scene *vs, kiln_renderer *r, const char *path, float aspect, float time, kiln_error *err) {
    *vs = (view_scene){.aspect = aspect, .time = time};
    if (path && !(vs->model_path = strdup(path))) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory");
    if (!path) {
        if (!demo_scene_build(r, aspect, &vs->demo, err)) return false;
        vs->scene = vs->demo.scene;
        vs->bounds = demo_bounds;
        return true;
    }
    model_parts m;
    if (!load_model(r, path, aspect, time, &m, err)) return false;
    vs->scene.camera = m.model.scene.camera; /* the import's framing, or the file's camera */
    vs->scene.environment = m.model.scene.environment;
    adopt_model(vs, &m);
    fit_shadows(vs, r);
    return true;
}

bool view_scene_reload_model(view_scene *vs, kiln_renderer *r, kiln_error *err) {
    if (!vs->model_path) return true;
    model_parts m;
    if (!load_model(r, vs->model_path, vs->aspect, vs->time, &m, err)) return false;
    remove_model_entries(r, &vs->model);
    model_parts old = parts_of(vs);
    model_parts_free(&old);
    adopt_model(vs, &m);
    return true;
}

bool view_scene_replace_model(view_scene *vs, kiln_renderer *r, const char *path, float aspect, kiln_error *err) {
    char *copy = strdup(path);
    if (!copy) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory");
    model_parts m;
    if (!load_model(r, path, aspect, 0.0f, &m, err)) return free(copy), false;
    vs->time = 0.0f;
    if (vs->model_path) remove_model_entries(r, &vs->model);
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

bool view_scene_advance(view_scene *vs, double seconds, kiln_error *err) {
    if (!vs->doc) return true;
    if (vs->playing && vs->animation_end > 0.0f && seconds > 0.0) {
        double t = fmod((double)vs->time + seconds, (double)vs->animation_end);
        vs->time = (float)t;
    }
    if (vs->time == vs->posed_time) return true;
    if (!kiln_imported_scene_pose(&vs->model, vs->doc, vs->time, err)) return false;
    vs->posed_time = vs->time;
    show_instances(vs); /* the poses were written into the model's instances */
    return true;
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
    kiln_texture_create_desc d = {.format = KILN_FORMAT_RGBA16_FLOAT, .width = env.width, .height = env.height,
                                  .pixels = env.pixels, .pixels_size = kiln_image_byte_size(&env)};
    kiln_error add_err = {0};
    kiln_texture_registry *textures = kiln_renderer_texture_registry(r);
    uint32_t id = kiln_texture_registry_add(textures, &d, &add_err);
    kiln_image_free(&env);
    if (!id) return kiln_error_set(err, add_err.code, "%s: %s", hdr_path, add_err.message);
    if (vs->environment) kiln_texture_registry_remove(textures, vs->environment, NULL);
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
