/* libFuzzer target: image decoding from memory (kiln_image_decode: PNG, JPEG, Radiance HDR and
 * whatever else stb_image reads, since a glTF file can carry any of them).
 *
 * stb_image is compiled into this target from its header (stb_image_impl.c) with the sanitizers
 * and coverage, so the fuzzer sees inside the decoder rather than only kiln's wrapper around the
 * system's uninstrumented libstb. A decoded image must be as large as its dimensions say (every
 * byte is read back), and converting it to RGBA8, as the PNG writer does, must work.
 *
 * A header claiming a large image that kiln allows (up to KILN_IMAGE_MAX_PIXELS) makes stb fill
 * it with zeros for seconds, which would cut the run's speed a hundredfold while exercising no new
 * code; such inputs are skipped above FUZZ_MAX_PIXELS. Headers over kiln's limit still go through,
 * since refusing them is kiln's code. The header is read only once kiln's guards for stb (which
 * protect stbi_info as well as the decode) have passed it. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include <stb_image.h>

#include <kiln/core.h>
#include <kiln/core/utf8.h>

#include "core/stb_guards.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_PIXELS (1024u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    int w, h, channels;
    char why[128];
    if (size <= INT_MAX && !kiln_stb_guard_refuses(data, size, why, sizeof why) &&
        stbi_info_from_memory(data, (int)size, &w, &h, &channels)) {
        uint64_t pixels = (uint64_t)w * (uint64_t)h;
        if (pixels > FUZZ_MAX_PIXELS && pixels <= KILN_IMAGE_MAX_PIXELS) return 0;
    }
    kiln_image img;
    kiln_error err = {0};
    if (!kiln_image_decode(&img, data, size, &err)) {
        FUZZ_CHECK(err.message[0] != '\0');
        FUZZ_CHECK(kiln_utf8_check(err.message, strlen(err.message), NULL));
        FUZZ_CHECK(img.pixels == NULL);
        return 0;
    }
    FUZZ_CHECK(img.width > 0 && img.height > 0 && img.pixels);
    /* Every byte is read, so ASan sees a buffer shorter than the dimensions claim. */
    const uint8_t *bytes = img.pixels;
    uint8_t sum = 0;
    for (size_t i = 0; i < kiln_image_byte_size(&img); i++) sum ^= bytes[i];
    (void)sum;
    kiln_image rgba8 = {0};
    if (img.format != KILN_IMAGE_RGBA8) FUZZ_CHECK(kiln_image_to_rgba8(&img, &rgba8, &err));
    kiln_image_free(&rgba8);
    kiln_image_free(&img);
    return 0;
}
