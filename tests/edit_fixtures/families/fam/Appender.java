package fam;

/** Issue 53 (java.base's Writer.nullWriter()): an interface Out implements. */
public interface Appender {
    Appender append(CharSequence c, int start, int end);

    Appender append(char c);
}
