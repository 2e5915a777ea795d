// kiln-view's debug UI (kiln_view_ui.h): the panels, and kiln's ImGui renderer over the gfx
// layer. The only C++ of kiln, confined to the viewer: Dear ImGui is a C++ library. Debian's
// libimgui-dev ships a WebGPU backend written for an older webgpu.h than Dawn's, so the draw
// lists are drawn here with kiln's own pipeline, buffers and passes.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>

extern "C" {
#include "kiln_view_camera.h"
#include "kiln_view_graph.h"
#include "kiln_view_program.h"
#include "kiln_view_scene.h"
}
#include "kiln_view_ui.h"

#include <kiln/shader/library.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>

#include "kiln_view_ui_settings.h"

namespace {

// ImGui's vertices (ImDrawVert: pos, uv, col as RGBA8), an orthographic projection from the
// display's pixels, and the font atlas. Colours are authored in sRGB: into an sRGB target they
// are decoded first, so the hardware's encode gives back the colour ImGui meant.
const char *const ui_wgsl = R"(
struct Ui {
    scale: vec2<f32>,
    translate: vec2<f32>,
    srgb_target: u32,
};
@group(0) @binding(0) var<uniform> ui: Ui;
@group(0) @binding(1) var font: texture_2d<f32>;
@group(0) @binding(2) var font_sampler: sampler;

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) color: vec4<f32>,
};

#include "srgb.wgsl"

@vertex
fn vs_main(@location(0) pos: vec2<f32>, @location(1) uv: vec2<f32>, @location(2) color: vec4<f32>) -> VsOut {
    var out: VsOut;
    out.clip = vec4<f32>(pos * ui.scale + ui.translate, 0.0, 1.0);
    out.uv = uv;
    out.color = color;
    if (ui.srgb_target == 1u) {
        out.color = vec4<f32>(srgb_decode(color.rgb), color.a);
    }
    return out;
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    return in.color * textureSample(font, font_sampler, in.uv);
}
)";

constexpr uint32_t uniform_size = 32;
constexpr uint32_t log_capacity = 128;

struct log_line {
    kiln_log_level level;
    char text[560];
};

}  // namespace

struct view_ui {
    GLFWwindow *window;
    kiln_resources *res;
    WGPUTextureFormat format;
    bool visible;
    ImGuiContext *context;
    kiln_shader shader;
    kiln_bind_group_layout group_layout;
    kiln_pipeline_layout layout;
    kiln_render_pipeline pipeline;
    kiln_texture font;
    kiln_texture_view font_view;
    kiln_sampler sampler;
    kiln_buffer uniforms;
    kiln_bind_group group;
    kiln_buffer vertices, indices;        // grown by doubling, never shrunk
    uint64_t vertex_capacity, index_capacity;
    ImVector<unsigned char> staging;      // one frame's vertices, then its indices
    log_line log[log_capacity];
    uint32_t log_count, log_next;
    char banner[560];                     // the last reload error; empty once a reload succeeds
    view_ui_rect rects[VIEW_UI_MAX_RECTS];
    uint32_t rect_count;
    double frame_ms_average;              // CPU frame time, smoothed, for the stats panel
    ImVector<char> dot;                   // the renderer's graph text, while the graph panel is open
    view_graph graph;                     // read from it
    ImVector<kiln_pass_timing> timings;   // one program's rows, for the program timings table
};

static void destroy_gpu(view_ui *ui) {
    kiln_resources *res = ui->res;
    if (ui->group.id) kiln_resources_destroy_bind_group(res, ui->group, nullptr);
    if (ui->uniforms.id) kiln_resources_destroy_buffer(res, ui->uniforms, nullptr);
    if (ui->vertices.id) kiln_resources_destroy_buffer(res, ui->vertices, nullptr);
    if (ui->indices.id) kiln_resources_destroy_buffer(res, ui->indices, nullptr);
    if (ui->sampler.id) kiln_resources_destroy_sampler(res, ui->sampler, nullptr);
    if (ui->font_view.id) kiln_resources_destroy_texture_view(res, ui->font_view, nullptr);
    if (ui->font.id) kiln_resources_destroy_texture(res, ui->font, nullptr);
    if (ui->pipeline.id) kiln_resources_destroy_render_pipeline(res, ui->pipeline, nullptr);
    if (ui->layout.id) kiln_resources_destroy_pipeline_layout(res, ui->layout, nullptr);
    if (ui->group_layout.id) kiln_resources_destroy_bind_group_layout(res, ui->group_layout, nullptr);
    if (ui->shader.id) kiln_resources_destroy_shader(res, ui->shader, nullptr);
}

