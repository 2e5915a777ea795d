/* The document: reading the file, the container (GLB or JSON), asset.version and extensions,
 * then the steps in dependency order (buffers, accessors, images and samplers, materials, meshes
 * with their morph targets, cameras, lights, nodes and the scene, skins, animations), and freeing
 * it all. */
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

/* Extensions kiln reads; a file that requires any other is refused. */
static const char *const supported_extensions[] = {
    "EXT_meshopt_compression",
    "KHR_lights_punctual",
    "KHR_materials_emissive_strength",
    "KHR_mesh_quantization",
    "KHR_texture_transform",
};

static bool extension_supported(const char *name) {
    for (size_t i = 0; i < sizeof supported_extensions / sizeof supported_extensions[0]; i++)
        if (strcmp(name, supported_extensions[i]) == 0) return true;
    return false;
}

static bool check_extensions(gltf_load *L) {
    bool ok;
    json_t *required = gltf_array(L, L->root, "", "extensionsRequired", &ok);
    if (!ok) return false;
    for (size_t i = 0; required && i < json_array_size(required); i++) {
        const char *name = json_string_value(json_array_get(required, i));
        if (!name) return gltf_fail(L, KILN_ERR_FORMAT, "extensionsRequired[%zu]: is not a string", i);
        if (!extension_supported(name))
            return gltf_fail(L, KILN_ERR_FORMAT, "extensionsRequired[%zu]: %s is not supported", i, name);
    }
    json_t *used = gltf_array(L, L->root, "", "extensionsUsed", &ok);
    if (!ok) return false;
    for (size_t i = 0; used && i < json_array_size(used); i++) {
        const char *name = json_string_value(json_array_get(used, i));
        if (!name) return gltf_fail(L, KILN_ERR_FORMAT, "extensionsUsed[%zu]: is not a string", i);
        if (!extension_supported(name) && !gltf_warn(L, "extensionsUsed[%zu]: %s is not supported; ignored", i, name))
            return false;
    }
    return true;
}

static bool check_asset(gltf_load *L) {
    bool ok;
    json_t *asset = gltf_object(L, L->root, "", "asset", &ok);
    if (!ok) return false;
    if (!asset) return gltf_fail(L, KILN_ERR_FORMAT, "asset: is required");
    const char *version, *min_version;
    if (!gltf_string(L, asset, "asset", "version", NULL, &version) ||
        !gltf_string(L, asset, "asset", "minVersion", NULL, &min_version))
        return false;
    if (!version) return gltf_fail(L, KILN_ERR_FORMAT, "asset.version: is required");
    if (strncmp(version, "2.", 2) != 0)
        return gltf_fail(L, KILN_ERR_FORMAT, "asset.version: \"%s\" is not supported (glTF 2.x only)", version);
    if (min_version && strcmp(min_version, "2.0") != 0)
        return gltf_fail(L, KILN_ERR_FORMAT, "asset.minVersion: \"%s\" is newer than 2.0", min_version);
    return true;
}

/* GLB by its magic, or by its name, so a damaged .glb reports its header rather than bad JSON. */
static bool is_glb(const gltf_load *L, const uint8_t *bytes, size_t size) {
    size_t n = strlen(L->name);
    return (size >= 4 && memcmp(bytes, "glTF", 4) == 0) || (n >= 4 && strcmp(L->name + n - 4, ".glb") == 0);
}

static bool parse(gltf_load *L, const uint8_t *bytes, size_t size, const kiln_gltf_options *options) {
    const char *json = (const char *)bytes;
    size_t json_size = size;
    if (is_glb(L, bytes, size)) {
        json = NULL;
        if (!gltf_glb_split(L, bytes, size, &json, &json_size)) return false;
    }
    json_error_t jerr;
    L->root = json_loadb(json, json_size, 0, &jerr);
    if (!L->root)
        return gltf_fail(L, KILN_ERR_FORMAT, "JSON: %d:%d: %s", jerr.line, jerr.column, jerr.text);
    if (!json_is_object(L->root)) return gltf_fail(L, KILN_ERR_FORMAT, "JSON: the top level is not an object");
    return check_asset(L) && check_extensions(L) && gltf_buffers_load(L) && gltf_accessors_check(L) &&
           gltf_samplers_load(L) && gltf_images_load(L) && gltf_materials_load(L) && gltf_meshes_load(L) &&
           gltf_cameras_load(L) && gltf_lights_load(L) && gltf_nodes_load(L, options) && gltf_skins_load(L) &&
           gltf_animations_load(L);
}

