package p;

/** Uses what the build generates: a template, a grammar's parser, a model's class. */
public class App {
    String version() {
        return Version.NAME;
    }

    Object parse(ExprParser parser) {
        return parser;
    }

    Object server(p.model.Server s) {
        return s;
    }

    Object real(Nope n) {
        return n;
    }
}
