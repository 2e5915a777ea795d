/* The glTF loader's shared state and the helpers its files use (not installed).
 *
 * One load runs the steps in gltf_document.c's order; each step reads the parsed JSON through the
 * checked getters below and reports the first problem through gltf_fail, which prefixes the file's
 * name, so every message reads "<file>: <json path>: <what>". */
#ifndef KILN_ASSETS_GLTF_INTERNAL_H
#define KILN_ASSETS_GLTF_INTERNAL_H

#include <jansson.h>

#include <kiln/assets/gltf.h>

/* A buffer's bytes: the GLB chunk (borrowed) or a decoded data URI / file (owned). An
 * EXT_meshopt_compression fallback buffer is never read: its data is NULL and only compressed
 * views, which decode their bytes from another buffer, may refer to it. */
typedef struct gltf_buffer {
    uint8_t *data;
    size_t size;      /* the buffer's byteLength; the bytes present are at least this many */
    bool owned;
    bool fallback;
} gltf_buffer;

/* A buffer view's bytes: a range of its buffer, or for an EXT_meshopt_compression view the bytes
 * decoded at load (owned in `decoded`), so accessors and images read both the same way. */
typedef struct gltf_view {
    const uint8_t *data;
    size_t length;
    uint32_t stride;  /* 0: tightly packed */
    uint8_t *decoded;
} gltf_view;

/* An accessor after its checks: every range it reads lies inside its buffer view. */
typedef struct gltf_accessor {
    const uint8_t *data;          /* first element; NULL: no bufferView (zeros) */
    size_t stride;                /* bytes between elements */
    uint32_t count;
    uint32_t component_type;      /* 5120 .. 5126 */
    uint32_t components;          /* 1, 2, 3, 4, 4 (MAT2), 9, 16 */
    bool normalized;
    uint32_t sparse_count;        /* 0: not sparse */
    const uint8_t *sparse_indices;
    uint32_t sparse_index_type;
    const uint8_t *sparse_values; /* tightly packed elements */
} gltf_accessor;

typedef struct gltf_load {
    const char *name;            /* the file's base name, for messages */
    const char *path;            /* as given, for the directory of external URIs */
    json_t *root;
    const uint8_t *bin;          /* GLB binary chunk, NULL when none */
    size_t bin_size;
    gltf_buffer *buffers;
    uint32_t buffer_count;
    gltf_view *views;
    uint32_t view_count;
    size_t meshopt_decoded;      /* bytes decoded from EXT_meshopt_compression views so far */
    gltf_accessor *accessors;
    uint32_t accessor_count;
    uint32_t texture_count;
    kiln_gltf *doc;
    uint32_t warning_capacity;
    kiln_gltf_progress_fn progress; /* options.progress, or NULL */
    void *progress_user;
    kiln_error *err;
} gltf_load;

/* Reports progress through options.progress, when there is one. */
static inline void gltf_progress(const gltf_load *L, const char *stage, uint32_t done, uint32_t total) {
    if (L->progress) L->progress(L->progress_user, stage, done, total);
}

