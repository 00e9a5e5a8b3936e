//! Link the extension module as Python expects: no libpython, the interpreter's symbols
//! resolved at load time (on macOS this needs `-undefined dynamic_lookup`).
fn main() {
    pyo3_build_config::add_extension_module_link_args();
}
