package jv;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.MethodSource;

/** Test and lifecycle methods, and a source a string names: the framework calls them. */
public class TokenTest {
    private Token token;

    @BeforeEach
    void setUp() {
        token = new Token("a");
    }

    @Test
    void keepsItsText() {
        if (!token.text().equals("a")) {
            throw new AssertionError();
        }
    }

    @MethodSource("texts")
    void each(String text) {
        new Token(text);
    }

    static List<String> texts() {
        return List.of("a", "b");
    }

    void helper() {}
}
