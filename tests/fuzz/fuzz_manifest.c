/* libFuzzer target: a line of kiln-render --batch's manifest (tools/batch_manifest.c).
 *
 * An input is one manifest line, parsed as line 1 of a manifest in /data. A refusal must be one
 * message starting "line 1: "; an accepted line must keep the documented ranges and shapes:
 * paths resolved against /data (or absolute) that fit, an output ending in .png whose extra
 * outputs' paths fit, a size in 1..8192, finite angles, times and rotations, MSAA 0, 1 or 4. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "batch_manifest.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_path(const char *path) {
    size_t n = strnlen(path, BATCH_PATH_MAX);
    FUZZ_CHECK(n < BATCH_PATH_MAX);
    FUZZ_CHECK(path[0] == '/');
}

static void check_accepted(const batch_item *item) {
    check_path(item->model);
    check_path(item->out);
    if (item->env[0]) check_path(item->env);
    size_t n = strlen(item->out);
    FUZZ_CHECK(n >= 4 && !strcmp(item->out + n - 4, ".png"));
    FUZZ_CHECK(item->width >= 1 && item->width <= 8192 && item->height >= 1 && item->height <= 8192);
    FUZZ_CHECK(isfinite(item->time) && item->time >= 0.0f && isfinite(item->env_rotation));
    FUZZ_CHECK(isfinite(item->azimuth) && fabsf(item->elevation) < 1.5707964f);
    FUZZ_CHECK(item->distance_scale > 0.0f && isfinite(item->distance_scale));
    FUZZ_CHECK(item->fov_y == 0.0f || (item->fov_y > 0.0f && item->fov_y < 3.1415927f));
    FUZZ_CHECK(item->settings.msaa == 0 || item->settings.msaa == 1 || item->settings.msaa == 4);
    FUZZ_CHECK(item->outputs && !(item->outputs & ~(unsigned)(BATCH_OUTPUT_COLOR | BATCH_OUTPUT_NORMALS)));
    FUZZ_CHECK(!(item->no_sun && (item->sun_given || item->sun_lux > 0.0f)));
    char path[BATCH_PATH_MAX + 32];
    FUZZ_CHECK(batch_item_output_path(item, BATCH_OUTPUT_NORMALS, path, sizeof path));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static batch_item item;
    char why[512];
    batch_line line = {.number = 1, .text = (const char *)data, .length = size};
    if (batch_item_parse(&line, "/data", &item, why, sizeof why)) check_accepted(&item);
    else FUZZ_CHECK(!strncmp(why, "line 1: ", 8) && strlen(why) < sizeof why);
    return 0;
}