static bool create_pipeline(view_ui *ui, kiln_error *err) {
    kiln_resources *res = ui->res;
    kiln_gfx *gfx = kiln_resources_gfx(res);
    const kiln_wgsl_embedded_file file = {"kiln-view/ui.wgsl", ui_wgsl};
    kiln_wgsl_source source = {};
    source.files = &file;
    source.file_count = 1;
    WGPUShaderModule module = kiln_wgsl_compile(gfx, &source, file.name, err);
    if (!module || !(ui->shader = kiln_resources_adopt_shader(res, module, "kiln-view ui", err)).id) return false;
    kiln_layout_entry entries[3] = {};
    entries[0] = {0, WGPUShaderStage_Vertex, KILN_BINDING_UNIFORM_BUFFER, false, 0, WGPUTextureFormat_Undefined};
    entries[1] = {1, WGPUShaderStage_Fragment, KILN_BINDING_TEXTURE_2D, false, 0, WGPUTextureFormat_Undefined};
    entries[2] = {2, WGPUShaderStage_Fragment, KILN_BINDING_FILTERING_SAMPLER, false, 0, WGPUTextureFormat_Undefined};
    if (!(ui->group_layout = kiln_resources_create_bind_group_layout(res, "kiln-view ui", entries, 3, err)).id) return false;
    if (!(ui->layout = kiln_resources_create_pipeline_layout(res, "kiln-view ui", &ui->group_layout, 1, err)).id) return false;
    kiln_render_pipeline_desc pd = {};
    pd.label = "kiln-view ui";
    pd.layout = ui->layout;
    pd.shader = ui->shader;
    pd.vertex_buffer_count = 1;
    pd.vertex_buffers[0].stride = sizeof(ImDrawVert);
    pd.vertex_buffers[0].attribute_count = 3;
    pd.vertex_buffers[0].attributes[0] = {WGPUVertexFormat_Float32x2, (uint32_t)offsetof(ImDrawVert, pos), 0};
    pd.vertex_buffers[0].attributes[1] = {WGPUVertexFormat_Float32x2, (uint32_t)offsetof(ImDrawVert, uv), 1};
    pd.vertex_buffers[0].attributes[2] = {WGPUVertexFormat_Unorm8x4, (uint32_t)offsetof(ImDrawVert, col), 2};
    pd.target_count = 1;
    pd.targets[0].format = ui->format;
    pd.targets[0].blend = KILN_BLEND_ALPHA;
    return (ui->pipeline = kiln_resources_create_render_pipeline(res, &pd, err)).id != 0;
}

static bool create_font(view_ui *ui, kiln_error *err) {
    kiln_resources *res = ui->res;
    ImGuiIO &io = ImGui::GetIO();
    unsigned char *pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    kiln_texture_desc td = {};
    td.label = "kiln-view ui font";
    td.width = (uint32_t)w;
    td.height = (uint32_t)h;
    td.format = WGPUTextureFormat_RGBA8Unorm;
    td.usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst;
    if (!(ui->font = kiln_resources_create_texture(res, &td, err)).id) return false;
    if (!kiln_resources_write_texture(res, ui->font, 0, 0, pixels, (size_t)w * h * 4, (uint32_t)w * 4, (uint32_t)w,
                                      (uint32_t)h, err))
        return false;
    if (!(ui->font_view = kiln_resources_create_texture_view(res, ui->font, nullptr, err)).id) return false;
    io.Fonts->SetTexID((ImTextureID)(intptr_t)1); // the one texture the renderer binds
    kiln_sampler_desc sd = {};
    sd.label = "kiln-view ui font";
    sd.linear = true;
    if (!(ui->sampler = kiln_resources_create_sampler(res, &sd, err)).id) return false;
    kiln_buffer_desc bd = {};
    bd.label = "kiln-view ui uniforms";
    bd.size = uniform_size;
    bd.usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst;
    if (!(ui->uniforms = kiln_resources_create_buffer(res, &bd, err)).id) return false;
    kiln_binding_resource b[3] = {};
    b[0].binding = 0, b[0].buffer = ui->uniforms, b[0].size = uniform_size;
    b[1].binding = 1, b[1].view = ui->font_view;
    b[2].binding = 2, b[2].sampler = ui->sampler;
    return (ui->group = kiln_resources_create_bind_group(res, "kiln-view ui", ui->group_layout, b, 3, err)).id != 0;
}

// A dark, flat theme with a little rounding: a tool's look, not a demo's.
static void apply_style() {
    ImGui::StyleColorsDark();
    ImGuiStyle &s = ImGui::GetStyle();
    s.WindowRounding = 4.0f;
    s.FrameRounding = 3.0f;
    s.GrabRounding = 3.0f;
    s.WindowBorderSize = 0.0f;
    s.FramePadding = ImVec2(6, 3);
    s.ItemSpacing = ImVec2(8, 5);
    s.Colors[ImGuiCol_WindowBg] = ImVec4(0.09f, 0.10f, 0.12f, 0.90f);
    s.Colors[ImGuiCol_TitleBg] = ImVec4(0.13f, 0.15f, 0.19f, 1.0f);
    s.Colors[ImGuiCol_TitleBgActive] = ImVec4(0.20f, 0.28f, 0.40f, 1.0f);
    s.Colors[ImGuiCol_Header] = ImVec4(0.20f, 0.28f, 0.40f, 0.70f);
    s.Colors[ImGuiCol_FrameBg] = ImVec4(0.16f, 0.18f, 0.22f, 1.0f);
}

