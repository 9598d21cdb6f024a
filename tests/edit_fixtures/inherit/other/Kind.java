package other;

/** A top-level type named like Ledgered.Kind. */
public enum Kind { OTHER }
