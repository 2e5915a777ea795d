/* The document beyond accessors: an external image (percent-decoded name) decoded once for two
 * slots, materials with KHR_texture_transform and KHR_materials_emissive_strength, samplers, flat
 * normals and generated tangents, the hierarchy's world transforms, scene selection, cameras,
 * KHR_lights_punctual in kiln's units, and warnings for unknown optional extensions. Files are
 * written into $KILN_TEST_TMP. */
#include "gltf_test_files.h"
#include "test.h"

static const char document[] =
    "{\"asset\":{\"version\":\"2.0\"},"
    "\"extensionsUsed\":[\"KHR_texture_transform\",\"EXT_made_up\",\"KHR_lights_punctual\"],"
    "\"buffers\":[{\"byteLength\":60,\"uri\":\"@BUF@\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,\"byteLength\":24}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
    "{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC2\"}],"
    "\"images\":[{\"uri\":\"tex%20ture.png\",\"name\":\"checker\"}],"
    "\"samplers\":[{\"magFilter\":9728,\"minFilter\":9986,\"wrapS\":33071,\"wrapT\":33648}],"
    "\"textures\":[{\"source\":0,\"sampler\":0}],"
    "\"materials\":[{\"name\":\"painted\",\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.5,0.25,1,1],"
    "\"metallicFactor\":0,\"roughnessFactor\":0.5,\"baseColorTexture\":{\"index\":0,\"extensions\":"
    "{\"KHR_texture_transform\":{\"offset\":[0.5,0],\"scale\":[2,2],\"rotation\":0.5,\"texCoord\":1}}}},"
    "\"normalTexture\":{\"index\":0,\"scale\":0.5},\"emissiveFactor\":[1,1,0],"
    "\"extensions\":{\"KHR_materials_emissive_strength\":{\"emissiveStrength\":4}},"
    "\"alphaMode\":\"MASK\",\"alphaCutoff\":0.3,\"doubleSided\":true}],"
    "\"meshes\":[{\"name\":\"tri\",\"primitives\":[{\"attributes\":{\"POSITION\":0,\"TEXCOORD_0\":1},\"material\":0}]}],"
    "\"cameras\":[{\"type\":\"perspective\",\"perspective\":{\"yfov\":0.8,\"znear\":0.1}},"
    "{\"type\":\"orthographic\",\"orthographic\":{\"xmag\":2,\"ymag\":1,\"znear\":0.5,\"zfar\":9}}],"
    "\"extensions\":{\"KHR_lights_punctual\":{\"lights\":[{\"type\":\"point\",\"intensity\":10,\"color\":[1,0.5,0]},"
    "{\"type\":\"spot\",\"intensity\":2,\"range\":5,\"spot\":{\"outerConeAngle\":0.5}},"
    "{\"type\":\"directional\",\"intensity\":3}]}},"
    "\"nodes\":[{\"translation\":[1,2,3],\"children\":[1]},{\"scale\":[2,2,2],\"mesh\":0,\"camera\":0},"
    "{\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}}}],"
    "\"scenes\":[{\"nodes\":[0]},{\"nodes\":[2]}]}";

/* Writes the 2x2 image and test.gltf into $KILN_TEST_TMP/gltf_document; the path in `out`. */
static bool write_files(char *out, size_t size) {
    const char *tmp = getenv("KILN_TEST_TMP");
    char dir[900], png[1024];
    snprintf(dir, sizeof dir, "%s/gltf_document", tmp ? tmp : "/tmp");
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    if (system(cmd) != 0) return false;
    kiln_image img = {0};
    if (!kiln_image_create(&img, 2, 2, KILN_IMAGE_RGBA8, NULL)) return false;
    memset(img.pixels, 200, 16);
    snprintf(png, sizeof png, "%s/tex ture.png", dir);
    bool ok = kiln_image_write_png(&img, png, NULL);
    kiln_image_free(&img);
    const float data[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1};
    char *text = test_gltf_text(document, data, sizeof data);
    snprintf(out, size, "%s/test.gltf", dir);
    FILE *f = fopen(out, "w");
    ok = ok && f && fputs(text, f) >= 0;
    if (f) fclose(f);
    free(text);
    return ok;
}