view_ui *view_ui_create(GLFWwindow *window, kiln_resources *res, WGPUTextureFormat format, bool visible, kiln_error *err) {
    view_ui *ui = new (std::nothrow) view_ui();
    if (!ui) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "ui: out of memory");
        return nullptr;
    }
    ui->window = window;
    ui->res = res;
    ui->format = format;
    ui->visible = visible;
    IMGUI_CHECKVERSION();
    ui->context = ImGui::CreateContext();
    ImGuiIO &io = ImGui::GetIO();
    io.IniFilename = nullptr; // the same layout every run: screenshots and tests stay reproducible
    apply_style();
    if (!create_pipeline(ui, err) || !create_font(ui, err)) {
        view_ui_destroy(ui);
        return nullptr;
    }
    ImGui_ImplGlfw_InitForOther(window, true); // chains the viewer's callbacks, installed before
    return ui;
}

void view_ui_destroy(view_ui *ui) {
    if (!ui) return;
    destroy_gpu(ui);
    if (ImGui::GetIO().BackendPlatformUserData) ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext(ui->context);
    delete ui;
}

void view_ui_release_gpu(view_ui *ui) {
    destroy_gpu(ui);
    ui->shader = {}, ui->group_layout = {}, ui->layout = {}, ui->pipeline = {};
    ui->font = {}, ui->font_view = {}, ui->sampler = {}, ui->uniforms = {}, ui->group = {};
    ui->vertices = {}, ui->indices = {};
    ui->vertex_capacity = ui->index_capacity = 0;
}

bool view_ui_recreate_gpu(view_ui *ui, kiln_resources *res, kiln_error *err) {
    ui->res = res;
    return create_pipeline(ui, err) && create_font(ui, err);
}

void view_ui_toggle(view_ui *ui) { ui->visible = !ui->visible; }
bool view_ui_visible(const view_ui *ui) { return ui && ui->visible; }
bool view_ui_wants_mouse(const view_ui *ui) { return ui && ui->visible && ImGui::GetIO().WantCaptureMouse; }
bool view_ui_wants_keyboard(const view_ui *ui) { return ui && ui->visible && ImGui::GetIO().WantCaptureKeyboard; }

void view_ui_log(view_ui *ui, kiln_log_level level, const char *category, const char *message) {
    if (!ui) return;
    log_line *l = &ui->log[ui->log_next];
    l->level = level;
    std::snprintf(l->text, sizeof l->text, "[%s] %s", category, message);
    ui->log_next = (ui->log_next + 1) % log_capacity;
    if (ui->log_count < log_capacity) ui->log_count++;
    bool reload_failed = level >= KILN_LOG_ERROR && (std::strstr(message, "reload") || std::strstr(message, "render:"));
    if (reload_failed) std::snprintf(ui->banner, sizeof ui->banner, "%s", message);
    else if (level == KILN_LOG_INFO && !std::strncmp(message, "reloaded ", 9)) ui->banner[0] = '\0';
}

// ---- panels ---------------------------------------------------------------------------------

// One row per timed pass, then their sum.
static void gpu_table(const kiln_frame_timings *t) {
    ImGui::TableSetupScrollFreeze(0, 1); // the header stays
    ImGui::TableSetupColumn("pass", ImGuiTableColumnFlags_WidthFixed, 190.0f);
    ImGui::TableSetupColumn("GPU ms", ImGuiTableColumnFlags_WidthFixed, 70.0f);
    ImGui::TableHeadersRow();
    for (uint32_t i = 0; i < t->count; i++) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(t->passes[i].name);
        ImGui::TableNextColumn();
        ImGui::Text("%7.3f", t->passes[i].gpu_ms);
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextDisabled("total (frame %llu)", (unsigned long long)t->frame);
    ImGui::TableNextColumn();
    ImGui::Text("%7.3f", t->total_ms);
    ImGui::EndTable();
}

