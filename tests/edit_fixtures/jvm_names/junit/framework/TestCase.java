package junit.framework;

/** JUnit 3's base class, as far as the fixture needs it. */
public abstract class TestCase {}
