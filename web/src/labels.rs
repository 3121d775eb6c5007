//! `?labels`: the page says what it shows by accessible label, as the window's tests read it
//! (egui_kittest's `get_by_label`). A canvas has no DOM to query, so a script driving a real
//! browser (scripts/browser) found its buttons by coordinates; with this flag each frame's
//! AccessKit tree — the labels egui gives every widget for screen readers — is kept in
//! `window.bolideLabels` as `[{label, role, x, y, w, h, enabled}]` in CSS pixels, and a
//! script taps a card or a button by its name on any screen size. Off unless asked: building
//! the tree costs every frame.

use wasm_bindgen::JsValue;

/// The plugin that keeps each frame's labels in `window.bolideLabels`.
pub struct Labels;

impl egui::Plugin for Labels {
    fn debug_name(&self) -> &'static str {
        "bolide-labels"
    }

    fn setup(&mut self, ctx: &egui::Context) {
        ctx.enable_accesskit();
    }

    fn output_hook(&mut self, ctx: &egui::Context, output: &mut egui::FullOutput) {
        let Some(update) = &output.platform_output.accesskit_update else { return };
        // egui's points are CSS pixels times the page's zoom.
        let zoom = f64::from(ctx.zoom_factor());
        let list = js_sys::Array::new();
        for (_, node) in &update.nodes {
            let (Some(label), Some(b)) = (node.label().or(node.value()), node.bounds()) else { continue };
            let entry = js_sys::Object::new();
            let fields: [(&str, JsValue); 7] = [
                ("label", label.into()),
                ("role", format!("{:?}", node.role()).into()),
                ("x", (b.x0 * zoom).into()),
                ("y", (b.y0 * zoom).into()),
                ("w", ((b.x1 - b.x0) * zoom).into()),
                ("h", ((b.y1 - b.y0) * zoom).into()),
                ("enabled", (!node.is_disabled()).into()),
            ];
            for (key, value) in fields {
                // Setting a property on a fresh plain object cannot fail.
                let _ = js_sys::Reflect::set(&entry, &key.into(), &value);
            }
            list.push(&entry);
        }
        if let Some(window) = web_sys::window() {
            let _ = js_sys::Reflect::set(&window, &"bolideLabels".into(), &list);
        }
    }
}
