/* The geometry registry: dense ids with the spec's slot reuse, the CPU copy of every mesh (the
 * source of truth), and its GPU mesh, uploaded at the sync point or on first GPU use. */
#include <kiln/geometry/registry.h>

#include <stdlib.h>
#include <string.h>

/* One live mesh, allocated on its own so the pointers the queries hand out stay put however the
 * id table grows. */
typedef struct geometry_entry {
    uint32_t id;
    char *label;
    kiln_mesh_data data;       /* the CPU copy; with levels of detail, its indices hold them all */
    bool build_lods;           /* added with levels of detail: replace builds them again */
    kiln_geometry_info info;
    kiln_gpu_mesh gpu;         /* zeroed until uploaded */
} geometry_entry;

struct kiln_geometry_registry {
    kiln_resources *res;
    /* entries[id - 1]; NULL once removed, until an add takes the id again. */
    geometry_entry **entries;
    uint32_t count;            /* ids handed out so far; the next new id is count + 1 */
    uint32_t capacity;
    uint32_t removed_count;    /* NULL slots below count, so add knows whether to look for one */
    uint32_t pending_count;    /* live entries not on the GPU, so an idle sync does not scan */
    kiln_geometry_registry_stats stats;
};

kiln_geometry_registry *kiln_geometry_registry_create(kiln_resources *res, kiln_error *err) {
    if (!res) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "geometry registry: resources is NULL");
        return NULL;
    }
    kiln_geometry_registry *reg = calloc(1, sizeof *reg);
    if (!reg) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "geometry registry: out of memory");
        return NULL;
    }
    reg->res = res;
    return reg;
}

static bool on_gpu(const geometry_entry *e) { return e->gpu.vertices.id != 0; }

static void entry_free(kiln_geometry_registry *reg, geometry_entry *e) {
    if (on_gpu(e)) {
        kiln_gpu_mesh_destroy(&e->gpu, reg->res);
        reg->stats.gpu_meshes--;
    } else {
        reg->pending_count--;
    }
    kiln_mesh_data_free(&e->data);
    free(e->label);
    free(e);
}

void kiln_geometry_registry_destroy(kiln_geometry_registry *reg) {
    if (!reg) return;
    for (uint32_t i = 0; i < reg->count; i++)
        if (reg->entries[i]) entry_free(reg, reg->entries[i]);
    free(reg->entries);
    free(reg);
}

static geometry_entry *lookup(const kiln_geometry_registry *reg, uint32_t id, kiln_error *err) {
    geometry_entry *e = id >= 1 && id <= reg->count ? reg->entries[id - 1] : NULL;
    if (!e) kiln_error_set(err, KILN_ERR_INVALID_HANDLE, "unknown geometry id %u", id);
    return e;
}

static kiln_geometry_info info_of(const kiln_mesh_data *md, const char *label, const kiln_mesh_lod *lods,
                                  uint32_t lod_count) {
    kiln_geometry_info info = {
        .label = label,
        .vertex_count = md->vertex_count,
        .index_count = lods[0].index_count,
        .morph_target_count = md->morph_target_count,
        .skinned = kiln_mesh_data_has_skin(md),
        .joint_count = kiln_mesh_data_joint_count(md),
        .bounds = kiln_mesh_data_bounds(md),
        .lod_count = lod_count,
    };
    memcpy(info.lods, lods, lod_count * sizeof *lods);
    return info;
}

/* Copies `data` into `copy` and, with `build_lods`, builds its levels into the copy; otherwise
 * one level spans the indices. Fails (copy zeroed) as the copy or the build does. */
static bool take_copy(kiln_mesh_data *copy, const kiln_mesh_data *data, bool build_lods,
                      kiln_mesh_lod lods[KILN_MESH_MAX_LODS], uint32_t *lod_count, kiln_error *err) {
    if (!kiln_mesh_data_copy(copy, data, err)) return false;
    memset(lods, 0, KILN_MESH_MAX_LODS * sizeof *lods);
    lods[0] = (kiln_mesh_lod){.first_index = 0, .index_count = copy->index_count};
    *lod_count = build_lods ? kiln_mesh_data_build_lods(copy, lods, err) : 1;
    if (*lod_count) return true;
    kiln_mesh_data_free(copy);
    return false;
}

