/* The shading group: group 3 of every scene pass, assembled from what the features add.
 *
 * The view list owns one binding, the pass view slot (a dynamic offset per view); every other
 * row is a feature's (render_feature.bindings: the clusters', the shadows', the environment's,
 * the ambient occlusion's). The layout is built once from the rows of the feature list, in list
 * order; a frame's groups are filled by asking each feature for its entries, with the frame's
 * resources for the shading passes and with stand-ins for the depth passes, which may not sample
 * the maps they draw. Both go through one bind group cache keyed by the entries: a steady frame
 * creates nothing, and a buffer a feature replaced (a grown cluster list) only misses once. */
#include <stdio.h>
#include <string.h>

#include "features/features.h"

/* The view list's row: the view-projection of the view a pass draws from. */
static const render_binding PASS_VIEW_BINDING = {
    {.binding = 4, .visibility = WGPUShaderStage_Vertex, .kind = KILN_BINDING_UNIFORM_BUFFER, .dynamic_offset = true,
     .min_binding_size = KILN_PASS_VIEW_SIZE},
    "pass_view",
};

/* Groups a frame uses (the depth group and the shading group), and twice as many again to ride
 * out the frames a resize or a replaced buffer (a grown cluster list) hands out new ones: a group
 * binding a replaced buffer is never asked for again (its key names the old handle) and is
 * destroyed when evicted. */
#define SHADING_GROUP_CACHE 6

/* Every row, the view list's first: out must hold RENDER_SHADING_MAX_BINDINGS. On a clash or
 * overflow, false naming the features. */
static bool collect_rows(const render_binding **rows, const char **owners, uint32_t *count, kiln_error *err) {
    uint32_t n = 0;
    rows[n] = &PASS_VIEW_BINDING;
    owners[n++] = "views";
    for (uint32_t f = 0; f < render_feature_count; f++)
        for (uint32_t i = 0; i < render_features[f]->binding_count; i++) {
            const render_binding *b = &render_features[f]->bindings[i];
            if (!render_features[f]->bind)
                return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                      "renderer: feature '%s' adds shading group bindings but no bind to fill them",
                                      render_features[f]->name);
            if (n == RENDER_SHADING_MAX_BINDINGS)
                return kiln_error_set(err, KILN_ERR_CAPACITY,
                                      "renderer: the shading group holds at most %d bindings; feature '%s' adds more",
                                      RENDER_SHADING_MAX_BINDINGS, render_features[f]->name);
            for (uint32_t j = 0; j < n; j++)
                if (rows[j]->entry.binding == b->entry.binding)
                    return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                          "renderer: shading group binding %u is both %s's '%s' and %s's '%s'",
                                          b->entry.binding, owners[j], rows[j]->wgsl_name, render_features[f]->name,
                                          b->wgsl_name);
            rows[n] = b;
            owners[n++] = render_features[f]->name;
        }
    *count = n;
    return true;
}

bool renderer_shading_group_create(kiln_renderer *r, kiln_error *err) {
    const render_binding *rows[RENDER_SHADING_MAX_BINDINGS];
    const char *owners[RENDER_SHADING_MAX_BINDINGS];
    uint32_t count;
    if (!collect_rows(rows, owners, &count, err)) return false;
    kiln_layout_entry entries[RENDER_SHADING_MAX_BINDINGS];
    for (uint32_t i = 0; i < count; i++) entries[i] = rows[i]->entry;
    r->shading_layout = kiln_resources_create_bind_group_layout(r->res, "shading", entries, count, err);
    if (!r->shading_layout.id) return false;
    r->shading_groups = kiln_bind_group_cache_create(r->res, SHADING_GROUP_CACHE, err);
    return r->shading_groups != NULL;
}

void renderer_shading_group_destroy(kiln_renderer *r) {
    kiln_bind_group_cache_destroy(r->shading_groups);
    r->shading_groups = NULL;
}

void renderer_shading_group_reads(kiln_renderer *r, uint32_t pass) {
    for (uint32_t f = 0; f < render_feature_count; f++)
        if (render_features[f]->shading_reads) render_features[f]->shading_reads(r, r->feature_state[f], pass);
}

