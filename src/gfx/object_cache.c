/* The object cache (gfx.h): bind group layouts, pipeline layouts and render pipelines shared by
 * the full content of their descriptors, with a reference count per object.
 *
 * A descriptor is written into a canonical key, field by field (a caller's structs may carry
 * anything in their padding and labels are not part of what an object is), and looked up by the
 * key's hash in one table; a second table finds an entry by its kind and handle id, so a release
 * costs no search. Entries live in one array whose free entries are chained for reuse; both
 * tables are rebuilt when that array grows, which only a new object does. */
#include <stdlib.h>
#include <string.h>

#include <kiln/gfx.h>

typedef enum cache_kind { KIND_BIND_GROUP_LAYOUT, KIND_PIPELINE_LAYOUT, KIND_RENDER_PIPELINE } cache_kind;

#define NO_ENTRY UINT32_MAX

typedef struct cache_entry {
    uint8_t *key;                  /* NULL: a free entry */
    uint32_t key_size;
    uint32_t hash;
    cache_kind kind;
    uint32_t id;                   /* the handle's id */
    uint32_t refs;
    uint32_t next_by_key, next_by_id; /* chains of the two tables; next free entry when free */
} cache_entry;

struct kiln_object_cache {
    kiln_resources *res;
    cache_entry *entries;
    uint32_t entry_count, entry_capacity; /* entries in use or freed; slots allocated */
    uint32_t free_head;
    uint32_t live[3];              /* objects held, per kind */
    uint32_t *by_key, *by_id;      /* bucket heads, bucket_count each */
    uint32_t bucket_count;         /* a power of two, at least entry_capacity */
};

/* ---- keys ---------------------------------------------------------------------------------------- */

/* A key under construction: a fixed buffer is enough for the largest descriptor (a render
 * pipeline of every vertex buffer and target, and two entry names of KILN_WGSL_NAME_MAX-sized
 * strings); an overlong field makes the key invalid rather than silently truncated. */
typedef struct key_writer {
    uint8_t bytes[2048];
    uint32_t size;
    bool overflow;
} key_writer;

static void put(key_writer *w, const void *data, uint32_t size) {
    if (w->size + size > sizeof w->bytes) {
        w->overflow = true;
        return;
    }
    memcpy(w->bytes + w->size, data, size);
    w->size += size;
}

static void put_u32(key_writer *w, uint32_t v) { put(w, &v, sizeof v); }
static void put_u64(key_writer *w, uint64_t v) { put(w, &v, sizeof v); }
static void put_f32(key_writer *w, float v) { put(w, &v, sizeof v); }

/* Length-prefixed, so "ab" + "c" and "a" + "bc" differ. */
static void put_str(key_writer *w, const char *s) {
    uint32_t n = (uint32_t)strlen(s);
    put_u32(w, n);
    put(w, s, n);
}

static uint32_t hash_bytes(const uint8_t *b, uint32_t n) {
    uint32_t h = 2166136261u; /* FNV-1a */
    for (uint32_t i = 0; i < n; i++) h = (h ^ b[i]) * 16777619u;
    return h;
}

static uint32_t hash_id(cache_kind kind, uint32_t id) {
    uint32_t h = id * 2654435761u;
    return h ^ ((uint32_t)kind * 40503u);
}

/* ---- the tables --------------------------------------------------------------------------------- */

static void link(kiln_object_cache *c, uint32_t e) {
    cache_entry *entry = &c->entries[e];
    uint32_t mask = c->bucket_count - 1;
    uint32_t k = entry->hash & mask, i = hash_id(entry->kind, entry->id) & mask;
    entry->next_by_key = c->by_key[k];
    c->by_key[k] = e;
    entry->next_by_id = c->by_id[i];
    c->by_id[i] = e;
}

static void unlink_chain(kiln_object_cache *c, uint32_t *head, uint32_t e, bool by_key) {
    for (uint32_t *at = head; *at != NO_ENTRY;
         at = by_key ? &c->entries[*at].next_by_key : &c->entries[*at].next_by_id)
        if (*at == e) {
            *at = by_key ? c->entries[e].next_by_key : c->entries[e].next_by_id;
            return;
        }
}

