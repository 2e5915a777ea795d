/* A byte writer for GPU uniform and storage buffer layouts (WGSL host-shareable layout).
 *
 * Each typed write first pads with zeros to the type's WGSL alignment, so writing the members of
 * a WGSL struct in declaration order reproduces its memory layout:
 *   f32, u32, i32   size 4,  align 4
 *   vec2<f32>       size 8,  align 8
 *   vec3<f32>       size 12, align 16   (a following scalar fills the fourth lane)
 *   vec4<f32>       size 16, align 16
 *   mat4x4<f32>     size 64, align 16   (four columns, matching kiln_mat4)
 * After the last member call kiln_bytes_end_struct(w, align) with the struct's alignment (the
 * largest member alignment) to round the size up, as WGSL does for a struct's size.
 *
 * Uniform (var<uniform>, "std140-like") versus storage (var<storage>, "std430-like") buffers:
 *   - in uniform buffers an array's element stride must be a multiple of 16, so array<f32, N>
 *     takes 16 bytes per element (kiln_bytes_std140_array_f32); in storage buffers it is 4;
 *   - in uniform buffers a struct member that is itself a struct, or an array, must start on a
 *     16-byte boundary (kiln_bytes_align(w, 16) before it);
 *   - everything else above is the same for both.
 * Finish with kiln_bytes_expect to assert the total against the size the shader side declares.
 *
 * The writer never allocates: it fills caller storage. Writing past the capacity sets `overflow`
 * and from then on nothing more is written (size stays where the overflow happened). */
#ifndef KILN_CORE_BYTES_H
#define KILN_CORE_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kiln/core/error.h>
#include <kiln/core/math.h>

/* A writer over caller storage; set it up with kiln_bytes_init. */
typedef struct kiln_bytes {
    uint8_t *data;   /* the caller's storage (not owned) */
    size_t size;     /* bytes written so far */
    size_t capacity; /* bytes available in data */
    bool overflow;   /* a write did not fit */
} kiln_bytes;

/* Starts an empty writer over `capacity` bytes of storage (still owned by the caller). */
void kiln_bytes_init(kiln_bytes *w, void *storage, size_t capacity);
/* Zero-pads size up to a multiple of alignment (0 and 1 do nothing). */
void kiln_bytes_align(kiln_bytes *w, size_t alignment);
/* Zero-pads up to absolute offset; a no-op when size is already there or past it. */
void kiln_bytes_pad_to(kiln_bytes *w, size_t offset);
/* Rounds the size up to the struct's alignment (16 for any struct holding a vec3/vec4/mat4). */
void kiln_bytes_end_struct(kiln_bytes *w, size_t struct_alignment);

void kiln_bytes_f32(kiln_bytes *w, float v);         /* f32: align 4, size 4 */
void kiln_bytes_u32(kiln_bytes *w, uint32_t v);      /* u32: align 4, size 4 */
void kiln_bytes_i32(kiln_bytes *w, int32_t v);       /* i32: align 4, size 4 */
void kiln_bytes_vec2(kiln_bytes *w, kiln_vec2 v);    /* vec2<f32>: align 8, size 8 */
void kiln_bytes_vec3(kiln_bytes *w, kiln_vec3 v);    /* vec3<f32>: align 16, size 12 */
void kiln_bytes_vec4(kiln_bytes *w, kiln_vec4 v);    /* vec4<f32>: align 16, size 16 */
void kiln_bytes_mat4(kiln_bytes *w, kiln_mat4 m);    /* mat4x4<f32>: align 16, size 64, columns in order */
/* n bytes as they are, no alignment. */
void kiln_bytes_raw(kiln_bytes *w, const void *p, size_t n);
/* array<f32, n> in a uniform buffer: 16-byte aligned, each element in its own 16-byte slot. */
void kiln_bytes_std140_array_f32(kiln_bytes *w, const float *v, size_t n);

/* Byte-count assertion: false (message naming both sizes) when size != expected_size or a write
 * overflowed. */
bool kiln_bytes_expect(const kiln_bytes *w, size_t expected_size, kiln_error *err);

#endif
