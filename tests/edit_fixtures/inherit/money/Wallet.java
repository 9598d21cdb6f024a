package money;

import java.util.ArrayList;
import java.util.List;

public class Wallet {
    private final List<Money> coins = new ArrayList<>();
}
