// kiln-view's Render settings panel (kiln_view_ui_settings.h): one control per row of the
// library's settings table (kiln/render/settings_table.h: the names, ranges and defaults are the
// rows'; this file only lays them out). Zero fields mean their default, so each control shows the
// resolved value and writes an explicit one. C++ for Dear ImGui, as kiln_view_ui.cpp.
#include <cstdio>
#include <cstring>

extern "C" {
#include "kiln_view_ui.h"
}

#include <imgui.h>

#include "kiln_view_ui_settings.h"

// A combo over an enum row's names.
static void enum_combo(const kiln_render_setting *row, int *value) {
    const char *current = row->name(*value);
    if (!ImGui::BeginCombo(row->key, current ? current : "?")) return;
    for (int i = 0; row->name(i); i++) {
        bool selected = *value == i;
        if (ImGui::Selectable(row->name(i), selected)) *value = i;
        if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
}

// A whole-number row: its choices, or the powers of two across its slider span (the texel
// sizes, which must divide each other: powers of two always do).
static void uint_combo(const kiln_render_setting *row, uint32_t *field, uint32_t resolved) {
    char current[16];
    std::snprintf(current, sizeof current, "%u", resolved);
    if (!ImGui::BeginCombo(row->key, current)) return;
    uint32_t count = row->choices ? row->choice_count : 32;
    for (uint32_t i = 0, v = (uint32_t)row->slider_min; i < count; i++) {
        if (row->choices) v = row->choices[i];
        else if (i) v *= 2;
        if (v > row->slider_max) break;
        char text[16];
        std::snprintf(text, sizeof text, "%u", v);
        if (ImGui::Selectable(text, v == resolved)) *field = v;
    }
    ImGui::EndCombo();
}

static void background_control(kiln_render_settings *s) {
    int background = (int)s->background;
    if (ImGui::Combo("background", &background, "sky\0colour\0transparent\0")) s->background = (kiln_background_mode)background;
    if (s->background == KILN_BACKGROUND_COLOR) ImGui::ColorEdit3("colour", &s->background_color.x, ImGuiColorEditFlags_NoInputs);
}

// The control of the row named `key`, its doc line as the tooltip.
static void setting_control(const char *key, kiln_render_settings *s, const kiln_render_settings *resolved) {
    const kiln_render_setting *row = kiln_render_setting_find(key);
    char *field = (char *)s + row->offset;
    const char *shown = (const char *)resolved + row->offset;
    switch (row->type) {
    case KILN_SETTING_SWITCH: ImGui::Checkbox(row->key, (bool *)field); break;
    case KILN_SETTING_ENUM: enum_combo(row, (int *)field); break;
    case KILN_SETTING_UINT: uint_combo(row, (uint32_t *)field, *(const uint32_t *)shown); break;
    case KILN_SETTING_BACKGROUND: background_control(s); break;
    case KILN_SETTING_FLOAT: {
        float v = *(const float *)shown;
        // A span that crosses zero (a signed control: contrast) is linear; a positive one logarithmic.
        ImGuiSliderFlags flags = row->slider_min > 0.0 ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None;
        if (ImGui::SliderFloat(row->key, &v, (float)row->slider_min, (float)row->slider_max, "%.3g", flags))
            *(float *)field = v;
        break;
    }
    case KILN_SETTING_VEC3: {
        kiln_vec3 v = *(const kiln_vec3 *)shown;
        if (ImGui::SliderFloat3(row->key, &v.x, (float)row->slider_min, (float)row->slider_max, "%.3g"))
            *(kiln_vec3 *)field = v;
        break;
    }
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (%s)", row->doc, row->flag);
}

template <size_t N>
static bool listed(const char *const (&keys)[N], const char *key) {
    for (const char *k : keys)
        if (!std::strcmp(k, key)) return true;
    return false;
}

// Every row of the settings table but those read at creation (worker_threads, shown as text;
// shader_dir is no row), grouped as kiln-render's usage groups them.
void view_ui_settings_panel(const view_ui_state *st) {
    static const char *const general[] = {"tonemap", "exposure", "debug", "msaa", "fxaa", "wireframe", "no_culling",
                                          "background"};
    static const char *const lighting[] = {"env_intensity", "no_shadows", "shadow_distance", "cascade_resolution",
                                           "atlas_size", "atlas_tile", "no_ao", "ao_radius"};
    static const char *const bloom[] = {"no_bloom", "bloom_strength", "bloom_threshold"};
    static const char *const grading[] = {"white_balance_temperature", "white_balance_tint", "contrast", "saturation",
                                          "lift", "gamma", "gain"};
    kiln_render_settings *s = kiln_renderer_settings(st->renderer);
    kiln_render_settings r = *s;
    kiln_render_settings_resolve(s, &r, nullptr);
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(300, 0), ImGuiCond_FirstUseEver);
    if (!ImGui::Begin("Render settings", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return ImGui::End();
    ImGui::PushItemWidth(150);
    for (const char *key : general) setting_control(key, s, &r);
    if (ImGui::CollapsingHeader("Lighting", ImGuiTreeNodeFlags_DefaultOpen))
        for (const char *key : lighting) setting_control(key, s, &r);
    if (ImGui::CollapsingHeader("Bloom", ImGuiTreeNodeFlags_DefaultOpen))
        for (const char *key : bloom) setting_control(key, s, &r);
    if (ImGui::CollapsingHeader("Colour grading")) {
        for (const char *key : grading) setting_control(key, s, &r);
        if (st->color_lut) {
            bool table = s->color_lut != 0;
            if (ImGui::Checkbox("colour table", &table)) s->color_lut = table ? st->color_lut : 0;
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("the --lut table, applied last");
        }
    }
    // A row none of the groups names still gets its control, here.
    bool more_open = false, more_shown = false;
    for (uint32_t i = 0; i < kiln_render_setting_count(); i++) {
        const kiln_render_setting *row = kiln_render_setting_at(i);
        if (row->at_creation || listed(general, row->key) || listed(lighting, row->key) || listed(bloom, row->key) ||
            listed(grading, row->key))
            continue;
        if (!more_shown) more_open = ImGui::CollapsingHeader("More", ImGuiTreeNodeFlags_DefaultOpen), more_shown = true;
        if (more_open) setting_control(row->key, s, &r);
    }
    ImGui::PopItemWidth();
    ImGui::TextDisabled("workers %u, shaders %s", kiln_renderer_worker_threads(st->renderer),
                        s->shader_dir ? s->shader_dir : "embedded");
    ImGui::End();
}

