package mm.a;

/** Where limits live. */
final class Limits {
    private Limits() {
    }
}
