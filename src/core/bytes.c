/* The layout byte writer: alignment-aware appends into caller storage. */
#include <kiln/core/bytes.h>

#include <string.h>

void kiln_bytes_init(kiln_bytes *w, void *storage, size_t capacity) {
    if (!w) return;
    w->data = storage;
    w->size = 0;
    w->capacity = storage ? capacity : 0;
    w->overflow = false;
}

/* Reserves n bytes at the end and returns where they go, or NULL (marking overflow) when they
 * do not fit. Once overflowed, every later reservation fails so the layout is not half-written
 * with members at the wrong offsets. */
static uint8_t *reserve(kiln_bytes *w, size_t n) {
    if (!w || w->overflow) return NULL;
    if (n > w->capacity - w->size) {
        w->overflow = true;
        return NULL;
    }
    uint8_t *p = w->data + w->size;
    w->size += n;
    return p;
}

static void zeros(kiln_bytes *w, size_t n) {
    if (n == 0) return;
    uint8_t *p = reserve(w, n);
    if (p) memset(p, 0, n);
}

void kiln_bytes_align(kiln_bytes *w, size_t alignment) {
    if (!w || alignment <= 1) return;
    size_t rem = w->size % alignment;
    if (rem) zeros(w, alignment - rem);
}

void kiln_bytes_pad_to(kiln_bytes *w, size_t offset) {
    if (!w || offset <= w->size) return;
    zeros(w, offset - w->size);
}

void kiln_bytes_end_struct(kiln_bytes *w, size_t struct_alignment) {
    kiln_bytes_align(w, struct_alignment);
}

void kiln_bytes_raw(kiln_bytes *w, const void *p, size_t n) {
    if (n == 0) return;
    uint8_t *dst = reserve(w, n);
    if (!dst) return;
    if (p) memcpy(dst, p, n);
    else memset(dst, 0, n);
}

/* Aligns, then copies n bytes: the shape of every typed write. Values are copied in host byte
 * order, which is what the GPU reads on every platform WebGPU runs on (little-endian). */
static void aligned(kiln_bytes *w, size_t alignment, const void *p, size_t n) {
    kiln_bytes_align(w, alignment);
    kiln_bytes_raw(w, p, n);
}

void kiln_bytes_f32(kiln_bytes *w, float v) { aligned(w, 4, &v, sizeof v); }
void kiln_bytes_u32(kiln_bytes *w, uint32_t v) { aligned(w, 4, &v, sizeof v); }
void kiln_bytes_i32(kiln_bytes *w, int32_t v) { aligned(w, 4, &v, sizeof v); }

void kiln_bytes_vec2(kiln_bytes *w, kiln_vec2 v) {
    float f[2] = {v.x, v.y};
    aligned(w, 8, f, sizeof f);
}

void kiln_bytes_vec3(kiln_bytes *w, kiln_vec3 v) {
    float f[3] = {v.x, v.y, v.z};
    aligned(w, 16, f, sizeof f);
}

void kiln_bytes_vec4(kiln_bytes *w, kiln_vec4 v) {
    float f[4] = {v.x, v.y, v.z, v.w};
    aligned(w, 16, f, sizeof f);
}

void kiln_bytes_mat4(kiln_bytes *w, kiln_mat4 m) {
    aligned(w, 16, m.m, sizeof m.m);
}

void kiln_bytes_std140_array_f32(kiln_bytes *w, const float *v, size_t n) {
    kiln_bytes_align(w, 16);
    for (size_t i = 0; i < n; i++) {
        kiln_bytes_f32(w, v ? v[i] : 0.0f);
        kiln_bytes_align(w, 16);
    }
}

bool kiln_bytes_expect(const kiln_bytes *w, size_t expected_size, kiln_error *err) {
    if (!w) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "byte layout: no writer");
    if (w->overflow)
        return kiln_error_set(err, KILN_ERR_CAPACITY,
                              "byte layout overflowed its %zu-byte storage after %zu bytes "
                              "(expected %zu bytes)",
                              w->capacity, w->size, expected_size);
    if (w->size != expected_size)
        return kiln_error_set(err, KILN_ERR_FORMAT, "byte layout is %zu bytes, expected %zu",
                              w->size, expected_size);
    return true;
}
