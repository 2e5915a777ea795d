/* The field readers of the JSON decoder (internal to src/program): the refusal, field paths,
 * required and optional scalar fields, the externally tagged enum forms, and the blob, layout and
 * list fields that messages share. json_fields.c defines them; the message decoders are
 * json_decode.c (textures, geometry, instances, draw sets, dispatch, the envelope) and
 * json_decode_program.c (program.register). Every reader names the field path it refuses
 * ("passes[2].inputs[0]: ..."); a path longer than PATH_MAX_CHARS is cut, since paths only ever
 * appear in messages. */
#ifndef KILN_PROGRAM_JSON_FIELDS_H
#define KILN_PROGRAM_JSON_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include <kiln/program_json.h>

#include "program_forms.h"

#define PATH_MAX_CHARS 256

/* The refusal of a message that does not decode (kiln_json_error_set). */
#define BAD(err, ...) kiln_json_error_set((err), "bad_message", __VA_ARGS__)

const char *msg_type_name(const json_t *v);
/* "passes[0]" + "entry_point" -> "passes[0].entry_point"; a top-level field is its bare name. */
/* Paths longer than PATH_MAX_CHARS are cut short: they only ever appear in messages. */
void msg_path_field(char out[PATH_MAX_CHARS], const char *path, const char *name);
void msg_path_index(char out[PATH_MAX_CHARS], const char *path, size_t i);
/* The field's value: NULL and true when an optional field is absent or null. */
bool msg_field(const json_t *obj, const char *path, const char *name, bool required, json_t **out,
               kiln_json_error *err);
bool msg_as_u32(const json_t *v, const char *fp, uint32_t *out, kiln_json_error *err);
bool msg_as_array(const json_t *v, const char *fp, kiln_json_error *err);
bool msg_as_object(const json_t *v, const char *fp, kiln_json_error *err);
bool msg_field_u32(const json_t *obj, const char *path, const char *name, uint32_t *out, kiln_json_error *err);
bool msg_field_string(const json_t *obj, const char *path, const char *name, const char **out, kiln_json_error *err);
/* An optional string: NULL when absent or null. */
bool msg_field_optional_string(const json_t *obj, const char *path, const char *name, const char **out,
                               kiln_json_error *err);
bool msg_field_array(const json_t *obj, const char *path, const char *name, json_t **out, kiln_json_error *err);
/* One of e's forms: *value is its C value and *payload its payload (NULL for a string form). */
bool msg_decode_form(const json_t *v, const char *fp, const program_enum *e, int *value, json_t **payload,
                     kiln_json_error *err);
/* A required field holding one of e's forms, all of them written as strings. */
bool msg_field_unit_enum(const json_t *obj, const char *path, const char *name, const program_enum *e, int *out,
                         kiln_json_error *err);
/* The path of a form's payload: "bindings[0].shape" + "Target". */
void msg_path_payload(char out[PATH_MAX_CHARS], const char *fp, const program_enum *e, int value);
bool msg_field_format(const json_t *obj, const char *path, kiln_texture_format *out, kiln_json_error *err);
/* "Full" or {"Divided": {"divisor": N}}. A zero divisor decodes; register refuses it by class. */
bool msg_decode_extent(const json_t *v, const char *fp, kiln_slot_extent *out, kiln_json_error *err);
bool msg_decode_shape(const json_t *v, const char *fp, kiln_slot_shape *out, kiln_json_error *err);
bool msg_decode_sampling(const json_t *v, const char *fp, kiln_slot_sampling *out, kiln_json_error *err);
/* A required blob field; an empty blob points at "" so the registry refuses its length rather than
 * reading it as absent. */
bool msg_field_blob(const json_t *message, const char *name, kiln_json_blob *blob, const void **bytes,
                    kiln_json_error *err);
/* [{"location", "format"}, ...]. A list longer than a layout holds keeps its length, so register
 * and create refuse it by class; the attributes past the cap are not read. */
bool msg_decode_layout(const json_t *v, const char *fp, kiln_geometry_layout *out, kiln_json_error *err);
bool msg_field_layout(const json_t *obj, const char *path, const char *name, kiln_geometry_layout *out,
                      kiln_json_error *err);
/* A required array field of `count` elements, each decoded into a calloc'd array of `size`-byte
 * elements by `decode`. */
typedef bool (*element_decoder)(const json_t *v, const char *fp, void *out, kiln_json_error *err);
bool msg_decode_list(const json_t *message, const char *name, size_t size, element_decoder decode, void **out,
                     uint32_t *count, kiln_json_error *err);

#endif