static kiln_gltf *load_document(const kiln_gltf_options *options) {
    char path[1024];
    if (!write_files(path, sizeof path)) return NULL;
    kiln_error err = {0};
    kiln_gltf *doc = kiln_gltf_load(path, options, &err);
    if (!doc) fprintf(stderr, "%s\n", err.message);
    return doc;
}

TEST(an_external_image_is_decoded_once_for_colour_and_data_slots) {
    kiln_gltf *doc = load_document(NULL);
    CHECK(doc);
    CHECK_EQ_INT(doc->image_count, 1);
    CHECK_EQ_INT(doc->images[0].image.width, 2);
    CHECK(doc->images[0].srgb && doc->images[0].linear);
    CHECK(strcmp(doc->images[0].name, "checker") == 0);
    kiln_gltf_free(doc);
}

TEST(an_image_sampled_as_colour_and_as_data_is_wanted_in_both_encodings) {
    kiln_gltf *doc = load_document(NULL);
    CHECK(doc);
    const kiln_gltf_material *m = &doc->materials[0];
    CHECK(kiln_material_slot_is_srgb(KILN_TEX_BASE_COLOR) && kiln_material_slot_is_srgb(KILN_TEX_EMISSIVE));
    for (int slot = 0; slot < KILN_TEX_COUNT; slot++) /* every other slot samples data, as stored */
        CHECK(kiln_material_slot_is_srgb(slot) == (slot == KILN_TEX_BASE_COLOR || slot == KILN_TEX_EMISSIVE));
    /* The base colour (colour) and the normal map (data) share one image. */
    CHECK_EQ_INT(m->images[KILN_TEX_BASE_COLOR], m->images[KILN_TEX_NORMAL]);
    const kiln_gltf_image *img = &doc->images[m->images[KILN_TEX_BASE_COLOR]];
    CHECK(img->srgb && img->linear);
    kiln_gltf_free(doc);
}

TEST(materials_take_factors_transforms_and_the_emissive_strength) {
    kiln_gltf *doc = load_document(NULL);
    CHECK(doc);
    const kiln_gltf_material *m = &doc->materials[0];
    const kiln_material *k = &m->material;
    CHECK(strcmp(k->label, "painted") == 0);
    CHECK_NEAR(k->base_color.y, 0.25, 0);
    CHECK_NEAR(k->metallic, 0, 0);
    CHECK_NEAR(k->roughness, 0.5, 0);
    CHECK_NEAR(k->normal_scale, 0.5, 0);
    CHECK_NEAR(k->emissive_strength, 4, 0);
    CHECK_EQ_INT(k->alpha_mode, KILN_ALPHA_MASK);
    CHECK_NEAR(k->alpha_cutoff, 0.3, 1e-7);
    CHECK(k->double_sided);
    CHECK_EQ_INT(m->images[KILN_TEX_BASE_COLOR], 0);
    CHECK_EQ_INT(m->images[KILN_TEX_NORMAL], 0);
    CHECK_EQ_INT(m->images[KILN_TEX_EMISSIVE], -1);
    CHECK_EQ_INT(k->texcoords[KILN_TEX_BASE_COLOR], 1);  /* the transform's texCoord override */
    CHECK_EQ_INT(k->texcoords[KILN_TEX_NORMAL], 0);
    CHECK_NEAR(k->uv_offset.x, 0.5, 0);
    CHECK_NEAR(k->uv_scale.y, 2, 0);
    CHECK_NEAR(k->uv_rotation, 0.5, 0);
    CHECK_NEAR(m->transforms[KILN_TEX_NORMAL].scale.x, 1, 0);
    CHECK_EQ_INT(k->sampler.wrap_u, KILN_SAMPLER_WRAP_CLAMP_TO_EDGE);
    CHECK_EQ_INT(k->sampler.wrap_v, KILN_SAMPLER_WRAP_MIRRORED_REPEAT);
    CHECK_EQ_INT(k->sampler.mag_filter, KILN_SAMPLER_FILTER_NEAREST);
    CHECK_EQ_INT(k->sampler.min_filter, KILN_SAMPLER_FILTER_NEAREST);
    CHECK_EQ_INT(k->sampler.mip_filter, KILN_SAMPLER_FILTER_LINEAR);
    kiln_gltf_free(doc);
}

