/* State shared by the import's steps (import.c drives them; import_materials.c adds images and
 * materials): the document, the renderer, the model's name for messages and the scene being
 * filled. */
#ifndef KILN_IMPORT_INTERNAL_H
#define KILN_IMPORT_INTERNAL_H

#include <kiln/import.h>

typedef struct import_context {
    const kiln_gltf *doc;
    kiln_renderer *r;
    const char *name;             /* the model, first in every message */
    kiln_imported_scene *out;
    uint32_t *materials;          /* per document material, its renderer index */
    uint32_t default_material;    /* glTF's default material, added on first use; KILN_INVALID_INDEX until then */
    kiln_error *err;
} import_context;

/* Fails with "<model>: <where>: <what>"; returns false. */
bool import_fail(import_context *c, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Appends one warning line to the scene; false only when memory runs out (err filled). */
bool import_warn(import_context *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Adds every image some material samples to the renderer's texture registry (out->images). */
bool import_images(import_context *c);
/* Adds every document material, with its images' registry ids, to the renderer (c->materials). */
bool import_materials(import_context *c);
/* The renderer index of document material `index` (-1: glTF's default, added on first use). */
bool import_material_index(import_context *c, int32_t index, uint32_t *out);

#endif
