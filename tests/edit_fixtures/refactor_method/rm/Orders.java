package rm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

public class Orders {
    private final List<String> lines = new ArrayList<>();
    private int count;

    public static int total(int[] prices, int discount) {
        int sum = 0;
        for (int p : prices) {
            sum += p;
        }
        int net = sum - discount;
        System.out.println("net " + net);
        return net;
    }

    public void add(String item, int qty) {
        String line = item + " x" + qty;
        lines.add(line);
        count++;
        System.out.println(count);
    }

    public <T extends Comparable<T>> T max(List<T> xs) {
        T best = xs.get(0);
        for (T x : xs) {
            if (x.compareTo(best) > 0) {
                best = x;
            }
        }
        return best;
    }

    public String load(String name) throws IOException {
        String text = Store.read(name);
        String tagged = "<" + text + ">";
        System.out.println(tagged.length());
        return tagged;
    }

    int firstNegative(int[] xs) {
        int found = -1;
        for (int i = 0; i < xs.length; i++) {
            if (xs[i] < 0) {
                found = i;
                break;
            }
        }
        return found;
    }

    void split(int a, int b) {
        int lo = Math.min(a, b);
        int hi = Math.max(a, b);
        System.out.println(lo + ".." + hi);
    }
}
