package rf;

import java.util.List;
import rf.extra.Orphan;

public class Main {
    public static void main(String[] args) {
        int n = Util.twice(Util.SIZE);
        System.out.println(n);
        System.out.println(Util.sum(List.of(1, 2, n)));
        System.out.println(label(n));
    }

    static String label(int count) {
        String unit = count == 1 ? "item" : "items";
        long big = count * 1000;
        return count + " " + unit + big;
    }
}
