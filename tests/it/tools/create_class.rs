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

/// tests/edit_fixtures/quickfix_class_uses: constants typed by their use, generic classes and
/// a member class of an existing class; and uses that do not say the type, not offered.
#[test]
fn create_constants_generic_and_nested_classes_until_it_compiles() {
    let p = Project::of("edit_fixtures", "quickfix_class_uses");
    let ws = p.workspace(&[]);
    ws.build_index();
    // Guess.java's uses do not say what to create (an overloaded call's argument, `var`, a lone
    // diamond, a type variable as a constant's or a method's type, `new` assigned to a type
    // written with a wildcard or to a class): no fix creates a class there.
    let guesses = fixes(&ws, "qu/Guess.java");
    assert!(guesses.iter().all(|(_, _, t)| !t.starts_with("create class")), "{guesses:?}");
    let titles: Vec<String> = fixes(&ws, "qu/Shelf.java").into_iter().map(|(_, _, t)| t).collect();
    for t in [
        "create class Labels in qu/Labels.java",
        "create class Limits in qu/Limits.java",
        "create class Box in qu/Box.java",
        "create class Pair in qu/Pair.java",
        "create class Slot in qu/Outer.java",
        "create class Names in qu/Names.java",
    ] {
        assert!(titles.iter().any(|x| x == t), "{t} not in {titles:?}");
    }
    // `Foo.CONST`: a constant of the type its declaration, assignment or return says.
    let (limits, _) = fix(&ws, "qu/Shelf.java", "create class Limits in qu/Limits.java");
    insta::assert_snapshot!("create_class_constants", limits);
    let (names, _) = fix(&ws, "qu/Shelf.java", "create class Names in qu/Names.java");
    insta::assert_snapshot!("create_class_constant_returned", names);
    // Arguments of calls only one method can mean: `List<String>.add(E)`, `ship(long)`.
    let (tags, _) = fix(&ws, "qu/Shelf.java", "create class Tags in qu/Tags.java");
    insta::assert_snapshot!("create_class_constant_arguments", tags);
    let (labels, _) = fix(&ws, "qu/Shelf.java", "create class Labels in qu/Labels.java");
    assert!(labels.contains("+    public static final String DEFAULT = \"\";"), "{labels}");
    // Generic: the type parameters counted from the uses, the diamond's from its declaration.
    let (generic, _) = fix(&ws, "qu/Shelf.java", "create class Box in qu/Box.java");
    insta::assert_snapshot!("create_class_generic", generic);
    let (pair, _) = fix(&ws, "qu/Shelf.java", "create class Pair in qu/Pair.java");
    assert!(pair.contains("+public class Pair<T, U> {}"), "{pair}");
    // `List<T>` (T the caller's type variable) is written raw, not `List<Object>`.
    let (keeper, _) = fix(&ws, "qu/Shelf.java", "create class Keeper in qu/Keeper.java");
    assert!(keeper.contains("+    public Keeper(List xs) {"), "{keeper}");
    // `Runnable task = new Task(then)`, `return new ByLength()` for a Comparator<String>: the
    // class implements the interface, its abstract methods written.
    let (task, _) = fix(&ws, "qu/Shelf.java", "create class Task in qu/Task.java");
    insta::assert_snapshot!("create_class_implementing", task);
    let (by_length, _) = fix(&ws, "qu/Shelf.java", "create class ByLength in qu/ByLength.java");
    insta::assert_snapshot!("create_class_implementing_generic", by_length);
    // `List<? extends Number>`, which the binder reads as `List<Number>`, is written raw.
    let (widener, _) = fix(&ws, "qu/Shelf.java", "create class Widener in qu/Widener.java");
    assert!(widener.contains("+    public Widener(List nums) {"), "{widener}");
    // A constant of a type written with a wildcard inside is raw (`Map<String, List<Number>>`
    // would not be a `Map<String, List<? extends Number>>`).
    let (tables, _) = fix(&ws, "qu/Shelf.java", "create class Tables in qu/Tables.java");
    assert!(tables.contains("+    public static final Map EMPTY = null;"), "{tables}");
    // `Outer.Slot`: a static member class of Outer, in Outer's file.
    let (nested, _) = fix(&ws, "qu/Shelf.java", "create class Slot in qu/Outer.java");
    insta::assert_snapshot!("create_class_nested", nested);
    let left = fixes(&ws, "qu/Shelf.java");
    assert!(left.is_empty(), "{left:?}");
    std::fs::remove_file(p.path("qu/Guess.java")).expect("remove Guess.java");
    compiles(&p);
}
