package mm.c;

import java.util.List;
import mm.a.Util;

public class Client {
    public int run(List<Integer> xs) {
        return Util.sum(xs) + mm.a.Util.sum(List.of(1));
    }
}
