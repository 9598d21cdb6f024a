package money;

/** An amount; implements its interfaces' methods only after implement_methods. */
public final class Money implements Comparable<Money>, Priced<Money> {
    private final long cents;

    public Money(long cents) {
        this.cents = cents;
    }
}
