package lm;

/** An abstract class with one abstract method: not an interface. */
public abstract class Task {
    public abstract void go();
}