static bool rebuild_tables(kiln_object_cache *c, uint32_t buckets) {
    uint32_t *by_key = malloc((size_t)buckets * sizeof *by_key);
    uint32_t *by_id = malloc((size_t)buckets * sizeof *by_id);
    if (!by_key || !by_id) {
        free(by_key);
        free(by_id);
        return false;
    }
    for (uint32_t b = 0; b < buckets; b++) by_key[b] = by_id[b] = NO_ENTRY;
    free(c->by_key);
    free(c->by_id);
    c->by_key = by_key;
    c->by_id = by_id;
    c->bucket_count = buckets;
    for (uint32_t e = 0; e < c->entry_count; e++)
        if (c->entries[e].key) link(c, e);
    return true;
}

/* A free entry, growing the array (and the tables with it) when none is. */
static uint32_t take_entry(kiln_object_cache *c) {
    if (c->free_head != NO_ENTRY) {
        uint32_t e = c->free_head;
        c->free_head = c->entries[e].next_by_key;
        return e;
    }
    if (c->entry_count == c->entry_capacity) {
        uint32_t capacity = c->entry_capacity ? 2 * c->entry_capacity : 64;
        cache_entry *grown = realloc(c->entries, (size_t)capacity * sizeof *grown);
        if (!grown) return NO_ENTRY;
        c->entries = grown;
        c->entry_capacity = capacity;
        if (capacity > c->bucket_count && !rebuild_tables(c, capacity)) return NO_ENTRY;
    }
    c->entries[c->entry_count] = (cache_entry){0};
    return c->entry_count++;
}

static uint32_t find_by_key(const kiln_object_cache *c, const key_writer *w, uint32_t hash) {
    if (!c->bucket_count) return NO_ENTRY;
    for (uint32_t e = c->by_key[hash & (c->bucket_count - 1)]; e != NO_ENTRY; e = c->entries[e].next_by_key) {
        const cache_entry *entry = &c->entries[e];
        if (entry->hash == hash && entry->key_size == w->size && !memcmp(entry->key, w->bytes, w->size)) return e;
    }
    return NO_ENTRY;
}

static uint32_t find_by_id(const kiln_object_cache *c, cache_kind kind, uint32_t id) {
    if (!c->bucket_count || !id) return NO_ENTRY;
    for (uint32_t e = c->by_id[hash_id(kind, id) & (c->bucket_count - 1)]; e != NO_ENTRY; e = c->entries[e].next_by_id)
        if (c->entries[e].kind == kind && c->entries[e].id == id) return e;
    return NO_ENTRY;
}

/* Records a new object under the key; false (the caller destroys the object) without memory. */
static bool insert(kiln_object_cache *c, const key_writer *w, uint32_t hash, cache_kind kind, uint32_t id) {
    uint8_t *key = malloc(w->size);
    uint32_t e = key ? take_entry(c) : NO_ENTRY;
    if (e == NO_ENTRY) {
        free(key);
        return false;
    }
    memcpy(key, w->bytes, w->size);
    c->entries[e] = (cache_entry){.key = key, .key_size = w->size, .hash = hash, .kind = kind, .id = id, .refs = 1};
    link(c, e);
    c->live[kind]++;
    return true;
}

static void destroy_object(kiln_object_cache *c, cache_kind kind, uint32_t id) {
    switch (kind) {
    case KIND_BIND_GROUP_LAYOUT:
        kiln_resources_destroy_bind_group_layout(c->res, (kiln_bind_group_layout){id}, NULL);
        break;
    case KIND_PIPELINE_LAYOUT: kiln_resources_destroy_pipeline_layout(c->res, (kiln_pipeline_layout){id}, NULL); break;
    case KIND_RENDER_PIPELINE: kiln_resources_destroy_render_pipeline(c->res, (kiln_render_pipeline){id}, NULL); break;
    }
}

static void release(kiln_object_cache *c, cache_kind kind, uint32_t id) {
    if (!c) return;
    uint32_t e = find_by_id(c, kind, id);
    if (e == NO_ENTRY) return;
    cache_entry *entry = &c->entries[e];
    if (--entry->refs) return;
    uint32_t mask = c->bucket_count - 1;
    unlink_chain(c, &c->by_key[entry->hash & mask], e, true);
    unlink_chain(c, &c->by_id[hash_id(kind, id) & mask], e, false);
    destroy_object(c, kind, id);
    free(entry->key);
    *entry = (cache_entry){.next_by_key = c->free_head};
    c->free_head = e;
    c->live[kind]--;
}

