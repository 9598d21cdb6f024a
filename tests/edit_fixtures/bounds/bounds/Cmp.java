package bounds;

/** Issue 53 (java.base's Collections.min, 100-pick rename proof): a comparable of its own. */
public interface Cmp<T> {
    int cmp(T other);
}
