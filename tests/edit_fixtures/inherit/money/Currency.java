package money;

import java.util.function.Supplier;

public enum Currency implements Supplier<String> {
    EUR, USD;
}
