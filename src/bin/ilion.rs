//! The `ilion` binary: wiring only.

fn main() {
    println!("ilion {}", env!("CARGO_PKG_VERSION"));
}
