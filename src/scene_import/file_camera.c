/* A glTF file's camera placed in the world (kiln_import_file_camera): what kiln_gltf_import uses
 * with use_camera, and what a viewer stepping through the file's cameras shows. */
#include <math.h>

#include <kiln/import.h>

bool kiln_import_file_camera(const kiln_gltf *doc, uint32_t index, kiln_camera *out, kiln_error *err) {
    if (index >= doc->camera_count)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "cameras[%u]: out of range (%u camera%s)", index,
                              doc->camera_count, doc->camera_count == 1 ? "" : "s");
    const kiln_gltf_camera *cam = &doc->cameras[index];
    for (uint32_t i = 0; i < doc->node_count; i++) {
        const kiln_gltf_node *node = &doc->nodes[i];
        if (!node->in_scene || node->camera != (int32_t)index) continue;
        kiln_vec3 eye = kiln_mat4_transform_point(node->world, (kiln_vec3){0, 0, 0});
        kiln_vec3 forward = kiln_mat4_transform_direction(node->world, (kiln_vec3){0, 0, -1});
        kiln_vec3 up = kiln_mat4_transform_direction(node->world, (kiln_vec3){0, 1, 0});
        kiln_vec3 target = kiln_vec3_add(eye, forward);
        /* An orthographic camera keeps ymag; render sets the aspect, and so the half width, from
         * the target, as it does for perspective (glTF leaves a mismatching xmag to the viewer). */
        if (cam->kind == KILN_GLTF_CAMERA_ORTHOGRAPHIC)
            *out = kiln_camera_orthographic_look_at(eye, target, up, fabsf(cam->ymag), fabsf(cam->xmag / cam->ymag),
                                                    cam->znear, cam->zfar);
        else
            *out = kiln_camera_look_at(eye, target, up, cam->yfov, cam->aspect_ratio > 0 ? cam->aspect_ratio : 1.0f,
                                       cam->znear);
        return true;
    }
    return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "cameras[%u]: no node of the loaded scene places it", index);
}
