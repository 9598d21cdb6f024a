package rf;

import java.util.List;
import rf.extra.Orphan;

public class Main {
    public static void main(String[] args) {
        int n = Util.twice(Util.SIZE);
        System.out.println(n);
        System.out.println(Util.sum(List.of(1, 2, n)));
    }
}