/* The object for a key: the held one with one more reference, or none (id 0). */
static uint32_t acquire(kiln_object_cache *c, const key_writer *w, uint32_t *hash) {
    *hash = hash_bytes(w->bytes, w->size);
    uint32_t e = find_by_key(c, w, *hash);
    if (e == NO_ENTRY) return 0;
    c->entries[e].refs++;
    return c->entries[e].id;
}

/* ---- the API -------------------------------------------------------------------------------------- */

kiln_object_cache *kiln_object_cache_create(kiln_resources *res, kiln_error *err) {
    kiln_object_cache *c = res ? calloc(1, sizeof *c) : NULL;
    if (!c) {
        kiln_error_set(err, res ? KILN_ERR_OUT_OF_MEMORY : KILN_ERR_INVALID_ARGUMENT,
                       res ? "object cache: out of memory" : "object cache: needs resources");
        return NULL;
    }
    c->res = res;
    c->free_head = NO_ENTRY;
    return c;
}

void kiln_object_cache_destroy(kiln_object_cache *c) {
    if (!c) return;
    /* Pipelines before the layouts they were made with, and those before their group layouts. */
    for (int kind = KIND_RENDER_PIPELINE; kind >= KIND_BIND_GROUP_LAYOUT; kind--)
        for (uint32_t e = 0; e < c->entry_count; e++)
            if (c->entries[e].key && c->entries[e].kind == (cache_kind)kind) {
                destroy_object(c, (cache_kind)kind, c->entries[e].id);
                free(c->entries[e].key);
            }
    free(c->entries);
    free(c->by_key);
    free(c->by_id);
    free(c);
}

static bool too_long(const key_writer *w, kiln_error *err) {
    if (!w->overflow) return false;
    kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "object cache: the descriptor is past the %zu-byte key",
                   sizeof w->bytes);
    return true;
}

kiln_bind_group_layout kiln_object_cache_bind_group_layout(kiln_object_cache *c, const char *label,
                                                           const kiln_layout_entry *entries, uint32_t count,
                                                           kiln_error *err) {
    key_writer w = {.size = 0};
    put_u32(&w, KIND_BIND_GROUP_LAYOUT);
    put_u32(&w, count);
    for (uint32_t i = 0; i < count; i++) {
        put_u32(&w, entries[i].binding);
        put_u64(&w, (uint64_t)entries[i].visibility);
        put_u32(&w, (uint32_t)entries[i].kind);
        put_u32(&w, entries[i].dynamic_offset);
        put_u64(&w, entries[i].min_binding_size);
        put_u32(&w, (uint32_t)entries[i].storage_format);
    }
    if (too_long(&w, err)) return (kiln_bind_group_layout){0};
    uint32_t hash, id = acquire(c, &w, &hash);
    if (id) return (kiln_bind_group_layout){id};
    kiln_bind_group_layout made = kiln_resources_create_bind_group_layout(c->res, label, entries, count, err);
    if (made.id && !insert(c, &w, hash, KIND_BIND_GROUP_LAYOUT, made.id)) {
        kiln_resources_destroy_bind_group_layout(c->res, made, NULL);
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "object cache: out of memory");
        return (kiln_bind_group_layout){0};
    }
    return made;
}

kiln_pipeline_layout kiln_object_cache_pipeline_layout(kiln_object_cache *c, const char *label,
                                                       const kiln_bind_group_layout *layouts, uint32_t count,
                                                       kiln_error *err) {
    key_writer w = {.size = 0};
    put_u32(&w, KIND_PIPELINE_LAYOUT);
    put_u32(&w, count);
    for (uint32_t i = 0; i < count; i++) put_u32(&w, layouts[i].id);
    if (too_long(&w, err)) return (kiln_pipeline_layout){0};
    uint32_t hash, id = acquire(c, &w, &hash);
    if (id) return (kiln_pipeline_layout){id};
    kiln_pipeline_layout made = kiln_resources_create_pipeline_layout(c->res, label, layouts, count, err);
    if (made.id && !insert(c, &w, hash, KIND_PIPELINE_LAYOUT, made.id)) {
        kiln_resources_destroy_pipeline_layout(c->res, made, NULL);
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "object cache: out of memory");
        return (kiln_pipeline_layout){0};
    }
    return made;
}

/* Every field that changes the pipeline, with gfx's defaults filled in, so a NULL entry and
 * "vs_main" are one key. */
