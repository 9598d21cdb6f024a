//! Comparisons with an outside authority on real corpora: the outline against javac's parser,
//! the references against javac's attribution (with and without library classpaths), and the
//! JDK API table against the JDK's sources and its image.

mod calls_javac;
mod javac_agreement;
mod jdk_api_gen;
mod jdk_image;
mod lombok_projects;
mod scip_java;
mod score;
mod xref_javac;
mod xref_jls;
mod xref_libraries;
