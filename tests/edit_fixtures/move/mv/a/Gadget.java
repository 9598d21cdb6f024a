package mv.a;

public class Gadget {
    public int weight() {
        return Helper.hidden();
    }
}
