package p;

/** Filtered by the templating plugin: still Java. */
public final class Version {
    public static final String NAME = "${project.version}";

    private Version() {
    }
}
