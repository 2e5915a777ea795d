/* The warm renderer of kiln-render --batch (batch_renderer.h). */
#include "batch_renderer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/import.h>
#include "batch_output.h"

static const WGPUTextureFormat output_format = WGPUTextureFormat_RGBA8UnormSrgb;

/* The model imported into the renderer, and what its import depended on. */
typedef struct loaded_model {
    bool loaded;
    char path[BATCH_PATH_MAX];
    bool animated;               /* the file has animations: the pose, so the bounds, follow the time */
    float time;                  /* the time it was posed at */
    bool file_camera;            /* imported with the file's camera camera_index */
    uint32_t camera_index;
    kiln_gltf *doc;
    kiln_imported_scene scene;
} loaded_model;

/* A file loaded into the registry as one texture, kept while the next item names the same file. */
typedef struct file_texture {
    char path[BATCH_PATH_MAX];      /* the file in the registry; empty: none */
    uint32_t id;
} file_texture;

struct batch_renderer {
    kiln_gfx *gfx;
    kiln_resources *res;
    kiln_renderer *renderer;
    loaded_model model;
    file_texture env;               /* the environment map */
    file_texture lut;               /* the colour table */
    uint32_t texture_base;          /* the highest texture id the registry held before any item */
    uint32_t texture_high;          /* the highest texture id handed out so far (ids are never reused) */
    kiln_light *lights;             /* the frame's lights: the added sun, then the model's */
    uint32_t light_capacity;
    uint32_t width, height;         /* the target's size; 0: none yet */
    kiln_texture target;
    kiln_texture_view view;
    /* The data outputs at the target's size, made the first time an item wants depth or a mask,
     * and the CPU planes they are read back into. */
    kiln_texture linear_depth, object_ids;
    kiln_texture_view linear_depth_view, object_ids_view;
    float *depths;
    uint32_t *ids;
    uint16_t *mask;
    uint32_t log_printed;           /* diagnostics records already printed */
    batch_renderer_counts counts;
};

/* Long GPU work (a large frame on a software rasteriser) shows it is alive rather than hung. */
static void report_wait(void *user, const char *what, double seconds) {
    (void)user;
    fprintf(stderr, "kiln-render: still waiting for %s: %.0f s\n", what, seconds);
}

batch_renderer *batch_renderer_create(kiln_error *err) {
    batch_renderer *b = calloc(1, sizeof *b);
    if (!b) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory"), NULL;
    b->gfx = kiln_gfx_create(&(kiln_gfx_desc){.label = "kiln-render --batch"}, err);
    if (b->gfx) b->gfx->wait_observer = report_wait;
    if (b->gfx) b->res = kiln_resources_create(b->gfx, 0, err);
    if (b->res) b->renderer = kiln_renderer_create(b->gfx, b->res, &(kiln_render_settings){0}, output_format, err);
    if (!b->renderer) {
        batch_renderer_destroy(b);
        return NULL;
    }
    /* Whatever the registry started with stays; only what items add is ever removed. */
    kiln_texture_registry *reg = kiln_renderer_texture_registry(b->renderer);
    while (kiln_texture_registry_info(reg, b->texture_high + 1)) b->texture_high++;
    b->texture_base = b->texture_high;
    return b;
}

/* ---- the model ----------------------------------------------------------------------------- */

/* Removes what the current model (or a failed import) added: every live mesh and material (the
 * renderer holds no other), and every texture items added but the environment map and the colour
 * table. Returns the
 * loaded document when keep_document asks for it (to import it again at another time), else
 * frees it and returns NULL. */
