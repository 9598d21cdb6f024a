package other;

/** A top-level type named like Map.Entry. */
public class Entry {
}