// The frame's counts, the CPU frame time, and the GPU time of each pass where the device has
// timestamp queries (they come back a frame or more late; the newest that came back is shown).
static void stats_panel(view_ui *ui, const view_ui_state *st, float width, float height) {
    double ms = st->frame_seconds * 1000.0;
    ui->frame_ms_average = ui->frame_ms_average > 0.0 ? 0.95 * ui->frame_ms_average + 0.05 * ms : ms;
    const kiln_frame_stats *fs = kiln_renderer_stats(st->renderer);
    kiln_frame_timings t = kiln_renderer_pass_timings(st->renderer);
    ImGui::SetNextWindowPos(ImVec2(width - 10, 210), ImGuiCond_FirstUseEver, ImVec2(1.0f, 0.0f));
    if (!ImGui::Begin("Frame", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return ImGui::End();
    ImGui::Text("%.2f ms  (%.0f fps)", ui->frame_ms_average, ui->frame_ms_average > 0 ? 1000.0 / ui->frame_ms_average : 0.0);
    ImGui::Text("instances %u / %u drawn, %u draws", fs->instances_drawn, fs->instances_submitted, fs->draw_calls);
    ImGui::Text("shadow views %u, %u draws; lights %u", fs->shadow_views, fs->shadow_draw_calls, fs->lights);
    ImGui::Text("passes %u, transient textures %u", fs->passes, fs->transient_textures);
    if (t.status != KILN_FRAME_TIMINGS_READY) {
        ImGui::TextDisabled("GPU time per pass: %s", kiln_frame_timings_status_name(t.status));
    } else {
        // The table scrolls where the window is too short for every pass.
        float rows = (float)(t.count + 2) * ImGui::GetTextLineHeightWithSpacing();
        float room = height - 220.0f - ImGui::GetCursorPosY() - ImGui::GetStyle().WindowPadding.y;
        ImVec2 size(270.0f, rows < room ? 0.0f : (room > 80.0f ? room : 80.0f));
        ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY;
        if (ImGui::BeginTable("gpu", 2, flags, size)) gpu_table(&t);
    }
    ImGui::End();
}

// One node of the document and, open, its children; the checkbox hides the node with
// everything below it.
// The clip played: every animation at once, or one of the file's, by name (index when unnamed).
static void clip_combo(view_scene *vs) {
    char shown[160], label[160];
    view_scene_clip_label(vs->doc, vs->clip, shown, sizeof shown);
    ImGui::SetNextItemWidth(200);
    if (!ImGui::BeginCombo("clip", shown)) return;
    for (int32_t c = VIEW_SCENE_ALL_CLIPS; c < (int32_t)vs->doc->animation_count; c++) {
        view_scene_clip_label(vs->doc, c, label, sizeof label);
        ImGui::PushID(c);
        if (ImGui::Selectable(label, c == vs->clip) && c != vs->clip) view_scene_set_clip(vs, c, nullptr);
        ImGui::PopID();
    }
    ImGui::EndCombo();
}

static void node_tree(view_scene *vs, uint32_t index) {
    const kiln_gltf_node &node = vs->doc->nodes[index];
    ImGui::PushID((int)index);
    bool shown = !vs->hidden_nodes[index];
    if (ImGui::Checkbox("##shown", &shown)) view_scene_set_node_hidden(vs, index, !shown);
    ImGui::SameLine();
    ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_SpanAvailWidth | (node.child_count ? 0 : ImGuiTreeNodeFlags_Leaf);
    const char *kind = node.mesh >= 0 ? " (mesh)" : node.camera >= 0 ? " (camera)" : node.light >= 0 ? " (light)" : "";
    bool open = ImGui::TreeNodeEx("node", flags, "%s%s", node.name && node.name[0] ? node.name : "node", kind);
    if (!view_scene_node_shown(vs, index)) ImGui::SameLine(), ImGui::TextDisabled("hidden");
    if (open) {
        for (uint32_t c = 0; c < node.child_count; c++) node_tree(vs, node.children[c]);
        ImGui::TreePop();
    }
    ImGui::PopID();
}

static void scene_panel(const view_ui_state *st, float width) {
    view_scene *vs = st->scene;
    view_camera *vc = st->camera;
    ImGui::SetNextWindowPos(ImVec2(width - 10, 10), ImGuiCond_FirstUseEver, ImVec2(1.0f, 0.0f));
    if (!ImGui::Begin("Scene", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return ImGui::End();
    const char *path = vs->model_path ? vs->model_path : "demo";
    const char *slash = std::strrchr(path, '/');
    ImGui::TextUnformatted(slash ? slash + 1 : path);
    ImGui::Text("%u instances, %u lights", vs->scene.instance_count, vs->scene.light_count);
    ImGui::Text("environment: %s", vs->environment ? "HDR map" : "procedural sky");
    const kiln_camera &c = vc->camera;
    ImGui::Text("camera %.2f, %.2f, %.2f", (double)c.position.x, (double)c.position.y, (double)c.position.z);
    ImGui::Text("%s", vc->file_camera < 0 ? "framed camera" : "file camera");
    if (vc->file_camera >= 0) ImGui::SameLine(), ImGui::Text("%d of %u", vc->file_camera + 1, vc->file_camera_count);
    if (ImGui::Button("Frame (F)")) view_camera_frame(vc, st->aspect);
    ImGui::SameLine();
    if (ImGui::Button("Next camera (C)")) view_camera_next_file_camera(vc, st->aspect);
    if (st->program->script_path) {
        ImGui::SameLine();
        if (ImGui::Button("Show program (V)")) *st->show_program = true;
    }
    if (vs->doc && ImGui::TreeNode("Scene tree")) {
        for (uint32_t r = 0; r < vs->doc->root_count; r++) node_tree(vs, vs->doc->roots[r]);
        ImGui::TreePop();
    }
    if (vs->doc && vs->doc->animation_count > 0) {
        ImGui::Separator();
        ImGui::Checkbox("play (Space)", &vs->playing);
        ImGui::SameLine();
        ImGui::Text("%u animation%s", vs->doc->animation_count, vs->doc->animation_count == 1 ? "" : "s");
        clip_combo(vs);
        ImGui::SetNextItemWidth(200);
        ImGui::SliderFloat("time", &vs->time, 0.0f, vs->animation_end, "%.2f s");
    }
    ImGui::TextDisabled("left drag orbit, middle or shift pan, wheel dolly\nright drag + WASD/QE fly, F frame, C cameras\nH hides the UI, P writes a screenshot");
    ImGui::End();
}

// The frame graph, read from the renderer's Graphviz text only while the panel is open: the
// passes in execution order, culled ones greyed, and the resources with their physical textures
// (two in one texture are aliased) and lifetimes in executed passes.
static void graph_panel(view_ui *ui, const view_ui_state *st) {
    ImGui::SetNextWindowPos(ImVec2(295, 10), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(600, 420), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
    if (!ImGui::Begin("Frame graph")) return ImGui::End();
    size_t size = kiln_renderer_graph_dot(st->renderer, nullptr, 0) + 1;
    ui->dot.resize((int)size);
    kiln_renderer_graph_dot(st->renderer, ui->dot.Data, size);
    view_graph_parse(&ui->graph, ui->dot.Data);
    const view_graph &g = ui->graph;
    ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY;
    ImGui::BeginGroup();
    if (ImGui::BeginTable("passes", 2, flags, ImVec2(210, 0))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, 24.0f);
        ImGui::TableSetupColumn("pass", ImGuiTableColumnFlags_WidthFixed, 170.0f);
        ImGui::TableHeadersRow();
        for (uint32_t i = 0, executed = 0; i < g.pass_count; i++) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            if (g.passes[i].culled) {
                ImGui::TextDisabled("-");
                ImGui::TableNextColumn();
                ImGui::TextDisabled("%s (culled)", g.passes[i].name);
            } else {
                ImGui::Text("%u", executed++);
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(g.passes[i].name);
            }
        }
        ImGui::EndTable();
    }
    ImGui::EndGroup();
    ImGui::SameLine();
    if (ImGui::BeginTable("resources", 3, flags)) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("resource", ImGuiTableColumnFlags_WidthFixed, 110.0f);
        ImGui::TableSetupColumn("kind", ImGuiTableColumnFlags_WidthFixed, 150.0f);
        ImGui::TableSetupColumn("passes", ImGuiTableColumnFlags_WidthFixed, 80.0f);
        ImGui::TableHeadersRow();
        for (uint32_t i = 0; i < g.resource_count; i++) {
            const view_graph_resource &r = g.resources[i];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            if (r.used) ImGui::TextUnformatted(r.name);
            else ImGui::TextDisabled("%s", r.name);
            ImGui::TableNextColumn();
            if (view_graph_aliased(&g, i)) ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1.0f), "%s aliased", r.kind);
            else ImGui::TextUnformatted(r.kind);
            ImGui::TableNextColumn();
            if (r.used) ImGui::Text("%u..%u", r.first, r.last);
            else ImGui::TextDisabled("unused");
        }
        ImGui::EndTable();
    }
    ImGui::End();
}

