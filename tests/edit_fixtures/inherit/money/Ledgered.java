package money;

public interface Ledgered {
    enum Kind { CASH, CARD }

    Kind kind();
}
