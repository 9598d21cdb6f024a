package mv.a;

import java.util.List;

/** A widget, made of parts; {@link Helper} sizes it. */
public class Widget {
    public static class Part {
        public final int weight;

        public Part(int weight) {
            this.weight = weight;
        }
    }

    public int size(List<Part> parts) {
        return Helper.size() + parts.size();
    }
}