/* Prefixes err's message with the mesh it is about: "geometry '<label>'" or "geometry N '<label>'". */
static bool name_failure(kiln_error *err, uint32_t id, const char *label) {
    if (!err) return false;
    char cause[sizeof err->message];
    memcpy(cause, err->message, sizeof cause);
    if (id) return kiln_error_set(err, err->code, "geometry %u '%s': %s", id, label, cause);
    return kiln_error_set(err, err->code, "geometry '%s': %s", label, cause);
}

/* The id the next add takes: the lowest removed one (the spec reuses a removed mesh's slot), else
 * a new one, growing the table by doubling. 0 with the reason when neither is possible. */
static uint32_t free_id(kiln_geometry_registry *reg, kiln_error *err) {
    if (reg->removed_count)
        for (uint32_t i = 0; i < reg->count; i++)
            if (!reg->entries[i]) return i + 1;
    if (reg->count == UINT32_MAX) {
        kiln_error_set(err, KILN_ERR_CAPACITY, "the id sequence is exhausted");
        return 0;
    }
    if (reg->count == reg->capacity) {
        geometry_entry **grown = kiln_array_reserve(reg->entries, &reg->capacity, reg->count + 1, sizeof *grown);
        if (!grown) {
            kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory for the id table");
            return 0;
        }
        reg->entries = grown;
    }
    return reg->count + 1;
}

static uint32_t add_entry(kiln_geometry_registry *reg, const char *label, const kiln_mesh_data *data, bool build_lods,
                          kiln_error *err) {
    const char *name = label && *label ? label : "mesh";
    geometry_entry *e = calloc(1, sizeof *e);
    char *copied = malloc(strlen(name) + 1);
    uint32_t id = 0, lod_count = 0;
    kiln_mesh_lod lods[KILN_MESH_MAX_LODS];
    bool ok = e && copied;
    if (!ok) kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory");
    ok = ok && take_copy(&e->data, data, build_lods, lods, &lod_count, err) && (id = free_id(reg, err)) != 0;
    if (!ok) {
        if (e) kiln_mesh_data_free(&e->data);
        free(e);
        free(copied);
        name_failure(err, 0, name);
        return 0;
    }
    /* Only now, with nothing left that can fail, is the id taken. */
    strcpy(copied, name);
    e->id = id;
    e->label = copied;
    e->build_lods = build_lods;
    e->info = info_of(&e->data, copied, lods, lod_count);
    if (id > reg->count) {
        reg->count = id;
    } else {
        reg->removed_count--;
    }
    reg->entries[id - 1] = e;
    reg->pending_count++;
    return id;
}

uint32_t kiln_geometry_registry_add(kiln_geometry_registry *reg, const char *label, const kiln_mesh_data *data, kiln_error *err) {
    return add_entry(reg, label, data, false, err);
}

uint32_t kiln_geometry_registry_add_lods(kiln_geometry_registry *reg, const char *label, const kiln_mesh_data *data,
                                         kiln_error *err) {
    return add_entry(reg, label, data, true, err);
}

/* Replace with levels of detail or without; a success makes that the id's setting. */
static bool replace_entry(kiln_geometry_registry *reg, uint32_t id, const kiln_mesh_data *data, bool build_lods,
                          kiln_error *err) {
    geometry_entry *e = lookup(reg, id, err);
    if (!e) return false;
    kiln_mesh_data copy;
    kiln_mesh_lod lods[KILN_MESH_MAX_LODS];
    uint32_t lod_count;
    kiln_gpu_mesh gpu = {0};
    if (!take_copy(&copy, data, build_lods, lods, &lod_count, err)) return name_failure(err, id, e->label);
    /* A mesh already on the GPU gets its new version there before the old one goes, so a failed
     * upload leaves both copies as they were. */
    if (on_gpu(e)) {
        if (!kiln_gpu_mesh_upload_lods(reg->res, &copy, lods, lod_count, e->label, &gpu, err)) {
            kiln_mesh_data_free(&copy);
            return name_failure(err, id, e->label);
        }
        kiln_gpu_mesh_destroy(&e->gpu, reg->res);
        e->gpu = gpu;
        reg->stats.uploads++;
    }
    kiln_mesh_data_free(&e->data);
    e->data = copy;
    e->build_lods = build_lods;
    e->info = info_of(&e->data, e->label, lods, lod_count);
    return true;
}