kiln_bind_group renderer_shading_group(kiln_renderer *r, kiln_fg_context *ctx, kiln_error *err) {
    kiln_binding_resource entries[RENDER_SHADING_MAX_BINDINGS];
    uint32_t n = 0;
    entries[n++] = (kiln_binding_resource){.binding = PASS_VIEW_BINDING.entry.binding, .buffer = r->views.pass_uniforms,
                                           .size = KILN_PASS_VIEW_SIZE};
    for (uint32_t f = 0; f < render_feature_count; f++) {
        const render_feature *feature = render_features[f];
        if (!feature->binding_count) continue;
        kiln_binding_resource *out = &entries[n];
        memset(out, 0, feature->binding_count * sizeof *out);
        if (!feature->bind(r, r->feature_state[f], ctx, out)) {
            if (err && !err->code)
                kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: feature '%s' has no view to bind this frame",
                               feature->name);
            return (kiln_bind_group){0};
        }
        for (uint32_t i = 0; i < feature->binding_count; i++) out[i].binding = feature->bindings[i].entry.binding;
        n += feature->binding_count;
    }
    return kiln_bind_group_cache_get(r->shading_groups, ctx ? "shading" : "depth shading", r->shading_layout, entries, n,
                                     err);
}

/* ---- the check against the WGSL --------------------------------------------------------------- */

/* What a var must be for a layout entry of `kind`: its address space, its handle type (textures
 * and samplers), its access (storage buffers and textures) and whether it samples floats. */
typedef struct var_shape {
    kiln_wgsl_address_space space;
    kiln_wgsl_handle handle;
    kiln_wgsl_access access;
    bool float_texels;
} var_shape;

static var_shape shape_of(kiln_binding_kind kind) {
    const kiln_wgsl_address_space h = KILN_WGSL_SPACE_HANDLE;
    switch (kind) {
    case KILN_BINDING_UNIFORM_BUFFER: return (var_shape){.space = KILN_WGSL_SPACE_UNIFORM};
    case KILN_BINDING_STORAGE_BUFFER:
        return (var_shape){.space = KILN_WGSL_SPACE_STORAGE, .access = KILN_WGSL_ACCESS_READ_WRITE};
    case KILN_BINDING_READ_ONLY_STORAGE_BUFFER:
        return (var_shape){.space = KILN_WGSL_SPACE_STORAGE, .access = KILN_WGSL_ACCESS_READ};
    case KILN_BINDING_TEXTURE_2D:
    case KILN_BINDING_UNFILTERABLE_TEXTURE_2D: return (var_shape){h, KILN_WGSL_TEXTURE_2D, 0, true};
    case KILN_BINDING_TEXTURE_CUBE: return (var_shape){h, KILN_WGSL_TEXTURE_CUBE, 0, true};
    case KILN_BINDING_TEXTURE_2D_ARRAY:
    case KILN_BINDING_UNFILTERABLE_TEXTURE_2D_ARRAY: return (var_shape){h, KILN_WGSL_TEXTURE_2D_ARRAY, 0, true};
    case KILN_BINDING_TEXTURE_3D:
    case KILN_BINDING_UNFILTERABLE_TEXTURE_3D: return (var_shape){h, KILN_WGSL_TEXTURE_3D, 0, true};
    case KILN_BINDING_DEPTH_TEXTURE_2D: return (var_shape){h, KILN_WGSL_TEXTURE_DEPTH_2D, 0, false};
    case KILN_BINDING_DEPTH_TEXTURE_2D_ARRAY: return (var_shape){h, KILN_WGSL_TEXTURE_DEPTH_2D_ARRAY, 0, false};
    case KILN_BINDING_MULTISAMPLED_DEPTH_TEXTURE_2D:
        return (var_shape){h, KILN_WGSL_TEXTURE_DEPTH_MULTISAMPLED_2D, 0, false};
    case KILN_BINDING_FILTERING_SAMPLER:
    case KILN_BINDING_NON_FILTERING_SAMPLER: return (var_shape){h, KILN_WGSL_SAMPLER, 0, false};
    case KILN_BINDING_COMPARISON_SAMPLER: return (var_shape){h, KILN_WGSL_SAMPLER_COMPARISON, 0, false};
    case KILN_BINDING_WRITE_ONLY_STORAGE_TEXTURE_2D:
        return (var_shape){h, KILN_WGSL_TEXTURE_STORAGE_2D, KILN_WGSL_ACCESS_WRITE, false};
    case KILN_BINDING_WRITE_ONLY_STORAGE_TEXTURE_2D_ARRAY:
        return (var_shape){h, KILN_WGSL_TEXTURE_STORAGE_2D_ARRAY, KILN_WGSL_ACCESS_WRITE, false};
    case KILN_BINDING_KIND_COUNT: break;
    }
    return (var_shape){0};
}

