//! The `guarantor` command-line tool.
fn main() {}
