/* The checks an upload of a material would make, before anything is created, so a refused
 * material changes nothing: every slot names a plain, filterable texture of the registry and
 * every sampler field is in range. */
#include <kiln/render.h>

#include "abi.h"

static const char *const slot_names[KILN_TEX_COUNT] = {"base colour", "metallic-roughness", "normal", "occlusion",
                                                        "emissive"};

static bool validate_slot(const kiln_material *m, const kiln_texture_registry *registry, int i, kiln_error *err) {
    uint32_t id = m->textures[i];
    if (!id) return true;
    const char *label = m->label ? m->label : "";
    const kiln_texture_info *info = registry ? kiln_texture_registry_info(registry, id) : NULL;
    if (!info || info->kind != KILN_TEXTURE_PLAIN)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "material '%s': %s slot names unknown texture id %u", label,
                              slot_names[i], id);
    if (!kiln_texture_format_filterable(info->format))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "material '%s': %s slot names texture %u, an %s texture a material cannot filter", label,
                              slot_names[i], id, kiln_texture_format_name(info->format));
    return true;
}

/* One row per sampler field, so each range check and its message are stated once. */
static bool validate_sampler(const kiln_material *m, kiln_error *err) {
    const kiln_sampler_state *s = &m->sampler;
    const struct { const char *name; unsigned value, count; } fields[] = {
        {"wrap_u", (unsigned)s->wrap_u, KILN_SAMPLER_WRAP_COUNT},         {"wrap_v", (unsigned)s->wrap_v, KILN_SAMPLER_WRAP_COUNT},
        {"mag_filter", (unsigned)s->mag_filter, KILN_SAMPLER_FILTER_COUNT}, {"min_filter", (unsigned)s->min_filter, KILN_SAMPLER_FILTER_COUNT},
        {"mip_filter", (unsigned)s->mip_filter, KILN_SAMPLER_FILTER_COUNT},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (fields[i].value >= fields[i].count)
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "material '%s': sampler %s %u is out of range (0..%u)",
                                  m->label ? m->label : "", fields[i].name, fields[i].value, fields[i].count - 1);
    return true;
}

bool kiln_material_validate_sized(const kiln_material *caller, const kiln_texture_registry *registry, kiln_render_abi abi,
                                  kiln_error *err) {
    if (!caller) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "material is NULL");
    if (!renderer_abi_check_material(abi, err)) return false;
    kiln_material material;
    kiln_struct_read(&material, sizeof material, caller, abi.material);
    const kiln_material *m = &material;
    for (int i = 0; i < KILN_TEX_COUNT; i++)
        if (!validate_slot(m, registry, i, err)) return false;
    return validate_sampler(m, err);
}

