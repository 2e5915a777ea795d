// bad.wgsl
fn helper() -> u32 {
    let x = undefined_thing + ONE;
    return x;
}
