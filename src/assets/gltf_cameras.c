/* Cameras and KHR_lights_punctual lights: the file's values, with light intensities converted to
 * kiln's units (kiln/assets/gltf.h says how). Nodes place them; their -Z is the view or light
 * direction. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

static bool load_camera(gltf_load *L, json_t *item, uint32_t i) {
    char path[64], sub[96];
    snprintf(path, sizeof path, "cameras[%u]", i);
    if (!json_is_object(item)) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is not an object", path);
    kiln_gltf_camera *c = &L->doc->cameras[i];
    if (!(c->name = gltf_name(L, item, path))) return false;
    const char *type;
    if (!gltf_string(L, item, path, "type", "", &type)) return false;
    bool perspective = strcmp(type, "perspective") == 0;
    if (!perspective && strcmp(type, "orthographic") != 0)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.type: \"%s\" is not perspective or orthographic", path, type);
    c->kind = perspective ? KILN_GLTF_CAMERA_PERSPECTIVE : KILN_GLTF_CAMERA_ORTHOGRAPHIC;
    bool ok;
    json_t *p = gltf_object(L, item, path, type, &ok);
    if (!ok) return false;
    snprintf(sub, sizeof sub, "%s.%s", path, type);
    if (!p) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is required", sub);
    if (perspective) {
        if (!json_object_get(p, "yfov") || !json_object_get(p, "znear"))
            return gltf_fail(L, KILN_ERR_FORMAT, "%s: needs yfov and znear", sub);
        if (!gltf_number(L, p, sub, "yfov", 0.0, &c->yfov) || !gltf_number(L, p, sub, "znear", 0.0, &c->znear) ||
            !gltf_number(L, p, sub, "zfar", 0.0, &c->zfar) ||
            !gltf_number(L, p, sub, "aspectRatio", 0.0, &c->aspect_ratio))
            return false;
        if (!(c->yfov > 0.0f && c->yfov < KILN_PI) || !(c->znear > 0.0f))
            return gltf_fail(L, KILN_ERR_FORMAT, "%s: yfov must be in (0, pi) and znear above 0", sub);
    } else {
        if (!json_object_get(p, "xmag") || !json_object_get(p, "ymag") || !json_object_get(p, "zfar") ||
            !json_object_get(p, "znear"))
            return gltf_fail(L, KILN_ERR_FORMAT, "%s: needs xmag, ymag, znear and zfar", sub);
        if (!gltf_number(L, p, sub, "xmag", 0.0, &c->xmag) || !gltf_number(L, p, sub, "ymag", 0.0, &c->ymag) ||
            !gltf_number(L, p, sub, "znear", 0.0, &c->znear) || !gltf_number(L, p, sub, "zfar", 0.0, &c->zfar))
            return false;
        if (c->xmag == 0.0f || c->ymag == 0.0f || !isfinite(c->xmag) || !isfinite(c->ymag))
            return gltf_fail(L, KILN_ERR_FORMAT, "%s: xmag and ymag must be finite and not zero", sub);
        if (!(c->znear >= 0.0f) || !(c->zfar > 0.0f))
            return gltf_fail(L, KILN_ERR_FORMAT, "%s: znear must be 0 or more and zfar above 0", sub);
    }
    if (c->zfar != 0.0f && !(c->zfar > c->znear))
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.zfar: %g is not beyond znear (%g)", sub, (double)c->zfar,
                         (double)c->znear);
    return true;
}

bool gltf_cameras_load(gltf_load *L) {
    bool ok;
    json_t *cameras = gltf_array(L, L->root, "", "cameras", &ok);
    if (!ok) return false;
    uint32_t n = cameras ? (uint32_t)json_array_size(cameras) : 0;
    L->doc->cameras = calloc(n + 1, sizeof *L->doc->cameras);
    if (!L->doc->cameras) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "cameras: out of memory");
    for (uint32_t i = 0; i < n; i++) {
        L->doc->camera_count = i + 1;
        if (!load_camera(L, json_array_get(cameras, i), i)) return false;
    }
    return true;
}

static bool load_light(gltf_load *L, json_t *item, uint32_t i) {
    char path[96];
    snprintf(path, sizeof path, "extensions.KHR_lights_punctual.lights[%u]", i);
    if (!json_is_object(item)) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is not an object", path);
    kiln_gltf_light *light = &L->doc->lights[i];
    if (!(light->name = gltf_name(L, item, path))) return false;
    const char *type;
    float candela_or_lux, range;
    light->color = (kiln_vec3){1, 1, 1};
    if (!gltf_string(L, item, path, "type", "", &type) || !gltf_numbers(L, item, path, "color", 3, &light->color.x) ||
        !gltf_number(L, item, path, "intensity", 1.0, &candela_or_lux) ||
        !gltf_number(L, item, path, "range", 0.0, &range))
        return false;
    if (strcmp(type, "directional") == 0) light->kind = KILN_GLTF_LIGHT_DIRECTIONAL;
    else if (strcmp(type, "point") == 0) light->kind = KILN_GLTF_LIGHT_POINT;
    else if (strcmp(type, "spot") == 0) light->kind = KILN_GLTF_LIGHT_SPOT;
    else return gltf_fail(L, KILN_ERR_FORMAT, "%s.type: \"%s\" is not directional, point or spot", path, type);
    if (candela_or_lux < 0.0f || range < 0.0f)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: intensity and range must not be negative", path);

    if (light->kind == KILN_GLTF_LIGHT_DIRECTIONAL) {
        light->intensity = candela_or_lux;
        return true;
    }
    light->intensity = candela_or_lux * 4.0f * KILN_PI;
    /* Without a range glTF lights reach forever; kiln culls by range, so take the distance where
     * candela / d^2 drops to the cutoff. */
    light->range = range > 0.0f ? range : sqrtf(candela_or_lux / KILN_GLTF_LIGHT_CUTOFF_LUX);
    if (light->kind == KILN_GLTF_LIGHT_SPOT) {
        light->inner_cone_angle = 0.0f;
        light->outer_cone_angle = KILN_PI / 4.0f;
        json_t *spot = json_object_get(item, "spot");
        char sub[128];
        snprintf(sub, sizeof sub, "%s.spot", path);
        if (spot && (!gltf_number(L, spot, sub, "innerConeAngle", 0.0, &light->inner_cone_angle) ||
                     !gltf_number(L, spot, sub, "outerConeAngle", KILN_PI / 4.0, &light->outer_cone_angle)))
            return false;
        if (!(light->inner_cone_angle >= 0.0f && light->inner_cone_angle < light->outer_cone_angle &&
              light->outer_cone_angle <= KILN_PI / 2.0f))
            return gltf_fail(L, KILN_ERR_FORMAT, "%s: needs 0 <= innerConeAngle < outerConeAngle <= pi/2", sub);
    }
    return true;
}

bool gltf_lights_load(gltf_load *L) {
    json_t *ext = json_object_get(json_object_get(L->root, "extensions"), "KHR_lights_punctual");
    bool ok;
    json_t *lights = ext ? gltf_array(L, ext, "extensions.KHR_lights_punctual", "lights", &ok) : NULL;
    if (ext && !ok) return false;
    uint32_t n = lights ? (uint32_t)json_array_size(lights) : 0;
    L->doc->lights = calloc(n + 1, sizeof *L->doc->lights);
    if (!L->doc->lights) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "lights: out of memory");
    for (uint32_t i = 0; i < n; i++) {
        L->doc->light_count = i + 1;
        if (!load_light(L, json_array_get(lights, i), i)) return false;
    }
    return true;
}
