//! The "create class" quick fix on a temp copy of tests/edit_fixtures/quickfix_class, which
//! does not compile as committed: each class javac cannot find is created beside the file
//! with what the file's uses need, and then javac compiles it.

use common::project::Project;

use super::quick_fix::{fix, fixes};
use super::refactor::compiles;
use crate::common;

#[test]
fn create_the_missing_classes_from_their_uses_until_it_compiles() {
    let p = Project::of("edit_fixtures", "quickfix_class");
    let ws = p.workspace(&[]);
    ws.build_index();
    let titles: Vec<String> = fixes(&ws, "qc/Shop.java").into_iter().map(|(_, _, t)| t).collect();
    for t in [
        "create class Basket in qc/Basket.java",
        "create class Prices in qc/Prices.java",
        "create class Receipt in qc/Receipt.java",
    ] {
        assert!(titles.iter().any(|x| x == t), "{t} not in {titles:?}");
    }
    // From `new Basket(items, 3)`: its constructor, the argument types the binder's.
    let (basket, _) = fix(&ws, "qc/Shop.java", "create class Basket in qc/Basket.java");
    insta::assert_snapshot!("create_class_constructor", basket);
    // From `Prices.sum(stock, 2.5)` and `Prices.clear()`: static methods, the return types
    // from the calls' contexts.
    let (prices, _) = fix(&ws, "qc/Shop.java", "create class Prices in qc/Prices.java");
    insta::assert_snapshot!("create_class_static_methods", prices);
    let (receipt, _) = fix(&ws, "qc/Shop.java", "create class Receipt in qc/Receipt.java");
    assert!(receipt.contains("+public class Receipt {}"), "{receipt}");
    compiles(&p);
}