kiln_gltf *kiln_gltf_load_memory(const void *bytes, size_t size, const char *path,
                                 const kiln_gltf_options *options, kiln_error *err) {
    if (!bytes || !path) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "gltf load: no %s", bytes ? "path" : "bytes");
        return NULL;
    }
    const char *slash = strrchr(path, '/');
    gltf_load L = {.name = slash ? slash + 1 : path, .path = path, .err = err,
                   .progress = options ? options->progress : NULL, .progress_user = options ? options->progress_user : NULL};
    L.doc = calloc(1, sizeof *L.doc);
    if (!L.doc) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory", L.name);
        return NULL;
    }
    L.doc->scene = -1;
    bool ok = parse(&L, bytes, size, options);
    gltf_buffers_free(&L);
    free(L.accessors);
    json_decref(L.root);
    if (!ok) {
        kiln_gltf_free(L.doc);
        return NULL;
    }
    return L.doc;
}

kiln_gltf *kiln_gltf_load(const char *path, const kiln_gltf_options *options, kiln_error *err) {
    if (!path) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "gltf load: no path");
        return NULL;
    }
    char *bytes;
    size_t size;
    if (!kiln_read_file(path, &bytes, &size, err)) return NULL;
    kiln_gltf *doc = kiln_gltf_load_memory(bytes, size, path, options, err);
    free(bytes);
    return doc;
}

void kiln_gltf_free(kiln_gltf *doc) {
    if (!doc) return;
    for (uint32_t i = 0; doc->meshes && i < doc->mesh_count; i++) {
        kiln_gltf_mesh *m = &doc->meshes[i];
        for (uint32_t p = 0; p < m->primitive_count; p++) {
            kiln_mesh_data_free(&m->primitives[p].mesh);
        }
        free(m->primitives);
        free(m->name);
        free(m->weights);
    }
    for (uint32_t i = 0; doc->materials && i < doc->material_count; i++) free(doc->materials[i].name);
    for (uint32_t i = 0; doc->images && i < doc->image_count; i++) {
        kiln_image_free(&doc->images[i].image);
        free(doc->images[i].name);
    }
    for (uint32_t i = 0; doc->cameras && i < doc->camera_count; i++) free(doc->cameras[i].name);
    for (uint32_t i = 0; doc->lights && i < doc->light_count; i++) free(doc->lights[i].name);
    for (uint32_t i = 0; doc->nodes && i < doc->node_count; i++) {
        free(doc->nodes[i].name);
        free(doc->nodes[i].children);
        free(doc->nodes[i].weights);
    }
    for (uint32_t i = 0; doc->skins && i < doc->skin_count; i++) {
        free(doc->skins[i].name);
        free(doc->skins[i].joints);
        free(doc->skins[i].inverse_bind_matrices);
    }
    for (uint32_t i = 0; doc->animations && i < doc->animation_count; i++) {
        kiln_gltf_animation *a = &doc->animations[i];
        for (uint32_t s = 0; a->samplers && s < a->sampler_count; s++) {
            free(a->samplers[s].times);
            free(a->samplers[s].values);
        }
        free(a->samplers);
        free(a->channels);
        free(a->name);
    }
    for (uint32_t i = 0; i < doc->warning_count; i++) free(doc->warnings[i]);
    free(doc->meshes);
    free(doc->materials);
    free(doc->images);
    free(doc->samplers);
    free(doc->cameras);
    free(doc->lights);
    free(doc->nodes);
    free(doc->roots);
    free(doc->skins);
    free(doc->animations);
    free(doc->warnings);
    free(doc);
}