/* The WGSL spelling of a shape, for messages: "var<uniform>", "texture_cube<f32>", ... */
static void shape_text(var_shape s, char *out, size_t size) {
    if (s.space == KILN_WGSL_SPACE_UNIFORM) snprintf(out, size, "var<uniform>");
    else if (s.space == KILN_WGSL_SPACE_STORAGE)
        snprintf(out, size, "var<storage, %s>", s.access == KILN_WGSL_ACCESS_READ_WRITE ? "read_write" : "read");
    else snprintf(out, size, "%s%s", kiln_wgsl_handle_name(s.handle), s.float_texels ? "<f32>" : "");
}

/* What in a reflected var differs from what `kind` binds ("its type"), or NULL when nothing. */
static const char *mismatch(const kiln_wgsl_module *m, const kiln_wgsl_var *v, kiln_binding_kind kind) {
    var_shape want = shape_of(kind);
    const kiln_wgsl_type *t = v->type && v->type < m->type_count ? &m->types[v->type] : NULL;
    if (v->space != want.space) return "its address space";
    if (want.space == KILN_WGSL_SPACE_STORAGE) {
        kiln_wgsl_access access = v->access == KILN_WGSL_ACCESS_NONE ? KILN_WGSL_ACCESS_READ : v->access;
        return access == want.access ? NULL : "its access";
    }
    if (want.space != KILN_WGSL_SPACE_HANDLE) return NULL;
    if (!t || t->handle != want.handle) return "its type";
    if (want.access && t->access != want.access) return "its access";
    if (want.float_texels && t->scalar != KILN_WGSL_SCALAR_F32) return "its texel type";
    return NULL;
}

bool renderer_check_shading_bindings(const kiln_wgsl_module *m, const char *program, kiln_error *err) {
    const render_binding *rows[RENDER_SHADING_MAX_BINDINGS];
    const char *owners[RENDER_SHADING_MAX_BINDINGS];
    uint32_t count;
    if (!collect_rows(rows, owners, &count, err)) return false;
    for (uint32_t i = 0; i < m->var_count; i++) {
        const kiln_wgsl_var *v = &m->vars[i];
        if (v->group != 3) continue;
        uint32_t row = 0;
        while (row < count && (int32_t)rows[row]->entry.binding != v->binding) row++;
        if (row == count)
            return kiln_error_set(err, KILN_ERR_SHADER,
                                  "renderer: %s: '%s' at @group(3) @binding(%d) is no feature's binding", program,
                                  v->name, v->binding);
        const render_binding *b = rows[row];
        if (strcmp(v->name, b->wgsl_name))
            return kiln_error_set(err, KILN_ERR_SHADER,
                                  "renderer: %s: @group(3) @binding(%d) is '%s', but %s binds '%s' there", program,
                                  v->binding, v->name, owners[row], b->wgsl_name);
        const char *why = mismatch(m, v, b->entry.kind);
        if (why) {
            char want[64];
            shape_text(shape_of(b->entry.kind), want, sizeof want);
            return kiln_error_set(err, KILN_ERR_SHADER,
                                  "renderer: %s: '%s' at @group(3) @binding(%d) differs in %s from the %s %s binds there",
                                  program, v->name, v->binding, why, want, owners[row]);
        }
    }
    return true;
}
