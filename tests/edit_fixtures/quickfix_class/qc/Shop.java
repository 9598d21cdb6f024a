package qc;

import java.util.List;
import java.util.Map;

public class Shop {
    public int total(List<String> items, Map<String, Integer> stock) {
        Basket basket = new Basket(items, 3);
        int n = Prices.sum(stock, 2.5);
        Prices.clear();
        Receipt receipt = null;
        return n + (receipt == null ? 0 : 1) + (basket == null ? 0 : 1);
    }
}
