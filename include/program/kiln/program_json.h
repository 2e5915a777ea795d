/* kiln/program_json: the JSON message surface for textures and authored programs.
 *
 * One message is one JSON object whose "kind" names what it does (create_texture, program.register,
 * program.dispatch, frame, ...; docs/guides/programs.md, "The JSON surface", lists every kind and
 * form, and describe_kinds answers the same schema at run time). kiln_json_runtime_handle decodes a
 * message completely before it changes anything, so a message that does not decode changes
 * nothing, and answers with one reply object:
 *
 *   {"Ok": { ...what the kind returns... }}
 *   {"Err": {"class": "<stable identifier>", "error": "<what is wrong, naming the field>"}}
 *
 * Besides the classes of the C API (kiln_program_class_name, kiln_dispatch_class_name), the
 * surface has its own: "malformed_json" (the text is not JSON: "line L, column C: ..."),
 * "bad_message" (a missing field, a wrong type, an unknown kind or enum form; the error names the
 * field path, e.g. `passes[2].inputs[0]: unknown input form "Bindng"`), "unknown_texture",
 * "invalid_texture", "wrong_texture_kind" (write_texture_layer naming a plain texture or a volume),
 * "unknown_program", "draw_set_count", "read_failed" and "frame_failed"; a refused create_geometry
 * or update_geometry replies its kiln_geometry_class_name.
 *
 * The decoders below are the pieces kiln_json_runtime_handle is made of, public so that a host
 * holding a jansson value can decode a message itself (and so they can be tested without a GPU). They take
 * jansson values (struct json_t, from <jansson.h>); strings in a decoded result (wgsl, entry
 * points) point into that value and live as long as it does.
 *
 * Ownership: a kiln_json_runtime owns a kiln_texture_registry and a kiln_programs on the gfx and
 * resources it was created with, which must outlive it. Main-thread only. */
#ifndef KILN_PROGRAM_JSON_H
#define KILN_PROGRAM_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kiln/program.h>
#include <kiln/textures.h>