// One row per pass of one program, from the runtime's timings (kiln_programs_timings, what
// program.timings answers): its stage and entry point as the register message declared them,
// the size its output resolved to, and the CPU and GPU time of its last measured recording.
static void program_timings_table(view_ui *ui, const view_program *vp, uint32_t index) {
    const view_program_info &info = vp->run.programs[index];
    ui->timings.resize((int)(info.pass_count ? info.pass_count : 1));
    uint32_t n = view_program_timings(vp, index, ui->timings.Data, info.pass_count);
    ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV;
    ImGui::PushID((int)index);
    if (ImGui::BeginTable("timings", 6, flags)) {
        ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, 20.0f);
        ImGui::TableSetupColumn("stage", ImGuiTableColumnFlags_WidthFixed, 62.0f);
        ImGui::TableSetupColumn("entry", ImGuiTableColumnFlags_WidthFixed, 110.0f);
        ImGui::TableSetupColumn("size", ImGuiTableColumnFlags_WidthFixed, 86.0f);
        ImGui::TableSetupColumn("CPU ms", ImGuiTableColumnFlags_WidthFixed, 56.0f);
        ImGui::TableSetupColumn("GPU ms", ImGuiTableColumnFlags_WidthFixed, 56.0f);
        ImGui::TableHeadersRow();
        double cpu = 0.0, gpu = 0.0;
        bool all_gpu = n > 0;
        for (uint32_t i = 0; i < n; i++) {
            const kiln_pass_timing &t = ui->timings[(int)i];
            const view_program_pass &pass = info.passes[i];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%u", i);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(pass.stage);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(pass.entry);
            ImGui::TableNextColumn();
            if (t.divisor > 1) ImGui::Text("%ux%u /%u", t.width, t.height, t.divisor);
            else ImGui::Text("%ux%u", t.width, t.height);
            ImGui::TableNextColumn();
            ImGui::Text("%6.3f", t.cpu_record_ns / 1e6);
            ImGui::TableNextColumn();
            if (t.gpu_ns < 0) ImGui::TextDisabled("   -");
            else ImGui::Text("%6.3f", t.gpu_ns / 1e6);
            cpu += t.cpu_record_ns / 1e6;
            all_gpu = all_gpu && t.gpu_ns >= 0;
            gpu += t.gpu_ns >= 0 ? t.gpu_ns / 1e6 : 0.0;
        }
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TableNextColumn();
        ImGui::TextDisabled("total");
        ImGui::TableNextColumn();
        ImGui::TableNextColumn();
        ImGui::TableNextColumn();
        ImGui::Text("%6.3f", cpu);
        ImGui::TableNextColumn();
        if (all_gpu) ImGui::Text("%6.3f", gpu);
        else ImGui::TextDisabled("   -");
        ImGui::EndTable();
    }
    ImGui::PopID();
}

