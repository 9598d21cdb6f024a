package fixtures.annotations;

import java.lang.annotation.ElementType;
import java.lang.annotation.Target;

@Target({ElementType.TYPE_USE, ElementType.PARAMETER})
@interface Nullable {}

@Target(ElementType.TYPE_USE)
@interface A {}

@Target(ElementType.TYPE_USE)
@interface B { int value() default 0; }

/** Type annotations before a varargs ellipsis and on array dimensions. */
public class TypeAnnotations {
    Object getBean(String name) { return null; }

    /** Two overloads must stay two. */
    Object getBean(String name, @Nullable Object @Nullable ... args) { return null; }

    Object getBean(Class<?> type, Object @A @B(vaef.events;

/** Functional listener interface. */
@FunctionalInterface
public interface Listener {
    void on(Event event);

    default Listener andThen(Listener next) {
        return e -> {
            on(e);
            next.on(e);
        };
    }
}lue = 1) ... args) { return null; }

    static <T> T first(T @fixtures.annotations.A ... items) { return items[0]; }

    void arr(String @Nullable [] names) { }

    void arr2(int @A [] @B [] grid) { }

    void mixed(String @A [] @B ... rows) { }

    String @A [] field;

    int @A [] legacy() @B [] { return null; }

    void last() { }
}
