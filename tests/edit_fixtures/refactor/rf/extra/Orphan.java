package rf.extra;

/** Nobody uses it; {@link Orphan#NAME} only names itself. */
public class Orphan {
    public static final String NAME = "orphan";
}
