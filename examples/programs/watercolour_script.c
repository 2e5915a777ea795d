/* watercolour_script: writes the kiln-run script of the watercolour develop, or the oracle's sheet.
 *
 *   watercolour_script SCRIPT.json    the script: the noise texture, the sheet, the program's
 *                                     structure, one dispatch carrying the blob, a frame and the
 *                                     save (watercolour.json here is this output, committed)
 *   watercolour_script --oracle PNG   the CPU oracle's sheet, for comparing by eye
 *   watercolour_script --compare PNG  compares a sheet kiln-run saved with the oracle's, against
 *                                     the thresholds in README.md; exit status 0 when it agrees
 *
 * The blob and the noise come from watercolour_palette.c; the pass graph below is the program's
 * structure, which watercolour_oracle.c mirrors pass by pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/core/image.h>
#include <kiln/program_json.h>

#include "watercolour_oracle.h"

/* ---- the structure ------------------------------------------------------------------------------ */

/* Bindings: 0 the noise (Texture, Filtered Repeat), 1 the sheet (Target Full, the output). */
static const char *const bindings_json =
    "    {\"format\": \"R8\", \"shape\": \"Texture\", \"sampling\": {\"Filtered\": {\"wrap\": \"Repeat\", \"mips\": \"Base\"}}},\n"
    "    {\"format\": \"Rgba8\", \"shape\": {\"Target\": \"Full\"}, \"sampling\": {\"Filtered\": {\"wrap\": \"Clamp\", \"mips\": \"Base\"}}}\n";

/* Transients, in declaration order (the index a pass names). */
static const struct {
    const char *name; /* for this table's reader; the JSON has no comments */
    const char *format;
    uint32_t divisor; /* 0: Full */
} transients[] = {
    {"water", "R16Float", 0},          {"water_h", "R16Float", 0},        {"water_soft", "R16Float", 0},
    {"coverage", "Rgba16Float", 0},    {"bleed_h", "Rgba16Float", 0},     {"bleed", "Rgba16Float", 0},
    {"density", "Rgba16Float", 0},     {"pigment", "Rgba16Float", 0},     {"flow_half", "Rgba16Float", 2},
    {"flow_half_h", "Rgba16Float", 2}, {"flow_half_v", "Rgba16Float", 2}, {"settled", "Rgba16Float", 0},
    {"absorbance", "Rgba16Float", 0},
};

/* Passes, in sequence order (wash_pass): entry point, inputs as JSON, output as JSON, blend. */
static const struct {
    const char *entry, *inputs, *output, *blend;
} passes[WASH_PASS_COUNT] = {
    [WASH_PASS_WATER] = {"fs_coverage", "{\"Binding\": {\"index\": 0}}", "{\"Transient\": {\"index\": 0}}", "Additive"},
    [WASH_PASS_WATER_H] = {"fs_blur", "{\"PassOutput\": {\"pass\": 0}}", "{\"Transient\": {\"index\": 1}}", "Replace"},
    [WASH_PASS_WATER_V] = {"fs_blur", "{\"PassOutput\": {\"pass\": 1}}", "{\"Transient\": {\"index\": 2}}", "Replace"},
    [WASH_PASS_COVERAGE] = {"fs_coverage", "{\"Binding\": {\"index\": 0}}", "{\"Transient\": {\"index\": 3}}", "Additive"},
    [WASH_PASS_BLEED_H] = {"fs_blur", "{\"PassOutput\": {\"pass\": 3}}", "{\"Transient\": {\"index\": 4}}", "Replace"},
    [WASH_PASS_BLEED_V] = {"fs_blur", "{\"PassOutput\": {\"pass\": 4}}", "{\"Transient\": {\"index\": 5}}", "Replace"},
    [WASH_PASS_WET_EDGE] = {"fs_wet_edge", "{\"PassOutput\": {\"pass\": 5}}, {\"Transient\": {\"index\": 2}}",
                            "{\"Transient\": {\"index\": 6}}", "Replace"},
    [WASH_PASS_GRANULATE] = {"fs_granulate", "{\"PassOutput\": {\"pass\": 6}}, {\"Binding\": {\"index\": 0}}",
                             "{\"Transient\": {\"index\": 7}}", "Replace"},
    [WASH_PASS_DOWNSAMPLE] = {"fs_downsample", "{\"Transient\": {\"index\": 7}}", "{\"Transient\": {\"index\": 8}}",
                              "Replace"},
    [WASH_PASS_FLOW_H] = {"fs_blur", "{\"PassOutput\": {\"pass\": 8}}", "{\"Transient\": {\"index\": 9}}", "Replace"},
    [WASH_PASS_FLOW_V] = {"fs_blur", "{\"PassOutput\": {\"pass\": 9}}", "{\"Transient\": {\"index\": 10}}", "Replace"},
    [WASH_PASS_FLOW] = {"fs_flow",
                        "{\"Transient\": {\"index\": 7}}, {\"PassOutput\": {\"pass\": 10}}, {\"Transient\": {\"index\": 2}}",
                        "{\"Transient\": {\"index\": 11}}", "Replace"},
    [WASH_PASS_PAPER] = {"fs_paper", "{\"Binding\": {\"index\": 0}}", "{\"Transient\": {\"index\": 12}}", "Replace"},
    [WASH_PASS_LAYER] = {"fs_layer", "{\"PassOutput\": {\"pass\": 11}}", "{\"Transient\": {\"index\": 12}}", "Additive"},
    [WASH_PASS_COMPOSITE] = {"fs_composite", "{\"PassOutput\": {\"pass\": 13}}", "{\"Binding\": {\"index\": 1}}",
                             "Replace"},
};

