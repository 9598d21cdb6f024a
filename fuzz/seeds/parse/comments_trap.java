package com.example.outline.comments;

import java.util.List;

/**
 * Lexical traps: braces and comment markers inside literals and comments.
 */
class Traps {

    /** Braces inside a string. */
    static final String BRACES = "}}} { /** not a doc */ }";

    /** Braces inside char literals. */
    static final char OPEN = '{', CLOSE = '}', QUOTE = '\'', SLASH = '/';

    /** An escaped quote followed by a brace. */
    static final String ESCAPED = "\"}\\";

    // a line comment with a closing brace }
    /* a block comment with braces { } and } */

    /** Text block with braces and a fake javadoc. */
    static final String BLOCK = """
        class Fake {
            /** fake */
            void notAMethod() {
        }
        }
        \"""
        } still inside """;

    /**
     * The real javadoc of {@code first}.
     */
    // a line comment between javadoc and method
    /* a block comment between javadoc and method { */
    void first() {
        String s = "{";
        char c = '}';
        // }
        /* } */
        if (s.length() > 0 && c != '{') {
            s += "}";
        }
    }

    /** The older javadoc, not used. */
    /** The nearest javadoc, which wins. */
    void second() {
    }

    /**/
    void emptyJavadoc() {
    }

    /// Triple-slash line comment, not javadoc in Java 17.
    /// Another line.
    void tripleSlash() {
    }

    /*
     * A plain block comment that looks like javadoc but is not.
     */
    void plainBlock() {
    }

    /***
     * Three stars still open a doc comment.
     */
    void threeStars() {
    }

    /** Lambda with braces in a string inside the body. */
    List<String> lambdas() {
        Runnable r = () -> { String t = "}"; };
        r.run();
        return List.of("{", "}", "/*", "*/", "//");
    }

    /** Unicode-escaped quote inside a string is still a quote: see below. */
    String unicodeQuote() {
        return "\u0041}";
    }

    /** Division operators that look like comment starts. */
    int division(int a, int b) {
        int x = a / b /* ratio */ / 2;
        return x /b;
    }

    /** Last method; a comment with a brace follows. */
    void last() {
    } // }
    /* } */
}
