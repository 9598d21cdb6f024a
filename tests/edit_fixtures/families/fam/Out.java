package fam;

/**
 * Issue 53 (java.base's Writer.nullWriter()): the anonymous class overrides append(CharSequence,
 * int, int), which Out and Appender both declare, so its method is in both families.
 */
public abstract class Out implements Appender {
    public static Out nullOut() {
        return new Out() {
            @Override
            public Out append(CharSequence c, int start, int end) {
                return this;
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public Out append(CharSequence c, int start, int end) {
        return this;
    }

    @Override
    public Out append(char c) {
        return this;
    }

    public abstract void close();
}