static kiln_gltf *release_model(batch_renderer *b, bool keep_document) {
    kiln_renderer *r = b->renderer;
    for (uint32_t i = 0; i < kiln_renderer_mesh_count(r); i++)
        if (kiln_renderer_mesh_lod_count(r, i)) kiln_renderer_remove_mesh(r, i, NULL);
    for (uint32_t i = 0; i < kiln_renderer_material_count(r); i++)
        if (kiln_renderer_material_is_live(r, i)) kiln_renderer_remove_material(r, i, NULL);
    kiln_texture_registry *reg = kiln_renderer_texture_registry(r);
    for (uint32_t id = b->texture_base + 1; id <= b->texture_high; id++)
        if (id != b->env.id && id != b->lut.id && kiln_texture_registry_info(reg, id))
            kiln_texture_registry_remove(reg, id, NULL);
    kiln_imported_scene_free(&b->model.scene);
    kiln_gltf *doc = b->model.doc;
    if (!keep_document) kiln_gltf_free(doc), doc = NULL;
    b->model = (loaded_model){0};
    return doc;
}

static bool model_serves(const loaded_model *m, const batch_item *item) {
    if (!m->loaded || strcmp(m->path, item->model)) return false;
    if (m->animated && m->time != item->time) return false;
    return item->camera != BATCH_CAMERA_FILE || (m->file_camera && m->camera_index == item->camera_index);
}

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void print_warnings(const batch_item *item, char **warnings, uint32_t count) {
    for (uint32_t i = 0; i < count; i++) fprintf(stderr, "kiln-render: line %u: warning: %s\n", item->line, warnings[i]);
}

static bool use_model(batch_renderer *b, const batch_item *item, kiln_error *err) {
    if (model_serves(&b->model, item)) return true;
    /* The same file at another time or camera is imported again from the document in memory; a
     * new file is read before the current model goes, so a missing one does not cost the next
     * item its model. */
    bool same_file = b->model.loaded && !strcmp(b->model.path, item->model);
    kiln_gltf *doc = same_file ? NULL : kiln_gltf_load(item->model, NULL, err);
    if (!same_file && !doc) return false;
    if (!same_file) print_warnings(item, doc->warnings, doc->warning_count), b->counts.model_reads++;
    if (b->model.loaded) {
        kiln_gltf *kept = release_model(b, same_file);
        if (same_file) doc = kept;
    }
    loaded_model *m = &b->model;
    m->doc = doc;
    kiln_gltf_import_options io = {.name = base_name(item->model), .use_camera = item->camera == BATCH_CAMERA_FILE,
                                   .camera = item->camera_index, .time = item->time};
    bool ok = kiln_gltf_import(m->doc, b->renderer, &io, &m->scene, err);
    /* The ids the import handed out, kept or (after a failure) to be removed. */
    kiln_texture_registry *reg = kiln_renderer_texture_registry(b->renderer);
    while (kiln_texture_registry_info(reg, b->texture_high + 1)) b->texture_high++;
    if (!ok) {
        release_model(b, false);
        return false;
    }
    print_warnings(item, m->scene.warnings, m->scene.warning_count);
    snprintf(m->path, sizeof m->path, "%s", item->model);
    m->animated = m->doc->animation_count > 0;
    m->time = item->time;
    m->file_camera = io.use_camera;
    m->camera_index = item->camera_index;
    m->loaded = true;
    b->counts.model_imports++;
    return true;
}

/* ---- the environment map and the colour table ------------------------------------------------ */

/* Reads `path` and adds it to r's registry as a texture: its id, or 0 with err. */
typedef uint32_t (*file_texture_load)(kiln_renderer *r, const char *path, kiln_error *err);

static uint32_t load_environment(kiln_renderer *r, const char *path, kiln_error *err) {
    kiln_image env = {0};
    if (!kiln_image_load_hdr(&env, path, err)) return 0;
    uint32_t id = kiln_import_environment(r, &env, path, err);
    kiln_image_free(&env);
    return id;
}

static uint32_t load_color_lut(kiln_renderer *r, const char *path, kiln_error *err) {
    kiln_color_lut lut = {0};
    if (!kiln_color_lut_load(path, &lut, err)) return 0;
    uint32_t id = kiln_import_color_lut(r, &lut, path, err);
    kiln_color_lut_free(&lut);
    return id;
}