// The program view's panel: the script, what it shows, the last failed run's reason, the clock
// of its every_frame dispatches, and one timings table per registered program.
static void program_panel(view_ui *ui, const view_ui_state *st, float width) {
    view_program *vp = st->program;
    double ms = st->frame_seconds * 1000.0;
    ui->frame_ms_average = ui->frame_ms_average > 0.0 ? 0.95 * ui->frame_ms_average + 0.05 * ms : ms;
    ImGui::SetNextWindowPos(ImVec2(width - 10, 10), ImGuiCond_FirstUseEver, ImVec2(1.0f, 0.0f));
    if (!ImGui::Begin("Program", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return ImGui::End();
    const char *slash = std::strrchr(vp->script_path, '/');
    ImGui::TextUnformatted(slash ? slash + 1 : vp->script_path);
    const view_program_run &run = vp->run;
    if (run.rt) {
        ImGui::Text("%u messages; texture %u, %ux%u %s", run.message_count, run.texture, run.info.width, run.info.height,
                    kiln_texture_format_name(run.info.format));
        ImGui::TextDisabled("shown: %s", run.shown_by);
    } else {
        ImGui::TextDisabled("no good run on this device");
    }
    if (vp->error[0]) {
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 420.0f);
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.40f, 1.0f), "last run failed: %s", vp->error);
        ImGui::PopTextWrapPos();
    }
    ImGui::Text("%.2f ms  (%.0f fps)", ui->frame_ms_average, ui->frame_ms_average > 0 ? 1000.0 / ui->frame_ms_average : 0.0);
    if (run.repeat_count) {
        ImGui::Checkbox("play (Space)", &vp->playing);
        ImGui::SameLine();
        ImGui::Text("clock %.2f s, %u dispatch%s every frame", vp->time, run.repeat_count, run.repeat_count == 1 ? "" : "es");
    }
    if (ImGui::Button("Show scene (V)")) *st->show_program = false;
    for (uint32_t i = 0; i < run.program_count; i++) {
        const view_program_info &p = run.programs[i];
        ImGui::Separator();
        if (p.label[0]) ImGui::TextUnformatted(p.label), ImGui::SameLine();
        ImGui::TextDisabled("program %u, %u pass%s", p.id, p.pass_count, p.pass_count == 1 ? "" : "es");
        program_timings_table(ui, vp, i);
    }
    ImGui::End();
}

static ImVec4 level_colour(kiln_log_level level) {
    if (level >= KILN_LOG_ERROR) return ImVec4(1.0f, 0.45f, 0.40f, 1.0f);
    if (level == KILN_LOG_WARN) return ImVec4(1.0f, 0.80f, 0.35f, 1.0f);
    return ImVec4(0.75f, 0.78f, 0.82f, 1.0f);
}

