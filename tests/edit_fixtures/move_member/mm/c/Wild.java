package mm.c;

import static mm.a.Util.*;

import java.util.List;
import mm.a.Util;

public class Wild {
    public int run(List<Integer> xs) {
        return sum(xs) + clamp(3) + new Util().bump(1);
    }
}
