// The Render settings panel of kiln-view's debug UI (kiln_view_ui_settings.cpp), drawn by
// kiln_view_ui.cpp inside its ImGui frame. C++: Dear ImGui's.
#ifndef KILN_VIEW_UI_SETTINGS_H
#define KILN_VIEW_UI_SETTINGS_H

struct view_ui_state;

// Every row of the settings table but those read at creation, grouped as kiln-render's usage
// groups them, editing the renderer's settings in place.
void view_ui_settings_panel(const view_ui_state *st);

#endif
