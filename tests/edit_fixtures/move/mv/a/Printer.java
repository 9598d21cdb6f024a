package mv.a;

public class Printer extends Style {
    public String print(Object o) {
        return o == null ? nullText() : new Style().nullText() + o;
    }
}
