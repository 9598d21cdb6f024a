package sg;

import java.util.ArrayList;
import java.util.List;

public class Loops {
    static int sum(Point[] points) {
        int total = 0;
        for (int i = 0; i < points.length; i++) {
            total += points[i].x * points[i].y;
        }
        return total;
    }

    static List<String> upper(List<String> words) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < words.size(); ++i)
            out.add(words.get(i).toUpperCase());
        return out;
    }

    static void reset(int[] counts) {
        for (int i = 0; i < counts.length; i++) {
            counts[i] = 0;
        }
    }

    static int weighted(int[] counts) {
        int total = 0;
        for (int i = 0; i < counts.length; i++) {
            total += i * counts[i];
        }
        return total;
    }
}
