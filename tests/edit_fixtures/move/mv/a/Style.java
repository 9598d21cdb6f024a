package mv.a;

public class Style {
    protected String nullText() {
        return "null";
    }
}
