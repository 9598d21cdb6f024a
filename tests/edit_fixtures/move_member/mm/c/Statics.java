package mm.c;

import static mm.a.Util.sum;

import java.util.List;
import java.util.function.Function;
import mm.a.Util;

public class Statics {
    public int run(List<Integer> xs) {
        Function<List<Integer>, Integer> f = Util::sum;
        return sum(xs) + f.apply(xs) + Util.clamp(1);
    }
}