TEST(a_normal_mapped_mesh_without_normals_gets_flat_normals_and_tangents) {
    kiln_gltf *doc = load_document(NULL);
    CHECK(doc);
    const kiln_mesh_data *md = &doc->meshes[0].primitives[0].mesh;
    CHECK_EQ_INT(md->vertex_count, 3);
    CHECK_NEAR(md->normals[1].z, 1, 1e-6);
    CHECK(md->tangents != NULL);
    CHECK_NEAR(md->tangents[0].x, 1, 1e-5);
    CHECK_EQ_INT(doc->meshes[0].primitives[0].material, 0);
    kiln_gltf_free(doc);
}

TEST(nodes_compose_world_transforms_and_the_default_scene_is_loaded) {
    kiln_gltf *doc = load_document(NULL);
    CHECK(doc);
    CHECK_EQ_INT(doc->scene, 0);
    CHECK_EQ_INT(doc->root_count, 1);
    CHECK_EQ_INT(doc->roots[0], 0);
    const kiln_gltf_node *child = &doc->nodes[1];
    CHECK_EQ_INT(child->parent, 0);
    CHECK_NEAR(child->world.m[0], 2, 0);
    CHECK_NEAR(child->world.m[12], 1, 0);
    CHECK_NEAR(child->world.m[14], 3, 0);
    CHECK(child->in_scene && !doc->nodes[2].in_scene);
    CHECK_EQ_INT(child->mesh, 0);
    CHECK_EQ_INT(child->camera, 0);
    CHECK_EQ_INT(doc->nodes[2].light, 0);
    kiln_gltf_free(doc);

    doc = load_document(&(kiln_gltf_options){.pick_scene = true, .scene = 1});
    CHECK(doc);
    CHECK_EQ_INT(doc->scene, 1);
    CHECK_EQ_INT(doc->roots[0], 2);
    CHECK(doc->nodes[2].in_scene && !doc->nodes[0].in_scene);
    kiln_gltf_free(doc);
}

TEST(cameras_and_lights_convert_to_kilns_units) {
    kiln_gltf *doc = load_document(NULL);
    CHECK(doc);
    CHECK_EQ_INT(doc->camera_count, 2);
    CHECK_EQ_INT(doc->cameras[0].kind, KILN_GLTF_CAMERA_PERSPECTIVE);
    CHECK_NEAR(doc->cameras[0].yfov, 0.8, 1e-7);
    CHECK_NEAR(doc->cameras[0].zfar, 0, 0);
    CHECK_EQ_INT(doc->cameras[1].kind, KILN_GLTF_CAMERA_ORTHOGRAPHIC);
    CHECK_NEAR(doc->cameras[1].xmag, 2, 0);
    CHECK_EQ_INT(doc->light_count, 3);
    const kiln_gltf_light *point = &doc->lights[0], *spot = &doc->lights[1], *sun = &doc->lights[2];
    CHECK_NEAR(point->intensity, 10 * 4 * KILN_PI, 1e-4);        /* candela -> kiln watts */
    CHECK_NEAR(point->range, sqrt(10 / KILN_GLTF_LIGHT_CUTOFF_LUX), 1e-3);
    CHECK_NEAR(point->color.y, 0.5, 0);
    CHECK_NEAR(spot->range, 5, 0);
    CHECK_NEAR(spot->outer_cone_angle, 0.5, 0);
    CHECK_NEAR(sun->intensity, 3, 0);                            /* lux as is */
    kiln_gltf_free(doc);
}

TEST(an_unknown_optional_extension_is_ignored_with_one_warning) {
    kiln_gltf *doc = load_document(NULL);
    CHECK(doc);
    CHECK_EQ_INT(doc->warning_count, 1);
    CHECK(strcmp(doc->warnings[0], "extensionsUsed[1]: EXT_made_up is not supported; ignored") == 0);
    kiln_gltf_free(doc);
}

TEST_MAIN(T(an_external_image_is_decoded_once_for_colour_and_data_slots),
          T(an_image_sampled_as_colour_and_as_data_is_wanted_in_both_encodings),
          T(materials_take_factors_transforms_and_the_emissive_strength),
          T(a_normal_mapped_mesh_without_normals_gets_flat_normals_and_tangents),
          T(nodes_compose_world_transforms_and_the_default_scene_is_loaded),
          T(cameras_and_lights_convert_to_kilns_units),
          T(an_unknown_optional_extension_is_ignored_with_one_warning))
