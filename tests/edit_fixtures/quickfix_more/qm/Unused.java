package qm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

class Unused {
    List<String> names() {
        int unused = 42;
        String kept = compute();
        List<String> out = new ArrayList<>();
        return out;
    }

    String compute() {
        return "x";
    }
}
