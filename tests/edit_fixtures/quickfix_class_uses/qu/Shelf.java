package qu;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

public class Shelf {
    private String label = Labels.DEFAULT;

    public int count(List<String> items) {
        int max = Limits.MAX;
        long total;
        total = Limits.TOTAL;
        Box<String> box = new Box<>(items, 2);
        Pair<String, Integer> pair = null;
        Outer.Slot slot = new Outer.Slot(max, label);
        int width = Outer.Slot.WIDTH;
        items.add(Tags.FIRST);
        ship(Tags.SIZE);
        return max + width + (int) total + (box == null ? 0 : 1) + (pair == null ? 0 : 1) + (slot == null ? 0 : 1);
    }

    public <T> int keep(List<T> xs) {
        Keeper keeper = new Keeper(xs);
        return keeper == null ? 0 : 1;
    }

    private void ship(long size) {
    }

    public Comparator<String> order(Runnable then) {
        Runnable task = new Task(then);
        task.run();
        return new ByLength();
    }

    public int widen(List<? extends Number> nums) {
        Widener widener = new Widener(nums);
        return widener == null ? 0 : 1;
    }

    public int tables() {
        Map<String, List<? extends Number>> table = Tables.EMPTY;
        return table.size();
    }

    public List<String> names() {
        return Names.ALL;
    }
}