/* ---- writing ---------------------------------------------------------------------------------- */

static bool write_script(FILE *f) {
    uint8_t noise[WASH_NOISE_SIDE * WASH_NOISE_SIDE];
    wash_build_noise(noise);
    size_t blob_size = wash_blob_size();
    uint8_t *blob = malloc(blob_size);
    if (!blob) return false;
    wash_build_blob(blob, WASH_WIDTH, WASH_HEIGHT);
    char *noise64 = kiln_json_base64_encode(noise, sizeof noise);
    char *blob64 = kiln_json_base64_encode(blob, blob_size);
    free(blob);
    if (!noise64 || !blob64) {
        free(noise64);
        free(blob64);
        return false;
    }

    fprintf(f, "[\n");
    fprintf(f, "{\"kind\": \"create_texture\", \"as\": \"noise\", \"format\": \"R8\", \"width\": %d, \"height\": %d,\n"
               " \"usage\": \"Sampled\", \"sampling\": \"Linear\",\n \"pixels\": \"%s\"},\n",
            WASH_NOISE_SIDE, WASH_NOISE_SIDE, noise64);
    fprintf(f, "{\"kind\": \"create_texture\", \"as\": \"sheet\", \"format\": \"Rgba8\", \"width\": %d, \"height\": %d,\n"
               " \"usage\": \"Writable\", \"sampling\": \"Linear\"},\n",
            WASH_WIDTH, WASH_HEIGHT);

    fprintf(f, "{\"kind\": \"program.register\", \"as\": \"wash\", \"wgsl_path\": \"watercolour.wgsl\",\n");
    fprintf(f, " \"bindings\": [\n%s ],\n \"transients\": [\n", bindings_json);
    size_t transient_count = sizeof transients / sizeof transients[0];
    for (size_t i = 0; i < transient_count; i++) {
        char extent[64];
        if (transients[i].divisor)
            snprintf(extent, sizeof extent, "{\"Divided\": {\"divisor\": %u}}", transients[i].divisor);
        else
            snprintf(extent, sizeof extent, "\"Full\"");
        fprintf(f, "    {\"format\": \"%s\", \"extent\": %s, \"samples\": \"One\"}%s\n", transients[i].format, extent,
                i + 1 < transient_count ? "," : "");
    }
    fprintf(f, " ],\n \"geometries\": [],\n \"depth_transients\": [],\n \"passes\": [\n");
    wash_window windows[WASH_PASS_COUNT];
    wash_layout(windows);
    for (int p = 0; p < WASH_PASS_COUNT; p++) {
        char repeat[64];
        if (windows[p].repeat_count)
            snprintf(repeat, sizeof repeat, "{\"count\": %u, \"uniform_stride\": %u}", windows[p].repeat_count,
                     windows[p].repeat_stride);
        else
            snprintf(repeat, sizeof repeat, "null");
        fprintf(f,
                "    {\"stage\": \"Fragment\", \"entry_point\": \"%s\", \"inputs\": [%s], \"output\": %s,\n"
                "     \"blend\": \"%s\", \"uniform_offset\": %u, \"uniform_length\": %u, \"repeat\": %s}%s\n",
                passes[p].entry, passes[p].inputs, passes[p].output, passes[p].blend, windows[p].offset,
                windows[p].length, repeat, p + 1 < WASH_PASS_COUNT ? "," : "");
    }
    fprintf(f, " ]},\n");

    fprintf(f, "{\"kind\": \"program.dispatch\", \"program_id\": \"$wash\", \"bindings\": [\"$noise\", \"$sheet\"],\n"
               " \"geometries\": [], \"draw_sets\": [],\n \"uniforms\": \"%s\"},\n",
            blob64);
    fprintf(f, "{\"kind\": \"frame\"},\n");
    fprintf(f, "{\"kind\": \"save_texture\", \"texture_id\": \"$sheet\", \"path\": \"watercolour.png\"}\n");
    fprintf(f, "]\n");
    free(noise64);
    free(blob64);
    return !ferror(f);
}