#ifdef __cplusplus
extern "C" {
#endif

struct json_t;

/* ---- the runtime ------------------------------------------------------------------------------ */

/* Handles JSON messages over its own texture registry and program runtime. Opaque. */
typedef struct kiln_json_runtime kiln_json_runtime;

/* Creates a runtime with its own texture registry and program runtime on gfx and res (borrowed),
 * or returns NULL with err filled. */
kiln_json_runtime *kiln_json_runtime_create(kiln_gfx *gfx, kiln_resources *res, kiln_error *err);
/* Destroys the runtime's programs, then its texture registry; NULL is a no-op. */
void kiln_json_runtime_destroy(kiln_json_runtime *rt);
/* Device replacement for the JSON surface: its texture registry moved to `res` (Writable textures
 * cleared) and its programs rebuilt there under their ids (kiln_programs_recreate); then destroy
 * the old resources and gfx. False with err, nothing changed, when the new runtime cannot be
 * made. */
bool kiln_json_runtime_recreate(kiln_json_runtime *rt, kiln_gfx *gfx, kiln_resources *res, kiln_error *err);
/* Handles one message; returns the reply as a malloc'd NUL-terminated compact JSON text the caller
 * frees (NULL only when memory runs out). A NULL rt, or a NULL message with a non-zero length, is
 * refused with a bad_message reply saying so. */
char *kiln_json_runtime_handle(kiln_json_runtime *rt, const char *message, size_t length);
/* Handles one message a host has already parsed (a jansson object, borrowed: kiln-run resolves a
 * script's names and typed blobs on the value and hands it over as it is, with no text round
 * trip). Returns the reply as a new jansson object the caller releases with json_decref (NULL
 * only when memory runs out); its content is what kiln_json_runtime_handle would answer. A NULL
 * rt, or a message that is not an object with a known "kind", is refused as bad_message. */
struct json_t *kiln_json_runtime_handle_value(kiln_json_runtime *rt, const struct json_t *message);
/* The runtime's texture registry, owned by it: the ids messages name. */
kiln_texture_registry *kiln_json_runtime_textures(kiln_json_runtime *rt);
/* The runtime's program runtime, owned by it: the ids program.register returns. */
kiln_programs *kiln_json_runtime_programs(kiln_json_runtime *rt);

/* ---- decoding --------------------------------------------------------------------------------- */

/* Why a message was refused: a class identifier and a message naming the field at fault. */
typedef struct kiln_json_error {
    char cls[40];               /* stable class identifier, NUL-terminated ("bad_message") */
    char message[512];          /* NUL-terminated, naming the field path at fault */
} kiln_json_error;

/* Fills err (when not NULL) with class `cls` and a printf-formatted message, cut at a UTF-8
 * character boundary when long; always returns false. Every refusal of the surface, decoder and
 * runtime alike, is filled through it; a host refusing messages of its own in the surface's form
 * can use it too. */
bool kiln_json_error_set(kiln_json_error *err, const char *cls, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Parses message text into an object with a known "kind". On success *out is a new reference the
 * caller releases with json_decref and *kind points into it. Fails with malformed_json (line and
 * column) or bad_message (not an object, no kind, an unknown kind). */
bool kiln_json_parse_message(const char *text, size_t length, struct json_t **out, const char **kind,
                             kiln_json_error *err);
/* The envelope check of kiln_json_parse_message for a value already parsed: true with *kind (pointing
 * into message) when message is an object whose "kind" is a known kind; bad_message otherwise. */
bool kiln_json_message_kind(const struct json_t *message, const char **kind, kiln_json_error *err);

/* A byte blob: a JSON array of byte values 0..255, or a base64 string (kiln_base64_decode: the
 * standard or URL-safe alphabet, padding optional). path names the field in errors. out->bytes is
 * malloc'd (NULL when empty). */
typedef struct kiln_json_blob {
    uint8_t *bytes;             /* malloc'd; NULL when size is 0 */
    size_t size;                /* bytes */
} kiln_json_blob;
/* Decodes `value` as a blob into *out; fails with bad_message naming `path`. */
bool kiln_json_decode_blob(const struct json_t *value, const char *path, kiln_json_blob *out, kiln_json_error *err);
/* Frees blob->bytes and zeroes *blob; NULL is a no-op. */
void kiln_json_blob_free(kiln_json_blob *blob);
/* kiln_base64_encode (kiln/core/base64.h) under the JSON surface's name: standard base64 with
 * padding; malloc'd, NUL-terminated; NULL when memory runs out. */
char *kiln_json_base64_encode(const void *bytes, size_t size);

/* A required unsigned 32-bit integer field of a message ("texture_id", "program_id"). */
bool kiln_json_decode_u32_field(const struct json_t *message, const char *field, uint32_t *out, kiln_json_error *err);

/* create_texture: desc.pixels points at pixels.bytes (NULL when the message has none). */
typedef struct kiln_json_texture {
    kiln_texture_create_desc desc; /* ready for kiln_texture_registry_add */
    kiln_json_blob pixels;      /* the decoded "pixels" field; owned, freed by kiln_json_texture_free */
} kiln_json_texture;
/* Decodes a create_texture message into *out; fails with bad_message naming the field. */
bool kiln_json_decode_create_texture(const struct json_t *message, kiln_json_texture *out, kiln_json_error *err);
/* Frees the pixels and zeroes *t; NULL is a no-op. */
void kiln_json_texture_free(kiln_json_texture *t);

/* create_texture_array: format, side, layers and mips ("Base" / "Chain") into a desc ready for
 * kiln_texture_registry_add_array; fails with bad_message naming the field. */
bool kiln_json_decode_create_texture_array(const struct json_t *message, kiln_texture_array_desc *out,
                                           kiln_json_error *err);

/* write_texture_layer: bytes points at pixels.bytes ("" for an empty blob, so its length is
 * refused rather than read as absent). */
typedef struct kiln_json_layer_write {
    uint32_t texture_id;        /* the array */
    uint32_t layer;             /* the layer written */
    kiln_json_blob pixels;      /* every level of the layer; owned, freed by kiln_json_layer_write_free */
    const void *bytes;          /* what kiln_texture_registry_write_layer is given */
} kiln_json_layer_write;
/* Decodes a write_texture_layer message into *out; fails with bad_message naming the field. */
bool kiln_json_decode_write_texture_layer(const struct json_t *message, kiln_json_layer_write *out,
                                          kiln_json_error *err);
/* Frees the pixels and zeroes *w; NULL is a no-op. */
void kiln_json_layer_write_free(kiln_json_layer_write *w);

/* create_texture_volume: desc.pixels points at pixels.bytes ("" for an empty blob). */
typedef struct kiln_json_volume {
    kiln_texture_volume_desc desc; /* ready for kiln_texture_registry_add_volume */
    kiln_json_blob pixels;      /* the decoded "pixels" field; owned, freed by kiln_json_volume_free */
} kiln_json_volume;
/* Decodes a create_texture_volume message into *out; fails with bad_message naming the field. */
bool kiln_json_decode_create_texture_volume(const struct json_t *message, kiln_json_volume *out, kiln_json_error *err);
/* Frees the pixels and zeroes *v; NULL is a no-op. */
void kiln_json_volume_free(kiln_json_volume *v);

/* program.register: desc points at the arrays below; wgsl and entry points point into the message.
 * Fragment and Draw stages decode whole; the other stages decode to their kinds (register refuses
 * them with unsupported_stage). A repeat with count 0 fails here with class bad_repeat, since the
 * desc spells "no repeat" as count 0. */
typedef struct kiln_json_program {
    kiln_program_desc desc;     /* ready for kiln_programs_register */
    kiln_slot_spec *bindings;   /* malloc'd; desc.bindings points here */
    kiln_transient_spec *transients; /* malloc'd; desc.transients points here */
    kiln_geometry_layout *geometries; /* malloc'd; desc.geometries points here */
    kiln_depth_spec *depth_transients; /* malloc'd; desc.depth_transients points here */
    kiln_buffer_spec *buffers;  /* malloc'd; desc.buffers points here (NULL without "buffers") */
    kiln_pass_spec *passes;     /* malloc'd; desc.passes points here */
} kiln_json_program;
/* Decodes a program.register message into *out; fails with bad_message naming the field path, or
 * bad_repeat. */
bool kiln_json_decode_program(const struct json_t *message, kiln_json_program *out, kiln_json_error *err);
/* Frees the arrays and zeroes *p; NULL is a no-op. The message itself is not released. */
void kiln_json_program_free(kiln_json_program *p);

/* program.dispatch; the draw-set lists flattened as kiln_dispatch_desc takes them. */
typedef struct kiln_json_dispatch {
    uint32_t program_id;        /* as kiln_programs_register returned it */
    uint32_t binding_count;     /* entries of bindings */
    uint32_t *bindings;         /* texture registry ids, one per binding slot; malloc'd */
    uint32_t geometry_count;    /* entries of geometries */
    uint32_t *geometries;       /* geometry ids, one per geometry slot; malloc'd */
    uint32_t draw_set_list_count; /* length of the "draw_sets" list */
    uint32_t *draw_set_list_lengths; /* per list, its length; malloc'd */
    uint32_t *draw_set_ids;     /* every list's ids, list after list; malloc'd */
    kiln_json_blob uniforms;    /* the uniform blob; owned */
} kiln_json_dispatch;
/* Decodes a program.dispatch message into *out; fails with bad_message naming the field path. */
bool kiln_json_decode_dispatch(const struct json_t *message, kiln_json_dispatch *out, kiln_json_error *err);
/* Frees bindings and uniforms and zeroes *d; NULL is a no-op. */
void kiln_json_dispatch_free(kiln_json_dispatch *d);

/* create_geometry (with its "layout") and update_geometry (without: the created one holds): desc
 * points at the decoded blobs. */
typedef struct kiln_json_geometry {
    kiln_geometry_desc desc;    /* ready for kiln_programs_create_geometry / _update_geometry */
    kiln_json_blob vertices;    /* owned */
    kiln_json_blob indices;     /* owned */
} kiln_json_geometry;
/* Decodes the message's layout (when with_layout), vertices and indices; fails with bad_message
 * naming the field (an unknown vertex format among them). */
bool kiln_json_decode_geometry(const struct json_t *message, bool with_layout, kiln_json_geometry *out,
                               kiln_json_error *err);
/* Frees the blobs and zeroes *g; NULL is a no-op. */
void kiln_json_geometry_free(kiln_json_geometry *g);

/* create_instances (with "layout", "capacity") and update_instances (with "instances_id",
 * "first"); both carry "records". desc.records points at the decoded blob. */
typedef struct kiln_json_instances {
    kiln_instances_desc desc;   /* create: ready for kiln_programs_create_instances */
    /*@{*/
    uint32_t instances_id, first; /* update: the buffer and the first record written */
    /*@}*/
    kiln_json_blob records;     /* owned */
} kiln_json_instances;
/* Decodes one of the two kinds; fails with bad_message naming the field. */
bool kiln_json_decode_instances(const struct json_t *message, bool create, kiln_json_instances *out,
                                kiln_json_error *err);
/* Frees the records and zeroes *b; NULL is a no-op. */
void kiln_json_instances_free(kiln_json_instances *b);

/* create_draw_set (with "vertex_layout", "instance_layout") and update_draw_set (with
 * "draw_set_id", "first"); both carry "draws": [{"geometry_id", "indices": {"first", "count"},
 * "instances_id", "instances": {"first", "count"}}]. */
typedef struct kiln_json_draw_set {
    /*@{*/
    kiln_geometry_layout vertex_layout, instance_layout; /* create: the set's two layouts */
    /*@}*/
    /*@{*/
    uint32_t draw_set_id, first; /* update: the set and the first position written */
    /*@}*/
    kiln_draw *draws;           /* malloc'd */
    uint32_t draw_count;        /* entries of draws */
} kiln_json_draw_set;
/* Decodes one of the two kinds; fails with bad_message naming the field path. */
bool kiln_json_decode_draw_set(const struct json_t *message, bool create, kiln_json_draw_set *out,
                               kiln_json_error *err);
/* Frees the draws and zeroes *s; NULL is a no-op. */
void kiln_json_draw_set_free(kiln_json_draw_set *s);

/* ---- the schema ------------------------------------------------------------------------------- */

/* The kinds the surface answers, in the order describe_kinds lists them. */
uint32_t kiln_json_kind_count(void);
const char *kiln_json_kind_name(uint32_t i);
/* The describe_kinds payload for every kind whose name starts with prefix (NULL or "": all):
 * {"kinds": [{"kind", "doc", "fields": [{"name", "type", "required", "doc"}], "reply"}],
 *  "types": {"<name>": {"fields": [...]} or {"forms": [{"name", "payload"}]}}}.
 * A new reference; NULL when memory runs out. */
struct json_t *kiln_json_describe_kinds(const char *prefix);

#ifdef __cplusplus
}
#endif

#endif
