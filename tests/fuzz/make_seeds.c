/* Writes the generated seeds of the fuzz corpora, at build time (tests/fuzz/CMakeLists.txt), so
 * that no binary seed is kept in the repository and the message seeds follow the scripts:
 *   - image/: small images in every format the image target's decoder reads, written by
 *     stb_image_write (PNG, JPEG, Radiance HDR, BMP, TGA);
 *   - gltf/: GLB files whose BIN chunk holds a triangle and a PNG;
 *   - json/: each message of the given kiln-run scripts as one message of the JSON surface: a
 *     script's "wgsl_path" becomes the "wgsl" text of the file it names, and kiln-run's "$name"
 *     references become ids, since the surface itself knows neither.
 * Hand-written seeds (more messages, command lines, glTF JSON) are committed under corpus/.
 *
 *   make_seeds OUT_DIR [SCRIPT.json...] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <stb_image_write.h>

typedef struct buffer {
    uint8_t *bytes;
    size_t size;
} buffer;

static void append(buffer *b, const void *bytes, size_t size) {
    uint8_t *grown = realloc(b->bytes, b->size + size);
    if (!grown) {
        fprintf(stderr, "make_seeds: out of memory\n");
        exit(1);
    }
    memcpy(grown + b->size, bytes, size);
    b->bytes = grown;
    b->size += size;
}

static void append_callback(void *context, void *data, int size) { append(context, data, (size_t)size); }

static void append_u32(buffer *b, uint32_t v) {
    uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    append(b, le, 4);
}

static void write_file(const char *dir, const char *name, const buffer *b) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b->bytes, 1, b->size, f) != b->size || fclose(f) != 0) {
        fprintf(stderr, "make_seeds: cannot write %s\n", path);
        exit(1);
    }
}

/* A w x h test pattern of n channels: gradients, so every decoder filter has work to do. */
static uint8_t *pattern(int w, int h, int n) {
    uint8_t *p = malloc((size_t)w * h * n);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < n; c++) p[((size_t)y * w + x) * n + c] = (uint8_t)(x * 37 + y * 91 + c * 53);
    return p;
}

static void png(buffer *b, int w, int h, int n) {
    uint8_t *p = pattern(w, h, n);
    stbi_write_png_to_func(append_callback, b, w, h, n, p, w * n);
    free(p);
}

static void write_images(const char *dir) {
    static const struct { const char *name; int w, h, n; } pngs[] = {
        {"rgba_4x4.png", 4, 4, 4}, {"rgb_3x2.png", 3, 2, 3}, {"grey_5x3.png", 5, 3, 1}, {"grey_alpha_2x2.png", 2, 2, 2},
    };
    for (size_t i = 0; i < sizeof pngs / sizeof pngs[0]; i++) {
        buffer b = {0};
        png(&b, pngs[i].w, pngs[i].h, pngs[i].n);
        write_file(dir, pngs[i].name, &b);
        free(b.bytes);
    }
    static const struct { const char *name; int w, h, n, quality; } jpegs[] = {
        {"rgb_8x8.jpg", 8, 8, 3, 90}, {"grey_9x5.jpg", 9, 5, 1, 50}, {"rgb_17x3.jpg", 17, 3, 3, 10},
    };
    for (size_t i = 0; i < sizeof jpegs / sizeof jpegs[0]; i++) {
        buffer b = {0};
        uint8_t *p = pattern(jpegs[i].w, jpegs[i].h, jpegs[i].n);
        stbi_write_jpg_to_func(append_callback, &b, jpegs[i].w, jpegs[i].h, jpegs[i].n, p, jpegs[i].quality);
        write_file(dir, jpegs[i].name, &b);
        free(p);
        free(b.bytes);
    }
    /* Radiance HDR: stb writes the run-length form for rows of 8..32767 pixels, flat ones else. */
    static const struct { const char *name; int w, h; } hdrs[] = {{"flat_4x2.hdr", 4, 2}, {"rle_9x2.hdr", 9, 2}};
    for (size_t i = 0; i < sizeof hdrs / sizeof hdrs[0]; i++) {
        int w = hdrs[i].w, h = hdrs[i].h;
        float *f = malloc(sizeof *f * (size_t)w * h * 3);
        for (int k = 0; k < w * h * 3; k++) f[k] = (float)(k % 7) * 0.75f + (k % 3 ? 0.0f : 20.0f);
        buffer b = {0};
        stbi_write_hdr_to_func(append_callback, &b, w, h, 3, f);
        write_file(dir, hdrs[i].name, &b);
        free(f);
        free(b.bytes);
    }
    buffer bmp = {0}, tga = {0};
    uint8_t *p = pattern(3, 3, 3);
    stbi_write_bmp_to_func(append_callback, &bmp, 3, 3, 3, p);
    stbi_write_tga_to_func(append_callback, &tga, 3, 3, 3, p);
    write_file(dir, "rgb_3x3.bmp", &bmp);
    write_file(dir, "rgb_3x3.tga", &tga);
    free(p);
    free(bmp.bytes);
    free(tga.bytes);
}

/* A GLB: the JSON chunk padded with spaces and the BIN chunk with zeros to 4 bytes, as the spec
 * lays them out. */
