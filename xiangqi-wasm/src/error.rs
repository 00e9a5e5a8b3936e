//! Errors thrown to JavaScript: instances of the package's `XiangqiError` class.

use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    static ERROR_CLASS: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

/// Registers the class that errors are made of: `new cls(kind, message, details)`. The
/// JavaScript half calls it once after loading the module; until then errors are plain
/// `Error`s whose `name` is `XiangqiError`, with the same `kind` and fields.
#[wasm_bindgen(js_name = setErrorClass)]
pub fn set_error_class(cls: js_sys::Function) {
    ERROR_CLASS.with(|c| *c.borrow_mut() = Some(cls));
}

/// A library error on its way to JavaScript.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    /// What kind: `fen`, `notation`, `illegal`, `record`, `option`.
    pub kind: &'static str,
    /// The library's message.
    pub message: String,
    /// For an illegal move, the rule it breaks (`horse_leg`, `flying_general`, ...).
    pub reason: Option<&'static str>,
    /// For a move of a list, its index.
    pub index: Option<usize>,
}

impl Error {
    /// An error of `kind` saying `message`.
    pub fn new(kind: &'static str, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            reason: None,
            index: None,
        }
    }

    /// The same error about move `index` of a list.
    pub fn at(mut self, index: usize) -> Error {
        self.index = Some(index);
        self
    }
}

impl From<Error> for JsValue {
    fn from(e: Error) -> JsValue {
        let details = js_sys::Object::new();
        let set = |k: &str, v: JsValue| {
            let _ = js_sys::Reflect::set(&details, &JsValue::from_str(k), &v);
        };
        if let Some(r) = e.reason {
            set("reason", JsValue::from_str(r));
        }
        if let Some(i) = e.index {
            set("index", JsValue::from_f64(i as f64));
        }
        let made = ERROR_CLASS.with(|c| {
            c.borrow().as_ref().and_then(|cls| {
                let args = js_sys::Array::of3(
                    &JsValue::from_str(e.kind),
                    &JsValue::from_str(&e.message),
                    &details,
                );
                js_sys::Reflect::construct(cls, &args).ok()
            })
        });
        made.unwrap_or_else(|| {
            let err = js_sys::Error::new(&e.message);
            err.set_name("XiangqiError");
            let _ = js_sys::Reflect::set(&err, &"kind".into(), &e.kind.into());
            let _ = js_sys::Object::assign(&err, &details);
            err.into()
        })
    }
}
