package jv;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamField;
import java.io.Serializable;

/** A serializable value whose hooks nothing in code calls: serialization calls them by name. */
public final class Token implements Serializable {
    private static final long serialVersionUID = 1L;

    private static final ObjectStreamField[] serialPersistentFields = {new ObjectStreamField("text", String.class)};

    private final String text;

    public Token(String text) {
        this.text = text;
    }

    private Object writeReplace() {
        return new Proxy(text);
    }

    private void readObject(ObjectInputStream in) throws InvalidObjectException {
        throw new InvalidObjectException("a proxy is required");
    }

    private void writeObject(ObjectOutputStream out) throws java.io.IOException {
        out.defaultWriteObject();
    }

    private void readObjectNoData() throws InvalidObjectException {
        throw new InvalidObjectException("no data");
    }

    /** Not a hook: it takes a parameter. */
    private Object readResolve(int unused) {
        return this;
    }

    String text() {
        return text;
    }

    /** The serialized form. */
    static final class Proxy implements Serializable {
        private static final long serialVersionUID = 2L;

        private final String text;

        Proxy(String text) {
            this.text = text;
        }

        Object readResolve() {
            return new Token(text);
        }
    }
}
