package jv;

import junit.framework.TestCase;

/** A JUnit 3 test: the runner calls its public test methods by their names. */
public class LegacyTest extends TestCase {
    public void testText() {
        new Token("a");
    }

    public void helper() {}
}
