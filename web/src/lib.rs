//! The browser's page: the window's own client (`bolide_client::ui::BolideApp`) on eframe's
//! web runner, in the page the host's browser door served. It joins the table of that very
//! host, by the door it came from (a WebSocket, sealed after the exchange over the code word);
//! the code word comes from the address's fragment (`#GARAGE`), which no browser sends to
//! any server. On a laptop this crate is empty: the window is `bolide-app`.

#![cfg(target_arch = "wasm32")]

use bolide_client::lang::Lang;
use bolide_client::ui::BolideApp;
use std::net::SocketAddr;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

mod labels;

/// The page's canvas, as `index.html` names it.
const CANVAS: &str = "bolide";
/// The page's paragraph for what keeps the table from opening.
const TROUBLE: &str = "trouble";

#[wasm_bindgen(start)]
pub fn start() -> Result<(), JsValue> {
    let window = web_sys::window().ok_or("no window")?;
    let location = window.location();
    let host = location.host()?;
    let query = location.search()?;
    bolide_client::platform::console::install(&query);
    // A fairness field run's pilot (`?field`, with a host started `serve --fairness-test`).
    let field_test = bolide_client::platform::query::flag(&query, "field");
    // A script driving the page by its widgets' names (`?labels`, labels.rs).
    let labels = bolide_client::platform::query::flag(&query, "labels");
    let word = fragment_word(&location.hash()?);
    let lang = match window.navigator().language() {
        Some(tag) if tag.to_ascii_lowercase().starts_with("fr") => Lang::Fr,
        _ => Lang::En,
    };
    let canvas = window
        .document()
        .and_then(|d| d.get_element_by_id(CANVAS))
        .ok_or("the page has no canvas")?
        .dyn_into::<web_sys::HtmlCanvasElement>()?;
    plain_gl_context(&canvas);
    let words = lang.words();
    let Ok(addr) = host.parse::<SocketAddr>() else {
        trouble(&(words.page_by_address)(&host));
        return Ok(());
    };
    wasm_bindgen_futures::spawn_local(async move {
        let runner = eframe::WebRunner::new();
        let started = runner
            .start(
                canvas,
                eframe::WebOptions::default(),
                Box::new(move |cc| {
                    if labels {
                        cc.egui_ctx.add_plugin(labels::Labels);
                    }
                    Ok(Box::new(
                        BolideApp::page(&cc.egui_ctx, addr, &word, lang, field_test).map_err(|e| e.to_string())?,
                    ))
                }),
            )
            .await;
        if let Err(e) = started {
            trouble(&(words.page_cannot_draw)(&e.as_string().unwrap_or_else(|| format!("{e:?}"))));
        }
    });
    Ok(())
}

/// egui draws its own smooth edges (it feathers every shape, as the window draws with no
/// multisampling) and needs no depth: the page's WebGL context is made without the browser's
/// multisampling, depth and stencil buffers, which cost a software GL (SwiftShader, a modest
/// phone's) a large share of every frame — and a late frame is a late `shown`. Made before
/// eframe asks: a canvas keeps the context its first ask made.
fn plain_gl_context(canvas: &web_sys::HtmlCanvasElement) {
    let options = js_sys::Object::new();
    for key in ["antialias", "depth", "stencil"] {
        // Setting a property on a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&options, &key.into(), &false.into());
    }
    let made = |kind: &str| canvas.get_context_with_context_options(kind, &options).ok().flatten().is_some();
    // eframe asks for WebGL 2 first, then 1: the same order.
    if !made("webgl2") {
        made("webgl");
    }
}

/// Says on the page itself why the table cannot open — a guest has no console to read — in
/// `index.html`'s paragraph for it, and in the console.
fn trouble(message: &str) {
    web_sys::console::error_1(&message.into());
    if let Some(p) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(TROUBLE)) {
        p.set_text_content(Some(message));
        // Removing an attribute from an element of the page cannot fail.
        let _ = p.remove_attribute("hidden");
    }
}

/// The code word in the address's fragment: `#GARAGE`, `#garage-2`; anything else, nothing.
fn fragment_word(hash: &str) -> String {
    let word = hash.trim_start_matches('#');
    let word = js_sys::decode_uri_component(word).ok().and_then(|w| w.as_string()).unwrap_or_default();
    word.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').take(32).collect()
}