static void log_panel(view_ui *ui, float height) {
    ImGui::SetNextWindowPos(ImVec2(10, height - 150), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(460, 140), ImGuiCond_FirstUseEver);
    if (!ImGui::Begin("Log")) return ImGui::End();
    uint32_t first = (ui->log_next + log_capacity - ui->log_count) % log_capacity;
    for (uint32_t i = 0; i < ui->log_count; i++) {
        const log_line &l = ui->log[(first + i) % log_capacity];
        ImGui::PushStyleColor(ImGuiCol_Text, level_colour(l.level));
        ImGui::TextWrapped("%s", l.text);
        ImGui::PopStyleColor();
    }
    if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY()) ImGui::SetScrollHereY(1.0f);
    ImGui::End();
}

// A failed reload stays in view, as the shader library words it (file:line:col), until a
// later reload succeeds.
static void banner(view_ui *ui, float width, float height) {
    if (!ui->banner[0]) return;
    ImGui::SetNextWindowPos(ImVec2(width * 0.5f, height - 10), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(width - 20, height * 0.5f));
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.35f, 0.06f, 0.06f, 0.92f));
    ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                             ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing;
    if (ImGui::Begin("##reload error", nullptr, flags)) {
        ImGui::PushTextWrapPos(width - 40);
        ImGui::TextUnformatted(ui->banner);
        ImGui::PopTextWrapPos();
    }
    ImGui::End();
    ImGui::PopStyleColor();
}

// ---- the renderer ----------------------------------------------------------------------------

// A buffer of at least `need` bytes, grown by doubling so a steady UI stops reallocating.
static bool reserve(view_ui *ui, kiln_buffer *b, uint64_t *capacity, uint64_t need, WGPUBufferUsage usage,
                    const char *label, kiln_error *err) {
    if (b->id && *capacity >= need) return true;
    uint64_t size = *capacity ? *capacity : 16384;
    while (size < need) size *= 2;
    if (b->id) kiln_resources_destroy_buffer(ui->res, *b, nullptr);
    kiln_buffer_desc d = {};
    d.label = label;
    d.size = size;
    d.usage = usage | WGPUBufferUsage_CopyDst;
    *b = kiln_resources_create_buffer(ui->res, &d, err);
    *capacity = b->id ? size : 0;
    return b->id != 0;
}

// The bounds of one panel's vertices in target pixels (the panel's own draw list).
static void record_rect(view_ui *ui, const ImDrawData *dd, const ImDrawList *list, uint32_t width, uint32_t height) {
    if (ui->rect_count == VIEW_UI_MAX_RECTS || list->VtxBuffer.Size == 0) return;
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    for (const ImDrawVert &v : list->VtxBuffer) {
        float x = (v.pos.x - dd->DisplayPos.x) * dd->FramebufferScale.x, y = (v.pos.y - dd->DisplayPos.y) * dd->FramebufferScale.y;
        x0 = fminf(x0, x), y0 = fminf(y0, y), x1 = fmaxf(x1, x), y1 = fmaxf(y1, y);
    }
    int32_t left = (int32_t)floorf(x0) - 1, top = (int32_t)floorf(y0) - 1, right = (int32_t)ceilf(x1) + 1, bottom = (int32_t)ceilf(y1) + 1;
    left = left < 0 ? 0 : left, top = top < 0 ? 0 : top;
    right = right > (int32_t)width ? (int32_t)width : right, bottom = bottom > (int32_t)height ? (int32_t)height : bottom;
    if (right > left && bottom > top) ui->rects[ui->rect_count++] = view_ui_rect{left, top, right - left, bottom - top};
}

