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
 * "invalid_texture", "unknown_program", "draw_set_count", "read_failed" and "frame_failed".
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

typedef struct kiln_json_runtime kiln_json_runtime;

kiln_json_runtime *kiln_json_runtime_create(kiln_gfx *gfx, kiln_resources *res, kiln_error *err);
void kiln_json_runtime_destroy(kiln_json_runtime *rt);
/* Handles one message; returns the reply as a malloc'd NUL-terminated compact JSON text the caller
 * frees (NULL only when memory runs out). */
char *kiln_json_runtime_handle(kiln_json_runtime *rt, const char *message, size_t length);
kiln_texture_registry *kiln_json_runtime_textures(kiln_json_runtime *rt);
kiln_programs *kiln_json_runtime_programs(kiln_json_runtime *rt);

/* ---- decoding --------------------------------------------------------------------------------- */

/* Why a message was refused: a class identifier and a message naming the field at fault. */
typedef struct kiln_json_error {
    char cls[40];
    char message[512];
} kiln_json_error;

/* Parses message text into an object with a known "kind". On success *out is a new reference the
 * caller releases with json_decref and *kind points into it. Fails with malformed_json (line and
 * column) or bad_message (not an object, no kind, an unknown kind). */
bool kiln_json_parse_message(const char *text, size_t length, struct json_t **out, const char **kind,
                             kiln_json_error *err);

/* A byte blob: a JSON array of byte values 0..255, or a base64 string (standard alphabet, padding
 * optional). path names the field in errors. out->bytes is malloc'd (NULL when empty). */
typedef struct kiln_json_blob {
    uint8_t *bytes;
    size_t size;
} kiln_json_blob;
bool kiln_json_decode_blob(const struct json_t *value, const char *path, kiln_json_blob *out, kiln_json_error *err);
void kiln_json_blob_free(kiln_json_blob *blob);
/* Standard base64 with padding; malloc'd, NUL-terminated; NULL when memory runs out. */
char *kiln_json_base64_encode(const void *bytes, size_t size);

/* A required unsigned 32-bit integer field of a message ("texture_id", "program_id"). */
bool kiln_json_decode_u32_field(const struct json_t *message, const char *field, uint32_t *out, kiln_json_error *err);

/* create_texture: desc.pixels points at pixels.bytes (NULL when the message has none). */
typedef struct kiln_json_texture {
    kiln_texture_create_desc desc;
    kiln_json_blob pixels;
} kiln_json_texture;
bool kiln_json_decode_create_texture(const struct json_t *message, kiln_json_texture *out, kiln_json_error *err);
void kiln_json_texture_free(kiln_json_texture *t);

/* program.register: desc points at the arrays below; wgsl and entry points point into the message.
 * Non-fragment stages and Depth inputs decode to their kinds (register refuses them with
 * unsupported_stage); geometry_count and depth_transient_count are the lengths of those lists. A repeat with count 0
 * fails here with class bad_repeat, since the desc spells "no repeat" as count 0. */
typedef struct kiln_json_program {
    kiln_program_desc desc;
    kiln_slot_spec *bindings;
    kiln_transient_spec *transients;
    kiln_pass_spec *passes;
} kiln_json_program;
bool kiln_json_decode_program(const struct json_t *message, kiln_json_program *out, kiln_json_error *err);
void kiln_json_program_free(kiln_json_program *p);

/* program.dispatch. geometry_count and draw_set_list_count are the lengths of those lists (their
 * ids are checked to be u32 lists, and a list of u32 lists for draw_sets). */
typedef struct kiln_json_dispatch {
    uint32_t program_id;
    uint32_t binding_count;
    uint32_t *bindings;
    uint32_t geometry_count;
    uint32_t draw_set_list_count;
    kiln_json_blob uniforms;
} kiln_json_dispatch;
bool kiln_json_decode_dispatch(const struct json_t *message, kiln_json_dispatch *out, kiln_json_error *err);
void kiln_json_dispatch_free(kiln_json_dispatch *d);

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