static void render_pipeline_key(key_writer *w, const kiln_render_pipeline_desc *d) {
    put_u32(w, KIND_RENDER_PIPELINE);
    put_u32(w, d->layout.id);
    put_u32(w, d->shader.id);
    put_u32(w, d->fragment_shader.id ? d->fragment_shader.id : d->shader.id);
    put_str(w, d->vertex_entry ? d->vertex_entry : "vs_main");
    put_u32(w, d->no_fragment);
    put_str(w, d->no_fragment ? "" : d->fragment_entry ? d->fragment_entry : "fs_main");
    put_u32(w, d->vertex_buffer_count);
    for (uint32_t b = 0; b < d->vertex_buffer_count && b < KILN_MAX_VERTEX_BUFFERS; b++) {
        const kiln_vertex_layout *v = &d->vertex_buffers[b];
        put_u32(w, v->stride);
        put_u32(w, v->per_instance);
        put_u32(w, v->attribute_count);
        for (uint32_t a = 0; a < v->attribute_count && a < KILN_MAX_VERTEX_ATTRIBUTES; a++) {
            put_u32(w, (uint32_t)v->attributes[a].format);
            put_u32(w, v->attributes[a].offset);
            put_u32(w, v->attributes[a].location);
        }
    }
    put_u32(w, d->target_count);
    for (uint32_t t = 0; t < d->target_count && t < KILN_MAX_COLOR_ATTACHMENTS; t++) {
        put_u32(w, (uint32_t)d->targets[t].format);
        put_u32(w, (uint32_t)d->targets[t].blend);
        put_u64(w, d->targets[t].write_mask ? (uint64_t)d->targets[t].write_mask : (uint64_t)WGPUColorWriteMask_All);
    }
    put_u32(w, (uint32_t)d->depth.format);
    put_u32(w, d->depth.write);
    put_u32(w, (uint32_t)d->depth.compare);
    put_u32(w, (uint32_t)d->depth.bias);
    put_f32(w, d->depth.bias_slope_scale);
    put_f32(w, d->depth.bias_clamp);
    put_u32(w, d->topology ? (uint32_t)d->topology : (uint32_t)WGPUPrimitiveTopology_TriangleList);
    put_u32(w, d->cull ? (uint32_t)d->cull : (uint32_t)WGPUCullMode_None);
    put_u32(w, d->front_face ? (uint32_t)d->front_face : (uint32_t)WGPUFrontFace_CCW);
    put_u32(w, d->sample_count ? d->sample_count : 1);
}

kiln_render_pipeline kiln_object_cache_render_pipeline(kiln_object_cache *c, const kiln_render_pipeline_desc *desc,
                                                       kiln_error *err) {
    key_writer w = {.size = 0};
    render_pipeline_key(&w, desc);
    if (too_long(&w, err)) return (kiln_render_pipeline){0};
    uint32_t hash, id = acquire(c, &w, &hash);
    if (id) return (kiln_render_pipeline){id};
    kiln_render_pipeline made = kiln_resources_create_render_pipeline(c->res, desc, err);
    if (made.id && !insert(c, &w, hash, KIND_RENDER_PIPELINE, made.id)) {
        kiln_resources_destroy_render_pipeline(c->res, made, NULL);
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "object cache: out of memory");
        return (kiln_render_pipeline){0};
    }
    return made;
}

void kiln_object_cache_release_bind_group_layout(kiln_object_cache *c, kiln_bind_group_layout layout) {
    release(c, KIND_BIND_GROUP_LAYOUT, layout.id);
}

void kiln_object_cache_release_pipeline_layout(kiln_object_cache *c, kiln_pipeline_layout layout) {
    release(c, KIND_PIPELINE_LAYOUT, layout.id);
}

void kiln_object_cache_release_render_pipeline(kiln_object_cache *c, kiln_render_pipeline pipeline) {
    release(c, KIND_RENDER_PIPELINE, pipeline.id);
}

kiln_object_cache_stats kiln_object_cache_counts(const kiln_object_cache *c) {
    if (!c) return (kiln_object_cache_stats){0};
    return (kiln_object_cache_stats){.bind_group_layouts = c->live[KIND_BIND_GROUP_LAYOUT],
                                     .pipeline_layouts = c->live[KIND_PIPELINE_LAYOUT],
                                     .render_pipelines = c->live[KIND_RENDER_PIPELINE]};
}
