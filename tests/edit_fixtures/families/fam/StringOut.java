package fam;

/** Issue 53: java.base's StringWriter, whose append(CharSequence,int,int) was the rename picked. */
public class StringOut extends Out {
    @Override
    public StringOut append(CharSequence c, int start, int end) {
        return this;
    }

    @Override
    public void close() {}

    static Out use(StringOut s) {
        return s.append("x", 0, 1).append('y');
    }
}
