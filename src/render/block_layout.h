/* The C side of a WGSL struct the renderer shares with its shaders, written once: each member's
 * name, byte offset and size. Packers write members through it (block_put), so they cannot drift
 * from it; renderer_check_layouts (uniforms.c) compares it with the struct kiln's WGSL reflector
 * reads from the shaders, member by member, whenever a program that shares it loads. The feature
 * that owns a block names the programs it shares it with (render_feature.blocks). */
#ifndef KILN_RENDER_BLOCK_LAYOUT_H
#define KILN_RENDER_BLOCK_LAYOUT_H

#include <stdint.h>
#include <string.h>

typedef struct block_member {
    const char *name;   /* the WGSL member's */
    uint32_t offset, size;
} block_member;

typedef struct block_layout {
    const char *name;   /* the WGSL struct's */
    uint32_t size;
    const block_member *members;
    uint32_t member_count;
    const char *source; /* the C file that defines it, which a mismatch message names */
} block_layout;

/* Copies the member's size of bytes from `value` to its offset in `out`. */
static inline void block_put(uint8_t *out, const block_layout *b, uint32_t member, const void *value) {
    memcpy(out + b->members[member].offset, value, b->members[member].size);
}

#endif