static void write_glb(const char *dir, const char *name, const char *json, const buffer *bin) {
    size_t json_size = (strlen(json) + 3) / 4 * 4, bin_size = bin ? (bin->size + 3) / 4 * 4 : 0;
    buffer b = {0};
    append_u32(&b, 0x46546C67u);
    append_u32(&b, 2);
    append_u32(&b, (uint32_t)(12 + 8 + json_size + (bin ? 8 + bin_size : 0)));
    append_u32(&b, (uint32_t)json_size);
    append_u32(&b, 0x4E4F534Au);
    append(&b, json, strlen(json));
    for (size_t i = strlen(json); i < json_size; i++) append(&b, " ", 1);
    if (bin) {
        append_u32(&b, (uint32_t)bin_size);
        append_u32(&b, 0x004E4942u);
        append(&b, bin->bytes, bin->size);
        for (size_t i = bin->size; i < bin_size; i++) append(&b, "", 1);
    }
    write_file(dir, name, &b);
    free(b.bytes);
}

static void write_glbs(const char *dir) {
    /* positions (36 bytes), uvs (24), indices (6 + 2 padding), then a 2x2 PNG. */
    const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const float uvs[6] = {0, 0, 1, 0, 0, 1};
    const uint16_t indices[4] = {0, 1, 2, 0};
    buffer bin = {0};
    append(&bin, positions, sizeof positions);
    append(&bin, uvs, sizeof uvs);
    append(&bin, indices, sizeof indices);
    size_t png_offset = bin.size;
    png(&bin, 2, 2, 4);
    char json[2048];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":%zu}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,\"byteLength\":24},"
             "{\"buffer\":0,\"byteOffset\":60,\"byteLength\":6},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]},"
             "{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC2\"},"
             "{\"bufferView\":2,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"}],"
             "\"images\":[{\"bufferView\":3,\"mimeType\":\"image/png\"}],\"samplers\":[{}],"
             "\"textures\":[{\"source\":0,\"sampler\":0}],"
             "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}},\"normalTexture\":{\"index\":0}}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"TEXCOORD_0\":1},\"indices\":2,\"material\":0}]}],"
             "\"nodes\":[{\"mesh\":0,\"rotation\":[0,0,0,1]}],\"scenes\":[{\"nodes\":[0]}],\"scene\":0}",
             bin.size, png_offset, bin.size - png_offset);
    write_glb(dir, "textured_triangle.glb", json, &bin);
    write_glb(dir, "json_only.glb", "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[1]},{}],\"scenes\":[{\"nodes\":[0]}]}",
              NULL);
    free(bin.bytes);
}

/* kiln-run's "$name" stands for the id a named message returned; any id does for a seed. */
static json_t *resolve_reference(json_t *value) {
    if (json_is_string(value) && json_string_value(value)[0] == '$') return json_integer(1);
    return json_incref(value);
}

/* The message as the surface takes it, or NULL when a wgsl_path cannot be read. */
static json_t *surface_message(json_t *msg, const char *script_dir) {
    json_t *out = json_deep_copy(msg);
    json_object_del(out, "as");
    const char *keys[] = {"texture_id", "program_id"};
    for (size_t k = 0; k < 2; k++) {
        json_t *v = json_object_get(out, keys[k]);
        if (v) json_object_set_new(out, keys[k], resolve_reference(v));
    }
    json_t *bindings = json_object_get(out, "bindings");
    size_t i;
    json_t *v;
    json_array_foreach(bindings, i, v) json_array_set_new(bindings, i, resolve_reference(v));
    json_t *wgsl_path = json_object_get(out, "wgsl_path");
    if (json_is_string(wgsl_path)) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", script_dir, json_string_value(wgsl_path));
        FILE *f = fopen(path, "rb");
        buffer text = {0};
        char chunk[4096];
        size_t n;
        while (f && (n = fread(chunk, 1, sizeof chunk, f)) > 0) append(&text, chunk, n);
        if (f) fclose(f);
        /* A script may name a file that is missing on purpose (missing_wgsl.json): kept as is. */
        if (f) {
            json_object_set_new(out, "wgsl", json_stringn((const char *)text.bytes, text.size));
            json_object_del(out, "wgsl_path");
        }
        free(text.bytes);
    }
    return out;
}

static void write_messages(const char *dir, const char *script) {
    json_error_t jerr;
    json_t *messages = json_load_file(script, 0, &jerr);
    if (!json_is_array(messages)) {
        /* malformed.json is malformed on purpose: it is a seed as it is. */
        json_decref(messages);
        return;
    }
    char script_dir[1024];
    snprintf(script_dir, sizeof script_dir, "%s", script);
    char *slash = strrchr(script_dir, '/');
    if (slash) *slash = '\0';
    const char *base = slash ? slash + 1 : script_dir;
    size_t i;
    json_t *msg;
    json_array_foreach(messages, i, msg) {
        json_t *out = surface_message(msg, slash ? script_dir : ".");
        char *text = json_dumps(out, JSON_COMPACT);
        char name[512];
        snprintf(name, sizeof name, "%.*s_%zu.json", (int)(strlen(base) - 5), base, i);
        buffer b = {(uint8_t *)text, strlen(text)};
        write_file(dir, name, &b);
        free(text);
        json_decref(out);
    }
    json_decref(messages);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: make_seeds OUT_DIR [SCRIPT.json...]\n");
        return 2;
    }
    char dir[900];
    snprintf(dir, sizeof dir, "%s/image", argv[1]);
    write_images(dir);
    snprintf(dir, sizeof dir, "%s/gltf", argv[1]);
    write_glbs(dir);
    snprintf(dir, sizeof dir, "%s/json", argv[1]);
    for (int i = 2; i < argc; i++) write_messages(dir, argv[i]);
    return 0;
}
