package money;

import java.util.AbstractList;

/** AbstractList leaves get(int) and size() abstract; the rest is implemented above it. */
public class MoneyList extends AbstractList<Money> {
}
