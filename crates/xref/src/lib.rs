//! Cross-file intelligence: which declaration each name in the code binds to, the way javac
//! would bind it, from syntax and the workspace's declarations (no compiler run).
//!
//! [`decls`] reads what each file declares (from its skeleton), [`world`] links those into a
//! workspace-wide type table with javac's lookup rules, [`bind`] binds every reference of one
//! file, [`engine`] keeps the world fresh and answers the tools' questions through the queries
//! (`query/`, re-exported here: [`target`], [`calls`], [`hierarchy`], …) over the reference
//! index it persists (`index/`), and [`keeper`] drives it for a workspace (the world last
//! answered with, the background binding loop, persisting).

pub mod bind;
pub mod decls;
pub mod engine;
mod index;
mod invalidate;
pub mod keeper;
pub mod kotlin;
pub mod name;
mod query;
mod scope;
pub mod ty;
pub mod world;

pub use index::lazy;
pub use query::{accessors, calls, definition, deps, hierarchy, rename, signature, target, textual};

use serde::{Deserialize, Serialize};

/// How a reference uses its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RefKind {
    Import,
    Extends,
    Implements,
    Type,
    New,
    Call,
    FieldRead,
    FieldWrite,
    Annotation,
    MethodRef,
    ThisCall,
    SuperCall,
    Javadoc,
    /// The name of a method declared in an anonymous class, an enum constant's body or a local
    /// class (which have no key of their own), bound to the methods it overrides.
    Override,
    /// A lambda (at its `->`) or method reference (at its `::`) bound to the functional
    /// interface it implements (category `Type`), where the binder knows the type it is for: a
    /// declaration's, a `return`'s or a call's parameter. No reference javac reports, and no
    /// use of the interface's name: only type hierarchies read it ([`target::search`] leaves
    /// it out).
    Lambda,
}

/// What a reference points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    Type,
    Method,
    Ctor,
    Field,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Type => "type",
            Category::Method => "method",
            Category::Ctor => "ctor",
            Category::Field => "field",
        }
    }
}

/// `exact`: bound as javac binds it. `likely`: the receiver's type or the overload could not be
/// known; the target is one of the candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    Exact,
    Likely,
}

/// One reference in a file. `targets` are keys: a type's qualified name, `Owner#name(params)`
/// for methods and constructors (erased qualified parameter types), `Owner#name` for fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ref {
    pub line: u32,
    /// 1-based, in UTF-16 code units (as editors and javac count).
    pub column: u32,
    pub kind: RefKind,
    pub category: Category,
    pub targets: Vec<String>,
    pub confidence: Confidence,
    /// The member of a named type the reference is written in (`None` outside any member:
    /// imports, type headers, or a member the world does not know).
    pub caller: Option<std::sync::Arc<Caller>>,
    /// Where inside [`Ref::caller`] it is: [`WITHIN_LAMBDA`], [`WITHIN_CLASS`] bits.
    pub within: u8,
    /// A call javac binds to an override that an anonymous class, an enum constant's body or
    /// a local class declares (which has no key: `hasNext()` inside an anonymous `Iterator`
    /// that declares it), bound here to the method that override overrides, as a rename and
    /// the override family need: the call reaches its target through that override.
    pub via_override: bool,
}

/// [`Ref::within`]: in a lambda's body.
pub const WITHIN_LAMBDA: u8 = 1;
/// [`Ref::within`]: in an anonymous or local class (which have no key of their own), or an
/// enum constant's body.
pub const WITHIN_CLASS: u8 = 2;

/// The member a reference is written in, as the call hierarchy names callers: a method or
/// constructor by its key, a type's static initialisation (static initializers, static field
/// initializers, enum constants) as `Owner#<clinit>`, its instance initialisation (instance
/// initializers and field initializers) as `Owner#<init>`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Caller {
    pub key: String,
    pub kind: CallerKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CallerKind {
    Method,
    Constructor,
    StaticInit,
    Init,
}

impl CallerKind {
    pub fn as_str(self) -> &'static str {
        match self {
            CallerKind::Method => "method",
            CallerKind::Constructor => "constructor",
            CallerKind::StaticInit => "static-init",
            CallerKind::Init => "init",
        }
    }
}
