// Cook-Torrance specular (GGX distribution, height-correlated Smith visibility, Schlick Fresnel)
// plus Lambert diffuse: the BRDF every scene light goes through.

fn d_ggx(n_dot_h: f32, alpha: f32) -> f32 {
    let a2 = alpha * alpha;
    let d = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    return a2 / max(PI * d * d, 1e-7);
}

fn v_smith_ggx_correlated(n_dot_v: f32, n_dot_l: f32, alpha: f32) -> f32 {
    let a2 = alpha * alpha;
    let gv = n_dot_l * sqrt(n_dot_v * n_dot_v * (1.0 - a2) + a2);
    let gl = n_dot_v * sqrt(n_dot_l * n_dot_l * (1.0 - a2) + a2);
    return 0.5 / max(gv + gl, 1e-7);
}

fn f_schlick(f0: vec3<f32>, v_dot_h: f32) -> vec3<f32> {
    let f = pow(1.0 - clamp(v_dot_h, 0.0, 1.0), 5.0);
    return f0 + (vec3<f32>(1.0) - f0) * f;
}

struct Surface {
    albedo: vec3<f32>,
    metallic: f32,
    roughness: f32,       // perceptual; alpha = roughness^2
    normal: vec3<f32>,
    view: vec3<f32>,      // from the surface towards the eye
};

// Outgoing radiance for light arriving along -l (l points from the surface to the light) with
// irradiance `radiance` on a surface facing it.
fn brdf_direct(s: Surface, l: vec3<f32>, radiance: vec3<f32>) -> vec3<f32> {
    let n_dot_l = dot(s.normal, l);
    if (n_dot_l <= 0.0) {
        return vec3<f32>(0.0);
    }
    let h = normalize(l + s.view);
    let n_dot_v = max(dot(s.normal, s.view), 1e-4);
    let n_dot_h = max(dot(s.normal, h), 0.0);
    let alpha = max(s.roughness * s.roughness, 0.002);
    let f0 = mix(vec3<f32>(0.04), s.albedo, s.metallic);
    let f = f_schlick(f0, max(dot(s.view, h), 0.0));
    let specular = d_ggx(n_dot_h, alpha) * v_smith_ggx_correlated(n_dot_v, n_dot_l, alpha) * f;
    let diffuse = (vec3<f32>(1.0) - f) * (1.0 - s.metallic) * s.albedo / PI;
    return (diffuse + specular) * radiance * n_dot_l;
}
