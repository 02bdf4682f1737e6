//! The link settings Node addons need (napi-build).

fn main() {
    napi_build::setup();
}
