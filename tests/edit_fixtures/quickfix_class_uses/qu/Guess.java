package qu;

public class Guess {
    public void print() {
        // println is overloaded: the argument's type is not known.
        System.out.println(Unknown.VALUE);
        // var says nothing about the type.
        var v = Vague.VALUE;
        // The diamond alone does not say how many type parameters.
        Object bag = new Bag<>();
    }

    // A type variable cannot be written in another class.
    public <T> T pick() {
        return Generic.VALUE;
    }

    // Implementing a type written with a wildcard, or extending a class, is not guessed.
    public Object sources() {
        java.util.function.Supplier<java.util.List<? extends Number>> s = new Source();
        Number n = new Amount();
        return s == null ? n : s;
    }

    public <T> T make() {
        return Maker.make();
    }
}