/* `t` made the texture of `path` (empty: none): kept when it already is, else the old texture
 * removed and the file loaded. *loaded says a file was read. */
static bool use_file_texture(batch_renderer *b, file_texture *t, const char *path, file_texture_load load, bool *loaded,
                             kiln_error *err) {
    *loaded = false;
    if (!strcmp(t->path, path)) return true;
    if (t->id) kiln_texture_registry_remove(kiln_renderer_texture_registry(b->renderer), t->id, NULL);
    *t = (file_texture){0};
    if (!path[0]) return true;
    if (!(t->id = load(b->renderer, path, err))) return false;
    if (t->id > b->texture_high) b->texture_high = t->id;
    snprintf(t->path, sizeof t->path, "%s", path);
    return *loaded = true;
}

/* ---- the frame ------------------------------------------------------------------------------ */

/* Releases the data outputs' textures and planes (they are made again at the next size). */
static void release_data(batch_renderer *b) {
    if (b->linear_depth_view.id) kiln_resources_destroy_texture_view(b->res, b->linear_depth_view, NULL);
    if (b->object_ids_view.id) kiln_resources_destroy_texture_view(b->res, b->object_ids_view, NULL);
    if (b->linear_depth.id) kiln_resources_destroy_texture(b->res, b->linear_depth, NULL);
    if (b->object_ids.id) kiln_resources_destroy_texture(b->res, b->object_ids, NULL);
    b->linear_depth_view = b->object_ids_view = (kiln_texture_view){0};
    b->linear_depth = b->object_ids = (kiln_texture){0};
    free(b->depths), free(b->ids), free(b->mask);
    b->depths = NULL, b->ids = NULL, b->mask = NULL;
}