bool kiln_geometry_registry_replace(kiln_geometry_registry *reg, uint32_t id, const kiln_mesh_data *data, kiln_error *err) {
    geometry_entry *e = lookup(reg, id, err);
    return e && replace_entry(reg, id, data, e->build_lods, err);
}

bool kiln_geometry_registry_replace_lods(kiln_geometry_registry *reg, uint32_t id, const kiln_mesh_data *data, bool lods,
                                         kiln_error *err) {
    return replace_entry(reg, id, data, lods, err);
}

bool kiln_geometry_registry_remove(kiln_geometry_registry *reg, uint32_t id, kiln_error *err) {
    geometry_entry *e = lookup(reg, id, err);
    if (!e) return false;
    reg->entries[id - 1] = NULL;
    reg->removed_count++;
    entry_free(reg, e);
    return true;
}

const kiln_geometry_info *kiln_geometry_registry_info(const kiln_geometry_registry *reg, uint32_t id) {
    geometry_entry *e = lookup(reg, id, NULL);
    return e ? &e->info : NULL;
}

const kiln_mesh_bounds *kiln_geometry_registry_bounds(const kiln_geometry_registry *reg, uint32_t id) {
    geometry_entry *e = lookup(reg, id, NULL);
    return e ? &e->info.bounds : NULL;
}

const kiln_mesh_data *kiln_geometry_registry_data(const kiln_geometry_registry *reg, uint32_t id) {
    geometry_entry *e = lookup(reg, id, NULL);
    return e ? &e->data : NULL;
}

uint32_t kiln_geometry_registry_count(const kiln_geometry_registry *reg) { return reg->count; }

static bool upload(kiln_geometry_registry *reg, geometry_entry *e, kiln_error *err) {
    if (!kiln_gpu_mesh_upload_lods(reg->res, &e->data, e->info.lods, e->info.lod_count, e->label, &e->gpu, err))
        return false;
    reg->pending_count--;
    reg->stats.uploads++;
    reg->stats.gpu_meshes++;
    return true;
}

const kiln_gpu_mesh *kiln_geometry_registry_gpu_mesh(kiln_geometry_registry *reg, uint32_t id, kiln_error *err) {
    geometry_entry *e = lookup(reg, id, err);
    if (!e || (!on_gpu(e) && !upload(reg, e, err))) return NULL;
    return &e->gpu;
}

/* One pass over the ids only while something is pending: a steady frame costs one comparison. A
 * failure stops the pass; what is still pending is retried at the next sync. */
bool kiln_geometry_registry_sync(kiln_geometry_registry *reg, kiln_error *err) {
    for (uint32_t i = 0; reg->pending_count && i < reg->count; i++) {
        geometry_entry *e = reg->entries[i];
        kiln_error cause = {0};
        if (e && !on_gpu(e) && !upload(reg, e, &cause))
            return kiln_error_set(err, cause.code, "geometry registry sync: geometry %u '%s': %s", e->id, e->label,
                                  cause.message);
    }
    return true;
}

kiln_geometry_registry_stats kiln_geometry_registry_get_stats(const kiln_geometry_registry *reg) { return reg->stats; }

void kiln_geometry_registry_move_to(kiln_geometry_registry *reg, kiln_resources *res) {
    for (uint32_t i = 0; i < reg->count; i++) {
        geometry_entry *e = reg->entries[i];
        if (!e || !on_gpu(e)) continue;
        kiln_gpu_mesh_destroy(&e->gpu, reg->res);
        e->gpu = (kiln_gpu_mesh){0};
        reg->stats.gpu_meshes--;
        reg->pending_count++;
    }
    reg->res = res;
}

kiln_resources *kiln_geometry_registry_resources(const kiln_geometry_registry *reg) { return reg->res; }
