/* libFuzzer target: the glTF 2.0 loader from memory (kiln_gltf_load_memory), JSON and GLB (by its
 * magic), with the data URIs, accessors, images (stb_image, instrumented here as in the image
 * target), materials, meshes, cameras, lights and the node hierarchy it reads.
 *
 * The input is named as a file in a directory that does not exist, so an external URI resolves
 * to a path no open() can reach (every "../" walks through the missing directory first) and no
 * file on this machine is ever read. What loads must be consistent: every index the document
 * hands out is inside its arrays. */
#include <stdint.h>
#include <string.h>

#include <kiln/assets/gltf.h>
#include <kiln/core/utf8.h>

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_GLTF_PATH "/nonexistent-kiln-fuzz-dir/fuzz.gltf"

static void check_document(const kiln_gltf *doc) {
    for (uint32_t i = 0; i < doc->mesh_count; i++) {
        const kiln_gltf_mesh *m = &doc->meshes[i];
        for (uint32_t p = 0; p < m->primitive_count; p++) {
            const kiln_gltf_primitive *prim = &m->primitives[p];
            FUZZ_CHECK(prim->material >= -1 && prim->material < (int32_t)doc->material_count);
            const kiln_mesh_data *mesh = &prim->mesh;
            FUZZ_CHECK(mesh->index_count % 3 == 0);
            for (uint32_t k = 0; k < mesh->index_count; k++) FUZZ_CHECK(mesh->indices[k] < mesh->vertex_count);
        }
    }
    for (uint32_t i = 0; i < doc->material_count; i++)
        for (int s = 0; s < KILN_TEX_COUNT; s++) {
            FUZZ_CHECK(doc->materials[i].images[s] >= -1 && doc->materials[i].images[s] < (int32_t)doc->image_count);
            FUZZ_CHECK(doc->materials[i].samplers[s] >= -1 &&
                       doc->materials[i].samplers[s] < (int32_t)doc->sampler_count);
        }
    for (uint32_t i = 0; i < doc->node_count; i++) {
        const kiln_gltf_node *n = &doc->nodes[i];
        FUZZ_CHECK(n->parent >= -1 && n->parent < (int32_t)doc->node_count);
        FUZZ_CHECK(n->mesh >= -1 && n->mesh < (int32_t)doc->mesh_count);
        FUZZ_CHECK(n->camera >= -1 && n->camera < (int32_t)doc->camera_count);
        FUZZ_CHECK(n->light >= -1 && n->light < (int32_t)doc->light_count);
        for (uint32_t c = 0; c < n->child_count; c++) FUZZ_CHECK(n->children[c] < doc->node_count);
    }
    for (uint32_t i = 0; i < doc->root_count; i++) FUZZ_CHECK(doc->roots[i] < doc->node_count);
    for (uint32_t i = 0; i < doc->warning_count; i++)
        FUZZ_CHECK(kiln_utf8_check(doc->warnings[i], strlen(doc->warnings[i]), NULL));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    kiln_error err = {0};
    kiln_gltf *doc = kiln_gltf_load_memory(data, size, FUZZ_GLTF_PATH, NULL, &err);
    if (!doc) {
        FUZZ_CHECK(err.message[0] != '\0');
        FUZZ_CHECK(kiln_utf8_check(err.message, strlen(err.message), NULL));
        return 0;
    }
    check_document(doc);
    kiln_gltf_free(doc);
    return 0;
}