static kiln_texture data_texture(batch_renderer *b, const char *label, WGPUTextureFormat format, kiln_texture_view *view,
                                 kiln_error *err) {
    kiln_texture t = kiln_resources_create_texture(b->res, &(kiln_texture_desc){.label = label, .width = b->width,
        .height = b->height, .format = format, .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, err);
    if (t.id) *view = kiln_resources_create_texture_view(b->res, t, NULL, err);
    return t;
}

/* The data outputs at the target's size, made the first time an item needs them. */
static bool use_data(batch_renderer *b, kiln_error *err) {
    if (b->linear_depth_view.id) return true;
    size_t n = (size_t)b->width * b->height;
    b->depths = malloc(n * sizeof *b->depths), b->ids = malloc(n * sizeof *b->ids), b->mask = malloc(n * sizeof *b->mask);
    if (!b->depths || !b->ids || !b->mask) {
        release_data(b);
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory for %ux%u data outputs", b->width, b->height);
    }
    b->linear_depth = data_texture(b, "kiln-render --batch linear depth", WGPUTextureFormat_R32Float,
                                   &b->linear_depth_view, err);
    if (b->linear_depth_view.id)
        b->object_ids = data_texture(b, "kiln-render --batch object ids", WGPUTextureFormat_R32Uint, &b->object_ids_view, err);
    if (!b->object_ids_view.id) {
        release_data(b);
        return false;
    }
    return true;
}

static bool use_target(batch_renderer *b, uint32_t width, uint32_t height, kiln_error *err) {
    if (b->width == width && b->height == height) return true;
    release_data(b);
    if (b->view.id) kiln_resources_destroy_texture_view(b->res, b->view, NULL);
    if (b->target.id) kiln_resources_destroy_texture(b->res, b->target, NULL);
    b->view = (kiln_texture_view){0};
    b->width = b->height = 0;
    b->target = kiln_resources_create_texture(b->res, &(kiln_texture_desc){.label = "kiln-render --batch target",
        .width = width, .height = height, .format = output_format,
        .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, err);
    if (!b->target.id) return false;
    b->view = kiln_resources_create_texture_view(b->res, b->target, NULL, err);
    if (!b->view.id) return false;
    b->width = width, b->height = height;
    return true;
}

/* The camera of the item, from the bounds the model was imported with (kiln-render's rules). */
static kiln_camera item_camera(const batch_item *item, const kiln_imported_scene *model) {
    float aspect = (float)item->width / (float)item->height;
    float fov_y = item->fov_y > 0.0f ? item->fov_y : KILN_IMPORT_DEFAULT_FOV_Y;
    const kiln_mesh_bounds *bounds = &model->bounds;
    switch (item->camera) {
    case BATCH_CAMERA_FILE: return model->scene.camera;
    case BATCH_CAMERA_LOOK_AT: return kiln_import_look_at(bounds, item->look_from, item->look_at, item->up, fov_y, aspect);
    case BATCH_CAMERA_FRAMED: return kiln_import_frame(bounds, fov_y, aspect);
    case BATCH_CAMERA_VIEW: break;
    }
    /* kiln_import_frame's rule with the item's angles and distance: at the framing's defaults it
     * is the framed camera bit for bit. */
    float radius = bounds->radius > 0.0f && isfinite(bounds->radius) ? bounds->radius : 1.0f;
    float half = fminf(0.5f * fov_y, atanf(tanf(0.5f * fov_y) * aspect));
    float distance = KILN_IMPORT_FRAME_MARGIN * radius / sinf(half) * item->distance_scale;
    float ce = cosf(item->elevation);
    kiln_vec3 from = {ce * sinf(item->azimuth), sinf(item->elevation), ce * cosf(item->azimuth)};
    kiln_vec3 eye = kiln_vec3_add(bounds->center, kiln_vec3_scale(from, distance));
    return kiln_import_look_at(bounds, eye, bounds->center, (kiln_vec3){0, 1, 0}, fov_y, aspect);
}

/* The model's lights, behind kiln-render's sun where the item wants one. */
static bool item_lights(batch_renderer *b, const batch_item *item, kiln_render_scene *scene, kiln_error *err) {
    kiln_import_sun sun = {.none = item->no_sun, .direction_given = item->sun_given, .direction = item->sun,
                           .lux = item->sun_lux};
    return kiln_import_add_sun(scene, &sun, &b->lights, &b->light_capacity, err);
}

/* sRGB-encoded bytes back to the linear values the shader wrote: the normals view writes
 * n * 0.5 + 0.5, which the sRGB target encoded on the way. */
static void decode_srgb_bytes(kiln_image *img) {
    static unsigned char table[256];
    if (!table[255]) {
        for (int i = 0; i < 256; i++) table[i] = (unsigned char)lroundf(kiln_srgb_to_linear((float)i / 255.0f) * 255.0f);
    }
    unsigned char *p = img->pixels;
    for (size_t i = 0, n = (size_t)img->width * img->height; i < n; i++, p += 4)
        p[0] = table[p[0]], p[1] = table[p[1]], p[2] = table[p[2]];
}

/* One frame of the item: `output` (colour, or normals through their debug view) read back into
 * *img, or, for 0, a colour frame nothing reads; with `data`, the data outputs drawn too. */
static bool render_frame(batch_renderer *b, const batch_item *item, const kiln_render_scene *scene, unsigned output,
                         bool data, kiln_image *img, kiln_error *err) {
    kiln_render_settings *settings = kiln_renderer_settings(b->renderer);
    *settings = item->settings;
    settings->color_lut = b->lut.id;
    /* kiln-render's rule: unless the line says otherwise, the cascades end just behind the model. */
    if (settings->shadow_distance == 0.0f)
        settings->shadow_distance = kiln_import_shadow_distance(&b->model.scene.bounds, &scene->camera);
    if (output == BATCH_OUTPUT_NORMALS) settings->debug = KILN_DEBUG_NORMALS;
    WGPUTexture texture = kiln_resources_texture_raw(b->res, b->target, NULL);
    kiln_render_target target = {.texture = texture, .view = kiln_resources_texture_view_raw(b->res, b->view, NULL)};
    if (data) {
        target.linear_depth = kiln_resources_texture_raw(b->res, b->linear_depth, NULL);
        target.linear_depth_view = kiln_resources_texture_view_raw(b->res, b->linear_depth_view, NULL);
        target.object_ids = kiln_resources_texture_raw(b->res, b->object_ids, NULL);
        target.object_ids_view = kiln_resources_texture_view_raw(b->res, b->object_ids_view, NULL);
    }
    uint64_t errors_before = b->gfx->error_count;
    bool ok = kiln_renderer_render(b->renderer, scene, target, err) &&
              (!output || kiln_resources_read_texture(b->res, texture, img, err));
    b->counts.environment_bakes += ok ? kiln_renderer_stats(b->renderer)->environment_bakes : 0;
    if (ok && b->gfx->error_count != errors_before)
        ok = kiln_error_set(err, KILN_ERR_GPU, "%llu validation error(s) from Dawn",
                            (unsigned long long)(b->gfx->error_count - errors_before));
    if (ok && output == BATCH_OUTPUT_NORMALS) decode_srgb_bytes(img);
    return ok;
}

static bool output_path(const batch_item *item, unsigned output, char *path, size_t size, kiln_error *err) {
    if (batch_item_output_path(item, output, path, size)) return true;
    return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: the %s output's path is too long", item->out,
                          batch_output_name(output));
}

/* The depth and mask files from the data outputs the last frame drew. The mask holds node index
 * + 1 in 16 bits, so a node past index 65534 cannot be written. */
static bool write_data(batch_renderer *b, const batch_item *item, kiln_error *err) {
    size_t n = (size_t)b->width * b->height;
    char path[BATCH_PATH_MAX + 32];
    if (!kiln_resources_read_texels(b->res, kiln_resources_texture_raw(b->res, b->linear_depth, NULL), b->depths,
                                    n * sizeof *b->depths, err) ||
        !kiln_resources_read_texels(b->res, kiln_resources_texture_raw(b->res, b->object_ids, NULL), b->ids,
                                    n * sizeof *b->ids, err))
        return false;
    if (item->outputs & BATCH_OUTPUT_DEPTH) {
        if (!output_path(item, BATCH_OUTPUT_DEPTH, path, sizeof path, err) ||
            !batch_output_write_pfm(b->depths, b->width, b->height, path, err))
            return false;
    }
    if (item->outputs & BATCH_OUTPUT_MASK) {
        for (size_t i = 0; i < n; i++) {
            if (b->ids[i] > UINT16_MAX)
                return kiln_error_set(err, KILN_ERR_CAPACITY, "mask: node %u is past the 16-bit mask's last node (65534)",
                                      b->ids[i] - 1);
            b->mask[i] = (uint16_t)b->ids[i];
        }
        if (!output_path(item, BATCH_OUTPUT_MASK, path, sizeof path, err) ||
            !batch_output_write_gray16(b->mask, b->width, b->height, path, err))
            return false;
    }
    return true;
}

bool batch_renderer_render(batch_renderer *b, const batch_item *item, kiln_error *err) {
    bool env_loaded, lut_loaded;
    if (!use_model(b, item, err) || !use_file_texture(b, &b->env, item->env, load_environment, &env_loaded, err) ||
        !use_file_texture(b, &b->lut, item->lut, load_color_lut, &lut_loaded, err) ||
        !use_target(b, item->width, item->height, err))
        return false;
    b->counts.environment_loads += env_loaded;
    kiln_render_scene scene = b->model.scene.scene;
    scene.camera = item_camera(item, &b->model.scene);
    if (!item_lights(b, item, &scene, err)) return false;
    if (b->env.id) {
        scene.environment.equirect = b->env.id;
        scene.environment.rotation = item->env_rotation;
    }
    /* The data outputs ride on the item's first frame (or a frame of their own when it writes no
     * image): they do not depend on the debug view or the post settings. */
    bool data = item->outputs & (BATCH_OUTPUT_DEPTH | BATCH_OUTPUT_MASK);
    if (data && !use_data(b, err)) return false;
    static const unsigned images[] = {BATCH_OUTPUT_COLOR, BATCH_OUTPUT_NORMALS};
    for (size_t i = 0; i < sizeof images / sizeof images[0]; i++) {
        if (!(item->outputs & images[i])) continue;
        char path[BATCH_PATH_MAX + 32];
        kiln_image img = {0};
        bool ok = output_path(item, images[i], path, sizeof path, err) &&
                  render_frame(b, item, &scene, images[i], data, &img, err) &&
                  (!data || write_data(b, item, err)) && batch_output_write_png(&img, path, err);
        kiln_image_free(&img);
        if (!ok) return false;
        data = false;
    }
    return !data || (render_frame(b, item, &scene, 0, true, NULL, err) && write_data(b, item, err));
}

/* ---- device loss ------------------------------------------------------------------------------ */

bool batch_renderer_recover(batch_renderer *b, kiln_error *err) {
    kiln_gfx *gfx = kiln_gfx_create(&(kiln_gfx_desc){.label = "kiln-render --batch"}, err);
    kiln_resources *res = gfx ? kiln_resources_create(gfx, 0, err) : NULL;
    kiln_renderer *renderer = res ? kiln_renderer_recreate(b->renderer, gfx, res, err) : NULL;
    if (!renderer) {
        kiln_resources_destroy(res);
        kiln_gfx_destroy(gfx);
        return false;
    }
    gfx->wait_observer = report_wait;
    /* The target lived on the lost device; the next item makes one on the new device. The model's
     * and the map's registry indices carry over, so neither is read or imported again. */
    release_data(b);
    if (b->view.id) kiln_resources_destroy_texture_view(b->res, b->view, NULL);
    if (b->target.id) kiln_resources_destroy_texture(b->res, b->target, NULL);
    b->view = (kiln_texture_view){0};
    b->target = (kiln_texture){0};
    b->width = b->height = 0;
    kiln_gfx_pump(b->gfx, true);
    kiln_resources_destroy(b->res);
    kiln_gfx_destroy(b->gfx);
    b->gfx = gfx;
    b->res = res;
    b->renderer = renderer;
    b->log_printed = 0;
    b->counts.recoveries++;
    return true;
}

void batch_renderer_force_loss(batch_renderer *b) {
    wgpuDeviceForceLoss(b->gfx->device, WGPUDeviceLostReason_Unknown, (WGPUStringView){"kiln-render --lose-device-at", WGPU_STRLEN});
    kiln_gfx_pump(b->gfx, true);
}

/* ---- the rest ------------------------------------------------------------------------------- */

bool batch_renderer_lost(const batch_renderer *b) { return b->gfx->lost; }
batch_renderer_counts batch_renderer_counts_of(const batch_renderer *b) { return b->counts; }
const char *batch_renderer_adapter(const batch_renderer *b) { return b->gfx->adapter_name; }

void batch_renderer_print_diagnostics(batch_renderer *b) {
    kiln_gfx_pump(b->gfx, true);
    uint32_t count = kiln_log_count(&b->gfx->diagnostics);
    for (uint32_t i = b->log_printed < count ? b->log_printed : 0; i < count; i++) {
        const kiln_log_record *rec = kiln_log_at(&b->gfx->diagnostics, i);
        if (rec->level >= KILN_LOG_WARN) fprintf(stderr, "kiln-render: [%s] %s\n", rec->category, rec->message);
    }
    b->log_printed = count;
}

void batch_renderer_destroy(batch_renderer *b) {
    if (!b) return;
    if (b->renderer) release_model(b, false);
    release_data(b);
    if (b->view.id) kiln_resources_destroy_texture_view(b->res, b->view, NULL);
    if (b->target.id) kiln_resources_destroy_texture(b->res, b->target, NULL);
    kiln_renderer_destroy(b->renderer);
    free(b->lights);
    if (b->gfx) kiln_gfx_pump(b->gfx, true);
    kiln_resources_destroy(b->res);
    kiln_gfx_destroy(b->gfx);
    free(b);
}