/* Fails the load: err gets "<file>: " then the formatted text. Always returns false. */
bool gltf_fail(gltf_load *L, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Appends "<text>" to the document's warnings; false only when memory runs out. */
bool gltf_warn(gltf_load *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *gltf_strdup(const char *s);

/* ---- checked JSON getters (gltf_json.c). `path` is the JSON path of `obj` ("accessors[3]"),
 * `key` the member; messages read "<path>.<key>: ...". Absent members take the default and are
 * not an error unless `required`. */
json_t *gltf_array(gltf_load *L, json_t *obj, const char *path, const char *key, bool *ok);
json_t *gltf_object(gltf_load *L, json_t *obj, const char *path, const char *key, bool *ok);
bool gltf_uint(gltf_load *L, json_t *obj, const char *path, const char *key, bool required,
               uint64_t fallback, uint64_t max, uint64_t *out);
/* An index into an array of `count` items named `what` ("buffer views"); -1 when absent. */
bool gltf_index(gltf_load *L, json_t *obj, const char *path, const char *key, bool required,
                uint32_t count, const char *what, int32_t *out);
bool gltf_number(gltf_load *L, json_t *obj, const char *path, const char *key, double fallback,
                 float *out);
/* Exactly n numbers; `out` keeps its values when the member is absent. */
bool gltf_numbers(gltf_load *L, json_t *obj, const char *path, const char *key, size_t n, float *out);
/* An array of exactly `count` finite numbers into new memory (*out NULL when absent); a wrong
 * length fails as "<path>.<key>: 3 weights, but <why>" with `why` naming what sets the count. */
bool gltf_float_array(gltf_load *L, json_t *obj, const char *path, const char *key, uint32_t count,
                      const char *why, float **out);
/* The string member, or `fallback` when absent; borrowed from the JSON. */
bool gltf_string(gltf_load *L, json_t *obj, const char *path, const char *key, const char *fallback,
                 const char **out);
/* The "name" member copied (never NULL: "" when absent), or NULL when memory runs out. */
char *gltf_name(gltf_load *L, json_t *obj, const char *path);
/* Number of items of a top-level array ("meshes"), after checking it is one. */
bool gltf_count(gltf_load *L, const char *key, uint32_t *out);

/* ---- steps, in load order ------------------------------------------------------------------- */
/* gltf_glb.c: splits a GLB into its JSON and binary chunks. */
bool gltf_glb_split(gltf_load *L, const uint8_t *bytes, size_t size, const char **json, size_t *json_size);
/* gltf_buffers.c: buffers (GLB chunk, data URIs, files) and buffer views. */
bool gltf_buffers_load(gltf_load *L);
void gltf_buffers_free(gltf_load *L);
/* gltf_meshopt.c: EXT_meshopt_compression. gltf_meshopt_fallback reads a buffer's
 * extensions.EXT_meshopt_compression.fallback (false when absent); `path` is "buffers[i]".
 * gltf_meshopt_view_decode checks the extension object `extension` of the view at `path`
 * ("bufferViews[i]"), whose own byteLength and byteStride are already in `view`, and decodes it
 * into view->decoded (view->data then points there). */
bool gltf_meshopt_fallback(gltf_load *L, json_t *buffer, const char *path, bool *fallback);
bool gltf_meshopt_view_decode(gltf_load *L, json_t *extension, const char *path, gltf_view *view);
/* gltf_uri.c: resolve a URI (data: or relative path) into new bytes the caller frees. `path` is
 * the JSON path of the uri member, for messages. */
bool gltf_uri_read(gltf_load *L, const char *uri, const char *path, uint8_t **bytes, size_t *size);
/* gltf_accessors.c: accessor checks and reads. */
bool gltf_accessors_check(gltf_load *L);
/* Reads accessor `index` as floats, `components` per element (its type's component count must be
 * a bit of `allowed`, e.g. 1u << 3 | 1u << 4 for VEC3 or VEC4; a VEC3 read into 4 gets w = fill_w),
 * normalized integers mapped to [0, 1] / [-1, 1], others converted as is; sparse substitution
 * applied. `path` names the referring member ("meshes[0].primitives[0].attributes.NORMAL"). */
bool gltf_accessor_floats(gltf_load *L, uint32_t index, const char *path, uint32_t allowed,
                          uint32_t components, float fill_w, float **out, uint32_t *count);
/* Reads a SCALAR accessor of unsigned integers (indices) as uint32. */
bool gltf_accessor_indices(gltf_load *L, uint32_t index, const char *path, uint32_t **out,
                           uint32_t *count);
/* gltf_images.c: images, samplers, and the texture -> (image, sampler) table. */
bool gltf_images_load(gltf_load *L);
bool gltf_samplers_load(gltf_load *L);
bool gltf_texture_source(gltf_load *L, uint32_t texture, int32_t *image, int32_t *sampler);
/* gltf_materials.c */
bool gltf_materials_load(gltf_load *L);
/* gltf_meshes.c */
bool gltf_meshes_load(gltf_load *L);
/* gltf_morphs.c: a primitive's morph targets. gltf_morph_targets_read reads the POSITION and
 * NORMAL deltas of the first `kept` targets of `targets` (checked: an array of objects, each
 * accessor VEC3 of `vertex_count` elements), position_deltas[t] and normal_deltas[t] (NULL when
 * the target has none), and tangent_deltas[t] likewise.
 * gltf_mesh_weights_load reads mesh.weights into mesh->weights (target_count entries). */
bool gltf_morph_targets_read(gltf_load *L, json_t *targets, const char *path, uint32_t vertex_count, uint32_t kept,
                             float *position_deltas[KILN_MAX_MORPH_TARGETS],
                             float *normal_deltas[KILN_MAX_MORPH_TARGETS],
                             float *tangent_deltas[KILN_MAX_MORPH_TARGETS]);
bool gltf_mesh_weights_load(gltf_load *L, json_t *mesh_json, const char *path, kiln_gltf_mesh *mesh);
/* gltf_nodes.c: nodes, hierarchy, world transforms, the scene. */
bool gltf_nodes_load(gltf_load *L, const kiln_gltf_options *options);
/* gltf_skins.c: skins, after nodes (their joints are nodes; a node's skin must fit its mesh). */
bool gltf_skins_load(gltf_load *L);
/* gltf_animations.c: animations, after nodes and meshes (channels target nodes, weights their
 * mesh's targets). */
bool gltf_animations_load(gltf_load *L);
/* gltf_cameras.c: cameras and KHR_lights_punctual. */
bool gltf_cameras_load(gltf_load *L);
bool gltf_lights_load(gltf_load *L);

#endif