static bool write_oracle(const char *path) {
    uint8_t noise[WASH_NOISE_SIDE * WASH_NOISE_SIDE];
    wash_build_noise(noise);
    size_t blob_size = wash_blob_size();
    uint8_t *blob = malloc(blob_size);
    kiln_image sheet = {0};
    kiln_error err = {0};
    bool ok = blob && kiln_image_create(&sheet, WASH_WIDTH, WASH_HEIGHT, KILN_IMAGE_RGBA8, &err);
    if (ok) {
        wash_build_blob(blob, WASH_WIDTH, WASH_HEIGHT);
        ok = wash_develop(blob, blob_size, noise, WASH_WIDTH, WASH_HEIGHT, sheet.pixels) &&
             kiln_image_write_png(&sheet, path, &err);
    }
    if (!ok) fprintf(stderr, "watercolour_script: %s: %s\n", path, err.message[0] ? err.message : "develop failed");
    free(blob);
    kiln_image_free(&sheet);
    return ok;
}

/* The agreement README.md documents (and tests/program/test_watercolour.c asserts). */
#define AGREE_CHANNEL_STEPS 2
#define AGREE_PIXEL_FRACTION 0.995
#define AGREE_MEAN_STEPS 0.25
#define AGREE_WORST_STEPS 12

static bool compare_with_oracle(const char *path) {
    kiln_image gpu = {0}, oracle = {0};
    kiln_error err = {0};
    uint8_t noise[WASH_NOISE_SIDE * WASH_NOISE_SIDE];
    wash_build_noise(noise);
    size_t blob_size = wash_blob_size();
    uint8_t *blob = malloc(blob_size);
    bool ok = blob && kiln_image_load(&gpu, path, &err) && kiln_image_create(&oracle, WASH_WIDTH, WASH_HEIGHT, KILN_IMAGE_RGBA8, &err);
    if (ok && (gpu.width != WASH_WIDTH || gpu.height != WASH_HEIGHT)) {
        fprintf(stderr, "watercolour_script: %s is %ux%u, the develop is %ux%u\n", path, gpu.width, gpu.height, WASH_WIDTH, WASH_HEIGHT);
        ok = false;
    } else if (ok) {
        wash_build_blob(blob, WASH_WIDTH, WASH_HEIGHT);
        ok = wash_develop(blob, blob_size, noise, WASH_WIDTH, WASH_HEIGHT, oracle.pixels);
    } else {
        fprintf(stderr, "watercolour_script: %s: %s\n", path, err.message);
    }
    if (ok) {
        const uint8_t *a = gpu.pixels, *b = oracle.pixels;
        size_t pixels = (size_t)WASH_WIDTH * WASH_HEIGHT, within = 0, total = 0;
        int worst = 0;
        for (size_t i = 0; i < pixels; i++) {
            int pixel_worst = 0;
            for (int c = 0; c < 4; c++) {
                int d = abs((int)a[4 * i + c] - (int)b[4 * i + c]);
                total += (size_t)d;
                if (d > pixel_worst) pixel_worst = d;
            }
            if (pixel_worst <= AGREE_CHANNEL_STEPS) within++;
            if (pixel_worst > worst) worst = pixel_worst;
        }
        double fraction = (double)within / (double)pixels, mean = (double)total / (double)(pixels * 4);
        ok = fraction >= AGREE_PIXEL_FRACTION && mean <= AGREE_MEAN_STEPS && worst <= AGREE_WORST_STEPS;
        printf("%s vs the CPU oracle: %.3f%% of pixels within %d/255 (>= %.1f%%), mean %.3f/255 (<= %.2f), worst %d/255 "
               "(<= %d): %s\n", path, 100.0 * fraction, AGREE_CHANNEL_STEPS, 100.0 * AGREE_PIXEL_FRACTION, mean,
               AGREE_MEAN_STEPS, worst, AGREE_WORST_STEPS, ok ? "agrees" : "DISAGREES");
    }
    free(blob);
    kiln_image_free(&gpu);
    kiln_image_free(&oracle);
    return ok;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--oracle") == 0) return write_oracle(argv[2]) ? 0 : 1;
    if (argc == 3 && strcmp(argv[1], "--compare") == 0) return compare_with_oracle(argv[2]) ? 0 : 1;
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: watercolour_script SCRIPT.json | --oracle SHEET.png | --compare SHEET.png\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "w");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    bool ok = write_script(f);
    ok = fclose(f) == 0 && ok;
    if (!ok) fprintf(stderr, "watercolour_script: could not write %s\n", argv[1]);
    return ok ? 0 : 1;
}
