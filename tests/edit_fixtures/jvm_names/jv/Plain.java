package jv;

/** Not serializable: methods of the hooks' names are ordinary here. */
public class Plain {
    private Object writeReplace() {
        return this;
    }

    static final long serialVersionUID = 3L;
}
