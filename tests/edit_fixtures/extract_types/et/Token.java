package et;

import java.lang.reflect.Type;

/** A type token, as Gson's: a static generic factory and a generic instance method. */
public class Token<T> {
    final Type type;

    Token(Type type) {
        this.type = type;
    }

    public static Token<?> get(Type type) {
        return new Token<Object>(type);
    }

    public static <T> Token<T> get(Class<T> type) {
        return new Token<T>(type);
    }

    public Type getType() {
        return type;
    }
}
