package lm;

/** Two abstract methods: not functional. */
public interface Pair {
    int left();

    int right();
}