static bool draw_lists(view_ui *ui, const ImDrawData *dd, kiln_render_target target, uint32_t width, uint32_t height,
                       kiln_error *err) {
    ui->rect_count = 0;
    if (dd->TotalVtxCount == 0) return true;
    uint64_t vertex_bytes = (uint64_t)dd->TotalVtxCount * sizeof(ImDrawVert);
    uint64_t index_bytes = ((uint64_t)dd->TotalIdxCount * sizeof(ImDrawIdx) + 3) & ~3ull; // writes are 4-byte multiples
    if (!reserve(ui, &ui->vertices, &ui->vertex_capacity, vertex_bytes, WGPUBufferUsage_Vertex, "kiln-view ui vertices", err) ||
        !reserve(ui, &ui->indices, &ui->index_capacity, index_bytes, WGPUBufferUsage_Index, "kiln-view ui indices", err))
        return false;
    ui->staging.resize((int)(vertex_bytes + index_bytes));
    unsigned char *v = ui->staging.Data, *i = v + vertex_bytes;
    std::memset(i, 0, index_bytes);
    for (int n = 0; n < dd->CmdListsCount; n++) {
        const ImDrawList *list = dd->CmdLists[n];
        std::memcpy(v, list->VtxBuffer.Data, list->VtxBuffer.Size * sizeof(ImDrawVert));
        std::memcpy(i, list->IdxBuffer.Data, list->IdxBuffer.Size * sizeof(ImDrawIdx));
        v += list->VtxBuffer.Size * sizeof(ImDrawVert);
        i += list->IdxBuffer.Size * sizeof(ImDrawIdx);
        record_rect(ui, dd, list, width, height);
    }
    float uniforms[8] = {2.0f / dd->DisplaySize.x, -2.0f / dd->DisplaySize.y, -1.0f - dd->DisplayPos.x * 2.0f / dd->DisplaySize.x,
                         1.0f + dd->DisplayPos.y * 2.0f / dd->DisplaySize.y};
    uint32_t srgb = kiln_gfx_format_is_srgb(ui->format) ? 1u : 0u;
    std::memcpy(&uniforms[4], &srgb, sizeof srgb);
    if (!kiln_resources_write_buffer(ui->res, ui->vertices, 0, ui->staging.Data, vertex_bytes, err) ||
        !kiln_resources_write_buffer(ui->res, ui->indices, 0, ui->staging.Data + vertex_bytes, index_bytes, err) ||
        !kiln_resources_write_buffer(ui->res, ui->uniforms, 0, uniforms, sizeof uniforms, err))
        return false;

    kiln_encoder enc;
    kiln_render_pass pass;
    kiln_color_attachment color = kiln_color_loaded(target.view);
    if (!kiln_encoder_begin(&enc, ui->res, "kiln-view ui", err)) return false;
    if (!kiln_encoder_begin_render_pass(&enc, "kiln-view ui", &color, 1, nullptr, &pass, err)) {
        kiln_encoder_discard(&enc);
        return false;
    }
    kiln_render_pass_set_pipeline(&pass, ui->pipeline, err);
    kiln_render_pass_set_bind_group(&pass, 0, ui->group, nullptr, 0, err);
    kiln_render_pass_set_vertex_buffer(&pass, 0, ui->vertices, 0, err);
    kiln_render_pass_set_index_buffer(&pass, ui->indices, sizeof(ImDrawIdx) == 2 ? WGPUIndexFormat_Uint16 : WGPUIndexFormat_Uint32, 0, err);
    kiln_render_pass_set_viewport(&pass, 0, 0, (float)width, (float)height);
    // ImGui's coordinates are window points; the target is in framebuffer pixels.
    ImVec2 scale = dd->FramebufferScale;
    uint32_t first_vertex = 0, first_index = 0;
    for (int n = 0; n < dd->CmdListsCount; n++) {
        const ImDrawList *list = dd->CmdLists[n];
        for (const ImDrawCmd &cmd : list->CmdBuffer) {
            if (cmd.UserCallback) continue; // the panels add none
            float x0 = (cmd.ClipRect.x - dd->DisplayPos.x) * scale.x, y0 = (cmd.ClipRect.y - dd->DisplayPos.y) * scale.y;
            float x1 = (cmd.ClipRect.z - dd->DisplayPos.x) * scale.x, y1 = (cmd.ClipRect.w - dd->DisplayPos.y) * scale.y;
            x0 = fmaxf(x0, 0.0f), y0 = fmaxf(y0, 0.0f), x1 = fminf(x1, (float)width), y1 = fminf(y1, (float)height);
            if (x1 <= x0 || y1 <= y0) continue;
            kiln_render_pass_set_scissor(&pass, (uint32_t)x0, (uint32_t)y0, (uint32_t)(x1 - x0), (uint32_t)(y1 - y0));
            kiln_render_pass_draw_indexed(&pass, cmd.ElemCount, 1, first_index + cmd.IdxOffset,
                                          (int32_t)(first_vertex + cmd.VtxOffset), 0);
        }
        first_vertex += (uint32_t)list->VtxBuffer.Size;
        first_index += (uint32_t)list->IdxBuffer.Size;
    }
    kiln_render_pass_end(&pass);
    return kiln_encoder_finish_and_submit(&enc, err);
}

bool view_ui_draw(view_ui *ui, const view_ui_state *state, kiln_render_target target, uint32_t width, uint32_t height,
                  kiln_error *err) {
    if (!ui->visible) {
        ui->rect_count = 0;
        return true;
    }
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    float w = ImGui::GetIO().DisplaySize.x, h = ImGui::GetIO().DisplaySize.y;
    if (*state->show_program) {
        program_panel(ui, state, w);
    } else {
        view_ui_settings_panel(state);
        stats_panel(ui, state, w, h);
        scene_panel(state, w);
        graph_panel(ui, state);
    }
    log_panel(ui, h);
    banner(ui, w, h);
    ImGui::Render();
    return draw_lists(ui, ImGui::GetDrawData(), target, width, height, err);
}

uint32_t view_ui_drawn_rects(const view_ui *ui, view_ui_rect *rects, uint32_t max) {
    uint32_t n = ui->rect_count < max ? ui->rect_count : max;
    std::memcpy(rects, ui->rects, n * sizeof *rects);
    return n;
}
