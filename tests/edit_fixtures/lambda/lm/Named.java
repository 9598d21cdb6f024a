package lm;

public interface Named {
    default String name() {
        return "op";
    }
}
